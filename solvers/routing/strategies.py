"""Every registered strategy: each backend's search and split counting (derived from the backend
registry, so a new backend is one line there), and the methods the native code and numpy add
for the queen graph on a full n x n board (the D4 classes counter, the completion solver, the
construction, the local search, the streaming verifier).

Those methods recognise their structure in the puzzle's outline (`Outline.queen_graph`: exactly
one per row and column, at most one per diagonal, no holes or blockers, any fixed pieces), so a
`Puzzle` written by hand gets them exactly as `nqueens` and `completion` do.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from queens.models import BackendUnavailable, LineKind, Placement, QueensError, TimeLimit, verify
from queens.models.errors import BadOption
from queens.solvers import native
from queens.solvers.api import count, sides, solve, splits
from queens.solvers.backend import Backend, Task
from queens.solvers.options import Options, SearchOptions, search_options
from queens.solvers.registry import BACKENDS, get_backend
from queens.solvers.result import Result, Status
from queens.solvers.routing.blocker_layouts import Layouts
from queens.solvers.routing.class_count import ClassCount
from queens.solvers.routing.fewest_copies import Copies
from queens.solvers.routing.most_copies import MostCopies
from queens.solvers.routing.pigeonhole import Pigeonhole
from queens.solvers.routing.quadrant_count import QuadrantCount
from queens.solvers.routing.strategy import Strategy, Subject, queen_graph

MAX_LISTED = 1000
"""Largest n whose column-array solution is also given as cells (printed, listed in JSON)."""

BY_SEARCH = frozenset({Task.SOLVE, Task.COMPLETE, Task.ENUMERATE, Task.COUNT, Task.OPTIMISE})


def _engine(backend: str) -> tuple[Backend | None, str | None]:
    """A default instance of `backend` to ask (limits, supports, options), or the reason it cannot
    be had (not installed). Kept per registry entry: the router asks every strategy on every
    route, and building a backend each time (MiniZinc's solver look-up, the imports' checks) cost
    more than the routing itself; a search runs on a fresh instance (`get_backend`)."""
    return _asked(backend, BACKENDS.get(backend))


@lru_cache(maxsize=64)
def _asked(backend: str, entry: tuple[str, str, str] | None) -> tuple[Backend | None, str | None]:
    try:
        return get_backend(backend), None
    except QueensError as error:
        return None, str(error)


def unasked(strategy: Strategy) -> str | None:
    """Why the router may not choose `strategy` when no backend is named, or None: its backend
    says so (`Backend.picked_unasked`: the teaching engine answers only those who name it)."""
    engine, _ = _engine(strategy.backend)
    if engine is None or engine.picked_unasked:
        return None
    return f"answers only when named (--backend {strategy.backend})"


def _does(backend: str, task: Task) -> bool:
    """Whether `backend` does `task` at all (mip never counts): a refusal from one that never does
    is noise beside the others' reasons."""
    engine, _ = _engine(backend)
    return engine is None or engine.limits(1, 1, task) is None


def _backend_refusal(engine: Backend, subject: Subject, task: Task) -> str | None:
    """The puzzle's own shape (one model), the backend's limits (before lowering) and its
    structural checks (after)."""
    return subject.modelled or engine.limits(*sides(subject.puzzle), task) or engine.supports(subject.model)


@dataclass(frozen=True)
class Search(Strategy):
    """A backend's own search: finds, enumerates, counts (natively, or by enumerating) and minimises."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        engine, missing = _engine(self.backend)
        if engine is None:
            return missing
        return _backend_refusal(engine, subject, task)

    def worth(self, subject: Subject) -> bool:
        engine, _ = _engine(self.backend)
        return engine is not None and engine.worth(subject.model)

    def relevant(self, subject: Subject, task: Task) -> bool:
        return _does(self.backend, task)

    def options(self) -> frozenset[str]:
        """The backend's own search's options (`Backend.search_options`) and `symmetry`, `unique`."""
        return _init_options(self.backend) | _symmetry_option(self.backend) | {"unique"}

    def check(self, options: Options) -> None:
        _check_options(self.backend, search_options(options))

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        # the router hands a strategy only the options it names (`options()`): here the backend's
        # constructor's and `symmetry`, never `processes`
        symmetry = options.get("symmetry")
        own = search_options(options)
        if options.get("unique"):
            if task is not Task.COUNT:
                raise BadOption("--unique counts symmetry classes: it applies to count")
            return count(subject.puzzle, self.backend, time_limit=time_limit, unique=True, **own)
        if task is Task.COUNT:
            if "counter" in self.options():  # the classes counter is its own strategy (native/classes)
                if own.get("counter", "simple") != "simple":
                    raise BadOption(f"{self.backend}/search counts with the simple search; "
                                    "the classes counter is its own method (--method classes)")
                own = own.copy()
                own["counter"] = "simple"
            return count(subject.puzzle, self.backend, time_limit=time_limit, split=False, symmetry=symmetry, **own)
        return solve(subject.puzzle, self.backend, time_limit=time_limit, symmetry=symmetry, **own)


@dataclass(frozen=True)
class Split(Strategy):
    """Counting by decomposition on an enumerating backend (queens.solvers.routing.split_count)."""

    def relevant(self, subject: Subject, task: Task) -> bool:
        return _does(self.backend, task)

    def supports(self, subject: Subject, task: Task) -> str | None:
        engine, missing = _engine(self.backend)
        if engine is None:
            return missing
        if type(engine).count is not Backend.count:
            return f"{self.backend} counts without enumerating: nothing to split"
        if not subject.puzzle.cells_are_variables:
            return "splits one army's count on a 2-D board"
        outline = subject.outline
        if outline.minimise:
            return "splits counts of a fixed number of pieces only"
        if not any(f.kinds == {LineKind.EXACTLY_ONE} for f in outline.families):
            return "needs a family of exactly-one lines to split on"
        return _backend_refusal(engine, subject, task)

    def worth(self, subject: Subject) -> bool:
        engine, _ = _engine(self.backend)
        return engine is not None and splits(engine, subject.puzzle)

    def options(self) -> frozenset[str]:
        return _init_options(self.backend) | {"processes"} | _symmetry_option(self.backend)

    def check(self, options: Options) -> None:
        _check_options(self.backend, search_options(options))

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        from queens.solvers.routing.split_count import count_split  # imports the process pool only when splitting

        return count_split(subject.puzzle, self.backend, time_limit=time_limit, processes=options.get("processes"),
                           symmetry=options.get("symmetry"), **search_options(options))


@dataclass(frozen=True)
class CompletionSolver(Strategy):
    """The exact completion solver (solvers/native/completion.py): local search and a complete search
    in turns, so "no solution" is always a proof."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        n, reason = queen_graph(subject, fixed=True)
        if n is None:
            return reason
        missing = native.missing("_completion") or native.missing("_localsearch")
        if missing:
            return missing
        from queens.solvers.native import _completion

        return None if n <= _completion.MAX_N else f"completes n <= {_completion.MAX_N:,}, not n = {n:,}"

    def options(self) -> frozenset[str]:
        return frozenset({"seed"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        from queens.solvers.native.completion import solve_completion

        puzzle = subject.puzzle
        queens = np.array(sorted(puzzle.fixed), np.int64).reshape(-1, 2)
        start = time.perf_counter()
        try:
            found = solve_completion(puzzle.rows, queens, time_limit=time_limit, seed=int(options.get("seed", 0)))
        except TimeLimit:
            return Result(self.backend, Status.LIMIT, wall_time=time.perf_counter() - start, method=self.method)
        stats = {"by": found.method, **found.stats}
        return _columns(subject, found.columns, self, found.wall_time, stats)


@dataclass(frozen=True)
class Construction(Strategy):
    """The O(n) explicit construction (solvers/routing/construct.py)."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        return queen_graph(subject, fixed=False)[1]

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        from queens.solvers.routing.construct import construct

        start = time.perf_counter()
        columns = construct(subject.puzzle.rows)
        return _columns(subject, columns, self, time.perf_counter() - start, {})


@dataclass(frozen=True)
class LocalSearch(Strategy):
    """Conflict-minimising local search (solvers/native/local_search.py): a random solution per seed."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        return queen_graph(subject, fixed=False)[1] or native.missing("_localsearch")

    def options(self) -> frozenset[str]:
        return frozenset({"seed"})

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        from queens.solvers.native.local_search import random_solution

        start = time.perf_counter()
        try:
            columns = random_solution(subject.puzzle.rows, seed=int(options.get("seed", 0)), time_limit=time_limit)
        except TimeLimit:
            return Result(self.backend, Status.LIMIT, wall_time=time.perf_counter() - start, method=self.method)
        return _columns(subject, columns, self, time.perf_counter() - start, {})


@dataclass(frozen=True)
class StreamVerify(Strategy):
    """The streaming O(n) checker of placement files (models/verify_stream.py): one queen per
    row of a square board, read in chunks; what `queens verify` runs."""

    def supports(self, subject: Subject, task: Task) -> str | None:
        return queen_graph(subject, fixed=True)[1]

    def run(self, subject: Subject, task: Task, time_limit: float | None, options: Options) -> Result:
        """Checks the file `options["path"]` (of n = `options["n"]`, or as its header says):
        `count` is the queens it holds, `stats["n"]` the board; a conflict raises."""
        from queens.models.verify_stream import verify_file

        start = time.perf_counter()
        n = options.get("n")
        side, queens = verify_file(Path(str(options["path"])), None if n is None else int(str(n)))
        status = Status.SOLVED if queens == side else Status.COMPLETE
        return Result(self.backend, status, count=queens, wall_time=time.perf_counter() - start,
                      stats={"n": side}, method=self.method)


def _check_options(backend: str, options: SearchOptions) -> None:
    """Build the backend with these options, so a bad value is refused (BadOption) before any
    work; a backend that is not installed is left for `supports` to report."""
    if options:
        try:
            get_backend(backend, **options)
        except BackendUnavailable:
            pass


def _symmetry_option(backend: str) -> frozenset[str]:
    """`symmetry` (lex-leader breaking: queens.solvers.api.count, and solve's search for an
    optimum) for a backend that counts by enumerating, and so compiles lex chains; a backend
    that counts without enumerating (native) has none to turn off."""
    engine, _ = _engine(backend)
    return frozenset({"symmetry"}) if engine is not None and type(engine).count is Backend.count else frozenset()


def _init_options(backend: str) -> frozenset[str]:
    """The options a backend's search takes: its constructor's (read from its signature, not
    listed by hand), narrowed to `Backend.search_options` when the backend declares them."""
    engine, _ = _engine(backend)
    if engine is None:
        return frozenset()
    taken = frozenset(inspect.signature(type(engine).__init__).parameters) - {"self"}
    return taken if engine.search_options is None else taken & engine.search_options


def _columns(subject: Subject, columns: np.ndarray | None, strategy: Strategy, seconds: float,
             stats: dict[str, int | float | str]) -> Result:
    """A column-array answer as a Result: checked by the streaming verifier inside the method,
    and by the puzzle's own checker too when it is small enough to list."""
    if columns is None:
        return Result(strategy.backend, Status.INFEASIBLE, wall_time=seconds, stats=stats, method=strategy.method)
    listed: tuple[Placement, ...] = ()
    if len(columns) <= MAX_LISTED:
        listed = (verify(subject.puzzle, enumerate(columns.tolist())),)
    return Result(strategy.backend, Status.SOLVED, listed, wall_time=seconds, stats=stats, method=strategy.method,
                  columns=columns)


SEARCH_WHY = "the backend's own search"
def registered() -> tuple[Strategy, ...]:
    """Every strategy, built from the backend registry as it is now: a backend registered after
    import (a plug-in, a test's throw-away backend) gets its search, split, copies and layouts
    without further edits (each refuses, with its reason, what its backend cannot do)."""
    return _METHODS + tuple(strategy for name in BACKENDS for strategy in _per_backend(name))


def _per_backend(name: str) -> tuple[Strategy, ...]:
    return (
        Search(name, "search", BY_SEARCH, SEARCH_WHY),
        Split(name, "split", frozenset({Task.COUNT}),
              "counting by decomposition in parallel processes (Q(12): sat 1.6 -> 0.7 s, csp 3.6 -> 1.1 s)"),
        Copies(name, "copies", frozenset({Task.SOLVE, Task.OPTIMISE}),
               "the fewest copies: one model per number, upward from the longest line's length"),
        MostCopies(name, "most-copies", frozenset({Task.SOLVE, Task.OPTIMISE}),
                   "the most copies: one model per number, upward until one has no solution"),
        Layouts(name, "layouts", frozenset({Task.SOLVE, Task.COMPLETE, Task.OPTIMISE, Task.COUNT}),
                "pawns the solver places: each layout up to symmetry answered by the router, counts weighted by "
                "orbit size"),
    )


_METHODS: tuple[Strategy, ...] = (
    Pigeonhole("python", "pigeonhole", frozenset({Task.COUNT, Task.SOLVE, Task.COMPLETE, Task.OPTIMISE}),
               "more pieces asked for than the board's open cells or lines hold: no placement, by counting"),
    ClassCount("native", "classes", frozenset({Task.COUNT}),
               "the D4 symmetry-class counter: the fastest exact count of plain n-queens "
               "(AVX2: 0.28x classic.c at n = 16, scalar 0.37x)"),
    QuadrantCount("native", "quadrant", frozenset({Task.COUNT}),
                  "the meet-in-the-middle counter: joins half-boards instead of walking the tree, "
                  "the fastest exact total of plain n-queens from n = 16 "
                  "(experiments/results/quadrant.md)"),
    Construction("python", "construct", frozenset({Task.SOLVE}),
                 "the O(n) explicit construction: no search at all (ten million queens in under a second)"),
    CompletionSolver("native", "complete", frozenset({Task.SOLVE, Task.COMPLETE}),
               "the exact completion solver: milliseconds at n = 1000 (docs/measurements.md), "
               "and 'no' is a proof"),
    LocalSearch("native", "random", frozenset({Task.SOLVE}),
                "conflict-minimising local search: a different random solution per seed, O(n)"),
    StreamVerify("python", "verify", frozenset({Task.VERIFY}), "the streaming O(n) checker"),
)
"""The strategies that belong to no one backend's registry entry (the native code's methods
and numpy's)."""
