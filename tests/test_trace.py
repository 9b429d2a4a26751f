"""The replayed search: its solutions are the solvers' solutions, and its steps are consistent."""

from __future__ import annotations

import json

import pytest
from queens.models import NQueens, Puzzle
from queens.models.domination import Domination
from queens.models.ninequeens import NineQueens
from queens.models.pieces import KNIGHT
from queens.solvers import count, solutions
from queens.solvers.learn.trace import STEPS, Trace, trace

from tests.cli import run_cli, run_main


@pytest.mark.parametrize("n", range(1, 8))
def test_full_search_finds_every_solution(n, reference):
    found = [e.placement for e in trace(NQueens(n)) if e.step == "solution"]
    assert len(found) == len(set(found)) == reference.term("A000170", n)
    assert set(found) == set(solutions(NQueens(n), "native"))


@pytest.mark.parametrize("puzzle", [
    pytest.param(NineQueens(5, [(2, 2)]), id="pawn"),
    pytest.param(Puzzle(rows=4, cols=4, piece=KNIGHT, pieces=6), id="knights-no-exactly-one-family"),
    pytest.param(Puzzle(rows=6, cols=6, pieces=6, fixed=frozenset({(0, 1)})), id="completion"),
])
def test_other_shapes_match_the_native_count(puzzle):
    assert sum(e.step == "solution" for e in trace(puzzle)) == count(puzzle, "native").count


def test_minimising_search_stops_at_the_optimum(reference):
    events = list(trace(Domination(4)))
    sizes = [e.size for e in events if e.step == "size"]
    assert sizes == list(range(reference.term("A075458", 4) + 1))
    assert sum(e.step == "solution" for e in events) == reference.term("A002564", 4)


def test_steps_are_consistent():
    search = Trace(NQueens(6))
    previous = None
    for event in search.events():
        assert event.step in STEPS
        assert event.depth == len(event.placement)
        if event.step == "conflict":
            assert event.attacker in event.placement and event.cell in search.attacked(event.placement)
        if event.step == "place":
            assert event.cell in event.placement
        if event.step == "backtrack":
            assert event.cell not in event.placement
        if previous is not None:
            assert event.nodes >= previous.nodes and event.solutions >= previous.solutions
        previous = event
    assert previous is not None and previous.backtracks == previous.nodes  # every placement is undone at the end


def test_max_solutions_stops_early():
    events = list(trace(NQueens(8), max_solutions=1))
    assert events[-1].step == "solution" and events[-1].solutions == 1
    assert json.loads(json.dumps(events[-1].to_json()))["placement"] == [list(c) for c in events[-1].placement]


def test_cli_log_for_pipes():
    result = run_main("trace", "nqueens", "-n", "4", "--no-animate")
    assert result.returncode == 0, result.stderr
    assert "conflict (1, 0): attacked by (0, 0)" in result.stdout
    assert "backtrack" in result.stdout and "solution 1: 0,1 1,3 2,0 3,2" in result.stdout
    assert ". Q . ." in result.stdout  # the board at the solution


def test_cli_animates_and_steps_and_says_no_solution():
    animated = run_main("trace", "nqueens", "-n", "4", "--animate", "--delay", "0")
    assert animated.returncode == 0 and "step" in animated.stdout and "~" in animated.stdout
    none = run_main("trace", "nqueens", "-n", "3", "--solutions", "0", "--no-animate")
    assert none.returncode == 0 and none.stdout.strip().endswith("3-queens: no solution")
    lines = run_main("trace", "nqueens", "-n", "4", "--json").stdout.splitlines()
    assert json.loads(lines[-1])["step"] == "solution"


def test_cli_step_waits_for_enter():
    run = run_cli("trace", "nqueens", "-n", "4", "--step", input="\n\n", timeout=60)
    assert run.returncode == 0
    assert "press Enter" in run.stderr and "step 1: place (0, 0)" in run.stdout
