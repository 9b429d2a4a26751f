"""Recognise the plain n-queens board in a constraint model, from its structure alone.

The fast counter (fastcount.c) solves exactly one problem: n non-attacking queens on a full
n x n board. A backend never trusts a puzzle's name, so this module reads the IR instead: a
square board with every cell, no covers, no fixed pieces, n pieces to place, and exactly four
line families, each with a plain (non-toroidal) linear key and holding precisely the lines
that key cuts the board into: rows and columns with exactly one piece, diagonals and
anti-diagonals with at most one. Anything else (blocked cells, a torus, knights' leaps, a
completion) keeps the simple kernel.
"""

from __future__ import annotations

from collections import defaultdict

from queens.models import ConstraintModel, LinearKey, LineKind
from queens.models.pieces import Cell

_ORTHOGONAL = {(1, 0), (0, 1)}
_DIAGONAL = {(1, 1), (1, -1)}


def plain_queens_size(model: ConstraintModel) -> int | None:
    """n when `model` is n-queens on the full n x n board, else None.

    >>> from queens.models import NQueens, Puzzle, lower
    >>> plain_queens_size(lower(NQueens(8)))
    8
    >>> plain_queens_size(lower(Puzzle(rows=8, cols=8, pieces=8, forbidden=frozenset({(0, 0)}))))
    """
    n = model.rows
    if model.cols != n or model.size != n or model.minimise or model.covers or model.fixed:
        return None
    board = {(r, c) for r in range(n) for c in range(n)}
    if len(model.cells) != n * n or set(model.cells) != board:
        return None
    seen = set()
    for family in model.families:
        key = family.key
        if key is None or key.modulus is not None:
            return None
        direction = _direction(key)
        if direction in seen or direction not in _ORTHOGONAL | _DIAGONAL:
            return None
        seen.add(direction)
        lines = {frozenset(line.cells) for line in family.lines}
        if len(lines) != len(family.lines):
            return None
        cut = _cut(key, board)
        if direction in _ORTHOGONAL:
            if lines != cut or any(line.kind is not LineKind.EXACTLY_ONE for line in family.lines):
                return None
        elif not ({line for line in cut if len(line) > 1} <= lines <= cut) or any(
            line.kind is not LineKind.AT_MOST_ONE and n > 1 for line in family.lines
        ):
            return None  # (n = 1: pigeonhole makes the one-cell diagonal "exactly one")
    return n if seen == _ORTHOGONAL | _DIAGONAL else None


def _direction(key: LinearKey) -> tuple[int, int]:
    """The key's (a, b) with the sign of its first nonzero entry made positive."""
    sign = 1 if (key.a or key.b) > 0 else -1
    return sign * key.a, sign * key.b


def _cut(key: LinearKey, cells: set[Cell]) -> set[frozenset[Cell]]:
    """The lines `key` cuts the cells into: cells with the same key value share a line."""
    lines: dict[int, set[Cell]] = defaultdict(set)
    for cell in cells:
        lines[key.of(cell)].add(cell)
    return {frozenset(line) for line in lines.values()}
