"""`queens count`: count solutions on one backend or all, checked against the native counter."""

from __future__ import annotations

import time

import click
from rich.table import Table

from queens.commands.common import (
    DISAGREES,
    backend_options,
    backend_settings,
    describe,
    err,
    explain_none,
    json_option,
    make_puzzle,
    out,
    print_json,
    puzzle_options,
)
from queens.families import Target
from queens.models import QueensError
from queens.native_count import (
    LEDGER_FROM,
    MAX_N,
    native_count,
    native_count_options,
    plain_queens_n,
    requested_options,
)
from queens.reference import ground_truth
from queens.solvers import BACKENDS, Result, Status
from queens.solvers.classes import count_classes, count_target


@click.command("count")
@puzzle_options
@backend_options(allow_all=True)
@json_option
@native_count_options
def count_command(family, n, m, backend, time_limit, viewpoint, encoding, as_json) -> int:
    """Count solutions; with --backend all, compare every backend with the native counter."""
    puzzle = make_puzzle(family, n, m)
    requested = requested_options()
    long_count = backend in ("native", "all") and LEDGER_FROM <= n <= MAX_N
    size = plain_queens_n(puzzle) if requested or long_count else None  # lowers the model: only when asked
    if set(requested) == {"unique"} and size is None:
        return _classes(puzzle, "native" if backend == "all" else backend,
                        backend_settings(backend, viewpoint, encoding) if backend != "all" else {}, as_json)
    if requested:  # --unique, --threads, --resume, --ledger, --dask on plain n-queens: the fast counter
        return native_count(puzzle, size, backend, time_limit, viewpoint, encoding, as_json)
    if long_count and size is not None:  # a long plain count: the fast counter keeps a ledger
        return native_count(puzzle, size, "native", time_limit, viewpoint, encoding, as_json)
    names = list(BACKENDS) if backend == "all" else [backend]
    results: list[Result] = []
    failures: dict[str, str] = {}
    for name in names:
        err.print(f"counting {puzzle.name} with {name} ...")
        try:
            settings = backend_settings(name, viewpoint, encoding) if len(names) == 1 else {}
            results.append(count_target(puzzle, name, time_limit=time_limit, **settings))
        except QueensError as error:
            if len(names) == 1:
                raise
            failures[name] = str(error)
    truth = ground_truth(puzzle, results, time_limit)
    rows = []
    for result in results:
        agrees = None if truth is None or result.status is not Status.COMPLETE else result.count == truth
        rows.append({**result.to_json(), "agrees": agrees})
    rows += [{"backend": name, "status": "error", "error": message} for name, message in failures.items()]
    note = explain_none(family, n, m) if truth == 0 else None
    if as_json:
        print_json({"puzzle": describe(puzzle), "ground_truth": truth, "results": rows, "note": note})
    else:
        _table(puzzle.name, rows, truth)
        optimum = next((r.objective for r in results if r.objective is not None), None)
        if optimum is not None:
            out.print(f"fewest pieces: {optimum} (every count above is of sets of that size)")
        if note:
            out.print(f"why: {note}")
    if any(row.get("agrees") is False for row in rows):
        err.print("a backend disagrees with the native counter")
        return DISAGREES
    if failures or any(r.status is Status.LIMIT for r in results):
        return 1
    return 0


def _classes(target: Target, backend: str, settings: dict, as_json: bool) -> int:
    """--unique for any family: enumerate, and count classes under the model's own symmetries
    (for free pawns, the board's symmetries acting on pawns and queens together)."""
    err.print(f"counting {target.name} and its symmetry classes with {backend} ...")
    start = time.perf_counter()
    found = count_classes(target, backend, **settings)
    seconds = time.perf_counter() - start
    if as_json:
        print_json({"puzzle": describe(target), "backend": backend, "total": found.total,
                    "classes": found.classes, "wall_time": round(seconds, 6)})
    else:
        classes = "class" if found.classes == 1 else "classes"
        out.print(f"{target.name}: {found.total:,} solutions in {found.classes:,} {classes} "
                  f"under the board symmetries that keep the puzzle ({backend}, {seconds:.3f} s)")
    return 0


def _table(title: str, rows: list[dict], truth: int | None) -> None:
    table = Table(title=f"{title}: solutions" + ("" if truth is None else f" (native: {truth})"))
    table.add_column("backend")
    table.add_column("count", justify="right")
    table.add_column("time (s)", justify="right")
    table.add_column("status")
    table.add_column("ground truth", justify="center")
    for row in rows:
        if row["status"] == "error":
            table.add_row(row["backend"], "-", "-", "error: " + row["error"], "")
            continue
        mark = {True: "✓", False: "✗", None: "?"}[row["agrees"]]
        count_text = "-" if row["count"] is None else f"{row['count']:,}"
        table.add_row(row["backend"], count_text, f"{row['wall_time']:.3f}", row["status"], mark)
    out.print(table)
