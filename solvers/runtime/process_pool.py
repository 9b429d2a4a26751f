"""Run jobs in worker processes that leave nothing behind when the parent is interrupted, and
that are killed at the deadline.

Ctrl-C in a terminal (and `timeout -s INT`) signals the whole process group: with a plain
ProcessPoolExecutor every worker raised its own KeyboardInterrupt and printed a traceback, a
worker interrupted while starting up broke the pool, and cancelling its futures then made the
pool's manager thread fail with InvalidStateError. Here only the parent decides:

- the workers start with SIGINT and SIGTERM blocked (the signal mask is inherited through
  fork and exec), so a signal to the group reaches the parent alone;
- on any exception in the parent (KeyboardInterrupt included) the workers are killed, the pool
  is shut down without cancelling futures (the broken pool fails them itself), and the
  exception goes on: no orphan processes, no leaked semaphores, no second traceback.

Each job is given the deadline and mostly stops by itself; a worker that has not finished its
job a little after the deadline (`queens.solvers.runtime.deadline_child`'s slack) is killed the same
way, and that job's result is None. While waiting, the parent hands each finished job to
`finished` as it comes, and beats (`queens.solvers.runtime.progress.beat`) so that a progress display
shows the time going by.

A daemonic process may start no workers (`queens.solvers.runtime.forking`): there the jobs run
one after another in this process, each stopping by itself at the deadline; those not begun by
the time the workers would be killed are None, as a killed worker's job is.

>>> run_in_processes(pow, [(2, 10), (3, 3)], workers=2)
[1024, 27]
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

from queens.solvers.runtime import interrupts
from queens.solvers.runtime.deadline_child import BEAT, kill_group, kill_time, killed_at_deadline
from queens.solvers.runtime.forking import may_fork
from queens.solvers.runtime.progress import beat

T = TypeVar("T")
_PARENT_ONLY = {signal.SIGINT, signal.SIGTERM}


def run_in_processes(function: Callable[..., T], jobs: Sequence[tuple[object, ...]], workers: int, *,
                     deadline: float | None = None, finished: Callable[[int, T], None] | None = None,
                     start: str = "spawn") -> list[T | None]:
    """`[function(*job) for job in jobs]`, computed in `workers` processes, in order; None for a
    job still running when the workers are killed at the deadline (see above).
    `finished(index, result)` is called for each job as it finishes, in the order they do.
    `start` is multiprocessing's start method: "spawn" (a fresh interpreter, nothing shared) or
    "fork" for jobs that only call a library with no threads of its own (no re-import of a
    script's `__main__`, which spawn needs guarded by `if __name__ == "__main__":`)."""
    if not may_fork():
        return _run_here(function, jobs, kill_time(deadline), finished)
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(start),
                               initializer=killed_at_deadline)
    results: list[T | None] = [None] * len(jobs)
    try:
        # The workers are spawned by the first submit: block the signals around it so that they
        # inherit the mask; a signal that arrives meanwhile is delivered here right after.
        # The mask is this thread's: a signal delivered to another thread still sets Python's
        # flag, and raised inside `submit` it cut a worker's start between its spawn and the
        # data it reads at once (the worker printed EOFError; test_interrupt -k split: 3 runs of 6):
        # deferred, it is raised after the last submit.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENT_ONLY)
        try:
            with interrupts.deferred():
                futures = {pool.submit(function, *job): index for index, job in enumerate(jobs)}
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        interrupts.check()
        overran = _collect(futures, results, kill_time(deadline), finished)
    except BaseException:
        _kill(others)
        pool.shutdown(wait=True)
        raise
    if overran:
        _kill(others)
    pool.shutdown(wait=True)
    return results


def _run_here(function: Callable[..., T], jobs: Sequence[tuple[object, ...]], kill_at: float | None,
              finished: Callable[[int, T], None] | None) -> list[T | None]:
    """`run_in_processes` where no worker may start: the jobs in turn, in this process, until
    `kill_at` (the jobs after it are None)."""
    results: list[T | None] = [None] * len(jobs)
    for index, job in enumerate(jobs):
        if kill_at is not None and time.monotonic() >= kill_at:
            break
        results[index] = result = function(*job)
        if finished is not None:
            finished(index, result)
        interrupts.check()
    return results


def _collect(futures: dict[Future[T], int], results: list[T | None], kill_at: float | None,
             finished: Callable[[int, T], None] | None) -> bool:
    """Fill `results` as the jobs finish, until all have or `kill_at` comes (then True)."""
    pending, beaten = set(futures), time.monotonic()
    while pending:
        left = None if kill_at is None else kill_at - time.monotonic()
        if left is not None and left <= 0:
            return True
        done, pending = interrupts.waited(pending, left)
        for future in done:
            index = futures[future]
            results[index] = result = future.result()
            if finished is not None:
                finished(index, result)
        if done:
            beaten = time.monotonic()
        elif time.monotonic() - beaten >= BEAT:  # a beat per BEAT without news
            beat()
            beaten = time.monotonic()
    return False


def _kill(others: set[multiprocessing.process.BaseProcess]) -> None:
    """Kill this pool's workers (the children that were not there before it), each with its
    process group: whatever a worker started (the MiniZinc binary) goes with it."""
    with interrupts.deferred():  # every worker, even if a second signal comes meanwhile
        for child in set(multiprocessing.active_children()) - others:
            if child.pid is not None:
                kill_group(child.pid, reap=False)
