"""How pieces move, as data: sliding rays and fixed leaps.

A piece is the union of *rays* (directions it slides along until the board edge or a pawn)
and *leaps* (offsets it jumps to directly). Every piece in the suite is one of these two
kinds or both, so a backend never needs to know a piece's name.

>>> QUEEN.attacks_by_ray((0, 0), (3, 3))
True
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]

_ORTHOGONAL = ((0, 1), (1, 0))
_DIAGONAL = ((1, 1), (1, -1))
_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
_KING = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Piece:
    """A piece's moves. Directions are stored once per line (the opposite is implied)."""

    name: str
    rays: tuple[Cell, ...] = ()
    leaps: tuple[Cell, ...] = ()

    def attacks_by_ray(self, a: Cell, b: Cell) -> bool:
        """Whether a and b lie on one of this piece's rays (ignoring blockers)."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        return any(dr * rc - dc * rr == 0 for rr, rc in self.rays) and (dr, dc) != (0, 0)

    def leaps_between(self, a: Cell, b: Cell) -> bool:
        """Whether b is one leap away from a (in either direction)."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        return any((dr, dc) in ((lr, lc), (-lr, -lc)) for lr, lc in self.leaps)


QUEEN = Piece("queen", rays=_ORTHOGONAL + _DIAGONAL)
ROOK = Piece("rook", rays=_ORTHOGONAL)
BISHOP = Piece("bishop", rays=_DIAGONAL)
KNIGHT = Piece("knight", leaps=_KNIGHT)
KING = Piece("king", leaps=_KING)
SUPERQUEEN = Piece("superqueen", rays=_ORTHOGONAL + _DIAGONAL, leaps=_KNIGHT)

PIECES = {p.name: p for p in (QUEEN, ROOK, BISHOP, KNIGHT, KING, SUPERQUEEN)}
