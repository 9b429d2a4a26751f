"""`queens explain`: the model in math notation and what each backend compiles it to."""

from __future__ import annotations

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import BackendChoice, json_option, make_puzzle, out, puzzle_options
from queens.explain import explain
from queens.models import Puzzle, Unsupported
from queens.solvers.backend import Task
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject


@click.command("explain")
@puzzle_options
@click.option("--symmetry", is_flag=True,
              help="The symmetry-breaking constraints each backend posts (lex-leader chains: which symmetry, which "
                   "cells compared, in order), and whether it posts them unasked.")
@click.option("--backend", "-b", type=BackendChoice(allow_all=False), default=None,
              help="With --symmetry: this backend's alone.")
@json_option
def explain_command(family_or_file: str, n: int | None, m: int | None, symmetry: bool, backend: str | None,
                    as_json: bool) -> int:
    """Show the constraint model (variables, domains, constraint groups) and the backends' sizes."""
    puzzle = make_puzzle(family_or_file, n, m)
    if symmetry or backend is not None:
        return _symmetry(puzzle, symmetry, backend, None, as_json)
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


def _symmetry(puzzle: Puzzle, symmetry: bool, backend: str | None, encoding: str | None, as_json: bool) -> int:
    """--symmetry [--backend B]: the lex-leader chains as the backends receive them (solvers/learn/symmetries.py)."""
    if not symmetry or encoding is not None:
        raise click.UsageError("--backend applies to --symmetry" if not symmetry else
                               "--symmetry shows the chains; --encoding and --line the clauses: one at a time")
    from queens.solvers.learn.symmetries import symmetry_breaking

    found = symmetry_breaking(puzzle, () if backend is None else (backend,))
    if as_json:
        print_payload(payload("explain", puzzle, None, verified=False, symmetry=found.to_json()))
    else:
        out.print(found.text(), markup=False)
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
