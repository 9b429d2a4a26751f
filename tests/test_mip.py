"""The `mip` backend: the optima integer programming is used for, against the repository's OEIS
terms (tests/data/sequences.json) and closed forms, each answer re-checked by the suite's own
checkers (inside `queens.solvers.api.solve`); and its refusals, which say why before any work."""

from __future__ import annotations

import pytest
from queens.models import NQueens, Unsupported
from queens.models.errors import BadOption, Refused
from queens.models.families import of_size
from queens.solvers import Status, get_backend
from queens.solvers import count as count_routed
from queens.solvers.api import count, solutions, solve
from queens.solvers.backend import Task
from queens.solvers.backends.mip import SOLVERS

from tests.test_armies import CLOSED_FORMS, independent, peaceable


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("n", range(1, 9))
def test_queen_domination_is_proved_optimal_as_a075458_says(n, solver, reference):
    result = solve(of_size("domination", n), "mip", solver=solver)
    assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A075458", n))


@pytest.mark.parametrize("piece", sorted(CLOSED_FORMS))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 8])
def test_independence_numbers_match_their_closed_forms(piece, n):
    expected = CLOSED_FORMS[piece](n, n)
    result = solve(independent(piece, n, n), "mip")
    assert (result.status, result.objective) == (Status.OPTIMAL, expected)


@pytest.mark.parametrize("rows,cols", [(2, 5), (3, 5), (5, 6)])
def test_independence_on_rectangles(rows, cols):
    for piece in ("king", "knight", "rook", "queen"):
        result = solve(independent(piece, rows, cols), "mip")
        assert result.objective == CLOSED_FORMS[piece](rows, cols), piece


@pytest.mark.parametrize("n", range(1, 6))
def test_peaceable_queens_match_a250000(n, reference):
    result = solve(peaceable(n), "mip")
    assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A250000", n))


@pytest.mark.slow
def test_peaceable_queens_6(reference):
    assert solve(peaceable(6), "mip").objective == reference.term("A250000", 6)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_an_optimisation_cut_off_reports_a_bound_not_an_optimum(solver, reference):
    """Peaceable queens n = 8 in a second: either proved (a fast machine) or the best found with
    the solver's bound, which can never be below the optimum (the goal is maximised)."""
    result = solve(peaceable(8), "mip", time_limit=1.0, solver=solver)
    if result.status is Status.OPTIMAL:
        assert result.objective == reference.term("A250000", 8)
    else:
        assert result.status is Status.LIMIT
        assert result.stats.get("bound", 10**6) >= reference.term("A250000", 8)


def test_finds_and_proves_none():
    assert solve(NQueens(8), "mip").status is Status.SOLVED
    assert solve(NQueens(3), "mip").status is Status.INFEASIBLE


def test_counting_and_listing_are_refused_before_any_work_with_the_reason():
    engine = get_backend("mip")
    for task in (Task.COUNT, Task.ENUMERATE):
        assert "does not count or list" in (engine.limits(8, 8, task) or "")
    assert engine.limits(8, 8, Task.SOLVE) is None and engine.limits(8, 8, Task.OPTIMISE) is None
    with pytest.raises(Unsupported, match="no exact enumeration"):
        count(NQueens(8), "mip")
    with pytest.raises(Unsupported, match="no exact enumeration"):
        next(solutions(NQueens(8), "mip"))
    with pytest.raises(Unsupported, match="no exact enumeration"):
        count(peaceable(3), "mip")
    with pytest.raises(Refused) as refused:
        count_routed(NQueens(8), "mip")
    assert any("does not count" in reason for reason in refused.value.reasons)


def test_options_are_checked():
    with pytest.raises(BadOption, match="scip"):
        get_backend("mip", solver="cbc")
    with pytest.raises(BadOption, match="threads"):
        get_backend("mip", threads=0)


def test_highs_writes_nothing_on_stdout(capfd):
    """Results go on stdout: HiGHS's banner and log must not."""
    solve(of_size("domination", 5), "mip", solver="highs")
    assert capfd.readouterr().out == ""
