"""Clauses and attack counts (`ConstraintModel.clauses`, `.counts`) on every registered backend in
each setting it declares, and in what is built on the sat backend's CNF (DIMACS, OPB, MiniZinc,
certificates, why-not), against the brute-force reading of the model (`tests/model_oracle.py`).

Small hand-built models (5 to 16 variables) use them alone and beside lines, covers, fixed
cells, a size, an objective (maximised and minimised, over one group and two) and `minimise`,
then a seeded random family does the same at random. A backend that supports a model gives the
oracle's solutions (each once), count and optimum; one that refuses says why, and names the
clauses or counts when those are what it lacks (it takes the model without them).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from ortools.sat.python import cp_model
from pysat.solvers import Solver
from queens.models import NQueens, QueensError, Unsupported, lower, symmetry_group
from queens.models.errors import BackendUnavailable
from queens.models.ir import Clause, ConstraintModel, CountIf, Line, LineFamily, Objective, Var
from queens.solvers.api import breaking, optimal_model
from queens.solvers.backend import Backend, Task
from queens.solvers.backends.sat import NATIVE, Sat
from queens.solvers.formats.board_numbering import variable
from queens.solvers.formats.cnf import ENCODINGS, ONE_ONLY, cnf
from queens.solvers.formats.dimacs import dimacs_of
from queens.solvers.formats.minizinc import minizinc_of
from queens.solvers.formats.opb import opb_of
from queens.solvers.proofs.certificate import NotProved, certify_none, certify_optimum
from queens.solvers.proofs.why import why_not
from queens.solvers.registry import BACKENDS, get_backend

from tests import model_oracle
from tests.small_models import QUEEN, board, columns_of, neighbours, ray, rows_of

Cell = tuple[int, int]
Placements = set[frozenset[Var]]


# --- the models ----------------------------------------------------------------------------------








def sight_clauses(rows: int, cols: int) -> tuple[Clause, ...]:
    """Two queens that share a line see each other unless a piece stands between them: for every
    pair on a queen line, the clause "some cell between holds a piece, or one of them is empty"."""
    clauses = []
    for cell in board(rows, cols):
        for step in QUEEN[:4]:  # each pair once
            line = ray(cell, step, rows, cols)
            clauses += [Clause(present=line[:i], absent=(cell, other)) for i, other in enumerate(line)]
    return tuple(clauses)


def attacks(rows: int, cols: int, at_least: int, at_most: int) -> tuple[CountIf, ...]:
    """Each queen attacks between `at_least` and `at_most` others, the first piece on each of its
    half-lines (one group per half-line: it counts once however many pieces stand on it)."""
    return tuple(CountIf(cell, tuple(line for step in QUEEN if (line := ray(cell, step, rows, cols))),
                         at_least, at_most) for cell in board(rows, cols))






def _mirrored() -> ConstraintModel:
    """A piece on a cell exactly when one stands on its left-right mirror image (two clauses a
    pair), two per row and at most one per column, four in all."""
    cells = board(3, 4)
    mirror = tuple(Clause(present=((r, 3 - c),), absent=((r, c),)) for r, c in cells)
    rows = LineFamily("rows", tuple(Line(tuple((r, c) for c in range(4)), at_most=2) for r in range(3)))
    return ConstraintModel(3, 4, cells, (rows, columns_of(3, 4)), size=4, clauses=mirror)


def _rooks_with_everything() -> ConstraintModel:
    """One rook a row and column (the rows keyed: cpsat's alldifferent viewpoint takes it) with
    a cover, a fixed piece, clauses and counts."""
    cells = board(4, 4)
    clauses = (Clause(present=((1, 0), (2, 3)), absent=((3, 3),)), Clause(absent=((1, 1), (2, 2))))
    counts = (CountIf((2, 1), (((0, 0), (0, 2)), ((3, 0),), ((3, 2), (3, 3))), 1, 2),
              CountIf((1, 3), (((3, 0), (3, 1)), ((2, 0),)), 0, 1))
    return ConstraintModel(4, 4, cells, (rows_of(4, 4), columns_of(4, 4)), covers=(((1, 0), (1, 3), (2, 0)),),
                           fixed=frozenset({(0, 2)}), size=4, size_implied=True, clauses=clauses, counts=counts)


def _cleared_by_the_fixed_piece() -> ConstraintModel:
    """Clauses and counts on cells a fixed piece clears (cpsat gives those no variable): an absent
    one keeps its clause, a present one adds nothing, a counting one counts nothing, a group
    of them never holds a piece."""
    cells = board(4, 4)
    clauses = (Clause(present=((0, 0), (2, 2)), absent=((1, 1),)), Clause(absent=((0, 3), (3, 3))),
               Clause(present=((2, 1), (3, 0)), absent=((1, 2),)))
    counts = (CountIf((3, 1), (((0, 1), (2, 0)),), 1, 1), CountIf((1, 3), (((0, 0), (0, 3)), ((2, 2),)), 1, 2),
              CountIf((2, 3), (((0, 0),), ((3, 2),), ((3, 0),)), 0, 1))
    return ConstraintModel(4, 4, cells, (rows_of(4, 4), columns_of(4, 4)), fixed=frozenset({(0, 1)}),
                           size=4, size_implied=True, clauses=clauses, counts=counts)


def _odd_counts() -> ConstraintModel:
    """Counts at their edges: a group twice, the counting cell in its own group, an empty group,
    bounds above the groups there are, and a count no placement reaches (its cell stays empty)."""
    cells = board(2, 3)
    counts = (CountIf((0, 0), (((0, 1),), ((0, 1),), ((1, 1), (1, 2))), 2, 2),
              CountIf((1, 1), (((1, 1),), ((0, 2), (1, 0)), ()), 1, 5),
              CountIf((1, 2), (((0, 0),), ((0, 2),)), 3, 4),
              CountIf((0, 2), (((1, 0), (1, 1), (1, 2)),), 0, 0))
    return ConstraintModel(2, 3, cells, (), counts=counts)


def _halves(cells: tuple[Cell, ...]) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    return tuple(c for c in cells if c[1] % 2 == 0), tuple(c for c in cells if c[1] % 2)


def _two_armies() -> ConstraintModel:
    """Two armies as (army, cell) variables, numbered (`numbering`): a cell holds one piece at most,
    a white and a black rook on one row see each other unless a piece stands between, each
    rook sees one enemy at most; as many of each as possible."""
    cells = board(2, 3)
    armies = tuple(tuple((army, cell) for cell in cells) for army in "wb")
    both = armies[0] + armies[1]
    one = LineFamily("one a cell", tuple(Line((("w", cell), ("b", cell))) for cell in cells))
    clauses = tuple(Clause(present=tuple((a, (r, k)) for k in range(min(c1, c2) + 1, max(c1, c2)) for a in "wb"),
                           absent=(("w", (r, c1)), ("b", (r, c2))))
                    for r in range(2) for c1 in range(3) for c2 in range(3) if c1 != c2)
    counts = tuple(CountIf(("w", cell), tuple((("b", far),) for far in neighbours(cell, 2, 3)), 0, 1) for cell in cells)
    return ConstraintModel(2, 6, both, (one,), clauses=clauses, counts=counts, numbering=both,
                           objective=Objective("maximise", armies))


MODELS: dict[str, ConstraintModel] = {
    "clauses alone: queens that see each other, unless blocked": ConstraintModel(
        3, 3, board(3, 3), (), size=3, clauses=sight_clauses(3, 3)),
    "clauses alone: mirror images": _mirrored(),
    "counts alone: each king touches exactly one other": ConstraintModel(
        3, 3, board(3, 3), (), counts=tuple(CountIf(c, tuple((n,) for n in neighbours(c, 3, 3)), 1, 1)
                                            for c in board(3, 3))),
    "counts alone: odd ones": _odd_counts(),
    "most queens attacking at most one other, blocking": ConstraintModel(
        4, 4, board(4, 4), (), counts=attacks(4, 4, 0, 1), objective=Objective("maximise", (board(4, 4),))),
    "queens attacking one or two, five of them": ConstraintModel(
        3, 4, board(3, 4), (), size=5, counts=attacks(3, 4, 1, 2)),
    "rooks with a cover, a fixed piece, clauses and counts": _rooks_with_everything(),
    "cells a fixed piece clears": _cleared_by_the_fixed_piece(),
    "fewest kings dominating, with clauses (objective)": ConstraintModel(
        3, 3, board(3, 3), (), covers=tuple((c, *neighbours(c, 3, 3)) for c in board(3, 3)),
        clauses=(Clause(present=((0, 0), (2, 2))), Clause(absent=((1, 1),))),
        objective=Objective("minimise", (board(3, 3),))),
    "fewest independent kings dominating (minimise)": ConstraintModel(
        2, 4, board(2, 4), (), covers=tuple((c, *neighbours(c, 2, 4)) for c in board(2, 4)), minimise=True,
        counts=tuple(CountIf(c, tuple((n,) for n in neighbours(c, 2, 4)), 0, 0) for c in board(2, 4))),
    "two halves maximised, downward closed": ConstraintModel(
        2, 4, board(2, 4), (columns_of(2, 4),), clauses=(Clause(absent=((0, 0), (1, 3))),),
        counts=(CountIf((0, 1), (((1, 0), (1, 2)), ((0, 2),), ((0, 3),)), 0, 1),),
        objective=Objective("maximise", _halves(board(2, 4)))),
    "two halves minimised, a clause asking for a piece": ConstraintModel(
        3, 4, board(3, 4), (columns_of(3, 4),), clauses=(Clause(present=((0, 0), (2, 1))), Clause(present=((1, 3),))),
        counts=(CountIf((1, 3), (((0, 3),), ((2, 3),), ((1, 2), (1, 1))), 1, 1),),
        objective=Objective("minimise", _halves(board(3, 4)))),
    "one group maximised, not downward closed": ConstraintModel(
        3, 3, board(3, 3), (rows_of(3, 3, 0), columns_of(3, 3)),
        counts=(CountIf((1, 1), (((0, 0),), ((2, 2),), ((0, 2), (2, 0))), 1, 2),),
        objective=Objective("maximise", (board(3, 3),))),
    "two armies seeing each other (numbered variables)": _two_armies(),
    "no solution: a cell both empty and held": ConstraintModel(
        1, 5, board(1, 5), (), clauses=(Clause(present=((0, 0),)), Clause(absent=((0, 0), (0, 4)))),
        counts=(CountIf((0, 4), (((0, 1),), ((0, 2), (0, 3))), 2, 2),), fixed=frozenset({(0, 4)}), size=2),
}


@cache
def random_model(seed: int) -> ConstraintModel:
    """10 to 14 variables with random clauses and counts, and at random lines, a cover, a fixed
    cell, and a size, the fewest pieces or an objective (one group or two)."""
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 5), (2, 6), (3, 4), (2, 7)])
    cells = board(rows, cols)

    def some(k: int) -> tuple[Cell, ...]:
        return tuple(rng.sample(cells, k))

    families = []
    if rng.random() < 0.4:
        families.append(rows_of(rows, cols, rng.randint(0, 1)))
    if rng.random() < 0.4:
        families.append(columns_of(rows, cols, at_most=rng.randint(1, 2)))
    clauses = tuple(Clause(present=some(rng.randint(0, 2)), absent=some(rng.randint(1, 2)))
                    for _ in range(rng.randint(0, 4)))
    counts = tuple(CountIf(rng.choice(cells), tuple(some(rng.randint(0, 3)) for _ in range(rng.randint(1, 4))),
                           *sorted((rng.randint(0, 3), rng.randint(0, 3)))) for _ in range(rng.randint(1, 4)))
    model = ConstraintModel(rows, cols, cells, tuple(families), clauses=clauses, counts=counts,
                            covers=(some(3),) if rng.random() < 0.2 else (),
                            fixed=frozenset(some(1)) if rng.random() < 0.2 else frozenset())
    goal = rng.choice(["size", "none", "fewest", "one group", "two groups"])
    if goal == "size":
        return model.with_size(rng.randint(2, 5))
    if goal == "fewest":
        return replace(model, minimise=True)
    if goal == "one group":
        return replace(model, objective=Objective(rng.choice(["maximise", "minimise"]), (cells,)))
    if goal == "two groups":
        return replace(model, objective=Objective(rng.choice(["maximise", "minimise"]), _halves(cells)))
    return model


SEEDS = range(30)


# --- the oracle's answers ------------------------------------------------------------------------
solutions = cache(model_oracle.solutions)
"""Every solution of a model, once per model (16 variables take the brute force a second)."""


@cache
def best(model: ConstraintModel) -> tuple[int | None, frozenset[frozenset[Var]]]:
    """The optimum and the optimal solutions (every solution when the model has no goal)."""
    found = solutions(model)
    if model.objective is None and not model.minimise:
        return None, frozenset(found)
    value = model_oracle.optimum(model)
    if model.objective is None:
        return value, frozenset(s for s in found if len(s) == value)
    return value, frozenset(s for s in found if model_oracle.value(model, s) == value)


# --- every backend, in every setting -------------------------------------------------------------
def _settings() -> Iterator[tuple[str, str, dict[str, str]]]:
    for name in BACKENDS:
        yield name, "default", {}
        try:
            declared = get_backend(name).settings
        except QueensError:  # not installed: its default is skipped with the reason
            continue
        yield from ((name, label, options) for label, options in declared)


SETTINGS = {f"{name} {label}": (name, options) for name, label, options in _settings()}


def engine_for(setting: str) -> Backend:
    name, options = SETTINGS[setting]
    try:
        return get_backend(name, **options)
    except BackendUnavailable as missing:
        pytest.skip(str(missing))


def refusal(engine: Backend, model: ConstraintModel) -> str | None:
    """Why `engine` cannot answer `model`, checked to be a sentence that names the clauses or
    counts when it takes the same model without them."""
    reason = engine.limits(model.rows, model.cols, Task.SOLVE) or engine.supports(model)
    if reason is None:
        return None
    assert reason.strip()
    if engine.supports(replace(model, clauses=(), counts=())) is None:
        assert re.search("clause|count", reason), reason
    return reason


def agrees(engine: Backend, model: ConstraintModel) -> None:
    """`engine`'s answers to `model` are the oracle's: its optimum (or one solution, or none),
    and where it enumerates, every optimal solution once and their number."""
    value, expected = best(model)
    if model.objective is not None:
        reached = engine.optimise(model, None)
        assert reached.proved and reached.value == value
        assert reached.solution is None or frozenset(reached.solution) in expected
    elif model.minimise:
        fewest = engine.minimise(model, None)
        assert (None if fewest is None else len(fewest)) == value
        assert fewest is None or frozenset(fewest) in expected
    else:
        found = engine.find(model, None)
        assert (found is None) == (not expected)
        assert found is None or frozenset(found) in expected
    if engine.limits(model.rows, model.cols, Task.COUNT) is not None:
        return
    optimal, _ = optimal_model(engine, model, None)
    listed = [] if optimal is None else [frozenset(s) for s in engine.solutions(optimal, None)]
    assert len(listed) == len(set(listed)) and set(listed) == expected
    counted = None if optimal is None else engine.count(optimal, None)
    assert counted is None or counted == len(expected)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("setting", SETTINGS)
def test_each_backend_answers_as_the_oracle_or_says_what_it_lacks(setting: str, model: str) -> None:
    engine = engine_for(setting)
    assert 5 <= len(MODELS[model].cells) <= 16
    if refusal(engine, MODELS[model]) is None:
        agrees(engine, MODELS[model])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("setting", SETTINGS)
def test_random_models_agree_with_the_oracle(setting: str, seed: int) -> None:
    engine = engine_for(setting)
    if refusal(engine, random_model(seed)) is None:
        agrees(engine, random_model(seed))


@pytest.mark.parametrize("setting", SETTINGS)
def test_one_solution_per_symmetry_class_counts_the_same(setting: str) -> None:
    """Counting with lex-leader chains (`api.breaking`) beside clauses and counts: the chains'
    variables and the counts' are numbered apart, and the class sizes add up to the oracle's."""
    engine = engine_for(setting)
    model = MODELS["queens attacking one or two, five of them"]
    assert len(symmetry_group(model)) == 4
    chosen = breaking(engine, model, True)
    if chosen.orbits is None or engine.limits(model.rows, model.cols, Task.COUNT):
        assert chosen.note.strip()
        pytest.skip(chosen.note)
    weights = [chosen.orbits.size(s) for s in engine.solutions(chosen.model, None)]
    assert None not in weights
    assert sum(w for w in weights if w is not None) == len(solutions(model))


# --- the sat backend's own paths -----------------------------------------------------------------
@pytest.mark.parametrize("model", [*MODELS, *(f"random {seed}" for seed in SEEDS)])
def test_minicard_answers_as_the_oracle(model: str):
    """The native encoding (Minicard; the default to find one solution, not a declared setting)
    compiles the clauses and counts as CNF beside its cardinality constraints."""
    agrees(Sat(NATIVE), MODELS[model] if model in MODELS else random_model(int(model.split()[1])))


def test_counts_add_variables_that_enumeration_never_blocks():
    """A count's groups of several cells and its encoding add variables after the cells; the
    enumeration blocks the cells only, and still lists each placement once."""
    model = MODELS["queens attacking one or two, five of them"]
    engine = Sat("seqcounter")
    engine.model_size(model)
    assert isinstance(engine.stats["auxiliary"], int) and engine.stats["auxiliary"] > 0
    listed = list(engine.solutions(model, None))
    assert len(listed) == len(set(listed)) == len(solutions(model))


def test_a_bound_of_one_encoding_refuses_a_count_of_two_and_the_default_falls_back():
    model = MODELS["queens attacking one or two, five of them"]
    for encoding in sorted(ONE_ONLY):
        reason = Sat(encoding).supports(model)
        assert reason is not None and "attack counts" in reason and encoding in reason
        with pytest.raises(Unsupported, match="attack counts"):
            cnf(model, encoding)
    one = replace(model, counts=attacks(3, 4, 1, 1))
    assert all(Sat(encoding).supports(one) is None for encoding in ONE_ONLY)
    assert len(list(Sat().solutions(model, None))) == len(solutions(model))  # pairwise, seqcounter past one


# --- what is built on the CNF --------------------------------------------------------------------
def cnf_placements(model: ConstraintModel, encoding: str) -> Placements:
    """The placements of the DIMACS export, read back and enumerated on its board variables."""
    text = dimacs_of(model, encoding)
    clauses = [[int(x) for x in line.split()[:-1]] for line in text.splitlines() if line and line[0] not in "cp"]
    number = {variable(model, cell): cell for cell in board(model.rows, model.cols)}
    found: Placements = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            values = solver.get_model()
            placed = [number[v] for v in values if 0 < v <= len(number)]
            found.add(frozenset(placed))
            solver.add_clause([-v for v in values if abs(v) <= len(number)])
    return found


PLAIN = [name for name, model in MODELS.items() if not model.numbering and model.objective is None
         and not model.minimise]


@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if e not in ONE_ONLY] + ["pairwise"])
@pytest.mark.parametrize("model", PLAIN)
def test_the_dimacs_export_holds_the_solutions(model: str, encoding: str):
    if Sat(encoding).supports(MODELS[model]):
        with pytest.raises(Unsupported):
            dimacs_of(MODELS[model], encoding)
        return
    assert cnf_placements(MODELS[model], encoding) == set(solutions(MODELS[model]))


def opb_placements(text: str, model: ConstraintModel) -> Placements:
    """Every solution of an OPB file (with `min:`, every optimal one), enumerated by CP-SAT,
    as placements of the board's variables (the others are the groups' ORs: no duplicates)."""
    cp = cp_model.CpModel()
    x: dict[int, cp_model.IntVar] = {}
    objective = None
    header = re.search(r"#variable= (\d+)", text)
    assert header, "an OPB file declares its variables"
    declared = int(header.group(1))
    for line in text.splitlines():
        if line.startswith("*"):
            continue
        terms = [(int(k), int(v)) for k, v in re.findall(r"([+-]\d+) x(\d+)", line)]
        for _, v in terms:
            assert 1 <= v <= declared
            if v not in x:
                x[v] = cp.new_bool_var(f"x{v}")
        expr = sum(k * x[v] for k, v in terms)
        if line.startswith("min:"):
            objective = expr
            continue
        constraint = re.search(r"(>=|=) (-?\d+) ;$", line)
        assert constraint, line
        relation, bound = constraint.groups()
        cp.add(expr >= int(bound) if relation == ">=" else expr == int(bound))
    solver = cp_model.CpSolver()
    if objective is not None:
        cp.minimize(objective)
        if solver.solve(cp) != cp_model.OPTIMAL:
            return set()
        cp.clear_objective()
        cp.add(objective == round(solver.objective_value))
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    number = {variable(model, cell): cell for cell in model.cells}
    found: list[frozenset[Var]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(frozenset(number[v] for v, var in x.items() if v in number and self.boolean_value(var)))
    solver.solve(cp, Collect())
    assert len(found) == len(set(found))
    return set(found)


@pytest.mark.parametrize("model", [name for name, model in MODELS.items() if not model.numbering
                                   and model.objective is None])
def test_the_opb_export_holds_the_solutions(model: str):
    assert opb_placements(opb_of(MODELS[model]), MODELS[model]) == set(best(MODELS[model])[1])


def minizinc_placements(model: ConstraintModel, folder: Path) -> Placements:
    """Every solution MiniZinc finds in the export (`minizinc -a`), read from its output."""
    text, data = minizinc_of(model)
    (folder / "m.mzn").write_text(text)
    (folder / "m.dzn").write_text(data)
    run = subprocess.run(["minizinc", "-a", str(folder / "m.mzn"), str(folder / "m.dzn")], capture_output=True,
                         text=True, check=True, timeout=60)
    found: Placements = set()
    for block in run.stdout.split("----------")[:-1]:
        if "q = " in block:  # the row viewpoint: the column of each row's piece
            listed = re.search(r"q = \[(.*)\]", block)
            assert listed, block
            columns = [int(c) for c in listed.group(1).split(",")]
            found.add(frozenset(enumerate(columns)))
        else:
            rows = [row.split() for row in block.strip().splitlines()]
            found.add(frozenset((r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "Q"))
    return found


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="the minizinc tool is not installed")
@pytest.mark.parametrize("model", PLAIN)
def test_the_minizinc_export_holds_the_solutions(model: str, tmp_path: Path):
    assert minizinc_placements(MODELS[model], tmp_path) == set(solutions(MODELS[model]))


def test_the_conflict_graph_refuses_them(monkeypatch):
    import queens.solvers.formats.dimacs as export

    plain = lower  # what the exporter lowers with, before the stand-in
    monkeypatch.setattr(export, "lower", lambda puzzle: replace(plain(puzzle), clauses=(Clause(((0, 0),)),)))
    with pytest.raises(Unsupported, match="1 clauses"):
        export.dimacs_col(NQueens(4))


def test_no_solution_is_certified_and_a_solution_is_not(tmp_path: Path):
    """The model has no lines but an attack count of two: the proof's CNF needs a counter
    (pairwise writes bounds of one only), whatever its lines say."""
    certificate = certify_none(MODELS["no solution: a cell both empty and held"], proof_dir=tmp_path)
    assert certificate.proved and certificate.checked_by_both
    trusted = certificate.to_json()["trusted"]
    assert isinstance(trusted, dict) and trusted["cardinality"][0] == "seqcounter"
    with pytest.raises(NotProved):
        certify_none(MODELS["queens attacking one or two, five of them"])


@pytest.mark.parametrize("model", ["most queens attacking at most one other, blocking",
                                   "two halves minimised, a clause asking for a piece"])
def test_an_optimum_is_certified(model: str):
    value, optimal = best(MODELS[model])
    assert value is not None
    witness = tuple(sorted(next(iter(optimal))))

    def check(found: Sequence[Var]) -> None:
        assert model_oracle.holds(MODELS[model], frozenset(found))
    certificate = certify_optimum(MODELS[model], witness, value, check)
    assert certificate.proved and certificate.value == value


def test_why_not_finds_a_minimal_set_of_clauses():
    """Which of a model's clauses and counts make it impossible, through the CNF's cores."""
    base = MODELS["counts alone: each king touches exactly one other"]
    givens: list[Clause | CountIf] = [*sight_clauses(3, 3)[:6], Clause(present=((1, 1),)), Clause(present=((0, 0),)),
                                      *base.counts[:2]]

    def build(subset: Sequence[Clause | CountIf]) -> ConstraintModel:
        return replace(base, clauses=tuple(g for g in subset if isinstance(g, Clause)),
                       counts=tuple(g for g in subset if isinstance(g, CountIf)))
    answer = why_not(givens, build)
    assert not solutions(build(list(answer.subset)))
    for i in range(len(answer.subset)):
        assert solutions(build([*answer.subset[:i], *answer.subset[i + 1:]]))
