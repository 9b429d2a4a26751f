"""`queens trace`: the backtracking search replayed step by step in the terminal.

The board is redrawn at every step: `Q` a piece, `~` a square a piece attacks, `x` the square
just tried and found attacked, `.` a free square. `--delay` sets the pace, `--step` waits for
Enter, and `--no-animate` (the default when stdout is not a terminal) prints one line per step,
with the board at each solution, for pipes and files. `--json` prints one event per line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click
from rich.live import Live
from rich.text import Text

from queens.commands.common import SuggestingChoice, command, echo, err, make_puzzle, out, puzzle_options
from queens.commands.number_options import Count, Seconds
from queens.models import Puzzle, QueensError, Unsupported
from queens.models.drawing import Board, Canvas
from queens.models.errors import BadOption
from queens.solvers.learn.orders import VALUE_ORDERS, VARIABLE_ORDERS
from queens.solvers.learn.propagation import LEVELS
from queens.solvers.learn.steps import trace_steps
from queens.solvers.learn.trace import Trace, TraceEvent, traceable

MAX_TRACE_CELLS = 400
"""A pure-Python search drawn step by step is for boards up to 20 x 20."""


def describe_step(event: TraceEvent) -> str:
    """One line for a step, e.g. 'conflict (2, 1): attacked by (0, 1)'."""
    if event.step == "conflict":
        return f"conflict {event.cell}: attacked by {event.attacker}"
    if event.step == "solution":
        return f"solution {event.solutions}: {' '.join(','.join(map(str, cell)) for cell in event.placement)}"
    if event.step == "size":
        return f"try {event.size} pieces"
    return f"{event.step} {event.cell}"


def _counters(event: TraceEvent) -> str:
    return (f"depth {event.depth}  nodes {event.nodes}  conflicts {event.conflicts}  "
            f"backtracks {event.backtracks}  solutions {event.solutions}")


def _frame(puzzle: Puzzle, number: int, event: TraceEvent) -> str:
    marks = {Canvas.of(puzzle).position(event.cell): "x"} if event.step == "conflict" and event.cell else {}
    board = Board(puzzle, puzzle.placement_of([event.placement]), show_attacks=True).text(marks)
    return f"{puzzle.name}  step {number}: {describe_step(event)}\n{_counters(event)}\n\n{board}"


@command("trace", examples=(
    "queens trace nqueens -n 6                # animated on a terminal",
    "queens trace nqueens -n 4 --no-animate   # one line per step",
))
@puzzle_options
@click.option("--delay", type=Seconds(0, 60), default=0.15, show_default=True,
              help="Seconds between steps when animating.")
@click.option("--step", "stepwise", is_flag=True, help="Wait for Enter before each step.")
@click.option("--animate/--no-animate", default=None,
              help="Redraw the board in place [default: when stdout is a terminal]; --no-animate logs lines.")
@click.option("--solutions", "max_solutions", type=Count(0), default=1, show_default=True,
              help="Stop after this many solutions (0: search the whole tree).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per step.")
@click.option("--propagate", type=SuggestingChoice(list(LEVELS)), is_flag=False, flag_value="forward", default=None,
              help="Trace the teaching engine's search instead: each decision, each value removed and by which "
                   "constraint, each forced value, each wipe-out (a level, forward checking when none is given).")
@click.option("--var", type=SuggestingChoice(list(VARIABLE_ORDERS)), default="input_order", show_default=True,
              help="With --propagate: which variable next (MiniZinc's names).")
@click.option("--val", type=SuggestingChoice(list(VALUE_ORDERS)), default="indomain_min", show_default=True,
              help="With --propagate: which value first.")
@click.option("--svg", "svg_folder", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --propagate: write the board after each node's propagation as FOLDER/node-N.svg.")
def trace_command(family_or_file: str, n: int | None, m: int | None, delay: float, stepwise: bool, animate: bool | None,
                  max_solutions: int, as_json: bool, propagate: str | None, var: str, val: str,
                  svg_folder: Path | None) -> int:
    """Replay the backtracking search: place, conflict, backtrack, solution; or, with --propagate,
    the teaching engine's search with its propagation step by step."""
    puzzle = make_puzzle(family_or_file, n, m)
    if propagate is not None:
        return _propagation(puzzle, propagate, var, val, max_solutions, as_json, svg_folder)
    if svg_folder is not None:
        raise BadOption("--svg draws the propagation's steps: give --propagate too")
    refusal = traceable(puzzle)
    if refusal:
        raise Unsupported(f"trace: {refusal}")
    cells = puzzle.cells
    if cells > MAX_TRACE_CELLS:
        raise QueensError(f"trace draws boards of at most {MAX_TRACE_CELLS} cells; this one has {cells}")
    events = Trace(puzzle).events(max_solutions or None)
    if as_json:
        for event in events:
            echo(json.dumps(event.to_json()))
        return 0
    if animate is None:
        animate = sys.stdout.isatty() and not stepwise
    last = _animate(puzzle, events, delay) if animate else _log(puzzle, events, stepwise)
    if last is None or last.solutions == 0:
        out.print(f"{puzzle.name}: no solution", markup=False)
    return 0


def _propagation(puzzle: Puzzle, level: str, var: str, val: str, solutions: int, as_json: bool,
                 svg_folder: Path | None) -> int:
    """The teaching engine's steps: one line each, and the board after each node's propagation
    (`queens.solvers.learn.steps`); as JSON, one object per step."""
    if not puzzle.cells_are_variables:  # each step's board reads the model's variables as cells
        raise Unsupported(f"trace --propagate draws one army on a 2-D board; {puzzle.name} is not one")
    if puzzle.rows * puzzle.cols > MAX_TRACE_CELLS:
        raise QueensError(f"trace draws boards of at most {MAX_TRACE_CELLS} cells; this one has "
                          f"{puzzle.rows * puzzle.cols}")
    steps = trace_steps(puzzle, var=var, val=val, propagate=level, solutions=solutions or None)
    if svg_folder is not None:
        svg_folder.mkdir(parents=True, exist_ok=True)
    for step, after in zip(steps, [*steps[1:], None], strict=True):
        if as_json:
            echo(json.dumps(step.to_json()))
            continue
        out.print(step.text if step.kind in ("root", "decision", "backtrack") else f"  {step.text}", markup=False)
        if after is None or after.kind in ("decision", "backtrack"):  # the node's propagation is over
            shown = step if step.kind == "backtrack" else steps.after(step.node)
            out.print(shown.board_text(puzzle) + "\n", markup=False)
            if svg_folder is not None and step.kind != "backtrack":
                shown.board(puzzle).save(svg_folder / f"node-{step.node}.svg")
    return 0


def _log(puzzle: Puzzle, events: Iterator[TraceEvent], stepwise: bool) -> TraceEvent | None:
    last = None
    if stepwise:
        err.print("press Enter for the next step")
    for number, event in enumerate(events, 1):
        last = event
        if stepwise:
            out.print(_frame(puzzle, number, event), markup=False)
            if not sys.stdin.readline():  # end of input: run the rest without waiting
                stepwise = False
            continue
        out.print(f"{number:>6}  {describe_step(event):<40}  {_counters(event)}", markup=False)
        if event.step == "solution":
            out.print(Board(puzzle, puzzle.placement_of([event.placement])).text() + "\n", markup=False)
    return last


def _animate(puzzle: Puzzle, events: Iterator[TraceEvent], delay: float) -> TraceEvent | None:
    last = None
    with Live(Text(""), console=out, auto_refresh=False, transient=False) as live:
        for number, event in enumerate(events, 1):
            live.update(Text(_frame(puzzle, number, event)), refresh=True)
            last = event
            time.sleep(delay * (4 if event.step == "solution" else 1))  # linger on a solution
    return last
