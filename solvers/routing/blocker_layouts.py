"""Blockers the solver places (pawns among pieces that block: nine queens with free pawns, the
A103330 file) as a strategy: the puzzle is the union of its layouts (`queens.models.layouts`,
which recognises it by its structure), each an ordinary puzzle answered by the router.

Counting sums each representative layout's count times the number of layouts it stands for;
`unique` counts classes of whole configurations (blockers and pieces together) under the
symmetries that keep the puzzle. Solving answers with the first layout that has a solution, and
"no solution" only when every layout has none.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from queens.models import Placement
from queens.models.layouts import MAX_LAYOUTS, LayoutForm, layout_form, layout_group, layouts
from queens.models.puzzle import Puzzle
from queens.models.symmetry import Transform
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategy import Strategy, Subject

Configuration = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


@dataclass(frozen=True)
class Layouts(Strategy):
    """Answers over the layouts of the pawns, each by the router narrowed to `backend`."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        form, reason = layout_form(subject.puzzle)
        if form is None:
            return f"answers pawns the solver places: {reason}"
        cells = len(form.open_cells)
        if _choose(cells, form.free) > MAX_LAYOUTS:
            return f"more than {MAX_LAYOUTS:,} layouts of {form.free} blockers on {cells} cells"
        return None

    def relevant(self, subject: Subject, task: Task) -> bool:
        """Said only for a puzzle with pieces that attack nothing (pawns): to any other, the
        method has nothing to offer."""
        return any(army.piece.attacks_nothing for army in subject.puzzle.armies)

    def options(self) -> frozenset[str]:
        return frozenset({"unique"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        start = time.perf_counter()
        form, reason = layout_form(subject.puzzle)
        assert form is not None, reason  # `supports` said so
        if task is Task.COUNT:
            if options.get("unique"):
                return self._classes(form, time_limit, start)
            return self._count(form, time_limit, start)
        return self._solve(form, task, time_limit, start)

    def _left(self, time_limit: float | None, start: float) -> float | None:
        return None if time_limit is None else max(1e-3, time_limit - (time.perf_counter() - start))

    def _count(self, form: LayoutForm, time_limit: float | None, start: float) -> Result:
        from queens.solvers.routing.router import answer  # the router lists this strategy

        total, last = 0, None
        chosen = layouts(form)
        for layout, weight in chosen:
            last = answer(Task.COUNT, layout, backend=self.backend, time_limit=self._left(time_limit, start))
            total += weight * (last.count or 0)
            if last.status is Status.LIMIT:
                return Result(self.backend, Status.LIMIT, count=total, wall_time=time.perf_counter() - start,
                              stats={"layouts": sum(w for _, w in chosen)}, method=self.method)
        return Result(self.backend, Status.COMPLETE, count=total, wall_time=time.perf_counter() - start,
                      stats={"layouts": sum(w for _, w in chosen), "representatives": len(chosen),
                             "counted by": "-" if last is None else f"{last.backend}/{last.method}"},
                      method=self.method)

    def _solve(self, form: LayoutForm, task: Task, time_limit: float | None, start: float) -> Result:
        from queens.solvers.routing.router import answer

        for layout, _ in layouts(form):
            found = answer(task, layout, backend=self.backend, time_limit=self._left(time_limit, start))
            if found.status is not Status.INFEASIBLE:
                return replace(found, method=self.method, wall_time=time.perf_counter() - start, answered=layout)
        return Result(self.backend, Status.INFEASIBLE, wall_time=time.perf_counter() - start, method=self.method)

    def _classes(self, form: LayoutForm, time_limit: float | None, start: float) -> Result:
        from queens.solvers.api import solutions

        group = layout_group(form)
        total, seen = 0, set[Configuration]()
        for layout, weight in layouts(form):
            for placement in solutions(layout, self.backend, time_limit=self._left(time_limit, start)):
                total += weight
                seen.add(min(_configuration(form.base, layout, placement, t) for t in group))
        return Result(self.backend, Status.COMPLETE, count=total, wall_time=time.perf_counter() - start,
                      stats={"classes": len(seen)}, method=self.method)


def _configuration(puzzle: Puzzle, layout: Puzzle, placement: Placement, t: Transform) -> Configuration:
    def image(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        return tuple(sorted(t(c, puzzle.rows, puzzle.cols) for c in cells))
    return image(layout.blockers), image(placement)  # type: ignore[arg-type]


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k) if 0 <= k <= n else 0
