"""The frontier's optimisation puzzles as integer programs, written the way OR-Tools' linear-solver
examples write one (`ortools/linear_solver/samples/mip_var_array.py`, `assignment_mip.py`):
`pywraplp.Solver.CreateSolver("SCIP")`, one `IntVar(0, 1, name)` per square, `solver.Add` per
constraint, `solver.Minimize`/`Maximize`, `set_time_limit` in milliseconds, `solver.Solve()`.
A peer, not the suite: nothing here reads the suite's model.

Each returns (the best value found or None, the bound proved or None), as cpmpy_model does;
the bound is SCIP's best bound, rounded towards the value it must reach. Counting is not
modelled (UNMODELLED says why).
"""

from __future__ import annotations

import math
from typing import Any

from ortools.linear_solver import pywraplp  # type: ignore[import-untyped]  # stubs, but no py.typed marker

Outcome = tuple[int | None, int | None]
UNMODELLED = {"two_per_line": "a MIP solver finds and proves optima; it does not enumerate solutions"}


def _solve(solver: pywraplp.Solver, time_limit: float, maximise: bool) -> Outcome:
    solver.set_time_limit(round(time_limit * 1000))
    status = solver.Solve()
    if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        return None, None
    value = round(solver.Objective().Value())
    bound = solver.Objective().BestBound()
    if status == pywraplp.Solver.OPTIMAL:
        return value, value
    if abs(bound) >= 1e20:  # SCIP's infinity: no bound yet
        return value, None
    return value, math.floor(bound + 1e-6) if maximise else math.ceil(bound - 1e-6)


def _sees(i: int, j: int, k: int, m: int) -> bool:
    """Squares (i, j) and (k, m) share a row, column or diagonal (or are the same)."""
    return i == k or j == m or i - j == k - m or i + j == k + m


def domination(n: int, *, time_limit: float) -> Outcome:
    """The fewest queens occupying or attacking every square (A075458)."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    x = {(i, j): solver.IntVar(0, 1, f"x[{i},{j}]") for i in range(n) for j in range(n)}
    for (i, j) in x:
        solver.Add(sum(x[k, m] for (k, m) in x if _sees(i, j, k, m)) >= 1)
    solver.Minimize(sum(x.values()))
    return _solve(solver, time_limit, maximise=False)


def colouring(n: int, *, time_limit: float) -> Outcome:
    """The chromatic number of the n x n queen graph (A088202): the assignment formulation,
    x[v, c] = vertex v takes colour c, y[c] = colour c used, at most 2n colours."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    cells, colours = [(i, j) for i in range(n) for j in range(n)], range(2 * n)
    x = {(v, c): solver.IntVar(0, 1, f"x[{v},{c}]") for v in cells for c in colours}
    y = [solver.IntVar(0, 1, f"y[{c}]") for c in colours]
    for v in cells:
        solver.Add(sum(x[v, c] for c in colours) == 1)
    for u in cells:
        for v in cells:
            if u < v and _sees(*u, *v):
                for c in colours:
                    solver.Add(x[u, c] + x[v, c] <= y[c])
    solver.Minimize(sum(y))
    return _solve(solver, time_limit, maximise=False)


def peaceable(n: int, *, time_limit: float) -> Outcome:
    """Peaceable queens (A250000): w + b <= 1 on every pair of squares that see each other."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    squares = [(i, j) for i in range(n) for j in range(n)]
    w = {s: solver.IntVar(0, 1, f"w[{s}]") for s in squares}
    b = {s: solver.IntVar(0, 1, f"b[{s}]") for s in squares}
    for s in squares:
        for t in squares:
            if _sees(*s, *t):
                solver.Add(w[s] + b[t] <= 1)
    solver.Add(sum(w.values()) == sum(b.values()))
    solver.Maximize(sum(w.values()))
    return _solve(solver, time_limit, maximise=True)


def cube(n: int, *, time_limit: float) -> Outcome:
    """The most queens on the n x n x n cube (A068940): at most one on each of its lines."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    x: dict[tuple[int, ...], Any] = {(a, b, c): solver.IntVar(0, 1, f"x[{a},{b},{c}]")
                                     for a in range(n) for b in range(n) for c in range(n)}
    directions = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if (a, b, c) > (0, 0, 0)]
    for d in directions:
        for start in x:
            if tuple(s - k for s, k in zip(start, d, strict=True)) in x:
                continue  # not the first cell of its line
            line = [tuple(s + t * k for s, k in zip(start, d, strict=True)) for t in range(n)]
            line = [cell for cell in line if cell in x]
            if len(line) > 1:
                solver.Add(sum(x[cell] for cell in line) <= 1)
    solver.Maximize(sum(x.values()))
    return _solve(solver, time_limit, maximise=True)


def independence(piece: str, n: int, *, time_limit: float) -> Outcome:
    """The most `piece`s on n x n, none attacking: x + y <= 1 on every attacking pair."""
    solver = pywraplp.Solver.CreateSolver("SCIP")
    x = {(i, j): solver.IntVar(0, 1, f"x[{i},{j}]") for i in range(n) for j in range(n)}
    for (i, j) in x:
        for (k, m) in x:
            dr, dc = abs(i - k), abs(j - m)
            if (i, j) < (k, m) and {"king": max(dr, dc) == 1, "knight": {dr, dc} == {1, 2},
                                    "bishop": dr == dc, "queen": _sees(i, j, k, m)}[piece]:
                solver.Add(x[i, j] + x[k, m] <= 1)
    solver.Maximize(sum(x.values()))
    return _solve(solver, time_limit, maximise=True)
