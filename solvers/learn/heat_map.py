"""How often each cell is used across all solutions: every solution enumerated (each one
verified) and drawn as a `queens.models.drawing.HeatMap`."""

from __future__ import annotations

from queens.models import Puzzle, QueensError, TimeLimit
from queens.models.drawing import HeatMap, check_drawable
from queens.models.geometry import Coord
from queens.solvers.api import solutions


def heat_map(puzzle: Puzzle, backend: str = "native", *, time_limit: float | None = None) -> HeatMap:
    """Enumerate every solution (each one verified) and count how often each cell holds a piece
    (of one army on a 2-D board).

    >>> from queens.models import NQueens
    >>> print(heat_map(NQueens(4)).text())
    0 1 1 0
    1 0 0 1
    1 0 0 1
    0 1 1 0
    """
    check_drawable(puzzle)
    if not puzzle.plain:
        raise QueensError(f"a heat map counts one army's pieces on a 2-D board; {puzzle.name} is not one")
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
