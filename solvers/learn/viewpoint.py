"""From the suite's model to the variables, domains and constraints the teaching engine searches.

Two viewpoints, chosen by the model's structure (never by the puzzle's name):

- the **integer viewpoint**, when every row holds exactly one piece (`ConstraintModel.row_family`)
  and every other line at most one: one variable per row, `q[r]`, whose values are the columns
  of row r's cells (the textbook n-queens model: `array[0..n-1] of var 0..n-1: q`). Two pieces
  on one line are two rows whose values conflict: a `Conflicts` constraint for each pair of rows
  and each family of lines they share (`q[2] != q[5]` for the columns, `q[2] - 2 != q[5] - 5`
  for a diagonal: MiniZinc's pairwise disequalities). At the AllDifferent levels each family
  whose lines a `LinearKey` names becomes one `AllDifferent` over the keys instead (MiniZinc's
  `alldifferent(q)`, `alldifferent([q[i] + i | i in ...])`);
- the **Boolean viewpoint** otherwise: one 0/1 variable per cell, `x[r,c]`, and a `Count` for
  each line (between its bounds), each cover (at least one), the size, and a `Clause` for each
  clause of the model.

Either viewpoint reads the lex-leader chains of a count that breaks symmetry through its cells
(`LexChain`). A model asking what neither viewpoint holds (attack counts) is refused with the
reason (`refusal`).

>>> from queens.models import NQueens, lower
>>> problem = build(lower(NQueens(4)))
>>> problem.viewpoint, problem.names, len(problem.constraints)
('integer', ['q[0]', 'q[1]', 'q[2]', 'q[3]'], 18)
>>> problem.constraints[0].name
'columns q[0] q[1]'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from queens.models import ConstraintModel, LineFamily, Placement, Unsupported
from queens.models.ir import Var
from queens.models.row_viewpoint import AllDifferent as RowAllDifferent
from queens.models.row_viewpoint import RowViewpoint, row_refusal, row_viewpoint
from queens.solvers.learn.constraints import (
    ONE,
    ZERO,
    AllDifferent,
    Clause,
    Conflicts,
    Constraint,
    Count,
    LexChain,
    Test,
)
from queens.solvers.learn.domains import each_value, highest

VIEWPOINTS = ("integer", "boolean")
PAIRWISE_UP_TO = 64
"""The most rows whose keyed families are posted as pairwise disequalities (the textbook's
decomposition: 3 x 64 x 63 / 2 = 6,048 constraints for 64 queens). Larger boards get one
AllDifferent per keyed family, which prunes exactly the same values when a row is fixed (as
the levels `alldifferent` and `bounds` do on every board)."""


@dataclass
class Problem:
    """What the engine searches: each variable's name and first domain, the constraints, and
    for each variable and value the cell that value puts a piece on (`cells[var][value]`, no
    entry for a value that puts none: a Boolean variable's 0)."""

    viewpoint: str
    names: list[str]
    domains: list[int]
    constraints: list[Constraint]
    cells: list[dict[int, Var]]

    def placement(self, dom: list[int]) -> Placement:
        """The pieces of a solution (every domain fixed), in board order."""
        found = (self.cells[var].get(highest(mask)) for var, mask in enumerate(dom))
        return tuple(sorted(cell for cell in found if cell is not None))


def refusal(model: ConstraintModel) -> str | None:
    """Why neither viewpoint can hold `model`, or None (the teaching engine's `supports`)."""
    if model.counts:
        return (f"the teaching engine has no conditional counts (how many pieces a piece attacks, its private "
                f"squares); this model asks {model.beyond_lines}")
    if model.lex is not None and not set(model.cells).issuperset(model.lex.order):
        return "the teaching engine reads lex-leader chains over cells only"
    if model.guards:
        return "the teaching engine solves unguarded models only"
    return None


def integer_refusal(model: ConstraintModel) -> str | None:
    """Why the integer viewpoint (one variable per row) cannot hold `model`, or None: it holds
    the rows' domains (`queens.models.row_viewpoint`), its AllDifferent and the lines without a
    key, nothing else."""
    missing = row_refusal(model)
    if missing:
        return f"the integer viewpoint {missing}"
    view = row_viewpoint(replace(model, lex=None))  # the chains are read over cells (`_lex_chains`)
    beyond = view.over_cells[len(view.unkeyed):]  # what is asked beyond the lines without a key
    if model.minimise:
        beyond = ("the fewest pieces", *beyond)
    if beyond:
        return f"the integer viewpoint holds one piece a row and its lines; this model also asks {', '.join(beyond)}"
    return None


POSTINGS = ("pairs", "rows", "alldifferent")
"""How the integer viewpoint posts the lines: `pairs`, one disequality per pair of rows and
family (the textbook decomposition, what forward checking reads); `rows`, one constraint per
pair of rows for all the lines they share (what AC-3 revises: a value loses its support when
every value left in the other row shares a line with it); `alldifferent`, one AllDifferent per
keyed family (the lines without a key as `pairs`)."""


def build(model: ConstraintModel, viewpoint: str | None = None, *, posted: str = "pairs") -> Problem:
    """The problem the engine searches for `model`: the integer viewpoint when it can hold the
    model (or when asked), else the Boolean one; `posted` is one of `POSTINGS`."""
    chosen = viewpoint or ("boolean" if integer_refusal(model) else "integer")
    if chosen == "integer":
        refused = integer_refusal(model)
        if refused:
            raise Unsupported(refused)
        return _integer(model, row_viewpoint(replace(model, lex=None)), posted)
    return _boolean(model)


def _integer(model: ConstraintModel, view: RowViewpoint, posted: str) -> Problem:
    rows = list(view.rows)
    var_of = {r: i for i, r in enumerate(rows)}
    keyed = list(view.alldifferent)
    constraints: list[Constraint] = []
    if posted == "alldifferent" or len(rows) > PAIRWISE_UP_TO:
        constraints += [_alldifferent(family, rows, model.cols) for family in keyed]
        keyed = []
    families = [k.family for k in keyed] + list(view.unkeyed)
    if posted == "rows":
        constraints += _pairs(families, model.cols, var_of, lambda r1, r2: f"q[{r1}] q[{r2}] share no line")
    else:
        for family in families:
            constraints += _pairs([family], model.cols, var_of, _named(family.name))
    constraints += _lex_chains(model, lambda cell: (var_of[cell[0]], cell[1]))
    domains = [sum(1 << c for c in columns) for columns in view.domains]
    return _numbered(Problem("integer", [f"q[{r}]" for r in rows], domains, constraints,
                             [{c: (r, c) for c in range(model.cols)} for r in rows]))


def _named(family: str) -> Callable[[int, int], str]:
    """The name of the disequality of two rows on one family's lines: 'diagonals q[2] q[5]'."""
    return lambda r1, r2: f"{family} q[{r1}] q[{r2}]"


def _pairs(families: list[LineFamily], cols: int, var_of: dict[int, int],
           name: Callable[[int, int], str]) -> list[Constraint]:
    """One `Conflicts` per pair of rows that share a line of `families`: which columns of the
    one rule out which columns of the other (q[2] != q[5] for the columns, q[2] - 2 != q[5] - 5
    for the diagonals: MiniZinc's pairwise disequalities), named `name(r1, r2)`."""
    rows = {var: r for r, var in var_of.items()}
    forbid: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for line in (line for family in families for line in family.lines):
        by_row: dict[int, int] = defaultdict(int)  # var -> mask of its columns on the line
        for r, c in line.cells:
            by_row[var_of[r]] |= 1 << c
        for x, mask_x in by_row.items():
            for y, mask_y in by_row.items():
                if x < y:
                    fx, fy = forbid.setdefault((x, y), ([0] * cols, [0] * cols))
                    for c in each_value(mask_x):
                        fx[c] |= mask_y
                    for c in each_value(mask_y):
                        fy[c] |= mask_x
    return [Conflicts(name(rows[x], rows[y]), (x, y), fx, fy) for (x, y), (fx, fy) in sorted(forbid.items())]


def _alldifferent(keyed: RowAllDifferent, rows: list[int], cols: int) -> AllDifferent:
    """The family's AllDifferent over the rows' keys (`keyed.of(r, c)`, MiniZinc's q[i] - i)."""
    keys = [[keyed.of(r, c) for c in range(cols)] for r in rows]
    monotone = keyed.modulus is None and abs(keyed.scale) == 1
    return AllDifferent(f"alldifferent({keyed.text})", tuple(range(len(rows))), keys, monotone)


def _boolean(model: ConstraintModel) -> Problem:
    var_of = {cell: i for i, cell in enumerate(model.cells)}
    names = [_cell_name(cell) for cell in model.cells]
    domains = [ONE if cell in model.fixed else ZERO | ONE for cell in model.cells]
    constraints: list[Constraint] = []
    for family in model.families:
        for k, line in enumerate(family.lines):
            if line.at_least > 0 or line.at_most < len(line.cells):
                constraints.append(Count(f"{family.name} {k}", tuple(var_of[c] for c in line.cells),
                                         least=line.at_least, most=line.at_most))
    for k, cover in enumerate(model.covers):
        constraints.append(Count(f"cover {k}", tuple(var_of[c] for c in cover), least=1, most=len(cover)))
    if model.size is not None and not model.size_implied:
        constraints.append(Count("size", tuple(range(len(names))), least=model.size, most=model.size))
    for k, clause in enumerate(model.clauses):
        scope = tuple(var_of[c] for c in clause.present) + tuple(var_of[c] for c in clause.absent)
        constraints.append(Clause(f"clause {k}", scope, present=len(clause.present)))
    constraints += _lex_chains(model, lambda cell: (var_of[cell], 1))
    return _numbered(Problem("boolean", names, domains, constraints, [{1: cell} for cell in model.cells]))


def _lex_chains(model: ConstraintModel, test: Callable[[Var], Test]) -> list[Constraint]:
    """One `LexChain` per symmetry of the model's lex-leader chains (counting one solution per
    class), each cell read through the viewpoint's `test`."""
    if model.lex is None:
        return []
    chains: list[Constraint] = []
    for k, chain in enumerate(model.lex.chains):
        firsts, seconds = tuple(test(a) for a, _ in chain), tuple(test(b) for _, b in chain)
        variables = tuple(dict.fromkeys(var for var, _ in firsts + seconds))
        chains.append(LexChain(f"lex-leader chain {k}", variables, firsts=firsts, seconds=seconds))
    return chains


def _cell_name(cell: Var) -> str:
    """x[r,c] for a board cell, x[...] with the key's parts for any other variable."""
    parts = cell if isinstance(cell, tuple) else (cell,)
    flat = [str(p) for part in parts for p in (part if isinstance(part, tuple) else (part,))]
    return f"x[{','.join(flat)}]"


def _numbered(problem: Problem) -> Problem:
    for index, constraint in enumerate(problem.constraints):
        constraint.index = index
    return problem
