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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import err, out
from queens.commands.number_options import Count
from queens.commands.progress import progress_shown
from queens.models import Puzzle, QueensError, TimeLimit
from queens.models.outline import outline
from queens.solvers import Result, Status, native
from queens.solvers.cores import default_threads
from queens.solvers.progress import Progress, report

if TYPE_CHECKING:  # the C counter is imported when a count runs: `queens --help` works without it
    from queens.solvers.native.counting import SymmetryClasses
    from queens.solvers.native.ledger import Ledger

DEFAULT_LEDGER = "queens-ledger.sqlite"
WHY = "plain n-queens: the fast counter, keeping a ledger for a long count"
LEDGER_FROM = 18
"""Unasked, counts of this size and up keep a ledger: they take minutes to days."""
INTERRUPTED = 130
MAX_THREADS = 1024
"""More threads than this is a typo: the counter starts every one of them."""

_META = "native count"


def _remember(ctx: click.Context, param: click.Parameter, value: object) -> object:
    if value not in (None, False):
        ctx.meta.setdefault(_META, {})[param.name] = value
    return value


_OPTIONS = [
    click.option("--unique", is_flag=True, callback=_remember, expose_value=False,
                 help="nqueens, native: also fundamental solutions (A002562) and the symmetry classes."),
    click.option("--threads", type=Count(1, MAX_THREADS), callback=_remember, expose_value=False,
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
    """n when the fast counter serves `target`: the queen graph on a full n x n board without
    pre-placed pieces, judged by the puzzle's structure (its outline), never its name."""
    if not isinstance(target, Puzzle):
        return None
    shape = outline(target)
    return None if shape.fixed else shape.queen_graph


def _check(n: int | None, backend: str | None, settings: dict[str, object], options: dict[str, object]) -> int:
    """Every refusal of these options, before any work; returns n."""
    names = ", ".join(f"--{name}" for name in options) or "this count"
    if backend not in (None, "native"):
        raise click.UsageError(f"{names}: these use the native counter; pass --backend native (or no --backend)")
    if settings:
        raise click.UsageError(f"--{', --'.join(settings)} does not apply to the native counter")
    if n is None:
        raise click.UsageError(f"{names}: these apply to plain n-queens on a full square board")
    native.require("_fast")
    from queens.solvers.native.counting import MAX_N

    if n > MAX_N:
        raise click.UsageError(f"the fast counter counts boards up to n = {MAX_N}")
    if options.get("dask") not in (None, "local") and "threads" in options:
        raise click.UsageError("--threads sizes a local count or --dask local; a remote cluster has its own workers")
    if options.get("resume") and not Path(str(options.get("ledger", DEFAULT_LEDGER))).is_file():
        raise click.UsageError(f"--resume: there is no ledger {options.get('ledger', DEFAULT_LEDGER)} to resume from "
                               f"(a count records one with --ledger PATH, or by default in ./{DEFAULT_LEDGER})")
    return n


def native_count(puzzle: Puzzle, n: int | None, backend: str | None, time_limit: float | None,
                 settings: dict[str, object], as_json: bool) -> int:
    """Count `puzzle` with the fast counter as the options ask; returns the exit code.

    `n` is `plain_queens_n(puzzle)`: None refuses the count (the options need plain n-queens).
    """
    options = requested_options()
    n = _check(n, backend, settings, options)
    from queens.solvers.native.ledger import Ledger

    path = Path(str(options.get("ledger", DEFAULT_LEDGER)))
    asked = "ledger" in options or "resume" in options
    deadline = None if time_limit is None else time.monotonic() + time_limit
    with ExitStack() as stack:
        ledger = _open_ledger(Ledger, path, asked) if asked or n >= LEDGER_FROM else None
        if ledger is not None:
            stack.enter_context(ledger)
            _announce(ledger, n, bool(options.get("resume")))
        start = time.perf_counter()
        stats: dict = {}
        try:
            with progress_shown():
                classes = _count(n, options, ledger, deadline, stats)
        except (KeyboardInterrupt, TimeLimit) as stopped:
            kept = f"finished subproblems are kept in {path}; run again with --resume" if ledger else (
                "nothing kept (no ledger could be opened here)" if n >= LEDGER_FROM else
                f"nothing kept (counts of n < {LEDGER_FROM} keep a ledger only with --ledger or --resume)")
            if isinstance(stopped, TimeLimit):
                err.print(f"{stopped} ({stopped.partial or 0:,} solutions so far, a lower bound); {kept}", markup=False)
                _report(puzzle, Result("native", Status.LIMIT, count=stopped.partial or 0, method="fast",
                                       wall_time=time.perf_counter() - start), None, options, stats, as_json)
                return 1
            err.print(f"interrupted: {kept}", markup=False)
            return INTERRUPTED
        result = Result("native", Status.COMPLETE, count=classes.total, wall_time=time.perf_counter() - start,
                        method="fast", why="the fast counter's own options" if options else WHY)
    _report(puzzle, result, classes, options, stats, as_json)
    return 0


def _open_ledger(ledger: type[Ledger], path: Path, asked: bool) -> Ledger | None:
    """The ledger at `path`; one that was not asked for (kept by default for a long count) and
    cannot be opened, in a read-only folder say, is done without: the count goes on."""
    try:
        return ledger(path)
    except QueensError as error:
        if asked:
            raise
        err.print(f"note: {error}; counting without a ledger (--ledger PATH keeps one elsewhere)", markup=False)
        return None


def _count(n: int, options: dict, ledger: Ledger | None, deadline: float | None, stats: dict) -> SymmetryClasses:
    def progress(done: int, total: int, solutions: int) -> None:
        report(Progress(solutions=solutions, done=done, total=total))

    settings = {"ledger": ledger, "resume": bool(options.get("resume")), "progress": progress, "deadline": deadline,
                "stats": stats}
    from queens.solvers.native.counting import count_classes
    from queens.solvers.native.distributed import count_classes_on_dask

    if "dask" in options:
        return count_classes_on_dask(n, str(options["dask"]), workers=options.get("threads"), **settings)
    return count_classes(n, threads=options.get("threads"), **settings)


def _announce(ledger: Ledger, n: int, resume: bool) -> None:
    from queens.solvers.native.counting import KERNEL_VERSION, subproblem_key, subproblems

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
    from queens.solvers.native.counting import KERNEL_VERSION

    other = {key: rows for key, rows in ledger.holdings().items() if key != (n, KERNEL_VERSION)}
    if other:
        listed = "; ".join(f"{rows:,} of n = {size} from counter {version}"
                           for (size, version), rows in sorted(other.items()))
        err.print(f"ignored (another n or counter version than n = {n}, {KERNEL_VERSION}): {listed}", markup=False)


def _report(puzzle: Puzzle, result: Result, classes: SymmetryClasses | None, options: dict, stats: dict,
            as_json: bool) -> None:
    """The count in the layout every count has (`queens.commands.answer`), plus the classes."""
    threads = options.get("threads", default_threads())
    where = f"Dask {options['dask']}" if "dask" in options else f"{threads} thread{'s' * (threads != 1)}"
    unique = _classes(classes) if options.get("unique") and classes is not None else {}
    if as_json:
        print_payload(payload("count", puzzle, replace(result, stats={**stats, "workers": where}),
                              verified=result.status is Status.COMPLETE, **unique))
        return
    noun = "solution" if result.count == 1 else "solutions"
    resumed = f", {stats['resumed']:,} from the ledger" if stats.get("resumed") else ""
    bound = f"≥ {result.count:,} {noun} (time limit)" if result.status is Status.LIMIT else f"{result.count:,} {noun}"
    out.print(f"{puzzle.name}: {bound} by native/fast in {result.wall_time:.3f} s ({where}; "
              f"{stats.get('subproblems', 0):,} subproblems{resumed})")
    if unique:
        out.print(f"  fundamental (up to rotation and reflection): {unique['fundamental']:,}")
        out.print(f"  classes fixed by a quarter turn: {unique['quarter_turn']:,} (2 solutions each)")
        out.print(f"  classes fixed by a half turn only: {unique['half_turn']:,} (4 solutions each)")
        out.print(f"  classes with no rotational symmetry: {unique['asymmetric']:,} (8 solutions each)")
        if unique["whole_board"]:
            out.print(f"  the lone queen, fixed by all 8 symmetries: {unique['whole_board']}")


def _classes(classes: SymmetryClasses) -> dict[str, int]:
    return {"fundamental": classes.fundamental, "quarter_turn": classes.quarter_turn,
            "half_turn": classes.half_turn, "asymmetric": classes.asymmetric, "whole_board": classes.whole_board}
