"""Strategies and the router: capabilities read from structure, never from a family's name.

Grids are parametrised from the registries (families and their examples, backends), so a new
family or backend is tested here without editing this file; the throw-away family below proves it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from queens.models import PIECES, Completion, NQueens, Puzzle, lower
from queens.models.errors import BadOption, Refused
from queens.models.families import FAMILIES, Family, FamilyOptions, build
from queens.models.layouts import layout_form, layouts
from queens.models.outline import direct_outline, outline, outline_of
from queens.models.pieces import ROOK
from queens.models.verify_stream import verify_columns
from queens.solvers import BACKENDS, Status
from queens.solvers import count as count_target
from queens.solvers.backend import Task
from queens.solvers.routing.construct import construct
from queens.solvers.routing.router import answer, candidates, route
from queens.solvers.routing.strategies import registered
from queens.solvers.routing.strategy import Subject

from tests.cli import run_main
from tests.conftest import able

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = [pytest.param(name, label, options, id=f"{name}-{label}")
            for name, family in FAMILIES.items() for label, options in family.examples]
FIRST_EXAMPLES = [pytest.param(name, family.examples[0][1], id=name)
                  for name, family in FAMILIES.items() if family.examples]


def _puzzles(target):
    form, _ = layout_form(target)
    return [target] if form is None else [target, *(p for p, _ in layouts(form))]


@pytest.mark.parametrize("name,label,options", EXAMPLES)
def test_outline_without_lowering_equals_the_lowered_models(name, label, options):
    for puzzle in _puzzles(build(name, options)):
        assert outline(puzzle) == outline_of(lower(puzzle))


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), piece=st.sampled_from(sorted(PIECES)),
       data=st.data())
def test_outline_of_any_small_puzzle_equals_the_lowered_models(rows, cols, piece, data):
    pieces = data.draw(st.integers(0, rows * cols))
    fixed = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), max_size=1))
    puzzle = Puzzle(rows=rows, cols=cols, piece=PIECES[piece], pieces=max(pieces, len(fixed)), fixed=frozenset(fixed))
    direct = direct_outline(puzzle)
    assert direct is None or direct == outline_of(lower(puzzle))


def test_a_hand_written_puzzle_gets_the_completion_solver():
    """300 queens of a solution on 1000 x 1000, written as a plain Puzzle: no family name."""
    columns = construct(1000)
    assert columns is not None
    rows = np.random.default_rng(1).choice(1000, 300, replace=False)
    puzzle = Puzzle(rows=1000, cols=1000, pieces=1000, fixed=frozenset((int(r), int(columns[r])) for r in rows))
    found = answer(Task.SOLVE, puzzle)
    assert (found.backend, found.method, found.status) == ("native", "complete", Status.SOLVED)
    assert found.columns is not None and verify_columns(found.columns) == 1000
    assert all(found.columns[r] == c for r, c in puzzle.fixed)


def test_a_completion_past_the_native_search_limit_is_answered_by_default(tmp_path):
    path = tmp_path / "queens.txt"
    path.write_text("0 0\n1 2\n")
    result = run_main("solve", "completion", "-n", "200", "--queens", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert '"method": "complete"' in result.stdout


@pytest.mark.parametrize("puzzle,task,expected", [
    (NQueens(8), Task.COUNT, "native/classes"),
    (NQueens(8), Task.SOLVE, "python/construct"),
    (Completion(8, [(0, 0)]), Task.SOLVE, "native/complete"),
    (Completion(8, [(0, 0)]), Task.COUNT, "native/search"),
    (Puzzle(rows=8, cols=8, pieces=8, holes=frozenset({(0, 0)})), Task.SOLVE, "cpsat/search"),
    (Puzzle(rows=8, cols=8, piece=ROOK, pieces=8), Task.COUNT, "native/search"),
])
def test_the_router_chooses_by_structure(puzzle, task, expected):
    assert route(task, Subject(puzzle)).strategy.name == expected


@pytest.mark.parametrize("solver", ["scip", "highs"])
def test_an_option_value_goes_to_a_strategy_that_can_take_it(solver):
    """The mip backend runs both. Debian's MiniZinc lists scip but cannot load it, and lists no
    HiGHS, yet its strategy came first and took both: the solve then failed (exit 1)."""
    result = run_main("solve", "nqueens", "-n", "8", "--solver", solver, "--json")
    assert result.returncode == 0, result.stderr
    assert '"verified": true' in result.stdout


def test_an_option_value_no_strategy_takes_is_one_usage_line():
    result = run_main("solve", "nqueens", "-n", "8", "--solver", "no-such-solver")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "no-such-solver" in result.stderr


def test_a_strategy_that_searches_nothing_is_refused_for_the_puzzle_not_for_options():
    """Asked for alone and given no option, the pigeonhole refused ": not an option of
    python/pigeonhole" (an empty list of options) instead of saying why it cannot answer."""
    with pytest.raises(Refused) as refused:
        route(Task.COUNT, Subject(NQueens(8)), method="pigeonhole")
    assert refused.value.reasons == ("the pieces fit by count: a search must tell",)
    with pytest.raises(BadOption, match="^threads: not an option of python/pigeonhole$"):
        route(Task.COUNT, Subject(NQueens(8)), method="pigeonhole", options={"threads": 2})


def test_the_router_imports_only_the_backends_it_asks():
    """The options are asked of each strategy in the router's order, as far as the one that
    answers: a native count given --threads imported CP-SAT (and pandas with it), python-sat,
    python-constraint and MiniZinc's look-up of its solvers, most of its CPU
    (experiments/results/suite-time.md). Run in a fresh interpreter, where nothing is imported yet."""
    script = ("import sys; from queens.cli import main\n"
              "try: main(['count', 'nqueens', '-n', '10', '--threads', '2', '--json'])\n"
              "except SystemExit as done: assert not done.code, done.code\n"
              "print(sorted(m for m in ('ortools', 'pandas', 'pysat', 'constraint', 'minizinc') if m in sys.modules),"
              " file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(result.stdout)["count"] == 724
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_narrowing_refuses_with_every_reason():
    with pytest.raises(Refused) as refused:
        route(Task.COUNT, Subject(NQueens(1000)), backend="cpsat")
    assert refused.value.reasons == ("cpsat counts boards of at most 400 cells; 1000x1000 has 1,000,000",)


def test_every_task_has_a_strategy_and_every_backend_a_search():
    for task in Task:
        assert candidates(task)
    assert {s.backend for s in registered() if s.method == "search"} == set(BACKENDS)


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("name,options", FIRST_EXAMPLES)
def test_every_backend_on_every_family_agrees_with_native_or_says_why_not(name, options, backend):
    target = build(name, options)
    truth = count_target(target, "native", method="search")
    try:
        found = count_target(target, backend)
    except Refused as refusal:
        assert refusal.reasons and all(refusal.reasons)
        return
    assert (found.status, found.count) == (Status.COMPLETE, truth.count)


def test_no_module_outside_models_compares_a_family_name():
    names = "|".join(map(re.escape, FAMILIES))
    compared = re.compile(rf"""(==|!=|\bin\b)\s*[(\[{{]?\s*["']({names})["']|["']({names})["']\s*(==|!=)""")
    offenders = [f"{path.relative_to(REPO)}:{number}" for folder in ("queens", "solvers", "experiments")
                 for path in sorted((REPO / folder).rglob("*.py"))
                 for number, line in enumerate(path.read_text().splitlines(), 1) if compared.search(line)]
    assert offenders == []


def _hollow_rooks(options: FamilyOptions) -> Puzzle:
    return Puzzle(rows=options.n, cols=options.n, piece=ROOK, pieces=options.n, holes=frozenset({(0, 0)}),
                  title=f"{options.n} rooks avoiding a corner")


@pytest.fixture
def throwaway(monkeypatch):
    """A family added with one registry entry, as a user would add one."""
    monkeypatch.setitem(FAMILIES, "hollowrooks", Family(_hollow_rooks, "n rooks, the corner square blocked",
                                                        examples=(("n=4", FamilyOptions(4)),)))
    return sum(p[0] != 0 for p in permutations(range(4)))  # a rook per row, none on (0, 0): 18


def test_a_new_family_appears_in_the_cli_the_grid_and_explain(throwaway):
    counted = run_main("count", "hollowrooks", "-n", "4")
    assert counted.returncode == 0 and f": {throwaway} solutions" in counted.stdout
    assert "hollowrooks" in run_main("count", "--help").stdout
    explained = run_main("explain", "hollowrooks", "-n", "4")
    assert explained.returncode == 0 and "Who answers" in explained.stdout
    from queens.experiments.main_job import jobs

    grid = [target for label, target in jobs() if label.startswith("hollowrooks")]
    assert len(grid) == 1
    for backend in able(BACKENDS, Task.COUNT):
        assert count_target(grid[0], backend).count == throwaway
