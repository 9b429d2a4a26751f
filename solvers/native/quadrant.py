"""Count n-queens totals Q(n) by meeting in the middle, on all cores or a Dask cluster, resumably.

The C counter (mitmcore.c) joins top and bottom half-boards grouped by the columns the top
half uses (and, on an odd board, the middle row's queen), instead of walking the search tree.
Its work is split by ranges of those units (ranked in a fixed order): each range is a
subproblem, counted on a worker (a thread here: the C code runs without the GIL; a process on
Dask, distributed.py), recorded in the `Ledger` as it finishes and skipped by `resume`, so a
count started on threads resumes on Dask and the other way round.
It counts totals only: the D4 classes (A002562) stay with the backtracking counter
(counting.py), which sees every solution's symmetry.

>>> count_total(8), count_total(12)
(92, 14200)
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

from queens.models import TimeLimit, Unsupported
from queens.solvers.native import _mitm
from queens.solvers.native.counting import Progress, check_threads
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.ledger import Classes, Ledger

KERNEL_VERSION = f"quadrant-{_mitm.VERSION}"
"""Ledger rows are keyed by this: the backtracking counter's rows never mix with these."""

MAX_N = _mitm.MAX_N

SUBPROBLEMS = 256
"""Ranges of units per count: enough for every core and a fine-grained ledger; fixed, so
a ledger written with one thread count resumes with another."""

Stats = dict[str, int | float | str]
Counted = tuple[int, int, int, int, int]
"""A finished range: (solutions, canonical units counted, half-boards listed, pairs compared, bytes its
worker held)."""

_SMALL = {1: 1, 2: 0, 3: 0}
_LOW = (1 << 62) - 1


def ranges(n: int) -> list[tuple[int, int]]:
    """The subproblems of Q(n): [first, last) ranks of its units.

    >>> ranges(4)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]
    """
    sets = _mitm.sets(n)
    parts = min(SUBPROBLEMS, sets)
    return [(sets * i // parts, sets * (i + 1) // parts) for i in range(parts)]


def memory_limit() -> int:
    """Bytes all workers together may hold: half this machine's physical memory (a count whose
    bound passes it is refused). A fixed 4 GiB gave Q(22) and Q(23) to the classes counter, days of
    CPU instead of hours, on a machine with room for them; half leaves the rest to the system
    and, on a local Dask cluster, to the scheduler. A remote cluster's workers are held to the
    same figure: their machines are not known before they run."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2


def memory_needed(n: int, threads: int, processes: int = 1) -> int:
    """The most memory Q(n) holds on `processes` processes of `threads` workers each: their
    lists of half-boards, and each process's blocks of rows its threads share (bounds, from the
    sizes alone: the lists are smaller in practice)."""
    worker, tables = _mitm.memory_bound(n)
    return (worker * threads + tables) * processes


def check_size(n: int, threads: int = 1, limit: int | None = None, processes: int = 1) -> str | None:
    """Why Q(n) cannot be counted this way, or None: the size range and the memory bound
    (against `limit` bytes, by default `memory_limit()`)."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_N:
        return f"counts boards of 1..{MAX_N} queens, got {n!r}"
    if n in _SMALL:
        return None
    why = "" if limit is not None else " (half this machine's memory)"
    limit = memory_limit() if limit is None else limit
    needed = memory_needed(n, threads, processes)
    if needed > limit:
        where = f"{threads} thread(s)" + (f" in each of {processes} processes" if processes > 1 else "")
        return (f"Q({n}) on {where} may hold {needed / 2**30:,.1f} GiB of half-boards, "
                f"over the limit of {limit / 2**30:,.1f} GiB{why}")
    return None


def refuse_size(n: int, threads: int, processes: int = 1) -> None:
    """Raise Unsupported, before any work, when check_size has a reason."""
    refusal = check_size(n, threads, processes=processes)
    if refusal is not None:
        raise Unsupported(f"quadrant counter: {refusal}")


def range_key(first: int, last: int) -> str:
    """The ledger's name for a range of units, e.g. '0-50'."""
    return f"{first}-{last}"


def _as_row(total: int) -> Classes:
    """A subtotal in the ledger's three integer columns (SQLite's are 64-bit signed): 62 low bits, the rest."""
    return (total & _LOW, total >> 62, 0)


def _from_row(row: Classes) -> int:
    return row[0] | row[1] << 62


def count_total(n: int, *, threads: int | None = None, ledger: Ledger | None = None, resume: bool = False,
                deadline: float | None = None, stats: Stats | None = None, progress: Progress | None = None,
                scale: int = 1) -> int:
    """Q(n) on `threads` threads (default: all cores), refused (Unsupported) before any work
    when the memory bound passes `memory_limit()`.

    With a `ledger`, every finished range is recorded; with `resume`, ranges it holds are not
    counted again. `deadline` (time.monotonic()) raises TimeLimit with the partial sum; on
    KeyboardInterrupt the threads stop within a range and the ranges finished are recorded.
    `progress(ranges done, ranges in all, solutions so far)` is called at least every half second.
    `scale` multiplies every subtotal: for tests of the 128-bit sums only.
    """
    threads = default_threads() if threads is None else check_threads(threads)
    refuse_size(n, threads)
    stats = {} if stats is None else stats
    stats["matcher"] = _mitm.MATCHER  # this machine's: a Dask worker's may differ, so said here only
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queens-quadrant") as pool:
        total = count_ranges(n, pool, ledger=ledger, resume=resume, deadline=deadline, stats=stats,
                             progress=progress, stop=bytearray(1), scale=scale)
    if n not in _SMALL:
        stats["memory"] = _mitm.tables_bytes(n) + int(stats["worker_bytes"]) * threads  # the counter's peak, at most
    return total


Pending = dict[Future[Counted | None], tuple[int, int]]


def count_ranges(n: int, executor: Executor, *, ledger: Ledger | None, resume: bool, deadline: float | None,
                 stats: Stats | None, progress: Progress | None, stop: bytearray | None, scale: int = 1) -> int:
    """The driver behind count_total and the Dask runner: Q(n)'s ranges on any concurrent.futures
    executor, summed, recorded and resumed. `stop` is the flag local threads watch (None on Dask:
    a remote worker shares no memory with this process)."""
    stats = {} if stats is None else stats
    if n in _SMALL:
        stats.update(subproblems=0, resumed=0)
        return _SMALL[n] * scale
    keys = ranges(n)
    done = ledger.finished(n, KERNEL_VERSION) if ledger is not None and resume and scale == 1 else {}
    total = sum(_from_row(done[range_key(*key)]) for key in keys if range_key(*key) in done)
    todo = [key for key in keys if range_key(*key) not in done]
    stats.update(subproblems=len(keys), resumed=len(keys) - len(todo), units=0, halves=0, pairs=0, worker_bytes=0)
    recording = ledger if scale == 1 else None
    if progress:
        progress(len(keys) - len(todo), len(keys), total)
    # no stop flag to a remote worker (Dask): it is left out of the call, not sent as None
    pending: Pending = {(executor.submit(_mitm.count, n, first, last, scale) if stop is None
                         else executor.submit(_mitm.count, n, first, last, scale, stop)): (first, last)
                        for first, last in todo}
    try:
        while pending and (deadline is None or time.monotonic() < deadline):
            ready, _ = interrupts.waited(pending, None if deadline is None else max(0.0, deadline - time.monotonic()))
            total += _take(n, ready, pending, recording, stats)
            if progress:
                progress(len(keys) - len(pending), len(keys), total)
    except KeyboardInterrupt:  # what finished meanwhile is kept; what runs is stopped or abandoned
        _take(n, {future for future in pending if future.done() and not future.cancelled()
                  and future.exception() is None}, pending, recording, stats)
        raise
    finally:  # queued ranges are cancelled, running threads return at once: the pool's exit joins quickly
        if stop is not None:
            stop[0] = 1
        for future in pending:
            future.cancel()
    if pending:
        raise TimeLimit(f"quadrant counter: time limit after {len(keys) - len(pending):,} of {len(keys):,} ranges",
                        partial=total)
    return total


def _take(n: int, ready: set[Future[Counted | None]], pending: Pending, ledger: Ledger | None, stats: Stats) -> int:
    """The solutions of the ready ranges, taken out of `pending` and recorded in one transaction
    (a range its stop flag stopped counts nothing)."""
    total = 0
    rows: list[tuple[str, Classes]] = []
    for future in ready:
        first, last = pending.pop(future)
        counted = future.result()
        if counted is None:
            continue
        solutions, units, halves, pairs, held = counted
        total += solutions
        for name, value in (("units", units), ("halves", halves), ("pairs", pairs)):
            stats[name] = int(stats[name]) + value
        stats["worker_bytes"] = max(int(stats["worker_bytes"]), held)
        rows.append((range_key(first, last), _as_row(solutions)))
    if ledger is not None and rows:
        ledger.record(n, KERNEL_VERSION, rows)
    return total
