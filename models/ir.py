"""The generic constraint form every backend consumes.

A puzzle is lowered once (`queens.models.lowering.lower`) to Boolean *cell variables* (one per cell
that may hold a piece) and four kinds of constraint:

- *lines*: between `at_least` and `at_most` pieces among some cells (usually at most one or
  exactly one), grouped in families (rows, columns, diagonals, knight pairs, ...);
- *covers*: at least one piece among some cells (domination);
- *fixed* cells that must hold a piece;
- the *size*: how many pieces in all, or an objective to minimise it;
- *clauses*: some of these cells holds a piece, or some of those is empty (two pieces that see
  each other unless a piece stands between them; a cell and its image under a symmetry alike);
- *counts*: when a cell holds a piece, between so many and so many groups of cells hold one
  (how many pieces it attacks: a group per half-line of sight, or per cell);
- *tallies*: between so many and so many of some conditions hold (a board-wide count: attacking
  pairs, attacked or safe squares; `queens.models.tally`);
- *lex chains* (only when counting with symmetry breaking, see `queens.models.symmetry.lex_leader`):
  the cell vector is lexicographically at least its image under each symmetry.

Puzzles with several armies or a third dimension (`queens.models.armies`) lower into the same
form: their variables are (army, coordinates) keys, an army's size is a line over its cells
(between so many and so many pieces), and an *objective* says which groups hold equal numbers
of pieces, that number maximised or minimised. Variables are opaque hashable keys; a
backend that lays them out in an array reads `index` and `width`, never the key's shape.

A family whose lines are whole board lines also carries a `LinearKey`, so a backend can build
the row viewpoint (q[r] = column of the piece in row r, AllDifferent on each key) instead of
the Boolean one. Backends read only this structure, never a puzzle's name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Any, Literal

from queens.models.tally import Tally

Var = Any
"""A variable's key: a board cell (r, c) in the plain lowering, (army, coordinates) with armies.
Backends hash and sort keys and never look inside them."""


LexChain = tuple[tuple[Var, Var], ...]
"""Pairs (a1, b1), (a2, b2), ...: the vector x[a1], x[a2], ... is lexicographically at least
x[b1], x[b2], ... (a piece, 1, above an empty cell, 0): at the first pair whose cells differ,
the piece is on a."""


@dataclass(frozen=True)
class Side:
    """One side of the model's `bicliques[biclique]` (0: `first`, 1: `second`) as a variable of
    its own, true when that side may hold pieces (a backend that writes bicliques makes it: never
    both sides of one). Lex chains may read sides instead of cells: a symmetry carries a line to
    a line and a swap of armies carries one side to the other, so the sides are permuted as the
    cells are, and ordering lines instead of placements is what proves peaceable queens n = 10
    (`queens.models.symmetry.side_leader`)."""

    biclique: int
    side: int


@dataclass(frozen=True)
class LexLeader:
    """One solution per symmetry class: the variables read in `order` (cells, or the bicliques'
    `Side`s) are lexicographically at least their image under each symmetry (one chain per
    symmetry). A backend that searches in a fixed order searches in `order`, so the chains are
    decided as early as they can be."""

    order: tuple[Var, ...]
    chains: tuple[LexChain, ...]

    def first_read(self, lines: Iterable[Line]) -> list[Line]:
        """`lines` in the order the chains first read one of their cells (middle rows first): a
        search or a split that takes lines in it decides the chains as early as it can."""
        position = {cell: i for i, cell in enumerate(self.order)}
        return sorted(lines, key=lambda line: min(position[c] for c in line.cells))


class LineKind(Enum):
    AT_MOST_ONE = "at most one"
    EXACTLY_ONE = "exactly one"


@dataclass(frozen=True)
class Line:
    """Between `at_least` and `at_most` pieces on `cells`: one rook per row is (1, 1), two
    per row and column (A001499) is (2, 2), a queen's diagonal (0, 1).

    >>> Line(((0, 0), (0, 1))).kind
    <LineKind.AT_MOST_ONE: 'at most one'>
    >>> Line(((0, 0), (0, 1)), at_most=2, at_least=2).bounds
    (2, 2)
    """

    cells: tuple[Var, ...]
    at_most: int = 1
    at_least: int = 0
    flat: range | None = field(default=None, compare=False, repr=False)
    """The cells' numbers in `ConstraintModel.index`, when the lowering cut the line out of the
    board in one stride: a backend reads a long line's variables as an array from it without
    touching the cells (10^6 cells on 4 x 10^6 line places at 1000 x 1000)."""
    guard: Hashable | None = None
    """The stated rule this line comes from, when the model was lowered `guarded`: the line
    holds only when that rule's literal is assumed (`ConstraintModel.guards`)."""

    @property
    def bounds(self) -> tuple[int, int]:
        return self.at_least, self.at_most

    @property
    def kind(self) -> LineKind | None:
        """The two bounds every backend has a fast path for, or None for any other bound."""
        return _KINDS.get(self.bounds)


_KINDS = {(0, 1): LineKind.AT_MOST_ONE, (1, 1): LineKind.EXACTLY_ONE}


@dataclass(frozen=True)
class Objective:
    """Every group holds the same number of pieces, and that number is maximised or minimised
    (one group: an army's size; two: peaceable queens, m white and m black)."""

    sense: Literal["maximise", "minimise"]
    groups: tuple[tuple[Var, ...], ...]
    least: int = 0
    most: int | None = None
    """The range the number can take (most None: as many as a group has variables)."""
    tally: Tally | None = None
    """The number is this tally's value instead (a board-wide count; no groups, `most` its top)."""

    @property
    def top(self) -> int:
        return min(len(g) for g in self.groups) if self.most is None else self.most


@dataclass(frozen=True)
class Clause:
    """Some variable of `present` holds a piece, or some variable of `absent` is empty: the
    clause OR(present) or OR(not absent). Two queens of one colour that see each other unless a
    piece stands between them are `Clause(present=between, absent=(x, y))`; a cell that holds a
    piece exactly when its image under a symmetry does is two clauses, `Clause((y,), (x,))` and
    `Clause((x,), (y,))`.

    >>> Clause(present=((0, 1),), absent=((0, 0), (0, 2))).variables
    ((0, 1), (0, 0), (0, 2))
    """

    present: tuple[Var, ...] = ()
    absent: tuple[Var, ...] = ()

    @property
    def variables(self) -> tuple[Var, ...]:
        return self.present + self.absent


@dataclass(frozen=True)
class CountIf:
    """When `when` holds a piece, between `at_least` and `at_most` of `groups` hold a piece (a
    group holds one when any of its variables does). How many pieces a piece attacks: one group
    per cell it reaches, or, when pieces block, one per half-line from it (only the first piece
    along it is attacked, so the half-line counts once however many pieces stand on it).

    >>> CountIf((1, 1), (((0, 0),), ((1, 2), (1, 3))), 1, 1).variables
    ((0, 0), (1, 2), (1, 3))
    """

    when: Var
    groups: tuple[tuple[Var, ...], ...]
    at_least: int = 0
    at_most: int = 0
    guard: Hashable | None = None
    """As `Line.guard`: the attack bound this count comes from, in a guarded model."""
    kind: str = field(default="attack counts", kw_only=True)
    """What the count says, in words for a refusal or `explain`: how many pieces a piece attacks,
    or that a piece has a square of its own ("private squares", `queens.models.private`)."""

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(var for group in self.groups for var in group)


@dataclass(frozen=True)
class Connection:
    """The pieces on `cells` form one connected group of the graph `edges` (pairs of `cells`):
    an army whose squares touch (connected domination, A370428). Not a line, a clause or a
    count: a backend that cannot state it refuses the model (`ConstraintModel.beyond_lines`).

    >>> Connection(((0, 0), (0, 1)), (((0, 0), (0, 1)),)).neighbours[(0, 1)]
    ((0, 0),)
    """

    cells: tuple[Var, ...]
    edges: tuple[tuple[Var, Var], ...]

    @property
    def neighbours(self) -> dict[Var, tuple[Var, ...]]:
        """Each cell's neighbours in the graph, in the order of `cells`."""
        found: dict[Var, list[Var]] = {cell: [] for cell in self.cells}
        for a, b in self.edges:
            found[a].append(b)
            found[b].append(a)
        return {cell: tuple(others) for cell, others in found.items()}


@dataclass(frozen=True)
class LinearKey:
    """key(r, c) = a*r + b*c (mod `modulus` on a torus): one value per line of a family.

    >>> LinearKey(1, -1, None).of((5, 2))   # diagonals: r - c
    3
    """

    a: int
    b: int
    modulus: int | None

    def of(self, cell: tuple[int, int]) -> int:
        value = self.a * cell[0] + self.b * cell[1]
        return value % self.modulus if self.modulus else value


@dataclass(frozen=True)
class Biclique:
    """No piece on any of `first` together with one on any of `second`: the two-cell lines
    (x, y), x in `first` and y in `second`, said once. Two armies on one board line, each piece
    attacking the other along it: n x n peaceable queens' lines are O(n^3) such pairs, their
    bicliques the board's O(n) lines, and a SAT encoder writes a biclique with one auxiliary
    variable, "which army may use this line", which is what proves peaceable queens n = 9
    (queens.solvers.backends.sat).

    >>> Biclique(((0, (0, 0)), (0, (0, 1))), ((1, (0, 0)), (1, (0, 1)))).pairs
    4
    """

    first: tuple[Var, ...]
    second: tuple[Var, ...]

    @property
    def pairs(self) -> int:
        return len(self.first) * len(self.second)


@dataclass(frozen=True)
class LineFamily:
    """Lines of one kind of attack, e.g. all anti-diagonals, or all knight-move pairs."""

    name: str
    lines: tuple[Line, ...]
    key: LinearKey | None = None
    bicliques: tuple[Biclique, ...] = ()
    """The same two-cell lines grouped, when the lowering knows how: every line of the family is
    a pair of one biclique, and every pair of a biclique is a line or two armies on one cell
    (which one piece per cell excludes anyway). A backend may write these instead of the lines."""

    @property
    def exactly_one(self) -> bool:
        return bool(self.lines) and all(line.kind is LineKind.EXACTLY_ONE for line in self.lines)

    @property
    def exact(self) -> int | None:
        """k when every line holds exactly k pieces (by pigeonhole), else None."""
        bounds = {line.bounds for line in self.lines}
        if len(bounds) == 1:
            low, high = bounds.pop()
            return high if low == high else None
        return None


@dataclass(frozen=True)
class ConstraintModel:
    """Cell variables and constraints over them; see the module docstring.

    `size` is the number of pieces in every solution when it is fixed; `size_implied` says an
    exactly-one family already forces it, so a backend need not post the cardinality.
    `minimise` asks for the fewest pieces (then `size` is None).
    """

    rows: int
    cols: int
    cells: tuple[Var, ...]
    families: tuple[LineFamily, ...]
    covers: tuple[tuple[Var, ...], ...] = ()
    fixed: frozenset[Var] = frozenset()
    size: int | None = None
    size_implied: bool = False
    minimise: bool = False
    objective: Objective | None = None
    clauses: tuple[Clause, ...] = ()
    counts: tuple[CountIf, ...] = ()
    numbering: tuple[Var, ...] = ()
    """Every variable in the order of its number, when that is not the board's r * cols + c."""
    lex: LexLeader | None = None
    """Only one solution per symmetry class is wanted (counting; None otherwise)."""
    occupancy: tuple[tuple[tuple[Var, ...], ...], ...] = ()
    """Families of disjoint groups of cells (the board's lines along each of the piece's
    directions) whose occupied groups a backend may count: k pieces occupy at most k groups of
    each. Always true, so never a constraint of its own: a fact to add to a bound on the pieces,
    given where it pays (a domination's fewest pieces: the sat backend refutes "7 queens dominate
    14 x 14" with it, and not in five times as long without; experiments/results/design-choices.md)."""
    connections: tuple[Connection, ...] = ()
    """Groups of cells whose pieces must form one connected group (`Connection`)."""
    tallies: tuple[Tally, ...] = ()
    """Board-wide counts bounded as rules (`queens.models.tally`)."""
    guards: tuple[Hashable, ...] = ()
    """The stated rules (a count, a per-line bound, a region, an attack bound) whose lines and
    counts hold only under a literal of their own, one per rule, when the puzzle was lowered
    `guarded` (`queens.models.lowering.lower`): what lets "why not?" assume any subset of them
    on one incremental solver. Only the SAT encoder's CNF reads them (`queens.solvers.formats.cnf.cnf`);
    an unguarded model, what every backend solves, has none."""

    @cached_property
    def index(self) -> dict[Var, int]:
        """A dense number for each variable (r * cols + c on a plain board): what a backend that
        lays variables out in bitsets or exports numbered variables reads.

        >>> from queens.models import NQueens, lower
        >>> lower(NQueens(4)).index[(1, 2)]
        6
        """
        if self.numbering:
            return {var: i for i, var in enumerate(self.numbering)}
        return {(r, c): r * self.cols + c for r, c in self.cells}

    @property
    def width(self) -> int:
        """How many numbers `index` spans (holes included)."""
        return len(self.numbering) or self.rows * self.cols

    @property
    def one_per_line(self) -> bool:
        """Every line says "at most one" or "exactly one": what bitset kernels and the
        row viewpoints assume."""
        return all(line.at_most == 1 for line in self.lines)

    @property
    def lines(self) -> Iterator[Line]:
        for family in self.families:
            yield from family.lines

    @property
    def bicliques(self) -> list[Biclique]:
        """Every family's bicliques, in order: what a `Side`'s number counts."""
        return [b for family in self.families for b in family.bicliques]

    @cached_property
    def conflicts(self) -> dict[Var, frozenset[Var]]:
        """The conflict graph: for each cell, the other cells that share a line with it (two
        pieces there would break the line's at-most-one). Derived once, here, for every reader
        (the trace, the native search's bitsets, the CSP's row predicates).

        >>> from queens.models import NQueens, lower
        >>> len(lower(NQueens(4)).conflicts[(0, 0)])
        9
        """
        shared: dict[Var, set[Var]] = {cell: set() for cell in self.cells}
        for line in self.lines:
            for cell in line.cells:
                shared[cell].update(line.cells)
        return {cell: frozenset(others - {cell}) for cell, others in shared.items()}

    def family(self, name: str) -> LineFamily | None:
        return next((f for f in self.families if f.name == name), None)

    @cached_property
    def row_family(self) -> LineFamily | None:
        """The rows, when every row holds exactly one piece: the row viewpoint's variables.

        Recognised by structure: an exactly-one family with one line per board row, each line
        inside a single row (a look at every cell: kept, since the backends ask more than once)."""
        if self.numbering:
            return None
        return next((f for f in self.families if f.exactly_one and len(f.lines) == self.rows
                     and all(len({r for r, _ in line.cells}) == 1 for line in f.lines)), None)

    @property
    def branch_lines(self) -> list[Line]:
        """The exactly-one lines still open (no fixed piece): what a search chooses a piece for,
        one line per level ("one queen per row"). Empty when no family is exactly-one."""
        family = next((f for f in self.families if f.exactly_one), None)
        return [] if family is None else [line for line in family.lines if not self.fixed.intersection(line.cells)]

    def with_size(self, size: int) -> ConstraintModel:
        """The same model asking for exactly `size` pieces (used to count optimal solutions)."""
        return replace(self, size=size, size_implied=False, minimise=False).filled()

    def fills(self, value: int) -> bool:
        """Whether the objective's question for `value` (`at_value`) fills a family (`filled`):
        one group of every cell, and `value` the caps of a family that partitions the cells."""
        groups = self.objective.groups if self.objective else ()
        return len(groups) == 1 and set(groups[0]) == set(self.cells) and self.at_value(value).families != self.families

    def filled(self) -> ConstraintModel:
        """The model with every family its size fills made exact: when a family's lines
        partition the cells and their caps add up to the size, `size` pieces leave each line
        at its cap (pigeonhole, as the lowering does for n pieces on n rows). The independent
        queens of an n x n board asked for n pieces are then one per row, which a search takes
        row by row (the native search answers at once row by row where cell by cell it found
        none in its time: experiments/results/design-choices.md); 2n - 1 bishops fill every
        diagonal, refuted by propagation.

        >>> rows = LineFamily("rows", tuple(Line(((r, 0), (r, 1))) for r in range(2)))
        >>> model = ConstraintModel(2, 2, ((0, 0), (0, 1), (1, 0), (1, 1)), (rows,))
        >>> [(m.families[0].exact, m.size_implied) for m in (model.with_size(2), model.with_size(1))]
        [(1, True), (None, False)]
        """
        if self.size is None or self.guards or any(family.exact is not None for family in self.families):
            return self  # an exact family already says the size (n-queens' rows): nothing to fill
        families = tuple(_exact(family) if _fills(family, self.cells, self.size) else family
                         for family in self.families)
        if families == self.families:
            return self
        return replace(self, families=families, size_implied=any(f.exact is not None for f in families))

    def at_value(self, value: int) -> ConstraintModel:
        """The objective's question for one value: every group holds exactly `value` pieces (a
        total size when the one group is every variable, so a backend that reads only a size
        answers it). What a backend without an optimiser solves, value after value."""
        assert self.objective is not None
        if self.objective.tally is not None:
            return replace(self, objective=None, tallies=(*self.tallies, self.objective.tally.at(value)))
        groups = self.objective.groups
        if len(groups) == 1 and set(groups[0]) == set(self.cells):
            return replace(self, objective=None, size=value, size_implied=False).filled()
        sizes = LineFamily("army sizes", tuple(Line(group, at_most=value, at_least=value) for group in groups))
        return replace(self, objective=None, families=(*self.families, sizes))

    def at_least_value(self, value: int) -> ConstraintModel:
        """Every group holds at least `value` pieces: in a downward-closed model the same question
        as `at_value` (drop the extra pieces, see `trimmed`), and an easier one for a solver."""
        assert self.objective is not None
        groups = self.objective.groups
        if self.objective.tally is not None or len(groups) == 1 and set(groups[0]) == set(self.cells):  # a size
            return self.at_value(value)
        sizes = LineFamily("army sizes", tuple(Line(group, at_most=len(group), at_least=value) for group in groups))
        return replace(self, objective=None, families=(*self.families, sizes))

    def trimmed(self, placement: tuple[Var, ...], value: int) -> tuple[Var, ...]:
        """`placement` with each objective group cut down to `value` pieces (fixed ones kept):
        still a solution when the model is downward closed."""
        assert self.objective is not None
        keep: list[Var] = []
        chosen = set(placement)
        for group in self.objective.groups:
            mine = sorted(chosen.intersection(group), key=lambda v: v not in self.fixed)
            keep += mine[:value]
        grouped = {v for group in self.objective.groups for v in group}
        return tuple(sorted(keep + [v for v in placement if v not in grouped]))

    @property
    def downward_closed(self) -> bool:
        """Whether taking a piece off a solution leaves a solution (no covers, no line with a
        lower bound, no clause that asks for a piece, no count with a lower bound): then if m
        pieces per group are impossible, so are more, and an optimiser may stop at the first
        impossible m."""
        return (not self.covers and not self.connections and not any(line.at_least for line in self.lines)
                and not any(clause.present for clause in self.clauses)
                and not any(count.at_least for count in self.counts)
                and not self.tallies and (self.objective is None or self.objective.tally is None))

    @property
    def keeps_nothing_placed(self) -> bool:
        """Whether placing no piece at all keeps every constraint: the one candidate answer of a
        model with no variables (a board of holes), which a backend with nothing to search
        answers by this, not by a search over nothing (python-constraint finds no solution
        there, a SAT encoding has no variable to index)."""
        return (not self.fixed and self.size in (None, 0) and not self.covers
                and not any(line.at_least for line in self.lines) and all(c.present or c.absent for c in self.clauses)
                and all(t.least <= t.value(()) <= (t.top if t.most is None else t.most) for t in self.tallies)
                and (self.objective is None or self.objective.least == 0))

    @property
    def beyond_lines(self) -> str | None:
        """What this model asks beyond lines, covers, fixed cells and sizes (clauses, counts), in
        words, or None: a backend that reads only those names it in its refusal."""
        tallies = len(self.tallies) + (self.objective is not None and self.objective.tally is not None)
        asked = [f"{len(self.clauses):,} clauses" if self.clauses else "",
                 *(f"{n:,} {kind}" for kind, n in Counter(count.kind for count in self.counts).items()),
                 f"{len(self.connections):,} connected groups" if self.connections else "",
                 f"{tallies} board-wide counts" if tallies else ""]
        return " and ".join(a for a in asked if a) or None


def _fills(family: LineFamily, cells: tuple[Var, ...], size: int) -> bool:
    """Whether `size` pieces fill `family`: its lines partition `cells` (each cell on exactly
    one) and their caps add up to `size`."""
    return (bool(family.lines) and not family.bicliques and sum(line.at_most for line in family.lines) == size
            and sum(len(line.cells) for line in family.lines) == len(cells)
            and set().union(*(line.cells for line in family.lines)) == set(cells))


def _exact(family: LineFamily) -> LineFamily:
    """`family` with every line holding exactly its cap."""
    return replace(family, lines=tuple(replace(line, at_least=line.at_most) for line in family.lines))
