"""A seeded variable order for finding one solution with a conflict-driven solver (sat, cpsat).

A heuristic, never a solution: it only says which cell a solver tries first; propagation and
the solver's own search do the rest, and every answer is verified as usual.
"""

from __future__ import annotations

import random

from queens.models import ConstraintModel
from queens.models.ir import Var

ORDER_SEED = 0
"""The seed of `seeded_order`: fixed, so that a run finds the same solution every time."""


def seeded_order(model: ConstraintModel) -> list[Var]:
    """The cells line by line along the model's exactly-one lines ("one queen per row"), each
    line's cells in a seeded random order, then every other cell: a variable order for a
    greedy search that takes the lines in turn and tries their cells in that order.

    A conflict-driven solver decides its still-untouched variables in the order of their numbers
    (ties in activity), so numbering the cells this way makes its first descent a randomised
    greedy placement, which propagation keeps consistent; in board order the same descent is
    the leftmost-first greedy that jams. One 1000-queens solution on Minicard with greedy
    phases: 983 decisions and no conflict, 0.3 s, against 504 k decisions and 568 conflicts,
    9 s, in board order; on CP-SAT's SAT search the same 983 decisions.
    """
    shuffle = random.Random(ORDER_SEED).shuffle
    order: list[Var] = []
    for line in model.branch_lines:
        cells = list(line.cells)
        shuffle(cells)
        order += cells
    placed = set(order)
    if len(placed) != len(order):  # exactly-one lines that overlap: keep the model's order
        return list(model.cells)
    return order + [cell for cell in model.cells if cell not in placed]
