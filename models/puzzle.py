"""The one puzzle type: board, armies, rules and goal, in the puzzle file's own vocabulary.

A `Puzzle` is plain immutable data that says *what* is asked and never *how*. Every family the
suite ships (n-queens, completion, domination, nine queens, peaceable armies, colourings, cubes)
and every puzzle file is one `Puzzle`:

- the board: `shape` (2 or 3 sides), `wrap` (one flag per axis: a torus, a cylinder), `holes`
  (cells that hold no piece; lines pass over them) and `blockers` (pawns: no piece there, and
  they cut the lines they stand on; blockers the solver places are an army of pawns, see
  `queens.models.layouts`);
- the armies: each a piece, a count or a goal, pieces already placed, and how many identical
  copies (`queens.models.armies.Army`);
- the rules: `within` (no two pieces of one army attack), `between` (no piece attacks one of
  another army), `per_line` bounds on named line families, `regions` (bounds on any set of
  cells), `cover` (every square without a blocker or a `missing` square is occupied or attacked,
  or with `cover_kind = "attacked"` attacked), `partition` (every open cell holds exactly one
  piece), `blocking` (pieces block the lines they stand on, as in chess: a piece attacks the
  first piece along each line), `attack_bounds` (how many pieces each piece attacks),
  `slope_lines` (bounds on lines of any slope), `connected` (an army's pieces form one group)
  and `private` (each piece covers a square no other of its army covers);
- the goal beyond the armies' own: `total` (maximise or minimise all pieces together) and
  `invariant` (only solutions that a named board symmetry keeps, `queens.models.rules`).

The one-army keywords are a constructor of the same type, so today's spelling still reads aloud:

>>> Puzzle(rows=8, cols=8, pieces=8).name
'8x8 queen'
>>> Puzzle(rows=8, cols=8, pieces=8).armies[0].least
8

`queens.models.lowering.lower` turns any puzzle into the constraint model every backend reads;
`queens.models.check.verify` checks any answer against the rules read again from the puzzle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NoReturn, cast

from queens.models.armies import MAX_ARMIES, Army, Goal
from queens.models.board_counts import COUNTED, BoardCount
from queens.models.connected import Connected
from queens.models.errors import AttackingQueens, InvalidBoard, OffBoard
from queens.models.geometry import Coord, Topology, attacks, first_attack
from queens.models.pieces import QUEEN, Cell, Piece
from queens.models.placement import PerArmy, Placed, Placement
from queens.models.private import Private
from queens.models.rules import COVER_KINDS, SYMMETRIES, TARGETS, AttackBound, CoverKind, Region
from queens.models.slopes import SlopeLines

LineBounds = tuple[tuple[str, int, int], ...]
"""(family, least, most): every line of a named family (rows, cols, diagonals) holds between
least and most pieces of all armies."""

PER_LINE_FAMILIES = ("rows", "cols", "diagonals")


def _whole(value: object, label: str) -> int:
    """A whole number (never a bool, a float or a string): the message names the type."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidBoard(f"{label} must be a whole number, got {value!r} ({type(value).__name__})")
    return value


def _refused(label: str, value: object, kind: str) -> NoReturn:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise InvalidBoard(f"{label} must be {kind}, got {shown} ({type(value).__name__})")


def _flag(value: object, label: str) -> bool:
    """True or False (numpy's too), never a string or a number read as one."""
    return bool(value) if isinstance(value, bool) or type(value).__name__ == "bool_" else _refused(
        label, value, "True or False")


def _items(value: object, label: str, kind: type) -> tuple[Any, ...]:
    """A sequence's items, each of `kind`: `Puzzle`'s keywords that take lists say which is wrong."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        _refused(label, value, f"a list of {kind.__name__}")
    items: tuple[Any, ...] = tuple(value)
    for item in items:
        if not isinstance(item, kind) or kind is int and isinstance(item, bool):
            _refused(f"an item of {label}", item, f"a {kind.__name__}")
    return items


def _line_bounds(value: object) -> LineBounds:
    """per_line's (family, least, most) triples, lists read as tuples."""
    triples = _items(value, "per_line", Sequence)
    for triple in triples:
        if isinstance(triple, str) or len(triple) != 3 or not isinstance(triple[0], str):
            _refused("an item of per_line", triple, "a (family, least, most) triple")
    return tuple((family, _whole(least, "per_line's least"), _whole(most, "per_line's most"))
                 for family, least, most in triples)


def _side(side: object, label: str) -> int:
    """A board side given as rows or columns: a positive whole number."""
    value = _whole(side, f"the number of {label}")
    if value <= 0:
        raise InvalidBoard(f"the board needs a positive number of {label}, got {value}")
    return value


def _cells(cells: Iterable[Any], label: str) -> frozenset[Coord]:
    """Cells as tuples of whole numbers, whatever sequence type they came in."""
    found: set[Coord] = set()
    for cell in cells:
        if isinstance(cell, str) or not isinstance(cell, Iterable):
            raise InvalidBoard(f"a {label} must be a cell (row, col), got {cell!r}")
        found.add(tuple(_whole(x, f"a {label}'s coordinate") for x in cell))
    return frozenset(found)


def _wrap(wrap: bool | Iterable[bool], dimensions: int) -> tuple[bool, ...]:
    if isinstance(wrap, bool):
        return (wrap,) * dimensions
    flags = tuple(wrap)
    if not flags:
        return (False,) * dimensions
    if len(flags) != dimensions or not all(isinstance(flag, bool) for flag in flags):
        raise InvalidBoard(f"wrap needs one true/false flag per axis, got {flags}")
    return flags


@dataclass(frozen=True, init=False)
class Puzzle:
    """See the module docstring. Built either from the general fields (`shape`, `armies`, ...) or
    from one army's keywords (`rows`, `cols`, `piece`, `pieces`, `fixed`, and `cover` with
    `pieces=None` for the fewest pieces: domination); `per_line` as a whole number bounds that
    one army's own lines (2 rooks per row and column is `per_line=2`, A001499)."""

    shape: tuple[int, ...]
    armies: tuple[Army, ...]
    wrap: tuple[bool, ...]
    holes: frozenset[Coord]
    blockers: frozenset[Coord]
    within: bool
    between: bool
    per_line: LineBounds
    cover: bool
    partition: bool
    title: str
    twist: tuple[bool, ...]
    missing: frozenset[Coord]
    regions: tuple[Region, ...]
    blocking: bool
    attack_bounds: tuple[AttackBound, ...]
    cover_kind: CoverKind
    cover_by: int | None
    invariant: tuple[str, ...]
    total: Goal | None
    slope_lines: tuple[SlopeLines, ...]
    connected: tuple[Connected, ...]
    board_counts: tuple[BoardCount, ...]
    private: tuple[Private, ...]

    def __init__(self, rows: int | None = None, cols: int | None = None, piece: Piece = QUEEN,
                 pieces: int | None = None, *, fixed: Iterable[Cell] = (), shape: Iterable[int] | None = None,
                 armies: Iterable[Army] | None = None, wrap: bool | Iterable[bool] = (),
                 holes: Iterable[Coord] = (), blockers: Iterable[Coord] = (), within: bool = True,
                 between: bool = True, per_line: int | LineBounds = (), cover: bool = False,
                 partition: bool = False, title: str = "",
                 twist: bool | Iterable[bool] = (), missing: Iterable[Coord] = (), regions: Iterable[Region] = (),
                 blocking: bool = False, attack_bounds: Iterable[AttackBound] = (),
                 cover_kind: CoverKind = "occupied or attacked", cover_by: int | None = None,
                 invariant: Iterable[str] = (), total: Goal | None = None,
                 slope_lines: Iterable[SlopeLines] = (), connected: Iterable[Connected] = (),
                 board_counts: Iterable[BoardCount] = (), private: Iterable[Private] = ()) -> None:
        if shape is None:
            shape = (_side(rows, "rows"), _side(cols, "columns"))
        elif rows is not None or cols is not None:
            raise InvalidBoard("give the board as rows and cols, or as shape, not both")
        sides = tuple(_whole(side, "a board side") for side in _items(shape, "shape", int))
        if armies is None:
            armies = (_one_army(piece, pieces, fixed, cover, per_line),)
        elif pieces is not None or fixed:
            raise InvalidBoard("give the pieces as armies, or as piece, pieces and fixed, not both")
        set_ = object.__setattr__
        set_(self, "shape", sides)
        set_(self, "armies", _copied(_items(armies, "armies", Army)))
        set_(self, "wrap", _wrap(wrap, len(sides)))
        set_(self, "holes", _cells(holes, "hole"))
        set_(self, "blockers", _cells(blockers, "blocker"))
        set_(self, "within", _flag(within, "within"))
        set_(self, "between", _flag(between, "between"))
        set_(self, "per_line", () if isinstance(per_line, int) else _line_bounds(per_line))
        set_(self, "cover", _flag(cover, "cover"))
        set_(self, "partition", _flag(partition, "partition"))
        set_(self, "title", title if isinstance(title, str) else _refused("title", title, "text"))
        set_(self, "twist", _wrap(twist, len(sides)))
        set_(self, "missing", _cells(missing, "missing square"))
        set_(self, "regions", _items(regions, "regions", Region))
        set_(self, "blocking", _flag(blocking, "blocking"))
        set_(self, "attack_bounds", _items(attack_bounds, "attack_bounds", AttackBound))
        set_(self, "cover_kind", cover_kind)
        set_(self, "cover_by", None if cover_by is None else _whole(cover_by, "cover_by"))
        set_(self, "invariant", _items(invariant, "invariant", str))
        set_(self, "total", total)
        set_(self, "slope_lines", _items(slope_lines, "slope_lines", SlopeLines))
        set_(self, "connected", _items(connected, "connected", Connected))
        set_(self, "board_counts", _items(board_counts, "board_counts", BoardCount))
        set_(self, "private", _items(private, "private", Private))
        self._check()

    def _check(self) -> None:
        if len(self.shape) not in (2, 3) or any(side <= 0 for side in self.shape):
            raise InvalidBoard(f"a board has 2 or 3 positive sides, got {self.shape}")
        if any(self.wrap) and len(self.shape) != 2:
            raise InvalidBoard("only a 2-D board wraps")
        if all(self.wrap) and self.shape[0] != self.shape[1]:
            raise InvalidBoard("a toroidal board must be square")
        if not self.armies:
            raise InvalidBoard("a puzzle needs at least one army")
        if len({army.goal for army in self.armies} - {None}) > 1:
            raise InvalidBoard("armies may maximise or minimise, not both in one puzzle")
        for army in self.armies:
            if not army.piece.fits(len(self.shape)):
                raise InvalidBoard(f"{army.name} moves by vectors of another dimension than the "
                                   f"{len(self.shape)}-D board (queens.models.pieces.piece_named: the cube's)")
        if sum(army.copies is None for army in self.armies) > 1:
            raise InvalidBoard("one army at most may leave its copies open (minimise or maximise them)")
        named = [army.name for army in self.armies]
        if len(set(named)) != len(named):  # a rule names its army: two of one name would be read as one
            twice = next(name for name in named if named.count(name) > 1)
            raise InvalidBoard(f"two armies are named {twice!r}: an army's name says which one a rule means")
        for family, least, most in self.per_line:
            if family not in PER_LINE_FAMILIES or not 0 <= least <= most:
                raise InvalidBoard(f"per-line bounds need a family of {PER_LINE_FAMILIES} and 0 <= least <= most")
        self._check_rules()
        self._check_cells()

    def _check_rules(self) -> None:
        """The rules beyond the armies' attacks: each refers to what exists, and combinations the
        lowering does not model are refused here, with the reason, before any work."""
        self._check_board_rules()
        self._check_bounds()
        self._check_goals()
        self._check_board_counts()

    def _check_board_rules(self) -> None:
        if any(twisted and not wraps for twisted, wraps in zip(self.twist, self.wrap, strict=True)):
            raise InvalidBoard("a twisted axis must wrap (a Moebius strip: wrap = [false, \"twisted\"])")
        if all(self.twist):
            raise InvalidBoard("both axes twisted (the projective plane) has no consistent step at its corners")
        if any(self.twist) and self.dimensions != 2:
            raise InvalidBoard("only a 2-D board wraps with a twist")
        if any(self.twist) and (self.blockers or self.blocking):
            raise InvalidBoard("lines cut by blockers or by pieces are not modelled on a twisted board")
        if self.cover_kind not in COVER_KINDS:
            raise InvalidBoard(f"a cover is one of {', '.join(COVER_KINDS)}, got {self.cover_kind!r}")
        if self.cover_by is not None and not 0 <= self.cover_by < len(self.armies):
            raise InvalidBoard(f"the covering army is number {self.cover_by}, but there are {len(self.armies)}")
        if self.blocking and self.within and any(army.line_cap > 1 and army.piece.rays for army in self.armies):
            raise InvalidBoard("more than one piece per line when pieces block each other is not modelled")
        if self.cover and self.blocking:
            raise InvalidBoard("a cover when pieces block each other's lines is not modelled (use blockers)")

    def _check_bounds(self) -> None:
        armies = len(self.armies)
        bounds: list[Region | AttackBound | SlopeLines] = [*self.regions, *self.attack_bounds, *self.slope_lines]
        for bound in bounds:
            if bound.army is not None and not 0 <= bound.army < armies:
                raise InvalidBoard(f"a bound counts army number {bound.army}, but there are {armies}")
            if bound.least < 0 or (bound.most is not None and bound.most < bound.least):
                raise InvalidBoard(f"a bound needs 0 <= least <= most, got {bound.least} and {bound.most}")
        for attack in self.attack_bounds:
            if attack.of not in TARGETS:
                raise InvalidBoard(f"an attack bound counts pieces of one of {', '.join(TARGETS)}, got {attack.of!r}")
            if self.blocking and any(self.wrap):
                raise InvalidBoard("bounds on attacks when pieces block are read on a board that does not wrap")
            if self.blocking and attack.of != "any" and armies > 1:
                raise InvalidBoard("when pieces block, a bound on attacks counts the pieces of every army (any)")
        if any(rule.army is not None and not 0 <= rule.army < armies for rule in self.connected):
            raise InvalidBoard(f"a connected army is one of the {armies} armies, by number")
        if self.connected and self.dimensions != 2:
            raise InvalidBoard("connected armies are read on a 2-D board")
        if self.slope_lines and (self.dimensions != 2 or any(self.wrap)):
            raise InvalidBoard("lines of any slope are read on a flat 2-D board")
        self._check_private()

    def _check_private(self) -> None:
        if any(rule.army is not None and not 0 <= rule.army < len(self.armies) for rule in self.private):
            raise InvalidBoard(f"a rule on private squares names one of the {len(self.armies)} armies, by number")
        if self.private and self.blocking and (len(self.armies) > 1 or any(self.wrap)):
            raise InvalidBoard("private squares when pieces block are read for one army on a board that does not wrap")

    def _check_goals(self) -> None:
        for name in self.invariant:
            if name not in SYMMETRIES:
                raise InvalidBoard(f"unknown symmetry {name!r}; choose from {', '.join(SYMMETRIES)}")
            if self.dimensions != 2 or any(self.wrap):
                raise InvalidBoard("solutions invariant under a symmetry are read on a flat 2-D board")
            if not self.square and SYMMETRIES[name] in ("rotate 90", "rotate 270", "transpose", "anti-transpose"):
                raise InvalidBoard(f"a {self.size_text} board is not square: it has no {name}")
        if self.total is not None and self.goal is not None:
            raise InvalidBoard("a goal on the total and a goal on an army's size cannot both be asked")
        if self.total not in (None, "maximise", "minimise"):
            raise InvalidBoard(f"the total is maximised or minimised, got {self.total!r}")

    def _check_board_counts(self) -> None:
        """Each board-wide count names a known count with 0 <= least <= most; one goal in all."""
        for count in self.board_counts:
            if count.of not in COUNTED:
                raise InvalidBoard(f"a board-wide count is one of {', '.join(COUNTED)}, got {count.of!r}")
            if count.least < 0 or (count.most is not None and count.most < count.least):
                raise InvalidBoard(f"a board-wide count needs 0 <= least <= most, got {count.least} and {count.most}")
            if count.goal not in (None, "maximise", "minimise"):
                raise InvalidBoard(f"a board-wide count is maximised or minimised, got {count.goal!r}")
        goals = sum(count.goal is not None for count in self.board_counts)
        if goals and (goals > 1 or self.goal is not None or self.total is not None or self.copies_open):
            raise InvalidBoard("a puzzle has one goal: a board-wide count's, an army's size, the total or its copies")

    def _check_cells(self) -> None:
        board = self.topology
        for label, cells in (("hole", self.holes), ("blocker", self.blockers), ("missing square", self.missing),
                             *((f"piece of {army.name}", army.fixed) for army in self.armies)):
            for cell in sorted(cells):
                if len(cell) != len(self.shape) or not board.contains(cell):
                    raise OffBoard(f"{label} at {cell} is off the {self.size_text} board")
        for army in self.armies:
            clash = army.fixed & (self.holes | self.blockers | self.missing)
            if clash:
                raise InvalidBoard(f"pre-placed piece at {min(clash)} stands on a hole or blocker")
            if army.most is not None and len(army.fixed) > army.most:
                raise InvalidBoard(f"{len(army.fixed)} pre-placed pieces but only {army.most} allowed")
        if self.plain and self.within and self.armies[0].line_cap == 1:
            clash_at = first_attack(self.piece, sorted(self.fixed), topology=board, pawns=self.blockers)
            if clash_at:
                raise AttackingQueens(clash_at[0], clash_at[1])

    # -- the board ---------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self.shape[0]

    @property
    def cols(self) -> int:
        """The second side (a cube's too: the pictures draw its layers side by side)."""
        return self.shape[1]

    @property
    def dimensions(self) -> int:
        return len(self.shape)

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    @property
    def toroidal(self) -> bool:
        return all(self.wrap)

    @property
    def topology(self) -> Topology:
        """How the board's edges join: plane, torus, cylinder, Moebius strip, Klein bottle or cube."""
        return Topology(self.shape, self.wrap, self.twist)

    @property
    def size_text(self) -> str:
        return "x".join(map(str, self.shape))

    @property
    def cells(self) -> int:
        """How many cells the board has (holes and blockers included), without listing them."""
        return math.prod(self.shape)

    @property
    def board_cells(self) -> tuple[Coord, ...]:
        """Every cell of the board in order (holes and blockers included)."""
        cells: list[Coord] = [()]
        for side in self.shape:
            cells = [cell + (x,) for cell in cells for x in range(side)]
        return tuple(cells)

    @property
    def variables(self) -> int:
        """How many Boolean variables the lowering makes (one per open cell and army), known
        before it runs: what size limits are checked against."""
        copies = sum(army.copies or 1 for army in self.armies)
        return (self.cells - len(self.holes | self.blockers | self.missing)) * copies

    # -- one army ----------------------------------------------------------------------------

    @cached_property
    def plain(self) -> bool:
        """One army of one piece on a 2-D board (plane or torus), its size fixed or minimised,
        no bounds but its own lines': the form the fast lowering (strided lines, line keys) and
        the native methods' outline read."""
        army = self.armies[0]
        return (len(self.armies) == 1 and self.dimensions == 2 and army.copies == 1
                and (all(self.wrap) or not any(self.wrap)) and not self.per_line and not self.partition
                and army.goal != "maximise" and self.beyond_attacks is None
                and (army.least == army.most if army.goal is None else (army.least, army.most) == (0, None)))

    @property
    def cells_are_variables(self) -> bool:
        """Whether the model's variables are the board's own cells (row, col), not (army, cell)
        pairs: the lowering's choice for a `plain` puzzle (one army on a flat or toroidal 2-D
        board, no rule beyond its lines). What a method that reads the model as a board asks:
        the outline's lines by their keys (the native counters, the completion solver), a piece
        fixed on a cell (a split), a board symmetry applied to a variable. Any other reader of
        an answer goes through `per_army`, `placement_of` and `variable`, which read both forms."""
        return self.plain

    @property
    def variable_grid(self) -> tuple[int, int]:
        """(rows, columns) of the model's variables laid out as a grid, known before lowering:
        the board's own when its cells are the variables, else the variables in rows (armies
        side by side, a cube's layers): what a backend's size limits read.

        >>> from queens.models.armies import Army
        >>> two = Puzzle(shape=(4, 5), armies=(Army("a"), Army("b")))
        >>> Puzzle(rows=4, cols=5, pieces=4).variable_grid, two.variable_grid
        ((4, 5), (4, 10))
        """
        if self.cells_are_variables:
            return self.rows, self.cols
        return self.rows, -(-self.variables // self.rows)

    @property
    def one_per_row(self) -> bool:
        """Whether no answer holds two pieces in one row of the board: one army on a 2-D board
        whose pieces may not share a row (they slide along rows, at most one per line, no pawn
        to cut a row). What a file of columns (the column of each row's piece) can hold."""
        army = self.armies[0]
        return (len(self.armies) == 1 and not self.copies_open and self.dimensions == 2 and self.within
                and army.line_cap == 1 and (0, 1) in army.piece.rays and not self.blockers)

    @property
    def beyond_attacks(self) -> str | None:
        """The rules this puzzle states beyond pieces that do not attack each other, covers and
        bounds on whole lines, in words (None: none): what keeps it off the plain fast paths."""
        stated = {"a twisted wrap": any(self.twist), "missing squares": bool(self.missing),
                  "bounds on regions": bool(self.regions), "pieces that block": self.blocking,
                  "bounds on attacks": bool(self.attack_bounds),
                  "a total cover": self.cover_kind != "occupied or attacked",
                  "a cover by one army": self.cover_by is not None,
                  "a symmetry every solution keeps": bool(self.invariant),
                  "a goal on the total": self.total is not None,
                  "bounds on lines of any slope": bool(self.slope_lines),
                  "connected armies": bool(self.connected), "board-wide counts": bool(self.board_counts),
                  "private squares": bool(self.private)}
        return ", ".join(rule for rule, asked in stated.items() if asked) or None

    @property
    def piece(self) -> Piece:
        """The first army's piece."""
        return self.armies[0].piece

    @property
    def pieces(self) -> int | None:
        """The first army's exact number of pieces, or None when it is a goal or a range."""
        army = self.armies[0]
        return army.least if army.goal is None and army.least == army.most else None

    @property
    def fixed(self) -> frozenset[Cell]:
        """Every army's pre-placed pieces."""
        return frozenset(cell for army in self.armies for cell in army.fixed)  # type: ignore[misc]

    @property
    def line_cap(self) -> int:
        """The most pieces one of the first army's own lines may hold (1: none attack)."""
        return self.armies[0].line_cap

    @property
    def goal(self) -> Goal | None:
        """The armies' goal (their equal size maximised or minimised), if any."""
        return next((army.goal for army in self.armies if army.goal), None)

    @property
    def name(self) -> str:
        """A short human name: the title if given, else the board and armies."""
        if self.title:
            return self.title
        if len(self.armies) == 1:
            return f"{self.size_text} {self.armies[0].piece.name}"
        return f"{self.size_text} " + " + ".join(f"{a.name} {a.piece.name}" for a in self.armies)

    def attack(self, a: Cell, b: Cell) -> bool:
        """Whether the first army's piece on `a` attacks `b` on this board (blockers cut rays)."""
        return attacks(self.piece, a, b, topology=self.topology, pawns=self.blockers)

    # -- copies ------------------------------------------------------------------------------

    @property
    def copies_open(self) -> bool:
        """Whether one army stands for as many copies as needed (the fewest wins: colouring), or
        as many as fit (the most wins: disjoint solutions, A171760): `copies_goal` says which."""
        return any(army.copies is None for army in self.armies)

    @property
    def copies_goal(self) -> Goal | None:
        """Whether the open copies are minimised or maximised (None: no copies are open)."""
        return next((army.copies_goal for army in self.armies if army.copies is None), None)

    @property
    def board_goal(self) -> BoardCount | None:
        """The board-wide count maximised or minimised, if any (`queens.models.board_counts`)."""
        return next((count for count in self.board_counts if count.goal), None)

    def with_copies(self, copies: int) -> Puzzle:
        """The puzzle with the open army written out as `copies` armies, named name-1, name-2, ..."""
        return replace(self, armies=tuple(replace(army, copies=copies, copies_goal=None) if army.copies is None
                                          else army for army in self.armies))

    def with_fixed(self, cells: Iterable[Coord]) -> Puzzle:
        """The puzzle with these pieces of the first army placed too (a completion's givens, a
        split's subproblem, the explorer's clicks)."""
        first, *rest = self.armies
        return replace(self, armies=(replace(first, fixed=first.fixed | _cells(cells, "pre-placed piece")), *rest))

    def with_pieces(self, count: int) -> Puzzle:
        """The puzzle with exactly `count` pieces of the first army (its goal, if any, dropped):
        one value of a minimised puzzle."""
        first, *rest = self.armies
        return replace(self, armies=(replace(first, least=count, most=count, goal=None), *rest))

    def with_blockers(self, cells: Iterable[Coord]) -> Puzzle:
        """The puzzle with these cells blocked too (one layout of pawns the solver places)."""
        return replace(self, blockers=self.blockers | frozenset(cells))

    def to_json(self) -> dict[str, object]:
        """The puzzle as JSON, in the puzzle file's vocabulary (docs/json.md)."""
        return {"name": self.name, "rows": self.rows, "cols": self.cols, "shape": list(self.shape),
                "wrap": list(self.wrap), "holes": sorted(map(list, self.holes)),
                "blockers": sorted(map(list, self.blockers)),
                "armies": [{"name": army.name, "piece": army.piece.name, "least": army.least, "most": army.most,
                            "goal": army.goal, "copies": army.copies, "fixed": sorted(map(list, army.fixed))}
                           for army in self.armies],
                "piece": self.piece.name, "pieces": self.pieces, "fixed": sorted(map(list, self.fixed)),
                "twist": list(self.twist), "missing": sorted(map(list, self.missing)), "rules": self.beyond_attacks}

    def _repr_svg_(self) -> str:
        """The empty board, in Jupyter (blockers, holes and pre-placed pieces drawn)."""
        from queens.models.drawing import Board  # the drawing reads this module

        return Board(self, self.placement_of(army.fixed for army in self.armies)).svg()

    def variable(self, army: int, cell: Coord) -> Cell | Placed:
        """The model's variable of a piece of army number `army` on `cell` (`queens.models.placement`).

        >>> Puzzle(rows=4, cols=4, pieces=4).variable(0, (1, 2))
        (1, 2)
        """
        return cast(Cell, cell) if self.cells_are_variables else (army, cell)

    def per_army(self, placement: Iterable[Cell | Placed]) -> PerArmy:
        """An answer's cells, one sorted tuple per army, whichever form the model's variables
        take (`queens.models.placement`: cells, or (army, cell) pairs).

        >>> Puzzle(rows=2, cols=2, pieces=1).per_army([(0, 1)])
        (((0, 1),),)
        """
        if self.cells_are_variables:
            return (tuple(sorted(cast(Iterable[Cell], placement))),)
        armies: list[list[Coord]] = [[] for _ in self.armies]
        for a, cell in cast(Iterable[Placed], placement):
            armies[a].append(cell)
        return tuple(tuple(sorted(cells)) for cells in armies)

    def placement_of(self, armies: Iterable[Iterable[Coord]]) -> Placement:
        """Cells per army (in the puzzle's army order) as the model's variables, sorted: what
        `per_army` reads back. A hand placement, a layout's pawns and the pieces already placed
        become an answer of any puzzle this way.

        >>> from queens.models.armies import Army
        >>> Puzzle(shape=(3, 3), armies=(Army("white"), Army("black"))).placement_of([[(0, 0)], [(2, 1)]])
        ((0, (0, 0)), (1, (2, 1)))
        """
        if self.cells_are_variables:
            cells = [cell for group in armies for cell in group]
            cells.sort()
            return cast(tuple[Cell, ...], tuple(cells))
        return tuple(sorted((a, cell) for a, cells in enumerate(armies) for cell in cells))


def _copied(armies: tuple[Army, ...]) -> tuple[Army, ...]:
    """Armies with a fixed number of copies written out as that many armies (name-1, name-2, ...;
    pieces already placed go to the first): every rule then reads one army at a time. An army
    whose copies are open (None) stays, for `Puzzle.with_copies`."""
    written: list[Army] = []
    if sum(army.copies or 1 for army in armies) > MAX_ARMIES:
        raise InvalidBoard(f"{sum(army.copies or 1 for army in armies):,} armies once the copies are written out; "
                           f"a puzzle holds at most {MAX_ARMIES:,}")
    for army in armies:
        if army.copies is None or army.copies == 1:
            written.append(army)
            continue
        copies = _whole(army.copies, f"the copies of {army.name}")
        if copies < 1:
            raise InvalidBoard(f"{army.name} needs at least 1 copy, got {copies}")
        written += [replace(army, name=f"{army.name}-{i + 1}", copies=1, fixed=army.fixed if i == 0 else frozenset())
                    for i in range(copies)]
    return tuple(written)


def _one_army(piece: Piece, pieces: int | None, fixed: Iterable[Cell], cover: bool,
              per_line: int | LineBounds) -> Army:
    """The army the one-army keywords describe: `pieces` of `piece` (the fewest when None, which
    only a covering puzzle may ask: otherwise the answer would be no piece at all)."""
    if not isinstance(piece, Piece):
        raise InvalidBoard(f"piece must be a Piece (queens.models.PIECES), got {piece!r}")
    cap = per_line if isinstance(per_line, int) else 1
    if isinstance(cap, bool) or cap < 1:
        raise InvalidBoard(f"at most per_line pieces per line needs a positive whole number, got {per_line!r}")
    placed = _cells(fixed, "pre-placed piece")
    if pieces is None:
        if not cover:
            raise InvalidBoard("only a domination puzzle (cover = True) may leave the number of pieces open")
        return Army("pieces", piece, fixed=placed, goal="minimise", line_cap=cap)
    count = _whole(pieces, "the number of pieces")
    if count < 0:
        raise InvalidBoard(f"the number of pieces must be 0 or more, got {count}")
    return Army("pieces", piece, least=count, most=count, fixed=placed, line_cap=cap)
