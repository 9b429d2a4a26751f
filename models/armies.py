"""Armies and how their pieces move, in any dimension: what a `queens.models.puzzle.Puzzle` places.

An army is a piece, a count or a goal, pieces already placed, and how many identical copies.
Pieces never block each other's lines (only blockers do): for peaceable armies it makes no
difference, since a line holding two armies always has two neighbours of different armies on it.

>>> Army("white", goal="maximise").piece.name
'queen'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from queens.models.geometry import Coord
from queens.models.pieces import PIECES, QUEEN, Piece

Vector = tuple[int, ...]
Goal = Literal["maximise", "minimise"]


def _space_lines(moved: tuple[int, ...]) -> tuple[Vector, ...]:
    """The 3-D directions (one per line, the opposite implied) that move `moved` coordinates
    by one: 1 the three axes, 2 the six face diagonals, 3 the four space diagonals."""
    found: list[Vector] = []
    for x in (-1, 0, 1):
        for y in (-1, 0, 1):
            for z in (-1, 0, 1):
                v = (x, y, z)
                if sum(map(abs, v)) in moved and v > (0, 0, 0):
                    found.append(v)
    return tuple(found)


@dataclass(frozen=True)
class Moves:
    """A piece in any dimension: rays it slides along and leaps it jumps, a vector per line."""

    name: str
    rays: tuple[Vector, ...] = ()
    leaps: tuple[Vector, ...] = ()

    @classmethod
    def of(cls, piece: Piece | Moves) -> Moves:
        return piece if isinstance(piece, Moves) else cls(piece.name, piece.rays, piece.leaps)

    @property
    def attacks_nothing(self) -> bool:
        """No rays and no leaps (a pawn): the piece only stands in the way, when pieces block."""
        return not self.rays and not self.leaps


_KNIGHT_3D = tuple(sorted({v for a, b in ((1, 2), (2, 1), (1, -2), (2, -1))
                           for v in ((a, b, 0), (a, 0, b), (0, a, b))}))
SPACE_PIECES: dict[str, Moves] = {
    "queen": Moves("queen", _space_lines((1, 2, 3))),
    "rook": Moves("rook", _space_lines((1,))),
    "bishop": Moves("bishop", _space_lines((2, 3))),
    "king": Moves("king", leaps=_space_lines((1, 2, 3))),
    "knight": Moves("knight", leaps=_KNIGHT_3D),
    "pawn": Moves("pawn"),
}
"""Pieces on a cube: the queen moves along the 13 lines through its cell (3 axes, 6 face
diagonals, 4 space diagonals), the rook along the axes, the bishop along the diagonals, the
king one step along any of them, the knight (2, 1) in any plane of axes."""


@dataclass(frozen=True)
class Army:
    """One army: its piece, how many (exactly `least` = `most`, a range, or a `goal`), pieces
    already placed, `copies` (None: as many identical armies as needed, fewest wins), and
    `line_cap`: the most of its pieces one of its own lines may hold under `within` (1: none
    attack each other; 2 rooks per row and column is 2)."""

    name: str
    piece: Moves = Moves.of(QUEEN)
    least: int = 0
    most: int | None = None
    goal: Goal | None = None
    fixed: frozenset[Coord] = field(default_factory=frozenset)
    copies: int | None = 1
    line_cap: int = 1


def piece_named(name: str, dimensions: int) -> Moves | None:
    """The piece called `name` on a board of `dimensions`, or None when there is none."""
    if dimensions == 3:
        return SPACE_PIECES.get(name)
    piece = PIECES.get(name)
    return None if piece is None else Moves.of(piece)
