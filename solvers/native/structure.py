"""Recognise the plain n-queens board in a constraint model, from its structure alone.

The classes counter (classcount.c) solves exactly one problem: n non-attacking queens on a full
n x n board, nothing pre-placed. A backend never trusts a puzzle's name, so this reads the
model's outline (`queens.models.outline`): the queen graph on the full board (rows and columns
exactly one, diagonals at most one, no holes, covers or torus), no fixed pieces, and nothing
beyond lines (no clauses or attack counts, which the outline does not show). The same
outline lets the completion solver take the boards that do have fixed pieces.
"""

from __future__ import annotations

from queens.models import ConstraintModel
from queens.models.outline import outline_of


def plain_queens_size(model: ConstraintModel) -> int | None:
    """n when `model` is n-queens on the full n x n board with nothing pre-placed, else None.

    >>> from queens.models import NQueens, Puzzle, lower
    >>> plain_queens_size(lower(NQueens(8)))
    8
    >>> plain_queens_size(lower(Puzzle(rows=8, cols=8, pieces=8, holes=frozenset({(0, 0)}))))
    """
    if model.beyond_lines:  # the outline has no clauses or counts: a model with them is not plain n-queens
        return None
    shape = outline_of(model)
    return None if shape.fixed else shape.queen_graph
