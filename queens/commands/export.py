"""`queens export`: the puzzle as DIMACS CNF, MiniZinc (model + data) or OPB, for other solvers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import click

from queens.commands.common import err, make_puzzle, puzzle_options
from queens.commands.number_options import Count
from queens.models import BackendUnavailable, QueensError


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


@click.command("export")
@puzzle_options
@click.option("--format", "format_name", type=_LazyChoice(lambda: _exporters().FORMATS), required=True,
              help="The file format.")
@click.option("--encoding", type=_LazyChoice(lambda: list(_exporters().ENCODINGS)), default=None,
              help=("dimacs: the cardinality encoding of each line "
                    "[default: queens.solvers.formats.cnf.DEFAULT_ENCODING]."))
@click.option("--size", type=Count(0), default=None,
              help="Exactly this many pieces (needed for DIMACS of a minimising family such as domination).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file (mzn: the model here, the data beside it as .dzn); default stdout.")
def export_command(family_or_file: str, n: int | None, m: int | None, format_name: str, encoding: str | None,
                   size: int | None,
                   output: Path | None) -> int:
    """Write the puzzle for another solver; cell (r, c) is variable r*cols + c + 1 in every format."""
    export = _exporters()
    puzzle = make_puzzle(family_or_file, n, m)
    if output is None:  # MiniZinc accepts data assignments inside a model: on stdout the files make one
        files: dict[Path | None, str] = {None: "\n".join(export.exported(puzzle, format_name, encoding, size).values())}
    else:
        files = {output.with_suffix(suffix) if suffix else output: text
                 for suffix, text in export.exported(puzzle, format_name, encoding, size).items()}
    for path, text in files.items():
        if path is None:
            click.echo(text)
        else:
            try:
                path.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
            except OSError as error:
                raise QueensError(f"cannot write {path}: {error.strerror}") from None
            err.print(f"wrote {path}")
    return 0
