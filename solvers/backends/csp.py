"""The `csp` backend: python-constraint2's backtracking solver, in two viewpoints.

- `rows` (default when every row holds one piece): q[r] = column, the row viewpoint of
  `queens.models.row_viewpoint` (a given piece's row has its one column). The families whose
  lines a `LinearKey` names (its AllDifferent: columns, diagonals) go into one `KeyedLines` over
  every row, which hides the conflicting columns of the rows left in one call per node; each
  other family (knight pairs, lines cut by pawns) into one binary `RowPairConflicts` per pair
  of rows sharing one of its lines, which forward checking reads directly. Measured on
  counting Q(12) (experiments/results/defaults.md): the pair tables beat AllDifferent plus one
  Python predicate per pair of rows and family, because they hide the few conflicting values
  instead of calling a predicate on every value left; one `KeyedLines` instead of the pairs'
  tables is faster again (experiments/results/design-choices.md).
- `boolean`: one 0/1 variable per cell with sum constraints per line (between its bounds),
  cover and size; it handles every model, slowly.
Each is written down as it is posted (`queens.solvers.viewpoint.Recorder`): `describe` returns
it, and `queens explain --viewpoint` prints it.
Both read a cell as a test on one variable (`CellTest`: row r holds column c, or cell x holds
1), and the constraints written over cells, the same in either viewpoint, are posted through it
(`_over_cells`): the lex chains, the clauses, the attack counts and the connected groups.
Each is a python-constraint2 `FunctionConstraint` over the variables its cells read: a clause
is checked once they are all assigned, and with one left forward checking hides the value that
would break it (unit propagation); a count is checked on every partial assignment once its
piece stands (too many groups reached, or too few still reachable, fails the branch), and so
is a connected group (a piece cut off from the others by empty cells fails the branch).
Enumeration uses python-constraint2's OptimizedBacktrackingSolver (a fixed variable order,
cheap per node); one solution uses its BacktrackingSolver, which picks the row with the fewest
columns left at every step (minimum remaining values), ties broken in the order rows were
added, with restarts over seeded random value orders (`Csp.find`). A row's domain of
`INDEXED_FROM` columns or more is an `IndexedDomain` (one dict lookup per ask instead of a
walk down a list), which made one 1000-queens solution several times faster
(experiments/results/defaults.md).
python-constraint2 has no time limit of its own, so one `Deadline` constraint over every
variable, which the search calls at every node, looks at the clock and stops the search.
"""

from __future__ import annotations

import itertools
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence

import constraint
import numpy
from constraint.domain import Unassigned
from queens.models import Cell, ConstraintModel, LineFamily, Placement, TimeLimit, Unsupported
from queens.models.ir import Clause, Connection, CountIf
from queens.models.row_viewpoint import AllDifferent, RowViewpoint, pigeonholed, row_refusal, row_viewpoint
from queens.models.tally import Tally
from queens.solvers.backend import Backend
from queens.solvers.viewpoint import Recorder, Viewpoint, by_bounds, domains_text, line_cells

VIEWPOINTS = ("rows", "boolean")
RESTART_NODES = 4
"""A first find attempt's nodes per row (sqrt of the cells); measured on n-queens, n = 50..300."""
INDEXED_FROM = 48
"""Domains of this many values or more are `IndexedDomain`s: asking for a value and hiding it,
then restoring it, costs about the same either way on short domains and far less indexed on long
ones, while counting (short rows) is slower with every domain indexed
(experiments/results/defaults.md)."""
Var = int | str
"""A python-constraint2 variable: a row (rows viewpoint) or a cell's name "x<index>" (boolean)."""
Solution = dict[Var, int]
"""A solution: each variable's value, a column (rows) or 0/1 (boolean)."""
Decode = Callable[[Solution], Placement]
CellTest = Callable[[Cell], tuple[Var, int]]
"""A cell as a viewpoint reads it: the variable, and the value of it that puts a piece there
((row, column) in the rows viewpoint, (cell's name, 1) in the Boolean one)."""


class SharedLines:
    """Which cells share a line with a cell, row by row: the rows viewpoint's conflicts.

    Built in one pass over the lines, with no table of pairs, so a 200 x 200 board builds in
    a blink; `columns(cell, row)` answers "which columns of `row` share a line with `cell`".
    """

    def __init__(self, families: Sequence[LineFamily]) -> None:
        self._lines_of: dict[Cell, list[dict[int, list[int]]]] = defaultdict(list)
        partners: dict[int, int] = defaultdict(int)  # row -> bitmask of the rows it shares a line with
        for family in families:
            for line in family.lines:
                by_row: dict[int, list[int]] = defaultdict(list)
                for r, c in line.cells:
                    by_row[r].append(c)
                for cell in line.cells:
                    self._lines_of[cell].append(by_row)
                mask = sum(1 << r for r in by_row)
                for r in by_row:
                    partners[r] |= mask
        self.row_pairs = {(a, b) for a, mask in partners.items() for b in _bits_above(mask, a)}

    def columns(self, cell: Cell, row: int) -> tuple[int, ...]:
        return tuple(sorted({c for by_row in self._lines_of.get(cell, ()) for c in by_row.get(row, ())}))


class KeyedIndex:
    """The lines of the row viewpoint's keyed families (its `AllDifferent`s) by key value, so a
    cell's lines are found by its key in each family: no list per cell up front, which
    `SharedLines` keeps (1000 x 1000: 4 x 10^6 entries, a large share of a 600-queens solve:
    experiments/results/design-choices.md); a cell's list is made when the search first places a
    piece there, and kept."""

    def __init__(self, keys: Sequence[AllDifferent]) -> None:
        self._families: list[tuple[AllDifferent, dict[int, tuple[Cell, ...]]]] = [
            (key, {key.of(*line.cells[0]): line.cells for line in key.family.lines}) for key in keys]
        self._others: dict[Cell, list[Cell]] = {}

    def other_cells(self, cell: Cell) -> list[Cell]:
        """The cells of other rows that share a line with `cell` (a cell on two of its lines
        comes twice: cheaper than a set, and hiding it twice costs one lookup)."""
        found = self._others.get(cell)
        if found is None:
            row = cell[0]
            found = self._others[cell] = [other for key, lines in self._families
                                          for other in lines.get(key.of(*cell), ()) if other[0] != row]
        return found


def _bits_above(mask: int, a: int) -> list[int]:
    """The set bits of `mask` above bit `a`: the rows after row `a` it shares a line with."""
    mask >>= a + 1
    found, b = [], a + 1
    while mask:
        if mask & 1:
            found.append(b)
        mask >>= 1
        b += 1
    return found


class IndexedDomain(constraint.Domain):  # type: ignore[misc]  # python-constraint2 is untyped
    """A domain that knows where each of its values sits: asking whether it holds a value, and
    hiding one, cost one dict lookup instead of a walk down the list (python-constraint2's
    `Domain` is a list). On 1000 x 1000 the walks were most of a solve: a row loses nearly all
    its 1000 columns one by one, and most asks are about columns already gone.

    Hiding a value moves the last value into its place, so the values' order changes as the
    search goes; the solvers read the order only as the order to try values in.
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(values)
        self.place = {value: i for i, value in enumerate(self)}

    def __contains__(self, value: object) -> bool:
        return value in self.place

    def hideValue(self, value: int) -> None:  # noqa: N802  # python-constraint2's name
        place = self.place
        try:
            i = place.pop(value)
        except KeyError:
            raise ValueError(f"{value!r} is not in the domain") from None
        last: int = list.pop(self)
        if i < len(self):
            self[i] = last
            place[last] = i
        self._hidden.append(value)

    def popState(self) -> None:  # noqa: N802
        diff = self._states.pop() - len(self)
        if diff:
            self._restore(self._hidden[-diff:])
            del self._hidden[-diff:]

    def resetState(self) -> None:  # noqa: N802
        self._restore(self._hidden)
        del self._hidden[:]
        del self._states[:]

    def _restore(self, values: list[int]) -> None:
        place = self.place
        for value in values:
            place[value] = len(self)
            self.append(value)


def _hide(domain: constraint.Domain, values: Iterable[int]) -> bool:
    """Forward checking: hide `values` from `domain` (the solver restores them when it backtracks);
    False when the domain runs empty, so the branch fails."""
    for value in values:
        if value in domain:
            domain.hideValue(value)
            if not domain:
                return False
    return True


class RowPairConflicts(constraint.Constraint):  # type: ignore[misc]  # python-constraint2 is untyped
    """Rows r1 and r2 may not take columns x, y when (r1, x) and (r2, y) share a line.

    When one row is assigned, forward checking hides exactly the conflicting columns from the
    other row's domain (the few that `SharedLines` lists, looked up once per value and kept),
    instead of calling a predicate on every value left.
    """

    def __init__(self, first: int, second: int, lines: SharedLines) -> None:
        self.first, self.second, self.lines = first, second, lines
        self.forward: dict[int, tuple[int, ...]] = {}   # column of `first` -> columns of `second`
        self.backward: dict[int, tuple[int, ...]] = {}  # and the other way round

    def _hidden_by_first(self, x: int) -> tuple[int, ...]:
        found = self.forward.get(x)
        if found is None:
            found = self.forward[x] = self.lines.columns((self.first, x), self.second)
        return found

    def _hidden_by_second(self, y: int) -> tuple[int, ...]:
        found = self.backward.get(y)
        if found is None:
            found = self.backward[y] = self.lines.columns((self.second, y), self.first)
        return found

    def __call__(self, variables: Sequence[Var], domains: dict[Var, constraint.Domain],
                 assignments: Solution, forwardcheck: object = False) -> bool:
        # `forwardcheck`: the solvers pass True/False or their list of pushed domains (or None);
        # only its truth is read. An assigned value is a column, never None, so None is "unassigned".
        x = assignments.get(self.first)
        y = assignments.get(self.second)
        if x is not None and y is not None:
            return y not in self._hidden_by_first(x)
        if not forwardcheck:
            return True
        if x is not None:
            other, hidden = self.second, self._hidden_by_first(x)
        elif y is not None:
            other, hidden = self.first, self._hidden_by_second(y)
        else:
            return True
        return _hide(domains[other], hidden)


class KeyedLines(constraint.Constraint):  # type: ignore[misc]  # python-constraint2 is untyped
    """At most one piece on each line of the keyed families (columns, diagonals, ...): one
    constraint over every row instead of one per pair of rows, so a node costs one Python call
    for them all (the pairs' calls were about half of counting's profile).

    With forward checking, the row just assigned hides, in every row not yet assigned, the
    columns on its lines (`KeyedIndex.other_cells`); the rows assigned before it
    already hid theirs, and the solver restores the domains when it backtracks, so a value
    still in a domain conflicts with no assigned row. The row just assigned is the last key of
    `assignments`: python-constraint2's solvers add it last, having removed every deeper row
    (a dict keeps insertion order). Without forward checking (None or False; the solvers pass
    their list of pushed domains, empty at the last row, when they forward check) every
    assigned row is checked against the others.
    """

    def __init__(self, lines: KeyedIndex) -> None:
        self.lines = lines

    def __call__(self, variables: Sequence[Var], domains: dict[Var, constraint.Domain],
                 assignments: Solution, forwardcheck: object = False) -> bool:
        if forwardcheck is None or forwardcheck is False:  # an empty list still forward checks
            return all(assignments.get(r) != c for row, column in assignments.items()
                       for r, c in self.lines.other_cells((int(row), column)))
        row = next(reversed(assignments))
        for r, c in self.lines.other_cells((int(row), assignments[row])):  # `_hide`, one value at a time,
            if r not in assignments:                                  # inlined: 3 x 10^6 cells at 1000 x 1000
                domain = domains[r]
                if c in domain:
                    domain.hideValue(c)
                    if not domain:
                        return False
        return True


class LexChainsConstraint(constraint.Constraint):  # type: ignore[misc]  # python-constraint2 is untyped
    """The model's lex chains over cells, each cell a (variable, value) test: a row holding that
    column (rows viewpoint), or a cell variable holding 1 (boolean). Scoped over every variable.

    At each node every chain is walked while its pairs are equal: a pair decided either way ends
    the walk (held, or the node fails); a known empty a empties b and a known piece on b puts one
    on a (forward checking hides the values), and the walk goes on; an open pair stops it. A cell
    is known once its variable is assigned, or empty once its value is gone from the domain.

    What is known at a node stays known below it, so each chain's walk resumes where the parent
    node's stopped: the search is depth-first and this is called at every node (its scope is
    every variable), so the last walk saved at a smaller depth is the parent's.
    """

    def __init__(self, chains: Sequence[Sequence[tuple[tuple[Var, int], tuple[Var, int]]]]) -> None:
        self.chains = [[(u, p, v, q) for (u, p), (v, q) in chain] for chain in chains]
        self.saved: list[tuple[int, list[int]]] = [(-1, [0] * len(self.chains))]  # (depth, where each walk is)

    def __call__(self, variables: Sequence[Var], domains: dict[Var, constraint.Domain],
                 assignments: Solution, forwardcheck: object = False) -> bool:
        depth = len(assignments)
        saved = self.saved
        while saved[-1][0] >= depth:
            saved.pop()
        walks = []
        for chain, start in zip(self.chains, saved[-1][1], strict=True):
            at = self._walk(chain, start, domains, assignments, bool(forwardcheck))
            if at < 0:
                return False
            walks.append(at)
        saved.append((depth, walks))
        return True

    @staticmethod
    def _walk(chain: list[tuple[Var, int, Var, int]], at: int, domains: dict[Var, constraint.Domain],
              assignments: Solution, forwardcheck: bool) -> int:
        """Where the walk stops (len(chain) once the chain holds for good), or -1 if it breaks."""
        held = assignments.get
        while at < len(chain):
            u, p, v, q = chain[at]
            a, b = held(u), held(v)
            x = (a == p) if a is not None else (False if p not in domains[u] else None)
            y = (b == q) if b is not None else (False if q not in domains[v] else None)
            if x is None or y is None:
                if not forwardcheck or x is None and y is not True or y is None and x is not False:
                    return at  # open: either value keeps the chain
                domain = domains[v] if y is None else domains[u]
                for value in ([q] if y is None else [w for w in domain if w != p]):
                    domain.hideValue(value)
                if not domain:
                    return -1
            elif x != y:
                return len(chain) if x else -1
            at += 1
        return at


class _Restart(Exception):
    """A find attempt used its node budget: start again with other value orders."""


class Budget(constraint.Constraint):  # type: ignore[misc]  # python-constraint2 is untyped
    """Always satisfied; stops the search at `deadline` (TimeLimit) or after `nodes` calls
    (a restart). Scoped over every variable, so the search calls it at every node; the clock
    is read every 256 calls (cheap)."""

    def __init__(self, deadline: float | None, nodes: float | None = None) -> None:
        self.deadline, self.nodes = deadline, nodes
        self.calls = 0

    def __call__(self, variables: Sequence[Var], domains: dict[Var, constraint.Domain],
                 assignments: Solution, forwardcheck: object = False) -> bool:
        self.calls += 1
        if self.nodes is not None and self.calls > self.nodes:
            raise _Restart
        if self.deadline is not None and not self.calls & 255 and time.monotonic() > self.deadline:
            raise TimeLimit("csp: time limit reached")
        return True


def _iterate(problem: constraint.Problem) -> Iterator[Solution]:
    """The solutions. python-constraint2 preprocesses the constraints when the search starts
    and fails with min()/max() of an empty sequence when that empties a domain; an empty
    domain means there is no solution, so that failure, before any solution, is an answer."""
    try:
        solutions = problem.getSolutionIter()
        first = next(solutions)
    except StopIteration:
        return
    except ValueError as error:
        if "empty sequence" in str(error):
            return
        raise
    yield first
    yield from solutions


class Csp(Backend):
    name = "csp"
    reads_tallies = True
    lex_for_optima = True
    """The chains pay on optima: peaceable queens n = 5 was proved faster with them
    (experiments/results/design-choices.md)."""
    settings = (("rows", {"viewpoint": "rows"}), ("boolean", {"viewpoint": "boolean"}))
    states_connections = True  # a flood fill over pieces and open cells (`_connection_constraint`)

    def __init__(self, viewpoint: str | None = None) -> None:
        super().__init__()
        if viewpoint is not None and viewpoint not in VIEWPOINTS:
            raise Unsupported(f"csp viewpoint must be one of {', '.join(VIEWPOINTS)}, got {viewpoint!r}")
        self.viewpoint = viewpoint
        self._lines: tuple[ConstraintModel, RowViewpoint, KeyedIndex | None, SharedLines] | None = None
        self.described = Viewpoint(self.name, viewpoint or "rows")

    def _lines_of(self, model: ConstraintModel) -> tuple[RowViewpoint, KeyedIndex | None, SharedLines]:
        """The rows viewpoint (`queens.models.row_viewpoint`) and its conflicts: the keyed
        families' index (None if there are none) and the other families' lines. Made once per
        model: `find`'s restarts build a new problem each, over the same lines (at 1000 x 1000
        they were a third of an attempt, the index's cell lists included:
        experiments/results/design-choices.md)."""
        if self._lines is None or self._lines[0] is not model:
            view = row_viewpoint(model)
            keyed = KeyedIndex(view.alldifferent) if view.alldifferent else None
            self._lines = (model, view, keyed, SharedLines(view.unkeyed))
        return self._lines[1], self._lines[2], self._lines[3]

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._problem(model)

    def supports(self, model: ConstraintModel) -> str | None:
        if self.viewpoint == "rows":
            return _rows_refusal(model)
        return None

    def describe(self, model: ConstraintModel) -> Viewpoint:
        """The problem this backend builds of `model` in its viewpoint, as a reader would write it:
        recorded by the code that posts it (`Recorder`), so the counts are python-constraint2's."""
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        self._problem(model)
        return self.described

    def _problem(self, model: ConstraintModel, budget: Budget | None = None,
                 shuffle: numpy.random.Generator | None = None) -> tuple[constraint.Problem, Decode]:
        viewpoint = self.viewpoint or ("boolean" if _rows_refusal(model) else "rows")
        build = self._rows if viewpoint == "rows" else self._boolean
        problem = constraint.Problem()
        record = Recorder(lambda: (len(problem._variables), len(problem._constraints)))
        decode, test = build(model, problem, record, None if budget is None else budget.deadline)
        _over_cells(problem, record, model, test)
        self.described = record.viewpoint(self.name, viewpoint)
        for var, domain in problem._variables.items():  # numpy shuffles tenfold faster than random (defaults.md)
            values = domain if shuffle is None else shuffle.permutation(domain).tolist()
            if viewpoint == "rows" and len(values) >= INDEXED_FROM:
                problem._variables[var] = IndexedDomain(values)
            elif shuffle is not None:
                domain[:] = values
        if budget is not None:
            problem.addConstraint(budget, list(problem._variables))
        self.stats = {"viewpoint": viewpoint, "variables": len(problem._variables),
                      "constraints": len(problem._constraints)}
        return problem, decode

    def _rows(self, model: ConstraintModel, problem: constraint.Problem, record: Recorder,
              deadline: float | None = None) -> tuple[Decode, CellTest]:
        """The rows viewpoint: q[r] over the row's columns (a given piece's one), one `KeyedLines`
        for every AllDifferent of the row viewpoint, a `RowPairConflicts` per pair of rows that
        share a line without a key, and no solution when the size is not one piece a row."""
        refusal = _rows_refusal(model)
        rows = model.row_family
        if refusal or rows is None:
            raise Unsupported(refusal or "the csp rows viewpoint needs exactly one piece in every row")
        view, keyed, shared = self._lines_of(model)
        domains = dict(zip(view.rows, view.domains, strict=True))
        # the rows in the order the search takes them (python-constraint2 keeps the order variables
        # were added in among equals): board order, or the lex chains' order (middle rows first)
        for line in (rows.lines if model.lex is None else model.lex.first_read(rows.lines)):
            problem.addVariable(line.cells[0][0], list(domains[line.cells[0][0]]))
        for i, (text, count) in enumerate(domains_text(view.rows, view.domains)):
            record.declare(text, "", count, "" if i else "the column of each row's piece")
        if keyed is not None:
            keys, names = (", ".join(key.text for key in view.alldifferent),
                           ", ".join(key.name for key in view.alldifferent))
            with record.posting(f"KeyedLines({keys})", "over every row", f"AllDifferent of each: {names}"):
                problem.addConstraint(KeyedLines(keyed), list(problem._variables))
        with record.posting("no two pieces on a line", "for each pair of rows sharing one",
                            ", ".join(f"{family.name} (no key)" for family in view.unkeyed)):
            for index, (r1, r2) in enumerate(sorted(shared.row_pairs)):
                if deadline is not None and not index % 4096 and time.monotonic() > deadline:
                    raise TimeLimit("csp: time limit reached while building the row-pair tables")
                problem.addConstraint(RowPairConflicts(r1, r2, shared), (r1, r2))
        row_ids = list(view.rows)  # the variables: every row, an int
        if model.size is not None and model.size != len(row_ids):  # one piece a row: no other number fits
            with record.posting(f"q[{row_ids[0]}] ∈ {{}}", "", f"size {model.size}: one a row is {len(row_ids)}"):
                problem.addConstraint(constraint.InSetConstraint(set()), row_ids[:1])

        def decode(solution: Solution) -> Placement:
            return tuple(sorted((r, solution[r]) for r in row_ids))
        return decode, _row_test

    @staticmethod
    def _boolean(model: ConstraintModel, problem: constraint.Problem, record: Recorder,
                 deadline: float | None = None) -> tuple[Decode, CellTest]:
        """The Boolean viewpoint: a 0/1 variable per cell (1 for a given piece), and a sum
        constraint per line between its bounds, per cover and for the size."""
        name = {cell: f"x{model.index[cell]}" for cell in model.cells}
        for cell, var in name.items():
            problem.addVariable(var, [1] if cell in model.fixed else [0, 1])
        record.declare("x[r,c] ∈ {0, 1}", "for each open cell", len(name),
                       "1: a piece on (r, c)" + ("; {1} for a given piece" if model.fixed else ""))
        for family in model.families:
            cells, scope = line_cells(family)
            for (least, most), lines in by_bounds(family.lines).items():
                with record.posting(_sums(cells, least, most), scope, family.name):
                    for line in lines:
                        _post_sums(problem, [name[c] for c in line.cells], least, most)
        if model.covers:
            with record.posting("Σ(x[p] : p = s or p attacks s) ≥ 1", "for each square s", "covers"):
                for cover in model.covers:
                    problem.addConstraint(constraint.MinSumConstraint(1), [name[c] for c in cover])
        if model.size is not None and not model.size_implied:
            with record.posting(f"Σ x[r,c] = {model.size}", "", "size"):
                problem.addConstraint(constraint.ExactSumConstraint(model.size), list(name.values()))
        cell_of: dict[Var, Cell] = {var: cell for cell, var in name.items()}

        def decode(solution: Solution) -> Placement:
            return tuple(sorted(cell_of[var] for var, value in solution.items() if value))

        def test(cell: Cell) -> tuple[Var, int]:
            return name[cell], 1
        return decode, test

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        return self._stream(model, Budget(deadline), constraint.OptimizedBacktrackingSolver())

    def _stream(self, model: ConstraintModel, budget: Budget, solver: constraint.Solver,
                shuffle: numpy.random.Generator | None = None) -> Iterator[Placement]:
        if not model.cells:  # python-constraint finds no solution of a problem without variables
            if model.keeps_nothing_placed:
                yield ()
            return
        problem, decode = self._problem(model, budget, shuffle)
        problem.setSolver(solver)
        found = 0
        try:
            for solution in _iterate(problem):
                found += 1
                yield decode(solution)
        except TimeLimit:
            raise TimeLimit("csp: time limit reached", partial=found) from None
        self.stats["solutions"] = found

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """Backtracking with restarts: each attempt tries the values in a new (seeded) random
        order and stops after a node budget that grows by half each time, so one unlucky
        order cannot trap the search (the heavy tail of n-queens: the board order finds
        100 queens quickly and 200 not at all, experiments/results/defaults.md); the last attempt's budget always
        grows, so a model without solutions is still proved so."""
        nodes = RESTART_NODES * max(1, len(model.cells) ** 0.5)
        for attempt in itertools.count():
            try:
                budget = Budget(deadline, nodes)
                found = next(iter(self._stream(model, budget, constraint.BacktrackingSolver(),
                                               numpy.random.default_rng(attempt))), None)
                self.stats["restarts"] = attempt
                return found
            except _Restart:
                nodes *= 1.5
        return None


def _post_sums(problem: constraint.Problem, scope: list[Var], least: int, most: int) -> None:
    """least <= the sum of `scope` <= most, with python-constraint2's sum constraints (none for
    a bound that every assignment keeps)."""
    if least == most:
        problem.addConstraint(constraint.ExactSumConstraint(most), scope)
        return
    if most < len(scope):
        problem.addConstraint(constraint.MaxSumConstraint(most), scope)
    if least > 0:
        problem.addConstraint(constraint.MinSumConstraint(least), scope)


def _sums(cells: str, least: int, most: int) -> str:
    """The sum constraints `_post_sums` posts, as one formula."""
    if least == most:
        return f"Σ({cells}) = {most}"
    return f"Σ({cells}) ≤ {most}" if least == 0 else f"{least} ≤ Σ({cells}) ≤ {most}"


def _row_test(cell: Cell) -> tuple[Var, int]:
    """The rows viewpoint's test of a cell: its row's variable holds its column."""
    return cell[0], cell[1]


def _over_cells(problem: constraint.Problem, record: Recorder, model: ConstraintModel, test: CellTest) -> None:
    """Post the constraints written over cells, read through the viewpoint's `test`: the lex
    chains (one constraint over every variable), each clause and each attack count."""
    if model.lex:
        chains = [[(test(a), test(b)) for a, b in chain] for chain in model.lex.chains]
        with record.posting("the cells ≥lex their image under g, for each symmetry g", "one LexChains over every "
                            "variable", f"lex-leader chains for {len(chains)} symmetries"):
            problem.addConstraint(LexChainsConstraint(chains), list(problem._variables))
    with record.posting("a piece on some p ∈ P, or some a ∈ A empty", "for each clause", "clauses"):
        for clause in model.clauses:
            problem.addConstraint(*_clause_constraint(clause, test))
    with record.posting("a piece on w ⇒ lo ≤ groups holding a piece ≤ hi", "for each attack count", "attack counts"):
        for count in model.counts:
            problem.addConstraint(*_count_constraint(count, test))
    if model.tallies:
        with record.posting("lo ≤ conditions that hold ≤ hi", "for each board-wide count", "board-wide counts"):
            for tally in model.tallies:
                problem.addConstraint(*_tally_constraint(tally, test))
    with record.posting("the pieces on C are one group of neighbours", "for each connected group", "connected groups"):
        for connection in model.connections:
            problem.addConstraint(*_connection_constraint(connection, test))


def _tally_constraint(tally: Tally, test: CellTest) -> tuple[constraint.FunctionConstraint, list[Var]]:
    """A board-wide count's bounds over the variables its terms read, checked on the values
    (`queens.models.tally.Tally.value` over the cells whose test holds)."""
    cells = tally.variables
    tests = [test(cell) for cell in cells]
    scope, place = _scope(tests)
    reads = [(cell, place[var], value) for cell, (var, value) in zip(cells, tests, strict=True)]
    most = tally.top if tally.most is None else tally.most

    def holds(*values: int) -> bool:
        return tally.least <= tally.value({cell for cell, p, value in reads if values[p] == value}) <= most
    return constraint.FunctionConstraint(holds), scope


def _scope(tests: Iterable[tuple[Var, int]]) -> tuple[list[Var], dict[Var, int]]:
    """The distinct variables `tests` read, in order, and each one's place among them (the
    place its value takes in a `FunctionConstraint`'s arguments)."""
    place: dict[Var, int] = {}
    for var, _ in tests:
        place.setdefault(var, len(place))
    return list(place), place


def _clause_constraint(clause: Clause, test: CellTest) -> tuple[constraint.FunctionConstraint, list[Var]]:
    """Some cell of `present` holds a piece or some cell of `absent` is empty, over the variables
    they read. python-constraint2 checks it once they are all assigned and, with one left, hides
    that one's values that break it: the clause's unit propagation, at no cost of ours.

    >>> problem = constraint.Problem()
    >>> problem.addVariables([0], [0, 1, 2])  # one row, three columns
    >>> problem.addConstraint(*_clause_constraint(Clause(present=((0, 1),), absent=((0, 0),)), _row_test))
    >>> sorted(solution[0] for solution in problem.getSolutions())
    [1, 2]
    """
    tests = [test(cell) for cell in clause.present] + [test(cell) for cell in clause.absent]
    scope, place = _scope(tests)
    literals = [(place[var], value, i < len(clause.present)) for i, (var, value) in enumerate(tests)]

    def holds(*values: int) -> bool:
        return any((values[p] == value) is piece for p, value, piece in literals)
    return constraint.FunctionConstraint(holds), scope


def _count_constraint(count: CountIf, test: CellTest) -> tuple[constraint.FunctionConstraint, list[Var]]:
    """When `count.when` holds a piece, between `at_least` and `at_most` of the groups hold one.
    Checked on partial assignments too (`assigned=False`: an unassigned variable's value is
    `Unassigned`): a branch fails as soon as too many groups are reached, or too few can still
    be; with one variable left, python-constraint2 hides its values that break the count.

    >>> problem = constraint.Problem()
    >>> problem.addVariables([0, 1, 2], [0, 1, 2])  # three rows, three columns
    >>> problem.addConstraint(*_count_constraint(CountIf((0, 0), (((1, 1),), ((2, 0), (2, 2))), 1, 1), _row_test))
    >>> sorted((s[1], s[2]) for s in problem.getSolutions() if s[0] == 0)  # (1, 1) or a corner of row 2
    [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)]
    """
    when_var, when_value = test(count.when)
    groups = [[test(cell) for cell in group] for group in count.groups]
    scope, place = _scope([(when_var, when_value), *(t for group in groups for t in group)])
    at = place[when_var]
    placed = [[(place[var], value) for var, value in group] for group in groups]
    least, most = count.at_least, count.at_most

    def holds(*values: int) -> bool:
        if values[at] != when_value:  # no piece there, or not known yet: nothing asked
            return True
        reached = open_ = 0
        for group in placed:
            if any(values[p] == value for p, value in group):
                reached += 1
            elif any(values[p] is Unassigned for p, _ in group):
                open_ += 1
        return reached <= most and reached + open_ >= least
    return constraint.FunctionConstraint(holds, assigned=False), scope


def _connection_constraint(connection: Connection, test: CellTest) -> tuple[constraint.FunctionConstraint, list[Var]]:
    """The pieces on the connection's cells form one group of neighbours. Checked on partial
    assignments too (`assigned=False`): every piece placed so far must be reached from the first
    through cells that hold a piece or may still hold one, so a branch fails as soon as a piece
    is cut off; once every variable is assigned, that is the group itself. No variable is added,
    so a count lists each placement once.

    >>> problem = constraint.Problem()
    >>> problem.addVariables(["x0", "x1", "x2"], [0, 1])  # a path of three cells
    >>> cells = ((0, 0), (0, 1), (0, 2))
    >>> path = Connection(cells, ((cells[0], cells[1]), (cells[1], cells[2])))
    >>> problem.addConstraint(*_connection_constraint(path, lambda cell: (f"x{cell[1]}", 1)))
    >>> sorted(tuple(s[f"x{i}"] for i in range(3)) for s in problem.getSolutions())  # not (1, 0, 1)
    [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    """
    tests = [test(cell) for cell in connection.cells]
    scope, place = _scope(tests)
    cells = [(place[var], value) for var, value in tests]
    index = {cell: i for i, cell in enumerate(connection.cells)}
    near = [[index[other] for other in others] for others in connection.neighbours.values()]

    def holds(*values: int) -> bool:
        placed = [i for i, (p, value) in enumerate(cells) if values[p] == value]
        if len(placed) < 2:
            return True
        seen, todo = {placed[0]}, [placed[0]]
        while todo:
            for j in near[todo.pop()]:
                p, value = cells[j]
                if j not in seen and (values[p] == value or values[p] is Unassigned):
                    seen.add(j)
                    todo.append(j)
        return seen.issuperset(placed)
    return constraint.FunctionConstraint(holds, assigned=False), scope


def _rows_refusal(model: ConstraintModel) -> str | None:
    """Why the rows viewpoint cannot hold `model`, or None. It places one piece on each row's
    line and keeps every other line to at most one: a lower bound it keeps only when one piece a
    row implies it (`pigeonholed`), and an objective only when its questions are numbers of
    pieces (`ConstraintModel.at_value`), which it holds as its number of rows."""
    rows = model.row_family
    refusal = row_refusal(model)
    if refusal or rows is None:
        return f"the csp rows viewpoint {refusal}" + ("; use viewpoint='boolean'" if rows is not None else "")
    if model.covers:
        return "the csp rows viewpoint has no covers; use viewpoint='boolean'"
    unkept = next((f for f in model.families if f is not rows and any(line.at_least for line in f.lines)
                   and not pigeonholed(f, model, len(rows.lines))), None)
    if unkept is not None:
        return (f"the csp rows viewpoint keeps no lower bound on a line beyond one piece a row; "
                f"the {unkept.name} lines have one; use viewpoint='boolean'")
    objective = model.objective
    if objective is not None and not (len(objective.groups) == 1 and set(objective.groups[0]) == set(model.cells)):
        return ("the csp rows viewpoint asks an objective value by value as a number of pieces; this one "
                "counts the pieces of each group; use viewpoint='boolean'")
    return None
