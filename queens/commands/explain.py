"""`queens explain`: the model in math notation and what each backend compiles it to."""

from __future__ import annotations

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import command, json_option, make_puzzle, out, puzzle_options
from queens.explain import explain
from queens.models import Puzzle, Unsupported
from queens.solvers.backend import Task
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject


@command("explain", examples=(
    "queens explain nqueens -n 8",
    "queens explain peaceable -n 4 --json",
))
@puzzle_options
@click.option("--encoding", default=None,
              help="The CNF in this pysat encoding, group by group as the DIMACS export comments it.")
@click.option("--line", "line_name", default=None, metavar="NAME",
              help="With --encoding: the clauses of one line ('row 0', 'diagonal r - c = 1') or family ('rows').")
@json_option
def explain_command(family_or_file: str, n: int | None, m: int | None, encoding: str | None, line_name: str | None,
                    as_json: bool) -> int:
    """Show the constraint model (variables, domains, constraint groups) and the backends' sizes."""
    puzzle = make_puzzle(family_or_file, n, m)
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
