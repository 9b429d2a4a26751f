"""OPB, the pseudo-Boolean competition format: lines, covers, fixed and blocked cells as linear
rows over the board numbering, the model's clauses and attack counts too (a variable per group
of cells of a count, after the cells), and `min:` for a puzzle with a goal (the fewest pieces;
or armies of equal size, maximised or minimised: the first army's pieces, negated to maximise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from queens.models import ConstraintModel, Puzzle, Unsupported
from queens.models.ir import CountIf, Var
from queens.solvers.formats.board_numbering import blocked, decision_model, header, title, variable


def opb(puzzle: Puzzle, *, size: int | None = None) -> str:
    """The puzzle as a pseudo-Boolean problem (OPB, the PB competition format).

    Only `>=` and `=` are used (some readers reject `<=`): "at most k" is written as
    -x1 -x2 ... >= -k. A minimising puzzle gets the objective `min: +1 x1 ... ;`.
    """
    model = decision_model(puzzle, size, "opb")
    return opb_of(model, title(puzzle, model))


def opb_of(model: ConstraintModel, title: str = "a placement puzzle") -> str:
    """The OPB of a lowered model: what `opb` writes."""
    if model.connections:
        raise Unsupported("the OPB export writes no connected groups (pieces that must touch)")

    def terms(cells: tuple[Var, ...] | list[Var], coefficient: int = 1) -> str:
        return " ".join(f"{coefficient:+d} x{variable(model, c)}" for c in cells)

    constraints = []
    for line in model.lines:
        if line.at_least == line.at_most:
            constraints.append(f"{terms(line.cells)} = {line.at_most} ;")
            continue
        if line.at_most < len(line.cells):
            constraints.append(f"{terms(line.cells, -1)} >= -{line.at_most} ;")
        if line.at_least > 0:
            constraints.append(f"{terms(line.cells)} >= {line.at_least} ;")
    constraints += [f"{terms(cover)} >= 1 ;" for cover in model.covers]
    constraints += [f"+1 x{variable(model, cell)} = 1 ;" for cell in sorted(model.fixed)]
    constraints += [f"+1 x{variable(model, cell)} = 0 ;" for cell in blocked(model)]
    if model.size is not None and not model.size_implied:
        constraints.append(f"{terms(model.cells)} = {model.size} ;")
    beyond, variables = _opb_beyond(model)
    constraints += beyond
    if model.objective is not None:  # the groups hold equal numbers: the first's is the objective
        first, *others = model.objective.groups
        constraints += [f"{terms(first)} {terms(group, -1)} = 0 ;" for group in others]
    lines = [f"* #variable= {variables} #constraint= {len(constraints)}"]
    lines += header(title, model, "*")
    if model.minimise:
        lines.append(f"min: {terms(model.cells)} ;")
    elif model.objective is not None:
        lines.append(f"min: {terms(model.objective.groups[0], -1 if model.objective.sense == 'maximise' else 1)} ;")
    return "\n".join(lines + constraints)


def _opb_beyond(model: ConstraintModel) -> tuple[list[str], int]:
    """The model's clauses and attack counts in OPB, and how many variables the file has. A
    clause: sum(present) - sum(absent) >= 1 - |absent|. A count "when w holds a piece, between
    lo and hi of these groups hold one": a group of several cells is a new variable y (after the
    board's cells, one per group) with y >= x for each of its cells x and sum(group) >= y, so y
    is their OR; then sum(y) - lo*w >= 0 and -sum(y) - (n - hi)*w >= -n over its n groups."""
    constraints = [row for clause in model.clauses
                   for row in _opb_row(_weights([*((variable(model, c), 1) for c in clause.present),
                                                 *((variable(model, c), -1) for c in clause.absent)]),
                                       1 - len(clause.absent))]
    holding: dict[tuple[int, ...], int] = {}
    top = model.width
    for count in model.counts:
        when = variable(model, count.when)
        held = []
        for group in (sorted({variable(model, c) for c in g}) for g in count.groups if g):
            if len(group) > 1 and tuple(group) not in holding:
                top += 1
                holding[tuple(group)] = top
                for x in group:
                    constraints += _opb_row(Counter({top: 1, x: -1}), 0)
                constraints += _opb_row(_weights([*((x, 1) for x in group), (top, -1)]), 0)
            held.append(group[0] if len(group) == 1 else holding[tuple(group)])
        constraints += _opb_count(count, when, held)
    return constraints, top


def _opb_count(count: CountIf, when: int, held: list[int]) -> list[str]:
    """lo <= sum(held) <= hi when `when` holds a piece, in OPB rows (see `_opb_beyond`)."""
    total = len(held)
    at_most = min(count.at_most, total)
    if count.at_least > at_most:
        return _opb_row(Counter({when: -1}), 0)
    rows = []
    if count.at_least > 0:
        rows += _opb_row(_weights([*((y, 1) for y in held), (when, -count.at_least)]), 0)
    if at_most < total:
        rows += _opb_row(_weights([*((y, -1) for y in held), (when, at_most - total)]), -total)
    return rows


def _weights(terms: Iterable[tuple[int, int]]) -> Counter[int]:
    """Coefficients by variable, a variable met twice summed (OPB names a variable once per row)."""
    total: Counter[int] = Counter()
    for number, coefficient in terms:
        total[number] += coefficient
    return total


def _opb_row(weights: Counter[int], bound: int) -> list[str]:
    """The OPB row sum(weights) >= bound over the variables whose weights are not zero: none
    when no variable is left and 0 >= bound holds, and when it fails a row no 0/1 value keeps
    (x1 >= bound + 1), since a row needs a variable."""
    terms = " ".join(f"{k:+d} x{v}" for v, k in sorted(weights.items()) if k)
    if terms:
        return [f"{terms} >= {bound} ;"]
    return [] if bound <= 0 else [f"+1 x1 >= {bound + 1} ;"]
