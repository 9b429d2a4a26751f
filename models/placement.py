"""An answer's pieces, typed: the model's variables that hold a piece, and the same cells per army.

A backend answers with the model's variables (`queens.models.lowering`): on a puzzle whose
variables are its cells (one army on a flat or toroidal 2-D board: `Puzzle.cells_are_variables`) those are
cells (row, col); on any other, (army number, cell) pairs. `queens.models.check.verify` checks
them and returns them sorted, as a `Placement`; `Puzzle.per_army` reads any placement as the
cells of each army, and `Puzzle.placement_of` writes cells per army back as the model's
variables, so no reader outside `queens.models` needs to know which form a puzzle takes. A
reader that knows it (a test of n-queens, a tool refused elsewhere) says so with `as_cells` or
`as_pairs`, which check it.

>>> from queens.models.puzzle import Puzzle
>>> Puzzle(rows=4, cols=4, pieces=2).placement_of([[(0, 1), (2, 0)]])
((0, 1), (2, 0))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from queens.models.geometry import Coord
from queens.models.pieces import Cell

Placed = tuple[int, Coord]
"""A piece of army number `a` on a cell: (a, cell), a variable of a model with armies."""

Placement = tuple[Cell, ...] | tuple[Placed, ...]
"""An answer as the model's variables that hold a piece, sorted: cells, or (army, cell) pairs."""

PerArmy = tuple[tuple[Coord, ...], ...]
"""An answer as one sorted tuple of cells per army, in the puzzle's army order."""


def as_cells(placement: Iterable[Cell | Placed]) -> tuple[Cell, ...]:
    """A placement of a puzzle whose variables are its cells, typed as those cells (TypeError
    naming the first variable that is not a cell (row, col)).

    >>> as_cells([(0, 1), (2, 0)])
    ((0, 1), (2, 0))
    """
    found = tuple(placement)
    wrong = next((var for var in found if len(var) != 2 or not all(isinstance(x, int) for x in var)), None)
    if wrong is not None:
        raise TypeError(f"a placement of cells (row, col) holds {wrong!r}")
    return cast(tuple[Cell, ...], found)


def as_pairs(placement: Iterable[Cell | Placed]) -> tuple[Placed, ...]:
    """A placement of a puzzle with (army, cell) variables, typed as those pairs (TypeError
    naming the first variable that is not one).

    >>> as_pairs([(0, (0, 1)), (1, (2, 0))])
    ((0, (0, 1)), (1, (2, 0)))
    """
    found = tuple(placement)
    wrong = next((var for var in found if len(var) != 2 or not isinstance(var[1], tuple)), None)
    if wrong is not None:
        raise TypeError(f"a placement of (army, cell) pairs holds {wrong!r}")
    return cast(tuple[Placed, ...], found)
