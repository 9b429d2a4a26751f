"""The native backend's C kernels and their drivers; the backend class is in `backend.py`.

Kept empty so that importing one kernel (e.g. `_localsearch`) does not load the others.
"""
