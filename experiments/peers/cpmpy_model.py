"""n-queens as CPMpy users write it (CPMpy's examples/nqueens.py): an intvar per row, three
AllDifferent, solved by one of CPMpy's solvers ("ortools", "pysat"). A peer of the suite.
"""

from __future__ import annotations

import cpmpy as cp
import numpy as np


def nqueens(n: int, solver: str, *, count: bool, time_limit: float) -> int | None:
    """The number of solutions (count) or 1/0 for one found / proved none; None at the limit."""
    queens = cp.intvar(1, n, shape=n, name="queens")
    rows = np.arange(n)
    model = cp.Model(cp.AllDifferent(queens), cp.AllDifferent(queens - rows), cp.AllDifferent(queens + rows))
    if count:
        found = model.solveAll(solver=solver, time_limit=time_limit)
        return found if model.status().exitstatus.name in ("OPTIMAL", "FEASIBLE", "UNSATISFIABLE") else None
    if model.solve(solver=solver, time_limit=time_limit):
        return 1
    return 0 if model.status().exitstatus.name == "UNSATISFIABLE" else None
