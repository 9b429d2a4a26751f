"""A brute-force oracle that shares no code with `queens.models`: the rules, written out again.

It knows pieces by their moves as a chess book states them, boards as coordinates (with the torus
written as arithmetic modulo the side), and counts placements by trying subsets of cells in
increasing order, keeping a subset only while no two of its pieces attack each other. It is slow
and small on purpose: what it is for is being obviously right on boards of up to ~40 cells.

>>> Oracle(4, 4, "queen").count(4)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

Cell = tuple[int, int]

SLIDES = {  # directions a piece slides along, until the edge or a pawn
    "queen": [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)],
    "rook": [(0, 1), (0, -1), (1, 0), (-1, 0)],
    "bishop": [(1, 1), (-1, -1), (1, -1), (-1, 1)],
}
KNIGHT_JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING_STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
JUMPS = {"knight": KNIGHT_JUMPS, "king": KING_STEPS, "superqueen": KNIGHT_JUMPS}
SLIDES["superqueen"] = SLIDES["queen"]


@dataclass(frozen=True)
class Oracle:
    """A rows x cols board, one kind of piece, optional pawns (they block slides), blocked cells
    (no piece there, slides pass), pieces already placed, and a torus."""

    rows: int
    cols: int
    piece: str
    pawns: frozenset[Cell] = field(default_factory=frozenset)
    blocked: frozenset[Cell] = field(default_factory=frozenset)
    fixed: frozenset[Cell] = field(default_factory=frozenset)
    torus: bool = False

    def _move(self, cell: Cell, dr: int, dc: int) -> Cell | None:
        r, c = cell[0] + dr, cell[1] + dc
        if self.torus:
            return r % self.rows, c % self.cols
        return (r, c) if 0 <= r < self.rows and 0 <= c < self.cols else None

    def _reached(self, cell: Cell) -> set[Cell]:
        """Every square a piece on `cell` attacks."""
        reached = set()
        for dr, dc in JUMPS.get(self.piece, []):
            target = self._move(cell, dr, dc)
            if target is not None and target != cell:
                reached.add(target)
        for dr, dc in SLIDES.get(self.piece, []):
            current = self._move(cell, dr, dc)
            for _ in range(self.rows * self.cols):
                if current is None or current == cell or current in self.pawns:
                    break
                reached.add(current)
                current = self._move(current, dr, dc)
        return reached

    def _squares(self) -> Iterator[Cell]:
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def placements(self, k: int, *, independent: bool = True, dominating: bool = False) -> Iterator[tuple[Cell, ...]]:
        """Every set of k pieces (holding the fixed ones) that the rules accept."""
        free = [cell for cell in self._squares() if cell not in self.pawns | self.blocked]
        reach = {cell: self._reached(cell) for cell in free}
        if not self.fixed <= set(free):
            return

        def grow(chosen: list[Cell], start: int) -> Iterator[tuple[Cell, ...]]:
            if len(chosen) == k:
                if self.fixed <= set(chosen) and (not dominating or self._dominated(chosen, reach)):
                    yield tuple(chosen)
                return
            for i in range(start, len(free)):
                cell = free[i]
                if independent and any(cell in reach[other] for other in chosen):
                    continue
                yield from grow([*chosen, cell], i + 1)

        yield from grow([], 0)

    def _dominated(self, chosen: Iterable[Cell], reach: dict[Cell, set[Cell]]) -> bool:
        seen = set(chosen)
        for cell in chosen:
            seen |= reach[cell]
        return all(square in seen for square in self._squares() if square not in self.pawns)

    def count(self, k: int, *, independent: bool = True, dominating: bool = False) -> int:
        return sum(1 for _ in self.placements(k, independent=independent, dominating=dominating))

    def fewest(self, *, independent: bool = False) -> tuple[int, int]:
        """The fewest pieces that dominate the board, and in how many ways."""
        for k in range(self.rows * self.cols + 1):
            ways = self.count(k, independent=independent, dominating=True)
            if ways:
                return k, ways
        raise AssertionError("the full board always dominates")


def two_per_line_count(n: int) -> int:
    """Ways to put exactly two rooks in every row and column of n x n (OEIS A001499): rows one
    after another, each putting two pieces in columns that hold fewer than two."""
    @cache
    def ways(row: int, held: tuple[int, ...]) -> int:
        if row == n:
            return int(all(h == 2 for h in held))
        total = 0
        for a, b in combinations(range(n), 2):
            if held[a] < 2 and held[b] < 2:
                after = list(held)
                after[a] += 1
                after[b] += 1
                total += ways(row + 1, tuple(after))
        return total
    return ways(0, (0,) * n)
