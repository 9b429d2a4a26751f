"""Count n-queens totals Q(n) by meeting in the middle, on all cores, resumably.

The C counter (mitmcore.c) joins top and bottom half-boards grouped by the columns the top
half uses (and, on an odd board, the middle row's queen), instead of walking the search tree.
Its work is split by ranges of those units (ranked in a fixed order): each range is a
subproblem, counted on a worker thread (the C code runs without the GIL), recorded in the
`Ledger` as it finishes and skipped by `resume`.
It counts totals only: the D4 classes (A002562) stay with the backtracking counter
(counting.py), which sees every solution's symmetry.

>>> count_total(8), count_total(12)
(92, 14200)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from queens.models import TimeLimit, Unsupported
from queens.solvers.native import _mitm
from queens.solvers.native.counting import check_threads
from queens.solvers.native.ledger import Classes, Ledger
from queens.solvers.threads import default_threads

from queens import interrupts

KERNEL_VERSION = f"quadrant-{_mitm.VERSION}"
"""Ledger rows are keyed by this: the backtracking counter's rows never mix with these."""

MAX_N = _mitm.MAX_N
MEMORY_LIMIT = 4 << 30
"""Bytes all workers together may hold (4 GiB): a count whose bound passes it is refused."""

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


def memory_needed(n: int, threads: int) -> int:
    """The most memory Q(n) holds on `threads` workers: their lists of half-boards, and the
    blocks of rows they share (bounds, from the sizes alone: the lists are smaller in practice)."""
    worker, tables = _mitm.memory_bound(n)
    return worker * threads + tables


def check_size(n: int, threads: int = 1, limit: int = MEMORY_LIMIT) -> str | None:
    """Why Q(n) cannot be counted this way, or None: the size range and the memory bound."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_N:
        return f"counts boards of 1..{MAX_N} queens, got {n!r}"
    if n in _SMALL:
        return None
    needed = memory_needed(n, threads)
    if needed > limit:
        return (f"Q({n}) on {threads} thread(s) may hold {needed / 2**30:,.1f} GiB of half-boards, "
                f"over the limit of {limit / 2**30:,.1f} GiB")
    return None


def _as_row(total: int) -> Classes:
    """A subtotal in the ledger's three integer columns (SQLite's are 64-bit signed): 62 low bits, the rest."""
    return (total & _LOW, total >> 62, 0)


def _from_row(row: Classes) -> int:
    return row[0] | row[1] << 62


def count_total(n: int, *, threads: int | None = None, ledger: Ledger | None = None, resume: bool = False,
                deadline: float | None = None, stats: Stats | None = None,
                progress: Callable[[int, int, int], None] | None = None, scale: int = 1) -> int:
    """Q(n) on `threads` threads (default: all cores), refused (Unsupported) before any work
    when the memory bound passes MEMORY_LIMIT.

    With a `ledger`, every finished range is recorded; with `resume`, ranges it holds are not
    counted again. `deadline` (time.monotonic()) raises TimeLimit with the partial sum.
    `scale` multiplies every subtotal: for tests of the 128-bit sums only.
    """
    threads = default_threads() if threads is None else check_threads(threads)
    refusal = check_size(n, threads)
    if refusal is not None:
        raise Unsupported(f"quadrant counter: {refusal}")
    stats = {} if stats is None else stats
    if n in _SMALL:
        stats.update(subproblems=0, resumed=0)
        return _SMALL[n] * scale
    keys = ranges(n)
    done = ledger.finished(n, KERNEL_VERSION) if ledger is not None and resume and scale == 1 else {}
    names = {key: f"{key[0]}-{key[1]}" for key in keys}
    total = sum(_from_row(done[names[key]]) for key in keys if names[key] in done)
    todo = [key for key in keys if names[key] not in done]
    stats.update(subproblems=len(keys), resumed=len(keys) - len(todo), units=0, halves=0, pairs=0,
                 matcher=_mitm.MATCHER, worker_bytes=0)
    stop = bytearray(1)
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="queens-quadrant") as pool:
        pending = {pool.submit(_mitm.count, n, first, last, scale, stop): (first, last) for first, last in todo}
        try:
            total += _collect(n, pending, deadline, ledger if scale == 1 else None, stats, progress, total, len(keys))
        finally:
            stop[0] = 1  # queued ranges return at once; the pool's exit then joins quickly
    stats["memory"] = _mitm.tables_bytes(n) + int(stats["worker_bytes"]) * threads  # the counter's peak, at most
    if pending:
        raise TimeLimit(f"quadrant counter: time limit after {len(keys) - len(pending):,} of {len(keys):,} ranges",
                        partial=total)
    return total


Pending = dict[Future[Counted | None], tuple[int, int]]


def _collect(n: int, pending: Pending, deadline: float | None, ledger: Ledger | None, stats: Stats,
             progress: Callable[[int, int, int], None] | None, before: int, parts: int) -> int:
    """Sum the ranges as they finish (recording each), until all are done or the deadline passes;
    what is left unfinished stays in `pending`."""
    total = 0
    while pending and (deadline is None or time.monotonic() < deadline):
        timeout = 0.5 if deadline is None else min(0.5, max(0.0, deadline - time.monotonic()))
        ready, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        interrupts.check()
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
            rows.append((f"{first}-{last}", _as_row(solutions)))
        if ledger is not None and rows:
            ledger.record(n, KERNEL_VERSION, rows)
        if progress:
            progress(parts - len(pending), parts, before + total)
    return total
