"""`queens export`: the puzzle as DIMACS CNF, MiniZinc (model + data), OPB or the cpsat backend's
CP-SAT model, for other solvers and for readers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import click

from queens.commands.common import command, echo, err, make_puzzle, puzzle_options
from queens.commands.number_options import Count
from queens.models import BackendUnavailable, Unsupported
from queens.models.errors import BadOption
from queens.models.output import check_writable, is_stdout, write_file
from queens.solvers.formats.cpsat import ProtoBuilder
from queens.solvers.formats.minizinc import VALUE_CHOICES, VARIABLE_CHOICES


def _exporters() -> ModuleType:
    """queens.solvers.formats.export, imported only when an export is asked for: it needs pysat, so without
    pysat `export` alone fails, with a message, and the other commands still start."""
    try:
        from queens.solvers.formats import export
    except ImportError as error:
        raise BackendUnavailable(f"export needs the sat backend's library ({error}); pip install python-sat") from None
    return export


class _LazyChoice(click.Choice[str]):
    """A click.Choice whose values are read from queens.solvers.formats.export only when the option is used."""

    def __init__(self, values: Callable[[], Sequence[str]]) -> None:
        self._values = values
        self.case_sensitive = True

    @property
    def choices(self) -> Sequence[str]:
        return tuple(self._values())

    @choices.setter
    def choices(self, values: Sequence[str]) -> None:
        """click.Choice's own attribute, set by its __init__ (not called here): the values are the exporter's."""
        raise AttributeError("the choices of --format and --encoding are read from queens.solvers.formats.export")


@command("export", examples=(
    "queens export nqueens -n 8 --format dimacs -o q8.cnf",
    "queens export colouring -n 8 --format dimacs-col   # the queen8_8 graph",
))
@puzzle_options
@click.option("--format", "format_name", type=_LazyChoice(lambda: _exporters().FORMATS), required=True,
              help="The file format.")
@click.option("--encoding", type=_LazyChoice(lambda: list(_exporters().ENCODINGS)), default=None,
              help=("dimacs: the cardinality encoding of each line "
                    "[default: queens.solvers.formats.cnf.DEFAULT_ENCODING]."))
@click.option("--var", type=click.Choice(VARIABLE_CHOICES), default=None,
              help="mzn: the search's variable choice, in MiniZinc's names [default: first_fail].")
@click.option("--val", type=click.Choice(VALUE_CHOICES), default=None,
              help="mzn: the search's value choice, in MiniZinc's names [default: indomain_min].")
@click.option("--viewpoint", default=None,
              help="cpsat: the backend's viewpoint, boolean|alldifferent [default: boolean].")
@click.option("--size", type=Count(0), default=None,
              help="Exactly this many pieces (needed for DIMACS and CP-SAT of a minimising family such as domination).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file (mzn: the model here, the data beside it as .dzn); default (or -) stdout.")
def export_command(family_or_file: str, n: int | None, m: int | None, format_name: str, encoding: str | None,
                   var: str | None, val: str | None, viewpoint: str | None, size: int | None,
                   output: Path | None) -> int:
    """Write the puzzle for another solver; cell (r, c) is variable r*cols + c + 1 in every format but
    CP-SAT's (its own variables), and the MiniZinc textbook model's q[i] counts rows and columns from 1."""
    export = _exporters()
    check_writable(output, "--output")
    puzzle = make_puzzle(family_or_file, n, m)
    if viewpoint is not None and format_name != "cpsat":
        raise BadOption("--viewpoint applies to --format cpsat only")
    builder = _cpsat(viewpoint or "boolean") if format_name == "cpsat" else None
    written = export.exported(puzzle, format_name, encoding, size, var=var, val=val, builder=builder)
    if output is None or is_stdout(output):  # MiniZinc accepts data assignments inside a model: one on stdout
        echo("\n".join(written.values()))
        return 0
    files = {output.with_suffix(suffix) if suffix else output: text for suffix, text in written.items()}
    for path, text in files.items():
        err.print(f"wrote {write_file(path, text + ('' if text.endswith(chr(10)) else chr(10)))}", markup=False)
    return 0


def _cpsat(viewpoint: str) -> tuple[str, ProtoBuilder]:
    """The cpsat backend in `viewpoint`, which builds the model `--format cpsat` prints (imported
    only then: OR-Tools takes a quarter of a second to load)."""
    try:
        from queens.solvers.backends.cpsat import CpSat
    except ImportError as error:
        raise BackendUnavailable(f"--format cpsat needs OR-Tools ({error}); pip install ortools") from None
    try:
        return viewpoint, CpSat(viewpoint=viewpoint)
    except Unsupported as error:  # a viewpoint it does not know: a usage error
        raise BadOption(str(error)) from None
