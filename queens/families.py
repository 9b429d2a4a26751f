"""The CLI's family names, each mapped to the model builder it calls.

Every family takes -n; the other options (-m, --queens, --vector, --pawns, --pawn,
--independent, --pieces) are gathered once into `FamilyOptions`, and a family that cannot use
one that was given says so instead of silently ignoring it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from queens.models import Cell, Completion, NQueens, Puzzle, QueensError, parse_cells, parse_vector
from queens.models.alternatives import Alternatives
from queens.models.catalogue import FAMILIES as BY_SIZE
from queens.models.domination import Domination
from queens.models.errors import MalformedInput
from queens.models.ninequeens import FreePawns, NineQueens
from queens.models.pieces_families import Knights, RectangularQueens
from queens.models.placement_file import read_placement
from queens.models.toroidal import why_none

Target = Puzzle | Alternatives


@dataclass(frozen=True)
class FamilyOptions:
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


@dataclass(frozen=True)
class Family:
    build: Callable[[FamilyOptions], Target]
    accepts: frozenset[str] = frozenset()
    why_none: Callable[[FamilyOptions], str | None] | None = None


def pre_placed_cells(queens: str | None, vector: str | None, n: int) -> np.ndarray:
    """The completion's pre-placed queens, from --queens or --vector, as a (k, 2) array of cells.

    --queens is 'r,c r,c' or a file, read in O(k) by `read_placement`: 'row col' lines (the
    text `queens generate` writes), one line of columns, or .npy; a file that says its n must
    say this one. --vector is Grigoryan's vector, as text or a file.

    >>> pre_placed_cells(None, "1 5 0 0", 4).tolist()
    [[0, 0], [1, 4]]
    """
    if vector is not None:
        if queens is not None:
            raise QueensError("give the pre-placed queens once: --queens or --vector")
        path = Path(vector)
        return _array(parse_vector(path.read_text() if path.is_file() else vector))
    if queens is None:
        raise QueensError("completion needs pre-placed queens: --queens FILE|'r,c r,c' or --vector")
    path = Path(queens)
    if not path.is_file():
        return _array(parse_cells(queens))
    placement = read_placement(path)
    if placement.n is not None and placement.n != n:
        raise MalformedInput(f"{path} is for n = {placement.n}, not {n}")
    return placement.cells()


def _array(cells: tuple[Cell, ...]) -> np.ndarray:
    return np.array(cells, np.int64).reshape(-1, 2)


def _completion(o: FamilyOptions) -> Puzzle:
    cells = pre_placed_cells(o.queens, o.vector, o.n).tolist()  # Python ints, not numpy scalars
    return Completion(o.n, (tuple(cell) for cell in cells))


def _of_size(name: str) -> Callable[[FamilyOptions], Target]:
    """A family built from n alone (queens.models.catalogue)."""
    build = BY_SIZE[name]
    return lambda o: build(o.n)


def _nqueens(o: FamilyOptions) -> Puzzle:
    return NQueens(o.n) if o.m is None else RectangularQueens(o.n, o.m)


def _ninequeens(o: FamilyOptions) -> Target:
    if o.pawn and o.pawns is not None:
        raise QueensError("give either --pawns K (the solver places them) or --pawn r,c (fixed)")
    if o.pawn:
        return NineQueens(o.n, o.pawn, o.pieces)
    return FreePawns(o.n, 1 if o.pawns is None else o.pawns, o.pieces)


FAMILIES: dict[str, Family] = {
    "nqueens": Family(_nqueens, frozenset({"m"})),
    "completion": Family(_completion, frozenset({"queens", "vector"})),
    "superqueens": Family(_of_size("superqueens")),
    "toroidal": Family(_of_size("toroidal"), why_none=lambda o: why_none(o.n)),
    "domination": Family(lambda o: Domination(o.n, o.independent), frozenset({"independent"})),
    "ninequeens": Family(_ninequeens, frozenset({"pawns", "pawn", "pieces"})),
    "rooks": Family(_of_size("rooks")),
    "bishops": Family(_of_size("bishops")),
    "kings": Family(_of_size("kings")),
    "knights": Family(lambda o: Knights(o.n, o.pieces), frozenset({"pieces"})),
}


def build(family: str, options: FamilyOptions) -> Target:
    if family not in FAMILIES:
        raise QueensError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
    entry = FAMILIES[family]
    unused = sorted(options.given - entry.accepts)
    if unused:
        raise QueensError(f"--{unused[0]} does not apply to {family}")
    return entry.build(options)


def reason_for_none(family: str, options: FamilyOptions) -> str | None:
    """Why a family has no solution for these options, when the family knows (toroidal)."""
    entry = FAMILIES.get(family)
    return entry.why_none(options) if entry and entry.why_none else None
