"""Placement files: `solve --out`, `generate completion`, `verify`.

Everything here works on column arrays (one int32 per row) and streams to files, so n = 10^7
never becomes a Python list of cells or a drawn board.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar, cast

import click
import numpy as np

from queens.commands.answer import payload, print_payload
from queens.commands.common import command, err, group, json_option, out
from queens.commands.number_options import Count, Size
from queens.models import NQueens, Puzzle, QueensError
from queens.models.errors import BadOption
from queens.models.generate import planted, random_placement
from queens.models.output import STANDARD_OUTPUT, STDOUT, check_writable, is_stdout
from queens.models.placement_file import FORMATS, write_placement
from queens.solvers import Result, native
from queens.solvers.backend import Task
from queens.solvers.routing.strategies import registered
from queens.solvers.routing.strategy import Subject

F = TypeVar("F", bound=Callable[..., object])
"""A command function, before click turns it into a command."""


def output_options(command: F) -> F:
    """--seed, --out, --format: added to `queens solve`."""
    command = click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                           help="--out format: npy (int32 columns), text ('row col' lines), perm "
                                "(one line of columns). Default: npy for *.npy, else text. Without --out: "
                                "the solution on stdout in this format, instead of the board.")(command)
    command = click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
                           help="Write the solution to FILE (streamed; for large boards); - for stdout.")(command)
    return click.option("--seed", type=Count(0, 2**64 - 1), default=None,
                        help="random, complete: the random seed [default: 0].")(command)


def placement_target(out_path: Path | None, fmt: str | None) -> Path | None:
    """Where a placement goes: --out FILE, or stdout for `--out -` and for a --format given
    without --out (a format asked for is never ignored). Refused at once when it cannot be
    written (`queens.models.output.check_writable`) or is binary on stdout."""
    target = Path(STDOUT) if out_path is None and fmt is not None else out_path
    check_writable(target, "--out")
    if target is not None and is_stdout(target) and _format_for(target, fmt) == "npy":
        raise BadOption("--format npy is binary: give --out FILE")
    return target


def _format_for(path: Path, fmt: str | None) -> str:
    return fmt or ("npy" if path.suffix == ".npy" else "text")


def save_columns(columns: np.ndarray, out_path: Path, fmt: str | None) -> None:
    """Write a solution (column of each row) to exactly `out_path` ("-": stdout), saying where on stderr."""
    start = time.perf_counter()
    write_placement(out_path, columns, _format_for(out_path, fmt))
    where = "stdout" if is_stdout(out_path) else out_path
    err.print(f"wrote {where} ({_format_for(out_path, fmt)}) in {time.perf_counter() - start:.3f} s", markup=False)


def _columns(n: int, cells: Iterable[tuple[int, ...]]) -> np.ndarray:
    """The column of each of `n` rows' piece (-1 for an empty row); two in a row is an error."""
    columns = np.full(n, -1, np.int32)
    for r, c in cells:
        if columns[r] >= 0:
            raise QueensError(f"--out writes one piece per row; row {r} holds two")
        columns[r] = c
    return columns


def save_result(puzzle: Puzzle, result: Result, out_path: Path, fmt: str | None) -> None:
    """Write the solution as columns (-1 for an empty row): the files hold pieces on a square
    board, at most one per row (what `verify` checks)."""
    if result.columns is not None:
        save_columns(result.columns, out_path, fmt)
        return
    if result.solution is None:
        return
    if not puzzle.square:
        raise QueensError(f"--out writes square boards; {puzzle.name} is {puzzle.rows}x{puzzle.cols}")
    save_columns(_columns(puzzle.rows, (cell for cells in puzzle.per_army(result.solution) for cell in cells)),
                 out_path, fmt)


@group("generate", examples=(
    "queens generate completion -n 100 -k 40 --seed 1 --out c.txt   # 40 queens of a solution",
    "queens generate completion -n 8 -k 3 --kind random             # may have no completion",
))
def generate_command() -> None:
    """Generate problem instances (seeded, reproducible)."""


@generate_command.command("completion", examples=(
    "queens generate completion -n 100 -k 40 --out c.txt && queens solve completion -n 100 --queens c.txt",
    "queens generate completion -n 8 -k 3 --kind random --format perm",
))
@click.option("-n", "n", type=Size(), required=True, help="Board size.")
@click.option("-k", "k", type=Count(0), required=True, help="Queens to pre-place.")
@click.option("--kind", type=click.Choice(["planted", "random"]), default="planted", show_default=True,
              help="planted: k queens of a random solution (always solvable); random: Gent, Jefferson & "
                   "Nightingale's generator (may have no completion).")
@click.option("--seed", type=Count(0, 2**64 - 1), default=0, show_default=True, help="Random seed.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of stdout (- is stdout).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text ('row col' lines, default), npy or perm (-1 = empty row).")
def generate_completion(n: int, k: int, kind: str, seed: int, out_path: Path | None, fmt: str | None) -> int:
    """k pre-placed queens on an n x n board: input for `solve completion --queens FILE`."""
    if k > n:
        raise click.UsageError(f"-k {k}: at most n = {n} queens fit on an n x n board")
    target = placement_target(out_path, fmt or "text")
    native.require("_localsearch")
    from queens.solvers.native.local_search import random_solution

    err.print(f"generating a {kind} completion instance: n = {n}, k = {k}, seed = {seed} ...")
    if kind == "planted":
        solution = random_solution(n, seed=seed)
        if solution is None:
            raise click.UsageError(f"{n}-queens has no solution to plant queens from")
        # planted reads len() and items only, and a copy as a list would cost 10^7 Python ints
        queens = planted(cast(Sequence[int], solution), k, seed)
    else:
        queens = random_placement(n, k, seed)
    columns = _columns(n, queens)
    if target is not None and is_stdout(target):
        write_placement(STANDARD_OUTPUT, columns, fmt or "text")
    elif target is not None:
        save_columns(columns, target, fmt)
    return 0


@command("verify", examples=(
    "queens solve nqueens -n 1000 --out q1000.txt && queens verify q1000.txt",
    "queens generate completion -n 100 -k 40 --out c.txt && queens verify c.txt --json",
))
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-n", "n", type=Size(), default=None,
              help="Board size, when the file does not say (a 'row col' file without '# n=N').")
@json_option
def verify_command(path: Path, n: int | None, as_json: bool) -> int:
    """Check a placement file (npy, 'row col' text, or one line of columns) in O(n)."""
    if not path.is_file():
        raise QueensError(f"{path}: no such file")
    verifier = next(s for s in registered() if Task.VERIFY in s.tasks)
    result = verifier.run(Subject(NQueens(n or 1)), Task.VERIFY, None, {"path": path, "n": n})
    side, queens, elapsed = int(result.stats["n"]), result.count or 0, result.wall_time
    kind = "solution" if queens == side else "partial placement"
    if as_json:
        print_payload(payload("verify", NQueens(side), result, verified=True, file=str(path), queens=queens,
                              kind=kind))
    elif queens == side:
        out.print(f"{path}: a valid {side}-queens solution (checked in {elapsed:.3f} s)")
    else:
        noun = "queen" if queens == 1 else "queens"
        out.print(f"{path}: a valid partial placement, {queens} {noun} on {side}x{side}, none attacking "
                  f"(checked in {elapsed:.3f} s)")
    return 0
