"""A long call into a solver library that Ctrl-C and SIGTERM stop within a beat.

Python runs a signal handler only between two bytecodes of the main thread. While the main
thread is inside one long C++ call (CP-SAT's `Solve` minimising), the handler waits for the
call's end: `queens solve domination -n 12 -b cpsat` took seconds to stop, a harder puzzle
would take minutes (experiments/results/design-choices.md). So `interruptible` runs the call
in a worker thread (the library releases the GIL while it solves) and the calling thread waits
one beat at a time (`queens.solvers.runtime.interrupts.check`,
`queens.solvers.runtime.progress.beat`). When the wait is interrupted, `halt` asks the library to stop
(CP-SAT's `stop_search`, safe from another thread), the worker is joined, and the interrupt
goes on. A library that catches SIGINT itself must be told not to (the worker thread gets no
signals, so its handler would never run). A library that cannot be halted (OR-Tools' HiGHS
answers InterruptSolve with False) is left running in its daemon thread: the interrupt goes on
at once, and `queens.solvers.runtime.interrupts.abandon` tells the console script to end the process without
finalising beside it (a Python session keeps the thread until the solve ends by itself).

Halted, CP-SAT 9.15 returns from `Solve` while threads of its own are still ending; a process
that finalises meanwhile aborts in a C++ destructor ("terminate called without an active
exception", exit 134: 5 of 8 runs once; 1 in 12 to 30 on a loaded machine even after waiting
for the process's thread count to fall back to its level before the call). So a call halted by
Ctrl-C or SIGTERM counts as abandoned (`queens.solvers.runtime.interrupts.abandon`): the
console script ends the process without finalising, as for HiGHS (0 aborts in 75 runs under
the same load). A halt for any other reason (the explorer cancelling a job) leaves the process
running, and CP-SAT's threads end by themselves.

pysat's solvers are one such library: `solve_interruptibly` runs their solves so, on one
thread kept for them.

>>> interruptible(lambda: 6 * 7, halt=lambda: True)
42
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, cast

from queens.solvers.runtime import interrupts
from queens.solvers.runtime.deadline_child import BEAT
from queens.solvers.runtime.progress import beat

T = TypeVar("T")


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

    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(BEAT)
            interrupts.check()
            beat()
    except BaseException as error:
        if halt() is False:
            interrupts.abandon()
            raise
        worker.join()
        if isinstance(error, KeyboardInterrupt):  # the process ends: not beside threads still ending
            interrupts.abandon()
        raise
    if failure:
        raise failure[0]
    return outcome[0]


class SatSolver(Protocol):
    """What `solve_interruptibly` asks of a pysat solver (`pysat.solvers.Solver`, one that has
    `interrupt()`: Glucose, MiniSat; CaDiCaL has not)."""

    def solve_limited(self, assumptions: list[int] = ..., expect_interrupt: bool = ...) -> bool | None: ...

    def interrupt(self) -> None: ...

    def clear_interrupt(self) -> None: ...


def solve_interruptibly(solver: SatSolver, assumptions: Sequence[int] = (),
                        deadline: float | None = None) -> bool | None:
    """`solver.solve(assumptions)`, stopped by Ctrl-C and SIGTERM within a beat (the exception
    goes on once the solver has returned), and by `deadline` (then None).

    On the main thread pysat swaps in a SIGINT handler of its own for each solve, which jumps
    out of the solver and raises pysat's own error, "Caught keyboard interrupt": `queens solve
    domination -n 8 --certify` ended "internal error", exit 1, and the command never heard of
    the signal; SIGTERM waited for the solve's end. So the main thread hands the solve to a
    helper thread (`_SOLVER_THREAD`), where pysat leaves the signals alone and releases the GIL
    (`expect_interrupt`), and waits a beat at a time: at a signal or at the deadline, the
    solver's `interrupt()` stops it. Glucose looks at that request only between two restarts,
    which may be the whole solve apart (the proof's solve of `--certify` on queen domination
    n = 8: one restart in 30,261 conflicts), so a solve that has not stopped `HALT_WAIT` seconds
    after a signal is abandoned, as HiGHS is (`abandon`), and the signal goes on. Any other
    thread gets no signals: it solves itself, a timer interrupting it at the deadline. An
    interrupt left over from an earlier call (its deadline came as that solve ended) is cleared
    first.

    >>> from pysat.solvers import Solver
    >>> with Solver(name="glucose4", bootstrap_with=[[1, 2], [-1], [-2]]) as sat:
    ...     solve_interruptibly(sat), solve_interruptibly(sat, [1], time.monotonic() + 5)
    (False, False)
    """
    solver.clear_interrupt()

    def solve() -> bool | None:
        return solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)

    if threading.current_thread() is not threading.main_thread():
        return _solve_with_alarm(solve, solver, deadline)
    done, outcome = _SOLVER_THREAD.submit(solve)
    try:
        while not done.wait(BEAT if deadline is None else max(0.0, min(BEAT, deadline - time.monotonic()))):
            if deadline is not None and time.monotonic() >= deadline:
                solver.interrupt()  # the solve returns None; asked again at each beat until it has
            interrupts.check()
            beat()
    except BaseException:
        give_up = time.monotonic() + HALT_WAIT
        while not done.wait(0.05):  # asked again and again: a request just before the solve began is lost
            solver.interrupt()
            if time.monotonic() > give_up:
                _abandon(solver)
                break
        raise
    return _SOLVER_THREAD.result(outcome)


HALT_WAIT = 0.5
"""Seconds an interrupted solve may take to stop before it is abandoned (`solve_interruptibly`)."""
_ABANDONED: list[SatSolver] = []
"""Solvers still solving in an abandoned thread: kept, and kept from being deleted under it."""


def _abandon(solver: SatSolver) -> None:
    """Leave `solver` solving in the solver thread: it is kept alive and its `delete` (which a
    `with` block calls as the signal passes through it) does nothing, so the thread never runs on
    a freed solver; later solves get a thread of their own; the console script ends the process
    without finalising beside it (`queens.solvers.runtime.interrupts.abandon`)."""
    _ABANDONED.append(solver)
    setattr(solver, "delete", lambda: None)  # noqa: B010 - an instance attribute over pysat's method
    _SOLVER_THREAD.forget()
    interrupts.abandon()


def _solve_with_alarm(solve: Callable[[], bool | None], solver: SatSolver, deadline: float | None) -> bool | None:
    """`solve()` on this thread, `solver.interrupt()` called by a timer at the deadline."""
    if deadline is None:
        return solve()
    alarm = threading.Timer(max(0.0, deadline - time.monotonic()), solver.interrupt)
    alarm.daemon = True
    alarm.start()
    try:
        return solve()
    finally:
        alarm.cancel()


Outcome = list[tuple[bool, object]]
"""What a job of the solver thread left: (True, its value) or (False, the exception it raised)."""


class _SolverThread:
    """One daemon thread that runs the main thread's solves in turn: a thread of their own cost
    each more than most solves take (`why` asks hundreds of questions of a few conflicts each).
    Started when first needed, and again in a forked child (which has no thread but the one
    that forked)."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._jobs: queue.SimpleQueue[tuple[Callable[[], object], threading.Event, Outcome]] = queue.SimpleQueue()

    def forget(self) -> None:
        """Leave the current thread to its job (abandoned): the next job starts a new one."""
        self._thread = None

    def submit(self, job: Callable[[], object]) -> tuple[threading.Event, Outcome]:
        """Queue `job`: the event is set when it has finished, leaving its outcome in the list."""
        if self._thread is None or not self._thread.is_alive():
            self._jobs = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._serve, args=(self._jobs,), name="pysat", daemon=True)
            self._thread.start()
        done, outcome = threading.Event(), Outcome()
        self._jobs.put((job, done, outcome))
        return done, outcome

    @staticmethod
    def result(outcome: Outcome) -> bool | None:
        """The finished job's value, or its exception raised here."""
        finished, value = outcome[0]
        if not finished:
            raise cast(BaseException, value)
        return cast(bool | None, value)

    @staticmethod
    def _serve(jobs: queue.SimpleQueue[tuple[Callable[[], object], threading.Event, Outcome]]) -> None:
        while True:
            job, done, outcome = jobs.get()
            try:
                outcome.append((True, job()))
            except BaseException as error:  # handed to the waiting thread, raised there
                outcome.append((False, error))
            done.set()


_SOLVER_THREAD = _SolverThread()
