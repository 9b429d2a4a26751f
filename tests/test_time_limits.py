"""Time is a contract: a count cut off by its time limit is a lower bound, flagged as one.

Each backend (and sat on CaDiCaL, which pysat cannot interrupt) gets a limit far too short for
the count, on a few families, alone and through the split pool; the answer must be either the
exact count (a fast machine) or a LIMIT whose count is at most the truth. A solve, and a
minimisation, cut off say so and return no solution. Nothing here measures wall time: only
what is reported (experiments/bench_deadlines.py measures the time).
"""

from __future__ import annotations

import pytest
from queens.models import NQueens
from queens.models.families import of_size
from queens.solvers import BACKENDS, Status
from queens.solvers.api import count, solve
from queens.solvers.backend import Task

from tests.conftest import able
from tests.typed_results import number

CASES = [("nqueens", 11, "A000170"), ("kings", 9, "A002464"), ("toroidal", 13, "A051906")]
LIMIT = 0.05
ENGINES = [pytest.param(name, {}, id=name) for name in BACKENDS if name != "native"] + [
    pytest.param("sat", {"solver": "cadical195", "encoding": "seqcounter"}, id="sat-cadical")]
"""Every backend that honours a limit by itself, and sat on CaDiCaL (a CNF: it has no native
cardinality constraints to find one solution with)."""
COUNTING = [engine for engine in ENGINES if engine.values[0] in able(BACKENDS, Task.COUNT)]
"""Those of them that count (one that does not says so in `limits`)."""


@pytest.mark.parametrize("backend,options", COUNTING)
@pytest.mark.parametrize("family,n,sequence", CASES)
def test_a_count_cut_off_is_a_flagged_lower_bound(backend, options, family, n, sequence, reference):
    truth = reference.term(sequence, n)
    result = count(of_size(family, n), backend, time_limit=LIMIT, split=False, **options)
    assert result.status in (Status.LIMIT, Status.COMPLETE)
    if result.status is Status.LIMIT:
        assert result.count is not None and 0 <= result.count <= truth
    else:
        assert result.count == truth


@pytest.mark.parametrize("backend,options", COUNTING)
def test_a_split_count_cut_off_is_a_flagged_lower_bound(backend, options, reference):
    """The pool's workers are given the deadline and killed a little after it."""
    truth = reference.term("A000170", 12)
    result = count(NQueens(12), backend, time_limit=1.0, split=True, processes=2, **options)
    assert result.status in (Status.LIMIT, Status.COMPLETE)
    assert result.count is not None and 0 <= result.count <= truth
    assert result.status is Status.LIMIT or result.count == truth


@pytest.mark.parametrize("backend,options", ENGINES)
def test_a_solve_cut_off_says_so(backend, options):
    result = solve(NQueens(300), backend, time_limit=LIMIT, **options)
    assert result.status in (Status.LIMIT, Status.SOLVED)
    assert (result.solution is None) == (result.status is Status.LIMIT)


@pytest.mark.parametrize("backend,options", ENGINES)
def test_a_minimisation_cut_off_claims_no_optimum(backend, options, reference):
    n = 9
    result = solve(of_size("domination", n), backend, time_limit=LIMIT, **options)
    assert result.status in (Status.LIMIT, Status.OPTIMAL)
    if result.status is Status.OPTIMAL:
        assert result.objective == reference.term("A075458", n)
    else:
        assert result.solution is None
        assert result.stats.get("bound", 0) <= reference.term("A075458", n)  # a lower bound, when one came


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_a_minimisation_cut_off_reports_its_lower_bound(backend, reference):
    """Queen domination n = 14 (8) is far from proved in 3 s; the k being tried is a proved
    lower bound (every smaller k was refuted), and the answer says it. (1 s was too short on a
    loaded machine: the child was killed before it could report, and a killed child has no bound.)"""
    result = solve(of_size("domination", 14), backend, time_limit=3.0)
    assert result.status is Status.LIMIT and result.solution is None
    assert 0 <= number(result.stats, "bound") <= reference.term("A075458", 14)


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "native"])
def test_a_board_too_large_to_build_in_time_is_a_limit_not_a_hang(backend):
    """Lowering 1000 x 1000 alone outlasts the limit: the search's process is killed."""
    result = solve(NQueens(1000), backend, time_limit=LIMIT)
    assert result.status is Status.LIMIT and result.solution is None
