"""Clauses and attack counts, backend by backend, against the brute-force reading of the model
(`tests/model_oracle.py`): small hand-built models (5 to 16 variables) with clauses and counts
alone and beside lines, covers, fixed cells, a size, an objective and `minimise`, then a seeded
random family. A backend that says it supports a model answers what the oracle answers (its
solutions, count or optimum); one that refuses names what it lacks.

The csp backend runs in each viewpoint and with its own choice: a model its rows viewpoint
refuses is answered in the Boolean one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

import pytest
from queens.models import NQueens, Unsupported, lower
from queens.models.ir import Clause, ConstraintModel, CountIf, Line, LinearKey, LineFamily, Objective, Var
from queens.solvers.backend import Backend, Task
from queens.solvers.registry import get_backend
from queens.solvers.routing.strategies import registered
from queens.solvers.routing.strategy import Subject

from tests import model_oracle
from tests.small_models import board, columns_of, diagonals_of, neighbours, rows_of

Cell = tuple[int, int]












@dataclass(frozen=True)
class Case:
    """A model, and the word the csp rows viewpoint's refusal holds (None: it takes the model)."""

    model: ConstraintModel
    rows_refusal: str | None


def _clauses_alone() -> Case:
    cells = board(2, 3)
    clauses = (Clause(present=((0, 0), (1, 1))), Clause(absent=((0, 1), (0, 2))),
               Clause(present=((1, 2),), absent=((0, 0),)), Clause(present=((0, 2),), absent=((1, 0), (1, 1))),
               Clause(present=((0, 0),), absent=((0, 0), (1, 1))))  # x or not x: always kept
    return Case(ConstraintModel(2, 3, cells, (), clauses=clauses), "every row")


def _counts_alone() -> Case:
    corners = (((0, 0),), ((0, 2),), ((2, 0),), ((2, 2),))
    counts = (CountIf((1, 1), corners, 1, 2),
              CountIf((0, 0), (((0, 1), (0, 2)), ((1, 0), (2, 0))), 0, 1),
              CountIf((2, 2), (((2, 1),), ((2, 2), (1, 2))), 2, 2))  # its own cell in a group
    return Case(ConstraintModel(3, 3, board(3, 3), (), counts=counts), "every row")


def _rooks_with_clauses() -> Case:
    families = (rows_of(4, 4), columns_of(4, 4, at_least=1))
    clauses = (Clause(present=((0, 0), (0, 1)), absent=((3, 3),)), Clause(absent=((1, 1), (2, 2))),
               Clause(present=((3, 0), (3, 1), (2, 0))))
    return Case(ConstraintModel(4, 4, board(4, 4), families, size=4, size_implied=True, clauses=clauses), None)


def _queens_with_attack_counts() -> Case:
    rows, cols = 3, 4
    families = (rows_of(rows, cols), columns_of(rows, cols), diagonals_of(rows, cols))
    counts = tuple(CountIf(cell, tuple((n,) for n in neighbours(cell, rows, cols)), 0, 1) for cell in board(rows, 2))
    counts += (CountIf((1, 1), (((0, 3), (2, 3)), ((0, 0),), ((2, 0), (2, 1))), 1, 2),)
    return Case(ConstraintModel(rows, cols, board(rows, cols), families, size=3, size_implied=True,
                                counts=counts, clauses=(Clause(absent=((0, 1), (2, 3))),)), None)


def _rooks_of_another_size() -> Case:
    """One piece a row, but the size asks for two on three rows: no solution."""
    return Case(ConstraintModel(3, 3, board(3, 3), (rows_of(3, 3), columns_of(3, 3)), size=2,
                                clauses=(Clause(present=((0, 0), (1, 1))),)), None)


def _rooks_with_a_lower_bound() -> Case:
    """A line with a lower bound that one piece a row does not imply (three of the six
    permutations leave both its cells empty): the rows viewpoint refuses it."""
    pair = LineFamily("pair", (Line(((0, 0), (1, 1)), at_least=1),))
    return Case(ConstraintModel(3, 3, board(3, 3), (rows_of(3, 3), columns_of(3, 3), pair),
                                counts=(CountIf((2, 0), (((0, 2),), ((1, 1),)), 2, 2),)), "lower bound")


def _rows_leaving_a_column_out() -> Case:
    """One piece a row among the first two columns; the third column's cells are on no line."""
    rows = LineFamily("rows", tuple(Line(((r, 0), (r, 1)), at_least=1) for r in range(3)), LinearKey(1, 0, None))
    clauses = (Clause(present=((0, 2), (1, 0)), absent=((2, 2),)),)
    counts = (CountIf((1, 2), (((0, 0), (0, 1)), ((2, 2),)), 2, 2),)
    return Case(ConstraintModel(3, 3, board(3, 3), (rows,), clauses=clauses, counts=counts), "on none")


def _domination_with_clauses() -> Case:
    cells = board(3, 3)
    covers = tuple((cell, *neighbours(cell, 3, 3)) for cell in cells)
    clauses = (Clause(present=((0, 0), (2, 2))), Clause(absent=((1, 1),)), Clause(present=((0, 1),), absent=((2, 1),)))
    return Case(ConstraintModel(3, 3, cells, (), covers=covers, minimise=True, clauses=clauses), "every row")


def _fixed_and_size_with_counts() -> Case:
    cells = board(3, 4)
    families = (columns_of(3, 4),)
    counts = (CountIf((0, 0), (((1, 1), (2, 2)), ((0, 3),), ((2, 0),)), 1, 1),
              CountIf((2, 3), (((1, 2),), ((0, 3),), ((2, 1), (2, 0))), 0, 1))
    return Case(ConstraintModel(3, 4, cells, families, fixed=frozenset({(0, 0)}), size=3, counts=counts,
                                clauses=(Clause(present=((1, 3), (2, 3)), absent=((0, 1),)),)), "every row")


def _maximise_downward_closed() -> Case:
    cells = board(3, 3)
    clauses = (Clause(absent=((0, 0), (0, 1))), Clause(absent=((1, 1), (2, 2))), Clause(absent=((2, 0), (1, 0))))
    counts = (CountIf((1, 1), tuple((n,) for n in neighbours((1, 1), 3, 3)), 0, 2),)
    model = ConstraintModel(3, 3, cells, (columns_of(3, 3, 0),), clauses=clauses, counts=counts,
                            objective=Objective("maximise", (cells,)))
    assert model.downward_closed
    return Case(model, "every row")


def _maximise_not_downward_closed() -> Case:
    base = _maximise_downward_closed().model
    model = replace(base, clauses=(*base.clauses, Clause(present=((0, 2), (2, 1)))),
                    counts=(*base.counts, CountIf((0, 2), (((1, 2),), ((0, 1), (1, 1))), 1, 2)))
    assert not model.downward_closed
    return Case(model, "every row")


def _rooks_maximised() -> Case:
    """An objective over every cell with one piece a row: the rows viewpoint asks it as sizes."""
    cells = board(3, 4)
    return Case(ConstraintModel(3, 4, cells, (rows_of(3, 4), columns_of(3, 4)),
                                objective=Objective("maximise", (cells,)),
                                clauses=(Clause(present=((0, 3), (1, 3)), absent=((2, 0),)),)), None)


def _rooks_in_two_halves() -> Case:
    """As many rooks on the left half as on the right, most of them: an objective per group,
    which the rows viewpoint refuses (its questions are lines of so many pieces)."""
    cells = board(4, 4)
    halves = tuple(tuple(cell for cell in cells if (cell[1] < 2) == left) for left in (True, False))
    clauses = (Clause(absent=((0, 0), (1, 3))), Clause(present=((3, 1), (3, 2))))
    return Case(ConstraintModel(4, 4, cells, (rows_of(4, 4), columns_of(4, 4)), clauses=clauses,
                                objective=Objective("maximise", halves)), "objective")


def _rooks_minimised() -> Case:
    cells = board(3, 3)
    return Case(ConstraintModel(3, 3, cells, (rows_of(3, 3), columns_of(3, 3)), minimise=True,
                                counts=(CountIf((0, 0), (((1, 1),), ((2, 2),), ((1, 2), (2, 1))), 1, 2),)), None)


def _armies(rows: int, cols: int) -> tuple[tuple[Var, ...], tuple[tuple[Var, ...], ...]]:
    """(army, cell) variables of two armies on a rows x cols board, and each army's."""
    groups = tuple(tuple((army, cell) for cell in board(rows, cols)) for army in range(2))
    return groups[0] + groups[1], groups


def _peaceable_with_blocking(sense: Literal["maximise", "minimise"]) -> Case:
    """Two armies of rooks, each cell one piece at most; a white and a black rook on one row or
    column may not see each other unless a piece stands between them (`Clause(between, pair)`)."""
    rows, cols = 2, 4
    cells, groups = _armies(rows, cols)
    one_a_cell = LineFamily("cells", tuple(Line(((0, cell), (1, cell))) for cell in board(rows, cols)))
    clauses = []
    for a in board(rows, cols):
        for b in board(rows, cols):
            between = _between(a, b)
            if between is not None:
                clauses.append(Clause(present=tuple((army, cell) for cell in between for army in (0, 1)),
                                      absent=((0, a), (1, b))))
    if sense == "minimise":  # someone must stand on the first row's ends
        clauses.append(Clause(present=((0, (0, 0)), (1, (0, 3)))))
    return Case(ConstraintModel(rows, 2 * cols, cells, (one_a_cell,), clauses=tuple(clauses), numbering=cells,
                                objective=Objective(sense, groups)), "every row")


def _between(a: Cell, b: Cell) -> tuple[Cell, ...] | None:
    """The cells strictly between a and b on one row or column, or None when they share neither."""
    (r1, c1), (r2, c2) = a, b
    if a == b or (r1 != r2 and c1 != c2):
        return None
    if r1 == r2:
        return tuple((r1, c) for c in range(min(c1, c2) + 1, max(c1, c2)))
    return tuple((r, c1) for r in range(min(r1, r2) + 1, max(r1, r2)))


def _minimise_with_counts() -> Case:
    cells = board(2, 4)
    covers = tuple((cell, *neighbours(cell, 2, 4)) for cell in cells)
    counts = tuple(CountIf(cell, tuple((n,) for n in neighbours(cell, 2, 4)), 0, 0) for cell in cells)  # independent
    return Case(ConstraintModel(2, 4, cells, (), covers=covers, minimise=True, counts=counts,
                                clauses=(Clause(present=((0, 0), (1, 0))),)), "every row")


CASES = {
    "clauses alone": _clauses_alone(),
    "counts alone": _counts_alone(),
    "rooks with clauses": _rooks_with_clauses(),
    "queens with attack counts": _queens_with_attack_counts(),
    "rooks of another size": _rooks_of_another_size(),
    "rooks with a lower bound": _rooks_with_a_lower_bound(),
    "rows leaving a column out": _rows_leaving_a_column_out(),
    "domination with clauses": _domination_with_clauses(),
    "fixed and size with counts": _fixed_and_size_with_counts(),
    "maximise, downward closed": _maximise_downward_closed(),
    "maximise, not downward closed": _maximise_not_downward_closed(),
    "rooks maximised": _rooks_maximised(),
    "rooks in two halves": _rooks_in_two_halves(),
    "rooks minimised": _rooks_minimised(),
    "peaceable with blocking, maximised": _peaceable_with_blocking("maximise"),
    "peaceable with blocking, minimised": _peaceable_with_blocking("minimise"),
    "fewest independent kings": _minimise_with_counts(),
}
SETTINGS = {"csp rows": ("csp", {"viewpoint": "rows"}), "csp boolean": ("csp", {"viewpoint": "boolean"}),
            "csp": ("csp", {}), "mip": ("mip", {}), "native": ("native", {}), "minizinc": ("minizinc", {})}


solutions = cache(model_oracle.solutions)
"""The oracle's answers, once per model (a 16-variable model takes it a second)."""
optimum = cache(model_oracle.optimum)


def agrees(engine: Backend, model: ConstraintModel) -> None:
    """`engine`'s answers to `model` are the oracle's: the optimum (and a solution reaching it)
    for a goal, else one solution or none and, where it enumerates, every solution and the count."""
    if model.objective is not None:
        best = engine.optimise(model, None)
        assert best.proved and best.value == optimum(model)
        if best.solution is not None:
            assert model_oracle.holds(model, frozenset(best.solution))
            assert model_oracle.value(model, frozenset(best.solution)) == best.value
        return
    if model.minimise:
        fewest = engine.minimise(model, None)
        assert (None if fewest is None else len(fewest)) == optimum(model)
        assert fewest is None or model_oracle.holds(model, frozenset(fewest))
        return
    expected = set(solutions(model))
    found = engine.find(model, None)
    assert (found is None) == (not expected)
    assert found is None or frozenset(found) in expected
    if engine.limits(model.rows, model.cols, Task.ENUMERATE) is None:
        listed = [frozenset(s) for s in engine.solutions(model, None)]
        assert len(listed) == len(set(listed)) and set(listed) == expected
        counted = engine.count(model, None)
        assert counted is None or counted == len(expected)


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("case", CASES)
def test_each_backend_answers_as_the_oracle_or_names_what_it_lacks(case, setting):
    name, options = SETTINGS[setting]
    engine = get_backend(name, **options)
    model = CASES[case].model
    assert 5 <= len(model.cells) <= 16
    refusal = engine.supports(model)
    if refusal is not None:
        expected = _expected_refusal(setting, CASES[case])
        assert expected is not None and expected in refusal, refusal
        with pytest.raises(Unsupported):
            engine.find(model, None)
        return
    assert _expected_refusal(setting, CASES[case]) is None
    agrees(engine, model)


def _expected_refusal(setting: str, case: Case) -> str | None:
    """What a setting's refusal names: native and minizinc read lines and covers only, the csp
    rows viewpoint what the case says; the others compile every model here."""
    if setting in ("native", "minizinc"):
        return case.model.beyond_lines
    return case.rows_refusal if setting == "csp rows" else None


@pytest.mark.parametrize("case", CASES)
def test_csp_answers_in_the_boolean_viewpoint_what_the_rows_one_refuses(case):
    engine = get_backend("csp")
    engine.model_size(CASES[case].model)
    assert engine.stats["viewpoint"] == ("boolean" if CASES[case].rows_refusal else "rows")


def test_the_throw_away_backend_refuses_them():
    from tests.test_extending import Brute

    model = CASES["clauses alone"].model
    assert model.beyond_lines is not None and model.beyond_lines in (Brute().supports(model) or "")


# --- the strategies that read the outline, not the model -----------------------------------------
OUTLINE_READERS = {"native/classes", "native/quadrant", "python/construct", "native/complete", "native/random",
                   "python/verify", "native/search"}


def test_the_queen_graph_methods_refuse_a_model_with_clauses():
    """The classes counter, the quadrant counter, the construction, the completion solver, the
    local search and the streaming verifier read the outline, which shows no clauses: each
    refuses them, and so does native's search; csp and mip take the model."""
    subject = Subject(NQueens(6))
    subject.__dict__["direct"] = None  # as for a puzzle whose rules do not give the outline
    subject.__dict__["model"] = replace(lower(NQueens(6)), clauses=(Clause(present=((0, 1), (0, 2))),))
    strategies = {strategy.name: strategy for strategy in registered()}
    assert OUTLINE_READERS <= set(strategies)
    for name in OUTLINE_READERS:
        for task in strategies[name].tasks:
            reason = strategies[name].supports(subject, task)
            assert reason is not None and "clauses" in reason, (name, task, reason)
    for name in ("csp/search", "mip/search"):
        assert strategies[name].supports(subject, Task.SOLVE) is None


def test_native_never_counts_a_model_with_clauses_on_any_counter():
    model = replace(lower(NQueens(6)), clauses=(Clause(present=((0, 1), (0, 2))),))
    for counter in ("auto", "classes", "simple"):
        with pytest.raises(Unsupported, match="clauses"):
            get_backend("native", counter=counter).count(model, None)


def test_the_trace_refuses_a_model_with_counts(monkeypatch):
    import queens.solvers.learn.trace as trace

    plain = lower  # what the trace lowers with, before the stand-in
    counted = (CountIf((0, 0), (((1, 2),),), 1, 1),)
    monkeypatch.setattr(trace, "lower", lambda puzzle: replace(plain(puzzle), counts=counted))
    with pytest.raises(Unsupported, match="attack counts"):
        trace.Trace(NQueens(4))


# --- a seeded random family ----------------------------------------------------------------------
SEEDS = range(30)


@cache
def random_model(seed: int) -> ConstraintModel:
    """10 to 14 variables; lines (one piece a row more often than not, so that the csp rows
    viewpoint is tried), covers, clauses, counts, fixed cells, and a size, the fewest pieces or
    an objective."""
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 5), (2, 6), (3, 4), (2, 7)])
    cells = board(rows, cols)
    families = [rows_of(rows, cols)] if rng.random() < 0.6 else []
    if rng.random() < 0.5:
        families.append(columns_of(rows, cols))
    if rng.random() < 0.25:
        low = rng.randint(0, 1)
        families.append(LineFamily("extra", (Line(tuple(rng.sample(cells, 4)), at_most=low + 1, at_least=low),)))

    def some(k: int) -> tuple[Cell, ...]:
        return tuple(rng.sample(cells, k))

    sizes = [(k, rng.randint(0 if k else 1, 2)) for k in (rng.randint(0, 2) for _ in range(rng.randint(1, 4)))]
    clauses = tuple(Clause(present=some(k), absent=some(j)) for k, j in sizes)
    counts = tuple(CountIf(rng.choice(cells), tuple(some(rng.randint(1, 3)) for _ in range(rng.randint(1, 4))),
                           *sorted((rng.randint(0, 2), rng.randint(0, 2)))) for _ in range(rng.randint(0, 3)))
    covers = (some(3),) if rng.random() < 0.25 else ()
    fixed = frozenset(some(1)) if rng.random() < 0.2 else frozenset()
    model = ConstraintModel(rows, cols, cells, tuple(families), covers=covers, fixed=fixed, clauses=clauses,
                            counts=counts)
    goal = rng.choice(["size", "none", "fewest", "maximise", "two groups"])
    if goal == "size":
        return model.with_size(rng.randint(2, 5))
    if goal == "fewest":
        return replace(model, minimise=True)
    if goal == "maximise":
        return replace(model, objective=Objective("maximise", (cells,)))
    if goal == "two groups":
        halves = (tuple(c for c in cells if c[1] % 2 == 0), tuple(c for c in cells if c[1] % 2))
        return replace(model, objective=Objective(rng.choice(["maximise", "minimise"]), halves))
    return model


@pytest.mark.parametrize("setting", ["csp", "mip"])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_models_agree_with_the_oracle(seed, setting):
    name, options = SETTINGS[setting]
    engine = get_backend(name, **options)
    model = random_model(seed)
    assert engine.supports(model) is None
    agrees(engine, model)
