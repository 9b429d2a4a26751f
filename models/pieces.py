"""How pieces move, as data: sliding rays and fixed leaps.

A piece is the union of *rays* (directions it slides along until the board edge or a pawn)
and *leaps* (offsets it jumps to directly). Every piece in the suite is one of these two
kinds or both, so a backend never needs to know a piece's name.

>>> QUEEN.rays
((0, 1), (1, 0), (1, 1), (1, -1))
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]

_ORTHOGONAL = ((0, 1), (1, 0))
_DIAGONAL = ((1, 1), (1, -1))
_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
_KING = _ORTHOGONAL + _DIAGONAL  # one step in each of a queen's directions


@dataclass(frozen=True)
class Piece:
    """A piece's moves. Directions are stored once per line (the opposite is implied)."""

    name: str
    rays: tuple[Cell, ...] = ()
    leaps: tuple[Cell, ...] = ()


QUEEN = Piece("queen", rays=_ORTHOGONAL + _DIAGONAL)
ROOK = Piece("rook", rays=_ORTHOGONAL)
BISHOP = Piece("bishop", rays=_DIAGONAL)
KNIGHT = Piece("knight", leaps=_KNIGHT)
KING = Piece("king", leaps=_KING)
SUPERQUEEN = Piece("superqueen", rays=_ORTHOGONAL + _DIAGONAL, leaps=_KNIGHT)
NIGHTRIDER = Piece("nightrider", rays=_KNIGHT)  # a knight that keeps leaping the same way
PAWN = Piece("pawn")  # attacks nothing here: a piece that blocks lines when pieces block (nine queens)

PIECES = {p.name: p for p in (QUEEN, ROOK, BISHOP, KNIGHT, KING, SUPERQUEEN, NIGHTRIDER, PAWN)} | {"amazon": SUPERQUEEN}
"""Every piece by name; the superqueen is also known as the amazon."""
