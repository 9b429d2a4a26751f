"""Options and output shared by the commands: the family, the backend, --json."""

from __future__ import annotations

import json
from collections.abc import Callable

import click
from rich.console import Console

from models import Puzzle
from queens.families import FAMILIES, FamilyOptions, build
from solvers import BACKENDS

out = Console(highlight=False, soft_wrap=True)
"""Results go to stdout..."""
err = Console(stderr=True, highlight=False, soft_wrap=True)
"""...progress, logs and errors to stderr."""


def puzzle_options(command: Callable) -> Callable:
    """FAMILY -n N [-m M]: the puzzle to work on."""
    command = click.option("-m", "m", type=int, default=None, help="Columns, for rectangular boards.")(command)
    command = click.option("-n", "n", type=int, required=True, help="Board size (rows).")(command)
    return click.argument("family", type=click.Choice(list(FAMILIES)))(command)


def backend_options(*, allow_all: bool) -> Callable:
    choices = [*BACKENDS, "all"] if allow_all else list(BACKENDS)

    def decorate(command: Callable) -> Callable:
        command = click.option("--encoding", default=None, help="sat: CNF encoding (e.g. seqcounter, pairwise, ladder).")(command)
        command = click.option("--viewpoint", default=None, help="cpsat: boolean|alldifferent; csp: rows|boolean.")(command)
        command = click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
                               help="Seconds before giving up.")(command)
        return click.option("--backend", "-b", type=click.Choice(choices), default="cpsat" if not allow_all else "all",
                            show_default=True, help="Which solver backend.")(command)
    return decorate


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")


def make_puzzle(family: str, n: int, m: int | None) -> Puzzle:
    return build(family, FamilyOptions(n=n, m=m))


def backend_settings(backend: str, viewpoint: str | None, encoding: str | None) -> dict:
    """The options that `backend` takes, from the flags; a flag it cannot use is an error."""
    settings = {}
    if viewpoint is not None:
        if backend not in ("cpsat", "csp"):
            raise click.UsageError(f"--viewpoint does not apply to the {backend} backend")
        settings["viewpoint"] = viewpoint
    if encoding is not None:
        if backend != "sat":
            raise click.UsageError(f"--encoding does not apply to the {backend} backend")
        settings["encoding"] = encoding
    return settings


def describe(puzzle: Puzzle) -> dict:
    return {"name": puzzle.name, "rows": puzzle.rows, "cols": puzzle.cols, "piece": puzzle.piece.name,
            "pieces": puzzle.pieces, "toroidal": puzzle.toroidal}


def print_json(payload: dict) -> None:
    click.echo(json.dumps(payload, indent=2))
