"""No room: a puzzle whose own numbers leave no placement is answered by counting, before any
model is built (the pigeonhole principle).

Two rooks in every row and column of a 1 x 1 board (OEIS A001499(1) = 0), 17 knights on a
4 x 4 board: the pieces asked for outnumber the squares that can hold them. That is a question
with an answer, 0 solutions or "no solution", not a board that cannot be; the lowering, which
writes one constraint per line, refuses such a line, so the router asks this strategy first.

The counting argument is `queens.models.lowering.no_room`, which the lowering also asks: a
backend named by the caller is refused the puzzle with the same reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from queens.models.lowering import no_room
from queens.solvers.backend import Task
from queens.solvers.options import EVERY_OPTION, Options
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategy import Strategy, Subject


@dataclass(frozen=True)
class Pigeonhole(Strategy):
    """The answer when `no_room` finds no room: 0 solutions, or no solution (the module docstring)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        return None if no_room(subject.puzzle) else "the pieces fit by count: a search must tell"

    def relevant(self, subject: Subject, task: Task) -> bool:
        """Its refusal says nothing: most puzzles leave room."""
        return False

    def options(self) -> frozenset[str]:
        """Every option: nothing is searched, so none changes the answer (`unique` counts 0 classes)."""
        return EVERY_OPTION

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        start = time.perf_counter()
        reason = no_room(subject.puzzle) or ""
        stats: dict[str, int | float | str] = {"proof": reason}
        if task is Task.COUNT:
            if options.get("unique"):
                stats["classes"] = 0
            return Result(self.backend, Status.COMPLETE, count=0, wall_time=time.perf_counter() - start,
                          stats=stats, method=self.method)
        return Result(self.backend, Status.INFEASIBLE, wall_time=time.perf_counter() - start, stats=stats,
                      method=self.method)
