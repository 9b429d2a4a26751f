"""`queens search`: one search by the teaching engine, with MiniZinc's names, and its effort.

`--var` and `--val` are `int_search`'s variable and value orders, `--propagate` the
propagation level (solvers/learn/propagation.py); `--all` asks for every solution (MiniZinc's
-a), `--tree FILE` writes the search tree (.svg, .dot, .tex, .json). The effort is counted as
MiniZinc's statistics name it (`nodes`, `failures`, `solutions`, `propagations`, `peakDepth`),
in the text and in `--json` (docs/json.md). `--backend minizinc` hands the same annotation to
Gecode through the minizinc backend and reports Gecode's counts: on the textbook model, with
forward checking, the nodes and failures are the same to the digit (docs/search-strategies.md).
"""

from __future__ import annotations

from pathlib import Path

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import (
    BackendChoice,
    SuggestingChoice,
    command,
    err,
    json_option,
    make_puzzle,
    out,
    puzzle_options,
)
from queens.commands.number_options import Count, Seconds
from queens.models import Puzzle, Unsupported
from queens.models.drawing import MAX_DRAWN, Board
from queens.models.errors import BadOption
from queens.solvers import Result, Status
from queens.solvers.api import count, solve
from queens.solvers.learn.orders import VALUE_ORDERS, VARIABLE_ORDERS
from queens.solvers.learn.propagation import LEVELS
from queens.solvers.learn.teaching import search
from queens.solvers.learn.tree import COLLAPSE, FORMATS
from queens.solvers.learn.viewpoint import VIEWPOINTS

EFFORT = ("nodes", "failures", "solutions", "propagations", "peakDepth")
"""The effort counts printed, under MiniZinc's names."""
ENGINES = ("teaching", "minizinc")


@command("search", examples=(
    "queens search nqueens -n 8 --all --tree tree.svg            # every solution, and the tree",
    "queens search nqueens -n 9 --var first_fail --val indomain_median --json",
    "queens search nqueens -n 8 --all --propagate arc               # AC-3: fewer nodes",
))
@puzzle_options
@click.option("--var", type=SuggestingChoice(list(VARIABLE_ORDERS)), default="input_order", show_default=True,
              help="Which variable next (MiniZinc's int_search names).")
@click.option("--val", type=SuggestingChoice(list(VALUE_ORDERS)), default="indomain_min", show_default=True,
              help="Which value first: x = v | x != v (split: x <= m | x > m).")
@click.option("--propagate", type=SuggestingChoice(list(LEVELS)), default="forward", show_default=True,
              help="The propagation level: generate and test, backtracking, forward checking, AC-3, AllDifferent.")
@click.option("--seed", type=Count(0, 2**64 - 1), default=0, show_default=True, help="For the random orders.")
@click.option("--all", "every", is_flag=True, help="Every solution (MiniZinc's -a); default: the first.")
@click.option("--tree", "tree_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"Write the search tree: {', '.join(FORMATS)}.")
@click.option("--collapse", type=Count(1), default=COLLAPSE, show_default=True,
              help="In the tree's pictures, failed subtrees of more nodes are one triangle.")
@click.option("--viewpoint", type=click.Choice(VIEWPOINTS), default=None,
              help="integer (a variable per row) or boolean (one per cell) [default: integer where it holds].")
@click.option("--fail-limit", type=Count(1), default=None, help="Stop after this many failures (Gecode's -fail).")
@click.option("--node-limit", type=Count(1), default=None, help="Stop after this many nodes (Gecode's -node).")
@click.option("--time-limit", type=Seconds(minimum=0.001), default=None, help="Seconds before giving up.")
@click.option("--backend", "-b", type=BackendChoice(allow_all=False), default="teaching", show_default=True,
              help="teaching (this engine) or minizinc (the same annotation on Gecode).")
@json_option
def search_command(family_or_file: str, n: int | None, m: int | None, var: str, val: str, propagate: str, seed: int,
                   every: bool, tree_path: Path | None, collapse: int, viewpoint: str | None,
                   fail_limit: int | None, node_limit: int | None, time_limit: float | None, backend: str,
                   as_json: bool) -> int:
    """Search with a variable order, a value order and a propagation level, and count the effort."""
    if tree_path is not None and tree_path.suffix.lower() not in FORMATS:
        raise BadOption(f"--tree writes {', '.join(FORMATS)}; {tree_path.name!r} is none of them")
    if backend not in ENGINES:
        raise BadOption(f"search runs on the teaching engine, or with the same annotation on minizinc (Gecode); "
                        f"{backend} takes no search annotation")
    puzzle = make_puzzle(family_or_file, n, m)
    if backend == "minizinc":
        _refuse_for_gecode(propagate, seed, tree_path, viewpoint, fail_limit, node_limit)
        result = _gecode(puzzle, var, val, every, time_limit)
    else:
        result = search(puzzle, var=var, val=val, propagate=propagate, all=every, seed=seed,
                        tree=tree_path or False, time_limit=time_limit, fail_limit=fail_limit,
                        node_limit=node_limit, viewpoint=viewpoint, collapse=collapse).result
        if tree_path is not None:
            err.print(f"wrote {tree_path}", markup=False)
    strategy = {"var": var, "val": val, "propagate": propagate if backend == "teaching" else "gecode", "seed": seed}
    if as_json:
        print_payload(payload("search", puzzle, result, verified=bool(result.solutions) or
                              result.status is Status.COMPLETE, search=strategy,
                              tree=None if tree_path is None else str(tree_path)))
    else:
        _print(puzzle, result, strategy)
    return 1 if result.status is Status.LIMIT else 0


def _refuse_for_gecode(propagate: str, seed: int, tree_path: Path | None, viewpoint: str | None,
                       fail_limit: int | None, node_limit: int | None) -> None:
    """What only the teaching engine does, refused before any work with --backend minizinc."""
    given = [name for name, value in (("--tree", tree_path), ("--viewpoint", viewpoint), ("--fail-limit", fail_limit),
                                      ("--node-limit", node_limit)) if value is not None]
    if propagate != "forward":
        given.append("--propagate")
    if seed:
        given.append("--seed")
    if given:
        raise BadOption(f"{', '.join(given)}: the teaching engine's, not Gecode's (Gecode propagates the textbook "
                        "model as forward checking does, and draws no tree here)")


def _gecode(puzzle: Puzzle, var: str, val: str, every: bool, time_limit: float | None) -> Result:
    """The same annotation on Gecode, through the minizinc backend (its stats: Gecode's effort)."""
    try:
        if every:
            return count(puzzle, "minizinc", time_limit=time_limit, split=False, symmetry=False, var=var, val=val)
        return solve(puzzle, "minizinc", time_limit=time_limit, var=var, val=val)
    except Unsupported as refusal:
        raise Unsupported(f"--backend minizinc: {refusal}") from None


def _print(puzzle: Puzzle, result: Result, strategy: dict[str, object]) -> None:
    how = ", ".join(str(strategy[k]) for k in ("var", "val", "propagate"))
    if result.count is not None:
        said = f"{result.count:,} solutions" + (" so far (stopped)" if result.status is Status.LIMIT else "")
    else:
        said = result.status.value
    out.print(f"{puzzle.name} by {result.backend} ({how}): {said} in {result.wall_time:.3f} s", markup=False)
    out.print(", ".join(f"{key} {result.stats[key]:,}" for key in EFFORT if key in result.stats), markup=False)
    if result.solution is not None and max(puzzle.rows, puzzle.cols) <= MAX_DRAWN:
        out.print(Board(puzzle, result.solution).text(unicode=True), markup=False)
