"""The router: for a task and a puzzle, the best registered strategy that can answer it.

Strategies are asked in the measured order below (README, "Defaults, chosen by measurement");
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Unpack

from queens.models import NativeMissing, Puzzle
from queens.models.errors import BadOption, Refused
from queens.solvers.api import within
from queens.solvers.backend import Task, deadline_after
from queens.solvers.native import REBUILD
from queens.solvers.options import Options
from queens.solvers.result import Result, Status
from queens.solvers.strategies import STRATEGIES
from queens.solvers.strategy import Strategy, Subject

PREFERENCE: dict[Task, tuple[str, ...]] = {
    Task.COUNT: ("native/quadrant", "native/fast", "native/search", "sat/split", "sat/search", "csp/split",
                 "csp/search", "cpsat/split", "cpsat/search"),
    Task.SOLVE: ("python/construct", "native/complete", "cpsat/search", "native/search", "sat/search", "csp/search"),
    Task.COMPLETE: ("native/complete", "cpsat/search", "native/search", "sat/search", "csp/search"),
    Task.OPTIMISE: ("cpsat/search", "native/search", "sat/search", "csp/search"),
    Task.ENUMERATE: ("native/search", "cpsat/search", "sat/search", "csp/search"),
}
"""Strategies in the order the router tries them, fastest first as measured: counting Q(12),
sat splits in 0.7 s, csp in 1.1 s, cpsat in 2.7 s; finding, cpsat's Boolean model without
presolve is the fastest backend (n = 200: 0.5 s). A registered strategy missing here is tried
after these, in registry order (a new backend needs no edit)."""


@dataclass(frozen=True)
class Choice:
    strategy: Strategy
    why: str


def candidates(task: Task, backend: str | None = None, method: str | None = None,
               options: frozenset[str] = frozenset()) -> list[Strategy]:
    """The strategies answering `task`, in preference order, narrowed by backend, method and the
    options given (a --viewpoint narrows to the backends that take one)."""
    order = PREFERENCE.get(task, ())
    ranked = sorted((s for s in STRATEGIES if task in s.tasks),
                    key=lambda s: order.index(s.name) if s.name in order else len(order))
    narrowed = [s for s in ranked if backend in (None, s.backend) and method in (None, s.method)]
    if not narrowed:
        asked = " ".join(part for part in (backend and f"backend {backend}", method and f"method {method}") if part)
        raise BadOption(f"no strategy {task.value}s with {asked}; "
                        f"choose from {', '.join(s.name for s in ranked)}")
    fitting = [s for s in narrowed if options <= s.options()] if options else narrowed  # options import backends
    if not fitting:
        raise BadOption(f"{', '.join(sorted(options))}: not an option of {', '.join(s.name for s in narrowed)}")
    return fitting


def route(task: Task, subject: Subject, backend: str | None = None, method: str | None = None,
          options: frozenset[str] | Options = frozenset()) -> Choice:
    """The first strategy that supports `subject` for `task` (see the module docstring); option
    values (a dict) are checked by each candidate before the puzzle is looked at."""
    tried = candidates(task, backend, method, frozenset(options))
    if isinstance(options, dict):
        for strategy in tried:
            strategy.check(options)
    refused: list[tuple[Strategy, str]] = []
    spare: Strategy | None = None
    for strategy in tried:
        reason = strategy.supports(subject, task)
        if reason is not None:
            refused.append((strategy, reason))
        elif len(tried) == 1 or strategy.worth(subject):
            return Choice(strategy, _why(strategy, refused, len(tried) == 1))
        elif spare is None:
            spare = strategy
    if spare is not None:
        return Choice(spare, _why(spare, refused, False))
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
    after the deadline (`queens.solvers.api.within`).

    >>> from queens.models import NQueens
    >>> found = answer(Task.COUNT, NQueens(8))
    >>> found.count, found.backend, found.method
    (92, 'native', 'fast')
    """
    deadline = deadline_after(time_limit)
    return within(deadline, backend or "-", _answer, task, puzzle, backend, method, deadline, announce, options,
                  counting=task is Task.COUNT, method=method or "-")


def _answer(task: Task, puzzle: Puzzle, backend: str | None, method: str | None, deadline: float | None,
            announce: Callable[[Choice], None] | None, options: Options) -> Result:
    subject = Subject(puzzle)
    choice = route(task, subject, backend, method, options.copy())
    if announce is not None:
        announce(choice)
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and left <= 0:  # choosing took the whole time
        return Result(choice.strategy.backend, Status.LIMIT, count=0 if task is Task.COUNT else None,
                      method=choice.strategy.method, why=choice.why)
    return run(choice, subject, task, left, options)


def run(choice: Choice, subject: Subject, task: Task, time_limit: float | None,
        options: Options) -> Result:
    """Run the chosen strategy; its result names the strategy and why it was chosen."""
    result = choice.strategy.run(subject, task, time_limit, options.copy())
    return Result(choice.strategy.backend, result.status, result.solutions, result.count, result.objective,
                  result.wall_time, result.stats, choice.strategy.method, choice.why, result.columns)
