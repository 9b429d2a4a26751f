"""The D4 symmetry-class counter (fastcount.c) as a strategy, with its own options: `unique`
(the classes beside the total, A002562), `threads`, a `ledger` of finished subproblems,
`resume` from it, and `dask` (a LocalCluster or a scheduler's address).

Long counts are safe to interrupt: every finished subproblem goes into an SQLite ledger as soon
as it is done. The ledger is kept when asked for (`ledger`, `resume`) and, unasked, for counts of
n >= `LEDGER_FROM`, which run for minutes or more; the first interrupted run of those is then
resumable without having planned for it. `stats["ledger"]` says what was kept or resumed.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from queens.models import QueensError, TimeLimit, numbers
from queens.models.errors import BadOption
from queens.solvers import native
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.progress import Progress, report
from queens.solvers.result import Result, Status
from queens.solvers.strategy import Strategy, Subject, native_counter_for
from queens.solvers.threads import default_threads

if TYPE_CHECKING:  # the C counter is imported when a count runs
    from queens.solvers.native.counting import SymmetryClasses
    from queens.solvers.native.ledger import Ledger

DEFAULT_LEDGER = "queens-ledger.sqlite"
LEDGER_FROM = 18
"""Unasked, counts of this size and up keep a ledger (in ./queens-ledger.sqlite): they take minutes
to days. A ledger that cannot be written there (a read-only folder) is then skipped with a note:
only an asked-for ledger is an error."""
OPTIONS = frozenset({"threads", "unique", "ledger", "resume", "dask"})
"""The fast counter's own options (a backend's search that counts otherwise takes none of them
but `unique`)."""
CLASSES = ("fundamental", "quarter_turn", "half_turn", "asymmetric", "whole_board")


@dataclass(frozen=True)
class FastCount(Strategy):
    """Counts plain n-queens by symmetry class (see the module docstring)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        n, reason = native_counter_for(subject, "_fast")
        if n is None:
            return reason
        from queens.solvers.native.counting import MAX_N

        return None if 4 <= n <= MAX_N else f"counts 4 <= n <= {MAX_N}, not n = {n}"

    def options(self) -> frozenset[str]:
        return OPTIONS

    def check(self, options: Options) -> None:
        if options.get("dask") not in (None, "local") and options.get("threads") is not None:
            raise BadOption("--threads sizes a local count or --dask local; a remote cluster has its own workers")
        if options.get("resume") and not Path(str(options.get("ledger") or DEFAULT_LEDGER)).is_file():
            raise BadOption(f"--resume: there is no ledger {options.get('ledger') or DEFAULT_LEDGER} to resume from "
                            f"(a count records one with --ledger PATH, or by default in ./{DEFAULT_LEDGER})")
        if options.get("threads") is not None:  # read here without the C counter: a missing one is supports' to say
            numbers.count(options["threads"], "threads", minimum=1)
        path = options.get("ledger")
        if path is not None and Path(str(path)).is_file() and not native.missing("_fast"):  # no ledger: said now
            from queens.solvers.native.ledger import Ledger

            with Ledger(Path(str(path))):
                pass

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        n = subject.puzzle.rows
        path = Path(str(options.get("ledger") or DEFAULT_LEDGER))
        asked = bool(options.get("ledger") or options.get("resume"))
        deadline = None if time_limit is None else time.monotonic() + time_limit
        stats: dict[str, int | float | str] = {}
        start = time.perf_counter()
        with ExitStack() as stack:
            ledger = _ledger(stack, path, asked, n, bool(options.get("resume")), stats)
            try:
                classes = _count(n, options, ledger, deadline, stats)
            except TimeLimit as stopped:
                return Result(self.backend, Status.LIMIT, count=stopped.partial or 0, method=self.method,
                              wall_time=time.perf_counter() - start, stats={**stats, "stopped": str(stopped)})
        stats.update(_where(options), counter="fast (symmetry classes)")
        stats.update({name: getattr(classes, name) for name in CLASSES})  # counted anyway: said
        if options.get("unique"):
            stats["classes"] = classes.fundamental
        return Result(self.backend, Status.COMPLETE, count=classes.total, wall_time=time.perf_counter() - start,
                      stats=stats, method=self.method)


def _ledger(stack: ExitStack, path: Path, asked: bool, n: int, resume: bool,
            stats: dict[str, int | float | str]) -> Ledger | None:
    """The ledger to record in: asked for, or unasked from `LEDGER_FROM` when it can be written."""
    if not asked and n < LEDGER_FROM:
        return None
    from queens.solvers.native.ledger import Ledger

    try:
        ledger = stack.enter_context(Ledger(path))
    except (OSError, QueensError) as error:
        if asked:
            raise
        stats["ledger"] = f"counting without a ledger: {path} cannot be written ({error})"
        return None
    stats["ledger"] = _held(ledger, n, resume)
    return ledger


def _held(ledger: Ledger, n: int, resume: bool) -> str:
    """What the ledger holds for this count, said before it starts: what a resume reuses, and the
    rows it cannot use (another n or counter), so a wrong ledger is not taken for an empty one."""
    from queens.solvers.native.counting import KERNEL_VERSION, subproblem_key, subproblems

    keys = subproblems(n)
    mine = sum(subproblem_key(key) in ledger.finished(n, KERNEL_VERSION) for key in keys)
    other = {key: rows for key, rows in ledger.holdings().items() if key != (n, KERNEL_VERSION)}
    if resume:
        said = f"resuming from {ledger.path}: {mine:,} of {len(keys):,} subproblems already counted"
        if other:
            listed = "; ".join(f"{rows:,} of n = {size} from counter {version}"
                               for (size, version), rows in sorted(other.items()))
            said += f"; ignored (another n or counter version than n = {n}, {KERNEL_VERSION}): {listed}"
        return said
    if mine:
        return (f"{ledger.path} holds {mine:,} finished subproblems of n = {n}; counting afresh "
                "(they are replaced as the count proceeds; --resume would reuse them)")
    return f"recording finished subproblems in {ledger.path} (after an interruption: --resume)"


def _where(options: Options) -> dict[str, str]:
    threads = options.get("threads") or default_threads()
    dask = options.get("dask")
    return {"workers": f"Dask {dask}" if dask else f"{threads} thread{'s' * (threads != 1)}"}


def _count(n: int, options: Options, ledger: Ledger | None, deadline: float | None,
           stats: dict[str, int | float | str]) -> SymmetryClasses:
    def progress(done: int, total: int, solutions: int) -> None:
        report(Progress(solutions=solutions, done=done, total=total))

    resume = bool(options.get("resume"))
    from queens.solvers.native.counting import count_classes

    if "dask" in options and options["dask"]:
        from queens.solvers.native.distributed import count_classes_on_dask

        return count_classes_on_dask(n, str(options["dask"]), workers=options.get("threads"), ledger=ledger,
                                     resume=resume, progress=progress, deadline=deadline, stats=stats)
    return count_classes(n, threads=options.get("threads"), ledger=ledger, resume=resume, progress=progress,
                         deadline=deadline, stats=stats)
