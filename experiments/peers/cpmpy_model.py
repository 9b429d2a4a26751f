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


# The frontier's puzzles (experiments/bench_frontier.py), in the same style: a Boolean matrix per
# army, lines summed with numpy slicing, the objective on the model; solved by CP-SAT through
# CPMpy's "ortools" solver. Each returns (the best value found or None, the bound proved or None):
# the value is proved optimal when the two agree. A count returns (solutions, solutions) when the
# enumeration finished, (solutions so far, None) at the time limit.

Outcome = tuple[int | None, int | None]


def _lines(x: np.ndarray) -> list[np.ndarray]:
    """Rows, columns and both diagonal directions of a square matrix."""
    n = len(x)
    flipped = np.fliplr(x)
    return ([x[i, :] for i in range(n)] + [x[:, j] for j in range(n)]
            + [x.diagonal(k) for k in range(1 - n, n)] + [flipped.diagonal(k) for k in range(1 - n, n)])


def _optimum(model: cp.Model, time_limit: float) -> Outcome:
    solver = cp.SolverLookup.get("ortools", model)
    if not solver.solve(time_limit=time_limit):
        return None, None
    return int(solver.objective_value()), round(solver.ort_solver.BestObjectiveBound())


def domination(n: int, *, time_limit: float) -> Outcome:
    """The fewest queens occupying or attacking every square (A075458)."""
    x = cp.boolvar(shape=(n, n), name="x")
    model = cp.Model(minimize=cp.sum(x))
    for i in range(n):
        for j in range(n):
            model += cp.sum(x[i, :]) + cp.sum(x[:, j]) + cp.sum(x.diagonal(j - i)) \
                + cp.sum(np.fliplr(x).diagonal(n - 1 - j - i)) >= 1
    return _optimum(model, time_limit)


def _attacks(piece: str, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Does `piece` on cell a attack cell b (2-D)?"""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return {"king": max(dr, dc) == 1, "knight": {dr, dc} == {1, 2}, "bishop": dr == dc > 0,
            "rook": (dr == 0) != (dc == 0), "queen": (dr == 0) != (dc == 0) or dr == dc > 0}[piece]


def colouring(n: int, *, time_limit: float) -> Outcome:
    """The chromatic number of the n x n queen graph (A088202), as CPMpy's graph-colouring example
    writes it: a colour per vertex, different across every edge, the largest colour minimised
    (at most 2n colours: enough for every n here)."""
    cells = [(i, j) for i in range(n) for j in range(n)]
    colour = cp.intvar(1, 2 * n, shape=len(cells), name="colour")
    model = cp.Model([colour[u] != colour[v] for u in range(len(cells)) for v in range(u + 1, len(cells))
                      if _attacks("queen", cells[u], cells[v])], minimize=cp.max(colour))
    return _optimum(model, time_limit)


def peaceable(n: int, *, time_limit: float) -> Outcome:
    """Peaceable queens (A250000): as many white as black queens, no queen attacking one of the
    other colour."""
    white, black = cp.boolvar(shape=(n, n), name="white"), cp.boolvar(shape=(n, n), name="black")
    cells = [(i, j) for i in range(n) for j in range(n)]
    model = cp.Model(cp.sum(white) == cp.sum(black), maximize=cp.sum(white))
    for a in cells:
        for b in cells:
            if a == b or _attacks("queen", a, b):
                model += white[a] + black[b] <= 1
    return _optimum(model, time_limit)


def cube(n: int, *, time_limit: float) -> Outcome:
    """The most queens on an n x n x n cube, none attacking along its 13 lines (A068940)."""
    x = cp.boolvar(shape=(n, n, n), name="x")
    directions = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if (a, b, c) > (0, 0, 0)]
    model = cp.Model(maximize=cp.sum(x))
    for d in directions:  # every line: the cells from each start that has no predecessor on the board
        for start in np.ndindex(n, n, n):
            if all(0 <= s - k < n for s, k in zip(start, d, strict=True)):
                continue
            line = [tuple(s + t * k for s, k in zip(start, d, strict=True)) for t in range(n)]
            line = [cell for cell in line if all(0 <= v < n for v in cell)]
            if len(line) > 1:
                model += cp.sum([x[cell] for cell in line]) <= 1
    return _optimum(model, time_limit)


def independence(piece: str, n: int, *, time_limit: float) -> Outcome:
    """The most `piece`s (king, knight, bishop, queen) on n x n, none attacking another."""
    x = cp.boolvar(shape=(n, n), name="x")
    model = cp.Model(maximize=cp.sum(x))
    if piece in ("bishop", "queen"):  # a slider: at most one per line
        lines = _lines(x)[2 * n:] if piece == "bishop" else _lines(x)
        model += [cp.sum(line) <= 1 for line in lines if len(line) > 1]
    else:  # a leaper: no two on an attacking pair
        cells = [(i, j) for i in range(n) for j in range(n)]
        model += [~(x[a] & x[b]) for a in cells for b in cells if a < b and _attacks(piece, a, b)]
    return _optimum(model, time_limit)


def two_per_line(n: int, *, time_limit: float) -> Outcome:
    """The n x n 0-1 matrices with two 1s in every row and column (A001499), counted."""
    x = cp.boolvar(shape=(n, n), name="x")
    model = cp.Model([cp.sum(row) == 2 for row in x], [cp.sum(col) == 2 for col in x.T])
    found = model.solveAll(solver="ortools", time_limit=time_limit)
    return found, found if model.status().exitstatus.name in ("OPTIMAL", "UNSATISFIABLE") else None
