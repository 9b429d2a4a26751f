"""A brute-force oracle for puzzles with armies and for 3-D boards, sharing no code with
`queens.models`: pieces by their moves as a chess book states them (on a square board or a
cube), and exhaustive searches small enough to be obviously right.

>>> most_peaceable(4)
2
>>> independence_number(3, "queen", dimensions=3)
4
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, product
from math import comb

Cell = tuple[int, ...]


def _queen_directions(dimensions: int) -> list[Cell]:
    return [d for d in product((-1, 0, 1), repeat=dimensions) if any(d)]


def _knight_jumps(dimensions: int) -> list[Cell]:
    jumps = set()
    for axes in combinations(range(dimensions), 2):
        for a, b in ((1, 2), (2, 1)):
            for sa, sb in product((1, -1), repeat=2):
                jump = [0] * dimensions
                jump[axes[0]], jump[axes[1]] = sa * a, sb * b
                jumps.add(tuple(jump))
    return sorted(jumps)


def board(n: int, dimensions: int = 2) -> list[Cell]:
    return list(product(range(n), repeat=dimensions))


def attacked_by(piece: str, cell: Cell, n: int) -> set[Cell]:
    """The cells a `piece` on `cell` attacks on an empty board of side n (any dimension)."""
    dimensions = len(cell)
    inside: Callable[[Cell], bool] = lambda c: all(0 <= x < n for x in c)  # noqa: E731
    found: set[Cell] = set()
    if piece in ("queen", "rook", "bishop"):
        for d in _queen_directions(dimensions):
            moved = sum(map(abs, d))
            if (piece == "rook" and moved != 1) or (piece == "bishop" and moved == 1):
                continue
            c = tuple(x + dx for x, dx in zip(cell, d, strict=True))
            while inside(c):
                found.add(c)
                c = tuple(x + dx for x, dx in zip(c, d, strict=True))
    steps = {"king": _queen_directions(dimensions), "knight": _knight_jumps(dimensions)}.get(piece, [])
    for d in steps:
        c = tuple(x + dx for x, dx in zip(cell, d, strict=True))
        if inside(c):
            found.add(c)
    return found


def independence_number(n: int, piece: str, *, dimensions: int = 2, rows: int | None = None) -> int:
    """The most pieces, none attacking, on the n-cube (or a rows x n board) by branch and bound."""
    cells = [c for c in board(max(n, rows or 0), dimensions)
             if rows is None or (c[0] < rows and c[1] < n)]
    side = max(n, rows or 0)
    index = {c: i for i, c in enumerate(cells)}
    conflict = [sum(1 << index[o] for o in attacked_by(piece, c, side) if o in index) for c in cells]
    best = 0

    def grow(free: int, size: int) -> None:
        nonlocal best
        if size + bin(free).count("1") <= best:
            return
        if not free:
            best = max(best, size)
            return
        i = (free & -free).bit_length() - 1
        grow(free & ~conflict[i] & ~(1 << i), size + 1)
        grow(free & ~(1 << i), size)

    grow((1 << len(cells)) - 1, 0)
    return best


def most_peaceable(n: int) -> int:
    """The largest m with m white and m black queens on n x n, no queen attacking the other
    colour: the white set W leaves the cells W neither holds nor attacks for black."""
    cells = board(n)
    reach = {c: attacked_by("queen", c, n) | {c} for c in cells}
    m = 0
    while any(len(cells) - len(set().union(*(reach[c] for c in white))) >= m + 1
              for white in combinations(cells, m + 1)):
        m += 1
    return m


def count_peaceable(n: int, m: int) -> int:
    """Placements of m white and m black queens on n x n with no queen attacking the other
    colour: for each white set, choose the black ones among the cells it leaves."""
    cells = board(n)
    reach = {c: attacked_by("queen", c, n) | {c} for c in cells}
    return sum(comb(len(cells) - len(set().union(*(reach[c] for c in white))), m)
               for white in combinations(cells, m))


def peaceable_classes(n: int, m: int) -> int:
    """Classes of those placements under the square's 8 symmetries and the swap of colours."""
    cells = board(n)
    reach = {c: attacked_by("queen", c, n) | {c} for c in cells}
    images: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r), lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
        lambda r, c: (n - 1 - r, c), lambda r, c: (r, n - 1 - c)]
    classes = set()
    for white in combinations(cells, m):
        free = [c for c in cells if c not in set().union(*(reach[w] for w in white))]
        for black in combinations(free, m):
            forms = []
            for image in images:
                w = tuple(sorted(image(*c) for c in white))
                b = tuple(sorted(image(*c) for c in black))
                forms += [(w, b), (b, w)]
            classes.add(min(forms))
    return len(classes)


def queens_and_knights(n: int) -> int:
    """The largest k with k queens and k knights on n x n, no piece attacking another."""
    cells = board(n)
    queen = {c: attacked_by("queen", c, n) for c in cells}
    knight = {c: attacked_by("knight", c, n) for c in cells}
    k = 0
    while _fits(k + 1, cells, queen, knight):
        k += 1
    return k


def _fits(k: int, cells: list[Cell], queen: dict[Cell, set[Cell]], knight: dict[Cell, set[Cell]]) -> bool:
    for queens in combinations(cells, k):
        if any(b in queen[a] for a, b in combinations(queens, 2)):
            continue
        taken = set(queens).union(*(queen[q] for q in queens))
        free = [c for c in cells if c not in taken and not knight[c] & set(queens)]
        for knights in combinations(free, k):
            if not any(b in knight[a] for a, b in combinations(knights, 2)):
                return True
    return False


def queen_graph_edges(rows: int, cols: int) -> int:
    """Undirected edges of the rows x cols queen graph: pairs of cells on one line."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return sum(1 for a, b in combinations(cells, 2)
               if a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def count_two_armies(n: int, first: tuple[str, int], second: tuple[str, int]) -> int:
    """Placements of `first` = (piece, k) and `second` pieces on n x n, one piece per cell, no
    piece attacking one of the other army (pieces of one army may attack each other), by trying
    every pair of cell sets."""
    cells = board(n)
    total = 0
    for mine in combinations(cells, first[1]):
        reach = set().union(*(attacked_by(first[0], c, n) for c in mine)) if mine else set()
        for theirs in combinations([c for c in cells if c not in mine and c not in reach], second[1]):
            if not any(set(mine) & attacked_by(second[0], c, n) for c in theirs):
                total += 1
    return total
