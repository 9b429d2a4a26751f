"""The `minizinc` backend (the suite's MiniZinc export on the real MiniZinc binary) agrees with
OEIS on every family it supports; skipped, with the reason, where MiniZinc is absent."""

from __future__ import annotations

import pytest
from queens.models import NQueens, lower
from queens.models.families import of_size
from queens.solvers import Status, count, get_backend, solve
from queens.solvers.minizinc import MiniZinc

CASES = [("nqueens", 6, "A000170"), ("kings", 5, "A002464"), ("toroidal", 5, "A051906"),
         ("superqueens", 10, "A051223")]


@pytest.fixture(scope="module")
def available() -> None:
    reason = MiniZinc().supports(lower(NQueens(4)))
    if reason:
        pytest.skip(reason)


@pytest.mark.parametrize("family,n,sequence", CASES)
def test_minizinc_counts_like_oeis(available, family, n, sequence, reference):
    result = count(of_size(family, n), "minizinc", split=False)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term(sequence, n)


def test_minizinc_minimises_domination(available, reference):
    result = count(of_size("domination", 5), "minizinc")
    assert (result.objective, result.count) == (reference.term("A075458", 5), reference.term("A002564", 5))


def test_minizinc_proves_no_solution(available):
    assert solve(NQueens(3), "minizinc").status is Status.INFEASIBLE


def test_an_unknown_minizinc_solver_is_a_reason(available):
    reason = get_backend("minizinc", solver="no-such-solver").supports(lower(NQueens(4)))
    assert reason is not None and "no-such-solver" in reason
