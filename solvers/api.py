"""One backend's answers: `solve`, `solutions`, `count` on any puzzle with a named backend.

This is where the suite keeps its promises that no backend can break: the puzzle is lowered
once, every solution a backend returns is re-checked by `queens.models.verify` against the puzzle's
own rules, and the time limit is turned into one deadline for the backend to honour. A goal (the
fewest pieces, or armies' sizes maximised or minimised) is answered with its proof. The
strategies (`queens.solvers.routing.strategies`) call these; users call the router's `solve`, `count`
and `optimise` (`queens.solvers`), which pick the strategy.

>>> from queens.models import NQueens
>>> count(NQueens(6), "native").count
4
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Unpack

from queens.models import (
    BackendError,
    ConstraintModel,
    Placement,
    TimeLimit,
    Unsupported,
    lower,
    symmetry_group,
    verify,
)
from queens.models.errors import BadOption
from queens.models.puzzle import Puzzle
from queens.models.symmetry import Orbits, Transform, canonical_placement, leaders_only, lex_leader
from queens.solvers.backend import Backend, Optimum, Task, deadline_after
from queens.solvers.options import SearchOptions, checked
from queens.solvers.registry import get_backend, preload
from queens.solvers.result import Result, Status
from queens.solvers.runtime.deadline_child import call_until
from queens.solvers.runtime.progress import Progress, counted, listening


def puzzle_argument(puzzle: object) -> Puzzle:
    """`puzzle` when it is a `Puzzle`, else the TypeError that names the argument and how to get
    one: every entry point of the API (`queens.solve`, `count`, `optimise`, `solutions`, the
    router's) checks it first, so a family's name or None given by mistake is said at the call,
    not met as an AttributeError deep inside.

    >>> puzzle_argument("nqueens")
    Traceback (most recent call last):
    ...
    TypeError: puzzle must be a queens.Puzzle, got str 'nqueens': queens.family('nqueens', n) builds ...
    """
    if isinstance(puzzle, Puzzle):
        return puzzle
    from queens.models.families import FAMILIES  # here: a worker process that only counts never loads every family

    hint = ("queens.family(name, n) builds a family's puzzle, queens.load(path) a puzzle file's, queens.Puzzle(...) "
            "any other")
    if isinstance(puzzle, str) and puzzle in FAMILIES:
        hint = f"queens.family({puzzle!r}, n) builds that family's"
    elif isinstance(puzzle, str) or hasattr(puzzle, "__fspath__"):
        hint = "queens.load(path) reads a puzzle file"
    shown = repr(puzzle) if len(repr(puzzle)) <= 40 else repr(puzzle)[:37] + "..."
    raise TypeError(f"puzzle must be a queens.Puzzle, got {type(puzzle).__name__} {shown}: {hint}")


def solve(puzzle: Puzzle, backend: str = "cpsat", *, time_limit: float | None = None,
          symmetry: bool | None = None, **options: Unpack[SearchOptions]) -> Result:
    """One solution (the fewest pieces, when the puzzle minimises), verified. The puzzle is
    lowered once (`lowered`): the router's model is the backend's. With `symmetry` (True; None,
    the default, on the backends where it pays, `Backend.lex_for_optima`) an optimum is searched
    for among the leaders of the symmetry classes only (`optimum_breaking`);
    `stats["reduction"]` names it when it was used, `stats["symmetry"]` why not."""
    engine = get_backend(backend, **options)
    deadline = deadline_after(time_limit)
    return with_deadline(deadline, backend, _solve, engine, puzzle, deadline, symmetry)


@dataclass(frozen=True)
class Chosen(Progress):
    """What the router reports once it has chosen (in the child `with_deadline` runs it in): the
    strategy, and why. A child killed at the deadline can say nothing more, so this is how its
    answer still names the strategy that was running (issue 37: "by -/-")."""

    backend: str = ""
    method: str = ""
    why: str = ""


def with_deadline(deadline: float | None, backend: str, function: Callable[..., Result], *args: object,
                  counting: bool = False, method: str = "search") -> Result:
    """`function(*args)`, a Result, computed in a child process killed a little after the
    deadline (`queens.solvers.runtime.deadline_child`). When the child is killed, a LIMIT result
    of `backend`/`method` instead (of the strategy the child reported it chose, `Chosen`, when it
    did), with (`counting`) the solutions it had reported counting as a lower bound, the lower
    bound a minimisation had reported as `stats["bound"]`, and the limit that stopped it as
    `stats["time_limit"]` (seconds)."""
    start = time.perf_counter()
    limit = None if deadline is None else round(max(0.0, deadline - time.monotonic()), 2)
    if deadline is not None:
        preload(backend)
    chosen: list[Chosen] = []

    def heard(progress: Progress) -> None:
        if isinstance(progress, Chosen):
            chosen.append(progress)
    try:
        with listening(heard):
            return call_until(deadline, function, *args)
    except TimeLimit as stopped:
        why = ""
        if chosen:
            backend, method, why = chosen[-1].backend, chosen[-1].method, chosen[-1].why
        stats: dict[str, int | float | str] = {"stopped": f"{backend}/{method}: {stopped}"}
        if limit is not None:
            stats["time_limit"] = limit
        if stopped.bound is not None:
            stats["bound"] = stopped.bound
        return Result(backend, Status.LIMIT, count=(stopped.partial or 0) if counting else None,
                      wall_time=time.perf_counter() - start, stats=stats, method=method, why=why)


def _solve(engine: Backend, puzzle: Puzzle, deadline: float | None, symmetry: bool | None = None) -> Result:
    """`solve` once the deadline is set: lowering, the backend's search and the check, in the
    process `call_until` runs it in."""
    backend = engine.name
    model = checked_model(engine, puzzle, Task.SOLVE)
    start = time.perf_counter()
    broken: dict[str, int | float | str] = {}
    if model.objective is not None or model.minimise:
        model, broken = optimum_breaking(engine, puzzle, model, symmetry)
    if model.objective is not None:
        return _optimum(engine, puzzle, engine.optimise(model, deadline), start, broken)
    try:
        found = engine.minimise(model, deadline) if model.minimise else engine.find(model, deadline)
    except TimeLimit:
        return Result(backend, Status.LIMIT, wall_time=time.perf_counter() - start, stats={**engine.stats, **broken})
    elapsed = time.perf_counter() - start
    if found is None:
        return Result(backend, Status.INFEASIBLE, wall_time=elapsed, stats={**engine.stats, **broken})
    solution = verify(puzzle, found)
    status = Status.OPTIMAL if model.minimise else Status.SOLVED
    return Result(backend, status, (solution,), objective=len(solution) if model.minimise else None,
                  wall_time=elapsed, stats={**engine.stats, **broken})


def optimum_breaking(engine: Backend, puzzle: Puzzle, model: ConstraintModel,
                     symmetry: bool | None) -> tuple[ConstraintModel, dict[str, int | float | str]]:
    """The model an optimum is searched in, and the stats that say how: with lex chains over the
    whole group that keeps it (`leaders_only`: board symmetries, and swaps of interchangeable
    armies), which loses no optimum (each class keeps its leader, and every placement in a
    class scores the same), named as `reduction`; or the model itself, `symmetry` saying why
    (not asked, not where it pays, nothing to break, too many army orders to try, or the
    backend cannot compile chains)."""
    if symmetry is False:
        return model, {"symmetry": "off (asked)"}
    if symmetry is None and not engine.lex_for_optima:
        return model, {"symmetry": f"off ({engine.name}: the chains cost more than they save; symmetry=True asks)"}
    orders = math.factorial(len(puzzle.armies))
    if orders > MAX_ARMY_ORDERS:
        return model, {"symmetry": f"off ({len(puzzle.armies)} armies: {orders} orders are too many to try)"}
    lexed, group = leaders_only(puzzle, model, sides=engine.lex_over_sides)
    if not group:
        return model, {"symmetry": "none to break (the puzzle's only symmetry is the identity)"}
    refusal = engine.supports(lexed)
    if refusal:
        return model, {"symmetry": f"off ({refusal})"}
    return lexed, {"reduction": f"lex-leader over a group of {group}: only the leader of each class of "
                                "placements is searched (a class's placements score alike)"}


MAX_ARMY_ORDERS = 24
"""The most orders of the armies (4!) whose symmetries `optimum_breaking` looks for: each is
checked against the whole model with each board symmetry (a colouring's 7 copies would be
5,040 x 8 checks); a puzzle with more armies is optimised without breaking."""


def _optimum(engine: Backend, puzzle: Puzzle, best: Optimum, start: float,
             broken: dict[str, int | float | str]) -> Result:
    """An objective's answer: OPTIMAL with its proof, INFEASIBLE (proved), or at the limit the
    best found and the bound reached (`stats["bound"]`)."""
    status = (Status.INFEASIBLE if best.solution is None else Status.OPTIMAL) if best.proved else Status.LIMIT
    solutions = () if best.solution is None else (verify(puzzle, best.solution),)
    stats: dict[str, int | float | str] = {**engine.stats, **broken}
    if best.bound is not None and not best.proved:
        stats["bound"] = best.bound
    return Result(engine.name, status, solutions, objective=best.value, wall_time=time.perf_counter() - start,
                  stats=stats)


def solutions(puzzle: Puzzle, backend: str = "cpsat", *, time_limit: float | None = None,
              **options: Unpack[SearchOptions]) -> Iterator[Placement]:
    """Every solution once, lazily, each verified; raises TimeLimit if the deadline comes first.

    A minimising puzzle yields its optimal solutions (the minimum is found first). The arguments
    are checked at the call, before the first solution is asked for; the clock starts then too.
    """
    engine = get_backend(backend, **checked(options))
    deadline = deadline_after(time_limit)
    return _solutions(puzzle_argument(puzzle), engine, deadline)


def _solutions(puzzle: Puzzle, engine: Backend, deadline: float | None) -> Iterator[Placement]:
    model, _ = optimal_model(engine, checked_model(engine, puzzle, Task.ENUMERATE), deadline)
    if model is None:
        return
    for found in engine.solutions(model, deadline):
        yield verify(puzzle, found)


def optimal_model(engine: Backend, model: ConstraintModel,
                  deadline: float | None) -> tuple[ConstraintModel | None, int | None]:
    """The model whose solutions are the optimal ones, and the proved optimum (None, None
    without a goal: the model itself); (None, None) when there is no solution at all. An
    optimum not proved by the deadline raises TimeLimit: its solutions cannot be told apart."""
    if model.minimise:
        best = engine.minimise(model, deadline)
        return (None, None) if best is None else (model.with_size(len(best)), len(best))
    if model.objective is None:
        return model, None
    optimum = engine.optimise(model, deadline)
    if not optimum.proved:
        raise TimeLimit(f"{engine.name}: the optimum is not proved yet (best {optimum.value}, bound {optimum.bound})")
    return (None, None) if optimum.value is None else (model.at_value(optimum.value), optimum.value)


def splits(engine: Backend, puzzle: Puzzle) -> bool:
    """Whether counting `puzzle` on `engine` splits by default (`Backend.split_from_cells`)."""
    return engine.split_from_cells is not None and puzzle.rows * puzzle.cols >= engine.split_from_cells


def count(puzzle: Puzzle, backend: str = "cpsat", *, time_limit: float | None = None,
          split: bool | None = None, processes: int | None = None, symmetry: bool | None = None,
          group: Sequence[Transform] | None = None, unique: bool = False,
          **options: Unpack[SearchOptions]) -> Result:
    """The number of solutions (of optimal ones, when the puzzle has a goal); with `unique`, of
    their classes under the symmetries that keep the puzzle (`stats["classes"]`, beside the
    total).

    Backends that can count without enumerating (native) do so; the others enumerate, and
    every solution they find is verified and checked to be new. With `symmetry` (True; None,
    the default, on boards of the backend's `lex_from_cells` cells and more) they enumerate one
    solution per class under the puzzle's symmetry group (lex-leader constraints,
    `queens.models.symmetry.lex_leader`), each checked to lead its class and counted with the
    class's size; `stats["symmetry"]` says whether it was used, or why not.
    `group` overrides the group (the split passes the whole puzzle's to its subproblems, whose
    extra pieces shrink their own). `split=True` counts by decomposition in `processes`
    processes (solvers/routing/split_count.py: a row's piece fixed, subproblems side by side), each subproblem
    through this same function. The default, None, splits for enumerating backends from their
    `split_from_cells` up.
    """
    engine = get_backend(backend, **options)
    refusal = engine.limits(*sides(puzzle), Task.COUNT)  # before any work: splitting costs too
    if refusal:
        raise Unsupported(refusal)
    deadline_after(time_limit)  # a bad limit is refused before the split, too
    if unique:
        rows, cols = sides(puzzle)
        if rows * cols > Backend.count_limit:
            raise BadOption(f"unique classes are counted by enumerating every solution: boards of at most "
                            f"{Backend.count_limit} cells, not {puzzle.size_text}")
        deadline = deadline_after(time_limit)
        return with_deadline(deadline, backend, _count_classes, engine, puzzle, deadline, counting=True)
    if split is None:
        split = (type(engine).count is Backend.count and puzzle.cells_are_variables and puzzle.pieces is not None
                 and splits(engine, puzzle))
    if split:
        from queens.solvers.routing.split_count import count_split  # split calls back into count: imported here

        return count_split(puzzle, backend, time_limit=time_limit, processes=processes, symmetry=symmetry,
                           **options)
    deadline = deadline_after(time_limit)
    return with_deadline(deadline, backend, _count, engine, puzzle, deadline, symmetry, group, counting=True)


def _count(engine: Backend, puzzle: Puzzle, deadline: float | None, symmetry: bool | None,
           group: Sequence[Transform] | None) -> Result:
    """`count` once the deadline is set, without splitting, in the process `call_until` runs it in."""
    model = checked_model(engine, puzzle, Task.COUNT)
    start = time.perf_counter()
    objective = None
    tally = _Tally()
    try:
        sized, objective = optimal_model(engine, model, deadline)
        if sized is not None:
            fast = engine.count(sized, deadline)
            if fast is not None:
                tally.total = fast
            else:
                _enumerate(engine, puzzle, sized, deadline, breaking(engine, sized, symmetry, group), tally)
    except TimeLimit as limit:
        partial = tally.total if limit.partial is None or tally.enumerated else limit.partial
        return Result(engine.name, Status.LIMIT, count=partial, objective=objective,
                      wall_time=time.perf_counter() - start, stats={**engine.stats, **tally.stats})
    return Result(engine.name, Status.COMPLETE, count=tally.total, objective=objective,
                  wall_time=time.perf_counter() - start, stats={**engine.stats, **tally.stats})


@dataclass
class _Tally:
    """A count so far (a lower bound when the time runs out) and what to report about it."""

    total: int = 0
    enumerated: bool = False
    stats: dict[str, int | float | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Breaking:
    """What `count` enumerates: `model`, with lex chains over `group` when `orbits` weighs each
    leader found by its class's size; `note` says which, or why the symmetries are not broken."""

    model: ConstraintModel
    orbits: Orbits | None
    note: str
    group: tuple[Transform, ...] = ()


def breaking(engine: Backend, model: ConstraintModel, symmetry: bool | None,
             group: Sequence[Transform] | None = None) -> Breaking:
    """The lex-leader model for `engine`, when asked, useful (a group beyond the identity) and
    supported (`engine.supports` on the model with its chains: a backend that cannot compile
    them says why, and counts every solution instead)."""
    if symmetry is False:
        return Breaking(model, None, "off (asked)")
    if symmetry is None:
        start = engine.lex_from_cells
        if start is None:
            return Breaking(model, None, f"off ({engine.name}: the chains cost more than they save on every board)")
        if len(model.cells) < start:
            return Breaking(model, None, f"off (under {start} cells the chains cost more than they save)")
    if model.numbering:
        return Breaking(model, None, "off (the variables are not the cells of one board)")
    group = symmetry_group(model) if group is None else tuple(group)
    if len(group) == 1:
        return Breaking(model, None, "none to break (the puzzle's only symmetry is the identity)")
    lexed = lex_leader(model, group)
    refusal = engine.supports(lexed)
    if refusal:
        return Breaking(model, None, f"off ({refusal})")
    return Breaking(lexed, Orbits(model, group),
                    f"lex-leader over a group of {len(group)}: one solution per class, weighted by its size", group)


def _enumerate(engine: Backend, puzzle: Puzzle, model: ConstraintModel, deadline: float | None,
               breaks: Breaking, tally: _Tally) -> None:
    """Count `breaks.model`'s solutions into `tally`, each verified, new, and (with lex chains) the
    leader of its class, counted with the class's size."""
    tally.enumerated = True
    tally.stats["symmetry"] = breaks.note
    seen: set[Placement] = set()
    for found in engine.solutions(breaks.model, deadline):
        solution = verify(puzzle, found)
        if solution in seen:
            raise BackendError(f"{engine.name} returned the solution {solution} twice")
        seen.add(solution)
        weight = 1 if breaks.orbits is None else breaks.orbits.size(solution)
        if weight is None:
            raise BackendError(f"{engine.name} returned {solution}, which does not lead its symmetry class")
        tally.total += weight
        tally.stats["enumerated"] = len(seen)
        counted(tally.total)


def _count_classes(engine: Backend, puzzle: Puzzle, deadline: float | None) -> Result:
    """Every (optimal) solution enumerated, each verified and new, and their classes under the
    symmetries that keep the puzzle (`canonical_placement`): `count` is the total, `stats`
    holds the classes."""
    start = time.perf_counter()
    model, objective = optimal_model(engine, checked_model(engine, puzzle, Task.ENUMERATE), deadline)
    seen: set[Placement] = set()
    classes: set[Placement] = set()
    try:
        for found in () if model is None else engine.solutions(model, deadline):
            solution = verify(puzzle, found)
            if solution in seen:
                raise BackendError(f"{engine.name} returned the solution {solution} twice")
            seen.add(solution)
            classes.add(canonical_placement(puzzle, solution))
            counted(len(seen))
    except TimeLimit:
        return Result(engine.name, Status.LIMIT, count=len(seen), objective=objective,
                      wall_time=time.perf_counter() - start, stats={**engine.stats, "classes": len(classes)})
    return Result(engine.name, Status.COMPLETE, count=len(seen), objective=objective,
                  wall_time=time.perf_counter() - start, stats={**engine.stats, "classes": len(classes)})


def sides(puzzle: Puzzle) -> tuple[int, int]:
    """(rows, columns) for a backend's size limits: the model's variables as a grid
    (`Puzzle.variable_grid`: the board's own when its cells are the variables)."""
    return puzzle.variable_grid


@lru_cache(maxsize=1)
def lowered(puzzle: Puzzle) -> ConstraintModel:
    """`lower(puzzle)`, kept for the next call: the router lowers a puzzle to choose a strategy,
    and the backend it chooses needs the same model, whose lowering is not free even at 200 x 200
    (experiments/results/design-choices.md)."""
    return lower(puzzle)


def checked_model(engine: Backend, puzzle: Puzzle, task: Task) -> ConstraintModel:
    """The puzzle's model, once the backend has said it can answer it: its size limits are read
    before the model is built, its structural checks on the model."""
    refusal = engine.limits(*sides(puzzle), task)
    if refusal:
        raise Unsupported(refusal)
    model = lowered(puzzle)
    refusal = engine.supports(model)
    if refusal:
        raise Unsupported(refusal)
    return model
