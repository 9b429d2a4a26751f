"""Superqueens (amazons): pieces that move as a queen and as a knight. A051223: 4 on 10 x 10."""

from __future__ import annotations

from queens.models.pieces import SUPERQUEEN
from queens.models.puzzle import Puzzle


def Superqueens(n: int) -> Puzzle:  # noqa: N802 - a model name
    """n superqueens on n x n, none attacking another (none exist for 2 <= n <= 9)."""
    return Puzzle(rows=n, cols=n, piece=SUPERQUEEN, pieces=n, title=f"{n}-superqueens")
