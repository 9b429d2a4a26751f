"""Board symmetries: which of the 8 (square) or 4 (rectangle) transforms map a model to itself.

The group is found, not declared: a transform belongs to it when it maps the model's cells,
lines, covers and fixed cells onto themselves. So a completion puzzle with an off-centre queen
gets a smaller group automatically, and no family has to state its symmetries by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from queens.models.ir import ConstraintModel
from queens.models.pieces import Cell


@dataclass(frozen=True)
class Transform:
    name: str
    apply: Callable[[Cell, int, int], Cell]

    def __call__(self, cell: Cell, rows: int, cols: int) -> Cell:
        return self.apply(cell, rows, cols)


_RECTANGLE = (
    Transform("identity", lambda p, n, m: p),
    Transform("rotate 180", lambda p, n, m: (n - 1 - p[0], m - 1 - p[1])),
    Transform("flip rows", lambda p, n, m: (n - 1 - p[0], p[1])),
    Transform("flip columns", lambda p, n, m: (p[0], m - 1 - p[1])),
)
_SQUARE_ONLY = (
    Transform("rotate 90", lambda p, n, m: (p[1], n - 1 - p[0])),
    Transform("rotate 270", lambda p, n, m: (n - 1 - p[1], p[0])),
    Transform("transpose", lambda p, n, m: (p[1], p[0])),
    Transform("anti-transpose", lambda p, n, m: (n - 1 - p[1], n - 1 - p[0])),
)


def board_transforms(rows: int, cols: int) -> tuple[Transform, ...]:
    """D4 on a square board, the Klein four-group on a rectangle."""
    return _RECTANGLE + _SQUARE_ONLY if rows == cols else _RECTANGLE


def symmetry_group(model: ConstraintModel) -> tuple[Transform, ...]:
    """The transforms under which `model` is invariant (always includes the identity)."""
    def signature(t: Transform) -> tuple[object, ...]:
        def image(cells: Iterable[Cell]) -> frozenset[Cell]:
            return frozenset(t(c, model.rows, model.cols) for c in cells)
        return (
            image(model.cells),
            frozenset((image(line.cells), line.bounds) for line in model.lines),
            frozenset(image(cover) for cover in model.covers),
            image(model.fixed),
        )
    reference = signature(_RECTANGLE[0])
    return tuple(t for t in board_transforms(model.rows, model.cols) if signature(t) == reference)
