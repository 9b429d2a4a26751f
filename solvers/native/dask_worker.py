"""Loaded by every worker process of a local Dask cluster (LocalCluster's `preload`).

A terminal's Ctrl-C goes to the whole process group: the workers, children of this process,
got it too and each printed a KeyboardInterrupt traceback ("Process Dask Worker process (from
Nanny)") while the count itself stopped cleanly. The workers ignore SIGINT, as the split pool's
do (solvers/runtime/process_pool.py): the count in the parent stops them when it closes the cluster.
"""

from __future__ import annotations

import signal


def dask_setup(worker: object) -> None:
    """Dask calls this in the worker process as it starts (its main thread)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
