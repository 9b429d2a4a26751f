"""Puzzles with several armies, a goal on the number of pieces, per-line bounds, a partition, a
cylinder or a third dimension: what a `Puzzle` (one army on a plane or torus) cannot say.

An `ArmyPuzzle` is plain data like a `Puzzle`: the board (`shape`, 2 or 3 sides), the armies
(each a piece, a count or a goal, pieces already placed, and how many identical copies), and the
rules (`within`: no two pieces of one army attack; `between`: no piece attacks one of another
army; `per_line` bounds; `cover`; `partition`: every cell holds exactly one piece). Pieces never
block each other's lines (only blockers do): for peaceable armies it makes no difference, since
a line holding two armies always has two neighbours of different armies on it.
`queens.models.army_lowering` lowers it to the same `ConstraintModel` every backend reads;
`queens.models.army_check` checks answers from the rules alone.

>>> peaceable = ArmyPuzzle((5, 5), (Army("white", goal="maximise"), Army("black", goal="maximise")),
...                        within=False)
>>> peaceable.name, peaceable.dimensions
('5x5 white queen + black queen', 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from queens.models.errors import InvalidBoard, OffBoard
from queens.models.geometry import Coord, Topology
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
    def of(cls, piece: Piece) -> Moves:
        return cls(piece.name, piece.rays, piece.leaps)


_KNIGHT_3D = tuple(sorted({v for a, b in ((1, 2), (2, 1), (1, -2), (2, -1))
                           for v in ((a, b, 0), (a, 0, b), (0, a, b))}))
SPACE_PIECES: dict[str, Moves] = {
    "queen": Moves("queen", _space_lines((1, 2, 3))),
    "rook": Moves("rook", _space_lines((1,))),
    "bishop": Moves("bishop", _space_lines((2, 3))),
    "king": Moves("king", leaps=_space_lines((1, 2, 3))),
    "knight": Moves("knight", leaps=_KNIGHT_3D),
}
"""Pieces on a cube: the queen moves along the 13 lines through its cell (3 axes, 6 face
diagonals, 4 space diagonals), the rook along the axes, the bishop along the diagonals, the
king one step along any of them, the knight (2, 1) in any plane of axes."""


@dataclass(frozen=True)
class Army:
    """One army: its piece, how many (exactly `least` = `most`, a range, or a `goal`), pieces
    already placed, and `copies` (None: as many identical armies as needed, fewest wins)."""

    name: str
    piece: Moves = Moves.of(QUEEN)
    least: int = 0
    most: int | None = None
    goal: Goal | None = None
    fixed: frozenset[Coord] = field(default_factory=frozenset)
    copies: int | None = 1


@dataclass(frozen=True)
class ArmyPuzzle:
    """See the module docstring. `per_line` maps a line family (rows, cols, diagonals) to the
    (least, most) pieces of all armies on each of its lines."""

    shape: tuple[int, ...]
    armies: tuple[Army, ...]
    wrap: tuple[bool, ...] = ()
    holes: frozenset[Coord] = field(default_factory=frozenset)
    blockers: frozenset[Coord] = field(default_factory=frozenset)
    within: bool = True
    between: bool = True
    per_line: tuple[tuple[str, int, int], ...] = ()
    cover: bool = False
    partition: bool = False
    title: str = ""

    def __post_init__(self) -> None:
        if len(self.shape) not in (2, 3) or any(side <= 0 for side in self.shape):
            raise InvalidBoard(f"a board has 2 or 3 positive sides, got {self.shape}")
        if any(self.wrap) and len(self.shape) != 2:
            raise InvalidBoard("only a 2-D board wraps")
        if not self.armies:
            raise InvalidBoard("a puzzle needs at least one army")
        goals = {army.goal for army in self.armies} - {None}
        if len(goals) > 1:
            raise InvalidBoard("armies may maximise or minimise, not both in one puzzle")
        if sum(army.copies is None for army in self.armies) > 1:
            raise InvalidBoard("one army at most may minimise its copies")
        board = Topology(self.shape)
        for army in self.armies:
            for cell in sorted(army.fixed | self.holes | self.blockers):
                if len(cell) != len(self.shape) or not board.contains(cell):
                    raise OffBoard(f"cell {cell} is off the {self.size_text} board")
            if army.fixed & (self.holes | self.blockers):
                raise InvalidBoard(f"a piece of {army.name} stands on a hole or blocker")

    @property
    def rows(self) -> int:
        return self.shape[0]

    @property
    def dimensions(self) -> int:
        return len(self.shape)

    @property
    def size_text(self) -> str:
        return "x".join(map(str, self.shape))

    @property
    def name(self) -> str:
        return self.title or f"{self.size_text} " + " + ".join(f"{a.name} {a.piece.name}" for a in self.armies)

    @property
    def board_cells(self) -> tuple[Coord, ...]:
        """Every cell of the board in order (holes and blockers included)."""
        cells: list[Coord] = [()]
        for side in self.shape:
            cells = [cell + (x,) for cell in cells for x in range(side)]
        return tuple(cells)

    @property
    def copies_open(self) -> bool:
        """Whether one army stands for as many copies as needed (the fewest wins: colouring)."""
        return any(army.copies is None for army in self.armies)

    def with_copies(self, copies: int) -> ArmyPuzzle:
        """The puzzle with the open army repeated `copies` times (named name-1, name-2, ...)."""
        armies: list[Army] = []
        for army in self.armies:
            if army.copies == 1:
                armies.append(army)
            else:
                count = copies if army.copies is None else army.copies
                armies += [replace(army, name=f"{army.name}-{i + 1}", copies=1) for i in range(count)]
        return replace(self, armies=tuple(armies))


def piece_named(name: str, dimensions: int) -> Moves | None:
    """The piece called `name` on a board of `dimensions`, or None when there is none."""
    if dimensions == 3:
        return SPACE_PIECES.get(name)
    piece = PIECES.get(name)
    return None if piece is None else Moves.of(piece)
