"""The backends: each solver library behind the one `Backend` interface (`queens.solvers.backend`).

One module per backend (`cpsat`, `sat`, `csp`, `mip`, `minizinc`; the native one is in
`queens.solvers.native`), plus what only backends use: sat's cube and conquer, the
callback-to-generator bridge (`enumeration`) and the MiniZinc process call. A backend imports
the models, `formats`, `runtime` and the core interface; never `routing` (tests/layers.py).
They are imported by name through `queens.solvers.registry`, so a missing library is a message.
"""
