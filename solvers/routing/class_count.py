"""The D4 symmetry-class counter (classcount.c) as a strategy: the ledgered counters' options
(`threads`, `ledger`, `resume`, `dask`: solvers/routing/ledgered_count.py) and `unique`, the classes
beside the total (A002562), which only this counter sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.routing.ledgered_count import OPTIONS, LedgeredCount, Stats, progress
from queens.solvers.routing.strategy import Subject, native_counter_for

if TYPE_CHECKING:  # the C counter is imported when a count runs
    from queens.solvers.runtime.ledger import Ledger

CLASSES = ("fundamental", "quarter_turn", "half_turn", "asymmetric", "whole_board")


@dataclass(frozen=True)
class ClassCount(LedgeredCount):
    """Counts plain n-queens by symmetry class (see the module docstring)."""

    extension: ClassVar[str] = "_classes"

    def supports(self, subject: Subject, task: Task) -> str | None:
        n, reason = native_counter_for(subject, self.extension)
        if n is None:
            return reason
        from queens.solvers.native.counting import MAX_N

        return None if 4 <= n <= MAX_N else f"counts 4 <= n <= {MAX_N}, not n = {n}"

    def options(self) -> frozenset[str]:
        return OPTIONS | {"unique"}

    def ledgered(self, n: int) -> tuple[str, list[str]]:
        from queens.solvers.native.counting import KERNEL_VERSION, subproblem_key, subproblems

        return KERNEL_VERSION, [subproblem_key(key) for key in subproblems(n)]

    def counted(self, n: int, options: Options, ledger: Ledger | None, deadline: float | None, stats: Stats) -> int:
        resume = bool(options.get("resume"))
        if options.get("dask"):
            from queens.solvers.native.distributed import count_classes_on_dask

            classes = count_classes_on_dask(n, str(options["dask"]), workers=options.get("threads"), ledger=ledger,
                                            resume=resume, progress=progress(stats), deadline=deadline, stats=stats)
        else:
            from queens.solvers.native.counting import count_classes

            classes = count_classes(n, threads=options.get("threads"), ledger=ledger, resume=resume,
                                    progress=progress(stats), deadline=deadline, stats=stats)
        stats["counter"] = "classes (by D4 symmetry class)"
        stats.update({name: getattr(classes, name) for name in CLASSES})  # counted anyway: said
        if options.get("unique"):
            stats["classes"] = classes.fundamental
        return classes.total
