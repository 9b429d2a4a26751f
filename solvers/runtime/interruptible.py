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

>>> interruptible(lambda: 6 * 7, halt=lambda: True)
42
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

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
