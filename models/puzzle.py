"""The domain description of a placement puzzle: board, piece, rules, goal.

A `Puzzle` is plain immutable data that says *what* is asked and never *how*: every family in
the suite (n-queens, completion, superqueens, toroidal, domination, nine queens, other pieces,
rectangular boards) is one `Puzzle` with different fields. `queens.models.lowering.lower` turns it
into the generic constraint form every backend reads.

>>> Puzzle(rows=8, cols=8, pieces=8).name
'8x8 queen'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from queens.models.errors import AttackingQueens, InvalidBoard, OffBoard
from queens.models.geometry import Topology, attacks, first_attack
from queens.models.pieces import QUEEN, Cell, Piece


def _check_side(side: object, label: str) -> None:
    """A board side is a positive whole number; the message names the type when it is not one."""
    if not isinstance(side, int) or isinstance(side, bool):
        raise InvalidBoard(f"the number of {label} must be a whole number, got {side!r} ({type(side).__name__})")
    if side <= 0:
        raise InvalidBoard(f"the board needs a positive number of {label}, got {side!r}")


@dataclass(frozen=True)
class Puzzle:
    """Place pieces on a rows x cols board.

    - `pieces`: exact number of pieces, or None when the number is minimised.
    - `independent`: no two pieces attack each other.
    - `dominating`: every square without a pawn is occupied or attacked.
    - `forbidden`: cells that may not hold a piece; lines of attack pass through them.
    - `pawns`: cells holding a pawn; no piece there, and pawns block sliding attacks.
    - `fixed`: pieces already placed (a completion puzzle).
    - `per_line`: the most pieces one line of a sliding piece may hold (1: none attack each
      other; 2 rooks per row and column is `per_line=2`, A001499).
    """

    rows: int
    cols: int
    piece: Piece = QUEEN
    pieces: int | None = None
    toroidal: bool = False
    independent: bool = True
    dominating: bool = False
    forbidden: frozenset[Cell] = field(default_factory=frozenset)
    pawns: frozenset[Cell] = field(default_factory=frozenset)
    fixed: frozenset[Cell] = field(default_factory=frozenset)
    title: str = ""
    per_line: int = 1

    def __post_init__(self) -> None:
        self._check_board()
        self._check_cells()
        if self.independent and self.per_line == 1:
            clash = first_attack(self.piece, sorted(self.fixed), topology=self.topology, pawns=self.pawns)
            if clash:
                raise AttackingQueens(clash[0], clash[1])

    def _check_board(self) -> None:
        _check_side(self.rows, "rows")
        _check_side(self.cols, "columns")
        if not isinstance(self.per_line, int) or isinstance(self.per_line, bool) or self.per_line < 1:
            raise InvalidBoard(f"at most per_line pieces per line needs a positive whole number, got {self.per_line!r}")
        if self.toroidal and self.rows != self.cols:
            raise InvalidBoard("a toroidal board must be square")
        if self.pieces is not None and not 0 <= self.pieces <= self.rows * self.cols:
            raise InvalidBoard(f"{self.pieces} pieces do not fit on a {self.rows}x{self.cols} board")
        if self.pieces is None and not self.dominating:
            raise InvalidBoard("only a domination puzzle may leave the number of pieces open")

    def _check_cells(self) -> None:
        for label, cells in (("forbidden cell", self.forbidden), ("pawn", self.pawns), ("piece", self.fixed)):
            for cell in sorted(cells):
                if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
                    raise OffBoard(f"{label} at {cell} is off the {self.rows}x{self.cols} board")
        clash = self.fixed & (self.pawns | self.forbidden)
        if clash:
            raise InvalidBoard(f"pre-placed piece at {min(clash)} stands on a pawn or blocked cell")
        if self.pieces is not None and len(self.fixed) > self.pieces:
            raise InvalidBoard(f"{len(self.fixed)} pre-placed pieces but only {self.pieces} allowed")

    @property
    def name(self) -> str:
        """A short human name: the title if given, else the board and piece."""
        return self.title or f"{self.rows}x{self.cols} {self.piece.name}"

    @property
    def topology(self) -> Topology:
        """How the board's edges join (the plane, or the torus when `toroidal`)."""
        return Topology.of(self.rows, self.cols, self.toroidal)

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    def attack(self, a: Cell, b: Cell) -> bool:
        """Whether a piece on `a` attacks `b` on this board (pawns block rays)."""
        return attacks(self.piece, a, b, topology=self.topology, pawns=self.pawns)
