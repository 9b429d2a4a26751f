"""A puzzle written out for other solvers: DIMACS CNF, MiniZinc (model + data), OPB, and its
conflict graph in DIMACS .col (graph colouring).

Every format numbers the board the same way, so a learner can read one file against another:
cell (r, c) is variable r * cols + c + 1 (x1 is the top-left corner, row by row). DIMACS puts
the encoding's auxiliary variables after the cells, and repeats the map in comment lines.
Blocked cells (pawns, forbidden squares) keep their number and are fixed to false, so the
formula has exactly as many models over the cell variables as the puzzle has solutions.

The CNF is the one the `sat` backend solves (`queens.solvers.formats.cnf.cnf`), renumbered, not a second copy
of the encoding. A model's clauses and attack counts are in every format but the conflict graph,
which says only which cells clash and refuses a model that asks more: OPB and MiniZinc write
them out (OPB numbers a variable per group of cells of a count after the cells).

>>> from queens.models import NQueens
>>> [line for line in dimacs(NQueens(4), "pairwise").splitlines() if line.startswith("p ")]
['p cnf 16 84']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.models.ir import CountIf, LineFamily
from queens.models.pieces import Cell
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS, cnf

FORMATS = ("dimacs", "mzn", "opb", "dimacs-col")


def variable(model: ConstraintModel, cell: Cell) -> int:
    """The number of `cell` in every export: r * cols + c + 1.

    >>> from queens.models import NQueens
    >>> variable(lower(NQueens(8)), (1, 2))
    11
    """
    return cell[0] * model.cols + cell[1] + 1


def _decision_model(puzzle: Puzzle, size: int | None, format_name: str) -> ConstraintModel:
    """The lowered puzzle; a minimising one needs a size in formats without an objective."""
    model = lower(puzzle)
    if size is not None:
        return model.with_size(size)
    if model.minimise and format_name == "dimacs":
        raise Unsupported("DIMACS CNF cannot say 'fewest pieces': give a size (--size K), "
                          "or export to opb or mzn, which have an objective")
    return model


def _blocked(model: ConstraintModel) -> list[Cell]:
    free = set(model.cells)
    return [(r, c) for r in range(model.rows) for c in range(model.cols) if (r, c) not in free]


def _title(puzzle: Puzzle, model: ConstraintModel) -> str:
    """What a file's first comment line says the puzzle is."""
    return f"{puzzle.name}: {model.rows} x {model.cols} board, {puzzle.piece.name}s"


def _header(title: str, model: ConstraintModel, comment: str) -> list[str]:
    lines = [f"{comment} {title}", f"{comment} cell (r, c) is variable r*{model.cols} + c + 1"]
    for r in range(model.rows):
        lines.append(f"{comment} row {r}: " + " ".join(str(variable(model, (r, c))) for c in range(model.cols)))
    return lines


def dimacs(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, *, size: int | None = None) -> str:
    """The puzzle as DIMACS CNF in `encoding` (a pysat encoding name, as for the sat backend)."""
    if encoding not in ENCODINGS:
        raise Unsupported(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    model = _decision_model(puzzle, size, "dimacs")
    return dimacs_of(model, encoding, _title(puzzle, model))


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
    clauses += [[-variable(model, cell)] for cell in _blocked(model)]
    top = max([cells] + [abs(lit) for clause in clauses for lit in clause])
    lines = _header(title, model, "c")
    lines.append(f"c encoding {encoding}; variables {cells + 1}..{top} are auxiliary" if top > cells
                 else f"c encoding {encoding}; no auxiliary variables")
    lines.append(f"p cnf {top} {len(clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(lines)


def opb(puzzle: Puzzle, *, size: int | None = None) -> str:
    """The puzzle as a pseudo-Boolean problem (OPB, the PB competition format).

    Only `>=` and `=` are used (some readers reject `<=`): "at most k" is written as
    -x1 -x2 ... >= -k. A minimising puzzle gets the objective `min: +1 x1 ... ;`.
    """
    model = _decision_model(puzzle, size, "opb")
    return opb_of(model, _title(puzzle, model))


def opb_of(model: ConstraintModel, title: str = "a placement puzzle") -> str:
    """The OPB of a lowered model: what `opb` writes."""

    def terms(cells: tuple[Cell, ...] | list[Cell], coefficient: int = 1) -> str:
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
    constraints += [f"+1 x{variable(model, cell)} = 0 ;" for cell in _blocked(model)]
    if model.size is not None and not model.size_implied:
        constraints.append(f"{terms(model.cells)} = {model.size} ;")
    beyond, variables = _opb_beyond(model)
    constraints += beyond
    lines = [f"* #variable= {variables} #constraint= {len(constraints)}"]
    lines += _header(title, model, "*")
    if model.minimise:
        lines.append(f"min: {terms(model.cells)} ;")
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
    top = model.rows * model.cols
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


_MZN_PLACEMENT = """\
int: nlines;
array[1..nlines] of set of CELL: line;
array[1..nlines] of int: least;
array[1..nlines] of int: most;
constraint forall(i in 1..nlines)(
  if most[i] = 1 then
    if least[i] = 1 then sum(c in line[i])(held(c)) = 1 else sum(c in line[i])(held(c)) <= 1 endif
  else
    least[i] <= sum(c in line[i])(held(c)) /\\ sum(c in line[i])(held(c)) <= most[i]
  endif);

int: ncovers;
array[1..ncovers] of set of CELL: cover;
constraint forall(i in 1..ncovers)(exists(c in cover[i])(held(c)));

set of CELL: fixed;
constraint forall(c in fixed)(held(c));

% lex-leader chains (counting one solution per symmetry class): chain k pairs the cells
% lexa[i] and lexb[i] for i in lexstart[k]..lexstart[k+1]-1, and the first pair that differs
% has the piece on lexa[i]
int: nchains;
array[1..nchains+1] of int: lexstart;
array[int] of CELL: lexa;
array[int] of CELL: lexb;
constraint forall(k in 1..nchains)(
  lex_greatereq([held(lexa[i]) | i in lexstart[k]..lexstart[k+1]-1],
                [held(lexb[i]) | i in lexstart[k]..lexstart[k+1]-1]));

% clauses: some cell of present[i] holds a piece, or some cell of absent[i] is empty
int: nclauses;
array[1..nclauses] of set of CELL: present;
array[1..nclauses] of set of CELL: absent;
constraint forall(i in 1..nclauses)(exists(c in present[i])(held(c)) \\/ exists(c in absent[i])(not held(c)));

% attack counts: when countwhen[k] holds a piece, between countleast[k] and countmost[k] of the
% groups countgroup[i], i in countstart[k]..countstart[k+1]-1, hold one (any of their cells)
int: ncounts;
array[1..ncounts] of CELL: countwhen;
array[1..ncounts] of int: countleast;
array[1..ncounts] of int: countmost;
array[1..ncounts+1] of int: countstart;
array[int] of set of CELL: countgroup;
constraint forall(k in 1..ncounts)(held(countwhen[k]) ->
  let { var int: reached = sum(i in countstart[k]..countstart[k+1]-1)(bool2int(exists(c in countgroup[i])(held(c)))) }
  in countleast[k] <= reached /\\ reached <= countmost[k]);
"""
"""The lines, covers, fixed pieces, lex-leader chains, clauses and attack counts, said of
`held(c)` (cell c holds a piece): the part both MiniZinc models share, whatever their variables."""

_MZN_BOOLEAN = """\
% {name}: the generic placement model of the queens suite.
% Cell (r, c) is number r*cols + c + 1. The data file lists the lines (between least[i] and
% most[i] pieces: at most one, exactly one, two per row, ...), the covers (at least one
% piece: domination), the fixed pieces and the blocked cells.
include "lex_greatereq.mzn";
int: rows;
int: cols;
set of int: CELL = 1..rows*cols;
array[CELL] of var bool: x;                      % x[i]: a piece stands on cell i
function var bool: held(CELL: i) = x[i];

{placement}
set of CELL: blocked;
constraint forall(c in blocked)(not x[c]);

int: size;                                       % -1: no fixed number of pieces
constraint size < 0 \\/ sum(x) = size;

{solve}
output [if fix(x[r*cols + c + 1]) then "Q" else "." endif ++ if c = cols - 1 then "\\n" else " " endif
        | r in 0..rows-1, c in 0..cols-1];
"""

_MZN_ROWS = """\
% {name}: the queens suite's row viewpoint (one piece in every row), as a MiniZinc user writes
% n-queens: q[r] is the column of row r's piece, and each family of lines that a linear key
% names (columns, diagonals, ...: key = a*r + b*c, modulo m on a torus) is one alldifferent.
% Lines without a key (cut by pawns, knight pairs) and fixed pieces talk about cells: cell
% (r, c) is number r*cols + c + 1, and held(i) says that cell i holds a piece.
include "alldifferent.mzn";
include "lex_greatereq.mzn";
int: rows;
int: cols;
set of int: CELL = 1..rows*cols;
array[0..rows-1] of set of 0..cols-1: open;     % the columns row r may use (no pawn, not forbidden)
array[0..rows-1] of var 0..cols-1: q;
constraint forall(r in 0..rows-1)(q[r] in open[r]);
function var bool: held(CELL: i) = q[(i - 1) div cols] = (i - 1) mod cols;

int: nkeys;
array[1..nkeys] of int: a;
array[1..nkeys] of int: b;
array[1..nkeys] of int: modulus;                 % 0: the plane, no modulus
constraint forall(k in 1..nkeys)(
  if modulus[k] = 0 then alldifferent(r in 0..rows-1)(a[k]*r + b[k]*q[r])
  else alldifferent(r in 0..rows-1)((a[k]*r + b[k]*q[r] + modulus[k]*(abs(a[k]) + abs(b[k]))*(rows + cols))
                                    mod modulus[k]) endif);

{placement}
solve :: int_search(q, first_fail, indomain_median) satisfy;
% the columns, as the MiniZinc tutorial prints them (a board drawn cell by cell cost MiniZinc
% 1 ms a solution: 10-queens' 724 took 0.32 s against 0.10 s; `queens show` draws boards)
output ["q = \\(q);\\n"];
"""


def _mzn_set(model: ConstraintModel, cells: tuple[Cell, ...] | list[Cell] | frozenset[Cell]) -> str:
    return "{" + ", ".join(str(variable(model, c)) for c in sorted(cells)) + "}"


def minizinc(puzzle: Puzzle, *, size: int | None = None) -> tuple[str, str]:
    """The puzzle as a MiniZinc model (.mzn) and its data (.dzn).

    A puzzle with one piece in every row and at most one per line is written in the row
    viewpoint (`row_viewpoint`); any other in the generic Boolean model, where only the solve
    item differs (satisfy, or minimize the number of pieces). Run it with `minizinc model.mzn
    data.dzn`.
    """
    return minizinc_of(_decision_model(puzzle, size, "mzn"), puzzle.name)


def row_viewpoint(model: ConstraintModel) -> LineFamily | None:
    """The rows, when the MiniZinc export writes `model` as q[r] = the column of row r's piece:
    every row holds exactly one piece, every line at most one, and the size is the rows'
    (what cpsat's alldifferent viewpoint asks too), not asked to be the fewest (the row model's
    solve item is `satisfy`; the Boolean one minimises). Gecode finds one 200-queens solution
    there in about a second; on the Boolean model it finds no 50-queens solution in 30 s.

    >>> from queens.models import NQueens
    >>> from queens.models.domination import Domination
    >>> row_viewpoint(lower(NQueens(4))).name, row_viewpoint(lower(Domination(4)))
    ('rows', None)
    """
    rows = model.row_family
    if rows is None or not model.one_per_line or model.minimise or (model.size is not None and not model.size_implied):
        return None
    return rows


def minizinc_of(model: ConstraintModel, name: str = "a placement puzzle") -> tuple[str, str]:
    """The MiniZinc model and data of a lowered model: what `minizinc` writes, and what the
    `minizinc` backend (solvers/backends/minizinc.py) hands to the MiniZinc binary."""
    rows = row_viewpoint(model)
    keyed = [] if rows is None else [f for f in model.families if f.key is not None and f is not rows]
    lines = [line for family in model.families if family is not rows and family not in keyed
             for line in family.lines]
    data = [
        f"% {name}",
        f"rows = {model.rows};",
        f"cols = {model.cols};",
        f"nlines = {len(lines)};",
        "line = [" + ", ".join(_mzn_set(model, line.cells) for line in lines) + "];",
        "least = [" + ", ".join(str(line.at_least) for line in lines) + "];",
        "most = [" + ", ".join(str(line.at_most) for line in lines) + "];",
        f"ncovers = {len(model.covers)};",
        "cover = [" + ", ".join(_mzn_set(model, cover) for cover in model.covers) + "];",
        f"fixed = {_mzn_set(model, model.fixed)};",
        *_mzn_lex(model),
        *_mzn_beyond(model),
    ]
    if rows is None:
        data += [f"blocked = {_mzn_set(model, _blocked(model))};",
                 f"size = {-1 if model.size is None else model.size};"]
        solve = "solve minimize sum(x);" if model.minimise else "solve satisfy;"
        return _MZN_BOOLEAN.format(name=name, placement=_MZN_PLACEMENT, solve=solve), "\n".join(data) + "\n"
    columns = {line.cells[0][0]: sorted(c for _, c in line.cells) for line in rows.lines}
    keys = [family.key for family in keyed if family.key is not None]
    data += [
        "open = array1d(0..rows-1, [" + ", ".join(
            "{" + ", ".join(map(str, columns[r])) + "}" for r in range(model.rows)) + "]);",
        f"nkeys = {len(keys)};",
        "a = [" + ", ".join(str(key.a) for key in keys) + "];",
        "b = [" + ", ".join(str(key.b) for key in keys) + "];",
        "modulus = [" + ", ".join(str(key.modulus or 0) for key in keys) + "];",
    ]
    return _MZN_ROWS.format(name=name, placement=_MZN_PLACEMENT), "\n".join(data) + "\n"


def _mzn_lex(model: ConstraintModel) -> list[str]:
    """The data of the model's lex-leader chains (none: nchains = 0)."""
    chains = model.lex.chains if model.lex else ()
    starts = [1]
    for chain in chains:
        starts.append(starts[-1] + len(chain))
    pairs = [pair for chain in chains for pair in chain]
    return [f"nchains = {len(chains)};",
            "lexstart = [" + ", ".join(map(str, starts)) + "];",
            "lexa = [" + ", ".join(str(variable(model, a)) for a, _ in pairs) + "];",
            "lexb = [" + ", ".join(str(variable(model, b)) for _, b in pairs) + "];"]


def _mzn_beyond(model: ConstraintModel) -> list[str]:
    """The data of the model's clauses and attack counts (none: nclauses = ncounts = 0)."""
    starts = [1]
    for count in model.counts:
        starts.append(starts[-1] + len(count.groups))
    groups = [group for count in model.counts for group in count.groups]
    return [f"nclauses = {len(model.clauses)};",
            "present = [" + ", ".join(_mzn_set(model, clause.present) for clause in model.clauses) + "];",
            "absent = [" + ", ".join(_mzn_set(model, clause.absent) for clause in model.clauses) + "];",
            f"ncounts = {len(model.counts)};",
            "countwhen = [" + ", ".join(str(variable(model, count.when)) for count in model.counts) + "];",
            "countleast = [" + ", ".join(str(count.at_least) for count in model.counts) + "];",
            "countmost = [" + ", ".join(str(count.at_most) for count in model.counts) + "];",
            "countstart = [" + ", ".join(map(str, starts)) + "];",
            "countgroup = [" + ", ".join(_mzn_set(model, group) for group in groups) + "];"]


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
