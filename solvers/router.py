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

from dataclasses import dataclass

from queens.models import NativeMissing, Puzzle
from queens.models.errors import BadOption, Refused
from queens.solvers.backend import Task
from queens.solvers.native import REBUILD
from queens.solvers.result import Result
from queens.solvers.strategies import STRATEGIES
from queens.solvers.strategy import Strategy, Subject

PREFERENCE: dict[Task, tuple[str, ...]] = {
    Task.COUNT: ("native/fast", "native/search", "sat/split", "sat/search", "csp/split", "csp/search",
                 "cpsat/split", "cpsat/search"),
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
          options: frozenset[str] | dict[str, object] = frozenset()) -> Choice:
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
           time_limit: float | None = None, **options: object) -> Result:
    """Route and run: the answer of the best strategy, saying which and why.

    >>> from queens.models import NQueens
    >>> found = answer(Task.COUNT, NQueens(8))
    >>> found.count, found.backend, found.method
    (92, 'native', 'fast')
    """
    subject = Subject(puzzle)
    choice = route(task, subject, backend, method, dict(options))
    return run(choice, subject, task, time_limit, options)


def run(choice: Choice, subject: Subject, task: Task, time_limit: float | None,
        options: dict[str, object]) -> Result:
    """Run the chosen strategy; its result names the strategy and why it was chosen."""
    result = choice.strategy.run(subject, task, time_limit, dict(options))
    return Result(choice.strategy.backend, result.status, result.solutions, result.count, result.objective,
                  result.wall_time, result.stats, choice.strategy.method, choice.why, result.columns)
