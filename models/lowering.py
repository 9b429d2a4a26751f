"""Lower a `Puzzle` (what the user asks) to a `ConstraintModel` (what backends read): the one lowering.

Each rule is one small function over the board's runs of cells:
- one piece per cell: at most one army per cell (exactly one under `partition`);
- `within`: a sliding piece makes one family of lines per ray direction (pawns cut lines into
  segments; holes and missing squares are left out of lines but do not cut them); a leaping
  piece makes a family of two-cell lines (the pairs one leap apart); on a twisted board a line
  turns at the twist, so an army's rays make one family;
- pigeonhole: when a family's lines can hold exactly as many pieces as there are (lines times
  the line cap), every line holds exactly its cap (this is how n-queens gets "one queen per row
  and per column" without anyone writing it, and 2n rooks "two per row and column"); under
  `partition`, a line whose armies' caps add up to its cells is filled to every army's cap;
- `between`: a piece of one army and of another on cells either attacks exclude each other
  (two-cell lines, grouped by line as bicliques);
- `blocking` (pieces block lines, as in chess): `within` and `between` become clauses: two pieces
  on one line see each other unless a piece stands between them;
- `per_line`, `regions`: lines with bounds over all armies' pieces (or one army's);
- `attack_bounds`: a count for each (army, cell): when a piece stands there, so many of the
  groups it attacks hold a piece (a group per cell it reaches; when pieces block, a group per
  half-line, as only the first piece along it is attacked);
- `invariant`: a clause per variable, "a piece here means a piece on the image" (the images
  run round a cycle back to the cell, so that is equality along every orbit);
- `cover`: one cover per square: the cells whose piece would occupy or attack it;
- `board_counts`: a tally each (`queens.models.board_counts`), bounded, or the objective;
- the armies' sizes: the model's size, a line over an army's cells, or the objective for a goal
  (the armies marked "maximise" hold equal numbers, or `total`: all pieces together).

The model's variables take one of two forms. When the puzzle is one army of one piece on a flat
or toroidal 2-D board with no rule beyond its lines (`Puzzle.plain`, every board that gets
large) a variable is the cell itself, and the fast path of the board's lines applies: each line
is a slice of the board's own cells with its stride and its key (10^6 cells at 1000 x 1000
without a new tuple), the families are named for the board's lines (rows, columns, ...), the
count is the model's size and a minimised count its `minimise`. Otherwise a variable is (army,
cell): army number `a` holds a piece on `cell`, and the families are named for their army.

`guarded` (for "why not?", `queens.solvers.proofs.why`): each stated rule (`queens.models.givens`:
an army's count, a per-line bound, a region, an attack bound) holds only under a literal of its
own, so any subset of them can be assumed on one solver. What pigeonhole derives from the count
(every row holds exactly one) is then two lines: at most one (the pieces do not attack), and at
least one under the count's literal: the same model when every literal is assumed.

>>> from queens.models.nqueens import NQueens
>>> [f.name for f in lower(NQueens(4)).families]
['rows', 'columns', 'diagonals', 'anti-diagonals']
>>> from queens.models.armies import Army
>>> model = lower(Puzzle(shape=(3, 3), armies=(Army("white", goal="maximise"), Army("black", goal="maximise")),
...                      within=False))
>>> len(model.cells), model.cells[0], model.objective.sense
(18, (0, (0, 0)), 'maximise')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import combinations, product

from queens.models.armies import Army
from queens.models.board_counts import lowered as board_tally
from queens.models.connected import connections
from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord, Topology
from queens.models.givens import Given, stated_rules
from queens.models.ir import Biclique, Clause, ConstraintModel, CountIf, Line, LinearKey, LineFamily, Objective, Var
from queens.models.pieces import Piece, Vector
from queens.models.private import private_clauses, private_counts, private_lines, too_large
from queens.models.puzzle import Puzzle
from queens.models.rules import SYMMETRIES
from queens.models.slopes import slope_families
from queens.models.symmetry import transform_named
from queens.models.tally import Tally

MAX_CELLS = 4_000_000
"""Boards beyond 2000 x 2000 are not lowered: n^2 cell variables would not fit a backend. At
that size sat and cpsat still find one n-queens solution within seconds and a few GB
(experiments/results/bench_backends.md, defaults.md); each backend says in `Backend.cell_limit`
how far it goes."""

MAX_PAIRS = 20_000_000
"""Most two-cell lines the lowering writes for rules between armies (and leaps): each is an
object of a few hundred bytes, so this is a few GB at most. Peaceable queens on 300 x 300 would
need 2 x 10^8, and ran out of memory before this check (experiments/results/design-choices.md)."""

PER_LINE_DIRECTIONS: dict[str, tuple[Vector, ...]] = {
    "rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1)),
}
"""The line families `per_line` may bound, by name (2-D boards)."""

_FAMILY_NAMES: dict[Vector, str] = {(0, 1): "rows", (1, 0): "columns", (1, 1): "diagonals", (1, -1): "anti-diagonals"}

Run = Sequence[Coord]
"""Open cells along one line of the board, in walking order."""


def lower(puzzle: Puzzle, guarded: bool = False, *, roomless: bool = False) -> ConstraintModel:
    """The constraint model of any puzzle (see the module docstring). The size is checked first,
    before any work; open copies must be fixed first (`Puzzle.with_copies`). `guarded`: each
    stated rule under its own literal. A puzzle with no room for its pieces (`no_room`) is
    refused, since counting answers it, unless `roomless`: a certificate proves that answer on
    the model too."""
    check_size(puzzle)
    if not guarded and not roomless and (reason := no_room(puzzle)):  # counting answers it: no backend writes it
        raise InvalidBoard(f"{reason}: no solution, by counting (the router answers it without a backend)")
    if puzzle.copies_open:
        raise InvalidBoard("the fewest copies is a search over models: fix their number first (Puzzle.with_copies)")
    board = _Board.of(puzzle)
    total = _total(puzzle, len(board.cells))
    count = Given("count") if guarded and total is not None and not puzzle.partition else None
    armies = range(len(puzzle.armies))
    families = [_one_per_cell(board)]
    clauses: list[Clause] = []
    if puzzle.within and puzzle.blocking:
        clauses += [c for a in armies for c in _sight(board, a, a)]
        families += [_leaps(board, a) for a in armies]
    elif puzzle.within:
        families += [family for a in armies for family in _within(board, a, total, count)]
    if puzzle.between:
        if puzzle.blocking:
            clauses += [c for a, b in combinations(armies, 2) for c in _sight(board, a, b)]
        families += [f for a, b in combinations(armies, 2) for f in _between(board, a, b)]
    families += [_per_line(board, guarded), _regions(board, guarded), _sizes(board, guarded, count, families)]
    if puzzle.slope_lines:  # the open cells' set only where a rule reads it (before-after-round.md)
        families += slope_families(puzzle, board.var, board.open_cells)
    families.append(private_lines(puzzle, board.var, board.cells))
    families = [f for f in families if f.lines]
    covers = _covers(board) if puzzle.cover else ()
    guards = tuple(stated_rules(puzzle)) if guarded else ()
    size = None if count else total  # a guarded count is a line under its literal (`_sizes`)
    if board.by_cell:
        return ConstraintModel(
            rows=puzzle.rows, cols=puzzle.cols, cells=board.cells, families=tuple(families), covers=covers,
            fixed=frozenset(board.var(0, c) for c in puzzle.armies[0].fixed), size=size,
            size_implied=any(f.exact is not None for f in families), minimise=puzzle.goal == "minimise",
            guards=guards, occupancy=_occupancy(board) if puzzle.goal == "minimise" else ())
    return ConstraintModel(
        rows=puzzle.shape[0], cols=len(puzzle.armies) * len(board.board) // puzzle.shape[0],
        cells=tuple(board.var(a, c) for a in armies for c in board.cells), families=tuple(families),
        covers=covers, fixed=frozenset(board.var(a, c) for a in armies for c in puzzle.armies[a].fixed),
        objective=_objective(board, families), size=size,
        size_implied=size is not None and any(f.exactly_one for f in families),
        clauses=(*clauses, *_invariant(board), *private_clauses(puzzle, board.var, board.cells)),
        counts=(*_attack_counts(board, guarded), *private_counts(puzzle, board.var, board.cells)),
        numbering=tuple(board.var(a, c) for a in armies for c in board.board), guards=guards,
        connections=connections(puzzle, board.var, board.cells) if puzzle.connected else (),
        tallies=tuple(t for t in _tallies(board) if t.binding))


def _tallies(board: _Board) -> Iterator[Tally]:
    """Each board-wide count as a tally over the (army, cell) variables."""
    for count in board.puzzle.board_counts:
        yield board_tally(board.puzzle, count, board.var, board.open_cells)


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
    if reason := too_large(puzzle):
        raise InvalidBoard(reason)
    pairs = _pairs_bound(puzzle)
    if pairs > MAX_PAIRS:
        raise InvalidBoard(f"{puzzle.name} on {puzzle.size_text} would need about {pairs:,} exclusion pairs between "
                           f"its armies (at most {MAX_PAIRS:,}): ask for a smaller board")


def _pairs_bound(puzzle: Puzzle) -> int:
    """An upper bound on the two-cell lines written between armies: for each pair of armies,
    every open cell times the cells its pieces reach (both ways); one army writes none."""
    armies = len(puzzle.armies)
    if armies == 1 or not puzzle.between:
        return 0
    cells = puzzle.variables // armies
    longest = max(puzzle.shape)
    reach = max(2 * longest * len(army.piece.rays) + 2 * len(army.piece.leaps) for army in puzzle.armies)
    return cells * reach * (armies * (armies - 1)) // 2


@dataclass(frozen=True)
class _Board:
    """What every rule reads: the puzzle, its topology, every cell in row-major order (the
    objects the lines are made of), the open cells (no hole, blocker or missing square), and
    the form of the variables: `by_cell`, a piece is named by its cell (`Puzzle.cells_are_variables`), else
    by (army, cell)."""

    puzzle: Puzzle
    topology: Topology
    board: tuple[Coord, ...]
    cells: tuple[Coord, ...]
    by_cell: bool

    @classmethod
    def of(cls, puzzle: Puzzle) -> _Board:
        board = tuple(itertools.product(*(range(side) for side in puzzle.shape)))
        closed = puzzle.holes | puzzle.blockers | puzzle.missing
        cells = tuple(cell for cell in board if cell not in closed) if closed else board
        return cls(puzzle, puzzle.topology, board, cells, puzzle.cells_are_variables)

    @cached_property
    def open_cells(self) -> frozenset[Coord]:
        """The open cells as a set, built once for every rule that asks."""
        return frozenset(self.cells)

    def var(self, army: int, cell: Coord) -> Var:
        """The variable of a piece of army number `army` on `cell`."""
        return cell if self.by_cell else (army, cell)

    def vars(self, army: int, run: Run) -> tuple[Var, ...]:
        """The variables of army `army`'s pieces on `run` (the run itself, uncopied, by cell)."""
        return tuple(run) if self.by_cell else tuple((army, cell) for cell in run)

    @property
    def strided(self) -> bool:
        """Whether lines keep their flat stride (`Line.flat`): cell variables on a board that does
        not wrap, every cell open."""
        puzzle = self.puzzle
        return self.by_cell and not (puzzle.blockers or puzzle.holes or any(puzzle.wrap))

    def key(self, direction: Vector) -> LinearKey | None:
        """The line key of a family of cell variables along `direction` on a board without
        pawns: what the row viewpoint reads (a*r + b*c, modulo the side on a torus)."""
        puzzle = self.puzzle
        if not self.by_cell or puzzle.blockers:
            return None
        return LinearKey(direction[1], -direction[0], puzzle.rows if puzzle.toroidal else None)


# -- the runs of the board ----------------------------------------------------------------


def _runs(board: _Board, direction: Vector) -> list[tuple[Run, bool]]:
    """Every maximal run of open cells along `direction` on a board without a twist, in the order
    of its least cell, each with whether it is closed (a line round a wrapped axis with no
    blocker on it: its last cell and its first are neighbours). Blockers cut lines; holes and
    missing squares are left out without cutting them, so a segment of holes is an empty run (a
    line that holds no piece, which a bound on lines reads). On a board with nothing closed, a
    line is a slice of the board's own cells (`Topology.lines`)."""
    puzzle, topology = board.puzzle, board.topology
    lines = topology.lines(direction, board.board)
    if any(puzzle.wrap) and not all(puzzle.wrap) or puzzle.dimensions != 2:
        lines = sorted(lines, key=min)  # laid out by their starts: put in the order of their least cells
    passed, wraps = puzzle.holes | puzzle.missing, any(puzzle.wrap)
    if not (passed or wraps or puzzle.blockers):  # the fast path: every line whole and open
        return [(line, False) for line in lines]
    runs: list[tuple[Run, bool]] = []
    for line in lines:
        closed = wraps and len(line) > 1 and topology.step(line[-1], direction) == line[0]
        pawned = bool(puzzle.blockers) and not puzzle.blockers.isdisjoint(line)
        cut = _cut_at_pawns(list(line), puzzle.blockers, cyclic=closed) if pawned else [line]
        closed = closed and not pawned
        runs += [([cell for cell in run if cell not in passed] if passed else run, closed) for run in cut]
    return runs


def _cut_at_pawns(line: list[Coord], pawns: frozenset[Coord], *, cyclic: bool) -> list[list[Coord]]:
    """The segments of `line` between pawns (a closed line starts right after its first pawn,
    so that the run round the seam stays whole)."""
    cuts = [i for i, cell in enumerate(line) if cell in pawns]
    if not cuts:
        return [line]
    if cyclic:
        line = line[cuts[0] + 1:] + line[:cuts[0] + 1]
    runs: list[list[Coord]] = []
    run: list[Coord] = []
    for cell in line:
        if cell in pawns:
            runs.append(run)
            run = []
        else:
            run.append(cell)
    runs.append(run)
    return [run for run in runs if run]


def _lines_along(board: _Board, rays: Sequence[Vector]) -> list[Run]:
    """Every run of open cells along any of `rays`, each once. On a twisted board a line turns as
    it crosses the twist, so the lines of several rays overlap: there they are the topology's
    `ray_lines`, each set of cells once (no blockers there: the puzzle refuses them). A line of
    holes is an empty run, as in `_runs`."""
    puzzle = board.puzzle
    if any(puzzle.twist):
        passed = puzzle.holes | puzzle.missing
        return [[cell for cell in line if cell not in passed] for line in board.topology.ray_lines(rays)]
    return [run for ray in rays for run, _ in _runs(board, ray)]


# -- each army's own lines ----------------------------------------------------------------


def _within(board: _Board, a: int, size: int | None, count: Given | None) -> list[LineFamily]:
    """One army's own lines, pigeonhole included: when the army is all the pieces and a
    direction cuts the board into exactly that many runs (times the cap), each holds exactly
    its cap (its lower bound a family of its own under `count`'s literal, when the count is
    guarded). Under `partition`, a run that every army's line caps together fill exactly is
    saturated: each army holds its cap there (n colours of the n x n queen graph: every colour
    is one queen per row and per column, which turns "is queen9_9 9-colourable?" from out of
    reach into a quick answer for CP-SAT; experiments/results/design-choices.md)."""
    puzzle = board.puzzle
    army = puzzle.armies[a]
    cap = army.line_cap
    disjoint = not any(puzzle.twist)  # a twisted board's lines overlap: one family, no pigeonhole
    families = []
    for rays in [(ray,) for ray in army.piece.rays] if disjoint else [army.piece.rays]:
        runs = [run for run in _lines_along(board, rays) if run]
        every = disjoint and len(puzzle.armies) == 1 and size is not None and len(runs) * cap == size
        implied = every and count is not None
        saturates = disjoint and puzzle.partition
        exact = [not implied and (every or (saturates and _saturated(puzzle, rays[0], len(run)))) for run in runs]
        cols = puzzle.cols if board.strided else None
        lines = tuple(Line(board.vars(a, run), cap, cap if full else 0, _stride(run, cols))
                      for run, full in zip(runs, exact, strict=True) if full or len(run) > cap)
        name = _family_name(board, army, rays if disjoint else None)
        families.append(LineFamily(name, lines, board.key(rays[0]) if disjoint else None))
        if implied:
            families.append(LineFamily(f"{name}, by the count", tuple(
                Line(board.vars(a, run), len(run), cap, guard=count) for run in runs)))
    return [*families, _leaps(board, a)]


def _family_name(board: _Board, army: Army, rays: tuple[Vector, ...] | None) -> str:
    """A family of cell variables is named for the board's lines ("rows"), an army's for the army."""
    if board.by_cell and rays is not None:
        return _FAMILY_NAMES.get(rays[0], f"lines {rays[0]}")
    return f"{army.name} lines {rays[0] if rays is not None else 'along its rays'}"


def _saturated(puzzle: Puzzle, ray: Vector, cells: int) -> bool:
    """Whether a run of `cells` open cells along `ray` must hold exactly every army's cap: every
    cell holds a piece (`partition`), every army's pieces move along `ray`, and their caps on
    the run add up to its cells, so none can hold fewer."""
    return (puzzle.partition and all(ray in army.piece.rays for army in puzzle.armies)
            and sum(army.line_cap for army in puzzle.armies) == cells)


def _stride(run: Run, cols: int | None) -> range | None:
    """The flat indices r * cols + c of a straight run of cells on a board without wrapping
    (None: `cols` None, the lines keep no stride)."""
    if cols is None:
        return None
    first = run[0][0] * cols + run[0][1]
    if len(run) == 1:
        return range(first, first + 1)
    step = run[1][0] * cols + run[1][1] - first
    return range(first, first + len(run) * step, step)


def _leaps(board: _Board, a: int) -> LineFamily:
    """One army's leaps: two-cell lines (a leap jumps, so pieces that block do not stop it)."""
    army = board.puzzle.armies[a]
    pairs = _leap_pairs(board, army.piece, skip_steps=army.line_cap == 1)
    name = f"{army.piece.name} leaps" if board.by_cell else f"{army.name} leaps"
    return LineFamily(name, tuple(Line((board.var(a, x), board.var(a, y))) for x, y in sorted(pairs)))


def _leap_pairs(board: _Board, piece: Piece, skip_steps: bool = False) -> set[tuple[Coord, Coord]]:
    """The pairs of open cells one leap apart (either way: across a twist the way back is the
    mirrored leap, not the opposite one). `skip_steps`: leave out a one-step leap along one of
    the piece's rays (a king's step of a piece that slides that way): the ray's lines hold it."""
    pairs: set[tuple[Coord, Coord]] = set()
    leaps = [leap for leap in piece.leaps if not (skip_steps and _step_along_ray(piece, leap))]
    if not leaps:
        return pairs
    topology, cells = board.topology, board.open_cells
    for x in board.cells:
        for leap in leaps:
            for sign in (1, -1):
                y = topology.step(x, tuple(sign * d for d in leap))
                if y is not None and y != x and y in cells:
                    pairs.add((min(x, y), max(x, y)))
    return pairs


def _step_along_ray(piece: Piece, leap: Vector) -> bool:
    """Whether `leap` is one step along one of the piece's rays (either way)."""
    return max(map(abs, leap)) == 1 and any(leap in (ray, tuple(-d for d in ray)) for ray in piece.rays)


def _sight(board: _Board, a: int, b: int) -> list[Clause]:
    """When pieces block: a piece of army `a` and one of `b` on one line of either's rays see
    each other unless a piece stands between them (either way round a closed line), so for
    each pair of cells on a run, "not both, or a piece between"."""
    puzzle = board.puzzle
    rays = sorted(set(puzzle.armies[a].piece.rays) | set(puzzle.armies[b].piece.rays))
    armies = range(len(puzzle.armies))
    clauses: list[Clause] = []
    for ray in rays:
        for run, closed in _runs(board, ray):
            for i, j in combinations(range(len(run)), 2):
                arcs = [run[i + 1:j], *([[*run[j + 1:], *run[:i]]] if closed else [])]
                ends = {(board.var(a, run[i]), board.var(b, run[j])), (board.var(b, run[i]), board.var(a, run[j]))}
                for arc in arcs:
                    between = tuple(board.var(c, cell) for cell in arc for c in armies)
                    clauses += [Clause(between, pair) for pair in sorted(ends)]
    return clauses


# -- rules between armies and bounds ------------------------------------------------------


def _one_per_cell(board: _Board) -> LineFamily:
    """At most one army on each cell (exactly one under `partition`); nothing for one army."""
    puzzle = board.puzzle
    armies = range(len(puzzle.armies))
    if len(puzzle.armies) == 1 and not puzzle.partition:
        return LineFamily("one piece per cell", ())
    least = 1 if puzzle.partition else 0
    return LineFamily("one piece per cell",
                      tuple(Line(tuple(board.var(a, c) for a in armies), 1, least) for c in board.cells))


def _between(board: _Board, a: int, b: int) -> list[LineFamily]:
    """Pieces of two armies that attack each other either way exclude each other (two-cell
    lines): along their lines, one family that also carries each line as a `Biclique` (the
    pieces of `a` on it against those of `b`), and by their leaps, another; when pieces block,
    only the leaps here (`_sight` writes the lines)."""
    puzzle = board.puzzle
    first, second = puzzle.armies[a], puzzle.armies[b]
    names = f"{first.name} and {second.name}"
    pieces = () if puzzle.blocking else (first.piece, second.piece)
    runs = list(dict.fromkeys(tuple(run) for piece in pieces for run in _lines_along(board, piece.rays)
                              if len(run) > 1))  # direction by direction: the order lex chains read sides in
    along = {(min(x, y), max(x, y)) for run in runs for x, y in combinations(run, 2)}
    leaps = (_leap_pairs(board, first.piece) | _leap_pairs(board, second.piece)) - along

    def lines(pairs: set[tuple[Coord, Coord]]) -> tuple[Line, ...]:
        return tuple(Line((board.var(a, x), board.var(b, y))) for p in sorted(pairs) for x, y in (p, p[::-1]))

    bicliques = tuple(Biclique(board.vars(a, run), board.vars(b, run)) for run in runs)
    return [LineFamily(f"{names} along lines", lines(along), bicliques=bicliques),
            LineFamily(f"{names} by leaps", lines(leaps))]


def _per_line(board: _Board, guarded: bool) -> LineFamily:
    """Per-line bounds; a bound that does not fit a line is an error, or, guarded (a given the
    search may leave out), a line that cannot hold under its literal."""
    puzzle = board.puzzle
    armies = range(len(puzzle.armies))
    lines = []
    for i, (family, least, most) in enumerate(puzzle.per_line):
        guard = Given("per line", index=i) if guarded else None
        for run in _lines_along(board, PER_LINE_DIRECTIONS[family]):
            if least > len(run) * len(puzzle.armies) and not guarded:
                raise InvalidBoard(f"{least} pieces do not fit on a line of {family} with {len(run)} cells")
            if run and (least > 0 or most < len(run) * len(puzzle.armies)):
                lines.append(Line(tuple(board.var(a, c) for c in run for a in armies), most, least, guard=guard))
    return LineFamily("per-line bounds", tuple(lines))


def _regions(board: _Board, guarded: bool) -> LineFamily:
    """A line with the region's bounds over its open cells, of its army or of every army (under
    the region's literal when `guarded`; then a region without room is a line that cannot hold)."""
    puzzle = board.puzzle
    lines = []
    for i, region in enumerate(puzzle.regions):
        armies = range(len(puzzle.armies)) if region.army is None else (region.army,)
        members = tuple(board.var(a, c) for c in sorted(region.cells & board.open_cells) for a in armies)
        most = len(members) if region.most is None else min(region.most, len(members))
        if region.least > most and not guarded:
            raise InvalidBoard(f"region {region.name or sorted(region.cells)[:3]} has room for {most} pieces, "
                               f"{region.least} asked")
        if region.least > 0 or most < len(members):
            lines.append(Line(members, most, region.least, guard=Given("region", index=i) if guarded else None))
    return LineFamily("regions", tuple(lines))


def _attack_counts(board: _Board, guarded: bool) -> Iterator[CountIf]:
    """For each bound and each (army, cell) it reads: when a piece stands there, how many of
    the groups it attacks hold a piece. A group is a cell it reaches (the pieces of the
    targeted armies there), or, when pieces block, a whole half-line: only the first piece
    along it is attacked, so the half-line counts once however many pieces stand on it."""
    puzzle = board.puzzle
    armies = range(len(puzzle.armies))
    for i, bound in enumerate(puzzle.attack_bounds):
        guard = Given("attacks", index=i) if guarded else None
        for a in armies if bound.army is None else (bound.army,):
            targets = [b for b in armies if bound.of == "any" or (b == a) == (bound.of == "own")]
            piece = puzzle.armies[a].piece
            for cell in sorted(board.cells):
                groups = _attacked_groups(board, piece, cell, targets)
                most = len(groups) if bound.most is None else min(bound.most, len(groups))
                if bound.least > 0 or most < len(groups):
                    yield CountIf(board.var(a, cell), groups, bound.least, most, guard)


def _attacked_groups(board: _Board, piece: Piece, cell: Coord, targets: list[int]) -> tuple[tuple[Var, ...], ...]:
    puzzle, topology, cells = board.puzzle, board.topology, board.open_cells
    reached: list[list[Coord]] = []
    for ray in piece.rays:
        for sign in (1, -1):
            half: list[Coord] = []
            for other in topology.walk(cell, tuple(sign * d for d in ray)):
                if other in puzzle.blockers:
                    break
                if other in cells and other != cell:  # a twisted line may cross the piece's own square
                    half.append(other)
            reached += [half] if puzzle.blocking else [[other] for other in half]
    for leap in piece.leaps:
        for sign in (1, -1):
            landed = topology.step(cell, tuple(sign * d for d in leap))
            if landed is not None and landed != cell and landed in cells:
                reached.append([landed])
    groups: dict[frozenset[Var], tuple[Var, ...]] = {}
    for found in reached:
        group = tuple(board.var(b, c) for c in found for b in targets)
        if group:
            groups.setdefault(frozenset(group), group)  # a cell reached two ways is attacked once
    return tuple(groups.values())


def _invariant(board: _Board) -> Iterator[Clause]:
    """A piece on a cell means the same army's piece on its image: round each orbit that is
    equality. A cell whose image holds no piece (a hole) holds none either."""
    puzzle = board.puzzle
    cells = board.open_cells
    for name in puzzle.invariant:
        transform = transform_named(SYMMETRIES[name])
        for a, cell in product(range(len(puzzle.armies)), sorted(cells)):
            image = transform((cell[0], cell[1]), puzzle.rows, puzzle.cols)
            if image != cell:
                yield Clause((board.var(a, image),) if image in cells else (), (board.var(a, cell),))


# -- covers --------------------------------------------------------------------------------


def _covers(board: _Board) -> tuple[tuple[Var, ...], ...]:
    """For each square without a blocker, not missing: the pieces that would occupy or attack it
    (only attack it, under a total cover; only the covering army's, if one is named). A square
    is attacked from every open cell of a line through it (holes too must be covered, so the
    lines are read with the holes on them) and from a leap away."""
    puzzle = board.puzzle
    cells = board.open_cells
    closed = puzzle.blockers | puzzle.missing
    reach: dict[Coord, set[Var]] = {square: set() for square in board.board if square not in closed}
    seen = _Board.of(replace(puzzle, holes=frozenset())) if puzzle.holes else board
    for a, army in enumerate(puzzle.armies):
        if puzzle.cover_by is not None and a != puzzle.cover_by:
            continue
        for run in _lines_along(seen, army.piece.rays):
            pieces = [board.var(a, cell) for cell in run if cell in cells]
            for square in run:
                reach[square].update(pieces)  # the square's own piece too: it occupies, it does not attack
        for x, y in _leap_pairs(seen, army.piece):
            for piece, square in ((x, y), (y, x)):
                if piece in cells:
                    reach[square].add(board.var(a, piece))
        occupies = puzzle.cover_kind == "occupied or attacked"
        for cell in cells:
            (reach[cell].add if occupies else reach[cell].discard)(board.var(a, cell))
    return tuple(tuple(sorted(found)) for _, found in sorted(reach.items()))


def _occupancy(board: _Board) -> tuple[tuple[tuple[Var, ...], ...], ...]:
    """The runs along each of the piece's directions, of two cells or more (a lone cell's group
    counts as it holds), for a model of cell variables that minimises its pieces
    (`ConstraintModel.occupancy`)."""
    families = ([tuple(run) for run, _ in _runs(board, direction) if len(run) > 1]
                for direction in board.puzzle.piece.rays)
    return tuple(tuple(runs) for runs in families if runs)


# -- the armies' sizes and goals ----------------------------------------------------------


def _total(puzzle: Puzzle, cells: int) -> int | None:
    """The number of pieces in all, when the rules fix it: one army of a fixed size, or a
    partition (every open cell holds a piece)."""
    if puzzle.partition:
        return cells
    army = puzzle.armies[0]
    one = len(puzzle.armies) == 1 and army.goal is None and army.least == army.most
    return army.least if one else None


def _sizes(board: _Board, guarded: bool, count: Given | None, families: list[LineFamily]) -> LineFamily:
    """Each army's count as a line over its cells, unless the model's size says it (a lone army's
    exact count, unless `guarded`: then every count is a line under its literal). Of cell
    variables, the one count is the model's size, or guarded a line under its literal when no
    family "by the count" says it already."""
    puzzle = board.puzzle
    if board.by_cell:
        size = puzzle.pieces
        said = any(line.guard is not None for family in families for line in family.lines)
        if count is None or size is None or said:
            return LineFamily("count", ())
        return LineFamily("count", (Line(board.cells, size, size, guard=count),))
    cells = board.cells
    lines = []
    for a, army in enumerate(puzzle.armies):
        if army.least > len(cells) and not guarded:
            raise InvalidBoard(f"{army.least} pieces of {army.name} do not fit on {len(cells)} open cells")
        most = len(cells) if army.most is None else army.most
        is_size = len(puzzle.armies) == 1 and army.least == most == _total(puzzle, len(cells)) and not guarded
        if army.goal is None and (army.least > 0 or most < len(cells)) and not is_size:
            guard = Given("count", army=a, index=a) if guarded else None
            lines.append(Line(board.vars(a, cells), most, army.least, guard=guard))
    return LineFamily("army sizes", tuple(lines))


def _objective(board: _Board, families: list[LineFamily]) -> Objective | None:
    puzzle = board.puzzle
    armies = range(len(puzzle.armies))
    if (goal := puzzle.board_goal) is not None:
        tally = board_tally(puzzle, replace(goal, least=0, most=None), board.var, board.open_cells)
        return Objective(goal.goal or "maximise", (), least=0, most=tally.top, tally=tally)
    if puzzle.total is not None:
        every = tuple(board.var(a, c) for a in armies for c in board.cells)
        return Objective(puzzle.total, (every,), least=sum(len(army.fixed) for army in puzzle.armies))
    goals: list[tuple[int, Army]] = [(a, army) for a, army in enumerate(puzzle.armies) if army.goal]
    if not goals:
        return None
    sense = goals[0][1].goal
    assert sense is not None
    tops = [army.most for _, army in goals if army.most is not None]
    tops += [capacity(family, board.vars(a, board.cells)) for a, _ in goals for family in families]
    return Objective(sense, tuple(board.vars(a, board.cells) for a, _ in goals),
                     least=max(max(len(army.fixed), army.least) for _, army in goals),
                     most=min(tops) if tops else None)


def capacity(family: LineFamily, group: tuple[Var, ...]) -> int:
    """The most pieces `group` can hold by pigeonhole when the family's lines are disjoint and
    inside the group (one army's rows): the lines' upper bounds plus one per cell on no line.
    Otherwise the group's size (no bound). A maximiser that reaches it has its proof.

    >>> rows = LineFamily("rows", (Line(((0, 0), (0, 1))), Line(((1, 0), (1, 1)))))
    >>> capacity(rows, ((0, 0), (0, 1), (1, 0), (1, 1)))
    2
    """
    members = set(group)
    on_lines = [cell for line in family.lines for cell in line.cells]
    if not family.lines or len(on_lines) != len(set(on_lines)) or not members.issuperset(on_lines):
        return len(group)
    return sum(line.at_most for line in family.lines) + len(members - set(on_lines))
