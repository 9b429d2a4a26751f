"""DIMACS: the CNF (`p cnf`) the `sat` backend solves, and the conflict graph (`p edge`) that
graph-colouring tools read.

The CNF is `queens.solvers.formats.cnf.cnf`'s, renumbered to the board numbering
(`board_numbering`), not a second copy of the encoding; the encoding's auxiliary variables
follow the cells. A comment line above each group of clauses names the constraint it comes
from and its auxiliary variables (`queens.solvers.formats.clause_groups`), so the file reads
constraint by constraint; the clause lines are the formula's, in its order (solvers skip
comments wherever they stand).

>>> from queens.models import NQueens
>>> text = dimacs(NQueens(4), "pairwise")
>>> [line for line in text.splitlines() if line.startswith("p ")]
['p cnf 16 84']
>>> print("\\n".join(text.splitlines()[8:13]))
c row 0: exactly one of x1 x2 x3 x4 (pairwise)
1 2 3 4 0
-1 -2 0
-1 -3 0
-1 -4 0
"""

from __future__ import annotations

from dataclasses import dataclass

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.models.errors import BadOption
from queens.models.ir import Var
from queens.solvers.formats.board_numbering import blocked, decision_model, header, title, variable
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS, encoded

SHOWN_CELLS = 16
"""A comment lists a constraint's cells up to this many; a longer one shows the first and says how many."""


@dataclass(frozen=True)
class Section:
    """One named group of the DIMACS file: its `name` ("row 0"), the comment that says it, and
    its clauses in the board numbering."""

    name: str
    comment: str
    clauses: list[list[int]]


def dimacs(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, *, size: int | None = None) -> str:
    """The puzzle as DIMACS CNF in `encoding` (a pysat encoding name, as for the sat backend)."""
    model = decision_model(puzzle, size, "dimacs")
    return dimacs_of(model, encoding, title(puzzle, model))


def dimacs_of(model: ConstraintModel, encoding: str = DEFAULT_ENCODING, title: str = "a placement puzzle") -> str:
    """The DIMACS CNF of a lowered model: what `dimacs` writes."""
    written = sections(model, encoding)
    cells = model.width
    top = max([cells] + [abs(lit) for section in written for clause in section.clauses for lit in clause])
    lines = header(title, model, "c")
    lines.append(f"c encoding {encoding}; variables {cells + 1}..{top} are auxiliary" if top > cells
                 else f"c encoding {encoding}; no auxiliary variables")
    lines.append(f"p cnf {top} {sum(len(section.clauses) for section in written)}")
    for section in written:
        lines.append(f"c {section.comment}")
        lines += [" ".join(map(str, clause)) + " 0" for clause in section.clauses]
    return "\n".join(lines)


def sections(model: ConstraintModel, encoding: str = DEFAULT_ENCODING) -> list[Section]:
    """The DIMACS CNF of `model` group by group, in the board numbering: each constraint's
    clauses and the comment naming it, what `dimacs_of` writes and `queens explain --line` shows.

    >>> from queens.models import NQueens
    >>> [s.comment for s in sections(lower(NQueens(4)), "seqcounter")[:2]]
    ['row 0: exactly one of x1 x2 x3 x4 (seqcounter; auxiliary x17..x19)', \
'row 1: exactly one of x5 x6 x7 x8 (seqcounter; auxiliary x20..x22)']
    """
    if encoding not in ENCODINGS:
        raise BadOption(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    written = encoded(model, encoding)
    cells = model.width
    cell_of = dict(zip(written.var.tolist(), model.cells, strict=True))
    ncell_vars = len(cell_of)

    def renumber(literal: int) -> int:
        v = abs(literal)
        new = variable(model, cell_of[v]) if v <= ncell_vars else v - ncell_vars + cells
        return new if literal > 0 else -new

    clauses = written.formula.clauses
    found = []
    for group in written.groups:
        auxiliary = ""
        if group.auxiliary:
            first, last = (renumber(v) for v in (group.auxiliary[0], group.auxiliary[-1]))
            auxiliary = f"; auxiliary x{first}" + (f"..x{last}" if last > first else "")
        how = {"clause": "a clause", "unit": "a unit clause"}.get(group.encoding, group.encoding)
        comment = f"{group.name}: {group.says} {_cells_text(model, group.cells)} ({how}{auxiliary})"
        found.append(Section(group.name, comment, [[renumber(lit) for lit in clauses[i]] for i in group.clauses]))
    closed = blocked(model)
    if closed:
        said = f"blocked: no piece on {_cells_text(model, tuple(closed))} (a unit clause each)"
        found.append(Section("blocked", said, [[-variable(model, cell)] for cell in closed]))
    return found


def line_sections(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, name: str | None = None) -> list[Section]:
    """The DIMACS groups of `puzzle` in `encoding` (its model as lowered: no size asked, no
    symmetry breaking): every group, or those of the line `name` ("row 0"), or of every line of
    a family ("rows" or "row"); what `queens explain --encoding E --line NAME` prints. Any puzzle
    with one model: with armies, in the numbering of its (army, cell) pairs.

    >>> from queens.models import NQueens
    >>> [s.name for s in line_sections(NQueens(4), "pairwise", "anti-diagonals")][:3]
    ['anti-diagonal r + c = 1', 'anti-diagonal r + c = 2', 'anti-diagonal r + c = 3']
    """
    found = sections(lower(puzzle), encoding)
    if name is None:
        return found
    singular = name[:-1] if name.endswith("s") else name
    chosen = [s for s in found if s.name == name] or [s for s in found if s.name.startswith(f"{singular} ")]
    if not chosen:
        families = sorted({s.name.split(" ")[0] for s in found})
        raise BadOption(f"no line named {name!r} in {puzzle.name}: name a line as its comment does (e.g. "
                        f"{found[0].name!r}) or a family ({', '.join(families)})")
    return chosen


def _cells_text(model: ConstraintModel, cells: tuple[Var, ...]) -> str:
    """x1 x2 ...: the cells' board numbers, the first `SHOWN_CELLS` of a longer list and its length."""
    numbers = [f"x{variable(model, cell)}" for cell in cells[:SHOWN_CELLS]]
    more = f" ... ({len(cells)} cells)" if len(cells) > SHOWN_CELLS else ""
    return " ".join(numbers) + more


def dimacs_col(puzzle: Puzzle) -> str:
    """The conflict graph (cells that may not both hold a piece of one army) in DIMACS .col:
    `p edge V E`, then `e u v` lines, vertex k the k-th open cell in board order. Each edge is
    listed once per direction, as the published queen instances do (queen8_8: 64 vertices,
    `p edge 64 1456` for 728 pairs), so the files compare line for line.

    >>> from queens.models import NQueens
    >>> dimacs_col(NQueens(2)).splitlines()[1:3]
    ['p edge 4 12', 'e 1 2']
    """
    if len(puzzle.armies) != 1:
        raise Unsupported("a conflict graph is drawn for one army; this puzzle has several")
    model = lower(puzzle.with_copies(1) if puzzle.copies_open else puzzle)
    beyond = model.beyond_lines
    if beyond:
        raise Unsupported(f"a conflict graph says only which cells may not both hold a piece; {puzzle.name} "
                          f"asks {beyond} as well")
    number = {cell: i + 1 for i, cell in enumerate(model.cells)}
    edges = [(number[a], number[b]) for a in model.cells for b in sorted(model.conflicts[a], key=number.__getitem__)]
    lines = [f"c {puzzle.name}: the conflict graph, vertex k = the k-th open cell row by row",
             f"p edge {len(number)} {len(edges)}"]
    lines += [f"e {u} {v}" for u, v in edges]
    return "\n".join(lines) + "\n"
