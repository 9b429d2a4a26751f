"""The `csp` backend: python-constraint2's backtracking solver, in two viewpoints.

- `rows` (default when every row holds one piece): q[r] = column; AllDifferent on q for a
  column family, and for every other line family one binary constraint per pair of rows
  (keys differ for keyed families such as diagonals; forbidden column pairs for the rest).
- `boolean`: one 0/1 variable per cell with sum constraints per line, cover and size; it
  handles every model, slowly.
python-constraint2 cannot be interrupted inside its search, so the deadline is checked
between solutions.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator

import constraint

from models import ConstraintModel, LinearKey, LineKind, Placement, TimeLimit, Unsupported
from solvers.backend import Backend

VIEWPOINTS = ("rows", "boolean")


def _key_differs(key: LinearKey, r1: int, r2: int):
    """The binary constraint 'the cells (r1, x) and (r2, y) lie on different lines'."""
    def differ(x: int, y: int) -> bool:
        a, b = key.a * r1 + key.b * x, key.a * r2 + key.b * y
        return (a - b) % key.modulus != 0 if key.modulus else a != b
    return differ


def _not_in(forbidden: frozenset[tuple[int, int]]):
    def allowed(x: int, y: int) -> bool:
        return (x, y) not in forbidden
    return allowed


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
        order = sorted(fixed) + sorted(set(range(model.rows)) - set(fixed))
        for family in model.families:
            if family is rows:
                continue
            if family.key is not None and family.key.a == 0 and not family.key.modulus:
                problem.addConstraint(constraint.AllDifferentConstraint(), order)
            elif family.key is not None:
                for i, r1 in enumerate(order):
                    for r2 in order[i + 1:]:
                        problem.addConstraint(_key_differs(family.key, r1, r2), (r1, r2))
            else:
                pairs: dict[tuple[int, int], set] = defaultdict(set)
                for line in family.lines:
                    for i, (r1, c1) in enumerate(line.cells):
                        for r2, c2 in line.cells[i + 1:]:
                            if r1 != r2:
                                pairs[min(r1, r2), max(r1, r2)].add((c1, c2) if r1 < r2 else (c2, c1))
                for (r1, r2), forbidden in sorted(pairs.items()):
                    problem.addConstraint(_not_in(frozenset(forbidden)), (r1, r2))

        def decode(solution: dict) -> Placement:
            return tuple(sorted((r, c) for r, c in solution.items()))
        return problem, decode

    @staticmethod
    def _boolean(model: ConstraintModel):
        problem = constraint.Problem()
        name = {cell: f"x{cell[0]}_{cell[1]}" for cell in model.cells}
        for cell, var in name.items():
            problem.addVariable(var, [1] if cell in model.fixed else [0, 1])
        for line in model.lines:
            kind = constraint.ExactSumConstraint if line.kind is LineKind.EXACTLY_ONE else constraint.MaxSumConstraint
            problem.addConstraint(kind(1), [name[c] for c in line.cells])
        for cover in model.covers:
            problem.addConstraint(constraint.MinSumConstraint(1), [name[c] for c in cover])
        if model.size is not None and not model.size_implied:
            problem.addConstraint(constraint.ExactSumConstraint(model.size), list(name.values()))
        cell_of = {var: cell for cell, var in name.items()}

        def decode(solution: dict) -> Placement:
            return tuple(sorted(cell_of[var] for var, value in solution.items() if value))
        return problem, decode

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        problem, decode = self._problem(model)
        found = 0
        for solution in _iterate(problem):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimit("csp: time limit reached while enumerating", partial=found)
            found += 1
            yield decode(solution)
        self.stats["solutions"] = found

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return next(iter(self.solutions(model, deadline)), None)
