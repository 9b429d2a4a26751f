"""The fewest copies of an army (a colouring: the queen graph's chromatic number) as a strategy:
one model per number of copies, asked upward from a bound that needs no search.

An army with open copies has no model of its own. The longest line of one army holds cells that
attack each other pairwise, so each needs its own copy: k starts at that line's length. The cells
of that line are given copies 1, 2, ... in order, which loses no answer (copies are
interchangeable) and spares the search k! relabellings; the answer's stats name that reduction.
The first k with a solution is the fewest, and every smaller k's "no" is the backend's proof.

Before any search a greedy colouring (DSatur, Brélaz 1979) over the one-copy model's
at-most-one lines gives an upper bound g, checked by the independent checker: the search asks
only k < g, and a time limit still answers with g copies and the bound reached (queen9_9 used to
stop at "bound 9" with no colouring at all, where any greedy has 11 to 13).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, replace

from queens.models import ConstraintModel, Placement, QueensError, TimeLimit, Unsupported, lower, verify
from queens.models.puzzle import Puzzle
from queens.solvers.api import checked_model, with_deadline
from queens.solvers.backend import Backend, Task, deadline_after
from queens.solvers.options import Options
from queens.solvers.registry import get_backend
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategy import Strategy, Subject


@dataclass(frozen=True)
class Copies(Strategy):
    """The fewest copies on one backend (see the module docstring)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        if subject.puzzle.copies_goal != "minimise":
            return "answers puzzles whose number of copies is minimised (colourings)"
        try:
            engine = get_backend(self.backend)
            return engine.supports(checked_model(engine, subject.puzzle.with_copies(1), task))
        except Unsupported as refusal:
            return str(refusal)
        except QueensError as error:  # a backend that is not installed says why
            return str(error)

    def relevant(self, subject: Subject, task: Task) -> bool:
        return subject.puzzle.copies_goal == "minimise"

    def options(self) -> frozenset[str]:
        """`symmetry`: False asks for every labelling of the copies (no cells fixed)."""
        return frozenset({"symmetry"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        engine = get_backend(self.backend)
        deadline = deadline_after(time_limit)
        result = with_deadline(deadline, self.backend, fewest_copies, engine, subject.puzzle, deadline,
                               options.get("symmetry") is not False, method=self.method)
        return replace(result, method=self.method)


def clique_cells(one: ConstraintModel) -> tuple[tuple[int, ...], ...]:
    """The longest line of one copy (`one`: the puzzle lowered with one copy): cells that pairwise
    attack, so each needs its own copy."""
    widest = max((line.cells for line in one.lines), key=len, default=())
    return tuple(cell for _, cell in widest)


def fewest_copies(engine: Backend, puzzle: Puzzle, deadline: float | None, symmetry: bool = True) -> Result:
    """k = the clique bound upward; the first k with a solution is the optimum. `symmetry`
    fixes the clique's copies (else `stats["symmetry"]` says it was turned off)."""
    start = time.perf_counter()
    one = lower(puzzle.with_copies(1))  # read by both bounds: lowered once
    clique = clique_cells(one)
    floor = max(1, len(clique))
    fixing = {(i, cell) for i, cell in enumerate(clique)} if symmetry else set()
    greedy = greedy_copies(puzzle, one, clique)
    top = puzzle.cells if greedy is None else len({copy for copy, _ in greedy}) - 1
    reduction = ("reduction", f"the {floor} cells of one line fixed to copies 1..{floor} "
                              "(copies are interchangeable)") if symmetry else ("symmetry", "off (asked)")
    stats: dict[str, int | float | str] = {"clique bound": floor, reduction[0]: reduction[1]}
    if greedy is not None:
        stats["greedy"] = top + 1
    for copies in range(floor, top + 1):
        variant = puzzle.with_copies(copies)
        model = checked_model(engine, variant, Task.SOLVE)
        broken = replace(model, fixed=model.fixed | fixing)
        try:
            found = engine.find(broken, deadline)
        except TimeLimit:
            stats.update(engine.stats, bound=copies)
            held = () if greedy is None else (greedy,)
            return Result(engine.name, Status.LIMIT, held, objective=None if greedy is None else top + 1,
                          wall_time=time.perf_counter() - start, stats=stats,
                          answered=None if greedy is None else puzzle.with_copies(top + 1))
        if found is not None:
            return Result(engine.name, Status.OPTIMAL, (verify(variant, found),), objective=copies,
                          wall_time=time.perf_counter() - start, stats={**engine.stats, **stats}, answered=variant)
    if greedy is not None:  # every k below the greedy's was refuted: the greedy colouring is optimal
        return Result(engine.name, Status.OPTIMAL, (greedy,), objective=top + 1, wall_time=time.perf_counter() - start,
                      stats={**engine.stats, **stats}, answered=puzzle.with_copies(top + 1))
    return Result(engine.name, Status.INFEASIBLE, wall_time=time.perf_counter() - start, stats=dict(engine.stats))


def greedy_copies(puzzle: Puzzle, one: ConstraintModel,
                  first: tuple[tuple[int, ...], ...] = ()) -> Placement | None:
    """A colouring by DSatur over the one-copy model's (`one`'s) at-most-one lines (each cell gets the
    lowest copy none of its line-mates holds, the cell seeing the most copies first), checked
    by the independent checker; None when the model asks more than such lines say (the check
    refuses it) or leaves cells free to stay empty (then no cell need be covered). The cells of
    `first` (one line's: pairwise mates) are coloured first, so they hold copies 1, 2, ... in
    order, as in every answer the search gives."""
    cells = list(one.cells)
    if any(line.at_least != 1 or len(line.cells) != 1 for line in one.lines if line.at_least):
        return None
    if {line.cells[0] for line in one.lines if line.at_least} != set(cells):
        return None  # not every cell must hold a piece: not a colouring
    mates: dict[object, set[object]] = defaultdict(set)
    for line in one.lines:
        if line.at_most == 1 and len(line.cells) > 1:
            for cell in line.cells:
                mates[cell].update(line.cells)
    copy_of: dict[object, int] = {}
    seen: dict[object, set[int]] = defaultdict(set)
    for copy, cell in enumerate(first):
        copy_of[(0, cell)] = copy
        for mate in mates[(0, cell)]:
            seen[mate].add(copy)
    while len(copy_of) < len(cells):
        cell = max((c for c in cells if c not in copy_of), key=lambda c: (len(seen[c]), len(mates[c])))
        copy_of[cell] = next(k for k in range(len(cells)) if k not in seen[cell])
        for mate in mates[cell]:
            seen[mate].add(copy_of[cell])
    placement = tuple(sorted((copy, var[1]) for var, copy in copy_of.items()))  # type: ignore[index]
    try:
        return verify(puzzle.with_copies(max(copy_of.values()) + 1), placement)
    except QueensError:
        return None
