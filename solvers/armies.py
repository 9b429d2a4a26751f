"""Solve, optimise and count puzzles with armies (`queens.models.armies.ArmyPuzzle`) on any backend.

The same promises as `queens.solvers.api`: the puzzle is lowered once, the backend says through
`supports` whether it can answer before it is asked, and every answer is re-checked by the
independent checker (`queens.models.army_check`). Goals are answered with a proof:
- a goal on the armies' size ("maximise"/"minimise") through the backend's `optimise` (CP-SAT's
  objective, status OPTIMAL; elsewhere one question per value, each "no" an UNSAT answer or an
  exhausted search); at the time limit, the best found and the bound reached;
- an army with open copies (colouring) by asking k = w, w + 1, ... copies, where w is the longest
  line of one army (its cells attack each other pairwise, so each needs its own copy): the first
  k that works is the fewest. The cells of that line are given copies 1, 2, ... in order, which
  loses no answer (copies are interchangeable) and spares the search k! relabellings.

>>> from queens.models.armies import Army, ArmyPuzzle
>>> peaceable = ArmyPuzzle((4, 4), (Army("white", goal="maximise"), Army("black", goal="maximise")), within=False)
>>> found = solve_armies(peaceable, "cpsat")
>>> found.status.value, found.objective
('optimal', 2)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

from queens.models import BackendError, ConstraintModel, Placement, TimeLimit, Unsupported
from queens.models.armies import ArmyPuzzle
from queens.models.army_check import ArmyPlacement, verify_armies
from queens.models.army_lowering import lower_armies
from queens.models.symmetry import army_symmetry_group, canonical_armies
from queens.solvers.api import within
from queens.solvers.backend import Backend, Optimum, Task, deadline_after
from queens.solvers.progress import counted
from queens.solvers.registry import get_backend
from queens.solvers.result import Result, Status


def checked_model(engine: Backend, puzzle: ArmyPuzzle) -> ConstraintModel:
    """The puzzle's model, once `engine` has said it can answer it (Unsupported names why not)."""
    refusal = engine.limits(1, len(puzzle.board_cells) * len(puzzle.armies), Task.SOLVE)
    model = None if refusal else lower_armies(puzzle)
    refusal = refusal or engine.supports(model)  # type: ignore[arg-type]
    if refusal or model is None:
        raise Unsupported(refusal or "no model")
    return model


def solve_armies(puzzle: ArmyPuzzle, backend: str = "cpsat", *, time_limit: float | None = None,
                 **options: object) -> Result:
    """One answer: the optimum with its proof when the puzzle has a goal, else any solution."""
    engine = get_backend(backend, **options)
    deadline = deadline_after(time_limit)
    return within(deadline, backend, _solve_armies, engine, puzzle, deadline)


def _solve_armies(engine: Backend, puzzle: ArmyPuzzle, deadline: float | None) -> Result:
    backend = engine.name
    start = time.perf_counter()
    if puzzle.copies_open:
        return _fewest_copies(engine, puzzle, deadline, start)
    model = checked_model(engine, puzzle)
    if model.objective is None:
        try:
            found = engine.find(model, deadline)
        except TimeLimit:
            return Result(backend, Status.LIMIT, wall_time=time.perf_counter() - start, stats=engine.stats)
        status = Status.INFEASIBLE if found is None else Status.SOLVED
        return _result(engine, puzzle, status, found, None, start)
    best = engine.optimise(model, deadline)
    return _optimum(engine, puzzle, best, start)


def _optimum(engine: Backend, puzzle: ArmyPuzzle, best: Optimum, start: float) -> Result:
    if best.proved:
        status = Status.INFEASIBLE if best.solution is None else Status.OPTIMAL
    else:
        status = Status.LIMIT
    result = _result(engine, puzzle, status, best.solution, best.value, start)
    if best.bound is not None and not best.proved:
        result.stats["bound"] = best.bound
    return result


def _result(engine: Backend, puzzle: ArmyPuzzle, status: Status, found: Placement | None, value: int | None,
            start: float) -> Result:
    solutions = () if found is None else (verify_armies(puzzle, found),)
    return Result(engine.name, status, solutions, objective=value,  # type: ignore[arg-type]
                  wall_time=time.perf_counter() - start, stats=dict(engine.stats))


def _fewest_copies(engine: Backend, puzzle: ArmyPuzzle, deadline: float | None, start: float) -> Result:
    """Colouring: the fewest copies, k = the clique bound upward (see the module docstring)."""
    widest = max((line.cells for line in lower_armies(puzzle.with_copies(1)).lines), key=len, default=())
    floor = max(1, len(widest))
    for copies in range(floor, len(puzzle.board_cells) + 1):
        variant = puzzle.with_copies(copies)
        model = checked_model(engine, variant)
        broken = replace(model, fixed=model.fixed | {(i, cell) for i, (_, cell) in enumerate(widest)})
        try:
            found = engine.find(broken, deadline)
        except TimeLimit:
            result = _result(engine, variant, Status.LIMIT, None, None, start)
            result.stats["bound"] = copies
            return result
        if found is not None:
            result = _result(engine, variant, Status.OPTIMAL, found, copies, start)
            result.stats["clique bound"] = floor
            return result
    return _result(engine, puzzle, Status.INFEASIBLE, None, None, start)


def optimal_solutions(puzzle: ArmyPuzzle, backend: str = "cpsat", *, time_limit: float | None = None,
                      **options: object) -> Iterator[ArmyPlacement]:
    """Every solution once (every optimal one, when the puzzle has a goal), each checked."""
    engine = get_backend(backend, **options)
    deadline = deadline_after(time_limit)
    model, _ = _sized(engine, puzzle, deadline)
    if model is None:
        return
    for found in engine.solutions(model, deadline):
        yield verify_armies(puzzle, found)


def _sized(engine: Backend, puzzle: ArmyPuzzle, deadline: float | None) -> tuple[ConstraintModel | None, int | None]:
    """The model whose solutions are the answers (None: there are none) and, with a goal, the
    proved optimum it is fixed at."""
    if puzzle.copies_open:
        raise Unsupported("counting colourings is not offered: their number depends on how copies are told apart")
    model = checked_model(engine, puzzle)
    if model.objective is None:
        return model, None
    best = engine.optimise(model, deadline)
    if not best.proved:
        raise TimeLimit(f"{engine.name}: the optimum is not proved yet (best {best.value}, bound {best.bound})")
    return (None if best.value is None else model.at_value(best.value)), best.value


def count_armies(puzzle: ArmyPuzzle, backend: str = "cpsat", *, time_limit: float | None = None,
                 unique: bool = False, **options: object) -> Result:
    """How many solutions (optimal ones, with a goal: `--all-optimal`), each checked and new;
    `unique`: how many classes under the symmetries that keep the puzzle (board symmetries
    with swaps of interchangeable armies, `queens.models.symmetry.army_symmetry_group`)."""
    engine = get_backend(backend, **options)
    deadline = deadline_after(time_limit)
    return within(deadline, backend, _count_armies, engine, puzzle, deadline, unique, counting=True)


def _count_armies(engine: Backend, puzzle: ArmyPuzzle, deadline: float | None, unique: bool) -> Result:
    start = time.perf_counter()
    total, value = 0, None
    try:
        model, value = _sized(engine, puzzle, deadline)
        fast = None if model is None or unique else engine.count(model, deadline)
        if fast is not None:
            total = fast
        elif model is not None:
            total = _enumerated(engine, puzzle, model, deadline, unique)
    except TimeLimit as limit:
        partial = total if limit.partial is None else limit.partial
        return Result(engine.name, Status.LIMIT, count=partial, wall_time=time.perf_counter() - start,
                      stats=dict(engine.stats))
    return Result(engine.name, Status.COMPLETE, count=total, objective=value,
                  wall_time=time.perf_counter() - start, stats=dict(engine.stats))


def _enumerated(engine: Backend, puzzle: ArmyPuzzle, model: ConstraintModel, deadline: float | None,
                unique: bool) -> int:
    """Solutions (or their classes) counted one by one, each checked and each new."""
    group = army_symmetry_group(lower_armies(puzzle), puzzle.shape, len(puzzle.armies)) if unique else []
    seen: set[Placement] = set()
    classes: set[Placement] = set()
    for found in engine.solutions(model, deadline):
        verify_armies(puzzle, found)
        solution = tuple(sorted(found))
        if solution in seen:
            raise BackendError(f"{engine.name} returned the solution {solution} twice")
        seen.add(solution)
        if unique:
            classes.add(canonical_armies(solution, group))
        counted(len(classes) if unique else len(seen))  # what the count is of: a bound if it stops here
    return len(classes) if unique else len(seen)


def army_json(puzzle: ArmyPuzzle, answer: ArmyPlacement) -> list[dict[str, object]]:
    """A solution as JSON: every army's cells (two coordinates, or three on a cube).

    >>> from queens.models.armies import Army, ArmyPuzzle
    >>> army_json(ArmyPuzzle((2, 2), (Army("white"),)), (((0, 1),),))
    [{'army': 'white', 'cells': [[0, 1]]}]
    """
    return [{"army": army.name, "cells": [list(cell) for cell in cells]}
            for army, cells in zip(puzzle.armies, answer, strict=True)]
