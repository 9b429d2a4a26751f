"""`queens explain`: the model in math notation and what each backend compiles it to."""

from __future__ import annotations

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import BackendChoice, command, json_option, make_puzzle, out, puzzle_options
from queens.explain import MAX_COMPILED_CELLS, explain
from queens.models import Puzzle, Unsupported, lower
from queens.solvers.backend import Task
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject
from queens.solvers.viewpoint import viewpoints


@command("explain", examples=(
    "queens explain nqueens -n 8",
    "queens explain peaceable -n 4 --json",
))
@puzzle_options
@click.option("--encoding", default=None,
              help="The CNF in this pysat encoding, group by group as the DIMACS export comments it.")
@click.option("--line", "line_name", default=None, metavar="NAME",
              help="With --encoding: the clauses of one line ('row 0', 'diagonal r - c = 1') or family ('rows').")
@click.option("--symmetry", is_flag=True,
              help="The symmetry-breaking constraints each backend posts (lex-leader chains: which symmetry, which "
                   "cells compared, in order), and whether it posts them unasked.")
@click.option("--viewpoint", is_flag=False, flag_value="all", default=None, metavar="[NAME]",
              help="Each backend's model in this viewpoint (alldifferent, boolean, rows; alone: every one), as built: "
                   "its variables and the constraints it posts.")
@click.option("--backend", "-b", type=BackendChoice(allow_all=False), default=None,
              help="With --symmetry or --viewpoint: this backend's alone.")
@json_option
def explain_command(family_or_file: str, n: int | None, m: int | None, encoding: str | None, line_name: str | None,
                    symmetry: bool, viewpoint: str | None, backend: str | None, as_json: bool) -> int:
    """Show the constraint model (variables, domains, constraint groups) and the backends' sizes."""
    puzzle = make_puzzle(family_or_file, n, m)
    if viewpoint is not None:
        return _viewpoints(puzzle, viewpoint, backend, symmetry or encoding is not None or line_name is not None,
                           as_json)
    if symmetry or backend is not None:
        return _symmetry(puzzle, symmetry, backend, encoding or line_name, as_json)
    if encoding is not None or line_name is not None:
        return _clauses(puzzle, encoding, line_name, as_json)
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


def _clauses(puzzle: Puzzle, encoding: str | None, line_name: str | None, as_json: bool) -> int:
    """--encoding, --line: the CNF's groups (every group's comment and its number of clauses), or
    one line's clauses in full, in the DIMACS export's numbering and words."""
    from queens.solvers.formats.cnf import DEFAULT_ENCODING  # pysat, imported only when asked for
    from queens.solvers.formats.dimacs import line_sections

    encoding = encoding or DEFAULT_ENCODING
    found = line_sections(puzzle, encoding, line_name)
    if as_json:
        groups = [{"name": s.name, "comment": s.comment, "clauses": s.clauses if line_name else len(s.clauses)}
                  for s in found]
        print_payload(payload("explain", puzzle, None, verified=False, encoding=encoding, groups=groups))
        return 0
    for section in found:
        out.print(f"c {section.comment}" + ("" if line_name else f": {len(section.clauses):,} clauses"), markup=False)
        if line_name:
            out.print("\n".join(" ".join(map(str, clause)) + " 0" for clause in section.clauses), markup=False)
    return 0


def _viewpoints(puzzle: Puzzle, name: str, backend: str | None, more: bool, as_json: bool) -> int:
    """--viewpoint [NAME] [--backend B]: each backend's viewpoint as the model it builds (solvers/viewpoint.py)."""
    if more:
        raise click.UsageError("--viewpoint shows the viewpoints; --symmetry the chains, --encoding the clauses: "
                               "one at a time")
    found = viewpoints(lower(puzzle), None if name == "all" else name, backend, MAX_COMPILED_CELLS)
    if as_json:
        print_payload(payload("explain", puzzle, None, verified=False, viewpoints=[v.to_json() for v in found]))
    else:
        out.print("\n\n".join(v.text() for v in found), markup=False)
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
