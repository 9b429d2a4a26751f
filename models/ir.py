"""The generic constraint form every backend consumes.

A puzzle is lowered once (`queens.models.lowering.lower`) to Boolean *cell variables* (one per cell
that may hold a piece) and four kinds of constraint:

- *lines*: at most one / exactly one piece among some cells, grouped in families
  (rows, columns, diagonals, knight pairs, ...);
- *covers*: at least one piece among some cells (domination);
- *fixed* cells that must hold a piece;
- the *size*: how many pieces in all, or an objective to minimise it.

A family whose lines are whole board lines also carries a `LinearKey`, so a backend can build
the row viewpoint (q[r] = column of the piece in row r, AllDifferent on each key) instead of
the Boolean one. Backends read only this structure, never a puzzle's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property

from queens.models.pieces import Cell


class LineKind(Enum):
    AT_MOST_ONE = "at most one"
    EXACTLY_ONE = "exactly one"


@dataclass(frozen=True)
class Line:
    cells: tuple[Cell, ...]
    kind: LineKind


@dataclass(frozen=True)
class LinearKey:
    """key(r, c) = a*r + b*c (mod `modulus` on a torus): one value per line of a family.

    >>> LinearKey(1, -1, None).of((5, 2))   # diagonals: r - c
    3
    """

    a: int
    b: int
    modulus: int | None

    def of(self, cell: Cell) -> int:
        value = self.a * cell[0] + self.b * cell[1]
        return value % self.modulus if self.modulus else value


@dataclass(frozen=True)
class LineFamily:
    """Lines of one kind of attack, e.g. all anti-diagonals, or all knight-move pairs."""

    name: str
    lines: tuple[Line, ...]
    key: LinearKey | None = None

    @property
    def exactly_one(self) -> bool:
        return bool(self.lines) and all(line.kind is LineKind.EXACTLY_ONE for line in self.lines)


@dataclass(frozen=True)
class ConstraintModel:
    """Cell variables and constraints over them; see the module docstring.

    `size` is the number of pieces in every solution when it is fixed; `size_implied` says an
    exactly-one family already forces it, so a backend need not post the cardinality.
    `minimise` asks for the fewest pieces (then `size` is None).
    """

    rows: int
    cols: int
    cells: tuple[Cell, ...]
    families: tuple[LineFamily, ...]
    covers: tuple[tuple[Cell, ...], ...] = ()
    fixed: frozenset[Cell] = frozenset()
    size: int | None = None
    size_implied: bool = False
    minimise: bool = False

    @property
    def lines(self) -> Iterator[Line]:
        for family in self.families:
            yield from family.lines

    @cached_property
    def conflicts(self) -> dict[Cell, frozenset[Cell]]:
        """The conflict graph: for each cell, the other cells that share a line with it (two
        pieces there would break the line's at-most-one). Derived once, here, for every reader
        (the trace, the native kernel's bitsets, the CSP's row predicates).

        >>> from queens.models import NQueens, lower
        >>> len(lower(NQueens(4)).conflicts[(0, 0)])
        9
        """
        shared: dict[Cell, set[Cell]] = {cell: set() for cell in self.cells}
        for line in self.lines:
            for cell in line.cells:
                shared[cell].update(line.cells)
        return {cell: frozenset(others - {cell}) for cell, others in shared.items()}

    def family(self, name: str) -> LineFamily | None:
        return next((f for f in self.families if f.name == name), None)

    @property
    def row_family(self) -> LineFamily | None:
        """The rows, when every row holds exactly one piece: the row viewpoint's variables.

        Recognised by structure: an exactly-one family with one line per board row, each line
        inside a single row."""
        return next((f for f in self.families if f.exactly_one and len(f.lines) == self.rows
                     and all(len({r for r, _ in line.cells}) == 1 for line in f.lines)), None)

    @property
    def branch_lines(self) -> list[Line]:
        """The exactly-one lines still open (no fixed piece): what a search chooses a piece for,
        one line per level ("one queen per row"). Empty when no family is exactly-one."""
        family = next((f for f in self.families if f.exactly_one), None)
        return [] if family is None else [line for line in family.lines if not self.fixed.intersection(line.cells)]

    def with_size(self, size: int) -> ConstraintModel:
        """The same model asking for exactly `size` pieces (used to count optimal solutions)."""
        return replace(self, size=size, size_implied=False, minimise=False)
