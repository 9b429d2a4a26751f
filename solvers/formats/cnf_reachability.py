"""Connected groups (`queens.models.ir.Connection`) in CNF, by reachability layers.

The same layers as CP-SAT's (`queens.solvers.formats.reachability`), each written as clauses:
the root is the first piece in the group's order, layer t holds the pieces reached from it in
at most t steps between neighbours, and every piece must be in the last layer:

    before[i]   = x[0] or ... or x[i-1]
    root[i]     = x[i] and not before[i]          (reach[0][i])
    reach[t][i] = x[i] and (reach[t-1][i] or reach[t-1][j] for a neighbour j of i)
    x[i] -> reach[L][i]

Each auxiliary is defined both ways (Tseitin), so it is a function of the cells: a model of the
cells extends in exactly one way, and a count by enumeration lists each placement once. L is
the most pieces the group can hold, less one (a path between two of k pieces has k - 1 steps).

>>> from queens.models.ir import Connection, ConstraintModel
>>> cells = ((0, 0), (0, 1), (0, 2))
>>> path = ConstraintModel(rows=1, cols=3, cells=cells, families=(), connections=(
...     Connection(cells, ((cells[0], cells[1]), (cells[1], cells[2]))),))
>>> clauses, top = connection_clauses(path, np.arange(1, 4), 3)
>>> from pysat.solvers import Solver
>>> with Solver(bootstrap_with=clauses + [[1], [3]]) as solver:  # both ends: the middle too
...     solver.solve(), solver.solve(assumptions=[-2])
(True, False)
"""

from __future__ import annotations

import numpy as np
from queens.models.ir import ConstraintModel
from queens.solvers.formats.cell_order import literals


def layers(model: ConstraintModel, cells: int) -> int:
    """How many steps a path between two pieces may take: the most pieces there can be (the
    model's size, the objective's upper bound, the group's cells), less one."""
    most = cells if model.size is None else min(model.size, cells)
    if model.objective is not None and model.objective.most is not None:
        most = min(most, model.objective.most * len(model.objective.groups))
    return max(most - 1, 0)


def connection_clauses(model: ConstraintModel, var: np.ndarray, top: int) -> tuple[list[list[int]], int]:
    """Each of the model's connections as reachability layers over the cells' variables (`var`,
    numbered from 1; a cell without one, cleared by a fixed piece, is left out), and the new
    top variable."""
    clauses: list[list[int]] = []
    groups = literals(model, [connection.cells for connection in model.connections], var)
    for connection, numbers in zip(model.connections, groups, strict=True):
        where = {cell: int(v) for cell, v in zip(connection.cells, numbers, strict=True) if v > 0}
        position = {cell: k for k, cell in enumerate(where)}
        near: list[list[int]] = [[] for _ in where]
        for a, b in connection.edges:
            if a in position and b in position:
                near[position[a]].append(position[b])
                near[position[b]].append(position[a])
        top = _layered(list(where.values()), near, layers(model, len(where)), top, clauses)
    return clauses, top


def _layered(cells: list[int], near: list[list[int]], steps: int, top: int, clauses: list[list[int]]) -> int:
    if not cells:
        return top
    reach, top = _roots(cells, top, clauses)
    for _ in range(steps):
        layer = []
        for i, x in enumerate(cells):
            came = sorted({reach[i], *(reach[j] for j in near[i])})
            top += 1  # reach[t][i] = x[i] and OR(came)
            clauses += [[-top, x], [-top, *came], *([top, -x, -c] for c in came)]
            layer.append(top)
        reach = layer
    clauses += [[-x, reached] for x, reached in zip(cells, reach, strict=True)]
    return top


def _roots(cells: list[int], top: int, clauses: list[list[int]]) -> tuple[list[int], int]:
    """The literals root[i] (the first piece is on cell i), and the new top variable."""
    roots = [cells[0]]
    before = cells[0]  # some cell before i holds a piece
    for i, x in enumerate(cells[1:], start=1):
        top += 1  # root[i] = x[i] and not before[i]
        clauses += [[-top, x], [-top, -before], [top, -x, before]]
        roots.append(top)
        if i + 1 < len(cells):
            top += 1  # before[i + 1] = before[i] or x[i]
            clauses += [[-top, before, x], [top, -before], [top, -x]]
            before = top
    return roots, top
