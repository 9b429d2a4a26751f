"""A race, for puzzles whose structure leaves the measured order unsure: the two or three most
promising strategies run side by side, one process each, and the first complete answer wins.

The router's order (`queens.solvers.routing.router.PREFERENCE`) and the backends' `worth` are
measurements, and for most structures one strategy wins by a wide margin at every size. For a few
the winner changes with the size, or with nothing the structure shows, by factors no order can
hide (issue 37, measured in experiments/results/published.md, "Default against the fastest
backend"):

- **bounds on attacks under a goal** ("the most queens attacking at most one other", A260113,
  and "exactly three", A051756): CP-SAT proves some sizes first and finds no proof of others
  within minutes, where sat proves them in seconds;
- **armies that share lines, one of them under a goal** ("the most safe squares with one queen":
  a queen army and an army of pieces that must stand where the queen does not attack): the
  router's measured rules send it to native (CP-SAT is not worth it where armies share lines:
  peaceable queens, whose armies are all under the goal, are sat's by far, frontier.md), and
  native finds no proof where CP-SAT and mip answer at once;
- **the fewest pieces that cover a board** (domination, total knight domination A261752): the
  winner moves between native, sat and mip from one n to the next (frontier.md's γ(Q_n) rows),
  and mip proves A261752 far ahead of the order's first choice.

Each `Doubt` reads the structure (never a family's name) and lists its contenders, most promising
first; the race takes those that support the puzzle, no more than the cores (`entries`: each
racer then has a core to itself, and its threads are set to its share), but at least 2, at most
`RACERS`. Starting and stopping the racers costs a fraction of a second (the start-up measured
beside the table), which is why the router races only where it is unsure.

The racers are forked worker processes (`queens.solvers.runtime.process_pool`, which kills them
all on any exception in the parent, and at the deadline): the first complete answer raises
`_Won` out of the pool's `finished` hook, and the others are stopped there. Their effort goes into
the answer's `stats`: who raced, how long each ran and how it ended, and the CPU seconds of all of
them together.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from queens.models import QueensError
from queens.solvers.backend import Task, deadline_after
from queens.solvers.options import Options
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategies import registered
from queens.solvers.routing.strategy import Strategy, Subject
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.deadline_child import SLACK
from queens.solvers.runtime.forking import may_fork
from queens.solvers.runtime.process_pool import run_in_processes

RACERS = 3
"""At most this many strategies race (the measured contenders never needed more), and no more
than the cores, but at least 2: `entries`."""
COMPLETE = frozenset({Status.SOLVED, Status.OPTIMAL, Status.INFEASIBLE, Status.COMPLETE})
"""Statuses that end a race: an answer with its proof, not one stopped by the time limit."""


@dataclass(frozen=True)
class Doubt:
    """A structure on which the measured order is unsure: its name in words, the test that reads
    it from the puzzle and its model, the tasks it concerns, and the contenders, most promising
    first (the strategies measured to win on some of its sizes)."""

    words: str
    applies: Callable[[Subject], bool]
    tasks: frozenset[Task]
    contenders: tuple[str, ...]


def _optimises(subject: Subject) -> bool:
    model = subject.model
    return model.objective is not None or model.minimise


def _minimises(subject: Subject) -> bool:
    """The fewest pieces: one army's size (`minimise`) or an objective over armies' sizes."""
    model = subject.model
    return model.minimise or (model.objective is not None and model.objective.sense == "minimise")


DOUBTS: tuple[Doubt, ...] = (
    Doubt("bounds on attacks under a goal",
          lambda s: bool(s.puzzle.attack_bounds) and _optimises(s),
          frozenset({Task.OPTIMISE}), ("sat/search", "cpsat/search", "mip/search")),
    Doubt("armies that share lines, one of them under a goal",
          lambda s: s.model.objective is not None and len(s.model.objective.groups) == 1 and bool(s.model.bicliques),
          frozenset({Task.OPTIMISE}), ("cpsat/search", "sat/search", "mip/search")),
    Doubt("the fewest pieces that cover the board",
          lambda s: _minimises(s) and bool(s.model.covers),
          frozenset({Task.OPTIMISE}), ("sat/search", "mip/search", "native/search")),
)
"""The structures the measurements left unsure (see the module docstring), first match wins."""


class _Won(Exception):
    """Raised out of the pool's `finished` hook by the first complete answer: the pool then
    kills the other racers (`run_in_processes` does on any exception)."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


@dataclass(frozen=True)
class Race(Strategy):
    """The strategies in `racers` side by side; the answer is the first complete one, named by
    its own backend and method (the router keeps them), with the race's effort in `stats`."""

    racers: tuple[Strategy, ...] = ()

    @property
    def name(self) -> str:
        return "a race of " + ", ".join(racer.name for racer in self.racers)

    def supports(self, subject: Subject, task: Task) -> str | None:
        return None

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        return race(self.racers, subject, task, time_limit, options)


def doubt(subject: Subject, task: Task) -> Doubt | None:
    """The structure that makes the measured order unsure for `subject` and `task`, or None (also
    in a daemonic process, the explorer's workers: it may start no racers)."""
    if subject.modelled or not may_fork():  # open copies: no one model to read
        return None
    return next((d for d in DOUBTS if task in d.tasks and d.applies(subject)), None)


def entries() -> int:
    """How many may race here: `RACERS`, or the cores when fewer (each racer then has one to
    itself, so the winner runs at its own speed), but at least 2."""
    return max(2, min(RACERS, default_threads()))


def racers(subject: Subject, task: Task, options: Options, found: Doubt) -> tuple[Strategy, ...]:
    """The doubt's contenders that support the puzzle and take the options, at most `entries()`."""
    by_name = {strategy.name: strategy for strategy in registered()}
    taking = []
    for name in found.contenders:
        strategy = by_name.get(name)
        if strategy is None or task not in strategy.tasks or strategy.supports(subject, task) is not None:
            continue
        if not frozenset(options) <= strategy.options():
            continue
        try:
            strategy.check(options)
        except QueensError:
            continue
        taking.append(strategy)
    return tuple(taking[:entries()])


def race(entrants: Sequence[Strategy], subject: Subject, task: Task, time_limit: float | None,
         options: Options) -> Result:
    """Run `entrants` side by side until one gives a complete answer (see the module docstring);
    at the deadline, the best of what they had (`_best_stopped`)."""
    deadline = deadline_after(time_limit)
    start, cpu = time.perf_counter(), _children_cpu()
    ended: dict[int, tuple[Result | None, str, float]] = {}

    def finished(index: int, outcome: tuple[Result | None, str]) -> None:
        ended[index] = (*outcome, time.perf_counter() - start)
        if outcome[0] is not None and outcome[0].status in COMPLETE:
            raise _Won(index)

    # the racers stop themselves SLACK before the deadline, each with what it had (the best found,
    # the bound); one that does not is killed a little later, and still before the process this
    # race runs in would be (`queens.solvers.api.with_deadline` kills it SLACK after the deadline)
    stop = None if deadline is None else deadline - SLACK
    given = None if stop is None else max(0.001, stop - time.monotonic())
    share = max(1, default_threads() // len(entrants))
    jobs = [(entrant.name, subject, task, given, _sharing(entrant, options, share)) for entrant in entrants]
    winner = None
    try:
        run_in_processes(_run_racer, jobs, workers=len(jobs), deadline=stop, finished=finished, start="fork")
    except _Won as won:
        winner = won.index
    effort = _effort(entrants, ended, winner, time.perf_counter() - start, _children_cpu() - cpu)
    if winner is not None:
        result = ended[winner][0]
        assert result is not None  # a winner has its answer
        return replace(result, stats={**result.stats, **effort})
    return _best_stopped(entrants, subject, ended, effort, time.perf_counter() - start)


def _sharing(entrant: Strategy, options: Options, share: int) -> Options:
    """The options a racer runs with: the user's, and its share of the cores as its threads (a
    racer that took them all would slow the others: CP-SAT takes every core by default, sat
    splits a hard question of armies over them)."""
    given = options.copy()
    if "workers" in entrant.options() and "workers" not in given:
        given["workers"] = share
    if "threads" in entrant.options() and "threads" not in given:
        given["threads"] = share
    return given


def _run_racer(name: str, subject: Subject, task: Task, time_limit: float | None,
               options: Options) -> tuple[Result | None, str]:
    """One racer, in its worker process: its answer, or why it has none (an error is an outcome
    here, so that it stops no other racer)."""
    strategy = next(s for s in registered() if s.name == name)
    try:
        return strategy.run(subject, task, time_limit, options), ""
    except QueensError as error:
        return None, str(error) or type(error).__name__


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (the racers, once the pool has reaped them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _effort(entrants: Sequence[Strategy], ended: dict[int, tuple[Result | None, str, float]],
            winner: int | None, seconds: float, cpu: float) -> dict[str, int | float | str]:
    """The race in `stats`: who raced, how each ended, the CPU seconds of all of them."""
    said = []
    for index, entrant in enumerate(entrants):
        if index == winner:
            said.append(f"{entrant.name} answered first, in {ended[index][2]:.2f} s")
        elif index not in ended:
            said.append(f"{entrant.name} stopped after {seconds:.2f} s without an answer")
        elif ended[index][0] is None:
            said.append(f"{entrant.name} failed after {ended[index][2]:.2f} s: {ended[index][1]}")
        else:
            result = ended[index][0]
            assert result is not None
            said.append(f"{entrant.name} ended '{result.status.value}' after {ended[index][2]:.2f} s")
    return {"race": ", ".join(entrant.name for entrant in entrants), "race_effort": "; ".join(said),
            "race_cpu_s": round(cpu, 3)}


def _best_stopped(entrants: Sequence[Strategy], subject: Subject,
                  ended: dict[int, tuple[Result | None, str, float]], effort: dict[str, int | float | str],
                  seconds: float) -> Result:
    """No racer finished: the best answer stopped by the time limit (the best value found, for
    the goal's sense; else the most solutions counted), or, when none stopped in time, a LIMIT
    answer naming the race itself."""
    stopped = [(index, outcome[0]) for index, outcome in sorted(ended.items()) if outcome[0] is not None]
    if not stopped:
        errors = [outcome[1] for outcome in ended.values() if outcome[1]]
        if errors and len(errors) == len(entrants):
            raise QueensError("every strategy of the race failed: " + "; ".join(errors))
        return Result("race", Status.LIMIT, wall_time=seconds, stats=effort,
                      method=" vs ".join(entrant.name for entrant in entrants))
    puzzle = subject.puzzle
    maximise = puzzle.total == "maximise" or any(army.goal == "maximise" for army in puzzle.armies)

    def value(pair: tuple[int, Result]) -> tuple[int, float, int]:
        result = pair[1]
        if result.objective is None:
            return (0, 0.0, -pair[0]) if result.count is None else (1, float(result.count), -pair[0])
        return (2, result.objective if maximise else -result.objective, -pair[0])
    _, best = max(stopped, key=value)
    return replace(best, stats={**best.stats, **effort})
