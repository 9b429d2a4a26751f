"""The most copies of an army that fit on one board (`copies = "maximise"`: the most disjoint
n-queens solutions on one board, A171760) as a strategy: one model per number of copies, asked
upward until one has no solution.

Taking a copy off an answer leaves an answer when every rule is kept by fewer pieces: no cover,
no partition, no lower bound a region, a line or a board-wide count could lose, no goal of an
army's own. Then if k copies do not fit, no more do, and the first k without a solution says
the most is k - 1, by the backend's proof. The copies are interchangeable: the model with k
copies keeps only the answers whose copies are in lex order (copy 1 >=lex copy 2 >= ...), which
loses none (any answer's copies can be sorted) and spares the search k! relabellings; the
stats name that reduction. The count of each copy bounds k: k x least <= the open cells.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from queens.models import ConstraintModel, Placement, QueensError, TimeLimit, Unsupported, verify
from queens.models.ir import LexLeader
from queens.models.puzzle import Puzzle
from queens.solvers.api import checked_model, with_deadline
from queens.solvers.backend import Backend, Task, deadline_after
from queens.solvers.options import Options
from queens.solvers.registry import get_backend
from queens.solvers.result import Result, Status
from queens.solvers.routing.strategy import Strategy, Subject


def shrink_refusal(puzzle: Puzzle) -> str | None:
    """Why taking a copy off an answer of `puzzle` may break a rule (so "k copies do not fit"
    would not rule out more), or None when it never does (see the module docstring)."""
    reasons = {"a cover": puzzle.cover, "a partition": puzzle.partition,
               "a lower bound on lines": any(least for _, least, _ in puzzle.per_line),
               "a lower bound on a region": any(region.least for region in puzzle.regions),
               "a lower bound on attacks": any(bound.least for bound in puzzle.attack_bounds),
               "a board-wide count": bool(puzzle.board_counts),
               "a goal of its own": puzzle.goal is not None or puzzle.total is not None}
    found = [reason for reason, asked in reasons.items() if asked]
    return f"the most copies needs rules that fewer copies keep; this puzzle has {', '.join(found)}" if found else None


@dataclass(frozen=True)
class MostCopies(Strategy):
    """The most copies on one backend (see the module docstring)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        puzzle = subject.puzzle
        if puzzle.copies_goal != "maximise":
            return "answers puzzles whose number of copies is maximised"
        if (refusal := shrink_refusal(puzzle)) is not None:
            return refusal
        if next(army for army in puzzle.armies if army.copies is None).least == 0:
            return "a copy that may hold no piece fits any number of times: give the copies a count"
        try:
            engine = get_backend(self.backend)
            one = engine.supports(checked_model(engine, puzzle.with_copies(1), task))
            two = puzzle.with_copies(2)  # what every k > 1 asks: copies in lex order
            return one or engine.supports(copies_in_order(checked_model(engine, two, task), puzzle, 2))
        except Unsupported as refusal:
            return str(refusal)
        except QueensError as error:  # a backend that is not installed says why
            return str(error)

    def relevant(self, subject: Subject, task: Task) -> bool:
        return subject.puzzle.copies_goal == "maximise"

    def options(self) -> frozenset[str]:
        """`symmetry`: False asks for the copies in any order (no lex chains between them)."""
        return frozenset({"symmetry"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        engine = get_backend(self.backend)
        deadline = deadline_after(time_limit)
        result = with_deadline(deadline, self.backend, most_copies, engine, subject.puzzle, deadline,
                               options.get("symmetry") is not False, method=self.method)
        return replace(result, method=self.method)


def copies_in_order(model: ConstraintModel, puzzle: Puzzle, copies: int) -> ConstraintModel:
    """`model` (of `puzzle` with its open army written out as `copies` armies) keeping only the
    answers whose copies are in lex order: copy i's cells, read in board order, are
    lexicographically at least copy i + 1's. Only the first copy holds the pieces already
    placed (`Puzzle.with_copies`), so it stays out of the chains."""
    first = next(a for a, army in enumerate(puzzle.armies) if army.copies is None)
    ordered = range(first + 1 if puzzle.armies[first].fixed else first, first + copies)
    cells = [cell for army, cell in model.cells if army == first]
    chains = tuple(tuple(((i, c), (i + 1, c)) for c in cells) for i in ordered if i + 1 in ordered)
    return replace(model, lex=LexLeader(tuple(model.cells), chains)) if chains else model


def most_copies(engine: Backend, puzzle: Puzzle, deadline: float | None, symmetry: bool = True) -> Result:
    """k = 1 upward; the first k without a solution proves k - 1 the most (k x least pieces
    beyond the open cells need no search)."""
    start = time.perf_counter()
    army = next(army for army in puzzle.armies if army.copies is None)
    top = (puzzle.cells - len(puzzle.holes | puzzle.blockers | puzzle.missing)) // army.least
    stats: dict[str, int | float | str] = {"copies bound": top}
    stats["reduction" if symmetry else "symmetry"] = ("copies in lex order (copies are interchangeable)" if symmetry
                                                      else "off (asked)")
    best: tuple[int, Placement, Puzzle] | None = None
    for copies in range(1, top + 1):
        variant = puzzle.with_copies(copies)
        model = checked_model(engine, variant, Task.SOLVE)
        try:
            found = engine.find(copies_in_order(model, puzzle, copies) if symmetry else model, deadline)
        except TimeLimit:
            stats.update(engine.stats, bound=copies)
            return _answer(engine, Status.LIMIT, best, start, stats)
        if found is None:
            break
        best = (copies, verify(variant, found), variant)
    if best is None:
        return Result(engine.name, Status.INFEASIBLE, wall_time=time.perf_counter() - start,
                      stats={**engine.stats, **stats})
    return _answer(engine, Status.OPTIMAL, best, start, {**engine.stats, **stats})


def _answer(engine: Backend, status: Status, best: tuple[int, Placement, Puzzle] | None, start: float,
            stats: dict[str, int | float | str]) -> Result:
    """The most copies found (proved when `status` is OPTIMAL), drawn on the puzzle with them."""
    return Result(engine.name, status, () if best is None else (best[1],), objective=None if best is None else best[0],
                  wall_time=time.perf_counter() - start, stats=stats, answered=None if best is None else best[2])
