"""Time is a contract: a count cut off by its time limit is a lower bound, flagged as one.

Each backend gets a limit far too short for the count, on a few families; the answer must be
either the exact count (a fast machine) or a LIMIT whose count is at most the truth. Nothing
here measures wall time: only what is reported.
"""

from __future__ import annotations

import pytest
from queens.models import NQueens
from queens.models.families import of_size
from queens.solvers import BACKENDS, Status, count, solve

CASES = [("nqueens", 11, "A000170"), ("kings", 9, "A002464"), ("toroidal", 13, "A051906")]
LIMIT = 0.05


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "native"])
@pytest.mark.parametrize("family,n,sequence", CASES)
def test_a_count_cut_off_is_a_flagged_lower_bound(backend, family, n, sequence, reference):
    truth = reference.term(sequence, n)
    result = count(of_size(family, n), backend, time_limit=LIMIT, split=False)
    assert result.status in (Status.LIMIT, Status.COMPLETE)
    if result.status is Status.LIMIT:
        assert result.count is not None and 0 <= result.count <= truth
    else:
        assert result.count == truth


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "native"])
def test_a_solve_cut_off_says_so(backend):
    result = solve(NQueens(300), backend, time_limit=LIMIT)
    assert result.status in (Status.LIMIT, Status.SOLVED)
    assert (result.solution is None) == (result.status is Status.LIMIT)
