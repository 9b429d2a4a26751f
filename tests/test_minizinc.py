"""The `minizinc` backend (the suite's MiniZinc export on the real MiniZinc binary) agrees with
OEIS on every family it supports, takes its search annotation in MiniZinc's names and reports
Gecode's effort; skipped, with the reason, where MiniZinc is absent."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from queens.models import NQueens, lower, verify
from queens.models.domination import Domination
from queens.models.errors import BadOption
from queens.models.families import of_size
from queens.solvers import Status, get_backend
from queens.solvers.api import count, solve
from queens.solvers.backends.minizinc import MZNLIB, MiniZinc, global_alldifferent
from queens.solvers.formats.minizinc import Search, minizinc

from tests.cli import run_main
from tests.typed_results import number

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
    assert result.status is Status.SOLVED and result.solution is not None
    assert verify(NQueens(n), result.solution) == result.solution


STRATEGIES = [("input_order", "indomain_min"), ("first_fail", "indomain_min"), ("smallest", "indomain_max"),
              ("dom_w_deg", "indomain_split"), ("largest", "indomain_median")]


def _gecode_statistics(tmp_path: Path, var: str, val: str, *args: str) -> dict[str, int]:
    """`minizinc -s` on the textbook export of 8-queens with this annotation: the solver's own
    statistics, read from its %%%mzn-stat lines (the command line, not the backend's code path)."""
    model, data = minizinc(NQueens(8), search=Search(var, val))
    (tmp_path / "q.mzn").write_text(model)
    (tmp_path / "q.dzn").write_text(data)
    run = subprocess.run(["minizinc", "--solver", "gecode", "-s", *args, str(tmp_path / "q.mzn"),
                          str(tmp_path / "q.dzn")], capture_output=True, text=True, timeout=60, check=True)
    return {key: int(value) for key, value in re.findall(r"%%%mzn-stat: (\w+)=(\d+)$", run.stdout, re.MULTILINE)}


def test_the_annotation_reaches_gecode_and_its_effort_comes_back(available, tmp_path, reference):
    """Counting 8-queens under five strategies: the count never changes, the effort does, and it
    is Gecode's own, digit for digit what `minizinc -s` prints on the exported text."""
    efforts = set()
    for var, val in STRATEGIES:
        result = count(NQueens(8), "minizinc", split=False, var=var, val=val)
        assert result.count == result.stats["solutions"] == reference.term("A000170", 8)
        assert result.stats["search"] == f"int_search(q, {var}, {val})" and result.stats["model"] == "textbook"
        gecode = _gecode_statistics(tmp_path, var, val, "--all-solutions")
        assert {key: result.stats[key] for key in ("nodes", "failures", "peakDepth")} == {
            key: gecode[key] for key in ("nodes", "failures", "peakDepth")}
        efforts.add((result.stats["nodes"], result.stats["failures"]))
    assert len(efforts) >= 4  # the strategies search differently (smallest/max and largest/median may tie)


def test_one_solution_with_an_annotation_is_searched_on_the_text_as_written(available, tmp_path):
    """Asked for an annotation, the backend gives Gecode MiniZinc's own alldifferent (pairwise
    disequalities), so its effort to the first solution is the exported model's."""
    result = solve(NQueens(8), "minizinc", var="first_fail", val="indomain_min")
    assert result.status is Status.SOLVED and result.solution is not None
    assert verify(NQueens(8), result.solution) == result.solution
    gecode = _gecode_statistics(tmp_path, "first_fail", "indomain_min")
    assert (result.stats["nodes"], result.stats["failures"]) == (gecode["nodes"], gecode["failures"])


def test_search_options_are_refused_with_the_reason(available):
    with pytest.raises(BadOption, match="first_fail"):
        get_backend("minizinc", var="first_failure")
    with pytest.raises(BadOption, match="indomain_min"):
        get_backend("minizinc", val="min")
    reason = MiniZinc(val="indomain_split").supports(lower(Domination(4)))  # the Boolean model: 0..1 domains
    assert reason is not None and "wider than 0..1" in reason
    assert MiniZinc(val="indomain_max").supports(lower(Domination(4))) is None


def test_gecodes_random_choice_counts_too(available, reference):
    result = count(NQueens(6), "minizinc", split=False, var="random", val="indomain_random")
    assert result.count == reference.term("A000170", 6) and number(result.stats, "nodes") > 0


def test_the_command_line_takes_the_annotation_and_prints_the_effort(available, reference):
    result = run_main("count", "nqueens", "-n", "8", "--backend", "minizinc", "--var", "first_fail", "--val",
                     "indomain_median", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["count"] == reference.term("A000170", 8)
    assert answer["stats"]["search"] == "int_search(q, first_fail, indomain_median)"
    assert answer["stats"]["solutions"] == answer["count"] and answer["stats"]["failures"] > 0
    result = run_main("solve", "nqueens", "-n", "8", "--backend", "sat", "--var", "first_fail")
    assert result.returncode == 2 and "var" in result.stderr  # sat has no search annotation
