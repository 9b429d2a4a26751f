"""Armies: what a `queens.models.puzzle.Puzzle` places (their pieces: `queens.models.pieces`).

An army is a piece, a count or a goal, pieces already placed, and how many identical copies.
Pieces do not block each other's lines unless the puzzle says so (`Puzzle.blocking`; blockers
always do): for peaceable armies it makes no difference, since a line holding two armies always
has two neighbours of different armies on it.

>>> Army("white", goal="maximise").piece.name
'queen'

The puzzle file's keys are keywords too, so a file's [[army]] reads the same in Python:

>>> Army(count=5).least, Army(count="maximise").goal, Army(piece="rook", count={"min": 1, "max": 3}).most
(5, 'maximise', 3)
>>> Army(piece="knight").name, Army(copies="minimise").copies is None
('knights', True)
>>> Army(copies="maximise").copies_goal, Army(copies="minimise").copies_goal, Army(copies=3).copies_goal
('maximise', 'minimise', None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from queens.models import numbers
from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord
from queens.models.pieces import PIECES, QUEEN, Piece, piece_named

Goal = Literal["maximise", "minimise"]


MAX_ARMIES = 4096
"""The most armies a puzzle holds once its copies are written out (each copy is a copy of the
board's variables): `copies = 1000000000` hung the reader while it wrote them out, and a
colouring needs no more copies than it has cells."""

Count = int | Goal | Mapping[str, int]
"""A puzzle file's `count`: a number, "maximise" or "minimise", or {min = a, max = b}."""


@dataclass(frozen=True, init=False)
class Army:
    """One army: its piece, how many (exactly `least` = `most`, a range, or a `goal`), pieces
    already placed, `copies` (None: open, as many identical armies as needed, the fewest wins, or
    with `copies_goal` "maximise" as many as fit, the most wins), and
    `line_cap`: the most of its pieces one of its own lines may hold under `within` (1: none
    attack each other; 2 rooks per row and column is 2).

    The puzzle file's keys (docs/puzzle-files.md) are accepted as they are written there: `count`
    (a number, "maximise", "minimise" or {"min": a, "max": b}) instead of least/most/goal,
    `piece` by name (a 2-D board's; a cube's are `pieces.piece_named(name, 3)`), `fixed` as lists,
    `copies="minimise"` or `"maximise"`; a nameless army is called after its piece ("queens")."""

    name: str
    piece: Piece
    least: int
    most: int | None
    goal: Goal | None
    fixed: frozenset[Coord]
    copies: int | None
    line_cap: int
    copies_goal: Goal | None

    def __init__(self, name: str = "", piece: Piece | str = QUEEN, least: int = 0, most: int | None = None,
                 goal: Goal | None = None, fixed: Iterable[Sequence[int]] = frozenset(),
                 copies: int | Goal | None = 1, line_cap: int = 1, *,
                 count: Count | None = None, copies_goal: Goal | None = None) -> None:
        if count is not None:
            if (least, most, goal) != (0, None, None):
                raise TypeError("give count= (the puzzle file's key) or least=, most=, goal=, not both")
            least, most, goal = _counted(count)
        if not isinstance(name, str):
            raise InvalidBoard(f"an army's name is text, got {name!r} ({type(name).__name__})")
        chosen = _piece(piece)
        set_ = object.__setattr__  # frozen: each field set once, here
        set_(self, "name", name or f"{chosen.name}s")
        set_(self, "piece", chosen)
        set_(self, "least", numbers.count(least, f"the least pieces of {self.name}"))
        set_(self, "most", None if most is None else numbers.count(most, f"the most pieces of {self.name}",
                                                                   minimum=self.least))
        if goal not in (None, "maximise", "minimise"):
            raise InvalidBoard(f"an army's goal is 'maximise', 'minimise' or None, got {goal!r}")
        set_(self, "goal", goal)
        set_(self, "fixed", _fixed(fixed, self.name))
        is_open = copies in ("minimise", "maximise") or copies is None
        set_(self, "copies", None if is_open else
             numbers.count(copies, f"the copies of {self.name}", minimum=1, maximum=MAX_ARMIES))
        if copies_goal not in (None, "minimise", "maximise"):
            raise InvalidBoard(f"copies are minimised or maximised, got {copies_goal!r}")
        set_(self, "copies_goal", None if not is_open else "maximise" if copies == "maximise"
             else copies_goal or "minimise")
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


def _piece(piece: Piece | str) -> Piece:
    if not isinstance(piece, Piece | str):
        raise InvalidBoard(f"a piece is a name ({', '.join(PIECES)}) or a Piece, got {piece!r}")
    if isinstance(piece, str):
        found = piece_named(piece, 2)
        if found is None:
            raise InvalidBoard(f"unknown piece {piece!r}; choose from {', '.join(PIECES)} "
                               "(on a cube: queens.models.pieces.piece_named(name, 3))")
        return found
    return piece


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

