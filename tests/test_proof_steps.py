"""drup lemma by lemma (queens.solvers.proofs.proof_steps): the loop added to the trusted base accepts a
proof only when every step follows from its own hints by unit propagation, each hint is a line of
the core or an earlier step, and the last step is the empty clause. Each rule is broken here once
on a small hand-made proof, and the real proofs of tests/test_certificate.py pass through it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from queens.models import TimeLimit
from queens.solvers.proofs.proof_steps import check_steps

CORE = "p cnf 3 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"
"""Every assignment of 1 and 2 falsifies a clause: lemma 2 follows from lines 1 and 2, then the
empty clause from lines 3 and 4 and the lemma."""


def _check(tmp_path: Path, proof: str, hints: str, core: str = CORE, seconds: float = 30.0, workers: int = 1) -> str:
    files = core_file, proof_file, hints_file = tmp_path / "core.cnf", tmp_path / "proof.drup", tmp_path / "proof.hints"
    for file, text in zip(files, (core, proof, hints), strict=True):
        file.write_text(text)
    return check_steps(core_file, proof_file, hints_file, time.monotonic() + seconds, workers=workers)


def test_a_proof_whose_steps_follow_from_their_hints_is_valid(tmp_path: Path) -> None:
    assert _check(tmp_path, "2 0\n0\n", "1 2 0\n3 4 -1 0\n").startswith("valid: 2 steps")


@pytest.mark.parametrize(("proof", "hints", "why"), [
    ("2 0\n0\n", "1 0\n3 4 -1 0\n", "step 1 (2 0) does not follow"),  # a hint short
    ("2 0\n0\n", "1 2 0\n3 4 -2 0\n", "step 2 names -2"),  # the step itself
    ("2 0\n0\n", "1 2 -2 0\n3 4 -1 0\n", "step 1 names -2"),  # a later step
    ("2 0\n0\n", "1 2 0\n3 4 5 -1 0\n", "step 2 names 5"),  # past the core
    ("2 0\n", "1 2 0\n", "does not end with the empty clause"),
    ("2 0\n0\n", "1 2 0\n", "1 hint lines for 2 steps"),
])
def test_a_broken_rule_is_invalid(tmp_path: Path, proof: str, hints: str, why: str) -> None:
    said = _check(tmp_path, proof, hints)
    assert said.startswith("invalid") and why in said


def test_a_lemma_that_is_rat_but_not_rup_is_refused(tmp_path: Path) -> None:
    """3 is a pure literal of the core: the clause (3) is a RAT step that drup accepts as a step
    of a derivation, but it does not follow from any clauses by unit propagation, and this check
    asks drup for exactly that (the empty clause has no pivot to be RAT on)."""
    from drup.wrappers import Outcome, check_derivation

    assert check_derivation([[1, 2], [-1, 2], [1, -2], [-1, -2]], [[3]]).outcome is Outcome.VALID
    said = _check(tmp_path, "3 0\n0\n", "0\n1 2 3 4 0\n")
    assert said.startswith("invalid: step 1 (3 0) does not follow")


def test_a_line_that_is_not_a_clause_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a clause line"):
        _check(tmp_path, "2\n0\n", "1 2 0\n3 4 -1 0\n")


def test_the_deadline_is_looked_at_between_two_lemmas(tmp_path: Path) -> None:
    with pytest.raises(TimeLimit, match="step 1 of 2 not reached"):
        _check(tmp_path, "2 0\n0\n", "1 2 0\n3 4 -1 0\n", seconds=-1.0)


def test_the_steps_shared_by_two_processes_give_the_same_verdicts(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step is an independent check: shared among forked workers (here from 1 step each),
    a valid proof is valid and a broken step is found, whichever worker holds it."""
    import queens.solvers.proofs.proof_steps as proof_steps

    monkeypatch.setattr(proof_steps, "STEPS_PER_WORKER", 1)
    said = _check(tmp_path, "2 0\n0\n", "1 2 0\n3 4 -1 0\n", workers=2)
    assert said.startswith("valid: 2 steps") and "2 processes" in said
    for hints in ("1 0\n3 4 -1 0\n", "1 2 0\n3 -1 0\n"):  # step 1's hint short, then step 2's
        assert _check(tmp_path, "2 0\n0\n", hints, workers=2).startswith("invalid: step")
