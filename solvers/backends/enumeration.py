"""Turn a solver that reports solutions through a callback into a lazy generator.

CP-SAT enumerates by calling back into Python from inside `Solve`. To give the caller a plain
generator (take three solutions and stop, or stream millions) the solve runs in a worker
thread and hands solutions over a small bounded queue; closing the generator stops the solve.
Closing includes Ctrl-C in the consumer: `halt` (CP-SAT's `stop_search`) ends a solve that is
between two solutions, so the worker is joined at once rather than at the next solution, which
a hard puzzle may take minutes to find.
"""

from __future__ import annotations

import enum
import queue
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")


class _Done(enum.Enum):
    """The worker's end-of-stream marker: an enum member, so `is not _DONE` narrows the queue's items to T."""

    DONE = enum.auto()


_DONE = _Done.DONE


def callback_stream(run: Callable[[Callable[[T], bool]], None],
                    halt: Callable[[], None] | None = None) -> Iterator[T]:
    """Yield what `run` emits. `run(emit)` calls `emit(item)`, which returns False to stop;
    `halt()`, if given, asks a running `run` to return soon (called when the consumer leaves)."""
    handoff: queue.Queue[T | _Done] = queue.Queue(maxsize=256)
    stop = threading.Event()
    failure: list[BaseException] = []

    def emit(item: T) -> bool:
        while not stop.is_set():
            try:
                handoff.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            run(emit)
        except BaseException as error:  # handed to the consumer thread, re-raised there
            failure.append(error)
        while not stop.is_set():  # tell the consumer we are done, unless it already left
            try:
                handoff.put(_DONE, timeout=0.05)
                break
            except queue.Full:
                continue

    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    try:
        while (item := handoff.get()) is not _DONE:
            yield item
    finally:
        stop.set()
        if halt is not None and worker.is_alive():
            halt()
        worker.join()
    if failure:
        raise failure[0]
