"""Queen domination: the fewest queens occupying or attacking every square.

The domination number is A075458 (5 on 8 x 8) and the number of minimum dominating sets is
A002564 (4860 on 8 x 8). With `independent`, the queens must not attack each other either
(minimum independent dominating sets).
"""

from __future__ import annotations

from queens.models.pieces import QUEEN
from queens.models.puzzle import Puzzle


def Domination(n: int, independent: bool = False) -> Puzzle:  # noqa: N802 - a model name
    kind = "independent domination" if independent else "domination"
    return Puzzle(rows=n, cols=n, piece=QUEEN, pieces=None, within=independent,
                  cover=True, title=f"{n}x{n} queen {kind}")
