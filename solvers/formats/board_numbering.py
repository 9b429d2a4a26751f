"""The one numbering every export shares, so a learner can read one file against another: cell
(r, c) is variable r * cols + c + 1 (x1 is the top-left corner, row by row) when the puzzle's
cells are its variables; with armies or a cube, variable k is the model's k-th (army, cell) pair
(`ConstraintModel.numbering`: army by army, each army's cells in board order), and the header
says which. Blocked cells (pawns, forbidden squares) keep their number and are fixed to false,
so a formula has exactly as many models over the cell variables as the puzzle has solutions.
"""

from __future__ import annotations

from queens.models import ConstraintModel, Puzzle, Unsupported, lower
from queens.models.errors import BadOption
from queens.models.ir import Var


def variable(model: ConstraintModel, cell: Var) -> int:
    """The number of a variable in every export: r * cols + c + 1 on a board of cell
    variables, else its place in the model's numbering, from 1.

    >>> from queens.models import NQueens
    >>> variable(lower(NQueens(8)), (1, 2))
    11
    """
    if model.numbering:
        return model.index[cell] + 1
    return int(cell[0]) * model.cols + int(cell[1]) + 1


WITHOUT_OBJECTIVE = {"dimacs": "DIMACS CNF cannot say 'fewest pieces'",
                     "cpsat": "the cpsat backend's model has no objective (it asks for k pieces, k after k)"}
"""The formats that cannot say "the fewest pieces", and why."""


def decision_model(puzzle: Puzzle, size: int | None, format_name: str) -> ConstraintModel:
    """The lowered puzzle, refused where the format cannot say its goal: the fewest pieces in
    the formats without an objective, a goal over armies in every format but OPB. With `size`,
    the goal's question for that value: so many pieces (in every army with the goal). A size
    the puzzle cannot have (3 pieces of 5-queens) is refused: the file would be unsatisfiable
    by the puzzle's own count, not by the question it asks."""
    model = lower(puzzle)
    if size is not None:
        if model.objective is not None:
            return model.at_value(size)
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
    if model.objective is not None and format_name != "opb":
        groups = len(model.objective.groups)
        goal = "the total" if puzzle.total is not None else "the army's size" if groups == 1 else "equal armies"
        raise Unsupported(f"{format_name} cannot say the goal of {puzzle.name} ({model.objective.sense} {goal}): "
                          "give a size (--size K) for the file that asks for exactly K, or export to opb")
    return model


def blocked(model: ConstraintModel) -> list[Var]:
    free = set(model.cells)
    if model.numbering:
        return [var for var in model.numbering if var not in free]
    return [(r, c) for r in range(model.rows) for c in range(model.cols) if (r, c) not in free]


def title(puzzle: Puzzle, model: ConstraintModel) -> str:
    """What a file's first comment line says the puzzle is."""
    if not model.numbering:
        return f"{puzzle.name}: {model.rows} x {model.cols} board, {puzzle.piece.name}s"
    armies = ", ".join(f"{army.name} ({army.piece.name}s)" for army in puzzle.armies)
    return f"{puzzle.name}: {' x '.join(map(str, puzzle.shape))} board, {armies}"


def header(title: str, model: ConstraintModel, comment: str) -> list[str]:
    """A file's first comment lines: the title, and the board's numbering drawn as the board (with
    armies or a cube, which (army, cell) each number is).

    >>> from queens.models import NQueens
    >>> print("\\n".join(header("4-queens", lower(NQueens(4)), "c")))
    c 4-queens
    c cell (r, c) is variable r*4 + c + 1, row by row:
    c   1  2  3  4
    c   5  6  7  8
    c   9 10 11 12
    c  13 14 15 16
    """
    if model.numbering:
        return [f"{comment} {title}", *_army_rows(model, comment)]
    width = len(str(model.rows * model.cols))
    lines = [f"{comment} {title}", f"{comment} cell (r, c) is variable r*{model.cols} + c + 1, row by row:"]
    for r in range(model.rows):
        lines.append(f"{comment}  " + " ".join(f"{variable(model, (r, c)):>{width}}" for c in range(model.cols)))
    return lines


def _army_rows(model: ConstraintModel, comment: str) -> list[str]:
    """Which (army, cell) each number is: one comment line per army and row of cells."""
    rows: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for number, (army, cell) in enumerate(model.numbering, 1):
        rows.setdefault((army, cell[:-1]), []).append(number)
    return [f"{comment} variable k is army a on cell (..., c), army by army, cells in board order",
            *(f"{comment} army {army}, cells ({', '.join(map(str, prefix))}, c): " + " ".join(map(str, numbers))
              for (army, prefix), numbers in rows.items())]
