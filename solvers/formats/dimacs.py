"""DIMACS: the CNF (`p cnf`) the `sat` backend solves, and the conflict graph (`p edge`) that
graph-colouring tools read.

The CNF is `queens.solvers.formats.cnf.cnf`'s, renumbered to the board numbering
(`board_numbering`), not a second copy of the encoding; the encoding's auxiliary variables
follow the cells, and comment lines repeat the map.

>>> from queens.models import NQueens
>>> [line for line in dimacs(NQueens(4), "pairwise").splitlines() if line.startswith("p ")]
['p cnf 16 84']
"""

from __future__ import annotations

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.solvers.formats.board_numbering import blocked, decision_model, header, title, variable
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS, cnf


def dimacs(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, *, size: int | None = None) -> str:
    """The puzzle as DIMACS CNF in `encoding` (a pysat encoding name, as for the sat backend)."""
    if encoding not in ENCODINGS:
        raise Unsupported(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    model = decision_model(puzzle, size, "dimacs")
    return dimacs_of(model, encoding, title(puzzle, model))


def dimacs_of(model: ConstraintModel, encoding: str = DEFAULT_ENCODING, title: str = "a placement puzzle") -> str:
    """The DIMACS CNF of a lowered model: what `dimacs` writes."""
    formula, cell_of = cnf(model, encoding)
    cells = model.rows * model.cols
    ncell_vars = len(cell_of)

    def renumber(literal: int) -> int:
        v = abs(literal)
        new = variable(model, cell_of[v]) if v <= ncell_vars else v - ncell_vars + cells
        return new if literal > 0 else -new

    clauses = [[renumber(lit) for lit in clause] for clause in formula.clauses]
    clauses += [[-variable(model, cell)] for cell in blocked(model)]
    top = max([cells] + [abs(lit) for clause in clauses for lit in clause])
    lines = header(title, model, "c")
    lines.append(f"c encoding {encoding}; variables {cells + 1}..{top} are auxiliary" if top > cells
                 else f"c encoding {encoding}; no auxiliary variables")
    lines.append(f"p cnf {top} {len(clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(lines)


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
