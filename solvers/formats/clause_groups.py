"""Which constraint each clause of a CNF comes from: metadata beside the formula, never in it.

The CNF encoder (`queens.solvers.formats.cnf.encode`) writes the model block by block: each line
in its cardinality encoding, each cover, each fixed piece, the size, the lex-leader chains. As it
goes it marks where each block ends (`Groups.close`), so every clause and every auxiliary
variable belongs to one named `ClauseGroup`: "row 0: exactly one of (0, 0) (0, 1) (0, 2) (0, 3)
in pairwise". The DIMACS export writes the groups as comment lines above their clauses, and
`queens explain --encoding E --line NAME` prints one group's clauses, so a student reads what an
encoding does to one line. The formula itself is unchanged: the groups only name its slices.

A line is named by its family (singular) and, for a family with a linear key, by the key's
value in the reader's terms: "row 0", "column 2", "diagonal r - c = -1", "anti-diagonal r + c =
3", "diagonal r - c = 2 mod 5" on a torus; a line of a family without a key by its place in the
family ("knight leap 7").

>>> from queens.models import NQueens, lower
>>> line_names(lower(NQueens(4)))[:6]
['row 0', 'row 1', 'row 2', 'row 3', 'column 0', 'column 1']
>>> bounds_text(0, 1, 4), bounds_text(1, 1, 4), bounds_text(2, 3, 5), bounds_text(1, 4, 4)
('at most one of', 'exactly one of', 'between 2 and 3 of', 'at least one of')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysat.formula import CNF
from queens.models import ConstraintModel
from queens.models.ir import LineFamily, Var
from queens.models.notation import linear_text, normalised


@dataclass(frozen=True)
class ClauseGroup:
    """The clauses one constraint became: `name` ("row 0"), what it `says` of its `cells`
    ("exactly one of"), the `encoding` that wrote it (a pysat name, or how the encoder writes
    the rest: "clause", "Aloul et al.", ...), the indices of its `clauses` in the formula and its
    `auxiliary` variables (the encoder's own numbering)."""

    name: str
    says: str
    cells: tuple[Var, ...]
    encoding: str
    clauses: range
    auxiliary: range


@dataclass
class Groups:
    """The groups of one formula, recorded as it is written: `close` names everything written
    since the last close (a block that wrote no clause is not a group)."""

    formula: CNF
    top: int
    """The last variable before the first group's auxiliaries (the cells' and the guards')."""
    groups: list[ClauseGroup] = field(default_factory=list)
    _written: int = 0

    def close(self, name: str, says: str, cells: tuple[Var, ...], encoding: str, top: int) -> None:
        """The clauses written since the last close, and variables up to `top`, are `name`'s."""
        written = len(self.formula.clauses)
        if written > self._written:
            self.groups.append(ClauseGroup(name, says, cells, encoding, range(self._written, written),
                                           range(self.top + 1, top + 1)))
        self._written, self.top = written, max(self.top, top)


def bounds_text(at_least: int, at_most: int, size: int) -> str:
    """"exactly one of", "at most 2 of", ...: what a line's bounds ask of its `size` cells."""
    words = {1: "one"}
    if at_least == at_most:
        return f"exactly {words.get(at_most, str(at_most))} of"
    if at_least == 0:
        return f"at most {words.get(at_most, str(at_most))} of"
    if at_most >= size:
        return f"at least {words.get(at_least, str(at_least))} of"
    return f"between {at_least} and {at_most} of"


def line_names(model: ConstraintModel) -> list[str]:
    """The name of each line the encoder writes one by one (families with bicliques are written
    as bicliques), in the encoder's order."""
    return [_line_name(family, i) for family in model.families if not family.bicliques
            for i in range(len(family.lines))]


def _line_name(family: LineFamily, i: int) -> str:
    singular = family.name[:-1] if family.name.endswith("s") else family.name
    if family.key is None:
        return f"{singular} {i}"
    key = normalised(family.key)
    text = linear_text(((key.a, "r"), (key.b, "c")))
    value = key.of(family.lines[i].cells[0])
    if text in ("r", "c"):
        return f"{singular} {value}"
    return f"{singular} {text} = {value}" + (f" mod {key.modulus}" if key.modulus else "")
