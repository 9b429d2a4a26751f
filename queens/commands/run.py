"""`queens run FILE`: what a puzzle file's `[goal]` asks (`task`, and `unique` for a count), by
the same commands a user would type: `task = "count"` runs `queens count` (with `--unique` when
the file says `unique = true`), "solve" and "optimise" run `queens solve`, "enumerate" lists
every answer (`queens solve --all-optimal` for a puzzle with a goal, every solution otherwise).
"""

from __future__ import annotations

import os

import click

from queens.commands.answer import answered_by, payload, print_payload
from queens.commands.common import (
    backend_options,
    backend_settings,
    command,
    json_option,
    out,
    parameter_option,
    published_file,
)
from queens.commands.count import count_command
from queens.commands.number_options import Size
from queens.commands.solve import solve_command
from queens.models import Puzzle
from queens.models.drawing import Board
from queens.models.errors import BadOption
from queens.models.puzzle_file import read
from queens.solvers.options import Options
from queens.solvers.routing.router import every_answer


class PuzzleFile(click.Path):
    """An existing puzzle file, or a published puzzle by its OEIS id (`queens run A103330 -n 8`)."""

    def __init__(self) -> None:
        super().__init__(exists=True, dir_okay=False)

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        return super().convert(published_file(str(value)) or value, param, ctx)


@command("run", examples=(
    "queens run A007016 -n 6                              # what a published puzzle file asks",
    "queens run models/puzzles/peaceable.toml -n 5        # a puzzle file of the clone",
))
@click.argument("path", type=PuzzleFile())
@click.option("-n", "n", type=Size(minimum=None), default=None, help="The parameter n of the file's expressions.")
@parameter_option
@backend_options(allow_all=False)
@json_option
@click.pass_context
def run_command(ctx: click.Context, path: str, n: int | None, backend: str | None, time_limit: float | None,
                viewpoint: str | None, encoding: str | None, solver: str | None, as_json: bool) -> int:
    """Do what the puzzle file's [goal] asks: its task, and unique for a count."""
    spec = read(path, n, ctx.meta.get("parameters", {}))
    common = {"family_or_file": path, "n": n, "m": None, "backend": backend, "time_limit": time_limit,
              "viewpoint": viewpoint, "encoding": encoding, "solver": solver, "as_json": as_json}
    if spec.unique and spec.task != "count":
        raise BadOption(f"{path}: [goal] unique counts classes, so it goes with task = \"count\", not {spec.task!r}")
    if spec.task == "count":
        return int(ctx.invoke(count_command, **common, unique=spec.unique or None))
    if spec.task == "enumerate":
        return _enumerate(spec.puzzle, backend, time_limit, backend_settings(viewpoint, encoding, solver), as_json)
    return int(ctx.invoke(solve_command, **common))


def _enumerate(puzzle: Puzzle, backend: str | None, time_limit: float | None, settings: Options,
               as_json: bool) -> int:
    result = every_answer(puzzle, backend, time_limit=time_limit, **settings)
    if as_json:
        print_payload(payload("run", puzzle, result, verified=True))
    else:
        out.print(f"{puzzle.name}: {result.count:,} answers by {answered_by(result)}", markup=False)
        for solution in result.solutions:
            out.print(Board(puzzle, solution).text(unicode=True) + "\n", markup=False)
    return 1 if result.status.value == "time limit" else 0
