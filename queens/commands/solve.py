"""`queens solve` and `queens show`: one solution, as a board and as data.

The router picks the strategy (--backend and --method narrow it): the construction for plain
n-queens, the completion solver for any board with that structure and pre-placed queens, a
backend's search otherwise. The answer says which strategy answered and why.
"""

from __future__ import annotations

from pathlib import Path

import click

from queens.commands.answer import answered_by, payload, print_payload
from queens.commands.armies import answer_armies
from queens.commands.common import (
    backend_options,
    backend_settings,
    err,
    explain_none,
    json_option,
    make_puzzle,
    method_option,
    out,
    puzzle_options,
)
from queens.commands.large import check_writable, output_options, save_result
from queens.commands.progress import progress_option, progress_shown
from queens.models import Puzzle
from queens.models.armies import ArmyPuzzle
from queens.models.families import Target
from queens.pictures import MAX_DRAWN, Board, heat_map
from queens.solvers import Result, Status
from queens.solvers.backend import Task
from queens.solvers.classes import solve_target
from queens.solvers.strategies import MAX_LISTED


def _solve(family: str, n: int, m: int | None, backend: str | None, method: str | None,
           time_limit: float | None, options: dict[str, object], target: Target) -> tuple[Puzzle, Result]:
    err.print(f"solving {target.name} ...")
    with progress_shown():
        puzzle, result = solve_target(target, backend, method=method, time_limit=time_limit, **options)
    err.print(f"{result.status.value}: {answered_by(result)}")
    if result.status is Status.INFEASIBLE and (note := explain_none(family, n, m)):
        err.print(f"why: {note}")
    return puzzle or (target if isinstance(target, Puzzle) else target.choices[0][0]), result


def _exit_code(result: Result) -> int:
    return 1 if result.status is Status.LIMIT else 0


@click.command("solve")
@puzzle_options
@backend_options(allow_all=False)
@method_option(Task.SOLVE, Task.OPTIMISE, Task.COMPLETE)
@output_options
@json_option
@click.option("--all-optimal", is_flag=True, help="Puzzles with a goal: list every optimal placement.")
@progress_option
def solve_command(family, n, m, backend, time_limit, viewpoint, encoding, method, seed, out_path, fmt,
                  as_json, all_optimal, progress) -> int:
    """Find one solution (the fewest pieces for domination, the optimum of a puzzle file's goal),
    by the fastest strategy that can."""
    check_writable(out_path)
    options = backend_settings(viewpoint, encoding) | ({} if seed is None else {"seed": seed})
    target = make_puzzle(family, n, m)
    if isinstance(target, ArmyPuzzle):
        return answer_armies("solve", target, backend, time_limit, options, as_json, all_optimal=all_optimal)
    puzzle, result = _solve(family, n, m, backend, None if method == "auto" else method, time_limit, options, target)
    if out_path is not None:
        save_result(puzzle, result, out_path, fmt)
    if as_json:
        print_payload(payload("solve", puzzle, result, verified=result.solution is not None or
                              result.columns is not None, out=None if out_path is None else str(out_path)))
        return _exit_code(result)
    _print_solution(puzzle, result, out_path)
    return _exit_code(result)


def _print_solution(puzzle: Puzzle, result: Result, out_path: Path | None) -> None:
    out.print(f"{puzzle.name}: {result.status.value} by {answered_by(result)}")
    if result.why:
        out.print(f"strategy: {result.backend}/{result.method}, {result.why}", markup=False)
    cells = result.solution
    if cells is not None:
        if puzzle.cols <= MAX_DRAWN:
            out.print(Board(puzzle, cells).text(unicode=True))
        out.print("cells: " + " ".join(f"{r},{c}" for r, c in cells))
    elif result.columns is not None and out_path is None:
        out.print(f"{len(result.columns):,} columns not printed (more than {MAX_LISTED:,}): use --out FILE")


@click.command("show")
@puzzle_options
@backend_options(allow_all=False)
@click.option("--plain", is_flag=True, help="ASCII grid: Q for a queen, . for an empty square.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Also write the board as SVG.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), help="Also write the board as PNG.")
@click.option("--heat-map", "heat_path", type=click.Path(dir_okay=False),
              help="Write how often each cell is used across all solutions (.svg, .png or .txt).")
@json_option
def show_command(family, n, m, backend, time_limit, viewpoint, encoding, plain, svg_path, png_path, heat_path,
                 as_json) -> int:
    """Draw one solution as a board (and as pictures with --svg/--png/--heat-map), found by a
    backend's search (default: the fastest backend that can)."""
    if n > MAX_DRAWN or (m or 0) > MAX_DRAWN:
        raise click.UsageError(f"show draws boards up to {MAX_DRAWN} wide; use solve for larger ones")
    for path in (svg_path, png_path, heat_path):
        check_writable(None if path is None else Path(path))
    target = make_puzzle(family, n, m)
    if isinstance(target, ArmyPuzzle):
        return answer_armies("show", target, backend, time_limit, backend_settings(viewpoint, encoding), as_json)
    puzzle, result = _solve(family, n, m, backend, "search", time_limit, backend_settings(viewpoint, encoding), target)
    for path in (svg_path, png_path):
        if path:
            err.print(f"wrote {Board.of(puzzle, result).save(path)}")
    if heat_path:
        err.print(f"wrote {heat_map(puzzle, backend or 'native', time_limit=time_limit).save(heat_path)}")
    drawing = Board(puzzle, result.solution or ()).text(unicode=not plain)
    if as_json:
        print_payload(payload("show", puzzle, result, verified=result.solution is not None,
                              board=drawing.splitlines()))
    elif result.solution is None:
        out.print(f"{puzzle.name}: {result.status.value}")
    else:
        out.print(drawing)
    return _exit_code(result)
