"""Toroidal queens: the board wraps around, so every diagonal has n cells. A051906.

Pólya (1918) showed that n queens fit on the n x n torus exactly when gcd(n, 6) = 1;
`why_none` says so when a count is zero, because a bare 0 teaches nothing.
"""

from __future__ import annotations

from math import gcd

from queens.models.geometry import torus_is_safe
from queens.models.pieces import QUEEN
from queens.models.puzzle import Puzzle


def Toroidal(n: int) -> Puzzle:  # noqa: N802 - a model name
    return Puzzle(rows=n, cols=n, piece=QUEEN, pieces=n, wrap=True, title=f"{n}-queens on a torus")


def why_none(n: int) -> str | None:
    """Pólya's reason when the n x n torus has no solution, else None.

    >>> why_none(6)
    'gcd(6, 6) = 6 != 1: by Pólya (1918) no n queens fit on an n x n torus unless gcd(n, 6) = 1'
    """
    if torus_is_safe(n):
        return None
    return f"gcd({n}, 6) = {gcd(n, 6)} != 1: by Pólya (1918) no n queens fit on an n x n torus unless gcd(n, 6) = 1"
