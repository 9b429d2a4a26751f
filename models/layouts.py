"""Blockers the solver places: "9 queens and 1 pawn anywhere" is one puzzle whose answers range
over every pawn square. It is written in general form (`layout_form` recognises it by its
structure): an army of k pieces that attack nothing (pawns), pieces that block lines, nothing
between the armies, and one other army of one plain piece. Each layout of the pawns is then an
ordinary puzzle with those cells blocked, so the native counter answers it; the strategy
`queens.solvers.routing.blocker_layouts.Layouts` sums over them.

Layouts related by a symmetry of the puzzle (found from its model without the pawns) have equal
counts, so only one representative per orbit is kept, with a weight: the number of layouts it
stands for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from queens.models.geometry import Coord
from queens.models.lowering import lower
from queens.models.puzzle import Puzzle
from queens.models.symmetry import Transform, symmetry_group

MAX_LAYOUTS = 2_000_000
"""Free blocker layouts grow as C(cells, k); more than this is refused before any work."""


@dataclass(frozen=True)
class LayoutForm:
    """A puzzle as its layouts: `base`, the ordinary puzzle of the line piece's army alone (with
    the board's own blockers), and `free`, how many more blockers the solver places on its open
    cells."""

    base: Puzzle
    free: int

    @property
    def open_cells(self) -> list[Coord]:
        """The cells a free blocker may stand on."""
        taken = self.base.holes | self.base.blockers | self.base.fixed
        return [c for c in self.base.board_cells if c not in taken]


def layout_form(puzzle: Puzzle) -> tuple[LayoutForm | None, str | None]:
    """The puzzle as layouts of solver-placed blockers, or None and the reason it is not one.

    >>> from queens.models.ninequeens import FreePawns
    >>> form, _ = layout_form(FreePawns(8, 1))
    >>> form.free, form.base.pieces, form.base.plain
    (1, 9, True)
    """
    if len(puzzle.armies) != 2:
        return None, "needs two armies: pieces, and pawns the solver places"
    pawns = [a for a in puzzle.armies if a.piece.attacks_nothing]
    if len(pawns) != 1:
        return None, "needs exactly one army of pieces that attack nothing (pawns) beside one that does"
    pawn, pieces = pawns[0], next(a for a in puzzle.armies if not a.piece.attacks_nothing)
    if pawn.goal is not None or pawn.least != pawn.most or pawn.fixed:
        return None, "needs an exact number of pawns, none placed by hand (those are blockers)"
    if not puzzle.blocking or puzzle.between:
        return None, "needs pieces that block and nothing between the armies (blocking, between = \"free\")"
    if puzzle.dimensions != 2 or any(puzzle.wrap):
        return None, "needs a flat 2-D board"
    if puzzle.beyond_attacks != "pieces that block" or puzzle.per_line or puzzle.partition or puzzle.cover:
        return None, "needs no rule beyond attacks that pieces block"
    base = replace(puzzle, armies=(pieces,), blocking=False, between=True)
    if not (base.plain and base.within and base.line_cap == 1 and base.pieces is not None):
        return None, "needs the other army to be an exact number of one piece, none attacking another"
    assert pawn.most is not None
    return LayoutForm(base, pawn.most), None


def layout_group(form: LayoutForm) -> tuple[Transform, ...]:
    """The board symmetries that keep the puzzle without its pawns (the base)."""
    return symmetry_group(lower(form.base))


def layouts(form: LayoutForm) -> list[tuple[Puzzle, int]]:
    """One puzzle per orbit of free-blocker layouts, with the orbit's size.

    >>> from queens.models.ninequeens import FreePawns
    >>> form, _ = layout_form(FreePawns(8, 1))
    >>> sum(weight for _, weight in layouts(form))
    64
    """
    base = form.base
    return [(base.with_blockers(layout), weight)
            for layout, weight in layouts_up_to_symmetry(form.open_cells, form.free, layout_group(form),
                                                         base.rows, base.cols)]


def layouts_up_to_symmetry(cells: list[Coord], k: int, transforms: tuple[Transform, ...], rows: int,
                           cols: int) -> list[tuple[frozenset[Coord], int]]:
    """Every set of k of `cells`, one per orbit under `transforms`, with the orbit's size."""
    found: dict[tuple[Coord, ...], int] = {}
    for layout in combinations(cells, k):
        orbit = {tuple(sorted(t((c[0], c[1]), rows, cols) for c in layout)) for t in transforms}
        canonical = min(orbit)
        if canonical == layout:
            found[canonical] = len(orbit)
    return [(frozenset(layout), weight) for layout, weight in found.items()]
