"""Count by decomposition: the first lines' pieces fixed, symmetric subproblems counted once,
the rest counted side by side in separate processes.

This is the native counter's own decomposition, offered to every backend. In a model whose
rows (any exactly-one family) each hold one piece, fixing the piece of the first row splits
the solutions into disjoint sets, one per cell of that row, and each set is an ordinary
puzzle with one more pre-placed piece: `queens.solvers.count` counts it, verifying every solution.
When a symmetry of the model maps each fixed line onto itself (the left-right flip maps row 0
to row 0), cells in one orbit have equal counts, so only one of them is counted and its count
is weighted by the orbit's size: half the first row, weight 2, for n-queens. The symmetries
come from `queens.models.symmetry.symmetry_group`, which finds them on the model, so a completion
puzzle with an off-centre queen simply gets no such saving.

When the backend breaks symmetry by lex-leader constraints (`queens.solvers.api.breaking`, the
default), that weighting would count twice: then every subproblem has weight 1 and keeps the
whole puzzle's group (its own, with the extra pieces, is smaller), each counts the class
leaders it holds with their class sizes, and a subproblem whose fixed pieces already break a
lex chain (it holds no leader: the queen right of the centre of the middle row) is dropped
before it is started; the lines fixed are then the first the chains read (the middle rows).
Measured on Q(13) and Q(14) (experiments/results/symmetry.md).

>>> from queens.models import NQueens
>>> [(sorted(s.fixed), s.weight) for s in subproblems(lower(NQueens(4)), lines=1)]
[([(0, 0)], 2), ([(0, 1)], 2)]
>>> from queens.models.symmetry import lex_leader
>>> leading = lex_leader(lower(NQueens(5)), symmetry_group(lower(NQueens(5))))
>>> [(sorted(s.fixed), s.weight) for s in subproblems(leading, lines=1)]
[([(2, 0)], 1), ([(2, 1)], 1), ([(2, 2)], 1)]
>>> count_split(NQueens(6), "cpsat", processes=1).count
4
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import product
from typing import Unpack

from queens.models import Cell, ConstraintModel, Puzzle, Unsupported, lower, symmetry_group
from queens.models.ir import Line, Var
from queens.models.symmetry import Transform
from queens.solvers.api import breaking, count
from queens.solvers.backend import Task, deadline_after
from queens.solvers.options import SearchOptions
from queens.solvers.registry import get_backend
from queens.solvers.result import Result, Status
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.process_pool import run_in_processes
from queens.solvers.runtime.progress import Progress, report, translated

TASKS_PER_PROCESS = 4
"""Fix a second line when the first gives fewer subproblems than this per process (balance)."""


@dataclass(frozen=True)
class Subproblem:
    """The puzzle with `fixed` pre-placed as well; its count stands for `weight` subproblems."""

    fixed: frozenset[Cell]
    weight: int


def subproblems(model: ConstraintModel, lines: int = 1) -> tuple[Subproblem, ...]:
    """Disjoint subproblems whose weighted counts add up to the model's count.

    One subproblem per choice of a piece on each of the first `lines` exactly-one lines (choices
    that put two pieces on one line are dropped: they have no solution). Without lex chains, one
    representative per orbit under the symmetries that map each of those lines onto itself,
    weighted by the orbit's size; with them (`model.lex`), every choice that may still hold a
    leader, weight 1. A model without an exactly-one family, or that minimises, is not split:
    one subproblem, itself.
    """
    branch = _first_lines(model)[:lines]
    if not branch or model.minimise:
        return (Subproblem(frozenset(), 1),)
    keep = [set(line.cells) for line in branch]
    stabiliser = [] if model.lex else [
        t for t in symmetry_group(model) if all({t(c, model.rows, model.cols) for c in line} == line for line in keep)]
    lines_of: dict[Cell, set[int]] = {}
    for index, line in enumerate(model.lines):
        for cell in line.cells:
            lines_of.setdefault(cell, set()).add(index)
    found = []
    for choice in product(*(line.cells for line in branch)):
        if _clash((*model.fixed, *choice), lines_of):
            continue
        if model.lex:
            if _may_lead(model, frozenset((*model.fixed, *choice))):
                found.append(Subproblem(frozenset(choice), 1))
            continue
        images = {tuple(t(c, model.rows, model.cols) for c in choice) for t in stabiliser}
        if choice == min(images):
            found.append(Subproblem(frozenset(choice), len(images)))
    return tuple(found)


def _first_lines(model: ConstraintModel) -> list[Line]:
    """The open exactly-one lines in board order, or in the lex chains' order (middle rows
    first): fixing the first lines the chains read lets `_may_lead` drop subproblems."""
    return model.branch_lines if model.lex is None else model.lex.first_read(model.branch_lines)


def _may_lead(model: ConstraintModel, pieces: frozenset[Cell]) -> bool:
    """False when `pieces` already break one of `model.lex`'s chains, so no solution holding them
    leads its class. A cell is known to hold a piece (in `pieces`) or none (it shares an
    at-most-one line with one of them); walking a chain while its pairs are equal, a known empty
    a forces b empty, and a known piece on b forces one on a; an unknown pair stops the walk."""
    empty = {cell for line in model.lines if line.at_most == 1 and pieces.intersection(line.cells)
             for cell in line.cells} - pieces
    chains = model.lex.chains if model.lex else ()
    for chain in chains:
        known: dict[Var, bool] = {}
        for a, b in chain:
            x = known.get(a, True if a in pieces else False if a in empty else None)
            y = known.get(b, True if b in pieces else False if b in empty else None)
            if x is False and y is None:
                known[b] = y = False
            elif y is True and x is None:
                known[a] = x = True
            if x is None or y is None or x > y:
                break  # undecided, or this chain holds
            if x < y:
                return False
    return True


def _clash(cells: Iterable[Cell], lines_of: dict[Cell, set[int]]) -> bool:
    """Whether two of `cells` share a line (at most one piece there, so no solution)."""
    seen: set[int] = set()
    for cell in cells:
        here = lines_of.get(cell, set())
        if seen & here:
            return True
        seen |= here
    return False


def plan(model: ConstraintModel, processes: int) -> tuple[Subproblem, ...]:
    """One fixed line, or two when one gives too few subproblems to keep `processes` busy."""
    first = subproblems(model, lines=1)
    if processes > 1 and len(first) < TASKS_PER_PROCESS * processes:
        return subproblems(model, lines=2)
    return first


class _Tally:
    """The weighted count of the subproblems finished so far, reported as each one finishes
    (`queens.solvers.runtime.progress`): subproblems done out of all, solutions so far."""

    def __init__(self, parts: tuple[Subproblem, ...]) -> None:
        self.parts, self.done, self.solutions = parts, 0, 0

    def __call__(self, index: int, result: Result) -> None:
        self.done += 1
        self.solutions += self.parts[index].weight * (result.count or 0)
        report(Progress(solutions=self.solutions, done=self.done, total=len(self.parts)))

    def so_far(self, index: int) -> Callable[[Progress], Progress]:
        """How a report of subproblem `index`, counting here, reads for the whole count."""
        weight = self.parts[index].weight

        def whole(part: Progress) -> Progress:
            return Progress(solutions=self.solutions + weight * (part.solutions or 0), done=self.done,
                            total=len(self.parts))
        return whole


def _count_one(puzzle: Puzzle, extra: frozenset[Cell], backend: str, deadline: float | None,
               group: tuple[Transform, ...] | None, options: SearchOptions) -> Result:
    """`queens.solvers.count` on the puzzle with `extra` pre-placed, within the shared deadline,
    breaking the whole puzzle's `group` (None: no symmetry breaking).

    The deadline is a `time.monotonic()` instant, the same clock in every process here.
    """
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and left <= 0:
        return Result(backend, Status.LIMIT, count=0)
    return count(puzzle.with_fixed(extra), backend, time_limit=left, split=False,
                 symmetry=group is not None, group=group, **options)


def count_split(puzzle: Puzzle, backend: str = "cpsat", *, time_limit: float | None = None,
                processes: int | None = None, symmetry: bool | None = None, **options: Unpack[SearchOptions]) -> Result:
    """`queens.solvers.count` by decomposition (see the module docstring), in `processes` processes;
    `symmetry` as for `count` (lex-leader constraints from the whole puzzle's group).

    `processes` defaults to the CPUs this process may use; 1 counts the subproblems here, one
    after another (the symmetry saving still applies). Each subproblem's solutions are verified
    by `queens.solvers.count`; a subproblem stopped at the time limit makes the total a lower bound.
    """
    start = time.perf_counter()
    refusal = get_backend(backend, **options).limits(puzzle.rows, puzzle.cols, Task.COUNT)
    if refusal:  # every subproblem is the whole board: refused before lowering and splitting it
        raise Unsupported(refusal)
    deadline = deadline_after(time_limit)
    workers = processes or default_threads()
    model = lower(puzzle)
    breaks = breaking(get_backend(backend, **options), model, symmetry)
    group = breaks.group or None
    parts = plan(breaks.model, workers)
    jobs = [(puzzle, part.fixed, backend, deadline, group, options.copy()) for part in parts]
    tally = _Tally(parts)
    report(Progress(solutions=0, done=0, total=len(parts)))
    if workers == 1 or len(parts) == 1:
        results: list[Result | None] = []
        for index, job in enumerate(jobs):
            with translated(tally.so_far(index)):
                one = _count_one(*job)
            tally(index, one)
            results.append(one)
    else:
        results = run_in_processes(_count_one, jobs, workers=min(workers, len(parts)), deadline=deadline,
                                   finished=tally)
    done = [result or Result(backend, Status.LIMIT, count=0) for result in results]  # None: killed at the deadline
    total = sum(part.weight * (result.count or 0) for part, result in zip(parts, done, strict=True))
    complete = all(result.status is Status.COMPLETE for result in done)
    stats: dict[str, int | float | str] = {"subproblems": len(parts), "processes": min(workers, len(parts)),
                                           "weight": sum(part.weight for part in parts), "symmetry": breaks.note}
    for result in done:
        for key, value in result.stats.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                so_far = stats.get(key, 0)
                if isinstance(so_far, str):  # as `str + number` did: a statistic is text or a number
                    raise TypeError(f"statistic {key!r} is text in one subproblem, a number in another")
                stats[key] = so_far + value  # summed over the subproblems
            else:
                stats.setdefault(key, value)
    return Result(backend, Status.COMPLETE if complete else Status.LIMIT, count=total,
                  wall_time=time.perf_counter() - start, stats=stats)
