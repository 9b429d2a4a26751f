"""MiniZinc: a model (.mzn) and its data (.dzn), in the row viewpoint (q[r], one alldifferent per
keyed family of lines) where the puzzle has one piece in every row, else in the generic Boolean
model. The `minizinc` backend hands the same text to the MiniZinc binary.
"""

from __future__ import annotations

from queens.models import ConstraintModel, Puzzle
from queens.models.ir import LineFamily
from queens.models.pieces import Cell
from queens.solvers.formats.board_numbering import blocked, decision_model, variable

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
    return minizinc_of(decision_model(puzzle, size, "mzn"), puzzle.name)


def row_viewpoint(model: ConstraintModel) -> LineFamily | None:
    """The rows, when the MiniZinc export writes `model` as q[r] = the column of row r's piece:
    every row holds exactly one piece, every line at most one, and the size is the rows'
    (what cpsat's alldifferent viewpoint asks too), not asked to be the fewest (the row model's
    solve item is `satisfy`; the Boolean one minimises). Gecode finds one 200-queens solution
    there in about a second; on the Boolean model it finds no 50-queens solution in 30 s.

    >>> from queens.models import NQueens, lower
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
        data += [f"blocked = {_mzn_set(model, blocked(model))};",
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
