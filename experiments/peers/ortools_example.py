"""OR-Tools' own n-queens example (`ortools/sat/samples/nqueens_sat.py`), written from its
published form: q[i] = the column of row i's queen, AllDifferent on q, q + i and q - i, and a
solution callback. A peer, not the suite: nothing here reads the suite's model.
"""

from __future__ import annotations

from ortools.sat.python import cp_model


class SolutionCounter(cp_model.CpSolverSolutionCallback):
    def __init__(self) -> None:
        super().__init__()
        self.solutions = 0

    def on_solution_callback(self) -> None:
        self.solutions += 1


def nqueens(n: int, *, count: bool, time_limit: float) -> int | None:
    """The number of solutions (count) or 1/0 for one found / proved none; None at the limit."""
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"x_{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different(queens[i] + i for i in range(n))
    model.add_all_different(queens[i] - i for i in range(n))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if not count:
        status = solver.solve(model)
        return {cp_model.OPTIMAL: 1, cp_model.FEASIBLE: 1, cp_model.INFEASIBLE: 0}.get(status)
    solver.parameters.enumerate_all_solutions = True
    counter = SolutionCounter()
    status = solver.solve(model, counter)
    return counter.solutions if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) else None
