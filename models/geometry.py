"""Board geometry: the topology, and attacks as the rules state them.

Kept apart from the lowering on purpose: the checker must not reuse the code that builds
the constraints it is checking.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import gcd

from queens.models.pieces import Cell, Piece


@dataclass(frozen=True)
class Topology:
    """The board's shape and how its edges join: the one place that decides where a step lands.

    A plane stops at its edges; a torus wraps both axes; a cylinder wraps one (`wrap` holds one
    flag per axis, rows then columns). Lines, the checker, the trace, the pictures and the
    conflict graph all move through `step` and `walk`, so a new board shape is one change here.

    >>> Topology(4, 4).step((3, 3), (1, 1)) is None
    True
    >>> Topology(4, 4, wrap=(True, True)).step((3, 3), (1, 1))
    (0, 0)
    >>> list(Topology(3, 3, wrap=(False, True)).walk((0, 1), (0, 1)))
    [(0, 2), (0, 0)]
    """

    rows: int
    cols: int
    wrap: tuple[bool, bool] = (False, False)

    @classmethod
    def of(cls, rows: int, cols: int, toroidal: bool) -> Topology:
        """The plane, or the torus when `toroidal`."""
        return cls(rows, cols, (toroidal, toroidal))

    @property
    def toroidal(self) -> bool:
        return all(self.wrap)

    @property
    def keyed(self) -> bool:
        """Whether `line_key` names lines: on the plane and on a square torus, not on a cylinder."""
        return not any(self.wrap) or (self.toroidal and self.rows == self.cols)

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def step(self, cell: Cell, vector: Cell) -> Cell | None:
        """The cell `vector` away from `cell`, across a wrapped edge; None off the board."""
        r, c = cell[0] + vector[0], cell[1] + vector[1]
        if self.wrap[0]:
            r %= self.rows
        if self.wrap[1]:
            c %= self.cols
        return (r, c) if self.contains((r, c)) else None

    def walk(self, start: Cell, direction: Cell) -> Iterator[Cell]:
        """The cells after `start` along `direction`, to the edge (or once round a wrapped axis)."""
        cell = self.step(start, direction)
        while cell is not None and cell != start:
            yield cell
            cell = self.step(cell, direction)

    def line(self, start: Cell, direction: Cell) -> list[Cell]:
        """The whole line through `start` along `direction`, from its first cell (from `start`
        on a closed line, which has no first cell).

        >>> Topology(3, 3).line((1, 1), (1, 1))
        [(0, 0), (1, 1), (2, 2)]
        """
        back = (-direction[0], -direction[1])
        first = start
        while (previous := self.step(first, back)) is not None:
            if previous == start:
                return [start, *self.walk(start, direction)]
            first = previous
        return [first, *self.walk(first, direction)]

    def line_key(self, direction: Cell, cell: Cell) -> int:
        """An integer that is the same for every cell of one line along `direction`.

        For direction (dr, dc) the quantity dc*r - dr*c is invariant along a line of the plane:
        columns (1, 0) give -c, diagonals (1, 1) give r - c, anti-diagonals (1, -1) give -(r + c).
        On a square torus it is taken modulo the side.

        >>> Topology(8, 8).line_key((1, 1), (5, 2))
        3
        """
        dr, dc = direction
        key = dc * cell[0] - dr * cell[1]
        return key % self.rows if self.toroidal else key


def attacks(piece: Piece, a: Cell, b: Cell, *, topology: Topology, pawns: frozenset[Cell]) -> bool:
    """Whether a piece on `a` attacks `b` (pawns block rays; leaps jump over them)."""
    if a == b:
        return False
    for lr, lc in piece.leaps:
        if b in (topology.step(a, (lr, lc)), topology.step(a, (-lr, -lc))):
            return True
    for ray in piece.rays:
        if topology.keyed and topology.line_key(ray, a) != topology.line_key(ray, b):
            continue
        for direction in (ray, (-ray[0], -ray[1])):
            for cell in topology.walk(a, direction):
                if cell == b:
                    return True
                if cell in pawns:
                    break
    return False


_LINE_NAMES = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "anti-diagonal"}


def first_attack(
    piece: Piece, cells: Iterable[Cell], *, topology: Topology, pawns: frozenset[Cell]
) -> tuple[Cell, Cell, str] | None:
    """The first two cells that attack each other, and how ("share a diagonal"), or None.

    Without pawns this is O(k) for k cells: one hash of each line key per direction, and a set
    lookup per leap. With pawns (small boards only) pairs are tested with `attacks`.
    """
    cells = list(cells)
    if pawns or not topology.keyed:
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if attacks(piece, a, b, topology=topology, pawns=pawns):
                    return a, b, "attack each other"
        return None
    for direction in piece.rays:
        seen: dict[int, Cell] = {}
        for cell in cells:
            key = topology.line_key(direction, cell)
            if key in seen:
                return seen[key], cell, f"share a {_LINE_NAMES.get(direction, f'line {direction}')}"
            seen[key] = cell
    occupied = set(cells)
    for a in cells:
        for leap in piece.leaps:
            target = topology.step(a, leap)
            if target is not None and target in occupied and target != a:
                return a, target, "attack each other by a leap"
    return None


def torus_is_safe(n: int) -> bool:
    """Pólya (1918): n queens fit on an n x n torus exactly when gcd(n, 6) == 1."""
    return gcd(n, 6) == 1


Coord = tuple[int, ...]


@dataclass(frozen=True)
class Box:
    """A board of any dimension with closed edges (a cube for 3-D queens): the same `step`,
    `walk` and `line` as `Topology`, over coordinate tuples. Boards that wrap are 2-D
    (`Topology`); a box never wraps.

    >>> Box((3, 3, 3)).line((1, 1, 1), (1, 1, 1))
    [(0, 0, 0), (1, 1, 1), (2, 2, 2)]
    """

    shape: Coord

    def contains(self, cell: Coord) -> bool:
        return all(0 <= x < side for x, side in zip(cell, self.shape, strict=True))

    def step(self, cell: Coord, vector: Coord) -> Coord | None:
        moved = tuple(x + d for x, d in zip(cell, vector, strict=True))
        return moved if self.contains(moved) else None

    def walk(self, start: Coord, direction: Coord) -> Iterator[Coord]:
        cell = self.step(start, direction)
        while cell is not None:
            yield cell
            cell = self.step(cell, direction)

    def line(self, start: Coord, direction: Coord) -> list[Coord]:
        back = tuple(-d for d in direction)
        first = start
        while (previous := self.step(first, back)) is not None:
            first = previous
        return [first, *self.walk(first, direction)]
