"""Progress of long runs: the solvers report it, whoever shows it listens (the CLI, on stderr).

A count that takes minutes should say so from its first second: subproblems done out of how
many, solutions so far, time elapsed. The solvers know these numbers but print nothing (stdout
is for answers, and a library prints nothing), so they `report` them to the listeners that a
caller installed with `listening`; with none, reporting costs a look at an empty list. Loops
that wait (for a worker process, for a forked child) call `beat`, which hands the listeners the
last report again, so a display can show the time going by while nothing else changes.

A search running in a forked child (`queens.solvers.runtime.deadline_child`) has its reports sent to
its parent, where the parent's listeners get them.

>>> seen = []
>>> with listening(seen.append):
...     report(Progress(solutions=92))
>>> seen
[Progress(solutions=92, done=None, total=None, bound=None, resumed=0)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

EVERY = 0.25
"""Seconds between two reports from a loop that could report at every step (a solution found)."""


@dataclass(frozen=True)
class Progress:
    """What a long run has done so far; None where it does not know (a search has no subproblems)."""

    solutions: int | None = None
    """Solutions found so far: a lower bound on the count."""
    done: int | None = None
    """Subproblems finished..."""
    total: int | None = None
    """...of this many."""
    bound: int | None = None
    """A minimisation's proved lower bound so far: every smaller number of pieces was refuted.
    Reported as each new k is tried, so that a search killed at its deadline, which can say
    nothing more, still has it (`queens.solvers.runtime.deadline_child`)."""
    resumed: int = 0
    """Of `done`, the subproblems a resumed count found finished in its ledger: not work of this
    run, so a display's rate and time left leave them out (a count resumed at 90 % would
    otherwise promise to end in a tenth of the time it has run)."""


Listener = Callable[[Progress], None]
_listeners: list[Listener] = []
_last = Progress()
_next_count = 0.0


def counted(solutions: int) -> None:
    """Report the solutions found so far, at most every `EVERY` seconds: cheap enough to call
    at every solution of an enumeration."""
    global _next_count
    now = time.monotonic()
    if now >= _next_count:
        _next_count = now + EVERY
        report(Progress(solutions=solutions))


def report(progress: Progress) -> None:
    """Tell the listeners (if any) where a run stands."""
    global _last
    _last = progress
    for listener in tuple(_listeners):
        listener(progress)


def beat() -> None:
    """Tell the listeners again where the run stood at its last report (the time has moved on)."""
    for listener in tuple(_listeners):
        listener(_last)


@contextmanager
def listening(listener: Listener, *, alone: bool = False) -> Iterator[None]:
    """Send the reports to `listener` inside the block (`alone`: to it only, not to those
    installed before; what a forked child does with the listeners it inherited)."""
    global _last
    before, last = _listeners.copy(), _last
    if alone:
        _listeners.clear()
    _listeners.append(listener)
    _last = Progress()
    try:
        yield
    finally:
        _listeners[:] = before
        _last = last


@contextmanager
def translated(translate: Callable[[Progress], Progress]) -> Iterator[None]:
    """Inside the block, the listeners get each report translated: a part of a run (one
    subproblem) reporting as the whole (the subproblems before it, plus this one so far)."""
    outer = tuple(_listeners)

    def forward(progress: Progress) -> None:
        for listener in outer:
            listener(translate(progress))

    with listening(forward, alone=True):
        yield
