"""`queens count` with the fast native counter: symmetry classes, threads, a ledger, Dask.

    queens count nqueens -n 12 --unique          total, fundamental and the three class counts
    queens count nqueens -n 17 --threads 2       on 2 threads (default: all cores)
    queens count nqueens -n 20 --resume          continue an interrupted count from its ledger
    queens count nqueens -n 20 --dask local      the same subproblems on a Dask LocalCluster

These options apply to plain n-queens (the model's structure is checked, not the family name)
and to the native backend; with any of them `count` runs this path instead of its table.
Long counts are safe to interrupt: every finished subproblem goes into an SQLite ledger
(`--ledger PATH`, default ./queens-ledger.sqlite) as soon as it is done. The ledger is kept
when asked for (--ledger, --resume) and, unasked, for counts of n >= 18, which run for minutes
or more; the first interrupted run of those is then resumable without having planned for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import click
from click.core import ParameterSource
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from queens.commands.common import backend_settings, describe, err, out, print_json
from queens.models import Puzzle, TimeLimit, lower
from queens.solvers.native.counting import (
    KERNEL_VERSION,
    MAX_N,
    SymmetryClasses,
    count_classes,
    default_threads,
    subproblem_key,
    subproblems,
)
from queens.solvers.native.distributed import count_classes_on_dask
from queens.solvers.native.ledger import Ledger
from queens.solvers.native.structure import plain_queens_size

DEFAULT_LEDGER = "queens-ledger.sqlite"
LEDGER_FROM = 18
"""Unasked, counts of this size and up keep a ledger: they take minutes to days."""
INTERRUPTED = 130

_META = "native count"


def _remember(ctx: click.Context, param: click.Parameter, value: object) -> object:
    if value not in (None, False):
        ctx.meta.setdefault(_META, {})[param.name] = value
    return value


_OPTIONS = [
    click.option("--unique", is_flag=True, callback=_remember, expose_value=False,
                 help="nqueens, native: also fundamental solutions (A002562) and the symmetry classes."),
    click.option("--threads", type=click.IntRange(min=1), callback=_remember, expose_value=False,
                 help="nqueens, native: threads for the fast counter (default: all cores)."),
    click.option("--resume", is_flag=True, callback=_remember, expose_value=False,
                 help="nqueens, native: skip the subproblems the ledger already holds."),
    click.option("--ledger", type=click.Path(dir_okay=False), callback=_remember, expose_value=False,
                 help=f"nqueens, native: SQLite file of finished subproblems [default: ./{DEFAULT_LEDGER}]."),
    click.option("--dask", metavar="local|tcp://HOST:PORT", callback=_remember, expose_value=False,
                 help="nqueens, native: count on a Dask LocalCluster or an existing scheduler."),
]


def native_count_options(command: Callable) -> Callable:
    """--unique, --threads, --resume, --ledger, --dask (read back by `requested_options`)."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def requested_options() -> dict[str, object]:
    """The fast-counter options given on this command line (empty: count as usual)."""
    return click.get_current_context().meta.get(_META, {})


def plain_queens_n(target: object) -> int | None:
    """n when the fast counter serves `target` (plain n-queens, judged by the model's structure)."""
    return plain_queens_size(lower(target)) if isinstance(target, Puzzle) else None


def native_count(puzzle: Puzzle, n: int | None, backend: str, time_limit: float | None, viewpoint: str | None,
                 encoding: str | None, as_json: bool) -> int:
    """Count `puzzle` with the fast counter as the options ask; returns the exit code.

    `n` is `plain_queens_n(puzzle)`: None refuses the count (the options need plain n-queens).
    """
    options = requested_options()
    names = ", ".join(f"--{name}" for name in options)
    source = click.get_current_context().get_parameter_source("backend")
    if backend != "native" and not (backend == "all" and source is ParameterSource.DEFAULT):
        raise click.UsageError(f"{names}: these use the native counter; pass --backend native (or no --backend)")
    backend_settings("native", viewpoint, encoding)  # --viewpoint/--encoding do not apply: usage error
    if n is None:
        raise click.UsageError(f"{names}: these apply to plain n-queens on a full square board (the nqueens family)")
    if n > MAX_N:
        raise click.UsageError(f"the fast counter counts boards up to n = {MAX_N}")
    dask = options.get("dask")
    if dask not in (None, "local") and "threads" in options:
        raise click.UsageError("--threads sizes a local count or --dask local; a remote cluster has its own workers")
    path = Path(options.get("ledger", DEFAULT_LEDGER))
    if options.get("resume") and not path.is_file():  # checked before Ledger() would create it
        raise click.UsageError(f"--resume: there is no ledger {path} to resume from "
                               f"(a count records one with --ledger PATH, or by default in ./{DEFAULT_LEDGER})")
    keep_ledger = "ledger" in options or "resume" in options or n >= LEDGER_FROM
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with ExitStack() as stack:
        ledger = stack.enter_context(Ledger(path)) if keep_ledger else None
        if ledger is not None:
            _announce(ledger, n, bool(options.get("resume")))
        bar = stack.enter_context(_progress_bar(puzzle.name))
        start = time.perf_counter()
        stats: dict = {}
        try:
            classes = _count(n, options, ledger, deadline, bar, stats)
        except (KeyboardInterrupt, TimeLimit) as stopped:
            bar.stop()
            kept = f"finished subproblems are kept in {path}; run again with --resume" if ledger else (
                f"nothing kept (counts of n < {LEDGER_FROM} keep a ledger only with --ledger or --resume)")
            if isinstance(stopped, TimeLimit):
                err.print(f"{stopped} ({stopped.partial:,} solutions so far, a lower bound); {kept}", markup=False)
                return 1
            err.print(f"interrupted: {kept}", markup=False)
            return INTERRUPTED
        seconds = time.perf_counter() - start
    _report(puzzle, classes, seconds, options, stats, as_json)
    return 0


def _count(n: int, options: dict, ledger: Ledger | None, deadline: float | None, bar: Progress,
           stats: dict) -> SymmetryClasses:
    task = bar.add_task("subproblems", total=None, solutions=0)

    def progress(done: int, total: int, solutions: int) -> None:
        bar.update(task, completed=done, total=total, solutions=solutions)

    settings = {"ledger": ledger, "resume": bool(options.get("resume")), "progress": progress, "deadline": deadline,
                "stats": stats}
    if "dask" in options:
        return count_classes_on_dask(n, str(options["dask"]), workers=options.get("threads"), **settings)
    return count_classes(n, threads=options.get("threads"), **settings)


def _announce(ledger: Ledger, n: int, resume: bool) -> None:
    held = ledger.finished(n, KERNEL_VERSION)
    keys = subproblems(n)
    mine = sum(subproblem_key(key) in held for key in keys)
    if resume:
        err.print(f"resuming from {ledger.path}: {mine:,} of {len(keys):,} subproblems already counted", markup=False)
        _mention_ignored(ledger, n)
    elif mine:
        err.print(f"{ledger.path} holds {mine:,} finished subproblems of n = {n}; counting afresh "
                  "(they are replaced as the count proceeds; --resume would reuse them)", markup=False)
    else:
        err.print(f"recording finished subproblems in {ledger.path} (after an interruption: --resume)", markup=False)


def _mention_ignored(ledger: Ledger, n: int) -> None:
    """Rows a resume cannot use (another n, or another counter whose subproblems differ) are
    named, so that a ledger of the wrong count is not mistaken for an empty start."""
    other = {key: rows for key, rows in ledger.holdings().items() if key != (n, KERNEL_VERSION)}
    if other:
        listed = "; ".join(f"{rows:,} of n = {size} from counter {version}"
                           for (size, version), rows in sorted(other.items()))
        err.print(f"ignored (another n or counter version than n = {n}, {KERNEL_VERSION}): {listed}", markup=False)


def _progress_bar(title: str) -> Progress:
    """Subproblems done, solutions so far and the time left, on stderr (only on a terminal)."""
    return Progress(TextColumn(f"{title}:"), BarColumn(), MofNCompleteColumn(), TextColumn("subproblems"),
                    TextColumn("{task.fields[solutions]:,} solutions"), TimeRemainingColumn(),
                    console=err, transient=True, disable=not err.is_terminal)


def _report(puzzle: Puzzle, classes: SymmetryClasses, seconds: float, options: dict, stats: dict,
            as_json: bool) -> None:
    unique = bool(options.get("unique"))
    threads = options.get("threads", default_threads())
    where = f"Dask {options['dask']}" if "dask" in options else f"{threads} thread{'s' * (threads != 1)}"
    if as_json:
        payload = {"puzzle": describe(puzzle), "backend": "native", "counter": "fast", "total": classes.total,
                   "wall_time": round(seconds, 6), "workers": where, **stats}
        if unique:
            payload |= {"fundamental": classes.fundamental, "quarter_turn": classes.quarter_turn,
                        "half_turn": classes.half_turn, "asymmetric": classes.asymmetric,
                        "whole_board": classes.whole_board}
        print_json(payload)
        return
    noun = "solution" if classes.total == 1 else "solutions"
    resumed = f", {stats['resumed']:,} from the ledger" if stats.get("resumed") else ""
    out.print(f"{puzzle.name}: {classes.total:,} {noun} ({seconds:.3f} s, {where}; "
              f"{stats.get('subproblems', 0):,} subproblems{resumed})")
    if unique:
        out.print(f"  fundamental (up to rotation and reflection): {classes.fundamental:,}")
        out.print(f"  classes fixed by a quarter turn: {classes.quarter_turn:,} (2 solutions each)")
        out.print(f"  classes fixed by a half turn only: {classes.half_turn:,} (4 solutions each)")
        out.print(f"  classes with no rotational symmetry: {classes.asymmetric:,} (8 solutions each)")
        if classes.whole_board:
            out.print(f"  the lone queen, fixed by all 8 symmetries: {classes.whole_board}")
