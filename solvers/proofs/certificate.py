"""Certified answers: every "no solution" and every optimum with a proof two checkers accept.

A backend's "no solution" (or "optimal") is only its word. Here the model is encoded to CNF by
the sat backend's encoder (`queens.solvers.formats.cnf.cnf`, without symmetry breaking: lex chains would
make the CNF say less than the puzzle), solved by a pysat solver that logs a DRUP proof, and the
proof is checked by `drup` and by `dratify` (`queens.solvers.proofs.unsat_proof`). An optimum k is a witness
with value k, re-checked by the independent checker the caller names, and a proof that no
solution is better: at most k - 1 pieces when minimising, every group at least k + 1 when
maximising. What the proof trusts is spelt out in `TRUSTED` and docs/certificates.md.

>>> from queens.models import Completion, lower
>>> certificate = certify_none(lower(Completion(4, [(0, 0)])))
>>> certificate.proved, certificate.claim
(True, 'no solution')
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import version
from pathlib import Path

from queens.models import ConstraintModel, QueensError, Unsupported, lower, verify
from queens.models.ir import Line, LineFamily, Var
from queens.models.puzzle import Puzzle
from queens.solvers.formats.cnf import DEFAULT_ENCODING, cnf, one_only_refusal
from queens.solvers.proofs.unsat_proof import (
    DRUP_SECONDS,
    PROOF_SOLVER,
    Verdict,
    check_files,
    proof_lines,
    refute,
    sha256,
    write,
)
from queens.solvers.result import Result, Status
from queens.solvers.runtime.extras import require

TRUSTED = ("the lowering (queens.models.lowering: the puzzle's rules as lines, covers, "
           "fixed cells, clauses and attack counts)",
           "the CNF encoder (queens.solvers.formats.cnf.cnf) and pysat's cardinality encodings it names",
           "the DIMACS writer (queens.solvers.proofs.unsat_proof.to_dimacs)",
           "the check that the core both checkers read is lines of the formula "
           "(queens.solvers.proofs.unsat_proof.trim_files)",
           "one of the two proof checkers (drup with the loop that checks each step against its hints, "
           "queens.solvers.proofs.proof_steps; or dratify)")
"""What a certificate does not check: if all of these are right, the claim is true."""


class NotProved(QueensError):
    """The claim could not be certified: the CNF has a solution (a backend said "no" for a
    satisfiable model: a disagreement), or a witness failed its check, or a checker refused."""

    def __init__(self, message: str, placement: tuple[Var, ...] | None = None) -> None:
        super().__init__(message)
        self.placement = placement


@dataclass(frozen=True)
class Reduction:
    """A change to the model that keeps the answer and makes the proof feasible, named in the
    certificate (e.g. fixing the colours of one clique: any colouring permutes to one that
    gives the clique colours 1, 2, ..., so "no colouring" is unchanged)."""

    name: str
    detail: str


LEX_LEADER = Reduction("lex-leader symmetry breaking",
                       "only solutions whose variables (cells, or the sides of the lines two armies share) are "
                       "lexicographically at least their images under the model's symmetries "
                       "(queens.models.symmetry.lex_leader_over, Crawford et al. 1996); every class of solutions "
                       "has one")


@dataclass(frozen=True)
class Certificate:
    """What was proved and how; `to_json()` is the `certificate` object of `--json`."""

    claim: str
    """"no solution", or "optimum" (then `value`, `sense` and `witness` say which)."""
    refuted: str
    """The statement the proof shows has no solution, in words."""
    cnf_variables: int
    cnf_clauses: int
    cnf_bytes: int
    cnf_sha256: str
    proof_added: int
    proof_deleted: int
    proof_bytes: int
    proof_sha256: str
    solver: str
    solve_seconds: float
    checks: tuple[Verdict, ...]
    encodings: tuple[str, ...]
    value: int | None = None
    sense: str | None = None
    witness: tuple[Var, ...] | None = None
    witness_checked_by: str | None = None
    reductions: tuple[Reduction, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def proved(self) -> bool:
        """A checker accepted the proof and none rejected it (drup may have run out of time;
        `checked_by_both` says whether both accepted)."""
        return any(v.valid for v in self.checks) and not any(v.verdict == "invalid" for v in self.checks)

    @property
    def checked_by_both(self) -> bool:
        return bool(self.checks) and all(v.valid for v in self.checks)

    def to_json(self) -> dict[str, object]:
        return {
            "claim": self.claim, "proved": self.proved, "checked_by_both": self.checked_by_both,
            "refuted": self.refuted, "value": self.value, "sense": self.sense,
            "witness": None if self.witness is None else [list(_plain(v)) for v in self.witness],
            "witness_checked_by": self.witness_checked_by,
            "cnf": {"variables": self.cnf_variables, "clauses": self.cnf_clauses, "bytes": self.cnf_bytes,
                    "sha256": self.cnf_sha256},
            "proof": {"format": "DRUP", "solver": self.solver, "added": self.proof_added,
                      "deleted": self.proof_deleted, "bytes": self.proof_bytes, "sha256": self.proof_sha256},
            "solve_seconds": round(self.solve_seconds, 6),
            "checks": [v.to_json() for v in self.checks],
            "trusted": {"encoder": "queens.solvers.formats.cnf.cnf", "cardinality": list(self.encodings),
                        "pysat": version("python-sat"), "base": list(TRUSTED)},
            "reductions": [dataclasses.asdict(r) for r in self.reductions],
            "files": list(self.files),
        }


def certify_none(model: ConstraintModel, *, encoding: str | None = None, proof_dir: Path | None = None,
                 reductions: Sequence[Reduction] = (), refuted: str = "the puzzle", solver: str = PROOF_SOLVER,
                 drup_seconds: float = DRUP_SECONDS, lex: bool = False) -> Certificate:
    """A checked proof that `model` has no solution; raises `NotProved` (with the placement)
    when the CNF has one. `proof_dir` keeps the CNF and the proof there, named by the CNF's hash.

    The model's lex-leader chains are dropped (a proof with them says only that no solution
    *leads its symmetry class*) unless `lex`: then they stay, named as the reduction `LEX_LEADER`
    (every class has a leader, so "none" is unchanged; the chains join the trusted base)."""
    require("certify", "a certificate (--certify)")
    bare = model if lex and model.lex is not None else replace(model, lex=None)
    if bare.lex is not None:
        reductions = (*reductions, LEX_LEADER)
    encoding = encoding or proof_encoding(bare)
    formula, cell_of = cnf(bare, encoding)
    refutation = refute(formula.clauses, formula.nv, solver)
    if not refutation.unsatisfiable:
        placement = tuple(sorted(cell_of[v] for v in refutation.model if v in cell_of))
        raise NotProved(f"{refuted} has a solution in its CNF: {list(placement)}", placement)
    with tempfile.TemporaryDirectory(prefix="queens-proof-") as scratch:
        files = write(refutation, proof_dir or Path(scratch))
        checks = tuple(check_files(*files, drup_seconds))
    added, deleted = proof_lines(refutation.proof)
    return Certificate(
        claim="no solution", refuted=refuted, cnf_variables=formula.nv, cnf_clauses=len(formula.clauses),
        cnf_bytes=len(refutation.dimacs.encode()), cnf_sha256=sha256(refutation.dimacs), proof_added=added,
        proof_deleted=deleted, proof_bytes=len(refutation.proof.encode()), proof_sha256=sha256(refutation.proof),
        solver=solver, solve_seconds=refutation.seconds, checks=checks, encodings=encodings_of(bare, encoding),
        reductions=tuple(reductions), files=tuple(map(str, files)) if proof_dir else (),
    )


def certify_optimum(model: ConstraintModel, witness: Sequence[Var], value: int,
                    check: Callable[[Sequence[Var]], object], *, checked_by: str = "queens.models.verify",
                    better: ConstraintModel | None = None, refuted: str | None = None,
                    proof_dir: Path | None = None, reductions: Sequence[Reduction] = (),
                    encoding: str | None = None, drup_seconds: float = DRUP_SECONDS,
                    lex: bool = False) -> Certificate:
    """A certificate that `value` is `model`'s optimum: `witness` (checked by `check`, the
    independent checker, which raises when it fails) reaches it, and a proof that nothing is
    better. `better` is the model of "better than value" when the model cannot say it itself
    (fewer colours is another puzzle: the caller builds it, says it in words in `refuted` and
    names any reduction)."""
    sense = "maximise" if model.objective and model.objective.sense == "maximise" else "minimise"
    check(witness)
    if better is None:  # the model measures the value itself: the witness must reach it
        reached = value_of(model, witness)
        if reached != value:
            raise NotProved(f"the witness has value {reached}, not {value}", tuple(witness))
        better, statement = better_than(model, value)
    else:  # the value is the caller's (the number of armies): so is the model of better
        statement = refuted or f"a value better than {value}"
    certificate = certify_none(better, encoding=encoding, proof_dir=proof_dir, reductions=reductions,
                               refuted=statement, drup_seconds=drup_seconds, lex=lex)
    return replace(certificate, claim="optimum", value=value, sense=sense, witness=tuple(witness),
                   witness_checked_by=checked_by)


def better_than(model: ConstraintModel, value: int) -> tuple[ConstraintModel, str]:
    """The model of a solution better than `value`, and that statement in words: at most
    value - 1 pieces (minimising the size), every objective group at least value + 1
    (maximising) or at most value - 1 (minimising)."""
    if model.objective is None:
        if not model.minimise:
            raise NotProved("the model has no objective and does not minimise: nothing is optimal")
        everything = LineFamily("certified bound", (Line(model.cells, at_most=value - 1),))
        bare = replace(model, minimise=False, size=None, size_implied=False)
        return replace(bare, families=(*bare.families, everything)), f"at most {value - 1} pieces"
    if model.objective.sense == "maximise":
        return model.at_least_value(value + 1), f"at least {value + 1} pieces in every group"
    groups = LineFamily("certified bound", tuple(Line(g, at_most=value - 1) for g in model.objective.groups))
    return replace(model, objective=None, families=(*model.families, groups)), f"at most {value - 1} in every group"


def value_of(model: ConstraintModel, placement: Sequence[Var]) -> int | None:
    """The placement's objective value: its size, or the common size of the objective's groups
    (None when the groups disagree: then it is no solution of equal groups)."""
    if model.objective is None:
        return len(placement)
    chosen = set(placement)
    sizes = {len(chosen.intersection(group)) for group in model.objective.groups}
    return sizes.pop() if len(sizes) == 1 else None


def with_fixed(model: ConstraintModel, variables: Sequence[Var],
               reduction: Reduction) -> tuple[ConstraintModel, Reduction]:
    """`model` with `variables` fixed to hold a piece, and the reduction that says why that is
    allowed (the caller knows; the certificate names it)."""
    return replace(model, fixed=model.fixed | frozenset(variables)), reduction


PAIRWISE_MOST = 1_000_000
"""The most clauses the pairwise encoding may write for a certificate's lines (50 x 50: 203,484)."""


def proof_encoding(model: ConstraintModel) -> str:
    """The cardinality encoding a certificate's CNF is written in, when none is asked: `pairwise`
    when every bound is one (lines and attack counts) and the lines' pairs stay within
    PAIRWISE_MOST, else `DEFAULT_ENCODING`. A completion is refuted by propagation through a queen's own two-cell
    clauses, so drup reads a core of a few hundred clauses (50 x 50: 786), where the sequential
    counter's chains of auxiliaries made cores of thousands that drup checked many times slower,
    or not within its limit (experiments/results/certified.md, design-choices.md)."""
    pairs = sum(len(line.cells) * (len(line.cells) - 1) // 2 for line in model.lines)
    fits = one_only_refusal(model, "pairwise") is None and pairs <= PAIRWISE_MOST
    return "pairwise" if fits else DEFAULT_ENCODING


def encodings_of(model: ConstraintModel, encoding: str) -> tuple[str, ...]:
    """pysat's cardinality encodings the CNF of `model` uses: the lines' and, when the size is
    not implied by an exactly-one family, the totalizer over every cell."""
    size = model.size is not None and not model.size_implied
    return (encoding, "totalizer") if size and encoding != "totalizer" else (encoding,)


def _plain(var: Var) -> tuple[object, ...]:
    """A variable key as JSON can hold it: (r, c), or (army, (coordinates)) flattened."""
    if isinstance(var, tuple) and len(var) == 2 and isinstance(var[1], tuple):
        return (var[0], *var[1])
    return tuple(var)


__all__ = ["Certificate", "LEX_LEADER", "NotProved", "Reduction", "TRUSTED", "better_than", "certify_none",
           "certify_optimum", "encodings_of", "proof_encoding", "value_of", "with_fixed"]


def certify_answer(puzzle: Puzzle, result: Result, proof_dir: Path | None = None) -> Certificate | None:
    """The certificate of a routed answer, whichever backend gave it: a "no solution" re-proved
    through the CNF of the puzzle's model (no symmetry breaking), an optimum by its witness and a
    proof that nothing is better; None for an answer with nothing to prove (a solution is
    already re-checked by the independent checker). The fewest copies (a search over models) is
    proved on the model with one copy fewer (`certify_copies`).
    A CNF that disagrees with the backend raises NotProved: a wrong answer, found."""
    if result.status not in (Status.INFEASIBLE, Status.OPTIMAL):
        return None
    if puzzle.copies_open:
        return certify_copies(puzzle, result, proof_dir)
    model = lower(puzzle, roomless=True)  # "no room" (the pigeonhole's answer) is proved on the model too
    if result.status is Status.INFEASIBLE:
        return certify_none(model, proof_dir=proof_dir)
    assert result.solution is not None and result.objective is not None
    return certify_optimum(model, result.solution, result.objective, lambda found: verify(puzzle, found),
                           proof_dir=proof_dir)


def certify_copies(puzzle: Puzzle, result: Result, proof_dir: Path | None = None,
                   drup_seconds: float = DRUP_SECONDS) -> Certificate | None:
    """The certificate of the fewest copies k (a colouring's chromatic number): the witness with k
    copies, checked by the independent checker, and a proof that k - 1 copies have no solution;
    None when k is 1 (no fewer copies to refute). The most copies k (disjoint solutions,
    A171760) alike, with a proof that k + 1 copies have none (the most-copies strategy answers
    only puzzles where fewer copies break no rule, so no more than k + 1 fit either). A search
    that found no optimum is refused.

    Where one line of the first row is a clique (every cell holds a piece, `partition`; one piece
    per line of a copy, `within`; the piece slides along rows; nothing on row 0 that is not a
    square; no piece placed beforehand, which would set one copy apart), the copies being
    interchangeable, any solution permutes to one whose first row takes
    copies 1, 2, ... in order: those are fixed, and the reduction named (queen8_8's 8 colours in
    seconds, not hours)."""
    most = puzzle.copies_goal == "maximise"
    if result.status is not Status.OPTIMAL or result.objective is None or result.solution is None:
        raise Unsupported(f"--certify proves the {'most' if most else 'fewest'} copies of a solved puzzle; "
                          "this search found no optimum")
    k = result.objective
    if most:
        if k == 0:  # not even one copy fits: the one-copy model has no solution
            return certify_none(lower(puzzle.with_copies(1)), proof_dir=proof_dir)
        full = puzzle.with_copies(k)
        return certify_optimum(lower(full), result.solution, k, lambda found: verify(full, found),
                               better=lower(puzzle.with_copies(k + 1), roomless=True), refuted=f"{k + 1} copies",
                               drup_seconds=drup_seconds, proof_dir=proof_dir)
    if k <= 1:
        return None
    full = puzzle.with_copies(k)
    fewer = lower(puzzle.with_copies(k - 1))
    reductions: list[Reduction] = []
    if _first_row_is_clique(puzzle):
        row = [(c, (0, c)) for c in range(min(k - 1, puzzle.cols))]
        fewer = replace(fewer, fixed=fewer.fixed | frozenset(row))
        reductions.append(Reduction("clique colours fixed",
                                    f"row 0 is a clique of {puzzle.cols} pieces; copies are interchangeable, so its "
                                    f"first {len(row)} pieces take copies 1..{len(row)} in order"))
    return certify_optimum(lower(full), result.solution, k, lambda found: verify(full, found),
                           better=fewer, refuted=f"{k - 1} copies", reductions=reductions, drup_seconds=drup_seconds,
                           proof_dir=proof_dir)


def _first_row_is_clique(puzzle: Puzzle) -> bool:
    """Whether the first row's cells must hold pieces of pairwise different copies: see `certify_copies`."""
    first_row = {(0, c) for c in range(puzzle.cols)}
    return (len(puzzle.armies) == 1 and puzzle.partition and puzzle.within and puzzle.dimensions == 2
            and (0, 1) in puzzle.armies[0].piece.rays and not any(puzzle.wrap)
            and not puzzle.armies[0].fixed and not first_row & (puzzle.holes | puzzle.blockers | puzzle.missing))
