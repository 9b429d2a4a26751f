"""A long call into a solver library that Ctrl-C and SIGTERM stop within a beat.

Python runs a signal handler only between two bytecodes of the main thread. While the main
thread is inside one long C++ call (CP-SAT's `Solve` minimising), the handler waits for the
call's end: `queens solve domination -n 12 -b cpsat` took 5.9 s to stop, a harder puzzle would
take minutes. So `interruptible` runs the call in a worker thread (the library releases the GIL
while it solves) and the calling thread waits one beat at a time (`queens.solvers.runtime.interrupts.check`,
`queens.solvers.runtime.progress.beat`). When the wait is interrupted, `halt` asks the library to stop
(CP-SAT's `stop_search`, safe from another thread), the worker is joined, and the interrupt
goes on. A library that catches SIGINT itself must be told not to (the worker thread gets no
signals, so its handler would never run). A library that cannot be halted (OR-Tools' HiGHS
answers InterruptSolve with False) is left running in its daemon thread: the interrupt goes on
at once, and `queens.solvers.runtime.interrupts.abandon` tells the console script to end the process without
finalising beside it (a Python session keeps the thread until the solve ends by itself).

Halted, CP-SAT 9.15 returns from `Solve` while threads of its own are still ending (three, for
a few milliseconds); the interrupted command exits at once, and exiting meanwhile aborted the
process in a C++ destructor ("terminate called without an active exception", exit 134, in 5 of
8 runs). So after a halt the wait goes on until the process has no more threads than before
the call (Linux: /proc/self/task), for at most `SETTLE` seconds.

pysat's solvers are one such library: `solve_interruptibly` runs a solve this way.

>>> interruptible(lambda: 6 * 7, halt=lambda: True)
42
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from queens.solvers.runtime import interrupts
from queens.solvers.runtime.deadline_child import BEAT
from queens.solvers.runtime.progress import beat

T = TypeVar("T")
SETTLE = 1.0
"""Seconds a halted library gets to end the threads it started (it takes milliseconds)."""
_TASKS = Path("/proc/self/task")


def interruptible(call: Callable[[], T], halt: Callable[[], bool | None]) -> T:
    """`call()`, computed in a worker thread; `halt()` asks it to return early, and is called
    when this thread's wait is interrupted (the exception is then raised here, as it came);
    `halt` returning False says it could not: the worker is abandoned, not joined."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the waiting thread, raised there
            failure.append(error)

    threads = _threads()
    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(BEAT)
            interrupts.check()
            beat()
    except BaseException:
        if halt() is False:
            interrupts.abandon()
            raise
        worker.join()
        _settle(threads)
        raise
    if failure:
        raise failure[0]
    return outcome[0]


def _threads() -> int | None:
    """How many threads this process has (None where the system does not say)."""
    try:
        return len(list(_TASKS.iterdir()))
    except OSError:
        return None


def _settle(threads: int | None) -> None:
    """Wait, at most `SETTLE` seconds, until this process is back to `threads` threads."""
    if threads is None:
        return
    give_up = time.monotonic() + SETTLE
    while (_threads() or 0) > threads and time.monotonic() < give_up:
        time.sleep(0.001)


class SatSolver(Protocol):
    """What `solve_interruptibly` asks of a pysat solver (`pysat.solvers.Solver`, one that has
    `interrupt()`: Glucose, MiniSat; CaDiCaL has not)."""

    def solve_limited(self, assumptions: list[int] = ..., expect_interrupt: bool = ...) -> bool | None: ...

    def conf_budget(self, budget: int = ...) -> None: ...

    def interrupt(self) -> None: ...

    def clear_interrupt(self) -> None: ...


FIRST_CONFLICTS = 1_000
"""Conflicts a solve may take on the calling thread before it moves to a worker thread: most
questions (`why` asks hundreds) take a few conflicts, and a thread of their own cost each of
them more than the question itself."""


def solve_interruptibly(solver: SatSolver, assumptions: Sequence[int] = (),
                        deadline: float | None = None) -> bool | None:
    """`solver.solve(assumptions)`, stopped by Ctrl-C and SIGTERM within a beat (the exception
    goes on once the solver has returned), and by `deadline` (then None).

    On the main thread pysat swaps in a SIGINT handler of its own for each solve, which jumps
    out of the solver and raises pysat's own error, "Caught keyboard interrupt": `queens solve
    domination -n 8 --certify` ended "internal error", exit 1, and the command never heard of
    the signal; SIGTERM waited for the solve's end. So the solve runs `FIRST_CONFLICTS`
    conflicts here (a signal meanwhile is raised as it returns), and the rest in the worker
    thread `interruptible` runs it in, where pysat leaves the signals alone and releases the GIL
    (`expect_interrupt`): its `interrupt()` stops the solve from here, at an interruption or at
    the deadline. An interrupt left over from an earlier call (its deadline came as that solve
    ended) is cleared first.

    >>> from pysat.solvers import Solver
    >>> with Solver(name="glucose4", bootstrap_with=[[1, 2], [-1], [-2]]) as sat:
    ...     solve_interruptibly(sat), solve_interruptibly(sat, [1], time.monotonic() + 5)
    (False, False)
    """
    solver.clear_interrupt()
    solver.conf_budget(FIRST_CONFLICTS)
    answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    solver.conf_budget(-1)  # no budget for the rest
    if answer is not None:
        return answer
    interrupts.check()
    if deadline is not None and time.monotonic() >= deadline:
        return None
    alarm = None
    if deadline is not None:
        alarm = threading.Timer(max(0.0, deadline - time.monotonic()), solver.interrupt)
        alarm.daemon = True
        alarm.start()
    try:
        return interruptible(lambda: solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True),
                             halt=solver.interrupt)
    finally:
        if alarm is not None:
            alarm.cancel()
