"""`queens why`: for a puzzle with no solution, the fewest of its givens that already have none.

The givens are the pieces placed before asking, the holes and the pawns, and the rules the puzzle
states: each army's count, each per-line bound, region and bound on attacks
(`queens.models.givens`). The answer is a smallest unsatisfiable subset of them, proved so by the
hitting-set search (`queens.solvers.proofs.why`); with `--time-limit`, if that search does not
finish, a set from which none can be dropped, with the lower bound it proved, and the words say
which. It is listed (the rules too) and drawn (the squares), checked twice: the subset alone has
no solution, and without any one of its givens there is a solution (re-checked by the
independent checker). `--certify` adds a DRUP proof that the subset has none, checked by drup
and dratify (`queens.solvers.proofs.certificate`); `--proof-dir` keeps its files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import command, json_option, make_puzzle, out, puzzle_options
from queens.commands.number_options import Seconds
from queens.models import AttackingQueens, Placement, Puzzle, QueensError, lower
from queens.models.drawing import Board
from queens.models.givens import Given, givens_of, with_givens
from queens.solvers.proofs.certificate import certify_none
from queens.solvers.proofs.why import HasSolution, WhyNot, attacking_pair, in_words, why_not_puzzle


@command("why", examples=(
    "queens why completion -n 4 --queens 0,0  # the corner queen alone has no completion",
    "queens why toroidal -n 6 --json",
))
@puzzle_options
@click.option("--certify", is_flag=True, help="Prove the subset has no solution (DRUP, checked by drup and dratify).")
@click.option("--proof-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the CNF and the proof here (with --certify).")
@click.option("--time-limit", type=Seconds(minimum=0.001), default=None,
              help="Seconds to look for the fewest; past them, a set none can be dropped from, and the bound proved.")
@json_option
def why_command(family_or_file: str, n: int | None, m: int | None, certify: bool, proof_dir: Path | None,
                time_limit: float | None, as_json: bool) -> int:
    """Why a puzzle has no solution: the fewest givens (placed pieces, holes, pawns, counts, bounds) that have none."""
    try:
        puzzle = make_puzzle(family_or_file, n, m)
    except AttackingQueens as clash:  # two givens that attack: the smallest reason there is
        _show_pair(clash, as_json)
        return 0
    try:
        answer = why_not_puzzle(puzzle, time_limit)
    except HasSolution as solved:
        raise QueensError(str(solved)) from None
    certificate = None
    if certify or proof_dir:
        certificate = certify_none(lower(with_givens(puzzle, answer.subset)), proof_dir=proof_dir,
                                   refuted=f"{len(answer.subset)} of the givens")
    if as_json:
        _print_json(puzzle, answer.subset, givens=len(givens_of(puzzle)), seconds=round(answer.seconds, 6),
                    check_seconds=round(answer.check_seconds, 6), sat_calls=answer.calls, fewest=answer.fewest,
                    bound=answer.bound, irreducible=answer.irreducible, hitting_sets=answer.hitting_sets,
                    certificate=None if certificate is None else certificate.to_json())
        return 0
    _show(puzzle, answer)
    if certificate is not None:
        verdicts = ", ".join(f"{v.checker} {v.verdict} in {v.seconds:.3f} s" for v in certificate.checks)
        out.print(f"proof: {certificate.proof_added} lemmas, {certificate.proof_bytes} bytes; {verdicts}", markup=False)
        for path in certificate.files:
            out.print(f"kept {path}", markup=False)
    return 0


def _show(puzzle: Puzzle, answer: WhyNot[Given]) -> None:
    for line in in_words(puzzle, answer):
        out.print(line, markup=False)
    shown = with_givens(puzzle, answer.subset)
    pieces: Placement = tuple(sorted(shown.fixed))
    out.print(Board(shown, pieces).text(), markup=False)


def _show_pair(clash: AttackingQueens, as_json: bool) -> None:
    pair, line = attacking_pair(clash)
    if as_json:
        _print_json(None, pair, givens=None, certificate=None)
        return
    out.print(line, markup=False)


def _print_json(puzzle: Puzzle | None, subset: Sequence[Given], **details: object) -> None:
    """The one answer shape (docs/json.md): status "no solution", the subset under details."""
    data = payload("why", puzzle, None, verified=True, subset=[_given_json(g) for g in subset], **details)
    data["status"] = "no solution"
    print_payload(data)


def _given_json(given: Given) -> dict[str, object]:
    """A given and its square (None: a stated rule, which has none)."""
    return {"kind": given.kind, "cell": None if given.cell is None else list(given.cell), "name": given.name}
