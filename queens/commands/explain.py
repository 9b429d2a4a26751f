"""`queens explain`: the model in math notation and what each backend compiles it to."""

from __future__ import annotations

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import json_option, make_puzzle, out, puzzle_options
from queens.commands.layout import one_puzzle
from queens.explain import explain
from queens.models.armies import ArmyPuzzle


@click.command("explain")
@puzzle_options
@json_option
def explain_command(family, n, m, as_json) -> int:
    """Show the constraint model (variables, domains, constraint groups) and the backends' sizes."""
    target = make_puzzle(family, n, m)
    puzzle = target if isinstance(target, ArmyPuzzle) else one_puzzle(target, "explain")
    explanation = explain(puzzle)
    if as_json:
        described = None if isinstance(puzzle, ArmyPuzzle) else puzzle
        print_payload(payload("explain", described, None, verified=False, **explanation.to_json()))
    else:
        out.print(explanation.text(), markup=False)
    return 0
