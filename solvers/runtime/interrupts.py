"""A Ctrl-C (or SIGTERM) that cannot be lost on its way to the command.

Python raises KeyboardInterrupt wherever the main thread happens to be. When that is inside a
finaliser (`__del__`, as Dask's Future.__del__ when a future is dropped) the exception is printed
as "Exception ignored in ..." and dropped: the count went on to its end and exited 0 (1 CI run in
about 30). So the console script's handler remembers the signal first, raises only where the
exception can travel, and every long wait asks `check()` at its beat: an interrupt that landed in
a finaliser is raised there, a beat later, with the same clean-ups as any other. `main` exits 130
whenever a signal came, even if something swallowed it.

Nothing here is active in a Python session: only the console script installs the handler, so a
notebook's Ctrl-C stays Python's own.
"""

from __future__ import annotations

import signal
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

_signalled = False
_abandoned = False
_deferring = 0


def install() -> None:
    """Take SIGINT and SIGTERM with `handler` (called by the console script before any import),
    and keep pysat from taking SIGINT from it (`_keep_sigint_from_pysat`)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, handler)
    _keep_sigint_from_pysat()


def _keep_sigint_from_pysat() -> None:
    """pysat, called on the main thread, swaps in a SIGINT handler of its own for every solve and
    every cardinality encoding, which jumps out of the C code and raises pysat's own error
    ("Caught keyboard interrupt"): the command ended "internal error", exit 1, and `handler`
    never saw the signal (`queens solve domination -n 8 --certify`, Ctrl-C during the proof's
    solve). pysat asks `MainThread.check()` whether to do so; told "no", it leaves SIGINT to
    `handler`, which raises KeyboardInterrupt as soon as the C call returns. The long solves run
    in a worker thread anyway (`queens.solvers.runtime.interruptible.solve_interruptibly`), so
    that they stop within a beat; this keeps the exit right (130, "interrupted") for any call
    that does not. Only the console script does this: a Python session keeps pysat's own."""
    try:
        from pysat._utils import MainThread
    except ImportError:  # no pysat, or one without the check: nothing to keep it from
        return
    MainThread.check = staticmethod(lambda: False)


def handler(signum: int, frame: FrameType | None) -> None:
    """Remember the signal; raise KeyboardInterrupt unless a finaliser would swallow it or the
    code it lands in is `deferred`."""
    global _signalled
    _signalled = True
    if not _deferring and not _in_finaliser(frame):
        raise KeyboardInterrupt


@contextmanager
def deferred() -> Iterator[None]:
    """A stretch that must not be cut: a signal meanwhile is only remembered (raised at the next
    `check`). `timeout` signals the command and then its whole group, so a second SIGTERM landed
    between the stop and the kill of a worker (`kill_group`): the worker stayed stopped and the
    command waited for it for ever. And an exception raised inside asyncio's loop loses a task's
    wake-up (`queens.solvers.backends.minizinc_call`)."""
    global _deferring
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1


SLICE = 0.1
"""The longest `waited` sleeps with signals deferred."""


def waited(futures: Iterable[Future[T]], timeout: float | None = None) -> tuple[set[Future[T]], set[Future[T]]]:
    """`concurrent.futures.wait` for the first to finish, at most SLICE seconds (and `timeout`,
    if given), with signals deferred, then `check`. Raised inside `wait`, a KeyboardInterrupt could come
    between taking one future's lock and the next: the lock stayed held, the worker finishing that
    future waited for it for ever, and so did the command (`count nqueens -n 17 --method classes
    --threads 1` in 1 lone-clone run)."""
    with deferred():
        done, pending = wait(futures, timeout=SLICE if timeout is None else min(timeout, SLICE),
                             return_when=FIRST_COMPLETED)
    check()
    return done, pending


def check() -> None:
    """Raise the KeyboardInterrupt a finaliser kept from the command (long waits call this)."""
    if _signalled:
        raise KeyboardInterrupt


def signalled() -> bool:
    """Whether a signal came since the handler was installed."""
    return _signalled


def abandon() -> None:
    """Say that a library call still runs in a thread nothing can stop (HiGHS ignores
    OR-Tools' InterruptSolve), or that a halted one's threads may still be ending (CP-SAT's,
    after a signal): the console script then ends the process at once, without the
    interpreter's finalisation, which would tear down what those threads still use."""
    global _abandoned
    _abandoned = True


def abandoned() -> bool:
    """Whether `abandon` was called: a solver thread may still be running."""
    return _abandoned


def _in_finaliser(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False
