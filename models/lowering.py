"""Lower a `Puzzle` (what the user asks) to a `ConstraintModel` (what backends read).

The rules, each a small pure function:
- a sliding piece makes one family of lines per ray direction; pawns cut lines into segments,
  forbidden cells are dropped from lines but do not cut them;
- a leaping piece makes a family of two-cell lines (the pairs one leap apart);
- pigeonhole: when a family's lines can hold exactly as many pieces as there are (lines times
  `per_line`), every line holds exactly `per_line` pieces (this is how n-queens gets "one queen
  per row and per column" without anyone writing it, and 2n rooks "two per row and column");
- domination makes one cover per square: the square itself and every cell attacking it.

`guarded` (for "why not?", `queens.solvers.proofs.why`): each stated rule (`queens.models.givens`:
an army's count, a per-line bound, a region, an attack bound) holds only under a literal of its
own, so any subset of them can be assumed on one solver. What pigeonhole derives from the count
(every row holds exactly one) is then two lines: at most one (the pieces do not attack), and at
least one under the count's literal: the same model when every literal is assumed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import cast

from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord
from queens.models.givens import Given, stated_rules
from queens.models.ir import ConstraintModel, Line, LinearKey, LineFamily
from queens.models.pieces import Cell, Vector
from queens.models.puzzle import Puzzle

MAX_CELLS = 4_000_000
"""Boards beyond 2000 x 2000 are not lowered: n^2 cell variables would not fit a backend. At
2000 x 2000 one n-queens solution costs sat 9 s of CPU and at most 1.3 GB, cpsat 16 s and at
most 3.2 GB (experiments/results/bench_backends.md, defaults.md); each backend says in `Backend.cell_limit`
how far it goes."""

_FAMILY_NAMES = {(0, 1): "rows", (1, 0): "columns", (1, 1): "diagonals", (1, -1): "anti-diagonals"}


def lower(puzzle: Puzzle, guarded: bool = False) -> ConstraintModel:
    """The constraint model of any puzzle: one plain army through the board's own lines (cells
    are the variables, lines keep their strides and keys), anything else through
    `queens.models.army_lowering` ((army, cell) variables). The size is checked first, before any
    work. `guarded`: each stated rule under its own literal (see the module docstring).

    >>> from queens.models.nqueens import NQueens
    >>> [f.name for f in lower(NQueens(4)).families]
    ['rows', 'columns', 'diagonals', 'anti-diagonals']
    """
    check_size(puzzle)
    if not guarded and (reason := no_room(puzzle)):  # a count or a bound no line can hold is written by no backend
        raise InvalidBoard(f"{reason}: no solution, by counting (the router answers it without a backend)")
    if puzzle.copies_open:
        raise InvalidBoard("the fewest copies is a search over models: fix their number first (Puzzle.with_copies)")
    if not puzzle.plain:
        from queens.models.army_lowering import lower_armies  # it imports this module's MAX_CELLS

        return lower_armies(puzzle, guarded)
    return _lower_plain(puzzle, guarded)


MAX_PAIRS = 20_000_000
"""Most two-cell lines the lowering writes for rules between armies (and leaps): each is an
object of a few hundred bytes, so this is a few GB at most. Peaceable queens on 300 x 300 would
need 2 x 10^8 (47 s and a MemoryError before this check)."""


PER_LINE_SIDES = {"rows": 1, "cols": 0}
"""The per-line families whose lines all have one length: a row is as long as the board is wide."""


def no_room(puzzle: Puzzle) -> str | None:
    """Why no placement of `puzzle` can exist by counting alone, or None when the count leaves
    room: more pieces asked for than open cells, or more per row (column) than a row (column)
    holds on a board without holes, blockers or missing squares (where every line is whole).
    The router answers such a puzzle by this (0 solutions: `queens.solvers.routing.pigeonhole`);
    the lowering refuses it, with this reason, to a backend named by the caller.

    >>> no_room(Puzzle(rows=4, cols=4, pieces=17))
    '17 pieces do not fit on the 16 open cells of the 4x4 board'
    >>> no_room(Puzzle(rows=8, cols=8, pieces=8)) is None
    True
    """
    open_cells = puzzle.cells - len(puzzle.holes | puzzle.blockers | puzzle.missing)
    wanted = sum(army.least for army in puzzle.armies)
    if wanted > open_cells:
        return f"{wanted} pieces do not fit on the {open_cells} open cells of the {puzzle.size_text} board"
    if puzzle.holes or puzzle.blockers or puzzle.missing or puzzle.dimensions != 2:
        return None
    for family, least, _ in puzzle.per_line:
        side = puzzle.shape[PER_LINE_SIDES[family]] if family in PER_LINE_SIDES else None
        if side is not None and least > side * len(puzzle.armies):
            return f"{least} pieces per line of {family} do not fit on lines of {side} cells"
    return None


def check_size(puzzle: Puzzle) -> None:
    """Refuse, before any work, a puzzle whose model would not fit a backend: too many
    variables, or (armies) too many pairs of cells that exclude each other."""
    if puzzle.variables > MAX_CELLS:
        raise InvalidBoard(
            f"a {puzzle.size_text} board with {len(puzzle.armies)} army(ies) is too large for a constraint model "
            f"({puzzle.variables:,} variables, at most {MAX_CELLS:,}); use a construction or local search instead"
        )
    pairs = _pairs_bound(puzzle)
    if pairs > MAX_PAIRS:
        raise InvalidBoard(f"{puzzle.name} on {puzzle.size_text} would need about {pairs:,} exclusion pairs between "
                           f"its armies (at most {MAX_PAIRS:,}): ask for a smaller board")


def _pairs_bound(puzzle: Puzzle) -> int:
    """An upper bound on the two-cell lines the army lowering writes: for each pair of armies,
    every open cell times the cells its pieces reach (both ways); a plain puzzle writes none."""
    if puzzle.plain:
        return 0
    armies = len(puzzle.armies)
    cells = puzzle.variables // max(1, armies)
    longest = max(puzzle.shape)
    reach = max(2 * longest * len(army.piece.rays) + 2 * len(army.piece.leaps) for army in puzzle.armies)
    return cells * reach * (armies * (armies - 1)) // 2 if puzzle.between else 0


def _lower_plain(puzzle: Puzzle, guarded: bool) -> ConstraintModel:
    blocked = puzzle.holes | puzzle.blockers
    board = tuple(itertools.product(range(puzzle.rows), range(puzzle.cols)))
    cells = tuple(cell for cell in board if cell not in blocked) if blocked else board
    size = puzzle.pieces
    count = Given("count") if guarded and size is not None else None  # the one army's count, as a given
    families: list[LineFamily] = []
    if puzzle.within:
        families += [family for direction in puzzle.piece.rays  # a plain puzzle's rays are 2-D
                     for family in _ray_families(puzzle, cast(Cell, direction), board, count)]
        if puzzle.piece.leaps:
            families.append(_leap_family(puzzle, set(cells)))
    if count is not None and size is not None and not any(line.guard is not None for f in families for line in f.lines):
        families.append(LineFamily("count", (Line(cells, size, size, guard=count),)))  # else its lines say it
    families = [f for f in families if f.lines]
    return ConstraintModel(
        rows=puzzle.rows,
        cols=puzzle.cols,
        cells=cells,
        families=tuple(families),
        covers=_covers(puzzle, set(cells)) if puzzle.cover else (),
        fixed=puzzle.fixed,
        size=None if count else size,
        size_implied=any(f.exact is not None for f in families),
        minimise=puzzle.goal == "minimise",
        guards=tuple(stated_rules(puzzle)) if guarded else (),
        occupancy=_occupancy(puzzle, board) if puzzle.goal == "minimise" else (),
    )


def _occupancy(puzzle: Puzzle, board: tuple[Cell, ...]) -> tuple[tuple[tuple[Cell, ...], ...], ...]:
    """The runs along each of the piece's directions, of two cells or more (a lone cell's group
    counts as it holds), for a model that minimises its pieces (`ConstraintModel.occupancy`)."""
    families = ([tuple(run) for run in _segments(puzzle, cast(Cell, direction), board) if len(run) > 1]
                for direction in puzzle.piece.rays)
    return tuple(tuple(runs) for runs in families if runs)


def _segments(puzzle: Puzzle, direction: Cell, board: tuple[Cell, ...]) -> list[Sequence[Cell]]:
    """Every maximal run of cells along `direction`, cut at blockers, without holes;
    made of `board`'s own cell objects where the topology can (see `Topology.lines`)."""
    topology = puzzle.topology
    runs: list[Sequence[Cell]] = []
    for line in topology.lines(direction, board):
        if not puzzle.blockers:
            runs.append(line)
            continue
        closed = topology.step(line[-1], direction) == line[0]
        runs += _cut_at_pawns(list(line), puzzle.blockers, cyclic=closed)
    if not puzzle.holes:
        return runs
    return [[cell for cell in run if cell not in puzzle.holes] for run in runs]


def _cut_at_pawns(line: list[Cell], pawns: frozenset[Coord], *, cyclic: bool) -> list[list[Cell]]:
    cuts = [i for i, cell in enumerate(line) if cell in pawns]
    if not cuts:
        return [line]
    if cyclic:  # start right after a pawn so that the wrap-around run stays whole
        line = line[cuts[0] + 1 :] + line[: cuts[0] + 1]
    runs: list[list[Cell]] = []
    run: list[Cell] = []
    for cell in line:
        if cell in pawns:
            runs.append(run)
            run = []
        else:
            run.append(cell)
    runs.append(run)
    return runs


def _ray_families(puzzle: Puzzle, direction: Cell, board: tuple[Cell, ...], count: Given | None) -> list[LineFamily]:
    """The lines along `direction`; and when pigeonhole makes them exact and the count is a
    guarded given (`count`), their lower bounds as a second family under its literal."""
    runs = [run for run in _segments(puzzle, direction, board) if run]
    most = puzzle.line_cap
    exact = puzzle.pieces is not None and len(runs) * most == puzzle.pieces
    implied = exact and count is not None
    strided = not (puzzle.blockers or puzzle.holes or any(puzzle.topology.wrap))  # runs cut from the board
    lines = tuple(Line(tuple(run), most, most if exact and not implied else 0,
                       _stride(run, puzzle.cols) if strided else None)
                  for run in runs if (exact and not implied) or len(run) > most)
    key = None
    if not puzzle.blockers:
        key = LinearKey(direction[1], -direction[0], puzzle.rows if puzzle.toroidal else None)
    name = _FAMILY_NAMES.get(direction, f"lines {direction}")
    if not implied:
        return [LineFamily(name, lines, key)]
    by_count = tuple(Line(tuple(run), len(run), most, guard=count) for run in runs)
    return [LineFamily(name, lines, key), LineFamily(f"{name}, by the count", by_count)]


def _stride(run: Sequence[Cell], cols: int) -> range:
    """The flat indices r * cols + c of a straight run of cells on a board without wrapping."""
    first = run[0][0] * cols + run[0][1]
    if len(run) == 1:
        return range(first, first + 1)
    step = run[1][0] * cols + run[1][1] - first
    return range(first, first + len(run) * step, step)


def _leap_family(puzzle: Puzzle, cells: set[Cell]) -> LineFamily:
    """Two-cell lines for the leaps, skipping leaps that a ray already covers (a king's step)."""
    leaps = [
        leap for leap in puzzle.piece.leaps
        if not (max(abs(leap[0]), abs(leap[1])) == 1 and _parallel_to_ray(puzzle, leap))
    ]
    pairs: set[tuple[Cell, Cell]] = set()
    for a in sorted(cells):
        for leap in leaps:
            b = puzzle.topology.step(a, leap)
            if b in cells and b != a:
                pairs.add((min(a, b), max(a, b)))
    lines = tuple(Line(pair) for pair in sorted(pairs))
    return LineFamily(f"{puzzle.piece.name} leaps", lines)


def _parallel_to_ray(puzzle: Puzzle, leap: Vector) -> bool:
    return any(leap[0] * rc - leap[1] * rr == 0 for rr, rc in puzzle.piece.rays)


def _covers(puzzle: Puzzle, cells: set[Cell]) -> tuple[tuple[Cell, ...], ...]:
    """For each square without a pawn: the cells whose piece would occupy or attack it."""
    topology = puzzle.topology
    covers = []
    for square in ((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)):
        if square in puzzle.blockers:
            continue
        found = {square} & cells
        for rr, rc in puzzle.piece.rays:
            for direction in ((rr, rc), (-rr, -rc)):
                for cell in topology.walk(square, direction):
                    if cell in puzzle.blockers:
                        break
                    if cell in cells:
                        found.add(cell)
        for lr, lc in puzzle.piece.leaps:
            found.update(cells.intersection(topology.step(square, (dr, dc)) for dr, dc in ((lr, lc), (-lr, -lc))))
        covers.append(tuple(sorted(found)))
    return tuple(covers)
