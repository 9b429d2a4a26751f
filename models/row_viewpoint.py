"""The row viewpoint of a model: q[r] = the column of row r's piece, one AllDifferent per keyed
family of lines.

What a textbook writes for n-queens ("8 variables q[0..7] in 0..7; AllDifferent(q[r]),
AllDifferent(q[r] - r), AllDifferent(q[r] + r)"), read off a lowered model's structure, never its
name. The rows are the exactly-one family with one line per board row
(`ConstraintModel.row_family`); each other family whose lines its `LinearKey` names (`keyed`:
whole board lines, one key value each) is one AllDifferent of that key, written in q: the key
a*r + b*c of the cell (r, q[r]) is b*q[r] + a*r (modulo n on a torus). Givens and holes are
domains: a row with a given piece has that one column, a hole is a column its row lacks. What a
key cannot say (lines without one, covers, clauses, attack counts, lex chains, an objective, a
lower bound that one piece a row does not imply) is listed in `over_cells`, for a backend to
post over the cells.

The backends that search in this viewpoint (cpsat's `alldifferent`, csp's `rows`) build their
models from it, and `queens explain --viewpoint` prints what they built, so what a learner reads
is what is posted.

>>> from queens.models import NQueens, lower
>>> view = row_viewpoint(lower(NQueens(4)))
>>> view.domains, [a.text for a in view.alldifferent], view.over_cells
(((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)), ['q[r]', 'q[r] - r', 'q[r] + r'], ())
"""

from __future__ import annotations

from dataclasses import dataclass

from queens.models.errors import Unsupported
from queens.models.ir import ConstraintModel, LineFamily
from queens.models.notation import linear_text


@dataclass(frozen=True)
class AllDifferent:
    """At most one piece on each line of `family`: scale*q[r] + shift*r (mod `modulus`), the
    family's key of the cell (r, q[r]), differs from row to row. The key's sign is chosen so that
    q's coefficient is positive (q[r] - r, not r - q[r]): the same lines, as a textbook writes them.

    >>> from queens.models import NQueens, lower
    >>> diagonals = row_viewpoint(lower(NQueens(4))).alldifferent[1]
    >>> diagonals.name, diagonals.text, diagonals.of(2, 3)
    ('diagonals', 'q[r] - r', 1)
    """

    family: LineFamily
    scale: int
    shift: int
    modulus: int | None

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def expression(self) -> str:
        """The key in q, before any modulus: 'q[r] - r'."""
        return linear_text(((self.scale, "q[r]"), (self.shift, "r")))

    @property
    def text(self) -> str:
        """The key in q, modulus included: '(q[r] - r) mod 5' on a torus."""
        return linear_text(((self.scale, "q[r]"), (self.shift, "r")), self.modulus)

    def of(self, row: int, column: int) -> int:
        """The value this AllDifferent reads when row `row`'s piece stands in `column`."""
        value = self.scale * column + self.shift * row
        return value % self.modulus if self.modulus else value


@dataclass(frozen=True)
class RowViewpoint:
    """One integer variable per row (`rows[i]`'s piece stands in one of `domains[i]`), an
    AllDifferent per keyed family, and what the model asks beyond them: the families without a
    key (`unkeyed`, at most one piece a line), the keyed ones whose lower bounds one piece a row
    does not imply (`bounded`), and, in words, everything a backend must post over the cells
    (`over_cells`; empty for n-queens)."""

    rows: tuple[int, ...]
    domains: tuple[tuple[int, ...], ...]
    alldifferent: tuple[AllDifferent, ...]
    unkeyed: tuple[LineFamily, ...]
    bounded: tuple[LineFamily, ...]
    over_cells: tuple[str, ...]


def row_refusal(model: ConstraintModel) -> str | None:
    """Why `model` has no row viewpoint, or None: each row must hold exactly one piece, every line
    at most one, and every cell lie on its row's line (q[r] places pieces there only)."""
    rows = model.row_family
    if rows is None:
        return "needs exactly one piece in every row"
    if not model.one_per_line:
        return "needs at most one piece per line"
    if sum(len(line.cells) for line in rows.lines) != len(model.cells):
        return "places pieces on the rows' lines only; some cells are on none"
    return None


def row_viewpoint(model: ConstraintModel) -> RowViewpoint:
    """The row viewpoint of `model` (see the module docstring); Unsupported with `row_refusal`'s
    reason when it has none."""
    refusal = row_refusal(model)
    rows = model.row_family
    if refusal or rows is None:
        raise Unsupported(f"the row viewpoint {refusal}")
    given: dict[int, set[int]] = {}
    for r, c in model.fixed:
        given.setdefault(r, set()).add(c)
    numbers = [line.cells[0][0] for line in rows.lines]
    domains = tuple(_domain(sorted(c for _, c in line.cells), given.get(line.cells[0][0])) for line in rows.lines)
    others = [family for family in model.families if family is not rows]
    keyed = [family for family in others if keyed_whole(family)]
    bounded = tuple(family for family in keyed if any(line.at_least for line in family.lines)
                    and not pigeonholed(family, model, len(numbers)))
    unkeyed = tuple(family for family in others if all(family is not k for k in keyed))
    return RowViewpoint(tuple(numbers), domains, tuple(_alldifferent(family) for family in keyed), unkeyed, bounded,
                        _over_cells(model, unkeyed, bounded, len(numbers)))


def _domain(columns: list[int], given: set[int] | None) -> tuple[int, ...]:
    """A row's columns: its open cells, or the given piece's column (none for two given pieces)."""
    if given is None:
        return tuple(columns)
    return tuple(c for c in columns if c in given) if len(given) == 1 else ()


def _alldifferent(family: LineFamily) -> AllDifferent:
    key = family.key
    assert key is not None  # `keyed_whole` families only
    sign = -1 if key.b < 0 else 1
    return AllDifferent(family, sign * key.b, sign * key.a, key.modulus)


def _over_cells(model: ConstraintModel, unkeyed: tuple[LineFamily, ...], bounded: tuple[LineFamily, ...],
                pieces: int) -> tuple[str, ...]:
    """What the model asks beyond the rows' domains and the AllDifferent, in words."""
    asked = [f"the {family.name} lines (no key)" for family in unkeyed]
    asked += [f"the {family.name}' lower bounds" for family in bounded]
    asked += [f"{len(model.covers):,} covers"] if model.covers else []
    asked += [model.beyond_lines] if model.beyond_lines else []
    asked += [f"lex-leader chains for {len(model.lex.chains)} symmetries"] if model.lex else []
    asked += [f"the objective ({model.objective.sense})"] if model.objective else []
    if model.size is not None and model.size != pieces:
        asked.append(f"a size of {model.size} pieces")
    return tuple(asked)


def keyed_whole(family: LineFamily) -> bool:
    """Whether `family` is whole lines named by its `LinearKey`: one key value per line, a
    different one for each line, so that "at most one piece a line" is "the key differs from
    piece to piece". Any other family (knight pairs, lines cut by pawns) has no AllDifferent.

    >>> from queens.models import NQueens, lower
    >>> [keyed_whole(family) for family in lower(NQueens(4)).families]
    [True, True, True, True]
    """
    key = family.key
    if key is None:
        return False
    a, b, modulus = key.a, key.b, key.modulus  # `key.of` inlined: 3 x 10^6 calls at 1000 x 1000
    values = [{(a * r + b * c) % modulus if modulus else a * r + b * c for r, c in line.cells}
              for line in family.lines]
    return all(len(v) == 1 for v in values) and len({v.pop() for v in values}) == len(values)


def pigeonholed(family: LineFamily, model: ConstraintModel, pieces: int) -> bool:
    """Whether `pieces` pieces, at most one a line, put exactly one on each line of `family`: its
    lines exactly one, as many as the pieces, and between them every cell (keyed lines, whole
    board lines or pieces of them, never overlap, so lengths that add up to the cells cover them).
    Read off the lines' lengths, not their cells: 1000 x 1000 asks in microseconds."""
    return (family.exactly_one and family.key is not None and len(family.lines) == pieces
            and sum(len(line.cells) for line in family.lines) == len(model.cells))
