"""The family registry: one table of every puzzle family, read by the CLI, the web explorer,
the experiments, the tests and the docs.

An entry holds the builder, the options it accepts beyond -n, a one-line description, the OEIS
sequences it is checked against, its tutorial, and a few labelled examples (what `make run`
and the backend grid count). Adding a family is one model file and one entry here.

Every builder takes `FamilyOptions` (-n and the family flags); a family that cannot use a
flag that was given says so instead of silently ignoring it.

>>> build("toroidal", FamilyOptions(5)).name
'5-queens on a torus'
>>> [entry["name"] for entry in catalogue()][:3]
['nqueens', 'completion', 'superqueens']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from queens.models import numbers
from queens.models.completion import Completion, parse_cells, parse_vector
from queens.models.domination import Domination
from queens.models.errors import BadOption, MalformedInput, QueensError
from queens.models.ninequeens import FreePawns, NineQueens
from queens.models.nqueens import NQueens
from queens.models.pieces import Cell
from queens.models.pieces_families import Bishops, Kings, Knights, RectangularQueens, Rooks
from queens.models.placement_file import read_placement
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import SHIPPED, load
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal, why_none


@dataclass(frozen=True)
class FamilyOptions:
    """-n and the family flags, as the CLI, the web explorer or a test gives them."""

    n: int
    m: int | None = None
    queens: str | None = None
    vector: str | None = None
    pawns: int | None = None
    pawn: tuple[Cell, ...] = ()
    independent: bool = False
    pieces: int | None = None
    given: frozenset[str] = field(default_factory=frozenset)
    """Which of the optional flags the user gave (to reject those a family cannot use)."""

    def __post_init__(self) -> None:
        """Every number checked once, here, whichever front end built the options (the CLI, the
        explorer, a script): a family's builder never receives NaN, 2.5 pieces or a string cell."""
        set_ = object.__setattr__  # frozen: the checked values replace the given ones
        set_(self, "n", numbers.size(self.n, "n", minimum=None))
        for name in ("m", "pawns", "pieces"):
            value = getattr(self, name)
            if value is not None:
                set_(self, name, numbers.size(value, name, minimum=None) if name == "m" else numbers.count(value, name))
        set_(self, "pawn", tuple(numbers.cell(cell, "pawn", self.n, self.n) for cell in self.pawn))


@dataclass(frozen=True)
class Family:
    """One row of the registry (see the module docstring)."""

    build: Callable[[FamilyOptions], Puzzle]
    description: str
    accepts: frozenset[str] = frozenset()
    oeis: tuple[str, ...] = ()
    examples: tuple[tuple[str, FamilyOptions], ...] = ()
    """(label, options): small instances every backend counts in `make run` and the test grid."""
    why_none: Callable[[FamilyOptions], str | None] | None = None


def tutorial(family: str) -> str:
    """The family's tutorial, relative to the repository: one per family, run as a test."""
    return f"docs/{family}.md"


def _is_file(path: Path) -> bool:
    """Whether the text names a file: cells written out ('0,1 2,3 ...' for 60 queens) are longer
    than a file name may be, which Path.is_file reports as an OSError, not as False."""
    try:
        return path.is_file()
    except OSError:
        return False


def pre_placed_cells(queens: str | None, vector: str | None, n: int) -> np.ndarray:
    """The completion's pre-placed queens, from --queens or --vector, as a (k, 2) array of cells.

    --queens is 'r,c r,c' or a file, read in O(k) by `read_placement`: 'row col' lines (the
    text `queens generate` writes), one line of columns, or .npy; a file that says its n must
    say this one. --vector is Grigoryan's vector, as text or a file. Giving no queens at all
    (an empty string or file) is refused: "completion of 0" is plain n-queens, ask for that.

    >>> pre_placed_cells(None, "1 5 0 0", 4).tolist()
    [[0, 0], [1, 4]]
    """
    if vector is not None:
        if queens is not None:
            raise QueensError("give the pre-placed queens once: --queens or --vector")
        path = Path(vector)
        return _non_empty(_array(parse_vector(path.read_text() if _is_file(path) else vector)), vector)
    if queens is None:
        raise QueensError("completion needs pre-placed queens: --queens FILE|'r,c r,c' or --vector")
    path = Path(queens)
    if not _is_file(path):
        if not queens.strip():
            raise MalformedInput("--queens is empty; for no pre-placed queens at all, use the nqueens family")
        if "," not in queens:  # cells are 'r,c': anything else was meant as a file
            raise MalformedInput(f"--queens: no such file {queens!r}")
        return _non_empty(_array(parse_cells(queens)), queens)
    placement = read_placement(path, n)
    if placement.n is not None and placement.n != n:
        raise MalformedInput(f"{path} is for n = {placement.n}, not {n}")
    return _non_empty(placement.cells(), str(path))


def _non_empty(cells: np.ndarray, source: str) -> np.ndarray:
    if len(cells) == 0:
        raise MalformedInput(f"no pre-placed queens in {source!r}; for none at all, use the nqueens family")
    return cells


def _array(cells: tuple[Cell, ...]) -> np.ndarray:
    return np.array(cells, np.int64).reshape(-1, 2)


def _completion(o: FamilyOptions) -> Puzzle:
    cells = pre_placed_cells(o.queens, o.vector, o.n).tolist()  # Python ints, not numpy scalars
    return Completion(o.n, (tuple(cell) for cell in cells))


def _nqueens(o: FamilyOptions) -> Puzzle:
    return NQueens(o.n) if o.m is None else RectangularQueens(o.n, o.m)


def _ninequeens(o: FamilyOptions) -> Puzzle:
    if o.pawn and o.pawns is not None:
        raise QueensError("give either --pawns K (the solver places them) or --pawn r,c (fixed)")
    if o.pawn:
        return NineQueens(o.n, o.pawn, o.pieces)
    return FreePawns(o.n, 1 if o.pawns is None else o.pawns, o.pieces)


def _knights(o: FamilyOptions) -> Puzzle:
    if o.pieces == 0:
        raise MalformedInput("--pieces 0 places no knights: give at least 1")
    return Knights(o.n, o.pieces)


def _shipped(name: str) -> Callable[[FamilyOptions], Puzzle]:
    """The family written as models/puzzles/NAME.toml, for -n (and -m: the columns, when given)."""
    def build(o: FamilyOptions) -> Puzzle:
        puzzle = load(SHIPPED / f"{name}.toml", o.n)
        return puzzle if o.m is None else replace(puzzle, shape=(o.n, o.m))
    return build


def _sizes(*sizes: int) -> tuple[tuple[str, FamilyOptions], ...]:
    return tuple((f"n={n}", FamilyOptions(n)) for n in sizes)


FAMILIES: dict[str, Family] = {
    "nqueens": Family(
        _nqueens, "n queens on an n x n (or n x m) board, no two attacking", frozenset({"m"}), ("A000170", "A002562"),
        (*_sizes(4, 5, 6, 7, 8, 9, 10), ("6x9", FamilyOptions(6, m=9)))),
    "completion": Family(
        _completion, "n-queens with some queens already placed", frozenset({"queens", "vector"}), (),
        (("n=8, queen at 0,0", FamilyOptions(8, queens="0,0")),
         ("n=21, 10 queens",
          FamilyOptions(21, queens="0,3 1,5 2,7 3,9 4,11 5,13 6,15 7,17 8,19 9,1")))),
    "superqueens": Family(
        lambda o: Superqueens(o.n), "queens that also move as knights (amazons)", oeis=("A051223",),
        examples=_sizes(10)),
    "toroidal": Family(
        lambda o: Toroidal(o.n), "n queens on a torus: lines wrap around the edges", oeis=("A051906",),
        examples=_sizes(7), why_none=lambda o: why_none(o.n)),
    "domination": Family(
        lambda o: Domination(o.n, o.independent), "the fewest queens that attack every square",
        frozenset({"independent"}), ("A075458", "A002564"),
        (("n=5 (minimum sets)", FamilyOptions(5)), ("n=5, independent", FamilyOptions(5, independent=True)))),
    "ninequeens": Family(
        _ninequeens, "more queens than rows, with pawns that block lines", frozenset({"pawns", "pawn", "pieces"}), (),
        (("8x8, pawn at 3,3", FamilyOptions(8, pawn=((3, 3),))), ("8x8, 1 free pawn", FamilyOptions(8, pawns=1)))),
    "rooks": Family(lambda o: Rooks(o.n), "n rooks, none attacking: n! ways", examples=_sizes(6)),
    "bishops": Family(lambda o: Bishops(o.n), "2n - 2 bishops, none attacking: 2^n ways", examples=_sizes(6)),
    "kings": Family(lambda o: Kings(o.n), "n kings, one per row and column, none adjacent (Hertzsprung)",
                    oeis=("A002464",), examples=_sizes(6)),
    "knights": Family(_knights, "k knights (default n), none attacking", frozenset({"pieces"}),
                      examples=(("n=4, 6 knights", FamilyOptions(4, pieces=6)),)),
    "peaceable": Family(_shipped("peaceable"), "the most m: m white and m black queens, none attacking the other",
                        oeis=("A250000",)),
    "independence": Family(_shipped("independence"), "the most non-attacking queens on n x n (or n x m); "
                           "other pieces in the file", frozenset({"m"})),
    "colouring": Family(_shipped("colouring"), "the fewest armies of non-attacking queens that fill the board "
                        "(the queen graph's chromatic number)", oeis=("A088202",)),
    "cube": Family(_shipped("cube"), "the most non-attacking queens on the n x n x n cube (13 lines per queen)",
                   oeis=("A068940",)),
    "cube-squared": Family(_shipped("cube-squared"), "n^2 non-attacking queens on the n x n x n cube (Klarner)"),
    "queens-and-knights": Family(_shipped("queens-and-knights"), "the most k: k queens and k knights, none attacked"),
    "two-per-line": Family(_shipped("two-per-line"), "exactly two rooks in every row and column",
                           oeis=("A001499",)),
}
"""Every family by the name the CLI, the web explorer and the experiments use."""


def build(family: str, options: FamilyOptions) -> Puzzle:
    """The puzzle `family` builds from `options`; a flag the family cannot use is refused
    (`BadOption`: on the command line a usage error, exit 2, since nothing was attempted)."""
    if family not in FAMILIES:
        raise QueensError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
    entry = FAMILIES[family]
    unused = sorted(options.given - entry.accepts)
    if unused:
        takes = ", ".join(map(_flag, sorted(entry.accepts))) or "only -n"
        raise BadOption(f"{_flag(unused[0])} does not apply to {family} ({family} takes {takes})")
    return entry.build(options)


def _flag(name: str) -> str:
    """An option as the command line spells it: -m, --pawns."""
    return f"-{name}" if len(name) == 1 else f"--{name}"


def of_size(family: str, n: int) -> Puzzle:
    """The family's puzzle on the n x n board with its default options (the experiments' grid)."""
    return build(family, FamilyOptions(n))


def reason_for_none(family: str, options: FamilyOptions) -> str | None:
    """Why a family has no solution for these options, when the family knows (toroidal)."""
    entry = FAMILIES.get(family)
    return entry.why_none(options) if entry and entry.why_none else None


def catalogue() -> list[dict[str, object]]:
    """The registry as plain data, for the web explorer and `--json`: name, description, the
    options each family accepts, its OEIS ids and its tutorial."""
    return [{"name": name, "description": entry.description, "options": sorted(entry.accepts),
             "oeis": list(entry.oeis), "tutorial": tutorial(name)} for name, entry in FAMILIES.items()]
