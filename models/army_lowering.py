"""Lower a puzzle with armies (several, or one on a cube or cylinder, with a goal or bounds) to the
`ConstraintModel` every backend reads; `queens.models.lowering.lower` sends every puzzle that is
not one plain army here.

A variable is (army, cell): army number `a` holds a piece on `cell`. The rules become:
- one piece per cell: at most one army per cell (exactly one under `partition`);
- `within`: for each army, its piece's lines (cut at blockers) hold at most one of its pieces,
  and its leaps are two-cell lines, as in `queens.models.lowering`;
- `between`: for two armies, a piece of one on x and of the other on y exclude each other when
  either piece attacks the other's cell (two-cell lines);
- `per_line`: a line with bounds (least, most) over all armies' pieces on each line of the family;
- `cover`: each square without a blocker (nor missing) is occupied or attacked by some army (by
  one army under `cover_by`; attacked only, occupied or not, under `cover_kind = "attacked"`);
- `blocking` (pieces block lines, as in chess): `within` and `between` become clauses: two
  pieces on one line see each other unless a piece stands between them;
- `regions`: a line with bounds over the region's cells (one army's, or all armies');
- `attack_bounds`: a count for each (army, cell): when a piece stands there, so many of the
  groups it attacks hold a piece (a group per cell it reaches; when pieces block, a group per
  half-line, as only the first piece along it is attacked);
- `invariant`: a clause per variable, "a piece here means a piece on the image" (the images
  run round a cycle back to the cell, so that is equality along every orbit);
- the armies' sizes: a line with bounds over the army's cells, or the objective for a goal
  (the armies marked "maximise" hold equal numbers, or `total`: all pieces together).

`guarded` as in `queens.models.lowering`: the counts, per-line bounds, regions and attack bounds
each under the literal of its given (`queens.models.givens`), and what pigeonhole derives from
the count (every line holds exactly one) split into the lines' own at most one and the count's
at least one, under its literal.

>>> from queens.models.armies import Army
>>> from queens.models.puzzle import Puzzle
>>> model = lower_armies(Puzzle(shape=(3, 3), armies=(Army("white", goal="maximise"), Army("black", goal="maximise")),
...                             within=False))
>>> len(model.cells), model.objective.sense
(18, 'maximise')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations, product

from queens.models.armies import Army
from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord, Topology
from queens.models.givens import Given, stated_rules
from queens.models.ir import Biclique, Clause, ConstraintModel, CountIf, Line, LineFamily, Objective, Var
from queens.models.pieces import Piece, Vector
from queens.models.puzzle import Puzzle
from queens.models.rules import SYMMETRIES
from queens.models.symmetry import transform_named

PER_LINE_DIRECTIONS: dict[str, tuple[Vector, ...]] = {
    "rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1)),
}
"""The line families `per_line` may bound, by name (2-D boards)."""


def lower_armies(puzzle: Puzzle, guarded: bool = False) -> ConstraintModel:
    """The constraint model of `puzzle` (its open copies, if any, must be fixed first), each
    stated rule under its own literal when `guarded`."""
    if puzzle.copies_open:
        raise ValueError("fix the number of copies first: Puzzle.with_copies")
    board = puzzle.topology
    open_cells = [c for c in puzzle.board_cells if c not in puzzle.holes | puzzle.blockers | puzzle.missing]
    armies = range(len(puzzle.armies))
    variables = tuple((a, c) for a in armies for c in open_cells)
    families = [_cells_family(puzzle, open_cells)]
    total = _total(puzzle, len(open_cells))
    count = Given("count") if guarded and total is not None and not puzzle.partition else None
    size = None if count else total  # a guarded count is a line under its literal (`_sizes`)
    clauses: list[Clause] = []
    if puzzle.within:
        if puzzle.blocking:
            clauses += [c for a in armies for c in _sight(puzzle, board, a, a)]
            families += [_leaps(puzzle, board, a) for a in armies]
        else:
            families += [family for a in armies for family in _within(puzzle, board, a, total, count)]
    if puzzle.between:
        if puzzle.blocking:
            clauses += [c for a, b in combinations(armies, 2) for c in _sight(puzzle, board, a, b)]
        families += [f for a, b in combinations(armies, 2) for f in _between(puzzle, board, a, b)]
    open_set = set(open_cells)
    families += [_per_line(puzzle, board, guarded), _regions(puzzle, open_set, guarded),
                 _sizes(puzzle, open_cells, guarded)]
    families = [f for f in families if f.lines]
    fixed = frozenset((a, c) for a in armies for c in puzzle.armies[a].fixed)
    return ConstraintModel(
        rows=puzzle.shape[0], cols=len(puzzle.armies) * len(puzzle.board_cells) // puzzle.shape[0],
        cells=variables, families=tuple(families),
        covers=_covers(puzzle, board, open_set) if puzzle.cover else (),
        fixed=fixed, objective=_objective(puzzle, open_cells, families),
        size=size, size_implied=size is not None and any(f.exactly_one for f in families),
        clauses=(*clauses, *_invariant(puzzle, open_set)),
        counts=tuple(_attack_counts(puzzle, board, open_set, guarded)),
        numbering=tuple((a, c) for a in armies for c in puzzle.board_cells),
        guards=tuple(stated_rules(puzzle)) if guarded else (),
    )


def _cells_family(puzzle: Puzzle, cells: list[Coord]) -> LineFamily:
    least = 1 if puzzle.partition else 0
    armies = range(len(puzzle.armies))
    if len(puzzle.armies) == 1 and not puzzle.partition:
        return LineFamily("one piece per cell", ())
    return LineFamily("one piece per cell", tuple(Line(tuple((a, c) for a in armies), 1, least) for c in cells))


def _lines_along(puzzle: Puzzle, board: Topology, rays: tuple[Vector, ...]) -> list[list[Coord]]:
    """Every maximal run of open cells along any of `rays`, each once: cut at blockers, holes
    and missing squares left out. On a twisted board a line turns as it crosses the twist, so
    the lines of several rays overlap: there they are the topology's `ray_lines`, each set of
    cells once (no blockers there: the puzzle refuses them)."""
    if any(puzzle.twist):
        passed = puzzle.holes | puzzle.missing
        return [[cell for cell in line if cell not in passed] for line in board.ray_lines(rays)]
    return [run for ray in rays for run, _ in _runs(puzzle, board, ray)]


def _runs(puzzle: Puzzle, board: Topology, direction: Vector) -> Iterator[tuple[list[Coord], bool]]:
    """Every maximal run of open cells along `direction` on a board without a twist (cut at
    blockers, holes and missing squares left out), with whether it is closed (a line round a
    wrapped axis with no blocker on it: its last cell and its first are neighbours)."""
    passed = puzzle.holes | puzzle.missing
    seen: set[Coord] = set()
    for start in puzzle.board_cells:
        if start in seen:
            continue
        line = board.line(start, direction)
        seen.update(line)
        closed = board.step(line[-1], direction) == line[0] and len(line) > 1
        cuts = [i for i, cell in enumerate(line) if cell in puzzle.blockers]
        if cuts and closed:  # a closed line: start after a blocker
            line = line[cuts[0] + 1:] + line[:cuts[0] + 1]
        run: list[Coord] = []
        spans = False  # the segment has cells (holes count: a line of holes is a line that holds none)
        for cell in line:
            if cell in puzzle.blockers:
                if spans:
                    yield run, False
                run, spans = [], False
            else:
                spans = True
                if cell not in passed:
                    run.append(cell)
        if spans:
            yield run, closed and not cuts


def _total(puzzle: Puzzle, cells: int) -> int | None:
    """The number of pieces in all, when the rules fix it: one army of a fixed size, or a
    partition (every open cell holds a piece)."""
    if puzzle.partition:
        return cells
    army = puzzle.armies[0]
    one = len(puzzle.armies) == 1 and army.goal is None and army.least == army.most
    return army.least if one else None


def _within(puzzle: Puzzle, board: Topology, a: int, size: int | None, count: Given | None) -> list[LineFamily]:
    """One army's own lines; pigeonhole as in `queens.models.lowering`: when the army is all the
    pieces and a direction cuts the board into exactly that many runs, each holds exactly one
    (its lower bound a family of its own under `count`'s literal, when the count is guarded).
    Under `partition`, a run that every army's line caps together fill exactly is saturated:
    each army holds its cap there (n colours of the n x n queen graph: every colour is one
    queen per row and per column, which turns "is queen9_9 9-colourable?" from out of reach in
    60 s into 0.2 s for CP-SAT)."""
    army, cap = puzzle.armies[a], puzzle.armies[a].line_cap
    disjoint = not any(puzzle.twist)  # a twisted board's lines overlap: one family, no pigeonhole
    families = []
    for rays in [(ray,) for ray in army.piece.rays] if disjoint else [army.piece.rays]:
        runs = [run for run in _lines_along(puzzle, board, rays) if run]
        every = disjoint and len(puzzle.armies) == 1 and size is not None and len(runs) * cap == size
        implied = every and count is not None
        exact = [not implied and (every or (disjoint and _saturated(puzzle, rays[0], len(run)))) for run in runs]
        lines = tuple(Line(tuple((a, c) for c in run), cap, cap if full else 0)
                      for run, full in zip(runs, exact, strict=True) if full or len(run) > cap)
        name = f"{army.name} lines {rays[0] if disjoint else 'along its rays'}"
        families.append(LineFamily(name, lines))
        if implied:
            families.append(LineFamily(f"{name}, by the count", tuple(
                Line(tuple((a, c) for c in run), len(run), cap, guard=count) for run in runs)))
    return [*families, _leaps(puzzle, board, a)]


def _saturated(puzzle: Puzzle, ray: Vector, cells: int) -> bool:
    """Whether a run of `cells` open cells along `ray` must hold exactly every army's cap: every
    cell holds a piece (`partition`), every army's pieces move along `ray`, and their caps on
    the run add up to its cells, so none can hold fewer."""
    return (puzzle.partition and all(ray in army.piece.rays for army in puzzle.armies)
            and sum(army.line_cap for army in puzzle.armies) == cells)


def _leaps(puzzle: Puzzle, board: Topology, a: int) -> LineFamily:
    """One army's leaps: two-cell lines (a leap jumps, so pieces that block do not stop it)."""
    army = puzzle.armies[a]
    leaps = tuple(Line(((a, x), (a, y))) for x, y in sorted(_leap_pairs(puzzle, board, army.piece)))
    return LineFamily(f"{army.name} leaps", leaps)


def _sight(puzzle: Puzzle, board: Topology, a: int, b: int) -> list[Clause]:
    """When pieces block: a piece of army `a` and one of `b` on one line of either's rays see
    each other unless a piece stands between them (either way round a closed line), so for
    each pair of cells on a run, "not both, or a piece between"."""
    rays = sorted(set(puzzle.armies[a].piece.rays) | set(puzzle.armies[b].piece.rays))
    armies = range(len(puzzle.armies))
    clauses: list[Clause] = []
    for ray in rays:
        for run, closed in _runs(puzzle, board, ray):
            for i, j in combinations(range(len(run)), 2):
                arcs = [run[i + 1:j], *([run[j + 1:] + run[:i]] if closed else [])]
                ends = {((a, run[i]), (b, run[j])), ((b, run[i]), (a, run[j]))}
                for arc in arcs:
                    between = tuple((c, cell) for cell in arc for c in armies)
                    clauses += [Clause(between, pair) for pair in sorted(ends)]
    return clauses


def _leap_pairs(puzzle: Puzzle, board: Topology, moves: Piece) -> set[tuple[Coord, Coord]]:
    pairs: set[tuple[Coord, Coord]] = set()
    blocked = puzzle.holes | puzzle.blockers | puzzle.missing
    for x in puzzle.board_cells:
        for leap in moves.leaps:
            for sign in (1, -1):  # across a twist the way back is the mirrored leap, not the opposite one
                y = board.step(x, tuple(sign * d for d in leap))
                if y is not None and y != x and x not in blocked and y not in blocked:
                    pairs.add((min(x, y), max(x, y)))
    return pairs


def _attacked_pairs(puzzle: Puzzle, board: Topology, moves: Piece) -> set[tuple[Coord, Coord]]:
    """Unordered pairs of distinct open cells a piece with `moves` on one attacks the other."""
    pairs = _leap_pairs(puzzle, board, moves)
    for run in _lines_along(puzzle, board, moves.rays):
        pairs.update((min(x, y), max(x, y)) for x, y in combinations(run, 2))
    return pairs


def _between(puzzle: Puzzle, board: Topology, a: int, b: int) -> list[LineFamily]:
    """Pieces of two armies that attack each other either way exclude each other (two-cell
    lines): along their lines, one family that also carries each line as a `Biclique` (the
    pieces of `a` on it against those of `b`), and by their leaps, another; when pieces block,
    only the leaps here (`_sight` writes the lines)."""
    first, second = puzzle.armies[a], puzzle.armies[b]
    names = f"{first.name} and {second.name}"
    pieces = () if puzzle.blocking else (first.piece, second.piece)
    runs = list(dict.fromkeys(tuple(run) for piece in pieces for run in _lines_along(puzzle, board, piece.rays)
                              if len(run) > 1))  # direction by direction: the order lex chains read sides in
    along = {(min(x, y), max(x, y)) for run in runs for x, y in combinations(run, 2)}
    leaps = (_leap_pairs(puzzle, board, first.piece) | _leap_pairs(puzzle, board, second.piece)) - along

    def lines(pairs: set[tuple[Coord, Coord]]) -> tuple[Line, ...]:
        return tuple(Line(((a, x), (b, y))) for p in sorted(pairs) for x, y in (p, p[::-1]))

    bicliques = tuple(Biclique(tuple((a, c) for c in run), tuple((b, c) for c in run)) for run in runs)
    return [LineFamily(f"{names} along lines", lines(along), bicliques=bicliques),
            LineFamily(f"{names} by leaps", lines(leaps))]


def _per_line(puzzle: Puzzle, board: Topology, guarded: bool) -> LineFamily:
    """Per-line bounds; a bound that does not fit a line is an error, or, guarded (a given the
    search may leave out), a line that cannot hold under its literal."""
    armies = range(len(puzzle.armies))
    lines = []
    for i, (family, least, most) in enumerate(puzzle.per_line):
        guard = Given("per line", index=i) if guarded else None
        for run in _lines_along(puzzle, board, PER_LINE_DIRECTIONS[family]):
            if least > len(run) * len(puzzle.armies) and not guarded:
                raise InvalidBoard(f"{least} pieces do not fit on a line of {family} with {len(run)} cells")
            if run and (least > 0 or most < len(run) * len(puzzle.armies)):
                lines.append(Line(tuple((a, c) for c in run for a in armies), most, least, guard=guard))
    return LineFamily("per-line bounds", tuple(lines))


def _regions(puzzle: Puzzle, cells: set[Coord], guarded: bool) -> LineFamily:
    """A line with the region's bounds over its open cells, of its army or of every army (under
    the region's literal when `guarded`; then a region without room is a line that cannot hold)."""
    lines = []
    for i, region in enumerate(puzzle.regions):
        armies = range(len(puzzle.armies)) if region.army is None else (region.army,)
        members = tuple((a, c) for c in sorted(region.cells & cells) for a in armies)
        most = len(members) if region.most is None else min(region.most, len(members))
        if region.least > most and not guarded:
            raise InvalidBoard(f"region {region.name or sorted(region.cells)[:3]} has room for {most} pieces, "
                               f"{region.least} asked")
        if region.least > 0 or most < len(members):
            lines.append(Line(members, most, region.least, guard=Given("region", index=i) if guarded else None))
    return LineFamily("regions", tuple(lines))


def _attack_counts(puzzle: Puzzle, board: Topology, cells: set[Coord], guarded: bool) -> Iterator[CountIf]:
    """For each bound and each (army, cell) it reads: when a piece stands there, how many of
    the groups it attacks hold a piece. A group is a cell it reaches (the pieces of the
    targeted armies there), or, when pieces block, a whole half-line: only the first piece
    along it is attacked, so the half-line counts once however many pieces stand on it."""
    armies = range(len(puzzle.armies))
    for i, bound in enumerate(puzzle.attack_bounds):
        guard = Given("attacks", index=i) if guarded else None
        for a in armies if bound.army is None else (bound.army,):
            targets = [b for b in armies if bound.of == "any" or (b == a) == (bound.of == "own")]
            moves = puzzle.armies[a].piece
            for cell in sorted(cells):
                groups = _attacked_groups(puzzle, board, moves, cell, cells, targets)
                most = len(groups) if bound.most is None else min(bound.most, len(groups))
                if bound.least > 0 or most < len(groups):
                    yield CountIf((a, cell), groups, bound.least, most, guard)


def _attacked_groups(puzzle: Puzzle, board: Topology, moves: Piece, cell: Coord, cells: set[Coord],
                     targets: list[int]) -> tuple[tuple[Var, ...], ...]:
    reached: list[list[Coord]] = []
    for ray in moves.rays:
        for sign in (1, -1):
            half: list[Coord] = []
            for other in board.walk(cell, tuple(sign * d for d in ray)):
                if other in puzzle.blockers:
                    break
                if other in cells and other != cell:  # a twisted line may cross the piece's own square
                    half.append(other)
            reached += [half] if puzzle.blocking else [[other] for other in half]
    for leap in moves.leaps:
        for sign in (1, -1):
            landed = board.step(cell, tuple(sign * d for d in leap))
            if landed is not None and landed != cell and landed in cells:
                reached.append([landed])
    groups: dict[frozenset[Var], tuple[Var, ...]] = {}
    for found in reached:
        group = tuple((b, c) for c in found for b in targets)
        if group:
            groups.setdefault(frozenset(group), group)  # a cell reached two ways is attacked once
    return tuple(groups.values())


def _invariant(puzzle: Puzzle, cells: set[Coord]) -> Iterator[Clause]:
    """A piece on a cell means the same army's piece on its image: round each orbit that is
    equality. A cell whose image holds no piece (a hole) holds none either."""
    for name in puzzle.invariant:
        transform = transform_named(SYMMETRIES[name])
        for a, cell in product(range(len(puzzle.armies)), sorted(cells)):
            image = transform((cell[0], cell[1]), puzzle.rows, puzzle.cols)
            if image != cell:
                yield Clause(((a, image),) if image in cells else (), ((a, cell),))


def _army_cells(puzzle: Puzzle, a: int, cells: list[Coord]) -> tuple[Var, ...]:
    return tuple((a, c) for c in cells)


def _sizes(puzzle: Puzzle, cells: list[Coord], guarded: bool) -> LineFamily:
    """Each army's count as a line over its cells (a lone army's exact count is the model's size
    instead, unless `guarded`: then every count is a line under its literal)."""
    lines = []
    for a, army in enumerate(puzzle.armies):
        if army.least > len(cells) and not guarded:
            raise InvalidBoard(f"{army.least} pieces of {army.name} do not fit on {len(cells)} open cells")
        most = len(cells) if army.most is None else army.most
        is_size = len(puzzle.armies) == 1 and army.least == most == _total(puzzle, len(cells)) and not guarded
        if army.goal is None and (army.least > 0 or most < len(cells)) and not is_size:
            guard = Given("count", army=a, index=a) if guarded else None
            lines.append(Line(_army_cells(puzzle, a, cells), most, army.least, guard=guard))
    return LineFamily("army sizes", tuple(lines))


def _objective(puzzle: Puzzle, cells: list[Coord], families: list[LineFamily]) -> Objective | None:
    if puzzle.total is not None:
        every = tuple((a, c) for a in range(len(puzzle.armies)) for c in cells)
        return Objective(puzzle.total, (every,), least=sum(len(army.fixed) for army in puzzle.armies))
    goals: list[tuple[int, Army]] = [(a, army) for a, army in enumerate(puzzle.armies) if army.goal]
    if not goals:
        return None
    sense = goals[0][1].goal
    assert sense is not None
    tops = [army.most for _, army in goals if army.most is not None]
    tops += [capacity(family, _army_cells(puzzle, a, cells)) for a, _ in goals for family in families]
    return Objective(sense, tuple(_army_cells(puzzle, a, cells) for a, _ in goals),
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


def _covers(puzzle: Puzzle, board: Topology, cells: set[Coord]) -> tuple[tuple[Var, ...], ...]:
    """For each square without a blocker, not missing: the (army, cell) whose piece would occupy
    or attack it (only attack it, under a total cover; only the covering army's, if one is named)."""
    reach: dict[Coord, set[Var]] = {square: set() for square in puzzle.board_cells
                                    if square not in puzzle.blockers | puzzle.missing}
    for a, army in enumerate(puzzle.armies):
        if puzzle.cover_by is not None and a != puzzle.cover_by:
            continue
        for x, y in _attacked_pairs(puzzle, board, army.piece) | _reaching_holes(puzzle, board, army.piece):
            if x in cells and y in reach:
                reach[y].add((a, x))
            if y in cells and x in reach:
                reach[x].add((a, y))
        if puzzle.cover_kind == "occupied or attacked":
            for c in cells:
                reach[c].add((a, c))
    return tuple(tuple(sorted(found)) for _, found in sorted(reach.items()))


def _reaching_holes(puzzle: Puzzle, board: Topology, moves: Piece) -> set[tuple[Coord, Coord]]:
    """Pairs (piece cell, hole) the piece attacks: holes hold no piece but must be covered."""
    if not puzzle.holes:
        return set()
    open_board = replace(puzzle, holes=frozenset())
    return {pair for pair in _attacked_pairs(open_board, board, moves)
            if (pair[0] in puzzle.holes) != (pair[1] in puzzle.holes)}
