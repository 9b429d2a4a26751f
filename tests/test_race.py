"""The router races where the structure leaves its measured order unsure (issue 37), and every
stopped answer names its strategy and the limit that stopped it.

The values are the repository's OEIS terms (tests/data/sequences.json) or a brute force written
here; the racers are the real backends, each answer re-checked by the independent checker.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from itertools import product
from multiprocessing.connection import Connection

import pytest
from queens.experiments.bench_published import SAFE_SQUARES  # issue 37's case, as the bench measures it
from queens.models import NQueens, TimeLimit
from queens.models.families import FamilyOptions, build
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.solvers import Result, Status
from queens.solvers.api import Chosen, with_deadline
from queens.solvers.backend import Task
from queens.solvers.learn.heat_map import heat_map
from queens.solvers.routing.race import Race, _best_stopped, _effort, doubt
from queens.solvers.routing.router import racing, route
from queens.solvers.routing.strategies import registered
from queens.solvers.routing.strategy import Subject
from queens.solvers.runtime.progress import report

import queens
from queens.commands.answer import answered_by
from tests.typed_results import number, text


def safest(n: int) -> int:
    """The most squares one queen leaves unattacked on n x n (its own square not counted), by
    trying every square: a brute force sharing nothing with the models."""
    def attacked(r: int, c: int) -> int:
        return sum(1 for a, b in product(range(n), repeat=2)
                   if (a, b) != (r, c) and (a == r or b == c or abs(a - r) == abs(b - c)))
    return max(n * n - 1 - attacked(r, c) for r, c in product(range(n), repeat=2))


def published(stem: str, n: int):
    return read(PUBLISHED / f"{stem}.toml", n).puzzle


def _chosen(puzzle, task=Task.OPTIMISE):
    subject = Subject(puzzle)
    return racing(route(task, subject), task, subject, {})


@pytest.mark.parametrize(("label", "puzzle", "first"), [
    ("A260113: bounds on attacks under a goal", published("A260113-attacking-at-most-one", 5), "sat/search"),
    ("A051756: bounds on attacks under a goal", published("A051756-attacking-exactly-three", 4), "sat/search"),
    ("safe squares: armies that share lines, one under a goal", loads(SAFE_SQUARES, 5).puzzle, "cpsat/search"),
    ("A261752: the fewest pieces that cover", published("A261752-total-knight-domination", 5), "sat/search"),
])
def test_the_router_races_where_the_structure_leaves_it_unsure(label: str, puzzle, first: str) -> None:
    choice = _chosen(puzzle)
    assert isinstance(choice.strategy, Race), label
    names = [racer.name for racer in choice.strategy.racers]
    assert names[0] == first and len(names) >= 2
    assert choice.why.startswith("unsure on ") and all(name in choice.why for name in names)


@pytest.mark.parametrize(("puzzle", "task", "expected"), [
    (NQueens(8), Task.COUNT, "native/classes"),
    (build("peaceable", FamilyOptions(5)), Task.OPTIMISE, "sat/search"),  # every army under the goal: sat's, measured
    (published("A033148-quarter-turn-queens", 8), Task.COUNT, None),
])
def test_the_router_does_not_race_where_it_is_sure(puzzle, task: Task, expected: str | None) -> None:
    choice = _chosen(puzzle, task)
    assert not isinstance(choice.strategy, Race)
    assert expected is None or choice.strategy.name == expected


def test_a_race_answers_with_its_winner_verified_and_the_others_effort(reference) -> None:
    """A260113 n = 5 by default: the optimum of the OEIS, named by the racer that proved it, and
    the race in stats (who raced, how each ended, their CPU seconds together)."""
    found = queens.optimise(published("A260113-attacking-at-most-one", 5))
    assert (found.status, found.objective) == (Status.OPTIMAL, reference.term("A260113", 5))
    raced = text(found.stats, "race").split(", ")
    assert f"{found.backend}/{found.method}" in raced and len(raced) >= 2
    assert all(name in text(found.stats, "race_effort") for name in raced)
    assert f"{found.backend}/{found.method} answered first" in text(found.stats, "race_effort")
    assert number(found.stats, "race_cpu_s") >= 0 and found.why.startswith("unsure on bounds on attacks")


@pytest.mark.parametrize("n", (4, 5, 6))
def test_the_safe_squares_race_reaches_the_brute_force(n: int) -> None:
    found = queens.optimise(loads(SAFE_SQUARES, n).puzzle)
    assert (found.status, found.objective) == (Status.OPTIMAL, safest(n))


def _doubted(sending: Connection) -> None:
    sending.send(doubt(Subject(published("A260113-attacking-at-most-one", 5)), Task.OPTIMISE) is None)


def test_no_race_in_a_daemonic_process_nor_on_a_search_over_models() -> None:
    """The explorer's workers are daemonic: they may start no racers (the choice runs alone)."""
    assert doubt(Subject(published("A260113-attacking-at-most-one", 5)), Task.OPTIMISE) is not None
    receiving, sending = multiprocessing.get_context("fork").Pipe(duplex=False)
    worker = multiprocessing.get_context("fork").Process(target=_doubted, args=(sending,), daemon=True)
    worker.start()
    assert receiving.recv() is True
    worker.join()
    colouring = build("colouring", FamilyOptions(4))
    assert doubt(Subject(colouring), Task.OPTIMISE) is None  # open copies: no one model


def test_the_effort_says_how_each_racer_ended() -> None:
    sat, cpsat, mip = (next(s for s in registered() if s.name == name) for name in ("sat/search", "cpsat/search",
                                                                                     "mip/search"))
    stopped = Result("mip", Status.LIMIT, objective=9, method="search")
    won = Result("sat", Status.OPTIMAL, objective=10, method="search")
    effort = _effort([sat, cpsat, mip], {0: (won, "", 1.5), 2: (stopped, "", 1.0)}, 0, 1.6, 2.5)
    assert effort["race"] == "sat/search, cpsat/search, mip/search"
    assert effort["race_effort"] == ("sat/search answered first, in 1.50 s; cpsat/search stopped after 1.60 s "
                                     "without an answer; mip/search ended 'time limit' after 1.00 s")
    assert effort["race_cpu_s"] == 2.5


def test_a_race_with_no_complete_answer_keeps_the_best_value_found() -> None:
    """At the time limit: the best value found for the goal's sense (A260113 maximises)."""
    puzzle = published("A260113-attacking-at-most-one", 8)
    sat, cpsat = (next(s for s in registered() if s.name == name) for name in ("sat/search", "cpsat/search"))
    low, high = (Result(b, Status.LIMIT, objective=v, method="search") for b, v in (("sat", 9), ("cpsat", 10)))
    best = _best_stopped([sat, cpsat], Subject(puzzle), {0: (low, "", 5.0), 1: (high, "", 5.0)}, {"race": "x"}, 5.0)
    assert (best.backend, best.objective, best.stats["race"]) == ("cpsat", 10, "x")
    nobody = _best_stopped([sat, cpsat], Subject(puzzle), {}, {"race": "x"}, 5.0)
    assert (nobody.backend, nobody.method, nobody.status) == ("race", "sat/search vs cpsat/search", Status.LIMIT)


def _chose_then_hung(read_end: int) -> Result:
    """Reports its choice, then waits on a pipe nobody writes: only the deadline's kill ends it."""
    report(Chosen(backend="cpsat", method="search", why="the measured order"))
    os.read(read_end, 1)
    raise AssertionError("the pipe is never written")


def test_a_child_killed_at_the_deadline_names_the_strategy_it_chose_and_the_limit() -> None:
    """Issue 37: "time limit by -/-". The router's child reports its choice (`Chosen`) before it
    works, so the answer of a child killed at the deadline still names it, and the limit."""
    read_end, write_end = os.pipe()
    try:
        result = with_deadline(time.monotonic() + 0.5, "-", _chose_then_hung, read_end, method="-")
    finally:
        os.close(read_end)
        os.close(write_end)
    assert (result.status, result.backend, result.method, result.why) == (
        Status.LIMIT, "cpsat", "search", "the measured order")
    assert result.stats["time_limit"] == 0.5 and "cpsat/search" in text(result.stats, "stopped")
    assert answered_by(result).startswith("cpsat/search, stopped by the 0.5 s time limit, in ")


def test_a_heat_map_stopped_by_the_limit_names_its_strategy_and_the_limit() -> None:
    """Issue 37: "stopped after 40960 solutions" said neither who stopped nor why."""
    with pytest.raises(TimeLimit) as stopped:
        heat_map(NQueens(14), time_limit=0.5)
    message = str(stopped.value)
    assert message.startswith("heat map: native/search stopped by the 0.5 s time limit after ")
    assert "solutions of 14-queens" in message
