"""How many cores this process may use: the default for every pool of threads or processes; and
the one core numpy's BLAS gets in the programs the package starts.

>>> default_threads() >= 1
True
"""

from __future__ import annotations

import os

BLAS_THREADS = "OPENBLAS_NUM_THREADS"
"""The variable OpenBLAS, numpy's BLAS in its wheels, reads once, when numpy is imported."""


def default_threads() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def one_blas_thread() -> None:
    """Give numpy's BLAS one thread in this process and every process it starts, unless the
    user chose a number: called by a program before numpy is imported (the console script).

    The package multiplies no matrices (numpy holds its bit arrays and vectors), but OpenBLAS
    starts a thread per core as numpy is imported, and those threads spin before they sleep:
    CPU time every command, solver process, Dask worker and grid run paid at start for nothing
    (experiments/results/suite-time.md). A library call leaves the caller's environment alone."""
    os.environ.setdefault(BLAS_THREADS, "1")
