"""One MiniZinc call that Ctrl-C or SIGTERM stops at once, with the solver MiniZinc started.

minizinc-python's `Instance.solve` runs the binary under `asyncio.run`. Interrupted, it sends
MiniZinc SIGTERM and waits for it to exit, but no longer reads its output. MiniZinc then kills
its solver (which it starts in a process group of its own, out of reach of a kill to ours) and
writes out the solutions it still holds, into a pipe nobody reads: while counting, the pipe is
full, MiniZinc blocks on the write and the wait never ends (`queens count nqueens -n 16 -b
minizinc` ignored Ctrl-C and SIGTERM for minutes). And a KeyboardInterrupt raised inside the
library's coroutine skips that clean-up altogether, leaving MiniZinc and its solver running.

So `solve` drives the call on an event loop of its own, one `SLICE` at a time
(`queens.solvers.runtime.interrupts.check`, `queens.solvers.runtime.progress.beat`), through a driver that tells the
call which MiniZinc processes it started. On any exception each of them gets SIGTERM (MiniZinc
stops its solver), its output is read to the end so that it can exit, and it is killed if it
has not exited `GRACE` seconds later; then the exception goes on.

The loop itself runs with signals `deferred`: a KeyboardInterrupt raised inside asyncio's own
machinery (between taking a task's wake-up off the ready queue and running it) loses that wake-up,
the task never runs again, and closing the loop printed "aclose(): asynchronous generator is
already running" tracebacks (1 CI run of `queens count nqueens -n 16 -b minizinc` under SIGINT).
The signal is raised instead by `interrupts.check` between two slices, in this module's code.

A thread that already runs an event loop cannot run another (a Jupyter notebook's kernel runs one:
`count(puzzle, "minizinc")` in a notebook failed with "Cannot run the event loop while another loop
is running"), so there the call runs on a thread of its own, and an interrupt of the waiting thread
(the notebook's *interrupt kernel*) stops it as a signal would.

Imported by `queens.solvers.backends.minizinc` only once the `minizinc` package is known to be there.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from asyncio.subprocess import Process
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import minizinc
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.deadline_child import BEAT
from queens.solvers.runtime.progress import beat

SLICE = 0.05
"""Seconds the loop runs between two looks at the signal flag: the delay a Ctrl-C may wait."""
GRACE = 2.0
"""Seconds MiniZinc gets to stop its solver and exit after SIGTERM (it takes milliseconds) before SIGKILL."""
_started: ContextVar[list[Process]] = ContextVar("minizinc_started")
"""The MiniZinc processes the call running in this context started (each call has its own list)."""


class _Driver(minizinc.Driver):  # type: ignore[misc]  # minizinc-python has no type hints
    """minizinc-python's command-line driver, which also tells the call which process it started
    (`Driver._create_process` is where the package starts every MiniZinc run; pinned version)."""

    async def _create_process(self, args: list[str | Path], solver: str | None = None) -> Process:
        process: Process = await super()._create_process(args, solver)
        _started.get().append(process)
        return process


@functools.cache
def driver() -> minizinc.Driver:
    """The driver to build instances with (one for the whole run: making one asks MiniZinc its version)."""
    return _Driver(minizinc.default_driver.executable)


def solve(instance: minizinc.Instance, **options: object) -> minizinc.Result:
    """`instance.solve(**options)` (an instance made with `driver()`), stopped with everything it
    started when an exception, KeyboardInterrupt included, comes while it runs; on a thread of its
    own when this one already runs an event loop (see the module docstring)."""
    if not _loop_running():
        return _solve(instance, options, None)
    stop = threading.Event()
    with ThreadPoolExecutor(1, thread_name_prefix="minizinc") as pool:
        call = pool.submit(_solve, instance, options, stop)
        try:
            return call.result()
        except BaseException:
            stop.set()  # the call stops what it started; leaving the pool waits for that
            raise


def _loop_running() -> bool:
    """Whether this thread runs an event loop already."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _solve(instance: minizinc.Instance, options: dict[str, object], stop: threading.Event | None) -> minizinc.Result:
    """`solve` on a new event loop, in this thread; `stop`, once set, interrupts it as a signal does."""
    loop = asyncio.new_event_loop()
    started: list[Process] = []
    token = _started.set(started)
    try:
        call = loop.create_task(instance.solve_async(**options))  # the task keeps this context: `started`
    finally:
        _started.reset(token)
    try:
        last_beat = time.monotonic()
        while not call.done():
            with interrupts.deferred():
                loop.run_until_complete(asyncio.wait({call}, timeout=SLICE))
            interrupts.check()
            if stop is not None and stop.is_set():
                raise KeyboardInterrupt
            if time.monotonic() - last_beat >= BEAT:
                beat()
                last_beat = time.monotonic()
        return call.result()
    except BaseException:
        with interrupts.deferred():
            loop.run_until_complete(_stop(call, started))
        raise
    finally:
        with interrupts.deferred():
            _close(loop)


async def _stop(call: asyncio.Task[Any], started: list[Process]) -> None:
    """End the MiniZinc processes: SIGTERM, their output read to the end (by the call while it
    runs, here if the interrupt ended it), SIGKILL after `GRACE`."""
    running = [process for process in started if process.returncode is None]
    for process in running:
        process.terminate()  # MiniZinc kills its solver's process group, writes what it holds and exits
    ending = [call] if not call.done() else [asyncio.ensure_future(_drained(process)) for process in running]
    if ending:
        await asyncio.wait(ending, timeout=GRACE)
    for process in running:
        if process.returncode is None:
            process.kill()
    if call.done() and not call.cancelled():
        call.exception()  # retrieved (it is the interrupt, or MiniZinc's error at SIGTERM): asyncio would log it


async def _drained(process: Process) -> None:
    """Read what the process writes until it exits (its pipe full, it could not)."""
    assert process.stdout is not None
    while await process.stdout.read(1 << 16):
        pass
    await process.wait()


def _close(loop: asyncio.AbstractEventLoop) -> None:
    """Close the loop as `asyncio.run` does: what is still pending is cancelled and given
    `GRACE` to finish (a cancelled call ends at once when its processes are gone)."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.wait(pending, timeout=GRACE))
    for task in pending:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved, as above
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
