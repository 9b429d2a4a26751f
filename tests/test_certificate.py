"""Certificates: every "no" and every optimum comes with a DRUP proof that drup and dratify accept,
and a proof that does not prove its formula is rejected by both (queens.solvers.proofs.certificate)."""

from __future__ import annotations

import doctest
import hashlib
import re
from array import array
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from queens.models import Completion, ConstraintModel, Puzzle, lower, symmetry_group, verify
from queens.models.domination import Domination
from queens.models.puzzle_file import SHIPPED, load
from queens.models.symmetry import lex_leader
from queens.solvers.backends.sat import Sat
from queens.solvers.formats.cnf import cnf
from queens.solvers.native import _trim
from queens.solvers.native.proof_trim import NotRefuted, Trim, _int32, trim, trim_lines
from queens.solvers.proofs.certificate import (
    LEX_LEADER,
    NotProved,
    Reduction,
    better_than,
    certify_none,
    certify_optimum,
    proof_encoding,
    with_fixed,
)
from queens.solvers.proofs.unsat_proof import Refutation, check_files, proof_lines, refute, trim_files, write

from tests.plain_reference import trim_proof

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
    trusted = certificate.to_json()["trusted"]
    assert isinstance(trusted, dict)
    assert trusted["encoder"] == "queens.solvers.formats.cnf.cnf"
    assert trusted["cardinality"] == ["pairwise"]


def test_the_proof_is_written_pairwise_only_for_lines_of_at_most_one() -> None:
    """A completion's lines hold one queen: pairwise, so propagation's reasons are a queen's own
    clauses; "at most k pieces" (k > 1) needs a counter: the sequential one."""
    assert proof_encoding(lower(Completion(8, [(0, 0)]))) == "pairwise"
    fewer, _ = better_than(lower(Domination(5)), 3)
    assert proof_encoding(fewer) == "seqcounter"


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
    assert certificate.value is not None and certificate.value == reference.term("A075458", n)
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


def _clique_colours(puzzle: Puzzle, colours: int) -> tuple[ConstraintModel, Reduction]:
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
    """The 8 x 8 completion: propagation refutes its CNF, so the proof adds no lemma, and the
    core drup reads is the clauses propagation used, a part of the formula written beside it."""
    formula, _ = cnf(lower(Completion(*NO_COMPLETIONS[2])))
    refutation = refute(formula.clauses, formula.nv)
    assert refutation.unsatisfiable and proof_lines(refutation.proof)[0] == 0
    cnf_file, proof_file = write(refutation, tmp_path)
    drup, dratify = check_files(cnf_file, proof_file)
    assert drup.valid and dratify.valid and "core and trimmed proof" in drup.detail
    assert drup.trimmed is not None and (drup.trimmed.lemmas, drup.trimmed.of_lemmas) == (0, 0)
    core = cnf_file.with_suffix(".core.cnf").read_text().splitlines()
    assert 1 < len(core) - 1 == drup.trimmed.clauses < len(formula.clauses)
    assert set(core[1:]) <= set(cnf_file.read_text().splitlines()[1:])


def test_the_trimmer_reads_clause_lines_as_the_lists_they_are() -> None:
    """trim_lines (the files' lines, parsed at C speed) finds what trim finds on the same
    clauses, and refuses a line without its closing 0 instead of running it into the next."""
    formula, lemmas = [[1, 2], [-1, 2], [1, -2], [-1, -2], [3, 4]], [[2], []]
    lines = [" ".join(map(str, (*clause, 0))) for clause in formula]
    assert trim_lines(lines, ["2 0", "0"]) == trim(formula, lemmas)
    with pytest.raises(ValueError, match="ended by 0"):
        trim_lines(["1 2", "-1 2 0"], [])


def test_drup_past_its_budget_says_timeout_and_dratify_still_checks(tmp_path: Path) -> None:
    """A budget already spent: drup's verdict is "timeout" (not "invalid"), dratify's "valid"."""
    _, cnf_file, proof_file = _proof_of((6, 2), tmp_path)
    drup, dratify = check_files(cnf_file, proof_file, drup_seconds=-1.0)
    assert (drup.verdict, dratify.verdict) == ("timeout", "valid")
    assert "step by step" in drup.detail and drup.trimmed is not None


def _proof_of(model_size: tuple[int, int], tmp_path: Path) -> tuple[Refutation, Path, Path]:
    """A refutation with lemmas: queen domination on n x n with at most k queens, as files."""
    n, k = model_size
    formula, _ = cnf(lower(Domination(n)).with_size(k))
    refutation = refute(formula.clauses, formula.nv)
    assert refutation.unsatisfiable and proof_lines(refutation.proof)[0] > 1
    return (refutation, *write(refutation, tmp_path))


@pytest.mark.parametrize("model_size", [(4, 1), (5, 2), (6, 2)])
def test_a_trimmed_proof_is_a_part_of_the_proof_that_both_checkers_accept(model_size: tuple[int, int],
                                                                          tmp_path: Path) -> None:
    """The core is formula lines, the trimmed proof is proof lines in their order (no deletions)
    and the units the trimmer names, and each checker, reading those files, accepts them; the
    certificate says what drup read."""
    refutation, cnf_file, proof_file = _proof_of(model_size, tmp_path)
    drup, dratify = check_files(cnf_file, proof_file)
    assert drup.valid and dratify.valid and drup.trimmed is not None
    trimmed = drup.trimmed
    assert f"{trimmed.lemmas:,} of {trimmed.of_lemmas:,} lemmas" in drup.detail
    assert trimmed.of_lemmas == proof_lines(refutation.proof)[0] and trimmed.lemmas <= trimmed.of_lemmas
    core = trimmed.cnf_file.read_text().splitlines()[1:]
    assert len(core) == trimmed.clauses and set(core) <= set(refutation.dimacs.splitlines()[1:])
    lemmas = trimmed.proof_file.read_text().splitlines()
    added = [line for line in refutation.proof.splitlines() if line.strip() and not line.startswith("d")]
    assert len(lemmas) == trimmed.lemmas + trimmed.units and lemmas[-1] == "0"
    assert _in_order([line for line in lemmas if line in added], added)
    assert all(len(line.split()) == 2 for line in lemmas if line not in added)  # the units
    assert [v.verdict for v in check_files(trimmed.cnf_file, trimmed.proof_file)] == ["valid", "valid"]


def _in_order(part: list[str], whole: list[str]) -> bool:
    """Whether `part` is `whole` with some lines left out (a subsequence)."""
    lines = iter(whole)
    return all(line in lines for line in part)


def test_a_corrupted_lemma_is_rejected_by_both(tmp_path: Path) -> None:
    """A lemma the refutation needs, replaced by a unit clause that does not follow by unit
    propagation: the trimmer cannot follow the proof, drup reads the whole and refuses, and so
    does dratify."""
    refutation, cnf_file, proof_file = _proof_of((6, 2), tmp_path)
    lines = refutation.proof.splitlines()
    formula = [[int(x) for x in line.split()[:-1]] for line in refutation.dimacs.splitlines()[1:]]
    added = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("d")]
    needed = trim(formula, [[int(x) for x in lines[i].split()[:-1]] for i in added]).lemmas
    variables = int(refutation.dimacs.split()[2])
    with Solver(name="glucose4", bootstrap_with=formula) as solver:  # unit propagation at the root only
        free = next(v for v in range(1, variables + 1) if solver.propagate(assumptions=[-v])[0])
    lines[added[needed[0]]] = f"{free} 0"
    proof_file.write_text("\n".join(lines) + "\n")
    drup, dratify = check_files(cnf_file, proof_file)
    assert (drup.verdict, dratify.verdict) == ("invalid", "invalid"), (drup, dratify)
    assert "not trimmed: lemma" in drup.detail and drup.trimmed is None


def test_a_wrong_trim_makes_drup_refuse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Soundness does not rest on the trimmer: a trim that leaves out a lemma the others need, or
    a formula clause, or a hint, or names a later step as a hint (the empty clause's own), is
    refused by drup (which re-checks every step against its hints), and one that leaves out a
    lemma or a clause by dratify too (which reads the same core and steps, not the hints)."""
    import queens.solvers.proofs.unsat_proof as proof

    refutation, cnf_file, proof_file = _proof_of((6, 2), tmp_path)
    right = trim_files(cnf_file, proof_file)
    assert [v.verdict for v in check_files(right.cnf_file, right.proof_file)] == ["valid", "valid"]
    found = trim_lines  # the real trimmer, before each wrong one stands in for it

    def short_of_lemmas(formula: list[str], lemmas: list[str]) -> Trim:
        whole = found(formula, lemmas)
        return Trim(whole.core, whole.lemmas, whole.steps[len(whole.steps) // 2:])

    def short_of_clauses(formula: list[str], lemmas: list[str]) -> Trim:
        whole = found(formula, lemmas)
        return Trim(whole.core[1:], whole.lemmas, whole.steps)

    def short_of_hints(formula: list[str], lemmas: list[str]) -> Trim:
        whole = found(formula, lemmas)
        return Trim(whole.core, whole.lemmas, tuple(replace(step, hints=step.hints[1:]) for step in whole.steps))

    def hints_from_later(formula: list[str], lemmas: list[str]) -> Trim:
        whole = found(formula, lemmas)
        last = len(whole.steps) - 1
        return Trim(whole.core, whole.lemmas, tuple(replace(step, hints=(-1 - last,)) for step in whole.steps))
    for wrong in (short_of_lemmas, short_of_clauses, short_of_hints, hints_from_later):
        monkeypatch.setattr(proof, "trim_lines", wrong)
        drup, dratify = check_files(cnf_file, proof_file)
        hints_only = wrong in (short_of_hints, hints_from_later)  # dratify reads no hints
        assert (drup.verdict, dratify.verdict) == ("invalid", "valid" if hints_only else "invalid"), wrong.__name__


FORMULAS = st.lists(st.lists(st.integers(-7, 7).filter(bool), min_size=1, max_size=3), max_size=40)
"""Random small formulas: up to 40 clauses of up to 3 literals over 7 variables."""


HARD = st.lists(st.lists(st.integers(-8, 8).filter(bool), min_size=3, max_size=3, unique_by=abs), min_size=30,
                max_size=60)
"""Random 3-SAT over 8 variables at 4 to 7 clauses per variable: mostly unsatisfiable, and
mostly not by unit propagation alone (Glucose's proofs have lemmas the trimmer keeps)."""


def _unsatisfiable(clauses: list[list[int]]) -> bool:
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        return not solver.solve()


@settings(max_examples=200, deadline=None)
@given(FORMULAS)
def test_the_unit_core_is_a_part_of_the_formula_that_propagation_refutes(clauses: list[list[int]]) -> None:
    """With no lemma, the trimmer's core is the clauses unit propagation used: it answers exactly
    when propagation finds a conflict (pysat's own propagation at the root agrees), those clauses
    alone have no solution, and propagation refutes them again."""
    with Solver(name="glucose4", bootstrap_with=clauses) as whole:
        root_conflict = not whole.propagate()[0]
    try:
        used = trim(clauses, []).core
    except NotRefuted:
        assert not root_conflict
        return
    assert root_conflict
    core = [clauses[i] for i in used]
    with Solver(name="glucose4", bootstrap_with=core) as part:
        assert not part.solve()
    assert trim(core, []).core == tuple(range(len(core)))


def _dratify_accepts_the_trimmed_proof(clauses: list[list[int]]) -> None:
    import dratify

    refutation = refute(clauses, 8)
    added = [line for line in refutation.proof.splitlines() if line.strip() and not line.startswith("d")]
    found = trim(clauses, [[int(x) for x in line.split()[:-1]] for line in added])
    core = "".join(" ".join(map(str, clauses[i])) + " 0\n" for i in found.core)
    proof = "".join(added[j] + "\n" for j in found.lemmas) + "0\n"
    assert dratify.check_proof(dratify.parse_dimacs(f"p cnf 8 {len(found.core)}\n{core}"), proof).ok


@settings(max_examples=50, deadline=None)
@given(HARD.filter(_unsatisfiable))
def test_a_trimmed_proof_is_rup_valid_for_dratify(clauses: list[list[int]]) -> None:
    """Glucose's proof of a random unsatisfiable formula, trimmed: the core and the kept lemmas,
    in order, are a proof dratify accepts (drup reads the same files in the tests above)."""
    _dratify_accepts_the_trimmed_proof(clauses)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(HARD.filter(_unsatisfiable))
def test_a_trimmed_proof_is_rup_valid_for_dratify_on_many_more_formulas(clauses: list[list[int]]) -> None:
    """The same, 200 formulas (6 s with one worker per core, 14-25 s with two: `make test` runs 50)."""
    _dratify_accepts_the_trimmed_proof(clauses)


@settings(max_examples=300, deadline=None)
@given(st.one_of(FORMULAS, HARD), st.lists(st.lists(st.integers(-8, 8).filter(bool), max_size=3), max_size=12),
       st.booleans())
def test_the_c_trimmer_follows_its_python_twin(clauses: list[list[int]], lemmas: list[list[int]],
                                               glucose: bool) -> None:
    """trimcore.c against tests/plain_reference.py's trim_proof: the same core, the same lemmas and
    the same outcome, on Glucose's proofs and on random lemmas (most of which do not follow)."""
    if glucose:
        refutation = refute(clauses, 8)
        lemmas = [[int(x) for x in line.split()[:-1]] for line in refutation.proof.splitlines()
                  if line.strip() and not line.startswith("d")]
    core, kept, outcome, hints = _trim.trim(_int32(clauses), _int32(lemmas))
    assert (core, kept, outcome, _raw_hints(hints)) == trim_proof(clauses, lemmas)


def test_the_c_trimmer_follows_its_python_twin_on_a_puzzle_proof(tmp_path: Path) -> None:
    """The same on a proof of some length: queen domination, 5 x 5 with 2 queens (89 lemmas)."""
    refutation, _, _ = _proof_of((5, 2), tmp_path)
    formula = [[int(x) for x in line.split()[:-1]] for line in refutation.dimacs.splitlines()[1:]]
    lemmas = [[int(x) for x in line.split()[:-1]] for line in refutation.proof.splitlines()
              if line.strip() and not line.startswith("d")]
    core, kept, outcome, hints = _trim.trim(_int32(formula), _int32(lemmas))
    assert outcome == _trim.OK and 0 < len(kept) < len(lemmas)
    assert (core, kept, outcome, _raw_hints(hints)) == trim_proof(formula, lemmas)


def _raw_hints(hints: bytes) -> list[tuple[int, int | None, int | None, list[int]]]:
    """The C core's hints as they come (trimcore.h): per lemma checked, its number and its hints;
    per unit, its trail place, its literal, the lemmas before it and its hints."""
    flat, at = array("i"), 0
    steps: list[tuple[int, int | None, int | None, list[int]]] = []
    flat.frombytes(hints)
    while at < len(flat):
        step, count = flat[at], flat[at + 1]
        if step >= 0:
            steps.append((step, None, None, list(flat[at + 2:at + 2 + count])))
            at += 2 + count
        else:
            steps.append((step, flat[at + 2], flat[at + 3], list(flat[at + 4:at + 4 + count])))
            at += 4 + count
    return steps


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
    fewest = json_module.loads(run_main("solve", "colouring", "-n", "4", "--certify", "--json").stdout)  # k - 1 refuted
    assert fewest["objective"] == 5 and fewest["certificate"]["refuted"] == "4 copies"
    assert fewest["certificate"]["checked_by_both"] and fewest["certificate"]["reductions"][0]["name"] == (
        "clique colours fixed")
