"""How pieces move, as data: sliding rays and fixed leaps, on a board of any dimension.

A piece is the union of *rays* (directions it slides along until the board edge or a pawn)
and *leaps* (offsets it jumps to directly), one vector per line (the opposite is implied), each
with as many coordinates as the board has sides. Every piece in the suite is one of these two
kinds or both, so a backend never needs to know a piece's name. `PIECES_ON` is the one table of
the pieces the suite names, by the board's dimensions: a queen on a cube slides along the 13
lines through its cell.

>>> QUEEN.rays
((0, 1), (1, 0), (1, 1), (1, -1))
>>> len(piece_named("queen", 3).rays)
13
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]
"""A cell of a 2-D board: (row, col)."""
Vector = tuple[int, ...]
"""A move: a ray's direction or a leap's offset, one coordinate per axis of the board."""


@dataclass(frozen=True)
class Piece:
    """A piece's moves. Directions are stored once per line (the opposite is implied)."""

    name: str
    rays: tuple[Vector, ...] = ()
    leaps: tuple[Vector, ...] = ()

    @property
    def attacks_nothing(self) -> bool:
        """No rays and no leaps (a pawn): the piece only stands in the way, when pieces block."""
        return not self.rays and not self.leaps

    def fits(self, dimensions: int) -> bool:
        """Whether every move has one coordinate per axis of a board of `dimensions`."""
        return all(len(vector) == dimensions for vector in self.rays + self.leaps)


def _space_lines(moved: tuple[int, ...]) -> tuple[Vector, ...]:
    """The 3-D directions (one per line, the opposite implied) that move `moved` coordinates
    by one: 1 the three axes, 2 the six face diagonals, 3 the four space diagonals."""
    steps = (-1, 0, 1)
    return tuple(v for v in ((x, y, z) for x in steps for y in steps for z in steps)
                 if sum(map(abs, v)) in moved and v > (0, 0, 0))


_ORTHOGONAL = ((0, 1), (1, 0))
_DIAGONAL = ((1, 1), (1, -1))
_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
_KING = _ORTHOGONAL + _DIAGONAL  # one step in each of a queen's directions
_KNIGHT_3D = tuple(sorted({v for a, b in _KNIGHT for v in ((a, b, 0), (a, 0, b), (0, a, b))}))

QUEEN = Piece("queen", rays=_ORTHOGONAL + _DIAGONAL)
ROOK = Piece("rook", rays=_ORTHOGONAL)
BISHOP = Piece("bishop", rays=_DIAGONAL)
KNIGHT = Piece("knight", leaps=_KNIGHT)
KING = Piece("king", leaps=_KING)
SUPERQUEEN = Piece("superqueen", rays=_ORTHOGONAL + _DIAGONAL, leaps=_KNIGHT)
NIGHTRIDER = Piece("nightrider", rays=_KNIGHT)  # a knight that keeps leaping the same way
PAWN = Piece("pawn")  # attacks nothing here: a piece that blocks lines when pieces block (nine queens)

PIECES_ON: dict[int, dict[str, Piece]] = {
    2: {p.name: p for p in (QUEEN, ROOK, BISHOP, KNIGHT, KING, SUPERQUEEN, NIGHTRIDER, PAWN)} | {"amazon": SUPERQUEEN},
    3: {p.name: p for p in (Piece("queen", _space_lines((1, 2, 3))), Piece("rook", _space_lines((1,))),
                            Piece("bishop", _space_lines((2, 3))), Piece("king", leaps=_space_lines((1, 2, 3))),
                            Piece("knight", leaps=_KNIGHT_3D), PAWN)},
}
"""The one table of named pieces, by the board's dimensions. On a cube the queen moves along the
13 lines through its cell (3 axes, 6 face diagonals, 4 space diagonals), the rook along the axes,
the bishop along the diagonals, the king one step along any of them, the knight (2, 1) in any
plane of axes; on a 2-D board the superqueen is also known as the amazon."""

PIECES = PIECES_ON[2]
"""Every piece of a 2-D board by name: what the CLI, the puzzle files and the API name."""


def piece_named(name: str, dimensions: int) -> Piece | None:
    """The piece called `name` on a board of `dimensions`, or None when there is none."""
    return PIECES_ON.get(dimensions, {}).get(name)
