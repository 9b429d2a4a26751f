"""A brute-force reading of a `ConstraintModel`: every subset of its variables, kept when it keeps
every constraint as the IR's docstrings state them. It shares no code with the backends, so a
backend's count, solutions or optimum on a small model (at most ~18 variables) is checked
against it: what tests the compilation of each constraint kind, one backend at a time.

>>> from queens.models.ir import Clause, ConstraintModel
>>> cells = ((0, 0), (0, 1))
>>> len(solutions(ConstraintModel(rows=1, cols=2, cells=cells, families=(), clauses=(Clause((), cells),))))
3
"""

from __future__ import annotations

from itertools import combinations

from queens.models.ir import ConstraintModel, Var

MAX_VARIABLES = 20


def holds(model: ConstraintModel, chosen: frozenset[Var]) -> bool:
    """Whether the pieces on `chosen` keep every constraint of `model` (the objective aside)."""
    if not model.fixed <= chosen or (model.size is not None and len(chosen) != model.size):
        return False
    for line in model.lines:
        if not line.at_least <= len(chosen.intersection(line.cells)) <= line.at_most:
            return False
    if any(not chosen.intersection(cover) for cover in model.covers):
        return False
    for clause in model.clauses:
        if not chosen.intersection(clause.present) and set(clause.absent) <= chosen:
            return False
    for count in model.counts:
        if count.when in chosen:
            reached = sum(1 for group in count.groups if chosen.intersection(group))
            if not count.at_least <= reached <= count.at_most:
                return False
    return True


def solutions(model: ConstraintModel) -> list[frozenset[Var]]:
    """Every placement that keeps `model`'s constraints (objective aside), by trying all subsets."""
    cells = list(model.cells)
    assert len(cells) <= MAX_VARIABLES, f"the brute force reads at most {MAX_VARIABLES} variables"
    found = []
    for k in range(len(cells) + 1):
        for subset in combinations(cells, k):
            chosen = frozenset(subset)
            if holds(model, chosen):
                found.append(chosen)
    return found


def value(model: ConstraintModel, chosen: frozenset[Var]) -> int | None:
    """The objective's value of a placement: the number of pieces every group holds (None when
    the groups hold different numbers, or a number outside the objective's range `least` ..
    `most`: not an answer to the objective)."""
    objective = model.objective
    assert objective is not None
    held = {len(chosen.intersection(group)) for group in objective.groups}
    if len(held) != 1:
        return None
    number = held.pop()
    return number if objective.least <= number <= objective.top else None


def optimum(model: ConstraintModel) -> int | None:
    """The best objective value over every solution (None: no solution). `minimise` without an
    objective is the fewest pieces."""
    found = solutions(model)
    if not found:
        return None
    if model.objective is None:
        assert model.minimise
        return min(len(s) for s in found)
    values = [v for v in (value(model, s) for s in found) if v is not None]
    if not values:
        return None
    return max(values) if model.objective.sense == "maximise" else min(values)
