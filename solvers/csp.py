"""The `csp` backend: python-constraint2's backtracking solver, in two viewpoints.

- `rows` (default when every row holds one piece): q[r] = column, and one binary
  `RowPairConflicts` per pair of rows holding every line the two rows share (columns,
  diagonals, knight pairs, ... alike), which forward checking reads directly. Measured on
  counting Q(12) (experiments/results/defaults.md): 3.7 s against 10.9 s for AllDifferent
  plus one Python predicate per pair of rows and family, because it hides the few conflicting
  values instead of calling a predicate on every value left in the domain.
- `boolean`: one 0/1 variable per cell with sum constraints per line, cover and size; it
  handles every model, slowly.
Enumeration uses python-constraint2's OptimizedBacktrackingSolver (a fixed variable order,
cheap per node); one solution uses its BacktrackingSolver, which picks the row with the fewest
columns left at every step (minimum remaining values): 100-queens in 0.1 s, where the fixed
order does not finish in 30 s. python-constraint2 cannot be interrupted inside its search, so
the deadline is checked between solutions.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator

import constraint
from queens.models import Cell, ConstraintModel, LineFamily, LineKind, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend

VIEWPOINTS = ("rows", "boolean")


class SharedLines:
    """Which cells share a line with a cell, row by row: the rows viewpoint's conflicts.

    Built in one pass over the lines, with no table of pairs, so a 200 x 200 board builds in
    a blink; `columns(cell, row)` answers "which columns of `row` share a line with `cell`".
    """

    def __init__(self, model: ConstraintModel, rows: LineFamily) -> None:
        self._lines_of: dict[Cell, list[dict[int, list[int]]]] = defaultdict(list)
        self.row_pairs: set[tuple[int, int]] = set()
        for family in model.families:
            if family is rows:
                continue
            for line in family.lines:
                by_row: dict[int, list[int]] = defaultdict(list)
                for r, c in line.cells:
                    by_row[r].append(c)
                for cell in line.cells:
                    self._lines_of[cell].append(by_row)
                present = sorted(by_row)
                self.row_pairs.update((a, b) for i, a in enumerate(present) for b in present[i + 1:])

    def columns(self, cell: Cell, row: int) -> tuple[int, ...]:
        return tuple(sorted({c for by_row in self._lines_of.get(cell, ()) for c in by_row.get(row, ())}))


class RowPairConflicts(constraint.Constraint):
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

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=constraint.Unassigned):
        x = assignments.get(self.first, _unassigned)
        y = assignments.get(self.second, _unassigned)
        if x is not _unassigned and y is not _unassigned:
            return y not in self._hidden_by_first(x)
        if not forwardcheck or (x is _unassigned and y is _unassigned):
            return True
        if y is _unassigned:
            other, hidden = self.second, self._hidden_by_first(x)
        else:
            other, hidden = self.first, self._hidden_by_second(y)
        domain = domains[other]
        for value in hidden:
            if value in domain:
                domain.hideValue(value)
                if not domain:
                    return False
        return True


def _iterate(problem: constraint.Problem) -> Iterator[dict]:
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

    def __init__(self, viewpoint: str | None = None) -> None:
        super().__init__()
        if viewpoint is not None and viewpoint not in VIEWPOINTS:
            raise Unsupported(f"csp viewpoint must be one of {', '.join(VIEWPOINTS)}, got {viewpoint!r}")
        self.viewpoint = viewpoint

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._problem(model)

    def _problem(self, model: ConstraintModel) -> tuple[constraint.Problem, callable]:
        viewpoint = self.viewpoint or ("rows" if model.row_family is not None else "boolean")
        build = self._rows if viewpoint == "rows" else self._boolean
        problem, decode = build(model)
        self.stats = {"viewpoint": viewpoint, "variables": len(problem._variables),
                      "constraints": len(problem._constraints)}
        return problem, decode

    @staticmethod
    def _rows(model: ConstraintModel):
        rows = model.row_family
        if rows is None:
            raise Unsupported("the csp rows viewpoint needs exactly one piece in every row")
        if model.covers:
            raise Unsupported("the csp rows viewpoint has no covers; use viewpoint='boolean'")
        problem = constraint.Problem()
        fixed = dict(model.fixed)
        for line in rows.lines:
            r = line.cells[0][0]
            problem.addVariable(r, [fixed[r]] if r in fixed else [c for _, c in line.cells])
        shared = SharedLines(model, rows)
        for r1, r2 in sorted(shared.row_pairs):
            problem.addConstraint(RowPairConflicts(r1, r2, shared), (r1, r2))

        def decode(solution: dict) -> Placement:
            return tuple(sorted((r, c) for r, c in solution.items()))
        return problem, decode

    @staticmethod
    def _boolean(model: ConstraintModel):
        problem = constraint.Problem()
        name = {cell: f"x{model.index[cell]}" for cell in model.cells}
        for cell, var in name.items():
            problem.addVariable(var, [1] if cell in model.fixed else [0, 1])
        for line in model.lines:
            kind = constraint.ExactSumConstraint if line.kind is LineKind.EXACTLY_ONE else constraint.MaxSumConstraint
            problem.addConstraint(kind(1), [name[c] for c in line.cells])
        for cover in model.covers:
            problem.addConstraint(constraint.MinSumConstraint(1), [name[c] for c in cover])
        for count in model.counts:
            problem.addConstraint(constraint.MinSumConstraint(count.at_least), [name[c] for c in count.cells])
            problem.addConstraint(constraint.MaxSumConstraint(count.at_most), [name[c] for c in count.cells])
        if model.size is not None and not model.size_implied:
            problem.addConstraint(constraint.ExactSumConstraint(model.size), list(name.values()))
        cell_of = {var: cell for cell, var in name.items()}

        def decode(solution: dict) -> Placement:
            return tuple(sorted(cell_of[var] for var, value in solution.items() if value))
        return problem, decode

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        return self._stream(model, deadline, constraint.OptimizedBacktrackingSolver())

    def _stream(self, model: ConstraintModel, deadline: float | None, solver: constraint.Solver) -> Iterator[Placement]:
        problem, decode = self._problem(model)
        problem.setSolver(solver)
        found = 0
        for solution in _iterate(problem):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimit("csp: time limit reached while enumerating", partial=found)
            found += 1
            yield decode(solution)
        self.stats["solutions"] = found

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return next(iter(self._stream(model, deadline, constraint.BacktrackingSolver())), None)
