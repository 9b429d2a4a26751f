"""The issue's targets, measured side by side: the suite's defaults against direct models.

1. Counting Q(12) by enumeration. The direct models are the ones people write first (an
   OR-Tools CP-SAT AllDifferent model with a counting callback; pysat with sequential counters,
   Glucose 4 and one blocking clause per solution; python-constraint2 with AllDifferent and one
   lambda per pair of rows); the issue quotes 12.1 s, 10.7 s and 5.6 s for them. The suite
   counts with its defaults, then by decomposition (solvers/split.py) in one process and in all.
   Target: at most half the direct model's time.
2. One n-queens solution for n = 500 (target <= 10 s) and n = 1000 (tried), suite defaults.
   Quoted direct figures: CP-SAT AllDifferent, none in 90 s; CaDiCaL + ladder AMO, 25.5 s and
   more than 100 s. They are not re-run here (minutes each).

Run: python -m queens.experiments.bench_backends   (also `make bench`)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from queens.models import NQueens
from queens.solvers import Status, count, solve

N = 12
QUOTED = {"cpsat": 12.1, "sat": 10.7, "csp": 5.6}
QUOTED_FIND = {("cpsat", 500): "> 90 s", ("sat", 500): "25.5 s", ("cpsat", 1000): "-", ("sat", 1000): "> 100 s"}


def direct_cpsat(n: int) -> int:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different([q[r] + r for r in range(n)])
    model.add_all_different([q[r] - r for r in range(n)])

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    counter = Counter()
    solver.solve(model, counter)
    return counter.found


def direct_pysat(n: int) -> int:
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    x = [[r * n + c + 1 for c in range(n)] for r in range(n)]
    lines = [row for row in x] + [[x[r][c] for r in range(n)] for c in range(n)]
    diagonals = [[x[r][c] for r in range(n) for c in range(n) if r - c == d] for d in range(1 - n, n)]
    diagonals += [[x[r][c] for r in range(n) for c in range(n) if r + c == s] for s in range(2 * n - 1)]
    top, clauses = n * n, []
    for literals, exact in [(line, True) for line in lines] + [(d, False) for d in diagonals if len(d) > 1]:
        build = CardEnc.equals if exact else CardEnc.atmost
        part = build(lits=literals, bound=1, top_id=top, encoding=EncType.seqcounter)
        clauses += part.clauses
        top = max(top, part.nv)
    found = 0
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        while solver.solve():
            found += 1
            solver.add_clause([-v for v in solver.get_model() if 0 < v <= n * n])
    return found


def direct_csp(n: int) -> int:
    import constraint

    problem = constraint.Problem()
    problem.addVariables(range(n), range(n))
    problem.addConstraint(constraint.AllDifferentConstraint())
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            problem.addConstraint(lambda a, b, d=r2 - r1: abs(a - b) != d, (r1, r2))
    return len(problem.getSolutions())


DIRECT: dict[str, Callable[[int], int]] = {"cpsat": direct_cpsat, "sat": direct_pysat, "csp": direct_csp}


def timed(job: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = job()
    return time.perf_counter() - start, value


def main() -> int:
    truth = count(NQueens(N), "native").count
    print(f"## Counting Q({N}) = {truth:,} by enumeration (seconds for the whole call, one run each, "
          "side by side)\n")
    print("| backend | direct, quoted | direct, here | suite default | split, 1 process | split, all CPUs "
          "| best / quoted | best / here | target ≤ 0.5 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|:---:|")
    for backend, direct in DIRECT.items():
        here, found = timed(lambda direct=direct: direct(N))
        assert found == truth, f"direct {backend} model counted {found}"
        runs = [timed(lambda backend=backend: count(NQueens(N), backend)),
                timed(lambda backend=backend: count(NQueens(N), backend, split=True, processes=1)),
                timed(lambda backend=backend: count(NQueens(N), backend, split=True))]
        for _, result in runs:
            assert result.status is Status.COMPLETE and result.count == truth, result
        best = min(seconds for seconds, _ in runs)
        times = " | ".join(f"{seconds:.2f}" for seconds, _ in runs)
        print(f"| {backend} | {QUOTED[backend]:.1f} | {here:.2f} | {times} | {best / QUOTED[backend]:.2f} "
              f"| {best / here:.2f} | {'✓' if best <= 0.5 * QUOTED[backend] else '✗'} |", flush=True)
    print("\n## One n-queens solution with the suite's defaults (seconds for the whole call: lowering, "
          "solving, verifying; limit 120 s)\n")
    print("| backend | n | direct, quoted | suite default | target ≤ 10 s at n = 500 |")
    print("|---|---:|---:|---:|:---:|")
    for n in (500, 1000):
        for backend in ("cpsat", "sat"):
            seconds, result = timed(lambda n=n, backend=backend: solve(NQueens(n), backend, time_limit=120))
            shown = f"{seconds:.1f}" if result.status is Status.SOLVED else f"{result.status.value}"
            mark = ("✓" if result.status is Status.SOLVED and seconds <= 10 else "✗") if n == 500 else ""
            print(f"| {backend} | {n} | {QUOTED_FIND[backend, n]} | {shown} | {mark} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
