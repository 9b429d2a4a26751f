"""A puzzle that is one of several: "place 9 queens and 1 pawn anywhere" is 64 puzzles, one per
pawn square. Each alternative is an ordinary `Puzzle`, so backends need nothing new.

Alternatives related by a board symmetry have equal counts, so only one representative per
orbit is kept, with a weight: the number of layouts it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from queens.models.pieces import Cell
from queens.models.puzzle import Puzzle
from queens.models.symmetry import Transform, board_transforms


@dataclass(frozen=True)
class Alternatives:
    title: str
    choices: tuple[tuple[Puzzle, int], ...]
    """(representative puzzle, how many layouts it stands for)."""
    transforms: tuple[Transform, ...]
    """The board symmetries that map the whole family onto itself."""

    @property
    def name(self) -> str:
        return self.title

    @property
    def layouts(self) -> int:
        return sum(weight for _, weight in self.choices)


def layouts_up_to_symmetry(rows: int, cols: int, k: int) -> list[tuple[frozenset[Cell], int]]:
    """Every set of k cells, one per symmetry orbit, with the orbit's size.

    >>> sum(weight for _, weight in layouts_up_to_symmetry(8, 8, 1))
    64
    """
    transforms = board_transforms(rows, cols)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    found: dict[tuple[Cell, ...], int] = {}
    for layout in combinations(cells, k):
        orbit = {tuple(sorted(t(c, rows, cols) for c in layout)) for t in transforms}
        canonical = min(orbit)
        if canonical == layout:
            found[canonical] = len(orbit)
    return [(frozenset(layout), weight) for layout, weight in found.items()]
