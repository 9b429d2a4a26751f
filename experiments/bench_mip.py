"""The `mip` backend's defaults, measured: the solver (HiGHS or SCIP) and HiGHS's threads on the
problems integer programming is used for (queen domination, peaceable queens, independence
numbers), then mip beside cpsat and sat on queen domination n = 8..12, then peaceable queens in the
backend's pair formulation against the literature's line formulation. (SCIP's own symmetry handling
cannot be switched through OR-Tools: SCIP refuses `misc/usesymmetry` once it has begun.)

Every run is the whole public call (`queens.solvers.api.solve`: lowering, solving, checking the
answer), one run each (a single run of a hard instance takes minutes), with a time limit; every
optimum is checked against the repository's OEIS terms (A075458, A250000) or the closed form.
The load average is printed beside every table: the machine is shared.

Run: python -m queens.experiments.bench_mip [--defaults] [--versus] [--formulations]   (prints Markdown)
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from queens.experiments.bench_backends import terms
from queens.models import Puzzle
from queens.models.armies import Army
from queens.models.families import of_size
from queens.models.pieces import piece_named
from queens.solvers import Result, Status
from queens.solvers.api import solve
from queens.solvers.backends import mip as mip_module

LIMIT = 60.0
VARIANTS: dict[str, tuple[dict[str, object], str]] = {
    # label: (backend options, extra solver-specific parameters)
    "scip": ({"solver": "scip"}, ""),
    "highs, 1 thread": ({"solver": "highs", "threads": 1}, ""),
    "highs, 2 threads": ({"solver": "highs", "threads": 2}, ""),
}
INDEPENDENCE = {"queen": 8, "king": 16, "knight": 32, "bishop": 14}
"""Independence numbers on 8 x 8: n, ceil(n/2)^2, n^2/2, 2n - 2."""


def peaceable(n: int) -> Puzzle:
    return Puzzle(shape=(n, n), armies=(Army("white", goal="maximise"), Army("black", goal="maximise")), within=False)


def independent(piece: str, n: int) -> Puzzle:
    moves = piece_named(piece, 2)
    assert moves is not None
    return Puzzle(shape=(n, n), armies=(Army(piece, moves, goal="maximise"),))


Job = Callable[[str, dict[str, object]], Result]
"""How to answer a problem on a backend with options."""


def solving(puzzle: Puzzle) -> Job:
    def job(backend: str, options: dict[str, object]) -> Result:
        return solve(puzzle, backend, time_limit=LIMIT, **options)  # type: ignore[arg-type]  # options vary by row
    return job


def problems() -> Iterator[tuple[str, Job, int]]:
    """(label, how to answer it, the known optimum)."""
    for n in range(4, 11):
        yield f"domination {n}", solving(of_size("domination", n)), terms("A075458", n)
    for n in range(4, 7):
        yield f"peaceable {n}", solving(peaceable(n)), terms("A250000", n)
    for piece, value in INDEPENDENCE.items():
        yield f"independent {piece}s 8x8", solving(independent(piece, 8)), value


@contextmanager
def parameters(solver: object, extra: str) -> Iterator[None]:
    """`extra` added to `solver`'s own parameters for one variant (the backend takes none by option)."""
    saved = dict(mip_module.PARAMETERS)
    if extra:
        mip_module.PARAMETERS[str(solver)] = f"{saved[str(solver)]}\n{extra}"
    try:
        yield
    finally:
        mip_module.PARAMETERS.update(saved)


def cell(result: Result, expected: int, seconds: float) -> str:
    if result.status is Status.OPTIMAL:
        assert result.objective == expected, (result.objective, expected)
        return f"{seconds:.2f}"
    return f"limit ({result.stats.get('bound', '-')})" if result.status is Status.LIMIT else result.status.value


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def defaults() -> None:
    """Each variant on each problem: wall seconds to the proved optimum."""
    print(f"\nmip variants, wall s to a proved optimum (limit {LIMIT:.0f} s); load at start {load()}\n")
    print("| problem | optimum | " + " | ".join(VARIANTS) + " |")
    print("|---|---:|" + "---:|" * len(VARIANTS))
    for label, run, expected in problems():
        row = []
        for options, extra in VARIANTS.values():
            with parameters(options["solver"], extra):
                start = time.perf_counter()
                result = run("mip", options)
                row.append(cell(result, expected, time.perf_counter() - start))
        print(f"| {label} | {expected} | " + " | ".join(row) + " |", flush=True)
    print(f"\nload at end {load()}")


def versus(sizes: range = range(8, 13), limit: float = 300.0,
           backends: tuple[str, ...] = ("mip", "cpsat", "sat")) -> None:
    """mip (defaults) beside cpsat and sat (defaults) on queen domination, proved optimal."""
    print(f"\nqueen domination, wall s to a proved optimum (limit {limit:.0f} s); load at start {load()}\n")
    print("| n | γ(Q_n) | " + " | ".join(backends) + " | " + " | ".join(f"mip / {b}" for b in backends[1:]) + " |")
    print("|---:|---:|" + "---:|" * (2 * len(backends) - 1))
    for n in sizes:
        expected = terms("A075458", n)
        shown, seconds = [], []
        for backend in backends:
            start = time.perf_counter()
            result = solve(of_size("domination", n), backend, time_limit=limit)
            seconds.append(time.perf_counter() - start if result.status is Status.OPTIMAL else None)
            shown.append(cell(result, expected, time.perf_counter() - start))
        ratios = [f"{seconds[0] / other:.2f}" if seconds[0] and other else "-" for other in seconds[1:]]
        print(f"| {n} | {expected} | " + " | ".join(shown + ratios) + " |", flush=True)
    print(f"\nload at end {load()}")


def line_colour_model(n: int, solver: str) -> Callable[[float], tuple[int | None, bool]]:
    """Peaceable queens in the literature's line formulation, written straight to `pywraplp` (the
    way the OR-Tools examples write a model): w[c], b[c] per cell, y[L] per line of two cells or
    more (its colour: 1 white may stand on it, 0 black), w[c] <= y[L] and b[c] <= 1 - y[L] for c
    on L, w[c] + b[c] <= 1, sum(w) = sum(b) = m, m maximised. The backend cannot write it: its
    model holds the white-black conflicts as pairs of variables, not as the board's lines."""
    from ortools.linear_solver import pywraplp  # type: ignore[import-untyped]  # as solvers/backends/mip.py

    def run(limit: float) -> tuple[int | None, bool]:
        mp = pywraplp.Solver.CreateSolver(mip_module.SOLVERS[solver])
        mp.SetSolverSpecificParametersAsString(mip_module.PARAMETERS[solver])
        mp.SetNumThreads(1)
        mp.SetTimeLimit(int(limit * 1000))
        cells = [(r, c) for r in range(n) for c in range(n)]
        w = {cell: mp.BoolVar(f"w{cell}") for cell in cells}
        b = {cell: mp.BoolVar(f"b{cell}") for cell in cells}
        for cell in cells:
            mp.Add(w[cell] + b[cell] <= 1)
        keys: tuple[Callable[[int, int], int], ...] = (lambda r, c: r, lambda r, c: c, lambda r, c: r - c,
                                                       lambda r, c: r + c)
        for k, key in enumerate(keys):
            lines: dict[int, list[tuple[int, int]]] = {}
            for cell in cells:
                lines.setdefault(key(*cell), []).append(cell)
            for value, line in lines.items():
                if len(line) > 1:
                    y = mp.BoolVar(f"y{k}_{value}")
                    for cell in line:
                        mp.Add(w[cell] <= y)
                        mp.Add(b[cell] <= 1 - y)
        m = mp.IntVar(0, n * n, "m")
        mp.Add(sum(w.values()) == m)
        mp.Add(sum(b.values()) == m)
        mp.Maximize(m)
        parameters = pywraplp.MPSolverParameters()
        parameters.SetDoubleParam(parameters.RELATIVE_MIP_GAP, 0.0)
        status = mp.Solve(parameters)
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return None, False
        return round(m.solution_value()), status == pywraplp.Solver.OPTIMAL
    return run


def formulations(sizes: range = range(5, 8), limit: float = 300.0) -> None:
    """Peaceable queens, the backend's pairs (as `solve` asks it, no lex chains) against the line
    formulation (`line_colour_model`), on HiGHS and SCIP: wall s to a proved optimum."""
    print(f"\npeaceable queens, wall s to a proved optimum (limit {limit:.0f} s); load at start {load()}\n")
    print("| n | A250000 | pairs, highs | lines, highs | pairs, scip | lines, scip |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        expected = terms("A250000", n)
        row = []
        for solver in ("highs", "scip"):
            start = time.perf_counter()
            result = solve(peaceable(n), "mip", time_limit=limit, solver=solver, symmetry=False)
            row.append(cell(result, expected, time.perf_counter() - start))
            start = time.perf_counter()
            value, proved = line_colour_model(n, solver)(limit)
            seconds = time.perf_counter() - start
            assert not proved or value == expected, (value, expected)
            row.append(f"{seconds:.2f}" if proved else f"limit ({value})")
        print(f"| {n} | {expected} | " + " | ".join(row) + " |", flush=True)
    print(f"\nload at end {load()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The mip backend's defaults, measured (prints Markdown); "
                                                 "no part named: all three.")
    parser.add_argument("--defaults", action="store_true", help="the solver and HiGHS's threads")
    parser.add_argument("--versus", action="store_true", help="mip beside cpsat and sat on queen domination")
    parser.add_argument("--formulations", action="store_true", help="peaceable queens: pairs against lines")
    asked = parser.parse_args(argv)
    every = not (asked.defaults or asked.versus or asked.formulations)
    print(f"# mip backend: defaults and domination ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)")
    if every or asked.defaults:
        defaults()
    if every or asked.versus:
        versus()
    if every or asked.formulations:
        formulations()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
