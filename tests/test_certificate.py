"""Certificates: every "no" and every optimum comes with a DRUP proof that drup and dratify accept,
and a proof that does not prove its formula is rejected by both (queens.solvers.certificate)."""

from __future__ import annotations

import doctest
import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from queens.models import Completion, Puzzle, lower, symmetry_group, verify
from queens.models.domination import Domination
from queens.models.puzzle_file import SHIPPED, load
from queens.models.symmetry import lex_leader
from queens.solvers.certificate import (
    LEX_LEADER,
    NotProved,
    Reduction,
    better_than,
    certify_none,
    certify_optimum,
    with_fixed,
)
from queens.solvers.proof import check_files, proof_lines, refute, unit_core, write
from queens.solvers.sat import Sat, cnf

NO_COMPLETIONS = [(4, [(0, 0)]), (5, [(0, 0), (1, 2), (4, 1)]), (8, [(3, 0), (4, 7), (6, 4), (1, 3), (0, 6)])]
"""Completions with no solution (the 5 x 5 and 8 x 8 ones by unit propagation alone: no lemma)."""


def _both_accept(certificate: object) -> None:
    checks = certificate.checks  # type: ignore[attr-defined]
    assert [v.checker.split()[0] for v in checks] == ["drup", "dratify"]
    assert all(v.verdict == "valid" for v in checks), checks


@pytest.mark.parametrize(("n", "queens"), NO_COMPLETIONS)
def test_no_solution_is_proved_by_both_checkers(n: int, queens: list[tuple[int, int]], tmp_path: Path) -> None:
    certificate = certify_none(lower(Completion(n, queens)), proof_dir=tmp_path)
    _both_accept(certificate)
    assert certificate.proved and certificate.checked_by_both and certificate.claim == "no solution"
    cnf_file, proof_file = map(Path, certificate.files)
    assert hashlib.sha256(cnf_file.read_bytes()).hexdigest() == certificate.cnf_sha256
    assert hashlib.sha256(proof_file.read_bytes()).hexdigest() == certificate.proof_sha256
    assert proof_file.stat().st_size == certificate.proof_bytes
    shape = certificate.to_json()
    assert shape["trusted"]["encoder"] == "queens.solvers.sat.cnf" and shape["trusted"]["cardinality"] == ["seqcounter"]


def test_a_satisfiable_model_is_not_proved() -> None:
    with pytest.raises(NotProved) as refused:
        certify_none(lower(Completion(8, [(0, 0)])))
    assert refused.value.placement is not None
    verify(Completion(8, [(0, 0)]), refused.value.placement)


@pytest.mark.parametrize("n", range(1, 7))
def test_domination_optimum_matches_oeis(n: int, reference) -> None:
    puzzle = Domination(n)
    model = lower(puzzle)
    witness = Sat().minimise(model, None)
    assert witness is not None
    certificate = certify_optimum(model, witness, len(witness), lambda p: verify(puzzle, p))
    _both_accept(certificate)
    assert certificate.value == reference.term("A075458", n)
    assert certificate.refuted == f"at most {certificate.value - 1} pieces"


@pytest.mark.parametrize("n", range(2, 6))
def test_peaceable_optimum_matches_oeis(n: int, reference) -> None:
    puzzle = load(SHIPPED / "peaceable.toml", n)
    model = lower(puzzle)
    value = reference.term("A250000", n)
    witness = Sat().find(model.at_value(value), None)
    assert witness is not None
    certificate = certify_optimum(model, witness, value, lambda p: verify(puzzle, p),
                                  checked_by="queens.models.verify")
    _both_accept(certificate)
    assert certificate.sense == "maximise" and certificate.refuted == f"at least {value + 1} pieces in every group"


def test_a_witness_with_another_value_is_refused() -> None:
    puzzle = Domination(4)
    with pytest.raises(NotProved):
        certify_optimum(lower(puzzle), ((0, 0), (1, 2), (3, 3)), 2, lambda p: verify(puzzle, p))


def _clique_colours(puzzle: Puzzle, colours: int) -> tuple[object, Reduction]:
    """`colours` armies with the first row's queens (a clique) given armies 0, 1, 2, ... in order."""
    model = lower(puzzle.with_copies(colours))
    row = [(c, (0, c)) for c in range(min(colours, puzzle.shape[1]))]
    return with_fixed(model, row, Reduction("clique colours fixed", "row 0's queens take colours 1, 2, ... in order"))


def test_colouring_optimum_names_its_reduction(reference) -> None:
    puzzle = load(SHIPPED / "colouring.toml", 4)
    chi = reference.term("A088202", 4)
    reduced, reduction = _clique_colours(puzzle, chi)
    with pytest.raises(NotProved):  # the reduction keeps a colouring at the optimum
        certify_none(reduced)
    full = lower(puzzle.with_copies(chi))
    witness = Sat().find(full, None)
    assert witness is not None
    fewer, _ = _clique_colours(puzzle, chi - 1)
    certificate = certify_optimum(full, witness, chi, lambda p: verify(puzzle.with_copies(chi), p),
                                  better=fewer, refuted=f"{chi - 1} armies", reductions=[reduction])
    _both_accept(certificate)
    assert certificate.refuted == f"{chi - 1} armies"
    assert certificate.to_json()["reductions"] == [{"name": "clique colours fixed",
                                                    "detail": "row 0's queens take colours 1, 2, ... in order"}]


def test_a_proof_of_a_weakened_formula_is_rejected_by_both(tmp_path: Path) -> None:
    """Drop one clause the refutation needs (the rest is satisfiable): both checkers refuse."""
    formula, _ = cnf(lower(Completion(*NO_COMPLETIONS[2])))
    refutation = refute(formula.clauses, formula.nv)
    assert refutation.unsatisfiable
    for i in range(len(formula.clauses)):
        weakened = formula.clauses[:i] + formula.clauses[i + 1:]
        if not refute(weakened, formula.nv).unsatisfiable:
            break
    else:
        pytest.fail("every clause is redundant")
    forged = refute(weakened, formula.nv)
    cnf_file, proof_file = write(refutation, tmp_path)
    cnf_file.write_text(forged.dimacs)  # the proof of the whole formula, against the weakened one
    verdicts = check_files(cnf_file, proof_file)
    assert [v.verdict for v in verdicts] == ["invalid", "invalid"], verdicts


def test_a_proof_without_lemmas_is_checked_by_drup_on_its_unit_propagation_core(tmp_path: Path) -> None:
    """The 8 x 8 completion: propagation refutes its CNF, so the proof adds no lemma and drup
    reads the clauses propagation used, a part of the formula written beside it."""
    formula, _ = cnf(lower(Completion(*NO_COMPLETIONS[2])))
    refutation = refute(formula.clauses, formula.nv)
    assert refutation.unsatisfiable and proof_lines(refutation.proof)[0] == 0
    cnf_file, proof_file = write(refutation, tmp_path)
    drup, dratify = check_files(cnf_file, proof_file)
    assert drup.valid and dratify.valid and "unit-propagation core" in drup.detail
    core = cnf_file.with_suffix(".core.cnf").read_text().splitlines()
    assert 1 < len(core) - 1 < len(formula.clauses)
    assert set(core[1:]) <= set(cnf_file.read_text().splitlines()[1:])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=3), max_size=14))
def test_the_unit_core_is_a_part_of_the_formula_that_propagation_refutes(clauses: list[list[int]]) -> None:
    """Random small formulas: when unit_core answers, its clauses alone have no solution (pysat
    says so), and propagation refutes them again; when it says None, the formula is either
    satisfiable or needs search (pysat's own propagation finds no conflict at the root)."""
    used = unit_core(clauses)
    with Solver(name="glucose4", bootstrap_with=clauses) as whole:
        root_conflict = not whole.propagate()[0]
    assert (used is not None) == root_conflict
    if used is None:
        return
    core = [clauses[i] for i in used]
    with Solver(name="glucose4", bootstrap_with=core) as part:
        assert not part.solve()
    assert unit_core(core) is not None


def test_a_truncated_proof_is_rejected_by_both(tmp_path: Path) -> None:
    puzzle = Domination(5)
    formula, _ = cnf(lower(puzzle).with_size(2))
    refutation = refute(formula.clauses, formula.nv)
    cnf_file, proof_file = write(refutation, tmp_path)
    kept = [line for line in refutation.proof.splitlines() if line.startswith("d")]
    proof_file.write_text("\n".join(kept) + "\n")  # every deletion, no lemma
    assert [v.verdict for v in check_files(cnf_file, proof_file)] == ["invalid", "invalid"]


def test_the_docs_examples_run() -> None:
    """docs/certificates.md's Python examples, run as doctests (as the family tutorials are)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "certificates.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```pycon\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for body in blocks:
        runner.run(doctest.DocTestParser().get_doctest(body, {}, "certificates", "docs/certificates.md", 0))
    assert runner.summarize(verbose=False).failed == 0


def test_symmetry_breaking_is_dropped_unless_named(reference) -> None:
    """A model's lex chains prove less than the puzzle says: certify_none drops them, or keeps
    them with lex=True and names the reduction; they keep a solution where one exists."""
    puzzle = Domination(5)
    model = lower(puzzle)
    three = lex_leader(model.with_size(3), symmetry_group(model))
    with pytest.raises(NotProved):
        certify_none(three, lex=True)
    witness = Sat().minimise(model, None)
    assert witness is not None and len(witness) == reference.term("A075458", 5)
    better, refuted = better_than(model, len(witness))
    kept = certify_optimum(model, witness, len(witness), lambda p: verify(puzzle, p), lex=True, refuted=refuted,
                           better=lex_leader(better, symmetry_group(better)))
    _both_accept(kept)
    assert kept.reductions == (LEX_LEADER,)
    assert certify_none(lex_leader(better, symmetry_group(better))).reductions == ()


def test_solve_certify_proves_a_no_and_an_optimum_whichever_backend_answered() -> None:
    """`queens solve --certify` and `queens.solve(puzzle, certify=True)`: native's "no" and
    cpsat's optimum re-proved through the CNF, both checkers agreeing."""
    import json as json_module

    import queens
    from tests.cli import run_main

    no = json_module.loads(run_main("solve", "completion", "-n", "8", "--queens", "0,0 2,1", "--certify",
                                    "--json").stdout)
    assert no["status"] == "no solution" and no["backend"] == "native"
    assert no["certificate"]["claim"] == "no solution" and no["certificate"]["proved"]
    best = queens.solve(Domination(5), "cpsat", certify=True)
    assert best.certificate is not None and best.certificate.claim == "optimum" and best.certificate.value == 3
    assert best.certificate.checked_by_both
    refused = run_main("solve", "colouring", "-n", "4", "--certify")
    assert refused.returncode == 2 and "one answer of one model" in refused.stderr
