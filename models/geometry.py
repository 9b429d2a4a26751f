"""Board geometry shared by the puzzle's own validation and the independent checker.

Kept apart from the lowering on purpose: the checker must not reuse the code that builds
the constraints it is checking.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from math import gcd

from queens.models.pieces import Cell, Piece


def ray_key(direction: Cell, cell: Cell) -> int:
    """An integer that is the same for every cell of one line along `direction`.

    For direction (dr, dc) the quantity dc*r - dr*c is invariant along the line: columns
    (1, 0) give -c, diagonals (1, 1) give r - c, anti-diagonals (1, -1) give -(r + c).
    """
    dr, dc = direction
    return dc * cell[0] - dr * cell[1]


def step_count(direction: Cell, a: Cell, b: Cell) -> int | None:
    """How many steps of `direction` lead from a to b on the plain board, or None."""
    dr, dc = direction
    ddr, ddc = b[0] - a[0], b[1] - a[1]
    if ddr * dc - ddc * dr != 0:
        return None
    return ddr // dr if dr else ddc // dc


def walk(start: Cell, direction: Cell, rows: int, cols: int, toroidal: bool) -> Iterator[Cell]:
    """The cells after `start` along `direction`, to the edge (or once round a torus)."""
    r, c = start
    dr, dc = direction
    while True:
        r, c = r + dr, c + dc
        if toroidal:
            r, c = r % rows, c % cols
            if (r, c) == start:
                return
        elif not (0 <= r < rows and 0 <= c < cols):
            return
        yield r, c


def attacks(
    piece: Piece, a: Cell, b: Cell, *, rows: int, cols: int, toroidal: bool, pawns: frozenset[Cell]
) -> bool:
    """Whether a piece on `a` attacks `b` (pawns block rays; leaps jump over them)."""
    if a == b:
        return False
    for lr, lc in piece.leaps:
        for sr, sc in ((lr, lc), (-lr, -lc)):
            target = (a[0] + sr, a[1] + sc)
            if toroidal:
                target = (target[0] % rows, target[1] % cols)
            if target == b:
                return True
    for ray in piece.rays:
        for direction in (ray, (-ray[0], -ray[1])):
            if not toroidal and step_count(direction, a, b) is None:
                continue
            for cell in walk(a, direction, rows, cols, toroidal):
                if cell == b:
                    return True
                if cell in pawns:
                    break
    return False


_LINE_NAMES = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "anti-diagonal"}


def first_attack(
    piece: Piece, cells: Iterable[Cell], *, rows: int, cols: int, toroidal: bool, pawns: frozenset[Cell]
) -> tuple[Cell, Cell, str] | None:
    """The first two cells that attack each other, and how ("share a diagonal"), or None.

    Without pawns this is O(k) for k cells: one hash of each ray key per direction, and a set
    lookup per leap. With pawns (small boards only) pairs are tested with `attacks`.
    """
    cells = list(cells)
    if pawns:
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if attacks(piece, a, b, rows=rows, cols=cols, toroidal=toroidal, pawns=pawns):
                    return a, b, "attack each other"
        return None
    for direction in piece.rays:
        seen: dict[int, Cell] = {}
        for cell in cells:
            key = ray_key(direction, cell) % rows if toroidal else ray_key(direction, cell)
            if key in seen:
                return seen[key], cell, f"share a {_LINE_NAMES.get(direction, f'line {direction}')}"
            seen[key] = cell
    occupied = set(cells)
    for a in cells:
        for lr, lc in piece.leaps:
            b = (a[0] + lr, a[1] + lc)
            if toroidal:
                b = (b[0] % rows, b[1] % cols)
            if b in occupied and b != a:
                return a, b, "attack each other by a leap"
    return None


def torus_is_safe(n: int) -> bool:
    """Pólya (1918): n queens fit on an n x n torus exactly when gcd(n, 6) == 1."""
    return gcd(n, 6) == 1
