"""`queens export`: a puzzle written out for other solvers, each format in its own module: DIMACS
CNF and the conflict graph (`dimacs`), MiniZinc model + data (`minizinc`), OPB (`opb`), and the
model the cpsat backend builds (`cpsat`, its builder handed in by the caller). Every format but
CP-SAT's numbers the board the same way (`board_numbering`).
"""

from __future__ import annotations

from queens.models import Puzzle
from queens.models.errors import BadOption
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS
from queens.solvers.formats.cpsat import ProtoBuilder, cpsat
from queens.solvers.formats.dimacs import dimacs, dimacs_col
from queens.solvers.formats.minizinc import HANDBOOK, Search, minizinc
from queens.solvers.formats.opb import opb

FORMATS = ("dimacs", "mzn", "opb", "cpsat", "dimacs-col")
__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "FORMATS", "exported"]


def exported(puzzle: Puzzle, format_name: str, encoding: str | None = None, size: int | None = None, *,
             var: str | None = None, val: str | None = None,
             builder: tuple[str, ProtoBuilder] | None = None) -> dict[str, str]:
    """The files of `puzzle` in `format_name`, by suffix: "" is the file named, ".dzn" MiniZinc's
    data beside it (on stdout the two make one file: MiniZinc accepts data inside a model).
    `encoding` is DIMACS's, `var` and `val` MiniZinc's search annotation (the half not given is
    the handbook's, `HANDBOOK`), `builder` the cpsat backend and its setting, for `cpsat`.

    >>> sorted(exported(__import__("queens").models.NQueens(4), "mzn"))
    ['', '.dzn']
    """
    if format_name != "dimacs" and encoding is not None:
        raise BadOption("--encoding applies to --format dimacs only")
    if format_name != "mzn" and (var, val) != (None, None):
        raise BadOption("--var and --val annotate the search of --format mzn only")
    if format_name == "dimacs-col":
        return {"": dimacs_col(puzzle)}
    if puzzle.copies_open:
        raise BadOption(f"{puzzle.name} is a search over models (its copies are open): it exports as "
                        "--format dimacs-col (its conflict graph)")
    if format_name == "dimacs":
        return {"": dimacs(puzzle, encoding or DEFAULT_ENCODING, size=size)}
    if format_name == "opb":
        return {"": opb(puzzle, size=size)}
    if format_name == "cpsat":
        if builder is None:
            raise BadOption("--format cpsat prints the cpsat backend's model: the caller hands the backend in")
        setting, backend = builder
        return {"": cpsat(puzzle, backend, setting, size=size)}
    model, data = minizinc(puzzle, size=size, search=Search.of(var, val, HANDBOOK))
    return {"": model, ".dzn": data}
