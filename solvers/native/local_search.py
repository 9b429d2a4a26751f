"""A random n-queens solution for huge n by local search (QS4, see native/localsearch.c).

`construct` gives one fixed solution by formula; this gives a different, random one for each
seed, still in O(n): n = 10^7 in about a second and 45 MB, n = 10^8 in well under a minute.
The search can stall in a local minimum (small boards do, often); it then restarts with the
next seed. Every answer passes the streaming verifier before it is returned.

>>> columns = random_solution(8, seed=1)
>>> sorted(columns.tolist())
[0, 1, 2, 3, 4, 5, 6, 7]
"""

from __future__ import annotations

import numpy as np
from queens.models import BackendError, InvalidBoard, TimeLimit
from queens.models.verify_stream import verify_columns
from queens.solvers.backend import deadline_after, seconds_left
from queens.solvers.native import _localsearch

SEED_STRIDE = 0x9E3779B97F4A7C15
"""Restart r of seed s runs C seed s + r * SEED_STRIDE (mod 2^64): distinct streams."""


def seed_for(seed: int, attempt: int) -> int:
    """The C generator's seed for restart `attempt` of the user's `seed`."""
    return (seed + attempt * SEED_STRIDE) % 2**64


def random_solution(n: int, seed: int = 0, time_limit: float | None = None) -> np.ndarray | None:
    """The column (int32) of each row's queen, or None for n = 2 and 3, which have no solution."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= _localsearch.MAX_N:
        raise InvalidBoard(f"local search needs 1 <= n <= {_localsearch.MAX_N}, got {n!r}")
    if n in (2, 3):
        return None
    deadline = deadline_after(time_limit)
    columns = np.empty(n, np.int32)
    attempt = 0
    while True:
        left = seconds_left(deadline, f"local search: no solution of {n}-queens within {time_limit} s")
        outcome, _ = _localsearch.search(n, columns, seed=seed_for(seed, attempt), seconds=left)
        attempt += 1
        if outcome == _localsearch.SOLVED:
            if verify_columns(columns) != n:
                raise BackendError("local search returned a placement with empty rows")
            return columns
        if outcome == _localsearch.OUT_OF_TIME:
            raise TimeLimit(f"local search: no solution of {n}-queens within {time_limit} s")
