"""The fewest copies of an army (a colouring: the queen graph's chromatic number) as a strategy:
one model per number of copies, asked upward from a bound that needs no search.

An army with open copies has no model of its own. The longest line of one army holds cells that
attack each other pairwise, so each needs its own copy: k starts at that line's length. The cells
of that line are given copies 1, 2, ... in order, which loses no answer (copies are
interchangeable) and spares the search k! relabellings; the answer's stats name that reduction.
The first k with a solution is the fewest, and every smaller k's "no" is the backend's proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from queens.models import QueensError, TimeLimit, Unsupported, lower, verify
from queens.models.puzzle import Puzzle
from queens.solvers.api import checked_model, within
from queens.solvers.backend import Backend, Task, deadline_after
from queens.solvers.options import Options
from queens.solvers.registry import get_backend
from queens.solvers.result import Result, Status
from queens.solvers.strategy import Strategy, Subject


@dataclass(frozen=True)
class Copies(Strategy):
    """The fewest copies on one backend (see the module docstring)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        if not subject.puzzle.copies_open:
            return "answers puzzles whose number of copies is open (colourings)"
        try:
            engine = get_backend(self.backend)
            return engine.supports(checked_model(engine, subject.puzzle.with_copies(1), task))
        except Unsupported as refusal:
            return str(refusal)
        except QueensError as error:  # a backend that is not installed says why
            return str(error)

    def relevant(self, subject: Subject, task: Task) -> bool:
        return subject.puzzle.copies_open

    def options(self) -> frozenset[str]:
        """`symmetry`: False asks for every labelling of the copies (no cells fixed)."""
        return frozenset({"symmetry"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        engine = get_backend(self.backend)
        deadline = deadline_after(time_limit)
        result = within(deadline, self.backend, fewest_copies, engine, subject.puzzle, deadline,
                        options.get("symmetry") is not False, method=self.method)
        return replace(result, method=self.method)


def clique_cells(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """The longest line of one copy: cells that pairwise attack, so each needs its own copy."""
    widest = max((line.cells for line in lower(puzzle.with_copies(1)).lines), key=len, default=())
    return tuple(cell for _, cell in widest)


def fewest_copies(engine: Backend, puzzle: Puzzle, deadline: float | None, symmetry: bool = True) -> Result:
    """k = the clique bound upward; the first k with a solution is the optimum. `symmetry`
    fixes the clique's copies (else `stats["symmetry"]` says it was turned off)."""
    start = time.perf_counter()
    clique = clique_cells(puzzle)
    floor = max(1, len(clique))
    fixing = {(i, cell) for i, cell in enumerate(clique)} if symmetry else set()
    for copies in range(floor, puzzle.cells + 1):
        variant = puzzle.with_copies(copies)
        model = checked_model(engine, variant, Task.SOLVE)
        broken = replace(model, fixed=model.fixed | fixing)
        try:
            found = engine.find(broken, deadline)
        except TimeLimit:
            return Result(engine.name, Status.LIMIT, wall_time=time.perf_counter() - start,
                          stats={**engine.stats, "bound": copies})
        if found is not None:
            reduction = ("reduction", f"the {floor} cells of one line fixed to copies 1..{floor} "
                                      "(copies are interchangeable)") if symmetry else ("symmetry", "off (asked)")
            stats: dict[str, int | float | str] = {**engine.stats, "clique bound": floor, reduction[0]: reduction[1]}
            return Result(engine.name, Status.OPTIMAL, (verify(variant, found),), objective=copies,
                          wall_time=time.perf_counter() - start, stats=stats, answered=variant)
    return Result(engine.name, Status.INFEASIBLE, wall_time=time.perf_counter() - start, stats=dict(engine.stats))
