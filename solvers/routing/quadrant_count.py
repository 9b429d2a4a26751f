"""The meet-in-the-middle counter (mitmcore.c, solvers/native/quadrant.py) as a strategy: totals
Q(n) of the plain queen graph by joining half-boards, with the ledgered counters' options
(`threads`, `ledger`, `resume`, `dask`: solvers/routing/ledgered_count.py). Its 256 ranges are recorded
and resumed as the classes counter's subproblems are, on threads or on Dask alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from queens.models.errors import BadOption
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.routing.ledgered_count import OPTIONS, LedgeredCount, Stats, progress
from queens.solvers.routing.strategy import Subject, native_counter_for

if TYPE_CHECKING:  # the C counter is imported when a count runs
    from queens.solvers.runtime.ledger import Ledger

QUADRANT_FROM = 16
"""The smallest n the router counts with native/quadrant unasked (measured: see QuadrantCount)."""


@dataclass(frozen=True)
class QuadrantCount(LedgeredCount):
    """The meet-in-the-middle counter: totals only, so `unique` (the D4 classes) is refused with
    the reason and the router gives it to native/classes; too small a board is left to native/classes
    by `worth`. A ledger, `resume` and `dask` work as for native/classes: the ranges are recorded
    under the quadrant counter's version (a classes counter's rows in the same file are named and
    left alone), and a Dask run resumes on threads and the other way round.

    Crossover (QUADRANT_FROM), measured side by side in one process on one thread: slower than
    native/classes at n = 13, a tie within noise at n = 14 and 15, several times faster from n = 16
    (experiments/results/design-choices.md). Hence from n = 16.
    """

    extension: ClassVar[str] = "_mitm"

    def supports(self, subject: Subject, task: Task) -> str | None:
        n, reason = native_counter_for(subject, self.extension)
        if n is None:
            return reason
        from queens.solvers.native.quadrant import check_size

        return check_size(n)

    def worth(self, subject: Subject) -> bool:
        n = subject.outline.queen_graph
        return n is not None and n >= QUADRANT_FROM

    def options(self) -> frozenset[str]:
        return OPTIONS | {"unique"}  # taken to refuse it with the reason (check), not silently passed over

    def check(self, options: Options) -> None:
        if options.get("unique"):
            raise BadOption("counts totals only; the symmetry classes (--unique) are native/classes's")
        super().check(options)

    def ledgered(self, n: int) -> tuple[str, list[str]]:
        from queens.solvers.native.quadrant import KERNEL_VERSION, range_key, ranges

        return KERNEL_VERSION, [range_key(*key) for key in ranges(n)]

    def counted(self, n: int, options: Options, ledger: Ledger | None, deadline: float | None, stats: Stats) -> int:
        stats["by"] = "meet in the middle (half-boards joined by column set)"
        resume = bool(options.get("resume"))
        if options.get("dask"):
            from queens.solvers.native.distributed import count_total_on_dask

            return count_total_on_dask(n, str(options["dask"]), workers=options.get("threads"), ledger=ledger,
                                       resume=resume, progress=progress(stats), deadline=deadline, stats=stats)
        from queens.solvers.native.quadrant import count_total

        return count_total(n, threads=options.get("threads"), ledger=ledger, resume=resume, progress=progress(stats),
                           deadline=deadline, stats=stats)
