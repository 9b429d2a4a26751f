"""Cube and conquer: a hard SAT question split into cubes, each solved apart, on every core.

CaDiCaL runs on one core. A question the sat backend has not answered after `SPLIT_AFTER`
conflicts is split (Heule, Kullmann, Wieringa & Biere 2011): the armies' shared lines
(`queens.models.ir.Side`: which army may use a line) are the natural variables to split on,
since each fixes a whole line for one army. The `SPLIT_LINES` longest lines nearest the
board's centre give 2^SPLIT_LINES cubes, dealt out in turn to the worker processes; each worker
holds the formula once in one incremental solver and takes its cubes as assumptions, so what it
learns in one cube serves the next. The question is satisfiable when one cube is (the others
are stopped), refuted when every cube is. The workers are forked, not spawned: they run the SAT
solver only, and a script that calls `queens.optimise` then needs no `if __name__ == "__main__":`
guard (a spawned worker imports the script again). A daemonic process may start no workers (a
`multiprocessing.Pool` worker, the explorer's: `queens.solvers.runtime.forking`); there the cubes
are solved in turn on one solver in this process, which is what one worker does.

Measured on peaceable queens n = 9, "13 of each?" (refuted): the 16 cubes over the middle row,
column and both long diagonals add little work to the whole formula's and no cube holds much
of it, where cubes over the board's top rows leave one cube with nearly all of it
(experiments/results/design-choices.md).

>>> cubes([3, 7])
[[3, 7], [3, -7], [-3, 7], [-3, -7]]
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence

from pysat.solvers import Solver
from queens.models import ConstraintModel, TimeLimit
from queens.models.ir import Side
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.forking import may_fork
from queens.solvers.runtime.process_pool import run_in_processes

SPLIT_AFTER = 20_000
"""Conflicts one solver spends on a question before it is split: about a second of CaDiCaL on
peaceable queens n = 9 (whose last question, refuted, takes 260,000 on one solver), so that a
question answered sooner never pays for starting the workers."""
SPLIT_LINES = 4
"""The lines a question is split on: 16 cubes, enough for the workers to share evenly."""
HERE_SLICE = 10_000
"""Conflicts between two looks at the clock and at the signals when the cubes are solved in
this process (CaDiCaL has no `interrupt()`: it is given a budget at a time, as the sat backend
gives it)."""


def central_sides(model: ConstraintModel, sides: Mapping[Side, int], lines: int = SPLIT_LINES) -> list[int]:
    """The variables "the first army may use this line" of the `lines` longest shared lines
    whose cells lie nearest the board's centre (the middle row and column, the long diagonals);
    the board is read off the lines' own cells, of any dimension."""
    runs = {side: [cell for _, cell in model.bicliques[side.biclique].first] for side in sides if side.side == 0}
    board = [cell for run in runs.values() for cell in run]
    middle = [(min(c[axis] for c in board) + max(c[axis] for c in board)) / 2 for axis in range(len(board[0]))]

    def distance(side: Side) -> tuple[int, float, int]:
        run = runs[side]
        off = sum(abs(sum(c[axis] for c in run) / len(run) - m) for axis, m in enumerate(middle))
        return -len(run), off, side.biclique

    return [sides[side] for side in sorted(runs, key=distance)[:lines]]


def cubes(variables: Sequence[int]) -> list[list[int]]:
    """Every assignment of `variables`, as lists of literals."""
    return [list(signs) for signs in itertools.product(*[(v, -v) for v in variables])]


class _Satisfied(Exception):
    """A worker's model: the question is answered, the other workers are stopped."""

    def __init__(self, model: list[int]) -> None:
        super().__init__("satisfiable")
        self.model = model


def placed(split: list[list[int]], workers: int) -> str:
    """Where `conquer` solves the cubes, as the stats say it: in worker processes, or in this
    one where none may start (a daemonic process: `queens.solvers.runtime.forking.may_fork`)."""
    if not may_fork():
        return f"{len(split)} cubes in this process (no worker may start here)"
    return f"{len(split)} cubes on {min(workers, len(split))} processes"


def conquer(clauses: list[list[int]], phases: list[int], split: list[list[int]], workers: int,
            deadline: float | None, solver: str) -> list[int] | None:
    """A model of `clauses` (the solver's signed literals), or None when every cube of `split`
    is refuted; raises TimeLimit when the workers are stopped at the deadline. `phases` are the
    literals each worker's solver tries first."""
    if not may_fork():
        return _conquer_here(clauses, phases, split, deadline, solver)
    jobs = [(clauses, phases, split[w::workers], solver) for w in range(min(workers, len(split)))]

    def found(_: int, answer: list[int] | bool) -> None:
        if isinstance(answer, list):
            raise _Satisfied(answer)

    try:
        answers = run_in_processes(solve_cubes, jobs, len(jobs), deadline=deadline, finished=found, start="fork")
    except _Satisfied as satisfied:
        return satisfied.model
    if any(answer is None for answer in answers):
        raise TimeLimit("sat: time limit reached in the split question")
    return None


def _conquer_here(clauses: list[list[int]], phases: list[int], split: list[list[int]], deadline: float | None,
                  solver: str) -> list[int] | None:
    """`conquer` in this process, where no worker may start: the cubes in turn on one incremental
    solver, `HERE_SLICE` conflicts at a time, the deadline (TimeLimit) and the signals looked at
    between two slices."""
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        sat.set_phases(phases)
        for cube in split:
            answer = None
            while answer is None:
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeLimit("sat: time limit reached in the split question")
                interrupts.check()
                sat.conf_budget(HERE_SLICE)
                answer = sat.solve_limited(assumptions=cube)
            if answer:
                return list(sat.get_model())
    return None


def solve_cubes(clauses: list[list[int]], phases: list[int], cubes: list[list[int]], solver: str) -> list[int] | bool:
    """In a worker: the first cube's model, on one incremental solver, or False when every cube
    is refuted."""
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        sat.set_phases(phases)
        for cube in cubes:
            if sat.solve(assumptions=cube):
                return list(sat.get_model())
    return False
