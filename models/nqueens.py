"""n-queens: n queens on an n x n board, no two attacking (Bezzel 1848).

Nothing here says "one per row": the lowering derives it by pigeonhole from n queens and n rows.
"""

from __future__ import annotations

from queens.models.pieces import QUEEN
from queens.models.puzzle import Puzzle


def NQueens(n: int) -> Puzzle:  # noqa: N802 - reads as a model name: NQueens(8)
    """The classic puzzle. Q(8) = 92.

    >>> NQueens(8).pieces
    8
    """
    return Puzzle(rows=n, cols=n, piece=QUEEN, pieces=n, title=f"{n}-queens")
