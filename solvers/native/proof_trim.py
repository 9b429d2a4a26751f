"""Trimming a DRUP refutation: the formula clauses and the lemmas it needs, found backwards.

drup, the verified checker (`queens.solvers.proofs.unsat_proof`), ignores deletions and propagates naively, so
its time grows with the lemmas times the clauses it holds. Most of both are never used. The
trimmer (Heule, Hunt & Wetzler 2013, as drat-trim does it) follows the proof forwards to the
conflict that refutes the formula, then walks back over the lemmas, last to first, checking
only those that a later check or the final conflict used, and marks the clauses each check's
implication graph uses. What is marked is the core (formula clauses) and the trimmed proof
(lemmas, in their order); each check's clauses are its hints, so that drup can check each lemma
alone against them (`queens.solvers.proofs.proof_steps`), with the top-level units they rest on as
steps of their own. Nothing here is trusted: drup re-checks every step by reverse unit
propagation against the clauses its hints name, so a wrong trim can only make drup say
"invalid". A proof with no lemma (unit propagation alone refutes the formula, as for most
completions) is the same thing with nothing to walk back over: its core is the clauses
propagation used, its steps the units propagation set and the empty clause.

The work is done by a C core (solvers/native/trimcore.c): in pure Python the same walk took
about twenty times as long for queen domination n = 11 (13,631 lemmas), and the 59,115 lemmas
of peaceable queens n = 7 take seconds in C (experiments/results/design-choices.md). Its
plain-Python twin is `trim_proof` in tests/plain_reference.py.

>>> found = trim([[1, 2], [-1, 2], [1, -2], [-1, -2], [3, 4]], [[2], []])
>>> found.core, found.lemmas
((0, 1, 2, 3), (0,))
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from queens.models import QueensError
from queens.solvers.native import require


class NotRefuted(QueensError):
    """The trimmer could not follow the proof to a refutation: a lemma it needs does not follow
    by unit propagation, or the proof ends before propagation finds a conflict. (drup, which
    is trusted, then reads the whole proof and gives its own verdict.)"""


@dataclass(frozen=True)
class Step:
    """One step of the trimmed proof, checked by itself: `clause` follows by unit propagation
    from its `hints` (a formula clause as its index c, an earlier step as -1 - its number). It
    is a lemma of the proof (`lemma`: its index among the added clauses), a top-level unit the
    trimmer names so that later steps need not repeat the clauses behind it (`lemma` None), or,
    last, the empty clause."""

    clause: tuple[int, ...]
    lemma: int | None
    hints: tuple[int, ...]


@dataclass(frozen=True)
class Trim:
    """What a refutation needs: the formula clauses (their indices, ascending) and the lemmas
    (their indices among the proof's added clauses, in proof order; the empty clause is implied);
    and the steps that check it one by one (the kept lemmas and the units they use, in an order
    where each step's hints come before it, the empty clause last)."""

    core: tuple[int, ...]
    lemmas: tuple[int, ...]
    steps: tuple[Step, ...]


def trim(formula: Sequence[Sequence[int]], lemmas: Sequence[Sequence[int]]) -> Trim:
    """The clauses of `formula` and the `lemmas` (a DRUP proof's added clauses, in order, its
    deletions left out) that its refutation needs; raises `NotRefuted` when the proof does not
    refute the formula, `NativeMissing` when the C extension is not built."""
    return _trim_encoded(_int32(formula), len(formula), _int32(lemmas), len(lemmas), lambda j: tuple(lemmas[j]))


def trim_lines(formula: Sequence[str], lemmas: Sequence[str]) -> Trim:
    """`trim` of DIMACS clause lines, each ended by 0 (a formula file's and a proof's, its
    deletions left out), read at C speed: parsing them one by one into lists took most of a
    12 x 12 completion's trim under the profiler, more than the proof's solve
    (experiments/results/design-choices.md)."""
    return _trim_encoded(_dimacs32(formula), len(formula), _dimacs32(lemmas), len(lemmas),
                         lambda j: tuple(map(int, lemmas[j].split()[:-1])))


def _trim_encoded(formula: bytes, nformula: int, lemmas: bytes, nlemmas: int,
                  clause_of: Callable[[int], tuple[int, ...]]) -> Trim:
    require("_trim")
    from queens.solvers.native import _trim

    core, kept, outcome, hints = _trim.trim(formula, lemmas)
    if outcome == _trim.NO_CONFLICT:
        raise NotRefuted("the proof ends before unit propagation finds a conflict")
    if outcome != _trim.OK:
        raise NotRefuted(f"lemma {outcome + 1:,} of {nlemmas:,} does not follow by unit propagation")
    return Trim(tuple(core), tuple(kept), _steps(hints, nformula, nlemmas, clause_of))


def _steps(hints: bytes, nformula: int, nlemmas: int, clause_of: Callable[[int], tuple[int, ...]]) -> tuple[Step, ...]:
    """The C core's hints (trimcore.h) as steps in checking order: the units implied after
    lemma b - 1 come just before lemma b, in trail order, and the empty clause last; lemma j's
    literals are `clause_of(j)`."""
    flat = array("i")
    flat.frombytes(hints)
    nclauses = nformula + nlemmas
    records: dict[tuple[int, int, int], tuple[tuple[int, ...], int | None, list[int]]] = {}
    at = 0
    while at < len(flat):
        step, count = flat[at], flat[at + 1]
        if step >= 0:  # a lemma, or (step = the number of lemmas) the empty clause
            lemma = step if step < nlemmas else None
            records[step, 1, 0] = (() if lemma is None else clause_of(lemma), lemma, list(flat[at + 2:at + 2 + count]))
            at += 2 + count
        else:  # a unit: its place on the trail, its literal, the lemmas added before it
            records[flat[at + 3], 0, -1 - step] = ((flat[at + 2],), None, list(flat[at + 4:at + 4 + count]))
            at += 4 + count
    order = sorted(records)
    number: dict[int, int] = {}  # a clause index (lemma), or nclauses + v (unit of v): its step
    for s, key in enumerate(order):
        clause, lemma, _ = records[key]
        if lemma is not None:
            number[nformula + lemma] = s
        elif key[1] == 0:  # a unit
            number[nclauses + abs(clause[0])] = s
    return tuple(Step(clause, lemma, tuple(c if c < nformula else -1 - number[c] for c in named))
                 for clause, lemma, named in (records[key] for key in order))


def _int32(clauses: Iterable[Sequence[int]]) -> bytes:
    """The clauses as the C core reads them: int32 literals, each clause ended by 0."""
    return array("i", [literal for clause in clauses for literal in (*clause, 0)]).tobytes()


def _dimacs32(lines: Sequence[str]) -> bytes:
    """DIMACS clause lines as the C core reads them; a ValueError when they are not one clause
    each (a line without its closing 0 would run into the next)."""
    literals = array("i", map(int, " ".join(lines).split()))
    if literals.count(0) != len(lines) or (lines and literals[-1] != 0):
        raise ValueError("not one DIMACS clause per line, each ended by 0")
    return literals.tobytes()
