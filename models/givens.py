"""A puzzle's givens: what the user put on the board before asking (pieces, holes, pawns).

When a puzzle has no solution, "why not?" is answered by a smallest set of these that has no
solution by itself (`queens.solvers.why`). The givens are plain data; `with_givens` rebuilds the
puzzle from any subset of them, so the search can ask about each subset without knowing the
puzzle's family.

>>> from queens.models import Completion
>>> [g.name for g in givens_of(Completion(4, [(0, 0), (1, 2)]))]
['queen at 0,0', 'queen at 1,2']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from queens.models.geometry import Coord
from queens.models.puzzle import Puzzle

Kind = Literal["piece", "hole", "pawn"]


@dataclass(frozen=True, order=True)
class Given:
    """One thing the user fixed: a piece already placed, a hole (no piece, lines pass), or a
    pawn (no piece, lines stop)."""

    kind: Kind
    cell: Coord
    piece: str = "queen"

    @property
    def name(self) -> str:
        what = self.piece if self.kind == "piece" else self.kind
        return f"{what} at {self.cell[0]},{self.cell[1]}"

    @property
    def fixed_cell(self) -> Coord | None:
        """The cell this given fixes a piece on (a piece), or None (a hole or pawn changes the
        board itself). What lets a solver try the given as an assumption instead of rebuilding."""
        return self.cell if self.kind == "piece" else None


def givens_of(puzzle: Puzzle) -> list[Given]:
    """Every given of `puzzle`, pieces first, each kind in board order."""
    name = puzzle.piece.name
    return ([Given("piece", cell, name) for cell in sorted(puzzle.fixed)]
            + [Given("hole", cell) for cell in sorted(puzzle.holes)]
            + [Given("pawn", cell) for cell in sorted(puzzle.blockers)])


def with_givens(puzzle: Puzzle, givens: Iterable[Given]) -> Puzzle:
    """`puzzle` with exactly these givens (the others taken away)."""
    chosen = list(givens)
    first, *rest = puzzle.armies
    pieces = frozenset(g.cell for g in chosen if g.kind == "piece")
    return replace(puzzle, armies=(replace(first, fixed=pieces), *rest),
                   holes=frozenset(g.cell for g in chosen if g.kind == "hole"),
                   blockers=frozenset(g.cell for g in chosen if g.kind == "pawn"))
