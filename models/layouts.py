"""Blockers the solver places: "9 queens and 1 pawn anywhere" is one puzzle whose answers range
over every pawn square. Each layout of the free blockers is an ordinary puzzle with those cells
blocked, so backends need nothing new; `queens.solvers.strategies.Layouts` answers over them.

Layouts related by a symmetry of the puzzle (found from its model without the free blockers)
have equal counts, so only one representative per orbit is kept, with a weight: the number of
layouts it stands for.
"""

from __future__ import annotations

from itertools import combinations

from queens.models.geometry import Coord
from queens.models.lowering import lower
from queens.models.puzzle import Puzzle
from queens.models.symmetry import Transform, symmetry_group

MAX_LAYOUTS = 2_000_000
"""Free blocker layouts grow as C(cells, k); more than this is refused before any work."""


def layout_group(puzzle: Puzzle) -> tuple[Transform, ...]:
    """The board symmetries that keep the puzzle apart from its free blockers."""
    return symmetry_group(lower(puzzle.with_blockers(())))


def layouts(puzzle: Puzzle) -> list[tuple[Puzzle, int]]:
    """One puzzle per orbit of free-blocker layouts, with the orbit's size.

    >>> from queens.models.ninequeens import FreePawns
    >>> sum(weight for _, weight in layouts(FreePawns(8, 1)))
    64
    """
    group = layout_group(puzzle)
    taken = puzzle.holes | puzzle.blockers | puzzle.fixed
    cells = [c for c in puzzle.board_cells if c not in taken]
    return [(puzzle.with_blockers(layout), weight)
            for layout, weight in layouts_up_to_symmetry(cells, puzzle.free_blockers, group, puzzle.rows, puzzle.cols)]


def layouts_up_to_symmetry(cells: list[Coord], k: int, transforms: tuple[Transform, ...], rows: int,
                           cols: int) -> list[tuple[frozenset[Coord], int]]:
    """Every set of k of `cells`, one per orbit under `transforms`, with the orbit's size."""
    found: dict[tuple[Coord, ...], int] = {}
    for layout in combinations(cells, k):
        orbit = {tuple(sorted(t((c[0], c[1]), rows, cols) for c in layout)) for t in transforms}
        canonical = min(orbit)
        if canonical == layout:
            found[canonical] = len(orbit)
    return [(frozenset(layout), weight) for layout, weight in found.items()]
