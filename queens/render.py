"""Boards as text: the Unicode board and the plain `Q .` grid."""

from __future__ import annotations

from models import Cell, Puzzle

MAX_DRAWN = 100
"""Boards wider than this are not drawn: the grid would be unreadable and huge."""


def grid(puzzle: Puzzle, placement: tuple[Cell, ...], *, plain: bool = False) -> str:
    """The board, one text row per board row.

    >>> from models import NQueens
    >>> print(grid(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2)), plain=True))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    queen, empty, pawn, blocked = ("Q", ".", "p", "#") if plain else ("♛", "·", "♟", "▪")
    occupied = set(placement)
    rows = []
    for r in range(puzzle.rows):
        row = []
        for c in range(puzzle.cols):
            cell = (r, c)
            row.append(queen if cell in occupied else pawn if cell in puzzle.pawns
                       else blocked if cell in puzzle.forbidden else empty)
        rows.append(" ".join(row))
    return "\n".join(rows)
