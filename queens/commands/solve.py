"""`queens solve` and `queens show`: one answer to any puzzle, as a board and as data.

The router picks the strategy (--backend and --method narrow it): the construction for plain
n-queens, the completion solver for any board with that structure and pre-placed queens, a
backend's search (with its proof, for a goal), the fewest copies, the layouts of pawns the solver places.
The answer says which strategy answered and why. Every option is honoured for every puzzle or
refused before any work, with the reason.
"""

from __future__ import annotations

from pathlib import Path

import click

from queens.commands.answer import answered_by, payload, print_payload
from queens.commands.common import (
    backend_options,
    backend_settings,
    command,
    err,
    explain_none,
    json_option,
    make_puzzle,
    method_option,
    out,
    puzzle_options,
)
from queens.commands.compare import SOLVE, compare, refuse_for_all
from queens.commands.placements import output_options, placement_target, save_result
from queens.commands.progress import progress_option, progress_shown
from queens.models import Puzzle
from queens.models.drawing import MAX_DRAWN, Board, Canvas, Sheet
from queens.models.errors import BadOption
from queens.models.output import check_writable, is_stdout
from queens.solvers import Result, Status
from queens.solvers.backend import Task
from queens.solvers.learn.heat_map import heat_map, mappable
from queens.solvers.learn.symmetries import Image, group_of, image_sheet, images
from queens.solvers.options import Options
from queens.solvers.proofs.certificate import certify_answer
from queens.solvers.routing.router import Choice, answer, task_of
from queens.solvers.routing.router import all_optimal as every_optimum
from queens.solvers.routing.strategies import MAX_LISTED
from queens.solvers.runtime.extras import require


def _solve(family_or_file: str, n: int | None, m: int | None, puzzle: Puzzle, task: Task, backend: str | None,
           method: str | None, time_limit: float | None, options: Options) -> Result:
    def announce(choice: Choice) -> None:
        err.print(f"solving {puzzle.name} with {choice.strategy.name} ...", markup=False)

    with progress_shown():
        result = answer(task, puzzle, backend=backend, method=method, time_limit=time_limit, announce=announce,
                        **options)
    err.print(f"{result.status.value}: {answered_by(result)}", markup=False)
    if result.status is Status.INFEASIBLE and (note := explain_none(family_or_file, n, m)):
        err.print(f"why: {note}", markup=False)
    return result


def _exit_code(result: Result) -> int:
    return 1 if result.status is Status.LIMIT else 0


def refuse_out(puzzle: Puzzle, out_path: Path | None) -> None:
    """--out writes at most one piece per row of a square board (a row's column): refused at
    once for a puzzle whose answers may not be that (armies, a cube, pieces that share rows)."""
    if out_path is not None and not (puzzle.one_per_row and puzzle.square):
        raise BadOption(f"--out writes one piece per row of a square board; the answers of {puzzle.name} "
                        "need not be that: use --json")


@command("solve", examples=(
    "queens solve nqueens -n 8                # one solution, drawn",
    "queens solve peaceable -n 5              # 4 white and 4 black queens, proved optimal",
    "queens solve completion -n 8 --queens 0,0 --json",
))
@puzzle_options
@backend_options(allow_all=True)
@method_option(Task.SOLVE, Task.OPTIMISE, Task.COMPLETE)
@output_options
@json_option
@click.option("--symmetry/--no-symmetry", default=None,
              help="Puzzles with a goal: search the optimum among one placement per symmetry class (lex-leader "
                   "constraints over the board's symmetries and swaps of interchangeable armies; a colouring's "
                   "clique given copies 1..k); the answer's stats name the reduction. Default: where it pays.")
@click.option("--all-optimal", is_flag=True, help="Puzzles with a goal: list every optimal placement.")
@click.option("--certify", is_flag=True,
              help="Prove a 'no solution' or an optimum: a DRUP proof of the puzzle's CNF, checked by drup and "
                   "dratify (docs/certificates.md).")
@click.option("--proof-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --certify: keep the CNF and the proof in this folder.")
@progress_option
def solve_command(family_or_file: str, n: int | None, m: int | None, backend: str | None, time_limit: float | None,
                  viewpoint: str | None, encoding: str | None,
                  solver: str | None, method: str, seed: int | None, out_path: Path | None,
                  fmt: str | None, as_json: bool, symmetry: bool | None, all_optimal: bool, certify: bool,
                  proof_dir: Path | None, progress: bool) -> int:
    """Find one solution (the optimum of a puzzle with a goal: the fewest pieces for domination,
    the most for peaceable armies, the fewest copies for a colouring), by the fastest strategy
    that can; --backend all asks every backend and sets their answers side by side."""
    out_path = placement_target(out_path, fmt)
    if as_json and is_stdout(out_path):
        raise BadOption("--json and a placement on stdout (--out - or --format without --out) cannot share it: "
                        "give --out FILE")
    options = backend_settings(viewpoint, encoding, solver)
    if seed is not None:
        options["seed"] = seed
    if symmetry is not None:
        options["symmetry"] = symmetry
    puzzle = make_puzzle(family_or_file, n, m)
    if backend == "all":
        refuse_for_all({key for key in options if key != "symmetry"} | _given(out=out_path, all_optimal=all_optimal,
                                                                             certify=certify), chosen_method(method))
        return compare(SOLVE, task_of(puzzle), puzzle, time_limit, options, as_json)
    refuse_out(puzzle, out_path)
    refuse_certify(puzzle, certify, proof_dir, all_optimal)
    chosen = chosen_method(method)
    if all_optimal:
        if out_path is not None:
            raise BadOption("--out writes one solution; --all-optimal lists them with --json")
        with progress_shown():
            result = every_optimum(puzzle, backend, method=chosen, time_limit=time_limit, **options)
    else:
        result = _solve(family_or_file, n, m, puzzle, task_of(puzzle), backend, chosen, time_limit, options)
    if out_path is not None:
        save_result(puzzle, result, out_path, fmt)
    proof = certify_answer(puzzle, result, proof_dir) if certify else None
    if as_json:
        print_payload(payload("solve", puzzle, result, verified=bool(result.solutions) or result.columns is not None,
                              out=None if out_path is None else str(out_path),
                              certificate=None if proof is None else proof.to_json()))
        return _exit_code(result)
    if not is_stdout(out_path):  # stdout holds the placement file alone
        _print_solutions(puzzle, result, out_path)
    if proof is not None:  # beside a placement on stdout, on stderr
        (err if is_stdout(out_path) else out).print(f"certificate: {proof.refuted} has no solution; " + ", ".join(
            f"{check.checker} {check.verdict} in {check.seconds:.2f} s" for check in proof.checks), markup=False)
    return _exit_code(result)


def chosen_method(method: str) -> str | None:
    """--method as the router takes it: None lets it choose."""
    return None if method == "auto" else method


def _given(**flags: object) -> set[str]:
    """The names of the flags given (a value, not None or False), as --options."""
    return {name.replace("_", "-") for name, value in flags.items() if value not in (None, False)}


def refuse_certify(puzzle: Puzzle, certify: bool, proof_dir: Path | None, all_optimal: bool) -> None:
    """--certify proves one model's "no" or optimum: refused at once where there is none to prove."""
    if proof_dir is not None and not certify:
        raise BadOption("--proof-dir keeps a certificate's files: give --certify too")
    if certify and all_optimal:
        raise BadOption("--certify proves one answer; not with --all-optimal")
    if certify:
        require("certify", "--certify")


def _print_solutions(puzzle: Puzzle, result: Result, out_path: Path | None) -> None:
    line = f"{puzzle.name}: {result.status.value} by {answered_by(result)}"
    if result.objective is not None:
        proved = result.status is Status.OPTIMAL
        line += f"; optimum {result.objective} (proved)" if proved else f"; best found {result.objective}"
    if "bound" in result.stats:
        line += f"; proved bound {result.stats['bound']}"
    if result.count is not None:
        line += f"; {result.count:,} optimal placements"
    out.print(line, markup=False)
    if result.why:
        out.print(f"strategy: {result.backend}/{result.method}, {result.why}", markup=False)
    answered = result.answered or puzzle
    drawn = max(Canvas.of(answered).rows, Canvas.of(answered).cols) <= MAX_DRAWN
    for solution in result.solutions:
        if drawn:
            out.print(Board(answered, solution).text(unicode=True), markup=False)
        for army, cells in zip(answered.armies, answered.per_army(solution), strict=True):
            label = "cells" if len(answered.armies) == 1 else army.name
            out.print(f"{label}: " + " ".join(",".join(map(str, cell)) for cell in cells), markup=False)
    if not result.solutions and result.columns is not None and out_path is None:
        out.print(f"{len(result.columns):,} columns not printed (more than {MAX_LISTED:,}): use --out FILE")


@command("show", examples=(
    "queens show nqueens -n 8 --plain",
    "queens show peaceable -n 5 --svg peaceable.svg   # armies in their colours",
))
@puzzle_options
@backend_options(allow_all=False)
@click.option("--plain", is_flag=True, help="ASCII grid: Q for a queen, . for an empty square.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Also write the board as SVG.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), help="Also write the board as PNG.")
@click.option("--heat-map", "heat_path", type=click.Path(dir_okay=False),
              help="Write how often each cell is used across all solutions (.svg, .png or .txt).")
@click.option("--symmetries", is_flag=True,
              help="Draw the answer's images under the symmetries that keep the puzzle (found on its model), each "
                   "labelled with its symmetry ('rotate 180 = identity': an image seen before); --svg and --png "
                   "draw them all.")
@json_option
def show_command(family_or_file: str, n: int | None, m: int | None, backend: str | None, time_limit: float | None,
                 viewpoint: str | None, encoding: str | None,
                  solver: str | None, plain: bool, svg_path: str | None, png_path: str | None,
                 heat_path: str | None, symmetries: bool, as_json: bool) -> int:
    """Draw one answer as a board (and as pictures with --svg/--png/--heat-map): armies in their
    colours, a cube as its layers side by side; with --symmetries, its images under the board's
    symmetries."""
    for option, path in (("--svg", svg_path), ("--png", png_path), ("--heat-map", heat_path)):
        check_writable(path, option)
    puzzle = make_puzzle(family_or_file, n, m)
    canvas = Canvas.of(puzzle)
    if max(canvas.rows, canvas.cols) > MAX_DRAWN:
        raise click.UsageError(f"show draws boards up to {MAX_DRAWN} wide; use solve for larger ones")
    if heat_path and Path(heat_path).suffix.lower() not in (".svg", ".png", ".txt"):
        raise BadOption(f"--heat-map writes .svg, .png or .txt; {heat_path!r} is none of them")
    if heat_path and (refusal := mappable(puzzle)):
        raise BadOption(f"--heat-map: {refusal}")
    group = group_of(puzzle) if symmetries else ()  # a puzzle the kit cannot name is refused before any work
    task = task_of(puzzle)
    settings = backend_settings(viewpoint, encoding, solver)
    result = _solve(family_or_file, n, m, puzzle, task, backend, None, time_limit, settings)
    board: Board | Sheet = Board.of(puzzle, result)
    found: tuple[Image, ...] = ()
    if group and result.solution is not None:
        found = images(puzzle, result.solution)
        board = image_sheet(puzzle, result.solution)
    for path, kind in ((svg_path, "svg"), (png_path, "png")):
        if path:
            err.print(f"wrote {board.save(path, kind)}", markup=False)
    if heat_path:
        err.print(f"wrote {heat_map(puzzle, backend, time_limit=time_limit).save(heat_path)}", markup=False)
    drawing = board.text(unicode=not plain)
    if as_json:
        print_payload(payload("show", puzzle, result, verified=result.solution is not None,
                              board=drawing.splitlines(), **_images_json(found)))
    elif result.solution is None:
        out.print(f"{puzzle.name}: {result.status.value}", markup=False)
    else:
        out.print(drawing, markup=False)
        if found:
            out.print(_class_line(found), markup=False)
    return _exit_code(result)


def _images_json(found: tuple[Image, ...]) -> dict[str, object]:
    """--symmetries in the JSON's details: each image with its symmetry, and the class's size."""
    if not found:
        return {}
    return {"images": [{"symmetry": image.symmetry, "same_as": image.same_as,
                        "cells": [list(cell) for cell in image.placement]} for image in found],
            "class_size": len({image.placement for image in found})}


def _class_line(found: tuple[Image, ...]) -> str:
    """How many solutions the class holds, and why: |group| / |the symmetries that keep this one|."""
    distinct = len({image.placement for image in found})
    keeping = [image.symmetry for image in found if image.placement == found[0].placement]
    return (f"{distinct} distinct images: this solution's class holds {distinct} solutions "
            f"({len(found)} symmetries / {len(keeping)} that keep it: {', '.join(keeping)})")
