"""`queens export`: a puzzle written out for other solvers, each format in its own module: DIMACS
CNF and the conflict graph (`dimacs`), MiniZinc model + data (`minizinc`), OPB (`opb`). Every
format numbers the board the same way (`board_numbering`).
"""

from __future__ import annotations

from queens.models import Puzzle
from queens.models.errors import BadOption
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS
from queens.solvers.formats.dimacs import dimacs, dimacs_col
from queens.solvers.formats.minizinc import minizinc
from queens.solvers.formats.opb import opb

FORMATS = ("dimacs", "mzn", "opb", "dimacs-col")
__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "FORMATS", "exported"]


def exported(puzzle: Puzzle, format_name: str, encoding: str | None = None,
             size: int | None = None) -> dict[str, str]:
    """The files of `puzzle` in `format_name`, by suffix: "" is the file named, ".dzn" MiniZinc's
    data beside it (on stdout the two make one file: MiniZinc accepts data inside a model).

    >>> sorted(exported(__import__("queens").models.NQueens(4), "mzn"))
    ['', '.dzn']
    """
    if format_name != "dimacs" and encoding is not None:
        raise BadOption("--encoding applies to --format dimacs only")
    if format_name == "dimacs-col":
        return {"": dimacs_col(puzzle)}
    if not puzzle.plain:
        raise BadOption(f"{puzzle.name} is not one army on a 2-D board: it exports as --format dimacs-col "
                        "(its conflict graph)")
    if format_name == "dimacs":
        return {"": dimacs(puzzle, encoding or DEFAULT_ENCODING, size=size)}
    if format_name == "opb":
        return {"": opb(puzzle, size=size)}
    model, data = minizinc(puzzle, size=size)
    return {"": model, ".dzn": data}
