"""The one interface every backend implements.

A backend reads a `ConstraintModel` (never a puzzle's name) and first says whether it can
answer it at all: `limits` (before the model is built: board sizes for a task) and `supports`
(on the built model: its structure), each None or the reason it cannot. Then it offers:
`find` (one solution, or None when none exists), `solutions` (a lazy generator), and
optionally `count` (when it can count faster than by enumerating). Minimisation has one
generic method here, raising the piece count until a solution appears (the iterative
cardinality bound); a backend with a real optimiser overrides `minimise`.
Time limits are deadlines on `time.monotonic()`; on reaching one a backend raises `TimeLimit`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported, numbers
from queens.solvers.runtime.progress import Progress, report

MODEL_CELLS = 1_000_000
"""Most cells a backend builds a model of unless it says more (1000 x 1000); sat and cpsat,
which find one solution at 2000 x 2000, go to the lowering's MAX_CELLS."""


class Task(Enum):
    """What a strategy is asked for."""

    SOLVE = "solve"            # one solution
    ENUMERATE = "enumerate"    # every solution, lazily
    COUNT = "count"            # how many solutions (of optimal ones, when the puzzle minimises)
    OPTIMISE = "optimise"      # a solution with the fewest pieces
    COMPLETE = "complete"      # extend the fixed pieces to a solution, or prove none exists
    VERIFY = "verify"          # check a placement file


def deadline_after(time_limit: float | None) -> float | None:
    """The `time.monotonic()` instant a search must stop at (None: no limit).

    >>> deadline_after(None) is None
    True
    """
    if time_limit is None:
        return None
    seconds = numbers.seconds(time_limit, "time_limit", minimum=-numbers.MAX_SECONDS)  # 'x', NaN, 10**400: said here
    if seconds <= 0:
        raise Unsupported(f"the time limit must be positive, got {time_limit}")
    return time.monotonic() + seconds


def seconds_left(deadline: float | None, message: str) -> float:
    """Seconds until `deadline`, or -1.0 when there is none (what the C kernels take);
    raises TimeLimit(message) once it has passed."""
    if deadline is None:
        return -1.0
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeLimit(message)
    return left


@dataclass(frozen=True)
class Optimum:
    """What an optimiser reached: the best solution found and its value (pieces per group), and
    whether that value is proved optimal; when it is not (the time ran out), `bound` is the best
    value not yet ruled out (at least `value` when maximising, at most when minimising)."""

    solution: Placement | None
    value: int | None
    proved: bool
    bound: int | None = None


class Backend(ABC):
    name: ClassVar[str]
    count_limit: ClassVar[int] = 400
    """Most cells this backend will try to count on: past 20 x 20 a count by enumeration is absurd."""
    cell_limit: ClassVar[int] = MODEL_CELLS
    """Most cells this backend builds a model of at all."""
    lex_from_cells: ClassVar[int | None] = 64
    """Smallest board on which counting breaks symmetry unless asked (`queens.solvers.api.breaking`):
    below it the lex chains cost more than the classes save; None: on no board (measured on Q(7)
    and Q(8): experiments/results/defaults.md)."""
    lex_for_optima: ClassVar[bool] = False
    """Whether an optimum is searched among the leaders of the symmetry classes unless asked
    (`queens.solvers.api.optimum_breaking`); a backend turns it on where it was measured to pay
    (sat, csp). Not for cpsat and mip, which were slower with the chains on queen domination and
    no faster on peaceable queens (experiments/results/design-choices.md): CP-SAT and the MIP
    solvers find symmetries of their own, and the chains get in their way."""
    lex_over_sides: ClassVar[bool] = False
    """Whether this backend writes a variable per side of each biclique (`queens.models.ir.Side`),
    so that `optimum_breaking` may order the lines the armies share instead of the placements
    (`queens.models.symmetry.side_leader`; sat: peaceable queens n = 10 proved in minutes, not
    within an hour over the cells)."""
    split_from_cells: ClassVar[int | None] = 144
    """Smallest board on which an enumerating backend counts by decomposition in parallel
    processes unless asked (`queens.solvers.routing.split_count`); None: on no board. From 12 x 12 up it pays
    for the processes' start-up (Q(12) counts two to three times faster on every backend,
    experiments/results/defaults.md; below, Q(10) and Q(11) take about as long as starting the
    processes)."""

    settings: ClassVar[tuple[tuple[str, dict[str, str]], ...]] = (("default", {}),)
    search_options: ClassVar[frozenset[str] | None] = None
    """The constructor's options this backend's own search (and split) uses; None: all of them.
    An option that only another strategy reads (native's `threads`, the classes counter's) is left
    out, so the router does not hand it to a search that would ignore it."""
    """The settings a learner compares (`queens explain` builds the model once per setting):
    (label, constructor options), e.g. each viewpoint or CNF encoding."""

    def __init__(self) -> None:
        self.stats: dict[str, int | float | str] = {}

    def limits(self, rows: int, cols: int, task: Task) -> str | None:
        """Why a rows x cols board is too large for `task` here, or None; read before the model
        is built, so a refusal costs nothing.

        >>> from queens.solvers.registry import get_backend
        >>> get_backend("cpsat").limits(1000, 1000, Task.COUNT)
        'cpsat counts boards of at most 400 cells; 1000x1000 has 1,000,000'
        """
        cells = rows * cols
        if task is Task.COUNT and cells > self.count_limit:
            return f"{self.name} counts boards of at most {self.count_limit:,} cells; {rows}x{cols} has {cells:,}"
        if cells > self.cell_limit:
            return f"{self.name} builds models of at most {self.cell_limit:,} cells; {rows}x{cols} has {cells:,}"
        return None

    states_connections: ClassVar[bool] = False
    """Whether this backend states `ConstraintModel.connections` (cpsat and sat by reachability
    layers, csp by a flood fill)."""

    picked_unasked: ClassVar[bool] = True
    """Whether the router may choose this backend when no backend is named at all; False keeps it
    to those who ask for it by name (`--backend`), whatever the puzzle: the teaching engine,
    which is written to be read, not to be fast (`queens.solvers.routing.strategies.unasked`)."""

    def worth(self, model: ConstraintModel) -> bool:
        """Whether the router should pick this backend for `model` unasked: it can answer, but is
        it measured to answer well? (It still answers when asked by name.)"""
        return True

    def supports(self, model: ConstraintModel) -> str | None:
        """Why this backend cannot answer `model`, or None when it can: a backend that lacks a
        constraint the model uses overrides this and names it (after calling this one)."""
        if model.connections and not self.states_connections:
            return (f"{self.name} states no connected groups (pieces that must touch); this model asks "
                    f"{len(model.connections)}")
        return self.limits(model.rows, model.cols, Task.SOLVE) or self.tally_refusal(model)

    reads_tallies: ClassVar[bool] = False
    """Whether this backend posts board-wide counts (`ConstraintModel.tallies`, an objective's tally)."""

    def tally_refusal(self, model: ConstraintModel) -> str | None:
        """Why a backend without board-wide counts cannot answer `model`, or None."""
        if self.reads_tallies or not (model.tallies or model.objective is not None and model.objective.tally):
            return None
        return (f"{self.name} has no board-wide counts (attacking pairs, attacked or safe squares); "
                "cpsat, sat and csp post them")

    @abstractmethod
    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """One solution, or None if there is none; raises TimeLimit at the deadline."""

    @abstractmethod
    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        """Every solution once, lazily; raises TimeLimit at the deadline."""

    def count(self, model: ConstraintModel, deadline: float | None) -> int | None:
        """The number of solutions if this backend counts without enumerating, else None."""
        return None

    def model_size(self, model: ConstraintModel) -> dict[str, int]:
        """How big this backend's own model of `model` is (variables, constraints, clauses, ...),
        built for real, never estimated: what `queens explain` shows a learner."""
        self._build_for_size(model)
        return {key: int(value) for key, value in self.stats.items()
                if isinstance(value, int | float) and not isinstance(value, bool)}

    @abstractmethod
    def _build_for_size(self, model: ConstraintModel) -> None:
        """Build this backend's model of `model`, leaving its size in `self.stats`."""

    def minimise(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """A solution with the fewest pieces: try k = 0, 1, 2, ... pieces until one is found.
        At the time limit, `stats["bound"]` is the k being tried: none with fewer was found,
        the lower bound the answer reports (and reported as progress before each k is tried)."""
        for size in range(len(model.fixed), len(model.cells) + 1):
            report(Progress(bound=size))
            try:
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeLimit(f"{self.name}: no solution with at most {size - 1} pieces yet")
                found = self.find(model.with_size(size), deadline)
            except TimeLimit:
                self.stats["bound"] = size
                raise
            if found is not None:
                return found
        return None

    def optimise(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """The objective's best value, by one question per value. Minimising: m = least, least
        + 1, ... until m pieces per group are possible (`ConstraintModel.at_value`). Maximising
        a downward-closed model: "at least m + 1 per group?" after each answer with m (its extra
        pieces dropped), until the answer is no: then no larger m works either; the largest m
        first when it fills a family (`ConstraintModel.fills`: n independent queens, one per
        row), one question instead of n when it holds (the native search on 20 x 20: a twentieth
        of the time, experiments/results/design-choices.md). Maximising any other model: from
        the largest m down to the first possible. Each "no" is this backend's proof (an UNSAT
        answer, an exhausted search), so the optimum is proved."""
        objective = model.objective
        assert objective is not None
        if objective.tally is not None:
            return self._improve(model, deadline)
        if objective.sense == "minimise" or not model.downward_closed:
            return self._scan(model, deadline)
        best = Optimum(None, None, False, objective.top)
        value = objective.least
        if value < objective.top and model.fills(objective.top):
            try:
                found = self.find(model.at_least_value(objective.top), deadline)
            except TimeLimit:
                return best
            if found is not None:
                return Optimum(model.trimmed(found, objective.top), objective.top, True, objective.top)
        while value <= objective.top:
            try:
                found = self.find(model.at_least_value(value), deadline)
            except TimeLimit:
                return best
            if found is None:
                return Optimum(best.solution, best.value, True, best.value)
            reached = min(len(set(found).intersection(group)) for group in objective.groups)
            best = Optimum(model.trimmed(found, reached), reached, False, objective.top)
            value = reached + 1
        return Optimum(best.solution, best.value, True, best.value)

    def _improve(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """A board-wide count's best value (`Objective.tally`): any solution, then one that beats
        it by one or more (the count bounded past its value), until none does: that "no" is the
        proof. Each answer moves the bound, however far; no downward closure is needed."""
        objective = model.objective
        assert objective is not None and objective.tally is not None
        tally, maximising = objective.tally, objective.sense == "maximise"
        best = Optimum(None, None, False, objective.top if maximising else objective.least)
        bound = replace(tally, least=objective.least, most=objective.top)
        while True:
            try:
                found = self.find(replace(model, objective=None, tallies=(*model.tallies, bound)), deadline)
            except TimeLimit:
                return best
            if found is None:
                return Optimum(best.solution, best.value, True, best.value)
            value = tally.value(set(found))
            best = Optimum(found, value, False, best.bound)
            bound = replace(bound, least=value + 1) if maximising else replace(bound, most=value - 1)
            if bound.least > (bound.most if bound.most is not None else tally.top) or bound.least > tally.top:
                return Optimum(found, value, True, value)

    def _scan(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """Minimising upward, or maximising downward: the first value possible is the optimum."""
        objective = model.objective
        assert objective is not None
        values = range(objective.least, objective.top + 1)
        minimising = objective.sense == "minimise"
        bound = objective.least if minimising else objective.top
        for value in values if minimising else reversed(values):
            try:
                found = self.find(model.at_value(value), deadline)
            except TimeLimit:
                return Optimum(None, None, False, bound)
            if found is not None:
                return Optimum(found, value, True)
            bound = value + 1 if minimising else value - 1
        return Optimum(None, None, True)
