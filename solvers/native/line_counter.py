"""The line counter's input: a constraint model as variables and bounded lines (linecore.c).

The simple search keeps one bit per cell and so at most one piece per line. The line counter
keeps two counters per line instead, so a line may hold between `at_least` and `at_most`
pieces (two rooks per row and column, OEIS A001499) and a model's variables may be any keys
(several armies, their sizes as lines). Everything the model asks becomes a line:

- each line of each family, with its bounds;
- each cover: at least one piece among its cells, at most all of them;
- the size: exactly `size` pieces among all cells, unless a family already says it (its lines
  disjoint, covering every cell, each with equal bounds that add up to the size).

The search decides the cells line by line along the first family whose lines all hold an exact
number of pieces (row by row for "two per row"), the other cells after them in index order.

>>> from queens.models import ROOK, Puzzle, lower
>>> search, _, stats = line_search(lower(Puzzle(rows=4, cols=4, piece=ROOK, pieces=8, per_line=2)))
>>> search.count(), stats["lines"]
((90, True), 8)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from queens.models import ConstraintModel, Line, Unsupported
from queens.models.ir import Var
from queens.solvers.native import _lines

MAX_VARS = _lines.MAX_VARS

Bounds = tuple[tuple[Var, ...], int, int]
"""A line for the counter: its variables, the fewest and the most pieces on them."""


def bounded_lines(model: ConstraintModel) -> list[Bounds]:
    """Every constraint of `model` as (variables, least, most); see the module docstring."""
    found: list[Bounds] = [(line.cells, line.at_least, line.at_most) for line in model.lines]
    found += [(cover, 1, len(cover)) for cover in model.covers]
    if model.size is not None and not _size_said(model):
        found.append((model.cells, model.size, model.size))
    return found


def _partition(lines: tuple[Line, ...], cells: Iterable[Var]) -> bool:
    """Whether `lines` are disjoint and hold every one of `cells`."""
    members = [cell for line in lines for cell in line.cells]
    return len(members) == len(set(members)) and set(members) == set(cells)


def _size_said(model: ConstraintModel) -> bool:
    """Whether one family already fixes the number of pieces at `size` (the line is redundant)."""
    return any(family.lines and all(line.at_least == line.at_most for line in family.lines)
               and sum(line.at_most for line in family.lines) == model.size
               and _partition(family.lines, model.cells)
               for family in model.families)


def decision_order(model: ConstraintModel) -> list[int]:
    """The open variables' numbers in the order the search decides them (the module docstring)."""
    index = model.index
    exact = next((family for family in model.families if family.lines
                  and all(line.at_least == line.at_most > 0 for line in family.lines)), None)
    lines = () if exact is None else exact.lines
    first = [cell for line in lines for cell in sorted(line.cells, key=index.__getitem__)]
    rest = sorted(model.cells, key=index.__getitem__)
    order: list[int] = []
    seen = set(model.fixed)
    for cell in first + rest:
        if cell not in seen:
            seen.add(cell)
            order.append(index[cell])
    return order


def _int32(values: Iterable[int]) -> bytes:
    return array("i", values).tobytes()


def line_search(model: ConstraintModel) -> tuple[_lines.LineSearch, list[Var], dict[str, int | float | str]]:
    """The line counter's search over `model`, the variable of each number, and its size stats."""
    if model.objective is not None:
        raise Unsupported("native: ask the objective one value at a time (ConstraintModel.at_value)")
    if model.size is None and model.minimise:
        raise Unsupported("native needs a fixed number of pieces (minimise goes through with_size)")
    if model.width > MAX_VARS:
        raise Unsupported(f"native's line counter takes at most {MAX_VARS} variables, got {model.width}")
    index = model.index
    lines = bounded_lines(model)
    starts = [0]
    for cells, _, _ in lines:
        starts.append(starts[-1] + len(cells))
    search = _lines.LineSearch(
        nvars=max(model.width, 1),
        order=_int32(decision_order(model)),
        fixed=_int32(index[cell] for cell in model.fixed),
        line_start=_int32(starts),
        line_cells=_int32(index[cell] for cells, _, _ in lines for cell in cells),
        lo=_int32(least for _, least, _ in lines),
        hi=_int32(most for _, _, most in lines),
    )
    stats: dict[str, int | float | str] = {
        "counter": "lines (two counters per line)",
        "variables": len(model.cells),
        "lines": len(lines),
        "line places": starts[-1],
    }
    numbered = list(model.numbering) if model.numbering else [divmod(i, model.cols) for i in range(model.width)]
    return search, numbered, stats
