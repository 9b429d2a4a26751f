"""Every backend counts n-queens exactly as OEIS A000170 says, and enumerates what it counts."""

from __future__ import annotations

from collections.abc import Generator

import pytest
from queens.models import NQueens, Unsupported, verify
from queens.solvers import BACKENDS, Backend, Status, count, get_backend, solutions, solve
from queens.solvers.backend import Task

from tests.conftest import able
from tests.typed_results import number

SOLVER_SIZES = range(1, 10)
ENUMERATING = [name for name in able(BACKENDS, Task.COUNT) if type(get_backend(name)).count is Backend.count]
"""The backends that count by enumerating (read from the registry, not listed by hand)."""
LISTING = able(BACKENDS, Task.ENUMERATE)
"""The backends that list solutions (one that does not says so in `limits`)."""
NATIVE_SIZES = range(1, 15)


@pytest.mark.parametrize("n", NATIVE_SIZES)
def test_native_counts_match_oeis(n, reference):
    result = count(NQueens(n), "native")
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A000170", n)


@pytest.mark.parametrize("backend", ENUMERATING)
@pytest.mark.parametrize("n", SOLVER_SIZES)
def test_solver_counts_match_oeis(backend, n, reference):
    result = count(NQueens(n), backend)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A000170", n)


@pytest.mark.parametrize("backend,options", [
    ("cpsat", {"viewpoint": "alldifferent"}),
    ("csp", {"viewpoint": "boolean"}),
    ("sat", {"encoding": "pairwise"}),
    ("sat", {"encoding": "ladder"}),
    ("sat", {"encoding": "bitwise"}),
    ("sat", {"encoding": "totalizer"}),
])
@pytest.mark.parametrize("n", [4, 6, 8])
def test_other_viewpoints_and_encodings_agree(backend, options, n, reference):
    assert count(NQueens(n), backend, **options).count == reference.term("A000170", n)


@pytest.mark.parametrize("backend", LISTING)
@pytest.mark.parametrize("n", [1, 4, 5, 6, 8])
def test_enumeration_is_distinct_verified_and_complete(backend, n, reference):
    found = list(solutions(NQueens(n), backend))
    assert len(found) == len(set(found)) == reference.term("A000170", n)
    for placement in found:
        assert verify(NQueens(n), placement) == placement


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_is_reported_cleanly(backend, n):
    result = solve(NQueens(n), backend)
    assert result.status is Status.INFEASIBLE
    assert result.solution is None
    if get_backend(backend).limits(n, n, Task.COUNT) is None:
        assert count(NQueens(n), backend).count == 0
    else:  # a backend that does not count refuses before any work
        with pytest.raises(Unsupported):
            count(NQueens(n), backend)


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_solve_returns_a_verified_solution(backend):
    result = solve(NQueens(12), backend)
    assert result.status is Status.SOLVED and result.solution is not None
    assert verify(NQueens(12), result.solution) == result.solution


@pytest.mark.parametrize("backend", LISTING)
def test_a_generator_can_be_abandoned(backend):
    stream = solutions(NQueens(10), backend)
    first = [next(stream) for _ in range(3)]
    assert isinstance(stream, Generator)
    stream.close()
    assert len(set(first)) == 3


@pytest.mark.parametrize("backend", ["native", "cpsat", "sat"])
def test_time_limit_gives_a_lower_bound(backend, reference):
    result = count(NQueens(13), backend, time_limit=0.2)
    assert result.status in (Status.LIMIT, Status.COMPLETE)
    assert result.count is not None and result.count <= reference.term("A000170", 13)


def test_results_carry_backend_statistics():
    assert number(count(NQueens(6), "sat").stats, "clauses") > 0
    assert count(NQueens(6), "cpsat", symmetry=False).stats["variables"] == 36
    assert count(NQueens(6), "csp").stats["variables"] == 6
    assert number(count(NQueens(6), "native").stats, "nodes") > 0


def test_a_result_shows_itself_in_a_notebook():
    result = solve(NQueens(4), "native")
    page = result._repr_html_()
    assert result.solution is not None
    shown = " ".join(f"{r},{c}" for r, c in result.solution)
    assert "4-queens: solved" in page and f"cells: {shown}" in page and len(result.solution) == 4
    drawn = result._repr_svg_()
    assert page.count("<svg") == 1 and drawn is not None and drawn in page  # the board, drawn
