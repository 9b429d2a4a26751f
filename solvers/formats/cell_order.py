"""Cells numbered for a solver, in bulk: a seeded variable order for finding one solution with a
conflict-driven solver (sat, cpsat), and each line's variables as arrays.

The order is a heuristic, never a solution: it only says which cell a solver tries first;
propagation and the solver's own search do the rest, and every answer is verified as usual.

A numbering is an array: `number[p]` is the variable of `model.cells[p]`. The models of large
boards have 10^6 cells on 4 x 10^6 line places, so nothing here looks cells up one by one in a
dict: `positions` reads a whole list of cells into one array at C speed, about five times
faster, and the numbers are picked from it by numpy indexing (experiments/results/defaults.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
from queens.models import ConstraintModel
from queens.models.ir import Line, Var

ORDER_SEED = 0
"""The seed of `seeded_numbering`: fixed, so that a run finds the same solution every time."""


def positions(model: ConstraintModel, cells: Iterable[Var], count: int) -> np.ndarray:
    """The position in `model.cells` of each of the `count` cells, as one array: read through
    `model.index` when the model numbers its variables itself, else from the (row, column)
    pairs in one pass (`numpy.fromiter`), without a dict lookup per cell."""
    if model.numbering:
        index = model.index
        flat = np.fromiter(map(index.__getitem__, cells), dtype=np.int64, count=count)
    else:
        pairs = np.fromiter(itertools.chain.from_iterable(cells), dtype=np.int64, count=2 * count)
        flat = pairs[0::2] * model.cols + pairs[1::2]
    return _placed(model, flat)


def _placed(model: ConstraintModel, flat: np.ndarray) -> np.ndarray:
    """The positions in `model.cells` of the cells with these numbers in `model.index`."""
    if len(model.cells) == model.width and not model.numbering:
        return flat  # every board cell is a variable, in board order: position = flat index
    where = np.full(model.width, -1, dtype=np.int64)
    where[positions_of_cells(model)] = np.arange(len(model.cells))
    placed: np.ndarray = where[flat]
    return placed


def positions_of_cells(model: ConstraintModel) -> np.ndarray:
    """The flat index (`model.index`) of each of `model.cells`."""
    if model.numbering:
        index = model.index
        return np.fromiter(map(index.__getitem__, model.cells), dtype=np.int64, count=len(model.cells))
    pairs = np.fromiter(itertools.chain.from_iterable(model.cells), dtype=np.int64, count=2 * len(model.cells))
    return pairs[0::2] * model.cols + pairs[1::2]


def literals(model: ConstraintModel, groups: Sequence[Sequence[Var]], number: np.ndarray) -> list[np.ndarray]:
    """The variables of each group of cells (a line's, a cover's), read in one pass."""
    lengths = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
    found = number[positions(model, itertools.chain.from_iterable(groups), int(lengths.sum()))]
    return np.split(found, np.cumsum(lengths)[:-1]) if len(groups) else []


def line_literals(model: ConstraintModel, lines: Sequence[Line], number: np.ndarray) -> list[np.ndarray]:
    """The variables of each line: from the lines' strides (`Line.flat`) when the lowering left
    them, 6,000 ranges for the 4 x 10^6 places of 1000 x 1000 (faster than reading the cells:
    experiments/results/defaults.md),
    else from the cells (`literals`)."""
    if model.numbering or not lines or any(line.flat is None for line in lines):
        return literals(model, [line.cells for line in lines], number)
    strides = [line.flat for line in lines if line.flat is not None]
    flat = np.concatenate([np.arange(s.start, s.stop, s.step, dtype=np.int64) for s in strides])
    return np.split(number[_placed(model, flat)], np.cumsum([len(s) for s in strides[:-1]]))


def plain_numbering(model: ConstraintModel, first: int = 0) -> np.ndarray:
    """The cells numbered from `first` in the model's order."""
    return np.arange(first, first + len(model.cells), dtype=np.int64)


def seeded_numbering(model: ConstraintModel, first: int = 0) -> np.ndarray:
    """The cells numbered from `first` (a SAT solver's variables start at 1) line by line
    along the model's exactly-one lines ("one queen per row"), each line's cells in a seeded
    random order, then every other cell: a variable order for a greedy search that takes the
    lines in turn and tries their cells in that order.

    A conflict-driven solver decides its still-untouched variables in the order of their numbers
    (ties in activity), so numbering the cells this way makes its first descent a randomised
    greedy placement, which propagation keeps consistent; in board order the same descent is
    the leftmost-first greedy that jams. One 1000-queens solution on Minicard with greedy
    phases: 983 decisions and no conflict, against 504 k decisions and 568 conflicts in board
    order; on CP-SAT's SAT search the same 983 decisions (experiments/results/defaults.md).
    """
    rng = np.random.default_rng(ORDER_SEED)
    lines = model.branch_lines
    lengths = [len(line.cells) for line in lines]
    taken = sum(lengths)
    placed = np.concatenate(line_literals(model, lines, plain_numbering(model)) or [np.zeros(0, dtype=np.int64)])
    starts = np.cumsum([0, *lengths], dtype=np.int64)[:-1]
    number = np.full(len(model.cells), -1, dtype=np.int64)
    number[placed] = np.concatenate([rng.permutation(k) + s for k, s in zip(lengths, starts, strict=True)]
                                    or [np.zeros(0, dtype=np.int64)])
    if np.count_nonzero(number >= 0) != taken:  # exactly-one lines that overlap: keep the model's order
        return plain_numbering(model, first)
    rest = np.flatnonzero(number < 0)
    number[rest] = np.arange(taken, taken + len(rest))
    return number + first
