"""The one numbering every export shares, so a learner can read one file against another: cell
(r, c) is variable r * cols + c + 1 (x1 is the top-left corner, row by row). Blocked cells
(pawns, forbidden squares) keep their number and are fixed to false, so a formula has exactly
as many models over the cell variables as the puzzle has solutions.
"""

from __future__ import annotations

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.models.errors import BadOption
from queens.models.pieces import Cell


def variable(model: ConstraintModel, cell: Cell) -> int:
    """The number of `cell` in every export: r * cols + c + 1.

    >>> from queens.models import NQueens
    >>> variable(lower(NQueens(8)), (1, 2))
    11
    """
    return cell[0] * model.cols + cell[1] + 1


WITHOUT_OBJECTIVE = {"dimacs": "DIMACS CNF cannot say 'fewest pieces'",
                     "cpsat": "the cpsat backend's model has no objective (it asks for k pieces, k after k)"}
"""The formats that cannot say "the fewest pieces", and why."""


def decision_model(puzzle: Puzzle, size: int | None, format_name: str) -> ConstraintModel:
    """The lowered puzzle; a minimising one needs a size in formats without an objective. A size
    the puzzle cannot have (3 pieces of 5-queens) is refused: the file would be unsatisfiable
    by the puzzle's own count, not by the question it asks."""
    model = lower(puzzle)
    if size is not None:
        army = puzzle.armies[0]
        least, most = army.least, len(model.cells) if army.most is None else min(army.most, len(model.cells))
        if model.size is not None and size != model.size or not least <= size <= most:
            can = f"exactly {model.size}" if model.size is not None else f"{least} to {most}"
            raise BadOption(f"--size {size}: {puzzle.name} places {can} pieces; --size picks one count a puzzle "
                            "leaves open (domination's fewest)")
        return model.with_size(size)
    if model.minimise and format_name in WITHOUT_OBJECTIVE:
        raise Unsupported(f"{WITHOUT_OBJECTIVE[format_name]}: give a size (--size K), "
                          "or export to opb or mzn, which have an objective")
    return model


def blocked(model: ConstraintModel) -> list[Cell]:
    free = set(model.cells)
    return [(r, c) for r in range(model.rows) for c in range(model.cols) if (r, c) not in free]


def title(puzzle: Puzzle, model: ConstraintModel) -> str:
    """What a file's first comment line says the puzzle is."""
    return f"{puzzle.name}: {model.rows} x {model.cols} board, {puzzle.piece.name}s"


def header(title: str, model: ConstraintModel, comment: str) -> list[str]:
    """A file's first comment lines: the title, and the board's numbering drawn as the board.

    >>> from queens.models import NQueens
    >>> print("\\n".join(header("4-queens", lower(NQueens(4)), "c")))
    c 4-queens
    c cell (r, c) is variable r*4 + c + 1, row by row:
    c   1  2  3  4
    c   5  6  7  8
    c   9 10 11 12
    c  13 14 15 16
    """
    width = len(str(model.rows * model.cols))
    lines = [f"{comment} {title}", f"{comment} cell (r, c) is variable r*{model.cols} + c + 1, row by row:"]
    for r in range(model.rows):
        lines.append(f"{comment}  " + " ".join(f"{variable(model, (r, c)):>{width}}" for c in range(model.cols)))
    return lines
