"""The csp backend's `IndexedDomain` behaves as python-constraint2's own `Domain` (the solvers
read it the same way), and searches over it count what OEIS says."""

from __future__ import annotations

import constraint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from queens.models import NQueens, verify
from queens.solvers import Status
from queens.solvers.api import count, solve
from queens.solvers.backends import csp
from queens.solvers.backends.csp import IndexedDomain

OPERATIONS = st.lists(st.tuples(st.sampled_from(["push", "hide", "pop", "reset"]), st.integers(0, 40)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(size=st.integers(1, 12), operations=OPERATIONS)
def test_indexed_domain_holds_what_a_plain_domain_holds(size, operations):
    plain, indexed = constraint.Domain(range(size)), IndexedDomain(range(size))
    for name, value in operations:
        if name == "push":
            plain.pushState()
            indexed.pushState()
        elif name == "hide":
            value %= size
            assert (value in plain) == (value in indexed)
            if value in plain:
                plain.hideValue(value)
                indexed.hideValue(value)
            else:
                with pytest.raises(ValueError):
                    indexed.hideValue(value)
        elif name == "pop" and plain._states:
            plain.popState()
            indexed.popState()
        elif name == "reset":
            plain.resetState()
            indexed.resetState()
        assert sorted(plain) == sorted(indexed)
        assert all((v in indexed) == (v in plain) for v in range(size + 1))


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("n", range(1, 10))
def test_counts_over_indexed_domains_match_oeis(n, symmetry, reference, monkeypatch):
    """Every row's domain indexed (the default indexes only long rows), the lex chains hiding
    values beside the keyed lines."""
    monkeypatch.setattr(csp, "INDEXED_FROM", 1)
    result = count(NQueens(n), "csp", split=False, symmetry=symmetry)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A000170", n)


@pytest.mark.parametrize("n", [48, 150])
def test_one_solution_on_long_rows(n):
    result = solve(NQueens(n), "csp")
    assert result.status is Status.SOLVED and result.solution is not None
    assert verify(NQueens(n), result.solution) == result.solution
