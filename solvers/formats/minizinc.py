"""MiniZinc: a puzzle as the model a person would write, or as the suite's generic model and its data.

Three texts, the shortest that says the puzzle faithfully:

- the **textbook** model (`textbook`), where every row holds one piece (`row_viewpoint`) and every
  other line is a keyed family (columns, diagonals, modulo n on a torus) or a leap between rows
  (a knight's, a king's): n integer variables q[i] in 1..n (row i's piece stands in column q[i];
  rows and columns counted from 1, as the MiniZinc handbook counts them), one `alldifferent` per
  keyed family, one `forall` per leap, holes and pre-placed pieces as restrictions of a row's
  domain. Nothing else: for n-queens it is the handbook's model, so Gecode's effort on it is the
  textbook's (MiniZinc hands Debian's Gecode 6.2 each alldifferent as pairwise disequalities);
- the generic **row** model (`_MZN_ROWS`): q[r] in 0..cols-1 and the lines, covers, clauses, attack
  counts and lex-leader chains as data, where the row viewpoint holds but the textbook cannot say the rest;
- the generic **Boolean** model (`_MZN_BOOLEAN`): x[cell], for every other puzzle.

A search annotation (`Search`) uses MiniZinc's names: which variable next (`VARIABLE_CHOICES`)
and which value first (`VALUE_CHOICES`), written `int_search(q, var, val)` on the row viewpoints
and `bool_search(x, var, val)` on the Boolean one (which refuses the value choices that need a
domain wider than 0..1). The `minizinc` backend hands the same texts to the MiniZinc binary.

>>> from queens.models import NQueens, lower
>>> print(minizinc_of(lower(NQueens(8)), "8-queens", HANDBOOK)[0])  # doctest: +NORMALIZE_WHITESPACE
% 8-queens: q[i] is the column of row i's piece (rows and columns counted from 1)
include "alldifferent.mzn";
int: n;
array[1..n] of var 1..n: q;
constraint alldifferent(q);  % columns
constraint alldifferent(i in 1..n)(q[i] - i);  % diagonals
constraint alldifferent(i in 1..n)(q[i] + i);  % anti-diagonals
solve :: int_search(q, first_fail, indomain_min) satisfy;
output ["q = \\(q);\\n"];
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from queens.models import ConstraintModel, Puzzle
from queens.models.errors import BadOption
from queens.models.ir import LinearKey, LineFamily, Var
from queens.solvers.formats.board_numbering import blocked, decision_model, variable

VARIABLE_CHOICES = ("input_order", "first_fail", "smallest", "largest", "dom_w_deg", "random")
"""Which variable a search decides next, in MiniZinc's words: the first open one, the one with
the fewest values left, the one whose smallest (largest) value is smallest (largest), the most
constrained by failures so far (domain size over weighted degree), one at random (`random` is
Gecode's own, from its gecode.mzn)."""
VALUE_CHOICES = ("indomain_min", "indomain_max", "indomain_median", "indomain_split", "indomain_random")
"""Which value it tries first: the smallest, the largest, the middle one (of an even number, the
smaller middle one), the lower half of the domain (x <= its middle), one at random."""
_WIDE_ONLY = frozenset({"indomain_median", "indomain_split"})
"""Value choices that need a domain wider than 0..1 (on a Boolean both are indomain_min)."""


@dataclass(frozen=True)
class Search:
    """A search annotation in MiniZinc's names: which variable next (`var`, one of
    `VARIABLE_CHOICES`) and which value first (`val`, one of `VALUE_CHOICES`), with two-way
    branching (x = v, else x != v) as Gecode searches. A name MiniZinc does not know is refused.

    >>> Search("first_fail", "indomain_median").annotation("q")
    'int_search(q, first_fail, indomain_median)'
    >>> Search("first_fail", "indomain_split").boolean_refusal
    'indomain_split needs a domain wider than 0..1: on the Boolean model (x[cell]) it is indomain_min'
    """

    var: str
    val: str

    def __post_init__(self) -> None:
        if self.var not in VARIABLE_CHOICES:
            raise BadOption(f"var must be one of {', '.join(VARIABLE_CHOICES)}, got {self.var!r}")
        if self.val not in VALUE_CHOICES:
            raise BadOption(f"val must be one of {', '.join(VALUE_CHOICES)}, got {self.val!r}")

    @classmethod
    def of(cls, var: str | None, val: str | None, default: Search) -> Search | None:
        """The annotation asked for by `var` and `val`, the half not given from `default`; None
        when neither is given (the caller's default applies)."""
        if var is None and val is None:
            return None
        return cls(var or default.var, val or default.val)

    def annotation(self, array: str, boolean: bool = False) -> str:
        """The annotation over `array`: int_search on integers, bool_search on Booleans."""
        return f"{'bool' if boolean else 'int'}_search({array}, {self.var}, {self.val})"

    @property
    def boolean_refusal(self) -> str | None:
        """Why the annotation cannot go on the Boolean model, or None."""
        if self.val in _WIDE_ONLY:
            return (f"{self.val} needs a domain wider than 0..1: on the Boolean model (x[cell]) it is "
                    "indomain_min")
        return None

    @property
    def includes(self) -> list[str]:
        """The include lines the annotation needs: `random` is declared by Gecode's library only."""
        return ['include "gecode.mzn";  % random: Gecode\'s own variable choice'] if self.var == "random" else []


HANDBOOK = Search("first_fail", "indomain_min")
"""The MiniZinc handbook's search for n-queens: what the textbook export writes unless told."""


def _solve_item(search: Search | None, array: str, boolean: bool, goal: str = "satisfy") -> str:
    """`solve [:: annotation] goal;`, the annotation refused on Booleans where it needs wider domains."""
    if search is None:
        return f"solve {goal};"
    if boolean and search.boolean_refusal:
        raise BadOption(search.boolean_refusal)
    return f"solve :: {search.annotation(array, boolean)} {goal};"


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
{solve}
% the columns, as the MiniZinc tutorial prints them (a board drawn cell by cell tripled
% MiniZinc's time on 10-queens' 724 solutions: docs/measurements.md; `queens show` draws boards)
output ["q = \\(q);\\n"];
"""



def _mzn_set(model: ConstraintModel, cells: tuple[Var, ...] | list[Var] | frozenset[Var]) -> str:
    return "{" + ", ".join(str(variable(model, c)) for c in sorted(cells)) + "}"


def minizinc(puzzle: Puzzle, *, size: int | None = None, search: Search | None = None) -> tuple[str, str]:
    """The puzzle as a MiniZinc model (.mzn) and its data (.dzn): the textbook model where it
    says the puzzle, else the generic row or Boolean model (see the module docstring). `search`
    annotates the solve item; None: the handbook's (`HANDBOOK`) on the row viewpoint, none on
    the Boolean model (MiniZinc's default search there). Run it with `minizinc model.mzn data.dzn`.
    """
    model = decision_model(puzzle, size, "mzn")
    if search is None and row_viewpoint(model) is not None:
        search = HANDBOOK
    return minizinc_of(model, puzzle.name, search)


def row_viewpoint(model: ConstraintModel) -> LineFamily | None:
    """The rows, when the MiniZinc export writes `model` as q[r] = the column of row r's piece:
    every row holds exactly one piece, every line at most one, and the size is the rows'
    (what cpsat's alldifferent viewpoint asks too), not asked to be the fewest (the row model's
    solve item is `satisfy`; the Boolean one minimises). Gecode finds one 200-queens solution
    there quickly; on the Boolean model it finds no 50-queens solution within the limit
    (experiments/results/defaults.md, design-choices.md).

    >>> from queens.models import NQueens, lower
    >>> from queens.models.domination import Domination
    >>> row_viewpoint(lower(NQueens(4))).name, row_viewpoint(lower(Domination(4)))
    ('rows', None)
    """
    rows = model.row_family
    if rows is None or not model.one_per_line or model.minimise or (model.size is not None and not model.size_implied):
        return None
    return rows


def minizinc_of(model: ConstraintModel, name: str = "a placement puzzle",
                search: Search | None = None) -> tuple[str, str]:
    """The MiniZinc model and data of a lowered model, `search` its solve item's annotation:
    what `minizinc` writes, and what the `minizinc` backend (solvers/backends/minizinc.py)
    hands to the MiniZinc binary."""
    constraints = textbook(model)
    if constraints is not None:
        return _textbook_text(model, name, constraints, search)
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
    includes = "\n".join(search.includes) + "\n" if search is not None and search.includes else ""
    if rows is None:
        data += [f"blocked = {_mzn_set(model, blocked(model))};",
                 f"size = {-1 if model.size is None else model.size};"]
        solve = _solve_item(search, "x", True, "minimize sum(x)" if model.minimise else "satisfy")
        text = _MZN_BOOLEAN.format(name=name, placement=_MZN_PLACEMENT, solve=solve)
        return includes + text, "\n".join(data) + "\n"
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
    text = _MZN_ROWS.format(name=name, placement=_MZN_PLACEMENT, solve=_solve_item(search, "q", False))
    return includes + text, "\n".join(data) + "\n"


# --- the textbook model ------------------------------------------------------------------

def textbook(model: ConstraintModel) -> list[str] | None:
    """The constraints of the textbook model of `model` (after its variables q[1..rows] in
    1..cols), or None when the model needs the generic one: no row viewpoint, or something the
    textbook cannot say (covers, clauses, attack counts, lex-leader chains, an objective, a
    family that is neither keyed nor leaps between rows, a leap cut by the torus's wrap).

    >>> from queens.models import NQueens, lower
    >>> from queens.models.families import of_size
    >>> textbook(lower(of_size("superqueens", 6)))[-2:]
    ['constraint forall(i in 1..n-1)(abs(q[i+1] - q[i]) != 2);  % superqueen leaps', \
'constraint forall(i in 1..n-2)(abs(q[i+2] - q[i]) != 1);  % superqueen leaps']
    """
    rows = row_viewpoint(model)
    if rows is None or model.lex or model.covers or model.beyond_lines or model.objective is not None:
        return None
    constraints = _domains(model)
    for family in model.families:
        if family is rows:
            continue
        said = _alldifferent(model, family) if family.key is not None else _leaps(model, family)
        if said is None:
            return None
        constraints += said
    return constraints


def _names(model: ConstraintModel) -> tuple[str, str]:
    """The textbook's names for the number of rows and of columns: n on a square board."""
    return ("n", "n") if model.rows == model.cols else ("rows", "cols")


def _textbook_text(model: ConstraintModel, name: str, constraints: list[str],
                   search: Search | None) -> tuple[str, str]:
    rows, cols = _names(model)
    declared = [f"int: {rows};"] if rows == cols else [f"int: {rows};", f"int: {cols};"]
    text = [f"% {name}: q[i] is the column of row i's piece (rows and columns counted from 1)",
            *(search.includes if search is not None else []),
            *(['include "alldifferent.mzn";'] if any("alldifferent" in c for c in constraints) else []),
            *declared,
            f"array[1..{rows}] of var 1..{cols}: q;",
            *constraints,
            _solve_item(search, "q", False),
            'output ["q = \\(q);\\n"];']
    data = [f"{rows} = {model.rows};"] + ([] if rows == cols else [f"{cols} = {model.cols};"])
    return "\n".join(text) + "\n", "\n".join(data) + "\n"


def _domains(model: ConstraintModel) -> list[str]:
    """Holes and pre-placed pieces as restrictions of each row's domain (MiniZinc folds them
    into the domain before the solver starts)."""
    rows, _ = _names(model)
    open_columns: dict[int, set[int]] = defaultdict(set)
    for r, c in model.cells:
        open_columns[r].add(c)
    fixed = dict(sorted(model.fixed))
    said = []
    for r in range(model.rows):
        if r in fixed:
            said.append(f"constraint q[{r + 1}] = {fixed[r] + 1};  % a piece placed")
            continue
        closed = sorted(set(range(model.cols)) - open_columns[r])
        if len(closed) == 1:
            said.append(f"constraint q[{r + 1}] != {closed[0] + 1};  % a hole")
        elif closed:
            said.append(f"constraint not (q[{r + 1}] in {{{', '.join(str(c + 1) for c in closed)}}});  % holes")
    return said


def _alldifferent(model: ConstraintModel, family: LineFamily) -> list[str] | None:
    """One alldifferent over a keyed family's key, None when its lines ask more than "at most
    one" (an exact family other than by pigeonhole: as many lines as rows, each cell on one)."""
    if any(line.at_most != 1 for line in family.lines):
        return None
    exact = {line.at_least for line in family.lines}
    covered = sum(len(line.cells) for line in family.lines) == len(model.cells)
    if exact not in ({0}, set()) and not (exact == {1} and len(family.lines) == model.rows and covered):
        return None
    assert family.key is not None
    expression = _key_expression(family.key, model)
    if expression is None:  # a key of the row alone: one piece per row already says it
        return []
    return [f"constraint alldifferent({expression});  % {family.name}"]


def _key_expression(key: LinearKey, model: ConstraintModel) -> str | None:
    """The key a*r + b*c of row i's piece in the textbook's terms (r = i - 1, c = q[i] - 1):
    b*q[i] + a*i, up to a constant and a sign, which keep values distinct (modulo m too); a
    key that is q itself is the whole array. None for a key of the row alone.

    >>> from queens.models import NQueens, lower
    >>> _key_expression(LinearKey(1, -1, 5), lower(NQueens(5)))
    'i in 1..n)((q[i] - i + 5) mod 5'
    """
    a, b = (-key.a, -key.b) if key.b < 0 else (key.a, key.b)
    if b == 0:
        return None
    rows, _ = _names(model)
    if a == 0 and b == 1 and (key.modulus is None or key.modulus >= model.cols):
        return "q"
    term = f"{'' if b == 1 else f'{b}*'}q[i]"
    if a:
        term += f" {'+' if a > 0 else '-'} {'' if abs(a) == 1 else f'{abs(a)}*'}i"
    if key.modulus is None:
        return f"i in 1..{rows})({term}"
    least = b + min(a, a * model.rows)  # the smallest value of the term: made at least 0 for MiniZinc's mod
    shift = key.modulus * math.ceil(-least / key.modulus) if least < 0 else 0
    return f"i in 1..{rows})(({term}{f' + {shift}' if shift else ''}) mod {key.modulus}"


def _leaps(model: ConstraintModel, family: LineFamily) -> list[str] | None:
    """A family of two-cell lines that are every leap by the same steps between two rows (a
    knight's, a king's), as one forall per row distance; None for any other family (lines of
    more cells, lower bounds, pairs that no set of steps makes on this board, e.g. across a
    torus's wrap). Pairs inside one row say nothing the row viewpoint does not."""
    if any(len(line.cells) != 2 or line.bounds != (0, 1) for line in family.lines):
        return None
    pairs = {tuple(sorted(line.cells)) for line in family.lines}
    across = {(a, b) for a, b in pairs if a[0] != b[0]}
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in across}
    cells = set(model.cells)
    made = {(a, (a[0] + dr, a[1] + dc)) for dr, dc in steps for a in cells if (a[0] + dr, a[1] + dc) in cells}
    if made != across:
        return None
    rows, _ = _names(model)
    said = []
    for dr in sorted({dr for dr, _ in steps}):
        dcs = {dc for step, dc in steps if step == dr}
        said.append(f"constraint forall(i in 1..{rows}-{dr})({_apart(dr, dcs)});  % {family.name}")
    return said


def _apart(dr: int, dcs: set[int]) -> str:
    """q[i+dr] - q[i] is none of `dcs`, said as a person would: with abs() when the steps go
    both ways, as one bound when they are 0..k.

    >>> _apart(1, {-1, 0, 1}), _apart(2, {-1, 1}), _apart(1, {2})
    ('abs(q[i+1] - q[i]) > 1', 'abs(q[i+2] - q[i]) != 1', 'q[i+1] - q[i] != 2')
    """
    difference = f"q[i+{dr}] - q[i]"
    if dcs != {-dc for dc in dcs}:
        return " /\\ ".join(f"{difference} != {dc}" for dc in sorted(dcs))
    sizes = sorted({abs(dc) for dc in dcs})
    if len(sizes) > 1 and sizes == list(range(len(sizes))):
        return f"abs({difference}) > {sizes[-1]}"
    return " /\\ ".join(f"abs({difference}) != {size}" for size in sizes)


# --- the generic model's data ------------------------------------------------------------

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
