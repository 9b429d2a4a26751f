"""Other pieces from the seeds: rooks, bishops, kings, knights; and queens on rectangles.

Each is a `Puzzle` with another piece and count; nothing else changes, which is the point.
- rooks: n on n x n, n! ways;
- bishops: 2n - 2 on n x n (the most that fit), 2^n ways;
- kings: Hertzsprung's problem, n kings one per row and column (A002464);
- knights: k knights (default n), none attacking;
- rectangular n-queens: min(n, m) queens on n x m.
Sides and counts are read by `queens.models.numbers`, so `Knights(8, 2.5)` is refused by name.
"""

from __future__ import annotations

from queens.models import numbers
from queens.models.pieces import BISHOP, KNIGHT, QUEEN, ROOK, Piece
from queens.models.puzzle import Puzzle

HERTZSPRUNG_KING = Piece("king", rays=((0, 1), (1, 0)), leaps=((1, 1), (1, -1)))
"""A king that also claims its whole row and column: n such kings are Hertzsprung's problem."""


def Rooks(n: int) -> Puzzle:  # noqa: N802 - model names read as nouns
    n = numbers.size(n, "n", minimum=None)
    return Puzzle(rows=n, cols=n, piece=ROOK, pieces=n, title=f"{n} rooks")


def Bishops(n: int) -> Puzzle:  # noqa: N802
    n = numbers.size(n, "n", minimum=None)
    count = max(1, 2 * n - 2)
    return Puzzle(rows=n, cols=n, piece=BISHOP, pieces=count, title=f"{count} bishops on {n}x{n}")


def Kings(n: int) -> Puzzle:  # noqa: N802
    n = numbers.size(n, "n", minimum=None)
    return Puzzle(rows=n, cols=n, piece=HERTZSPRUNG_KING, pieces=n, title=f"{n} kings, one per row and column")


def Knights(n: int, k: int | None = None) -> Puzzle:  # noqa: N802
    n = numbers.size(n, "n", minimum=None)
    count = n if k is None else numbers.count(k, "the number of knights")
    return Puzzle(rows=n, cols=n, piece=KNIGHT, pieces=count, title=f"{count} knights on {n}x{n}")


def RectangularQueens(n: int, m: int) -> Puzzle:  # noqa: N802
    n, m = numbers.size(n, "n", minimum=None), numbers.size(m, "m", minimum=None)
    return Puzzle(rows=n, cols=m, piece=QUEEN, pieces=min(n, m), title=f"{min(n, m)} queens on {n}x{m}")
