"""`queens explain`: the model in math notation and what each backend compiles it to."""

from __future__ import annotations

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import json_option, make_puzzle, out, puzzle_options
from queens.explain import explain
from queens.models import Puzzle, Unsupported
from queens.solvers.backend import Task
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject


@click.command("explain")
@puzzle_options
@json_option
def explain_command(family_or_file: str, n: int | None, m: int | None, as_json: bool) -> int:
    """Show the constraint model (variables, domains, constraint groups) and the backends' sizes."""
    puzzle = make_puzzle(family_or_file, n, m)
    explanation = explain(puzzle)
    chosen = strategies(puzzle)
    if as_json:
        print_payload(payload("explain", puzzle, None, verified=False, **explanation.to_json(), strategies=chosen))
    else:
        out.print(explanation.text(), markup=False)
        out.print("\nWho answers (the router's choice)", markup=False)
        for task, choice in chosen.items():
            out.print(f"  {task:<9} {choice}", markup=False)
    return 0


def strategies(puzzle: Puzzle) -> dict[str, str]:
    """For finding one solution and for counting: the strategy the router picks, and why, or
    why nothing can."""
    subject = Subject(puzzle)
    chosen = {}
    for task in (task_of(puzzle), Task.COUNT):
        try:
            choice = route(task, subject)
            chosen[task.value] = f"{choice.strategy.name}: {choice.why}"
        except Unsupported as refusal:
            chosen[task.value] = f"n/a ({refusal})"
    return chosen
