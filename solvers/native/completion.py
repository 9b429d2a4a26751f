"""Exact n-queens completion: a fast answer, and "no" only with a proof.

Grigoryan's completion heuristic (2020) answers "no solution" wrongly for about 1 in 10^4
solvable inputs. Here two methods take turns, each round with twice (local search) or four
times (exact search) the allowance of the round before:
- local search (native/localsearch.c: QS4 with the given queens pinned) completes loosely
  constrained boards in O(n), but a failure proves nothing;
- the exact search (native/completion.c: propagation over rows, columns and diagonals,
  minimum-risk lines, minimum-damage cells, randomised restarts) is complete, so when it
  answers "no" the board has no completion.
The turns are a portfolio: loose boards (n = 1000, 100 queens) finish in the first local
search; on tight ones (few free rows, as near the solvable/unsolvable transition) the exact
search goes first and usually decides; whatever the board, the exact search eventually gets
an unbounded allowance, so every board is decided.
Queens are checked before the search and every completion after it, by the streaming verifier.

>>> complete(4, [(0, 1)]).tolist()
[1, 3, 0, 2]
>>> complete(4, [(0, 0)]) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from queens.models import BackendError, Cell, InvalidBoard, MalformedInput, Unsupported
from queens.models.verify_stream import verify_cells, verify_columns
from queens.solvers.backend import deadline_after, seconds_left
from queens.solvers.native import _completion, _localsearch
from queens.solvers.native.local_search import seed_for

FIRST_STEPS = 10_000
"""Local-search repair steps in the first round: plenty for loose boards (n = 1000 needs ~50)."""
FIRST_DEAD_ENDS = 256
"""Dead ends the exact search may meet in the first round: tight boards rarely need more."""
EXACT_FIRST = 256
"""With at most this many free rows the exact search goes first: it costs O(m^2) for m free rows,
under a millisecond here, while a local search that stalls on a board with no completion
costs a few."""
FIRST_WORK = 10**8
"""The exact search's O(m^2) set-up must fit this in a round (m free rows): at once for m up to
10^4; for larger m (few queens on a huge board) only after rounds of local search, which
almost always finishes such boards first. Grows four-fold per round."""
MAX_ALLOWANCE = 2**62
"""Allowances stop growing here (C counts in 64 bits); no search gets that far anyway."""


@dataclass(frozen=True)
class CompletionResult:
    """`columns`: the column of every row (int32), or None when no completion exists (proved)."""

    columns: np.ndarray | None
    method: str
    wall_time: float
    stats: dict[str, int | float | str] = field(default_factory=dict)


def _queen_arrays(queens: Iterable[Cell] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cells = np.asarray(queens if isinstance(queens, np.ndarray) else list(queens), dtype=np.int64)
    if cells.size == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    if cells.ndim != 2 or cells.shape[1] != 2:
        raise MalformedInput(f"queens must be (row, col) pairs, got an array of shape {cells.shape}")
    return np.ascontiguousarray(cells[:, 0]), np.ascontiguousarray(cells[:, 1])


def solve_completion(n: int, queens: Iterable[Cell] | np.ndarray, *, seed: int = 0,
                     time_limit: float | None = None) -> CompletionResult:
    """Complete `queens` (pairs, 0-indexed) to n non-attacking queens on n x n, or prove none exists.

    Raises InvalidPlacement for queens off the board or attacking each other, TimeLimit when
    time runs out before an answer.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise InvalidBoard(f"the board needs n >= 1, got {n!r}")
    if n > _completion.MAX_N:
        raise Unsupported(f"exact completion handles n up to {_completion.MAX_N}, got {n}")
    rows, cols = _queen_arrays(queens)
    verify_cells(n, rows, cols)
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    packed_rows, packed_cols = rows.tobytes(), cols.tobytes()
    columns = np.empty(n, np.int32)
    stats: dict[str, int | float | str] = {"queens given": len(rows), "rounds": 0}

    def time_left() -> float:
        return seconds_left(deadline, f"completion: undecided after {time_limit} s")

    free = n - len(rows)
    steps, dead_ends, work = FIRST_STEPS, FIRST_DEAD_ENDS, FIRST_WORK
    attempt = 0
    while True:
        stats["rounds"] = attempt + 1
        if attempt > 0 or free > EXACT_FIRST:
            outcome, repaired = _localsearch.search(n, columns, packed_rows, packed_cols,
                                                    seed=seed_for(seed, attempt), seconds=time_left(),
                                                    max_steps=steps)
            stats["repair steps"] = int(stats.get("repair steps", 0)) + repaired["repair steps"]
            if outcome == _localsearch.SOLVED:
                return _checked(columns, rows, cols, "local search", start, stats)
        if free * free <= work:
            outcome, solution, searched = _completion.complete(n, packed_rows, packed_cols,
                                                               seed=seed_for(seed, attempt),
                                                               seconds=time_left(), dead_ends=dead_ends)
            for key in ("nodes", "dead ends", "restarts"):
                stats[key] = int(stats.get(key, 0)) + searched[key]
            if outcome == _completion.SOLVED:
                return _checked(np.frombuffer(solution, np.int32), rows, cols, "exact search", start, stats)
            if outcome == _completion.NO_SOLUTION:
                return CompletionResult(None, "exact search", time.perf_counter() - start, stats)
        time_left()  # out of time raises here; otherwise both used their allowances
        attempt += 1
        steps = min(steps * 2, MAX_ALLOWANCE)
        dead_ends, work = min(dead_ends * 4, MAX_ALLOWANCE), min(work * 4, MAX_ALLOWANCE)


def _checked(columns: np.ndarray, rows: np.ndarray, cols: np.ndarray, method: str, start: float,
             stats: dict[str, int | float | str]) -> CompletionResult:
    """The completion, once the verifier agrees it is one and it keeps the given queens."""
    if verify_columns(columns) != len(columns):
        raise BackendError(f"{method} returned a placement with empty rows")
    if not np.array_equal(columns[rows], cols):
        raise BackendError(f"{method} moved a pre-placed queen")
    return CompletionResult(columns.copy(), method, time.perf_counter() - start, stats)


def complete(n: int, queens: Iterable[Cell] | np.ndarray, seed: int = 0,
             time_limit: float | None = None) -> np.ndarray | None:
    """The column of every row of a completion of `queens`, or None if there is none (proved)."""
    return solve_completion(n, queens, seed=seed, time_limit=time_limit).columns
