"""The CLI's family names, each mapped to the model builder it calls.

Every family takes -n; the other options (-m, --queens, --vector, --pawns, --pawn,
--independent, --pieces) are gathered once into `FamilyOptions`, and a family that cannot use
one that was given says so instead of silently ignoring it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from models import Cell, Completion, NQueens, Puzzle, QueensError, parse_cells, parse_vector, read_cells
from models.alternatives import Alternatives
from models.domination import Domination
from models.ninequeens import FreePawns, NineQueens
from models.pieces_families import Bishops, Kings, Knights, RectangularQueens, Rooks
from models.superqueens import Superqueens
from models.toroidal import Toroidal, why_none

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


def _queens(options: FamilyOptions) -> tuple[Cell, ...]:
    if options.vector is not None:
        if options.queens is not None:
            raise QueensError("give the pre-placed queens once: --queens or --vector")
        text = options.vector
        return parse_vector(Path(text).read_text() if Path(text).is_file() else text)
    if options.queens is None:
        raise QueensError("completion needs pre-placed queens: --queens FILE|'r,c r,c' or --vector")
    path = Path(options.queens)
    return read_cells(path) if path.is_file() else parse_cells(options.queens)


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
    "completion": Family(lambda o: Completion(o.n, _queens(o)), frozenset({"queens", "vector"})),
    "superqueens": Family(lambda o: Superqueens(o.n)),
    "toroidal": Family(lambda o: Toroidal(o.n), why_none=lambda o: why_none(o.n)),
    "domination": Family(lambda o: Domination(o.n, o.independent), frozenset({"independent"})),
    "ninequeens": Family(_ninequeens, frozenset({"pawns", "pawn", "pieces"})),
    "rooks": Family(lambda o: Rooks(o.n)),
    "bishops": Family(lambda o: Bishops(o.n)),
    "kings": Family(lambda o: Kings(o.n)),
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
