"""The families built from a board size alone, by the names the CLI and the experiments use.

>>> FAMILIES["toroidal"](5).name
'5-queens on a torus'
"""

from __future__ import annotations

from collections.abc import Callable

from queens.models.domination import Domination
from queens.models.nqueens import NQueens
from queens.models.pieces_families import Bishops, Kings, Knights, Rooks
from queens.models.puzzle import Puzzle
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal

FAMILIES: dict[str, Callable[[int], Puzzle]] = {
    "nqueens": NQueens, "superqueens": Superqueens, "toroidal": Toroidal, "domination": Domination,
    "rooks": Rooks, "bishops": Bishops, "kings": Kings, "knights": Knights,
}
"""Each family's puzzle on the n x n board, with its defaults (domination: not independent;
knights: n of them)."""
