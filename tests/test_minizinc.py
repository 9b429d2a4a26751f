"""The `minizinc` backend (the suite's MiniZinc export on the real MiniZinc binary) agrees with
OEIS on every family it supports; skipped, with the reason, where MiniZinc is absent."""

from __future__ import annotations

import pytest
from queens.models import NQueens, lower, verify
from queens.models.errors import BadOption
from queens.models.families import of_size
from queens.solvers import Status, get_backend
from queens.solvers.api import count, solve
from queens.solvers.backends.minizinc import MZNLIB, MiniZinc, global_alldifferent

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


def test_an_unknown_minizinc_solver_is_refused_before_any_work(available):
    """A value of an option, refused when the backend is built, as mip refuses one (BadOption):
    the router then passes to a strategy that takes it, or says why none does."""
    with pytest.raises(BadOption, match="no-such-solver"):
        get_backend("minizinc", solver="no-such-solver")


def test_only_a_library_without_the_new_name_is_given_the_global_alldifferent(tmp_path):
    declared = "predicate all_different_int(array[int] of var int: x);\n"
    old, new, bare = tmp_path / "old", tmp_path / "new", tmp_path / "bare"
    for folder in (old, new, bare):
        folder.mkdir()
    (old / "all_different_int.mzn").write_text(declared)
    (new / "all_different_int.mzn").write_text(declared)
    (new / "fzn_all_different_int.mzn").write_text("predicate fzn_all_different_int(array[int] of var int: x);\n")
    assert global_alldifferent(str(old))
    assert not global_alldifferent(str(new)) and not global_alldifferent(str(bare))
    assert (MZNLIB / "fzn_all_different_int.mzn").is_file()


@pytest.mark.parametrize("n", [1, 60])
def test_one_solution_whatever_alldifferent_the_solver_is_given(available, n):
    result = solve(NQueens(n), "minizinc", time_limit=60)
    assert result.status is Status.SOLVED
    assert verify(NQueens(n), result.solution) == result.solution
