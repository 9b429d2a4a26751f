"""Large boards: `solve --method construct|random|complete`, `generate completion`, `verify`.

Everything here works on column arrays (one int32 per row) and streams to files, so n = 10^7
never becomes a Python list of cells, a Puzzle with O(k^2) checks, or a drawn board.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import click
import numpy as np

from queens.commands.common import err, json_option, out, print_json
from queens.families import FAMILIES, pre_placed_cells
from queens.models import NQueens, Puzzle, QueensError, TimeLimit
from queens.models.generate import planted, random_placement
from queens.models.placement_file import FORMATS, write_placement
from queens.models.verify_stream import verify_file
from queens.pictures import MAX_DRAWN, Board
from queens.solvers.completion import solve_completion
from queens.solvers.construct import construct
from queens.solvers.local_search import random_solution

METHODS = ("search", "construct", "random", "complete")
"""search: the chosen backend (any family); the others are for n-queens and its completion."""
MAX_LISTED = 1000
"""Largest n whose solution is printed cell by cell; beyond it, use --out FILE."""


def method_options(command: Callable) -> Callable:
    """--method, --seed, --out, --format: added to `queens solve`."""
    command = click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                           help="--out format: npy (int32 columns), text ('row col' lines), perm "
                                "(one line of columns). Default: npy for *.npy, else text.")(command)
    command = click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
                           help="Write the solution to FILE (streamed; for large boards).")(command)
    command = click.option("--seed", type=int, default=0, show_default=True,
                           help="random, complete: the random seed.")(command)
    return click.option("--method", type=click.Choice(METHODS), default="search", show_default=True,
                        help="search: the backend; construct: O(n) formula; random: local search; "
                             "complete: exact completion solver (nqueens, completion).")(command)


def _format_for(path: Path, fmt: str | None) -> str:
    return fmt or ("npy" if path.suffix == ".npy" else "text")


def save_columns(columns: np.ndarray, out_path: Path, fmt: str | None) -> None:
    """Write a solution (column of each row) to `out_path`, saying where on stderr."""
    start = time.perf_counter()
    write_placement(out_path, columns, _format_for(out_path, fmt))
    err.print(f"wrote {out_path} ({_format_for(out_path, fmt)}) in {time.perf_counter() - start:.3f} s")


def _columns(n: int, cells: Iterable[tuple[int, int]]) -> np.ndarray:
    """The column of each of `n` rows' piece (-1 for an empty row); two in a row is an error."""
    columns = np.full(n, -1, np.int32)
    for r, c in cells:
        if columns[r] >= 0:
            raise QueensError(f"--out writes one piece per row; row {r} holds two")
        columns[r] = c
    return columns


def save_cells(puzzle: Puzzle, cells: tuple[tuple[int, int], ...], out_path: Path, fmt: str | None) -> None:
    """Write a placement found by a backend, as columns (-1 for an empty row).

    The files hold queens on a square board, at most one per row (what `verify` checks).
    """
    if not puzzle.square:
        raise QueensError(f"--out writes square boards; {puzzle.name} is {puzzle.rows}x{puzzle.cols}")
    save_columns(_columns(puzzle.rows, cells), out_path, fmt)


def _pre_placed(family: str, n: int) -> np.ndarray:
    """The completion's queens as a (k, 2) array, read in O(k).

    Not through `make_puzzle`: a Puzzle checks its fixed queens pairwise, O(k^2), which is
    minutes for 10^4 queens; the solver checks them in O(n + k) instead.
    """
    options = click.get_current_context().meta.get("family options", {})
    unusable = sorted(set(options) - FAMILIES[family].accepts)
    if unusable:
        raise click.UsageError(f"--{unusable[0]} does not apply to {family} with --method complete")
    if family == "nqueens":
        return np.empty((0, 2), np.int64)
    return pre_placed_cells(options.get("queens"), options.get("vector"), n)


def solve_large(family: str, n: int, m: int | None, method: str, *, seed: int, time_limit: float | None,
                out_path: Path | None, fmt: str | None, as_json: bool) -> int:
    """`queens solve --method construct|random|complete`: one solution as a column array."""
    if m is not None:
        raise click.UsageError(f"--method {method} is for square boards: use -n only")
    allowed = ("nqueens", "completion") if method == "complete" else ("nqueens",)
    if family not in allowed:
        raise click.UsageError(f"--method {method} solves {' and '.join(allowed)}, not {family}")
    name = f"{n}-queens" if family == "nqueens" else f"{n}-queens completion"
    err.print(f"solving {name} by {method} ...")
    start = time.perf_counter()
    stats: dict[str, int | float | str] = {}
    try:
        if method == "construct":
            columns = construct(n)
        elif method == "random":
            columns = random_solution(n, seed=seed, time_limit=time_limit)
        else:
            result = solve_completion(n, _pre_placed(family, n), seed=seed, time_limit=time_limit)
            columns, stats = result.columns, {"by": result.method, **result.stats}
    except TimeLimit as limit:
        err.print(str(limit))
        out.print(f"{name}: time limit")
        return 1
    elapsed = time.perf_counter() - start
    status = "no solution" if columns is None else "solved"
    err.print(f"{status} in {elapsed:.3f} s" + ("" if columns is None else " (verified)"))
    if columns is not None and out_path is not None:
        save_columns(columns, out_path, fmt)
    listed = columns is not None and n <= MAX_LISTED
    if as_json:
        print_json({"puzzle": {"name": name, "rows": n, "cols": n},
                    "result": {"method": method, "status": status, "wall_time": round(elapsed, 6), "stats": stats,
                               "out": None if out_path is None else str(out_path),
                               "columns": columns.tolist() if listed else None}})
        return 0
    out.print(f"{name}: {status} by {method} in {elapsed:.3f} s")
    if listed:
        if n <= MAX_DRAWN:
            out.print(Board(NQueens(n), tuple(enumerate(columns.tolist()))).text(unicode=True))
        out.print("cells: " + " ".join(f"{r},{c}" for r, c in enumerate(columns.tolist())))
    elif columns is not None and out_path is None:
        out.print(f"{n} columns not printed (more than {MAX_LISTED}): use --out FILE")
    return 0


@click.group("generate")
def generate_command() -> None:
    """Generate problem instances (seeded, reproducible)."""


@generate_command.command("completion")
@click.option("-n", "n", type=click.IntRange(min=1), required=True, help="Board size.")
@click.option("-k", "k", type=click.IntRange(min=0), required=True, help="Queens to pre-place.")
@click.option("--kind", type=click.Choice(["planted", "random"]), default="planted", show_default=True,
              help="planted: k queens of a random solution (always solvable); random: Gent, Jefferson & "
                   "Nightingale's generator (may have no completion).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of stdout.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text ('row col' lines, default), npy or perm (-1 = empty row).")
def generate_completion(n: int, k: int, kind: str, seed: int, out_path: Path | None, fmt: str | None) -> int:
    """k pre-placed queens on an n x n board: input for `solve completion --queens FILE`."""
    err.print(f"generating a {kind} completion instance: n = {n}, k = {k}, seed = {seed} ...")
    if kind == "planted":
        solution = random_solution(n, seed=seed)
        if solution is None:
            raise click.UsageError(f"{n}-queens has no solution to plant queens from")
        queens = planted(solution, k, seed)
    else:
        queens = random_placement(n, k, seed)
    columns = _columns(n, queens)
    if out_path is None:
        write_placement(click.get_text_stream("stdout"), columns, fmt or "text")
    else:
        save_columns(columns, out_path, fmt)
    return 0


@click.command("verify")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-n", "n", type=click.IntRange(min=1), default=None,
              help="Board size, when the file does not say (a 'row col' file without '# n=N').")
@json_option
def verify_command(path: Path, n: int | None, as_json: bool) -> int:
    """Check a placement file (npy, 'row col' text, or one line of columns) in O(n)."""
    start = time.perf_counter()
    side, queens = verify_file(path, n)
    elapsed = time.perf_counter() - start
    kind = "solution" if queens == side else "partial placement"
    if as_json:
        print_json({"file": str(path), "n": side, "queens": queens, "valid": True, "kind": kind,
                    "wall_time": round(elapsed, 6)})
    elif queens == side:
        out.print(f"{path}: a valid {side}-queens solution (checked in {elapsed:.3f} s)")
    else:
        out.print(f"{path}: a valid partial placement, {queens} queens on {side}x{side}, none attacking "
                  f"(checked in {elapsed:.3f} s)")
    return 0
