"""A seeded variable order for finding one solution with a conflict-driven solver (sat, cpsat).

A heuristic, never a solution: it only says which cell a solver tries first; propagation and
the solver's own search do the rest, and every answer is verified as usual.
"""

from __future__ import annotations

import numpy as np
from queens.models import ConstraintModel
from queens.models.ir import Var

ORDER_SEED = 0
"""The seed of `seeded_numbering`: fixed, so that a run finds the same solution every time."""


def plain_numbering(model: ConstraintModel, first: int = 0) -> dict[Var, int]:
    """The cells numbered from `first` in the model's order."""
    return dict(zip(model.cells, range(first, first + len(model.cells)), strict=True))


def seeded_numbering(model: ConstraintModel, first: int = 0) -> dict[Var, int]:
    """The cells numbered from `first` (a SAT solver's variables start at 1) line by line
    along the model's exactly-one lines ("one queen per row"), each line's cells in a seeded
    random order, then every other cell: a variable order for a greedy search that takes the
    lines in turn and tries their cells in that order.

    A conflict-driven solver decides its still-untouched variables in the order of their numbers
    (ties in activity), so numbering the cells this way makes its first descent a randomised
    greedy placement, which propagation keeps consistent; in board order the same descent is
    the leftmost-first greedy that jams. One 1000-queens solution on Minicard with greedy
    phases: 983 decisions and no conflict, 0.3 s, against 504 k decisions and 568 conflicts,
    9 s, in board order; on CP-SAT's SAT search the same 983 decisions.

    The dict is filled in the lines' own order (its keys stay in board order, row by row), not
    in the order of the numbers: looking up the cells of 10^6 lines in a dict filled in random
    order costs three times as long (memory locality).
    """
    rng = np.random.default_rng(ORDER_SEED)
    number: dict[Var, int] = {}
    taken = first
    for line in model.branch_lines:
        number.update(zip(line.cells, (rng.permutation(len(line.cells)) + taken).tolist(), strict=True))
        taken += len(line.cells)
    if len(number) != taken - first:  # exactly-one lines that overlap: keep the model's order
        return plain_numbering(model, first)
    for cell in model.cells:
        if cell not in number:
            number[cell] = taken
            taken += 1
    return number
