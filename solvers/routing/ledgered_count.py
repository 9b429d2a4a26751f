"""What the native counters of plain n-queens share as strategies (native/classes, native/quadrant):
their work split into subproblems, counted on `threads` or a Dask cluster (`dask`: "local" or a
scheduler's address), every finished subproblem kept in a `ledger`, and `resume` from it.

Long counts are safe to interrupt: every finished subproblem goes into an SQLite ledger as soon
as it is done. The ledger is kept when asked for (`ledger`, `resume`) and, unasked, for counts of
n >= `LEDGER_FROM`, which run for minutes or more; the first interrupted run of those is then
resumable without having planned for it. `stats["ledger"]` says what was kept or resumed. Each
counter keys its rows by its own version, so one file can hold both counters' rows and a resume
reuses only its own counter's (naming the others).
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from queens.models import QueensError, TimeLimit, numbers
from queens.models.errors import BadOption
from queens.solvers import native
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategy import Strategy, Subject
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.progress import Progress, report

if TYPE_CHECKING:  # the C counters are imported when a count runs
    from queens.solvers.runtime.ledger import Ledger

DEFAULT_LEDGER = "queens-ledger.sqlite"
LEDGER_FROM = 18
"""Unasked, counts of this size and up keep a ledger (in ./queens-ledger.sqlite): they take minutes
to days. A ledger that cannot be written there (a read-only folder) is then skipped with a note:
only an asked-for ledger is an error."""
OPTIONS = frozenset({"threads", "ledger", "resume", "dask"})
"""The options every ledgered counter takes (a backend's search that counts takes none of them)."""

Stats = dict[str, int | float | str]


@dataclass(frozen=True)
class LedgeredCount(Strategy):
    """A native counter whose subproblems are kept in a ledger (see the module docstring): the
    options, their checks before any work, the ledger's opening and the result are shared here;
    a counter says what it records (`ledgered`) and counts (`counted`)."""

    extension: ClassVar[str]
    """The C extension that counts (refused by `supports`, with the way to build it, when missing)."""

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
        path = options.get("ledger")  # a file that is not a ledger: said now (a missing counter: by supports)
        if path is not None and Path(str(path)).is_file() and not native.missing(self.extension):
            from queens.solvers.runtime.ledger import Ledger

            with Ledger(Path(str(path))):
                pass

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        n = subject.puzzle.rows
        path = Path(str(options.get("ledger") or DEFAULT_LEDGER))
        asked = bool(options.get("ledger") or options.get("resume"))
        deadline = None if time_limit is None else time.monotonic() + time_limit
        stats: Stats = {}
        start = time.perf_counter()
        with ExitStack() as stack:
            ledger = self._ledger(stack, path, asked, n, bool(options.get("resume")), stats)
            try:
                total = self.counted(n, options, ledger, deadline, stats)
            except TimeLimit as stopped:
                return Result(self.backend, Status.LIMIT, count=stopped.partial or 0, method=self.method,
                              wall_time=time.perf_counter() - start, stats={**stats, "stopped": str(stopped)})
        stats.update(_where(options))
        return Result(self.backend, Status.COMPLETE, count=total, wall_time=time.perf_counter() - start,
                      stats=stats, method=self.method)

    @abstractmethod
    def ledgered(self, n: int) -> tuple[str, list[str]]:
        """The version this counter's ledger rows carry, and the names of Q(n)'s subproblems."""

    @abstractmethod
    def counted(self, n: int, options: Options, ledger: Ledger | None, deadline: float | None, stats: Stats) -> int:
        """Q(n) on the threads or the Dask cluster `options` ask for, recorded in (and resumed from)
        `ledger`, reporting `progress`; TimeLimit at the deadline, with the solutions so far."""

    def _ledger(self, stack: ExitStack, path: Path, asked: bool, n: int, resume: bool, stats: Stats) -> Ledger | None:
        """The ledger to record in: asked for, or unasked from `LEDGER_FROM` when it can be written."""
        if not asked and n < LEDGER_FROM:
            return None
        from queens.solvers.runtime.ledger import Ledger

        try:
            ledger = stack.enter_context(Ledger(path))
        except (OSError, QueensError) as error:
            if asked:
                raise
            stats["ledger"] = f"counting without a ledger: {path} cannot be written ({error})"
            return None
        stats["ledger"] = _held(ledger, n, resume, *self.ledgered(n))
        return ledger


def progress(stats: Stats) -> Callable[[int, int, int], None]:
    """A counter's progress (subproblems done of how many, solutions so far), to the listeners,
    with the subproblems it resumed from its ledger (`stats["resumed"]`, set before its first report)."""
    def reported(done: int, total: int, solutions: int) -> None:
        report(Progress(solutions=solutions, done=done, total=total, resumed=int(stats.get("resumed", 0))))
    return reported


def _held(ledger: Ledger, n: int, resume: bool, version: str, keys: list[str]) -> str:
    """What the ledger holds for this count, said before it starts: what a resume reuses, and the
    rows it cannot use (another n or counter), so a wrong ledger is not taken for an empty one."""
    finished = ledger.finished(n, version)
    mine = sum(key in finished for key in keys)
    other = {key: rows for key, rows in ledger.holdings().items() if key != (n, version)}
    if resume:
        said = f"resuming from {ledger.path}: {mine:,} of {len(keys):,} subproblems already counted"
        if other:
            listed = "; ".join(f"{rows:,} of n = {size} from counter {counter}"
                               for (size, counter), rows in sorted(other.items()))
            said += f"; ignored (another n or counter version than n = {n}, {version}): {listed}"
        return said
    if mine:
        return (f"{ledger.path} holds {mine:,} finished subproblems of n = {n}; counting afresh "
                "(they are replaced as the count proceeds; --resume would reuse them)")
    return f"recording finished subproblems in {ledger.path} (after an interruption: --resume)"


def _where(options: Options) -> dict[str, str]:
    threads = options.get("threads") or default_threads()
    dask = options.get("dask")
    return {"workers": f"Dask {dask}" if dask else f"{threads} thread{'s' * (threads != 1)}"}
