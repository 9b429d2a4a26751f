"""Counting over puzzles that are one of several (free pawns), and counting symmetry classes.

Both are built on the public entry points in `queens.solvers.api`, so every solution found is still
verified; no backend knows about either.

A class is a set of whole configurations (pawns, blocked cells and pieces) that a board
symmetry maps onto each other. For a single puzzle the group is the puzzle's own (found from
its model); for free pawns it is the board's group, acting on pawns and pieces together.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from queens.models import Placement, Puzzle, lower, symmetry_group
from queens.models.alternatives import Alternatives
from queens.models.symmetry import Transform
from queens.solvers.api import solutions
from queens.solvers.backend import Task
from queens.solvers.result import Result, Status
from queens.solvers.router import answer

Configuration = tuple[tuple, ...]


def count_alternatives(family: Alternatives, backend: str | None = None, *, time_limit: float | None = None,
                       method: str | None = None, **options: object) -> Result:
    """Placements over all layouts: each representative's count times its weight, each counted
    by the strategy the router picks for it."""
    start = time.perf_counter()
    total, results = 0, []
    for puzzle, weight in family.choices:
        left = None if time_limit is None else max(1e-3, time_limit - (time.perf_counter() - start))
        result = answer(Task.COUNT, puzzle, backend=backend, method=method, time_limit=left, **options)
        results.append(result)
        total += weight * (result.count or 0)
        if result.status is Status.LIMIT:
            break
    status = Status.LIMIT if any(r.status is Status.LIMIT for r in results) else Status.COMPLETE
    first = results[0]
    return Result(first.backend, status, count=total, wall_time=time.perf_counter() - start,
                  stats={"layouts": family.layouts, "representatives": len(results)}, method=first.method,
                  why=first.why)


def solve_alternatives(family: Alternatives, backend: str | None = None, *, time_limit: float | None = None,
                       method: str | None = None, **options: object) -> tuple[Puzzle | None, Result]:
    """The first layout that has a solution, and that solution."""
    start = time.perf_counter()
    result = None
    for puzzle, _ in family.choices:
        left = None if time_limit is None else max(1e-3, time_limit - (time.perf_counter() - start))
        result = answer(task_of(puzzle), puzzle, backend=backend, method=method, time_limit=left, **options)
        if result.status is not Status.INFEASIBLE:
            return puzzle, result
    name = backend if result is None else result.backend
    return None, Result(name or "-", Status.INFEASIBLE, wall_time=time.perf_counter() - start,
                        method="search" if result is None else result.method)


def task_of(puzzle: Puzzle) -> Task:
    """Finding one solution: the fewest pieces when the puzzle leaves their number open."""
    return Task.OPTIMISE if puzzle.pieces is None else Task.SOLVE


def count_target(target: Puzzle | Alternatives, backend: str | None = None, **kwargs: object) -> Result:
    """The count by the router's strategy (narrowed to `backend` when given), or its weighted
    sum over alternatives (free pawns)."""
    if isinstance(target, Alternatives):
        return count_alternatives(target, backend, **kwargs)
    return answer(Task.COUNT, target, backend=backend, **kwargs)


def solve_target(target: Puzzle | Alternatives, backend: str | None = None,
                 **kwargs: object) -> tuple[Puzzle | None, Result]:
    """One solution by the router's strategy, plus the puzzle that was solved (one layout, for
    free pawns)."""
    if isinstance(target, Alternatives):
        return solve_alternatives(target, backend, **kwargs)
    return target, answer(task_of(target), target, backend=backend, **kwargs)


class ClassCount(NamedTuple):
    total: int
    classes: int


def _configuration(puzzle: Puzzle, placement: Placement, t: Transform) -> Configuration:
    def image(cells) -> tuple:
        return tuple(sorted(t(c, puzzle.rows, puzzle.cols) for c in cells))
    return image(puzzle.pawns), image(puzzle.forbidden), image(placement)


def count_classes(target: Puzzle | Alternatives, backend: str = "native", **options: object) -> ClassCount:
    """All solutions and their classes under the symmetries of the puzzle (or of the board)."""
    if isinstance(target, Alternatives):
        pairs = [(p, target.transforms, w) for p, w in target.choices]
    else:
        pairs = [(target, symmetry_group(lower(target)), 1)]
    total, seen = 0, set()
    for puzzle, group, weight in pairs:
        for placement in solutions(puzzle, backend, **options):
            total += weight
            seen.add(min(_configuration(puzzle, placement, t) for t in group))
    return ClassCount(total, len(seen))
