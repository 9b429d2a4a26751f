"""Armies and how their pieces move, in any dimension: what a `queens.models.puzzle.Puzzle` places.

An army is a piece, a count or a goal, pieces already placed, and how many identical copies.
Pieces never block each other's lines (only blockers do): for peaceable armies it makes no
difference, since a line holding two armies always has two neighbours of different armies on it.

>>> Army("white", goal="maximise").piece.name
'queen'

The puzzle file's keys are keywords too, so a file's [[army]] reads the same in Python:

>>> Army(count=5).least, Army(count="maximise").goal, Army(piece="rook", count={"min": 1, "max": 3}).most
(5, 'maximise', 3)
>>> Army(piece="knight").name, Army(copies="minimise").copies is None
('knights', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from queens.models import numbers
from queens.models.errors import InvalidBoard
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


MAX_ARMIES = 4096
"""The most armies a puzzle holds once its copies are written out (each copy is a copy of the
board's variables): `copies = 1000000000` hung the reader while it wrote them out, and a
colouring needs no more copies than it has cells."""

Count = int | Goal | Mapping[str, int]
"""A puzzle file's `count`: a number, "maximise" or "minimise", or {min = a, max = b}."""


@dataclass(frozen=True, init=False)
class Army:
    """One army: its piece, how many (exactly `least` = `most`, a range, or a `goal`), pieces
    already placed, `copies` (None: as many identical armies as needed, fewest wins), and
    `line_cap`: the most of its pieces one of its own lines may hold under `within` (1: none
    attack each other; 2 rooks per row and column is 2).

    The puzzle file's keys (docs/puzzle-files.md) are accepted as they are written there: `count`
    (a number, "maximise", "minimise" or {"min": a, "max": b}) instead of least/most/goal,
    `piece` by name (a 2-D board's; a cube's are `piece_named(name, 3)`), `fixed` as lists,
    `copies="minimise"`; a nameless army is called after its piece ("queens")."""

    name: str
    piece: Moves
    least: int
    most: int | None
    goal: Goal | None
    fixed: frozenset[Coord]
    copies: int | None
    line_cap: int

    def __init__(self, name: str = "", piece: Moves | Piece | str = QUEEN, least: int = 0, most: int | None = None,
                 goal: Goal | None = None, fixed: Iterable[Sequence[int]] = frozenset(),
                 copies: int | Literal["minimise"] | None = 1, line_cap: int = 1, *,
                 count: Count | None = None) -> None:
        if count is not None:
            if (least, most, goal) != (0, None, None):
                raise TypeError("give count= (the puzzle file's key) or least=, most=, goal=, not both")
            least, most, goal = _counted(count)
        if not isinstance(name, str):
            raise InvalidBoard(f"an army's name is text, got {name!r} ({type(name).__name__})")
        moves = _moves(piece)
        set_ = object.__setattr__  # frozen: each field set once, here
        set_(self, "name", name or f"{moves.name}s")
        set_(self, "piece", moves)
        set_(self, "least", numbers.count(least, f"the least pieces of {self.name}"))
        set_(self, "most", None if most is None else numbers.count(most, f"the most pieces of {self.name}",
                                                                   minimum=self.least))
        if goal not in (None, "maximise", "minimise"):
            raise InvalidBoard(f"an army's goal is 'maximise', 'minimise' or None, got {goal!r}")
        set_(self, "goal", goal)
        set_(self, "fixed", _fixed(fixed, self.name))
        set_(self, "copies", None if copies == "minimise" or copies is None else
             numbers.count(copies, f"the copies of {self.name}", minimum=1, maximum=MAX_ARMIES))
        set_(self, "line_cap", numbers.count(line_cap, f"the line cap of {self.name}", minimum=1))


def _fixed(cells: Iterable[Sequence[int]], name: str) -> frozenset[Coord]:
    """Pieces already placed: cells of whole numbers (the board checks where they stand)."""
    if isinstance(cells, str) or not isinstance(cells, Iterable):
        raise InvalidBoard(f"the fixed pieces of {name} are a list of cells, got {cells!r}")
    found = set()
    for cell in cells:
        if isinstance(cell, str) or not isinstance(cell, Sequence) or not 2 <= len(cell) <= 3:
            raise InvalidBoard(f"a fixed piece of {name} is a cell (row, col), got {cell!r}")
        found.add(tuple(numbers.count(x, f"a fixed piece of {name}", minimum=-numbers.MAX_SIDE,
                                      maximum=numbers.MAX_SIDE) for x in cell))
    return frozenset(found)


def _moves(piece: Moves | Piece | str) -> Moves:
    if not isinstance(piece, Moves | Piece | str):
        raise InvalidBoard(f"a piece is a name ({', '.join(PIECES)}) or a Piece, got {piece!r}")
    if isinstance(piece, str):
        found = piece_named(piece, 2)
        if found is None:
            raise InvalidBoard(f"unknown piece {piece!r}; choose from {', '.join(PIECES)} "
                               "(on a cube: queens.models.armies.piece_named(name, 3))")
        return found
    return Moves.of(piece)


def _counted(count: Count) -> tuple[int, int | None, Goal | None]:
    """least, most and goal from a puzzle file's `count`."""
    if count == "maximise" or count == "minimise":
        return 0, None, count
    if isinstance(count, Mapping):
        unknown = set(count) - {"min", "max"}
        if unknown:
            raise InvalidBoard(f"a count range has min and max, got {', '.join(sorted(map(str, unknown)))}")
        return count.get("min", 0), count.get("max"), None  # checked as least and most
    if isinstance(count, int) and not isinstance(count, bool):
        if count < 0:
            raise InvalidBoard(f"a count is not negative, got {count}")
        return count, count, None
    raise InvalidBoard(f"count is a number, 'maximise', 'minimise' or {{'min': a, 'max': b}}, got {count!r}")


def piece_named(name: str, dimensions: int) -> Moves | None:
    """The piece called `name` on a board of `dimensions`, or None when there is none."""
    if dimensions == 3:
        return SPACE_PIECES.get(name)
    piece = PIECES.get(name)
    return None if piece is None else Moves.of(piece)
