"""One way of answering: a backend's search, split counting, the D4 classes counter, the completion
solver, the construction, the local search, the streaming verifier.

Each strategy says which tasks it answers and, for a given puzzle, whether it can (`supports`:
None, or the reason it cannot) before it is asked. It reads the puzzle's structure (its
`Outline`, and the constraint model when it needs more), never its name. The router
(`queens.solvers.routing.router`) asks them in the measured order and runs the first that can.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property

from queens.models import ConstraintModel, Puzzle
from queens.models.outline import Outline, direct_outline, outline_of
from queens.solvers import native
from queens.solvers.api import lowered
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.result import Result


class Subject:
    """A puzzle on its way to an answer: its outline at once (cheap for the large plain boards),
    its constraint model only when a strategy needs it, built once. A puzzle that is a search
    over models (open copies) has no model of its own: `modelled` says why."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle

    @property
    def modelled(self) -> str | None:
        """Why the puzzle has no single constraint model, or None when it has one."""
        if self.puzzle.copies_open:
            return "the number of copies is open: a search over models (method copies)"
        return None

    @cached_property
    def model(self) -> ConstraintModel:
        return lowered(self.puzzle)

    @cached_property
    def direct(self) -> Outline | None:
        """The outline read off the rules, without lowering (None: the puzzle is lowered for it)."""
        return direct_outline(self.puzzle)

    @cached_property
    def outline(self) -> Outline:
        return self.direct or outline_of(self.model)

    @property
    def beyond_lines(self) -> str | None:
        """What the model asks beyond the outline's lines, covers, fixed pieces and size
        (`ConstraintModel.beyond_lines`): the methods that read the outline alone refuse it. A
        puzzle whose rules give the outline directly (sliding pieces on an open board) lowers to
        lines alone, so the large boards are not lowered to ask."""
        return None if self.direct is not None else self.model.beyond_lines


@dataclass(frozen=True)
class Strategy(ABC):
    """`backend`: what runs it (a backend's name, or "python" for pure numpy code); `method`:
    how (search, split, classes, complete, construct, random, verify); `why`: what makes it the
    choice when it can answer (the measurement behind its place in the order)."""

    backend: str
    method: str
    tasks: frozenset[Task]
    why: str

    @property
    def name(self) -> str:
        return f"{self.backend}/{self.method}"

    @abstractmethod
    def supports(self, subject: Subject, task: Task) -> str | None:
        """Why this strategy cannot answer `task` on `subject`, or None when it can."""

    def relevant(self, subject: Subject, task: Task) -> bool:
        """Whether this strategy's refusal tells the user anything about `subject` and `task` (a
        method for another kind of puzzle, the fewest copies on a puzzle without open copies, a
        backend that never does the task, says nothing)."""
        return True

    def worth(self, subject: Subject) -> bool:
        """Whether the router should pick this strategy unasked (it can, but is it worth it here?)."""
        return True

    def options(self) -> frozenset[str]:
        """The options (--viewpoint, --encoding, threads, seed, ...) this strategy takes."""
        return frozenset()

    def check(self, options: Options) -> None:
        """Refuse option values this strategy cannot take (BadOption), before any work."""
        return None

    @abstractmethod
    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        """The answer, verified; `supports` said it can."""


def queen_graph(subject: Subject, *, fixed: bool) -> tuple[int | None, str | None]:
    """n when the subject is the queen graph on a full n x n board (fixed pieces allowed only if
    `fixed`), else the reason it is not: what the native code's and numpy's methods answer."""
    if not subject.puzzle.cells_are_variables:  # the outline reads the model as a board's cells
        return None, "needs one army of n queens on an n x n board"
    outline = subject.outline
    n = outline.queen_graph
    if n is None:
        return None, ("needs n queens on a full n x n board: one per row and column, at most one per diagonal, "
                      "no holes, blockers or covers")
    if outline.fixed and not fixed:
        return None, "answers boards without pre-placed pieces"
    if subject.beyond_lines:
        return None, f"reads the queen graph alone; this model also asks {subject.beyond_lines}"
    return n, None


def native_counter_for(subject: Subject, extension: str) -> tuple[int | None, str | None]:
    """n when a native counter built as `extension` can count the subject: plain n-queens on a
    full board without pre-placed pieces, and the extension built; else the reason."""
    n, reason = queen_graph(subject, fixed=False)
    if n is None:
        return None, reason
    return (None, missing) if (missing := native.missing(extension)) else (n, None)
