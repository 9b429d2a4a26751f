"""Run jobs in worker processes that leave nothing behind when the parent is interrupted.

Ctrl-C in a terminal (and `timeout -s INT`) signals the whole process group: with a plain
ProcessPoolExecutor every worker raised its own KeyboardInterrupt and printed a traceback, a
worker interrupted while starting up broke the pool, and cancelling its futures then made the
pool's manager thread fail with InvalidStateError. Here only the parent decides:

- the workers start with SIGINT and SIGTERM blocked (the signal mask is inherited through
  fork and exec), so a signal to the group reaches the parent alone;
- on any exception in the parent (KeyboardInterrupt included) the workers are killed, the pool
  is shut down without cancelling futures (the broken pool fails them itself), and the
  exception goes on: no orphan processes, no leaked semaphores, no second traceback.

>>> run_in_processes(pow, [(2, 10), (3, 3)], workers=2)
[1024, 27]
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
_PARENT_ONLY = {signal.SIGINT, signal.SIGTERM}


def run_in_processes(function: Callable[..., T], jobs: Sequence[tuple[object, ...]], workers: int) -> list[T]:
    """`[function(*job) for job in jobs]`, computed in `workers` spawned processes, in order."""
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        # The workers are spawned by the first submit: block the signals around it so that they
        # inherit the mask; a signal that arrives meanwhile is delivered here right after.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENT_ONLY)
        try:
            futures = [pool.submit(function, *job) for job in jobs]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        results = [future.result() for future in futures]
    except BaseException:
        for child in set(multiprocessing.active_children()) - others:  # this pool's workers only
            child.kill()
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)
    return results
