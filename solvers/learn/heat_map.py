"""How often each cell is used across all solutions: every solution enumerated (each one
verified) and drawn as a `queens.models.drawing.HeatMap`, on any puzzle with one model."""

from __future__ import annotations

from queens.models import Puzzle, QueensError, TimeLimit, Unsupported
from queens.models.drawing import HeatMap, check_drawable
from queens.models.geometry import Coord
from queens.solvers.api import solutions
from queens.solvers.backend import Task
from queens.solvers.routing.router import route
from queens.solvers.routing.strategy import Subject


def mappable(puzzle: Puzzle) -> str | None:
    """Why no heat map of `puzzle` can be drawn (read before any work), or None: a heat map
    counts the solutions of one model on a board small enough to draw."""
    try:
        check_drawable(puzzle)
    except QueensError as error:
        return str(error)
    refusal = Subject(puzzle).modelled
    return None if refusal is None else f"a heat map counts the solutions of one model; here {refusal}"


def heat_map(puzzle: Puzzle, backend: str | None = None, *, time_limit: float | None = None) -> HeatMap:
    """Enumerate every solution (each one verified; the optimal ones of a puzzle with a goal) on
    `backend` (None: the one the router picks for enumerating) and count how often each cell
    holds a piece, of any army.

    >>> from queens.models import NQueens
    >>> print(heat_map(NQueens(4)).text())
    0 1 1 0
    1 0 0 1
    1 0 0 1
    0 1 1 0
    """
    refusal = mappable(puzzle)
    if refusal:
        raise Unsupported(f"heat map: {refusal}")
    if backend is None:
        backend = route(Task.ENUMERATE, Subject(puzzle), None, "search").strategy.backend
    counts: dict[Coord, int] = {}
    total = 0
    try:
        for solution in solutions(puzzle, backend, time_limit=time_limit):
            total += 1
            for cells in puzzle.per_army(solution):
                for cell in cells:
                    counts[cell] = counts.get(cell, 0) + 1
    except TimeLimit as stopped:  # a map of some solutions is not the map: say who stopped, and why
        limit = "its limit" if time_limit is None else f"the {time_limit:g} s time limit"
        raise TimeLimit(f"heat map: {backend}/search stopped by {limit} after "
                        f"{total:,} solutions of {puzzle.name} (the map needs them all)",
                        partial=total, bound=stopped.bound) from None
    return HeatMap(puzzle, counts, total)
