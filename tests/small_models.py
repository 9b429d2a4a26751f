"""Small boards' lines and moves, written out by hand for the tests that build ConstraintModels
directly (tests/test_clauses.py, tests/test_clause_backends.py) and check each backend against
tests/model_oracle.py: the same few helpers, once."""

from __future__ import annotations

from queens.models.ir import Line, LinearKey, LineFamily

Cell = tuple[int, int]

QUEEN = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))
"""A queen's eight directions (the first four reach every line once)."""


def board(rows: int, cols: int) -> tuple[Cell, ...]:
    return tuple((r, c) for r in range(rows) for c in range(cols))


def ray(cell: Cell, step: Cell, rows: int, cols: int) -> tuple[Cell, ...]:
    """The cells a queen on `cell` sees along `step`, nearest first, to the board's edge."""
    out = []
    r, c = cell[0] + step[0], cell[1] + step[1]
    while 0 <= r < rows and 0 <= c < cols:
        out.append((r, c))
        r, c = r + step[0], c + step[1]
    return tuple(out)


def neighbours(cell: Cell, rows: int, cols: int) -> tuple[Cell, ...]:
    """A king's moves: the nearest cell of each of a queen's rays."""
    return tuple(line[0] for step in QUEEN if (line := ray(cell, step, rows, cols)))


def rows_of(rows: int, cols: int, at_least: int = 1) -> LineFamily:
    """One line per row, at most one piece (exactly one when `at_least`), keyed r."""
    return LineFamily("rows", tuple(Line(tuple((r, c) for c in range(cols)), at_least=at_least)
                                    for r in range(rows)), LinearKey(1, 0, None))


def columns_of(rows: int, cols: int, at_least: int = 0, at_most: int = 1) -> LineFamily:
    return LineFamily("columns", tuple(Line(tuple((r, c) for r in range(rows)), at_most=at_most, at_least=at_least)
                                       for c in range(cols)), LinearKey(0, 1, None))


def diagonals_of(rows: int, cols: int) -> LineFamily:
    lines = [tuple((r, c) for r, c in board(rows, cols) if r - c == d) for d in range(1 - cols, rows)]
    return LineFamily("diagonals", tuple(Line(cells) for cells in lines if len(cells) > 1), LinearKey(1, -1, None))
