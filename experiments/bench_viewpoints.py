"""Viewpoints side by side, and the choices cpsat's integer viewpoint made, measured in one run.

1. Counting in each backend's viewpoints (cpsat's boolean and alldifferent, csp's rows), with
   and without symmetry breaking (lex-leader chains): Q(10), Q(12) and the toroidal n = 13,
   through the public call (`queens.count`, method search: one process), every count checked
   against OEIS (A000170, A051906).
2. How the integer viewpoint enumerates, on the textbook model written here in plain CP-SAT (q[r]
   in 0..n-1, three AllDifferent, a solution callback): CP-SAT's defaults (OR-Tools' example)
   against a fixed search over q in row order, smallest column first (what the backend asks),
   with presolve on and off.
3. A torus's keys modulo n, said to CP-SAT three ways: AddModuloEquality (a variable and a
   constraint per row and family), a linear quotient (d = key - n k, d in 0..n-1), and the keys
   and the keys + n under one AllDifferent, which says "different modulo n" for keys that span
   less than 2n (what the backend posts).

Medians of REPEATS runs taken in turns, wall and CPU seconds (CPU: this process and its
children), with the load average at the start and the end: the machine is shared, so compare
rows of one table, never tables of two runs.

    python -m queens.experiments.bench_viewpoints [--repeats 3] [--output experiments/results/viewpoints.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from datetime import date
from functools import partial
from pathlib import Path

from ortools.sat.python import cp_model
from queens.experiments.bench_backends import load, terms
from queens.experiments.runner import cpu_seconds
from queens.experiments.saved import save
from queens.models import NQueens, Puzzle
from queens.models.families import FamilyOptions, build
from queens.solvers import Status, count
from queens.solvers.options import SearchOptions

REPEATS = 3
LIMIT = 300.0
VIEWPOINTS: dict[str, tuple[str, SearchOptions]] = {
    "cpsat boolean": ("cpsat", {"viewpoint": "boolean"}),
    "cpsat alldifferent": ("cpsat", {"viewpoint": "alldifferent"}),
    "csp rows": ("csp", {"viewpoint": "rows"}),
}
PUZZLES: list[tuple[str, Callable[[], Puzzle], int]] = [
    ("Q(10)", lambda: NQueens(10), terms("A000170", 10)),
    ("Q(12)", lambda: NQueens(12), terms("A000170", 12)),
    ("toroidal n = 13", lambda: build("toroidal", FamilyOptions(13)), terms("A051906", 13)),
]
Timing = tuple[float, float, int | None]
"""Median wall and CPU seconds, and the last answer (None: no answer)."""


def in_turns(jobs: Mapping[str, Callable[[], int | None]], repeats: int) -> dict[str, Timing]:
    """Each job run `repeats` times, the jobs taken in turns (a change of load falls on them all)."""
    walls: dict[str, list[float]] = {name: [] for name in jobs}
    cpus: dict[str, list[float]] = {name: [] for name in jobs}
    answers: dict[str, int | None] = {}
    for _ in range(repeats):
        for name, job in jobs.items():
            cpu, start = cpu_seconds(), time.perf_counter()
            answers[name] = job()
            walls[name].append(time.perf_counter() - start)
            cpus[name].append(cpu_seconds() - cpu)
    return {name: (statistics.median(walls[name]), statistics.median(cpus[name]), answers[name]) for name in jobs}


def _suite(puzzle: Callable[[], Puzzle], backend: str, options: SearchOptions, symmetry: bool) -> int | None:
    result = count(puzzle(), backend, method="search", symmetry=symmetry, time_limit=LIMIT, **options)
    return result.count if result.status is Status.COMPLETE else None


def viewpoints_table(repeats: int) -> list[str]:
    lines = ["## Counting in each viewpoint (seconds, one process; symmetry: lex-leader chains)\n",
             "| puzzle | viewpoint | symmetry | seconds | CPU s | answer |", "|---|---|---|---:|---:|---|"]
    for label, puzzle, expected in PUZZLES:
        jobs = {f"{name}|{symmetry}": partial(_suite, puzzle, backend, options, symmetry)
                for name, (backend, options) in VIEWPOINTS.items() for symmetry in (False, True)}
        for key, (wall, cpu, answer) in in_turns(jobs, repeats).items():
            name, symmetry = key.split("|")
            shown = answer if answer == expected else f"{answer} ✗"
            lines.append(f"| {label} | {name} | {'on' if symmetry == 'True' else 'off'} | {wall:.3f} | {cpu:.3f} "
                         f"| {shown} |")
    return lines


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.solutions = 0

    def on_solution_callback(self) -> None:
        self.solutions += 1


def _textbook(n: int, modulo: str | None = None) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """q[r] in 0..n-1 and three AllDifferent; on a torus (`modulo`) the diagonals' keys taken
    modulo n by `modulo`: 'AddModuloEquality', 'quotient' or 'copies'."""
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    for sign in (1, -1):
        keys = [q[r] + sign * r for r in range(n)]
        if modulo == "AddModuloEquality":
            folded = [model.new_int_var(0, n - 1, f"d{sign}{r}") for r in range(n)]
            for fold, key in zip(folded, keys, strict=True):
                model.add_modulo_equality(fold, key + n, n)  # key + n >= 0
            model.add_all_different(folded)
        elif modulo == "quotient":
            folded = [model.new_int_var(0, n - 1, f"d{sign}{r}") for r in range(n)]
            for r, (fold, key) in enumerate(zip(folded, keys, strict=True)):
                model.add(fold == key - n * model.new_int_var(-1, 1, f"k{sign}{r}"))
            model.add_all_different(folded)
        elif modulo == "copies":
            model.add_all_different([key + shift for key in keys for shift in (0, n)])
        else:
            model.add_all_different(keys)
    return model, q


def _enumerate(n: int, *, fixed: bool, presolve: bool | None = None, modulo: str | None = None) -> int | None:
    model, q = _textbook(n, modulo)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_time_in_seconds = LIMIT
    if fixed:
        model.add_decision_strategy(q, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        solver.parameters.num_workers = 1
    if presolve is not None:
        solver.parameters.cp_model_presolve = presolve
    counter = _Counter()
    status = solver.solve(model, counter)
    return counter.solutions if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) else None


SEARCHES: dict[str, tuple[bool, bool | None]] = {
    "CP-SAT's defaults (OR-Tools' example)": (False, None),
    "fixed search: q in row order, smallest column first, presolve on": (True, True),
    "the same, presolve off": (True, False),
}
"""Each search: (fixed, presolve; None: CP-SAT's default)."""


def search_table(repeats: int) -> list[str]:
    lines = ["## The textbook model's enumeration in plain CP-SAT (seconds)\n",
             "| puzzle | search | seconds | CPU s | answer |", "|---|---|---:|---:|---|"]
    for n in (10, 12):
        jobs = {name: partial(_enumerate, n, fixed=fixed, presolve=presolve)
                for name, (fixed, presolve) in SEARCHES.items()}
        expected = terms("A000170", n)
        for name, (wall, cpu, answer) in in_turns(jobs, repeats).items():
            shown = answer if answer == expected else f"{answer} ✗"
            lines.append(f"| Q({n}) | {name} | {wall:.3f} | {cpu:.3f} | {shown} |")
    return lines


def modulo_table(repeats: int) -> list[str]:
    lines = ["## A torus's keys modulo n in plain CP-SAT (fixed search, presolve on; seconds)\n",
             "| puzzle | modulo by | seconds | CPU s | answer |", "|---|---|---:|---:|---|"]
    for n in (11, 13):
        jobs = {way: partial(_enumerate, n, fixed=True, presolve=True, modulo=way)
                for way in ("AddModuloEquality", "quotient", "copies")}
        expected = terms("A051906", n)
        for way, (wall, cpu, answer) in in_turns(jobs, repeats).items():
            shown = answer if answer == expected else f"{answer} ✗"
            lines.append(f"| toroidal n = {n} | {way} | {wall:.3f} | {cpu:.3f} | {shown} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Viewpoints side by side, and the integer viewpoint's choices.")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="runs per row, taken in turns")
    parser.add_argument("--output", type=Path, help="also write the tables here once the run has ended")
    asked = parser.parse_args(argv)
    lines = [f"`python -m queens.experiments.bench_viewpoints --repeats {asked.repeats}`, {date.today()}, "
             f"{platform.machine()}, {os.cpu_count()} cores, from {load()}.\n"]
    print(lines[0], flush=True)
    for table in (viewpoints_table, search_table, modulo_table):
        found = table(asked.repeats)
        print("\n".join(found) + "\n", flush=True)
        lines += [*found, ""]
    lines.append(f"Ended at {load()}.")
    if asked.output:
        save(asked.output, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
