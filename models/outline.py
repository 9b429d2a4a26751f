"""The structure of a constraint model without its cell lists: what a strategy reads to say
whether it can answer a puzzle.

A `ConstraintModel` of a 1000 x 1000 board holds 10^6 cells and 4,000 lines and takes seconds
to build; the completion solver answers the same board in milliseconds. The outline keeps only
what deciding needs: the board, how many cells are open, each line family's direction and kind
(exactly one / at most one) and whether its lines are the whole lines that direction cuts the
board into, the covers, the fixed pieces, the size. `outline_of(model)` reads it off a lowered
model; `outline(puzzle)` derives the same outline from the puzzle's rules in O(fixed pieces)
for plain sliding pieces (the boards that get large) and lowers the puzzle otherwise. A test
holds the two equal on every family.

>>> from queens.models.completion import Completion
>>> outline(Completion(1000, [(0, 0), (5, 7)])).queen_graph
1000
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from queens.models.ir import ConstraintModel, LineFamily, LineKind
from queens.models.lowering import lower
from queens.models.pieces import Cell, Vector
from queens.models.puzzle import Puzzle

ORTHOGONAL = frozenset({(1, 0), (0, 1)})
"""Keys a*r + b*c of rows (1, 0) and columns (0, 1)."""
DIAGONAL = frozenset({(1, -1), (1, 1)})
"""Keys of diagonals (r - c) and anti-diagonals (r + c)."""


@dataclass(frozen=True)
class FamilyOutline:
    """One line family: its key's direction (None for leaps), wrap modulus, kinds, and `whole`:
    its lines are exactly the lines its key cuts the open cells into (one-cell lines may be left
    out when they hold at most one piece: they constrain nothing)."""

    key: tuple[int, int] | None
    modulus: int | None
    kinds: frozenset[LineKind | None]
    whole: bool


@dataclass(frozen=True)
class Outline:
    """A constraint model's structure (see the module docstring)."""

    rows: int
    cols: int
    cells: int
    families: frozenset[FamilyOutline]
    covers: bool
    fixed: frozenset[Cell]
    size: int | None
    minimise: bool

    @property
    def holes(self) -> bool:
        """Some cells cannot hold a piece (blocked cells or pawns)."""
        return self.cells != self.rows * self.cols

    @property
    def queen_graph(self) -> int | None:
        """n when the model is n queens on the full n x n board: exactly one per row and column,
        at most one per diagonal, no holes, blockers or covers; fixed pieces allowed. This is
        the structure the classes counter, the completion solver, the construction and the local
        search answer, whatever the puzzle is called.

        >>> from queens.models.nqueens import NQueens
        >>> outline(NQueens(8)).queen_graph, outline(Puzzle(rows=8, cols=8, pieces=7)).queen_graph
        (8, None)
        """
        n = self.rows
        if self.cols != n or self.size != n or self.minimise or self.covers or self.holes:
            return None
        exactly = frozenset({LineKind.EXACTLY_ONE})
        wanted = {FamilyOutline(key, None, exactly, True) for key in ORTHOGONAL}
        at_most = exactly if n == 1 else frozenset({LineKind.AT_MOST_ONE})  # n = 1: pigeonhole
        wanted |= {FamilyOutline(key, None, at_most, True) for key in DIAGONAL}
        return n if self.families == wanted else None


def outline_of(model: ConstraintModel) -> Outline:
    """The outline read off a lowered model (O(cells))."""
    open_cells = set(model.cells)
    return Outline(model.rows, model.cols, len(model.cells), frozenset(_family(f, open_cells) for f in model.families),
                   bool(model.covers), model.fixed, model.size, model.minimise)


def _family(family: LineFamily, open_cells: set[Cell]) -> FamilyOutline:
    kinds = frozenset(line.kind for line in family.lines)
    if family.key is None:
        return FamilyOutline(None, None, kinds, False)
    cut: dict[int, set[Cell]] = defaultdict(set)
    for cell in open_cells:
        cut[family.key.of(cell)].add(cell)
    whole_lines = {frozenset(line) for line in cut.values()}
    lines = [frozenset(line.cells) for line in family.lines]
    needed = {line for line in whole_lines if len(line) > 1 or LineKind.EXACTLY_ONE in kinds}
    whole = len(set(lines)) == len(lines) and needed <= set(lines) <= whole_lines
    return FamilyOutline(_direction(family.key.a, family.key.b), family.key.modulus, kinds, whole)


def _direction(a: int, b: int) -> tuple[int, int]:
    """(a, b) with the sign of its first nonzero entry made positive."""
    sign = 1 if (a or b) > 0 else -1
    return sign * a, sign * b


def outline(puzzle: Puzzle) -> Outline:
    """The outline of `lower(puzzle)`, without lowering it when the rules give it directly."""
    return direct_outline(puzzle) or outline_of(lower(puzzle))


def direct_outline(puzzle: Puzzle) -> Outline | None:
    """The outline of `lower(puzzle)` from the rules alone, in O(fixed pieces), for independent
    sliding pieces with unit rays on an open, flat board (no pawns, blocked cells, torus, leaps
    or covers); None for any other puzzle."""
    if not puzzle.plain or puzzle.line_cap != 1:
        return None
    piece = puzzle.piece
    direct = (puzzle.within and not puzzle.cover and not puzzle.blockers and not puzzle.holes
              and not puzzle.toroidal and not piece.leaps and puzzle.pieces is not None
              and all(max(abs(dr), abs(dc)) == 1 for dr, dc in piece.rays))
    if not direct:
        return None
    families = (_ray(puzzle, direction) for direction in piece.rays)
    return Outline(puzzle.rows, puzzle.cols, puzzle.rows * puzzle.cols, frozenset(f for f in families if f),
                   False, puzzle.fixed, puzzle.pieces, False)


def _ray(puzzle: Puzzle, direction: Vector) -> FamilyOutline | None:
    """A unit ray's family on the open flat board, as `lower` builds it (pigeonhole included);
    None when the lowering drops it (only one-cell lines that hold at most one piece)."""
    rows, cols = puzzle.rows, puzzle.cols
    dr, dc = direction
    if dr == 0:
        count, longest = rows, cols
    elif dc == 0:
        count, longest = cols, rows
    else:
        count, longest = rows + cols - 1, min(rows, cols)
    exact = count == puzzle.pieces
    if not exact and longest < 2:
        return None
    kind = LineKind.EXACTLY_ONE if exact else LineKind.AT_MOST_ONE
    return FamilyOutline(_direction(dc, -dr), None, frozenset({kind}), True)
