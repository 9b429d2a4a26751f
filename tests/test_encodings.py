"""Every CNF encoding the sat backend offers gives the same counts, against OEIS terms.

pysat's own test enumerates models for every encoding and asserts one count; here each of the
sat backend's encodings (and Minicard's native cardinality constraints) counts several
families whose counts OEIS knows.
"""

from __future__ import annotations

import pytest
from queens.models.families import of_size
from queens.solvers import Status
from queens.solvers.api import count, solve
from queens.solvers.sat import ENCODINGS, NATIVE

CASES = [("nqueens", 6, "A000170"), ("kings", 5, "A002464"), ("toroidal", 5, "A051906"),
         ("superqueens", 10, "A051223")]


@pytest.mark.parametrize("encoding", [*ENCODINGS, NATIVE])
@pytest.mark.parametrize("family,n,sequence", CASES)
def test_every_encoding_counts_like_oeis(encoding, family, n, sequence, reference):
    result = count(of_size(family, n), "sat", encoding=encoding, split=False)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term(sequence, n)


@pytest.mark.parametrize("encoding", [*ENCODINGS, NATIVE])
def test_every_encoding_finds_the_minimum_dominating_sets(encoding, reference):
    """Domination adds covers (clauses) and a size constraint to each encoding's lines."""
    result = count(of_size("domination", 4), "sat", encoding=encoding)
    assert (result.objective, result.count) == (reference.term("A075458", 4), reference.term("A002564", 4))


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", NATIVE])
def test_the_incremental_minimiser_proves_the_domination_numbers(encoding, reference):
    """sat's minimiser (one solver, "at most k" as an assumption, lex-leader over the symmetry
    group) reaches A075458 for n = 1..8: the symmetry breaking keeps an optimum of every size."""
    for n in range(1, 9):
        result = solve(of_size("domination", n), "sat", encoding=encoding)
        assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A075458", n))
