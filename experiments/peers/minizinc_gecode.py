"""The frontier's .mzn models (this folder) on Gecode through python-minizinc, the way its users
run a model: an Instance, the data assigned, `solve` with a timeout. Each returns (the best value
found or None, the bound proved or None), as cpmpy_model does: Gecode proves an optimum by
exhausting the search, so the bound is known only then. A count returns (solutions, solutions)
when the enumeration finished, (solutions so far, None) at the time limit.
"""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

import minizinc

HERE = Path(__file__).resolve().parent
Outcome = tuple[int | None, int | None]


def _instance(model: str, **data: object) -> minizinc.Instance:
    instance = minizinc.Instance(minizinc.Solver.lookup("gecode"), minizinc.Model(str(HERE / f"{model}.mzn")))
    for name, value in data.items():
        instance[name] = value
    return instance


def _optimum(model: str, time_limit: float, **data: object) -> Outcome:
    result = _instance(model, **data).solve(timeout=timedelta(seconds=time_limit))
    if result.solution is None:
        return None, None
    value = int(result.objective)
    return value, value if result.status is minizinc.Status.OPTIMAL_SOLUTION else None


def domination(n: int, *, time_limit: float) -> Outcome:
    return _optimum("domination", time_limit, n=n)


def colouring(n: int, *, time_limit: float) -> Outcome:
    return _optimum("colouring", time_limit, n=n)


def peaceable(n: int, *, time_limit: float) -> Outcome:
    return _optimum("peaceable", time_limit, n=n)


def cube(n: int, *, time_limit: float) -> Outcome:
    return _optimum("cube", time_limit, n=n)


def independence(piece: str, n: int, *, time_limit: float) -> Outcome:
    return _optimum("independence", time_limit, n=n, piece=piece)


def two_per_line(n: int, *, time_limit: float) -> Outcome:
    """Counted the way MiniZinc users count, on the command line (`minizinc -a -s`): Gecode prints
    each solution and its statistics give their number; "==========" closes a finished search.
    (python-minizinc parses every solution into an object: 2.6 times slower on n = 6.)"""
    run = subprocess.run(["minizinc", "--solver", "gecode", "--all-solutions", "--statistics",
                          "--time-limit", str(round(time_limit * 1000)), "-D", f"n={n}",
                          str(HERE / "two_per_line.mzn")], capture_output=True, text=True, check=True)
    found = next(int(line.split("=")[1]) for line in run.stdout.splitlines() if "nSolutions=" in line)
    return found, found if "==========" in run.stdout.splitlines() else None
