"""Plain-Python twins of the C searches, written for reading rather than speed.

- `count_model`: kernelcore.c's search over the generic model (sets instead of bitsets, the same
  branching: one cell of each exactly-one line of the first such family, or cells in increasing
  order when there is none; covers checked at the leaf).
- `count_queens`: queens on a board with blocked cells and pre-placed queens, from first
  principles (two queens attack when they share a row, a column or a diagonal), independent of
  the lowering.
- `classes_by_prefix`: fastcount.c's scheme: every solution's class is counted once, at its
  lexicographically smallest board, and filed under that board's first rows (the subproblem).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from itertools import combinations

from queens.models import ConstraintModel
from queens.solvers.native import _fast

Cell = tuple[int, int]


KERNELS = ["scalar", "vector"] if _fast.VECTOR else ["scalar"]
"""The fast counter's kernels on this machine, each checked against this twin."""

def count_model(model: ConstraintModel) -> int:
    """The number of solutions of `model`, by kernelcore.c's search."""
    conflicts: dict[Cell, set[Cell]] = defaultdict(set)
    for line in model.lines:
        for cell in line.cells:
            conflicts[cell] |= set(line.cells) - {cell}
    fixed = set(model.fixed)
    start = set(model.cells) - fixed
    for cell in fixed:
        start -= conflicts[cell]
    primary = next((family for family in model.families if family.exactly_one), None)
    branch = [] if primary is None else [set(line.cells) for line in primary.lines if not fixed & set(line.cells)]
    target = model.size - len(fixed)

    def covered(chosen: list[Cell]) -> bool:
        placed = fixed | set(chosen)
        return all(placed & set(cover) for cover in model.covers)

    def search(open_cells: set[Cell], chosen: list[Cell]) -> int:
        depth = len(chosen)
        if depth == target:
            return int(covered(chosen))
        candidates = open_cells & branch[depth] if branch else open_cells
        total = 0
        for cell in sorted(candidates):
            rest = open_cells - conflicts[cell] - {cell}
            if not branch:
                rest = {other for other in rest if other > cell}
            total += search(rest, [*chosen, cell])
        return total

    return search(start, [])


def attack(a: Cell, b: Cell) -> bool:
    """Queens on a and b attack each other."""
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def count_queens(n: int, blocked: frozenset[Cell] = frozenset(), fixed: frozenset[Cell] = frozenset()) -> int:
    """n non-attacking queens on an n x n board, none on `blocked`, including every queen of `fixed`."""
    if any(attack(a, b) for a, b in combinations(fixed, 2)):
        return 0
    by_row = {r: c for r, c in fixed}

    def place(row: int, queens: list[Cell]) -> int:
        if row == n:
            return 1
        columns = [by_row[row]] if row in by_row else range(n)
        return sum(place(row + 1, [*queens, (row, c)]) for c in columns
                   if (row, c) not in blocked and not any(attack((row, c), q) for q in queens))

    return place(0, [])


@cache
def solutions(n: int) -> tuple[tuple[int, ...], ...]:
    """Every n-queens solution as the column of each row."""
    found = []

    def place(columns: tuple[int, ...]) -> None:
        row = len(columns)
        if row == n:
            found.append(columns)
            return
        for c in range(n):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(columns)):
                place((*columns, c))

    place(())
    return tuple(found)


def images(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The 8 images of a board (row -> column) under the symmetries of the square."""
    n = len(board)
    cells = [(r, c) for r, c in enumerate(board)]
    result = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                image = [0] * n
                for r, c in cells:
                    if transpose:
                        r, c = c, r
                    image[n - 1 - r if flip_rows else r] = n - 1 - c if flip_columns else c
                result.append(tuple(image))
    return result


@cache
def classes_by_prefix(n: int, depth: int) -> dict[tuple[int, ...], tuple[int, int, int]]:
    """(C2, C4, C8) of each subproblem (the first `depth` columns of a class's smallest board)."""
    counts: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    for board in solutions(n):
        variants = images(board)
        if board != min(variants):
            continue
        size = 8 // variants.count(board)
        counts[board[:depth]][{2: 0, 4: 1, 8: 2}[size]] += 1
    return {prefix: tuple(c) for prefix, c in counts.items()}


def fixed_by(board: tuple[int, ...], turns: int) -> bool:
    """Whether turning the board by `turns` quarter turns gives it back."""
    n = len(board)
    cells = {(r, c) for r, c in enumerate(board)}
    turned = cells
    for _ in range(turns):
        turned = {(c, n - 1 - r) for r, c in turned}
    return turned == cells
