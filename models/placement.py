"""An answer's pieces, typed: the model's variables that hold a piece, and the same cells per army.

A backend answers with the model's variables (`queens.models.lowering`): on a puzzle whose
variables are its cells (one army on a flat or toroidal 2-D board: `Puzzle.cells_are_variables`) those are
cells (row, col); on any other, (army number, cell) pairs. `queens.models.check.verify` checks
them and returns them sorted, as a `Placement`; `Puzzle.per_army` reads any placement as the
cells of each army, and `Puzzle.placement_of` writes cells per army back as the model's
variables, so no reader outside `queens.models` needs to know which form a puzzle takes.

>>> from queens.models.puzzle import Puzzle
>>> Puzzle(rows=4, cols=4, pieces=2).placement_of([[(0, 1), (2, 0)]])
((0, 1), (2, 0))
"""

from __future__ import annotations

from queens.models.geometry import Coord
from queens.models.pieces import Cell

Placed = tuple[int, Coord]
"""A piece of army number `a` on a cell: (a, cell), a variable of a model with armies."""

Placement = tuple[Cell, ...] | tuple[Placed, ...]
"""An answer as the model's variables that hold a piece, sorted: cells, or (army, cell) pairs."""

PerArmy = tuple[tuple[Coord, ...], ...]
"""An answer as one sorted tuple of cells per army, in the puzzle's army order."""
