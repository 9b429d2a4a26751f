"""Trimming a DRUP refutation: the formula clauses and the lemmas it needs, found backwards.

drup, the verified checker (`queens.solvers.proof`), ignores deletions and propagates naively, so
its time grows with the lemmas times the clauses it holds. Most of both are never used. The
trimmer (Heule, Hunt & Wetzler 2013, as drat-trim does it) follows the proof forwards to the
conflict that refutes the formula, then walks back over the lemmas, last to first, checking
only those that a later check or the final conflict used, and marks the clauses each check's
implication graph uses. What is marked is the core (formula clauses) and the trimmed proof
(lemmas, in their order); drup then checks that. Nothing here is trusted: drup re-checks every
kept lemma by reverse unit propagation against the core and the kept lemmas before it, so a
wrong trim can only make drup say "invalid". A proof with no lemma (unit propagation alone
refutes the formula, as for most completions) is the same thing with nothing to walk back over:
its core is the clauses propagation used.

The work is done by a C core (solvers/native/trimcore.c): in pure Python the same walk took
20 s for queen domination n = 11 (13,631 lemmas), in C 1.1 s; the 59,115 lemmas of peaceable
queens n = 7 take 4 to 8 s (2 shared cores). Its plain-Python twin is `trim_proof` in
tests/plain_reference.py.

>>> found = trim([[1, 2], [-1, 2], [1, -2], [-1, -2], [3, 4]], [[2], []])
>>> found.core, found.lemmas
((0, 1, 2, 3), (0,))
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from queens.models import QueensError
from queens.solvers.native import require


class NotRefuted(QueensError):
    """The trimmer could not follow the proof to a refutation: a lemma it needs does not follow
    by unit propagation, or the proof ends before propagation finds a conflict. (drup, which
    is trusted, then reads the whole proof and gives its own verdict.)"""


@dataclass(frozen=True)
class Trim:
    """What a refutation needs: the formula clauses (their indices, ascending) and the lemmas
    (their indices among the proof's added clauses, in proof order; the empty clause is implied)."""

    core: tuple[int, ...]
    lemmas: tuple[int, ...]


def trim(formula: Sequence[Sequence[int]], lemmas: Sequence[Sequence[int]]) -> Trim:
    """The clauses of `formula` and the `lemmas` (a DRUP proof's added clauses, in order, its
    deletions left out) that its refutation needs; raises `NotRefuted` when the proof does not
    refute the formula, `NativeMissing` when the C extension is not built."""
    require("_trim")
    from queens.solvers.native import _trim

    core, kept, outcome = _trim.trim(_int32(formula), _int32(lemmas))
    if outcome == _trim.NO_CONFLICT:
        raise NotRefuted("the proof ends before unit propagation finds a conflict")
    if outcome != _trim.OK:
        raise NotRefuted(f"lemma {outcome + 1:,} of {len(lemmas):,} does not follow by unit propagation")
    return Trim(tuple(core), tuple(kept))


def _int32(clauses: Iterable[Sequence[int]]) -> bytes:
    """The clauses as the C core reads them: int32 literals, each clause ended by 0."""
    return array("i", [literal for clause in clauses for literal in (*clause, 0)]).tobytes()
