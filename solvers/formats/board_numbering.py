"""The one numbering every export shares, so a learner can read one file against another: cell
(r, c) is variable r * cols + c + 1 (x1 is the top-left corner, row by row). Blocked cells
(pawns, forbidden squares) keep their number and are fixed to false, so a formula has exactly
as many models over the cell variables as the puzzle has solutions.
"""

from __future__ import annotations

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.models.pieces import Cell


def variable(model: ConstraintModel, cell: Cell) -> int:
    """The number of `cell` in every export: r * cols + c + 1.

    >>> from queens.models import NQueens
    >>> variable(lower(NQueens(8)), (1, 2))
    11
    """
    return cell[0] * model.cols + cell[1] + 1


def decision_model(puzzle: Puzzle, size: int | None, format_name: str) -> ConstraintModel:
    """The lowered puzzle; a minimising one needs a size in formats without an objective."""
    model = lower(puzzle)
    if size is not None:
        return model.with_size(size)
    if model.minimise and format_name == "dimacs":
        raise Unsupported("DIMACS CNF cannot say 'fewest pieces': give a size (--size K), "
                          "or export to opb or mzn, which have an objective")
    return model


def blocked(model: ConstraintModel) -> list[Cell]:
    free = set(model.cells)
    return [(r, c) for r in range(model.rows) for c in range(model.cols) if (r, c) not in free]


def title(puzzle: Puzzle, model: ConstraintModel) -> str:
    """What a file's first comment line says the puzzle is."""
    return f"{puzzle.name}: {model.rows} x {model.cols} board, {puzzle.piece.name}s"


def header(title: str, model: ConstraintModel, comment: str) -> list[str]:
    lines = [f"{comment} {title}", f"{comment} cell (r, c) is variable r*{model.cols} + c + 1"]
    for r in range(model.rows):
        lines.append(f"{comment} row {r}: " + " ".join(str(variable(model, (r, c))) for c in range(model.cols)))
    return lines
