"""`queens solve` and `queens show`: one solution, as a board and as data."""

from __future__ import annotations

import click

from queens.commands.common import (
    backend_options,
    backend_settings,
    describe,
    err,
    explain_none,
    json_option,
    make_puzzle,
    out,
    print_json,
    puzzle_options,
)
from queens.commands.large import method_options, save_cells, solve_large
from queens.models import Puzzle
from queens.pictures import MAX_DRAWN, Board, heat_map
from queens.solvers import Result, Status
from queens.solvers.classes import solve_target


def _solve(family: str, n: int, m: int | None, backend: str, time_limit: float | None,
           viewpoint: str | None, encoding: str | None) -> tuple[Puzzle, Result]:
    target = make_puzzle(family, n, m)
    err.print(f"solving {target.name} with {backend} ...")
    puzzle, result = solve_target(target, backend, time_limit=time_limit,
                                  **backend_settings(backend, viewpoint, encoding))
    err.print(f"{result.status.value} in {result.wall_time:.3f} s")
    if result.status is Status.INFEASIBLE and (note := explain_none(family, n, m)):
        err.print(f"why: {note}")
    return puzzle or target, result


def _exit_code(result: Result) -> int:
    return 1 if result.status is Status.LIMIT else 0


@click.command("solve")
@puzzle_options
@backend_options(allow_all=False)
@method_options
@json_option
def solve_command(family, n, m, backend, time_limit, viewpoint, encoding, method, seed, out_path, fmt,
                  as_json) -> int:
    """Find one solution (the fewest pieces for domination)."""
    if method != "search":
        if backend != "cpsat" or viewpoint or encoding:
            raise click.UsageError("--backend, --viewpoint and --encoding apply to --method search only")
        return solve_large(family, n, m, method, seed=seed, time_limit=time_limit, out_path=out_path, fmt=fmt,
                           as_json=as_json)
    puzzle, result = _solve(family, n, m, backend, time_limit, viewpoint, encoding)
    if out_path is not None and result.solution is not None:
        save_cells(puzzle, result.solution, out_path, fmt)
    if as_json:
        print_json({"puzzle": describe(puzzle), "result": result.to_json()})
        return _exit_code(result)
    if result.solution is None:
        out.print(f"{puzzle.name}: {result.status.value}")
        return _exit_code(result)
    cells = result.solution
    out.print(f"{puzzle.name}: {result.status.value} by {backend} in {result.wall_time:.3f} s")
    if puzzle.cols <= MAX_DRAWN:
        out.print(Board(puzzle, cells).text(unicode=True))
    out.print("cells: " + " ".join(f"{r},{c}" for r, c in cells))
    return 0


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
    """Draw one solution as a board (and as pictures with --svg/--png/--heat-map)."""
    if n > MAX_DRAWN or (m or 0) > MAX_DRAWN:
        raise click.UsageError(f"show draws boards up to {MAX_DRAWN} wide; use solve for larger ones")
    puzzle, result = _solve(family, n, m, backend, time_limit, viewpoint, encoding)
    for path in (svg_path, png_path):
        if path:
            err.print(f"wrote {Board.of(puzzle, result).save(path)}")
    if heat_path:
        err.print(f"wrote {heat_map(puzzle, backend, time_limit=time_limit).save(heat_path)}")
    drawing = Board(puzzle, result.solution or ()).text(unicode=not plain)
    if as_json:
        print_json({"puzzle": describe(puzzle), "result": result.to_json(), "board": drawing.splitlines()})
    elif result.solution is None:
        out.print(f"{puzzle.name}: {result.status.value}")
    else:
        out.print(drawing)
    return _exit_code(result)
