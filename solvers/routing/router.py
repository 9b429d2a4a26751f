"""The router: for a task and a puzzle, the best registered strategy that can answer it.

Strategies are asked in the measured order below (docs/measurements.md, "Defaults, chosen by measurement");
the first that supports the puzzle answers, and the answer says which strategy it was and why.
`backend` and `method` only narrow the choice; when nothing is left, the refusal names every
reason, and a puzzle that only the missing C extensions could answer says how to build them.

>>> from queens.models import Completion
>>> choice = route(Task.SOLVE, Subject(Completion(1000, [(0, 0), (1, 2)])))
>>> choice.strategy.name
'native/complete'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Unpack

from queens.models import NativeMissing, Placement, Puzzle, TimeLimit
from queens.models.errors import BadOption, Refused
from queens.models.lowering import no_room
from queens.solvers.api import Chosen, puzzle_argument, solutions, with_deadline
from queens.solvers.backend import Task, deadline_after
from queens.solvers.native import REBUILD
from queens.solvers.options import EVERY_OPTION, Options, checked, refuse_renamed, search_options
from queens.solvers.registry import BACKENDS
from queens.solvers.result import Result, Status
from queens.solvers.routing.race import Race, doubt, racers
from queens.solvers.routing.strategies import registered, unasked
from queens.solvers.routing.strategy import Strategy, Subject
from queens.solvers.runtime.progress import report

PREFERENCE: dict[Task, tuple[str, ...]] = {
    Task.COUNT: ("python/pigeonhole", "native/quadrant", "native/classes", "native/search", "native/layouts",
                 "sat/layouts", "sat/split", "sat/search", "csp/layouts", "csp/split", "csp/search", "cpsat/layouts",
                 "cpsat/split", "cpsat/search"),
    Task.SOLVE: ("python/pigeonhole", "python/construct", "native/complete", "cpsat/search", "native/search",
                 "sat/search", "csp/search"),
    Task.COMPLETE: ("python/pigeonhole", "native/complete", "cpsat/search", "native/search", "sat/search",
                    "csp/search"),
    Task.OPTIMISE: ("python/pigeonhole", "cpsat/search", "native/search", "sat/search", "csp/search", "cpsat/copies",
                    "sat/copies", "native/copies", "csp/copies"),
    Task.ENUMERATE: ("native/search", "cpsat/search", "sat/search", "csp/search"),
}
"""Strategies in the order the router tries them, fastest first as measured
(experiments/results/defaults.md, design-choices.md): counting Q(12), sat splits fastest, then
csp, then cpsat; finding, cpsat's Boolean model without presolve is the fastest backend. Pawns
the solver places are counted layout by layout before the whole model, on each backend (n + 1
queens and a pawn, A103330: the layouts are many times faster than a search of the whole
model); finding, the whole model is the faster (the early layouts have no solution). The fewest
copies (colourings), proved: cpsat first, then sat (faster on queen9_9, none on queen10_10),
then native. A registered strategy missing here is tried after these, in registry order (a new
backend needs no edit). The pigeonhole comes first: it reads the puzzle's numbers only, and
answers what no search should be asked (more pieces than cells)."""


@dataclass(frozen=True)
class Choice:
    strategy: Strategy
    why: str


def candidates(task: Task, backend: str | None = None, method: str | None = None,
               options: frozenset[str] = frozenset()) -> list[Strategy]:
    """The strategies answering `task`, in preference order, narrowed by backend, method and the
    options given (a --viewpoint narrows to the backends that take one). Given options, every
    candidate is asked which it takes, importing its backend: `route` asks lazily instead."""
    return list(_taking(_narrowed(task, backend, method), options))


def _narrowed(task: Task, backend: str | None, method: str | None) -> list[Strategy]:
    """The strategies answering `task`, in preference order, that `backend` and `method` leave."""
    if backend is not None and (not isinstance(backend, str)  # a list is no name, and no key of BACKENDS
                                or backend not in BACKENDS and not any(s.backend == backend for s in registered())):
        raise BadOption(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    refuse_renamed("method", method)
    order = PREFERENCE.get(task, ())
    ranked = sorted((s for s in registered() if task in s.tasks),
                    key=lambda s: order.index(s.name) if s.name in order else len(order))
    narrowed = [s for s in ranked if backend in (None, s.backend) and method in (None, s.method)]
    if not narrowed:
        asked = " ".join(part for part in (backend and f"backend {backend}", method and f"method {method}") if part)
        raise BadOption(f"no strategy {task.value}s with {asked}; "
                        f"choose from {', '.join(s.name for s in ranked)}")
    return narrowed


def ignores_options(strategy: Strategy) -> bool:
    """Whether `strategy` takes every option because it searches nothing (the pigeonhole's
    count): it answers whatever options are given, but its taking them says nothing about
    whether they apply, so an option no other strategy takes is still refused."""
    return strategy.options() >= EVERY_OPTION


def _taking(narrowed: list[Strategy], options: frozenset[str] | Options) -> Iterator[Strategy]:
    """The strategies of `narrowed` that take these options, in order: by name, and when values
    are given (a dict) by value too (a --solver scip narrows to mip, glucose4 to sat).

    Lazily: a strategy is asked which options it takes (which imports its backend: a native
    count given --threads imported CP-SAT, python-sat and python-constraint and ran MiniZinc's
    look-up, most of its CPU: experiments/results/suite-time.md) only once those before it have
    been answered, and the router stops at the first that answers. The refusal when no strategy
    that searches takes the options still comes before the first strategy is given, so before
    any work: a name none takes as "not an option of", else each value's refusal in one line
    (strategies that refuse for the same reason, as both native counters do a --resume without
    a ledger, named together)."""
    names = frozenset(options)
    values = options if isinstance(options, dict) else None
    held: list[Strategy] = []  # strategies that search nothing: given once one that searches takes the options
    named = searching = False
    refusals: dict[str, list[str]] = {}
    for strategy in narrowed:
        if names and not names <= strategy.options():
            continue
        ignores = ignores_options(strategy)
        named = named or not ignores
        if values is not None:
            try:
                strategy.check(values)
            except BadOption as refusal:
                refusals.setdefault(str(refusal), []).append(strategy.name)
                continue
        if searching:
            yield strategy
        elif ignores:
            held.append(strategy)
        else:
            searching = True
            yield from held
            yield strategy
    if searching:
        return
    if not names:  # no options to refuse: those that search nothing answer or refuse the puzzle as the others do
        yield from held
        return
    if not named:
        raise BadOption(f"{', '.join(sorted(names))}: not an option of {', '.join(s.name for s in narrowed)}")
    raise BadOption("; ".join(f"{', '.join(strategies)}: {refusal}" for refusal, strategies in refusals.items()))


def route(task: Task, subject: Subject, backend: str | None = None, method: str | None = None,
          options: frozenset[str] | Options = frozenset()) -> Choice:
    """The first strategy that supports `subject` for `task` (see the module docstring); option
    values (a dict) are checked by each candidate before the puzzle is looked at. A choice is
    "asked for" when `backend` and `method` leave one strategy."""
    narrowed = _narrowed(task, backend, method)
    asked = len(narrowed) == 1
    refused: list[tuple[Strategy, str]] = []
    unrelated: list[tuple[Strategy, str]] = []  # methods for other kinds of puzzle: said only if all are
    spare: Strategy | None = None
    for strategy in _taking(narrowed, options):
        reason = (None if backend else unasked(strategy)) or strategy.supports(subject, task)
        if reason is not None:
            if strategy.relevant(subject, task):
                refused.append((strategy, reason))
            else:
                unrelated.append((strategy, reason))
        elif asked or strategy.worth(subject):
            return Choice(strategy, _why(strategy, refused, asked))
        elif spare is None:
            spare = strategy
    if spare is not None:
        return Choice(spare, _why(spare, refused, False))
    refused = refused or unrelated
    by_reason: dict[str, list[str]] = {}
    for strategy, reason in refused:
        by_reason.setdefault(reason, []).append(strategy.name)
    reasons = "; ".join(f"{', '.join(names)}: {reason}" for reason, names in by_reason.items())
    if all(REBUILD in reason for _, reason in refused):
        raise NativeMissing(refused[0][1])
    raise Refused(f"nothing here can {task.value} {subject.puzzle.name}: {reasons}", tuple(by_reason))


def _why(strategy: Strategy, refused: list[tuple[Strategy, str]], asked: bool) -> str:
    why = "asked for" if asked else strategy.why
    if refused:
        why += "; passed over " + "; ".join(f"{s.name} ({reason})" for s, reason in refused)
    return why


def answer(task: Task, puzzle: Puzzle, *, backend: str | None = None, method: str | None = None,
           time_limit: float | None = None, announce: Callable[[Choice], None] | None = None,
           **options: Unpack[Options]) -> Result:
    """Route and run: the answer of the best strategy, saying which and why; `announce(choice)`
    is called between the two (the CLI names the strategy before it works).

    The time limit covers both: choosing may lower the puzzle, which no clock interrupts
    (1000 x 1000 takes seconds), so with a limit both run in a child process killed a little
    after the deadline (`queens.solvers.api.with_deadline`). An answer the limit stopped names the
    strategy that was running (the child reports its choice, `queens.solvers.api.Chosen`) and
    the limit (`stats["time_limit"]`). Where the structure leaves the measured order unsure,
    the choice is a race (`racing`).

    >>> from queens.models import NQueens
    >>> found = answer(Task.COUNT, NQueens(8))
    >>> found.count, found.backend, found.method
    (92, 'native', 'classes')
    """
    puzzle, options = puzzle_argument(puzzle), checked(options)  # the API's boundary: said here, before any work
    deadline = deadline_after(time_limit)
    result = with_deadline(deadline, backend or "-", _answer, task, puzzle, backend, method, deadline, announce,
                           options, counting=task is Task.COUNT, method=method or "-")
    if result.status is Status.LIMIT and time_limit is not None:  # the limit that stopped it, said
        result = replace(result, stats={**result.stats, "time_limit": time_limit})
    if result.backend == "-":  # stopped before any strategy was chosen: lowering the puzzle to choose
        result = replace(result, backend="router", method="choosing",
                         stats={**result.stats, "stopped": "stopped while choosing a strategy (the puzzle was "
                                                          "being read and lowered)"})
    return result


def _answer(task: Task, puzzle: Puzzle, backend: str | None, method: str | None, deadline: float | None,
            announce: Callable[[Choice], None] | None, options: Options) -> Result:
    subject = Subject(puzzle)
    choice = route(task, subject, backend, method, options.copy())
    if backend is None and method is None:
        choice = racing(choice, task, subject, options)
    report(Chosen(backend=choice.strategy.backend, method=_method(choice.strategy), why=choice.why))
    if announce is not None:
        announce(choice)
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and left <= 0:  # choosing took the whole time
        return Result(choice.strategy.backend, Status.LIMIT, count=0 if task is Task.COUNT else None,
                      method=choice.strategy.method, why=choice.why)
    return run(choice, subject, task, left, options)


def racing(choice: Choice, task: Task, subject: Subject, options: Options) -> Choice:
    """The choice, or a race (`queens.solvers.routing.race`) when the puzzle's structure leaves
    the measured order unsure and two or more of the measured contenders can answer it."""
    found = None if no_room(subject.puzzle) else doubt(subject, task)  # counting answered it: nothing to race
    if found is None:
        return choice
    entrants = racers(subject, task, options, found)
    if len(entrants) < 2:
        return choice
    names = ", ".join(entrant.name for entrant in entrants)
    why = (f"unsure on {found.words}: the fastest strategy changes with the size (experiments/results/published.md), "
           f"so the first complete answer of {names}, side by side")
    return Choice(Race("race", "race", frozenset({task}), why, racers=entrants), why)


def _method(strategy: Strategy) -> str:
    """What a stopped answer calls the method: a race names its racers."""
    return " vs ".join(r.name for r in strategy.racers) if isinstance(strategy, Race) else strategy.method


def task_of(puzzle: Puzzle) -> Task:
    """What answering a puzzle means: its optimum when it has a goal (the fewest pieces, armies'
    sizes, the fewest copies), else one solution."""
    return Task.OPTIMISE if puzzle.goal is not None or puzzle.copies_open else Task.SOLVE


def solve(puzzle: Puzzle, backend: str | None = None, *, method: str | None = None,
          time_limit: float | None = None, **options: Unpack[Options]) -> Result:
    """One answer to any puzzle, verified: its optimum with the proof when it has a goal, else a
    solution; by the strategy the CLI would pick (`backend` and `method` narrow the choice).

    >>> from queens.models import Completion
    >>> found = solve(Completion(1000, [(0, 0), (1, 2)]))
    >>> found.status.value, f"{found.backend}/{found.method}"
    ('solved', 'native/complete')
    """
    puzzle = puzzle_argument(puzzle)  # before its goal is read
    return answer(task_of(puzzle), puzzle, backend=backend, method=method, time_limit=time_limit, **options)


def optimise(puzzle: Puzzle, backend: str | None = None, *, method: str | None = None,
             time_limit: float | None = None, **options: Unpack[Options]) -> Result:
    """The optimum of a puzzle with a goal, with its proof (status OPTIMAL), or at the time
    limit the best found and the bound reached (`stats["bound"]`)."""
    return answer(Task.OPTIMISE, puzzle, backend=backend, method=method, time_limit=time_limit, **options)


def count(puzzle: Puzzle, backend: str | None = None, *, method: str | None = None,
          time_limit: float | None = None, **options: Unpack[Options]) -> Result:
    """How many solutions (optimal ones, when the puzzle has a goal), by the fastest exact
    strategy; `unique=True` counts symmetry classes too (`stats`).

    >>> from queens.models import NQueens
    >>> count(NQueens(8)).count
    92
    """
    return answer(Task.COUNT, puzzle, backend=backend, method=method, time_limit=time_limit, **options)


def all_optimal(puzzle: Puzzle, backend: str | None = None, *, method: str | None = None,
                time_limit: float | None = None, **options: Unpack[Options]) -> Result:
    """Every optimal placement of a puzzle with a goal (`every_answer`); a puzzle without a goal
    is refused at once (it has no optimum to list)."""
    if puzzle_argument(puzzle).goal is None:
        raise BadOption(f"--all-optimal lists the optima of a puzzle with a goal; {puzzle.name} has none "
                        "(count its solutions instead)")
    return every_answer(puzzle, backend, method=method, time_limit=time_limit, **options)


def every_answer(puzzle: Puzzle, backend: str | None = None, *, method: str | None = None,
                 time_limit: float | None = None, **options: Unpack[Options]) -> Result:
    """Every answer, each verified: the optimal placements of a puzzle with a goal, every
    solution of one without, on the backend the router picks for enumerating (`count` is how
    many; at the time limit, those found so far). A search over models is refused at once."""
    puzzle, options = puzzle_argument(puzzle), checked(options)
    refusal = Subject(puzzle).modelled
    if refusal:
        raise BadOption(f"--all-optimal lists one model's optima; here {refusal}")
    choice = route(Task.ENUMERATE, Subject(puzzle), backend, method or "search", options.copy())
    start = time.perf_counter()
    found: list[Placement] = []
    status = Status.COMPLETE
    try:
        for placement in solutions(puzzle, choice.strategy.backend, time_limit=time_limit, **search_options(options)):
            found.append(placement)
    except TimeLimit:
        status = Status.LIMIT
    value = None if not found or puzzle.goal is None else min(
        len(cells) for army, cells in zip(puzzle.armies, puzzle.per_army(found[0]), strict=True) if army.goal)
    return Result(choice.strategy.backend, status, tuple(found), count=len(found), objective=value,
                  wall_time=time.perf_counter() - start, method=choice.strategy.method, why=choice.why, puzzle=puzzle)


def run(choice: Choice, subject: Subject, task: Task, time_limit: float | None,
        options: Options) -> Result:
    """Run the chosen strategy; its result names the strategy and why it was chosen (a race's,
    the racer that answered)."""
    result = choice.strategy.run(subject, task, time_limit, options.copy())
    if isinstance(choice.strategy, Race):
        return replace(result, why=choice.why, puzzle=subject.puzzle)
    return replace(result, backend=choice.strategy.backend, method=choice.strategy.method, why=choice.why,
                   puzzle=subject.puzzle)
