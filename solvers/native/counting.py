"""Count n-queens solutions by symmetry class, on all cores, resumably.

The classes counter in C (classcore.c, bound by classcount.c) splits the search into subproblems: the first rows placed,
in a fixed order, each named by its columns ("0-2-4-1"). This module hands batches of them to
worker threads (the C code runs without the GIL), adds up their class counts, reports
progress, stores every finished subproblem in a `Ledger` as it completes, and on `resume`
skips the subproblems a ledger already holds. The sum does not depend on the order, the
threads or the interruptions: a resumed total is bit-identical to an uninterrupted one.

>>> count_classes(8).fundamental, count_classes(8).total
(12, 92)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from queens.models import TimeLimit, Unsupported
from queens.solvers.native import _classes
from queens.solvers.native.kernels import choose_kernel
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.ledger import Classes, Ledger

KERNEL_VERSION = f"classes-{_classes.VERSION}"
"""Ledger rows are keyed by this: a different counter or split never mixes with this one (rows
stored before the counter was renamed, as `fast-{VERSION}`, are read as this: `Ledger`)."""

MAX_N = _classes.MAX_N

Progress = Callable[[int, int, int], None]
Stats = dict[str, int | float | str]
"""Where a count leaves its statistics (a backend's `stats`)."""
Batch = Future[list[tuple[int, int, int, int] | None]]
"""A batch on a worker: per subproblem (c2, c4, c8, nodes), or None where it was stopped."""
"""Called as progress(subproblems done, subproblems in all, solutions so far), at least every half
second while the count runs (so a display shows the time going by)."""


@dataclass(frozen=True)
class SymmetryClasses:
    """The solutions of n-queens grouped into classes under the 8 symmetries of the square.

    No solution (n > 1) is its own mirror image, so a class has 8 boards unless a rotation maps
    its boards onto themselves: `quarter_turn` classes (a 90-degree turn, 2 boards each),
    `half_turn` classes (180 degrees only, 4 boards), `asymmetric` classes (8 boards).
    `whole_board` counts the 1x1 board's lone queen, fixed by all 8 symmetries (1 board).

    >>> SymmetryClasses(quarter_turn=1, half_turn=0, asymmetric=1).total   # n = 5
    10
    """

    quarter_turn: int
    half_turn: int
    asymmetric: int
    whole_board: int = 0

    @property
    def total(self) -> int:
        """All solutions (OEIS A000170)."""
        return self.whole_board + 2 * self.quarter_turn + 4 * self.half_turn + 8 * self.asymmetric

    @property
    def fundamental(self) -> int:
        """Solutions up to rotation and reflection: the number of classes (OEIS A002562)."""
        return self.whole_board + self.quarter_turn + self.half_turn + self.asymmetric

    def __add__(self, other: SymmetryClasses) -> SymmetryClasses:
        return SymmetryClasses(self.quarter_turn + other.quarter_turn, self.half_turn + other.half_turn,
                               self.asymmetric + other.asymmetric, self.whole_board + other.whole_board)


NO_SOLUTIONS = SymmetryClasses(0, 0, 0)


def split_depth(n: int) -> int:
    """Rows fixed per subproblem: enough subproblems for every core and a fine-grained ledger,
    few enough that the bookkeeping stays negligible (n = 16: 6,778 subproblems, each short:
    experiments/results/design-choices.md)."""
    return 2 if n < 8 else 3 if n < 15 else 4 if n < 19 else 5


def subproblems(n: int) -> list[tuple[int, ...]]:
    """Every subproblem of Q(n), in the counter's fixed order (empty for n < 4).

    >>> subproblems(5)
    [(0, 2), (0, 3), (1, 3), (1, 4)]
    """
    return _classes.subproblems(n, split_depth(n)) if n >= 4 else []


def subproblem_key(columns: Sequence[int]) -> str:
    """The ledger's name for a subproblem: its rows' columns, e.g. '0-2-4'."""
    return "-".join(map(str, columns))


def count_batch(n: int, batch: list[tuple[int, ...]], kernel: str = "auto",
                stop: bytearray | None = None) -> list[tuple[int, int, int, int] | None]:
    """Count a batch in C (runs on a worker: a thread here, a process on Dask)."""
    return _classes.count(n, batch, kernel=kernel, stop=stop)


def check_threads(threads: object) -> int:
    """A thread count as given by a caller: a positive whole number, or Unsupported."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise Unsupported(f"threads must be a positive number, got {threads!r}")
    return threads


def count_classes(n: int, *, threads: int | None = None, ledger: Ledger | None = None, resume: bool = False,
                  progress: Progress | None = None, deadline: float | None = None, kernel: str = "auto",
                  stats: Stats | None = None) -> SymmetryClasses:
    """Q(n) by symmetry class, on `threads` threads (default: all cores).

    With a `ledger`, every finished subproblem is recorded as it completes; with `resume`, the
    subproblems the ledger already holds are not counted again. `deadline` (time.monotonic())
    raises TimeLimit with the solutions counted so far. On KeyboardInterrupt the workers stop
    within milliseconds and what they finished is recorded before the interrupt propagates.
    `stats`, if given, receives the subproblems, how many were resumed and the nodes searched.
    `kernel`: 'auto' (QUEENS_KERNEL if set, else the best this CPU runs) or a kernel's name
    (solvers/native/kernels.py); one the CPU cannot run raises KernelUnavailable.
    """
    threads = default_threads() if threads is None else check_threads(threads)
    stop = bytearray(1)
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queens-count") as pool:
        try:
            return run_subproblems(n, pool, workers=threads, ledger=ledger, resume=resume, progress=progress,
                                   deadline=deadline, kernel=kernel, stop=stop, stats=stats)
        finally:
            stop[0] = 1  # queued batches return at once; the pool's exit then joins quickly


Counted = tuple[tuple[int, ...], Classes, int]
"""A finished subproblem: its columns, its classes, the nodes its search visited."""


def run_subproblems(n: int, executor: Executor, *, workers: int, ledger: Ledger | None, resume: bool,
                    progress: Progress | None, deadline: float | None, kernel: str,
                    stop: bytearray | None, stats: Stats | None = None) -> SymmetryClasses:
    """The driver behind count_classes and the Dask runner: any concurrent.futures executor."""
    _check_size(n)
    choice = choose_kernel(kernel)
    kernel = choice.name if choice.forced else "auto"  # unforced, each worker picks its own CPU's best
    stats = {} if stats is None else stats
    if n < 4:
        stats.update(subproblems=0, resumed=0, nodes=n == 1)
        return SymmetryClasses(0, 0, 0, whole_board=1) if n == 1 else NO_SOLUTIONS
    keys = subproblems(n)
    done = ledger.finished(n, KERNEL_VERSION) if ledger is not None and resume else {}
    total, todo = NO_SOLUTIONS, keys
    if done:  # (naming thousands of keys costs the main thread CPU that two workers want)
        named = [(key, subproblem_key(key)) for key in keys]
        total = _sum(done[name] for _, name in named if name in done)
        todo = [key for key, name in named if name not in done]
    stats.update(subproblems=len(keys), resumed=len(keys) - len(todo), nodes=0)
    finished = len(keys) - len(todo)
    if progress:
        progress(finished, len(keys), total.total)
    pending: dict[Batch, list[tuple[int, ...]]] = {}
    for batch in batches(todo, workers):
        # no stop flag to a remote worker (Dask): it is left out of the call, not sent as None
        future = (executor.submit(count_batch, n, batch, kernel=kernel) if stop is None
                  else executor.submit(count_batch, n, batch, kernel=kernel, stop=stop))
        pending[future] = batch
    nodes = 0

    def add(results: list[Counted]) -> None:
        nonlocal total, finished, nodes
        total += _sum(classes for _, classes, _ in results)
        finished += len(results)
        nodes += sum(searched for *_, searched in results)
        stats["nodes"] = nodes
        if ledger is not None:
            ledger.record(n, KERNEL_VERSION, [(subproblem_key(key), classes) for key, classes, _ in results])

    try:
        while pending and (deadline is None or time.monotonic() < deadline):
            ready, _ = interrupts.waited(pending, None if deadline is None else max(0.0, deadline - time.monotonic()))
            results = _finished(ready, pending)
            add(results)
            if progress:
                progress(finished, len(keys), total.total)
    except KeyboardInterrupt:
        add(_salvage(pending, stop))
        raise
    if pending:
        add(_salvage(pending, stop))
        raise TimeLimit(f"classes counter: time limit after {finished:,} of {len(keys):,} subproblems",
                        partial=total.total)
    return total


def _finished(ready: set[Batch], pending: dict[Batch, list[tuple[int, ...]]]) -> list[Counted]:
    """The subproblems the ready batches counted to the end (a stopped batch returns None for the rest)."""
    results: list[Counted] = []
    for future in ready:
        batch = pending.pop(future)
        results += [(key, (c2, c4, c8), nodes)
                    for key, counted in zip(batch, future.result(), strict=True) if counted is not None
                    for c2, c4, c8, nodes in [counted]]
    return results


def _salvage(pending: dict[Batch, list[tuple[int, ...]]], stop: bytearray | None) -> list[Counted]:
    """Stop the workers and collect what they finished: local threads stop within a task and are
    waited for; remote batches still running are abandoned (their work is not recorded)."""
    if stop is not None:
        stop[0] = 1
    for future in pending:
        future.cancel()
    running = {future for future in pending if not future.cancelled()}
    if stop is None:
        running = {future for future in running if future.done()}
    with interrupts.deferred():  # the clean-up runs to its end, even if a second signal comes
        wait(running)
    return _finished({future for future in running if future.exception() is None}, pending)


def batches(keys: list[tuple[int, ...]], workers: int) -> list[list[tuple[int, ...]]]:
    """Strided batches: every batch mixes early (large) and late (small) subproblems, so the
    batches take about equally long and the progress rate predicts the end."""
    count = min(len(keys), max(workers * 8, len(keys) // 64))
    return [keys[i::count] for i in range(count)] if keys else []


def _sum(counts: Iterable[Classes]) -> SymmetryClasses:
    quarter = half = asymmetric = 0
    for c2, c4, c8 in counts:
        quarter, half, asymmetric = quarter + c2, half + c4, asymmetric + c8
    return SymmetryClasses(quarter, half, asymmetric)


def _check_size(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_N:
        raise Unsupported(f"the classes counter counts boards of 1..{MAX_N} queens, got {n!r}")
