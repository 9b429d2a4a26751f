"""Connected groups (`queens.models.ir.Connection`) in CP-SAT, by reachability layers.

A group of pieces is connected when every piece is reached from one of them by steps between
neighbouring pieces. The root is the first piece in the group's order (root[i] = x[i] and no
piece before i), and layer t holds the pieces reached in at most t steps:

    reach[0][i] = root[i]
    reach[t][i] = x[i] and (reach[t-1][i] or reach[t-1][j] for a neighbour j of i)

and every piece must be in the last layer (a path between two of k pieces has at most k - 1
steps, so `layers` = the most pieces the group can hold, less one). Each auxiliary Boolean is a
function of the cells (an equality, never a choice, as a flow would be), so enumeration lists
every placement once; the layers cost O(cells x layers x neighbours) constraints, so this is
for the small boards people publish connected puzzles on. (A flow encoding is smaller, but its
flows are choices: a count would list one placement once per flow.)
"""

from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model
from queens.models.ir import ConstraintModel
from queens.solvers.formats.cell_order import literals
from queens.solvers.formats.cnf_reachability import layers


def post_connections(cp: cp_model.CpModel, model: ConstraintModel, number: np.ndarray) -> None:
    """Each of the model's connections as reachability layers over the cells' Booleans (a cell
    without a Boolean, cleared by a fixed piece, holds no piece and is left out)."""
    groups = literals(model, [connection.cells for connection in model.connections], number)
    for connection, indices in zip(model.connections, groups, strict=True):
        where = {cell: int(i) for cell, i in zip(connection.cells, indices, strict=True) if i >= 0}
        live = list(where)
        position = {cell: k for k, cell in enumerate(live)}
        cells = [cp.get_bool_var_from_proto_index(where[cell]) for cell in live]
        near: list[list[int]] = [[] for _ in live]
        for a, b in connection.edges:
            if a in position and b in position:
                near[position[a]].append(position[b])
                near[position[b]].append(position[a])
        _post_layers(cp, cells, near, layers(model, len(live)))


def _post_layers(cp: cp_model.CpModel, cells: list[cp_model.IntVar], near: list[list[int]], steps: int) -> None:
    if not cells:
        return
    before: cp_model.IntVar | None = None  # some cell before i holds a piece
    reach = []
    for i, x in enumerate(cells):
        root = cp.new_bool_var(f"root{i}")
        if before is None:
            cp.add(root == x)
        else:
            cp.add_bool_or([~x, before, root])
            cp.add_implication(root, x)
            cp.add_implication(root, ~before)
        reach.append(root)
        if i + 1 < len(cells):
            seen = cp.new_bool_var(f"before{i + 1}")
            cp.add_max_equality(seen, [x] if before is None else [x, before])
            before = seen
    for t in range(steps):
        layer = []
        for i, x in enumerate(cells):
            step = cp.new_bool_var(f"reach{t + 1}_{i}")
            came = cp.new_bool_var(f"came{t + 1}_{i}")
            cp.add_max_equality(came, [reach[i], *(reach[j] for j in near[i])])
            cp.add_min_equality(step, [x, came])
            layer.append(step)
        reach = layer
    for x, reached in zip(cells, reach, strict=True):
        cp.add_implication(x, reached)
