"""The teaching engine (solvers/learn/): its counts against OEIS and an independent brute force,
its determinism, its refusals, the search tree's JSON, and its nodes and failures against
Gecode's on the same MiniZinc model (skipped, with the reason, where MiniZinc is absent)."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest
from queens.models import NQueens, Unsupported, lower, verify
from queens.models.families import of_size
from queens.models.pieces_families import Bishops, Kings
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal
from queens.solvers import Status, get_backend
from queens.solvers.api import count, solve
from queens.solvers.formats.minizinc import VALUE_CHOICES, VARIABLE_CHOICES
from queens.solvers.learn import search
from queens.solvers.learn.orders import VALUE_ORDERS, VARIABLE_ORDERS
from queens.solvers.learn.propagation import LEVELS
from queens.solvers.learn.tree import SearchTree

from tests import schemas
from tests.cli import run_main
from tests.conftest import Reference

FAST_LEVELS = [level for level in LEVELS if level != "generate"]
"""Generate and test explores n^n leaves: it is counted on small boards only."""


def brute_queens(n: int) -> int:
    """n-queens by permutations, written here: no code shared with the engine or models/."""
    return sum(all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))
               for p in permutations(range(n)))


ORDERS = [(var, val, "forward") for var in VARIABLE_ORDERS for val in VALUE_ORDERS]
ORDERS += [(var, val, level) for level in FAST_LEVELS if level != "forward"
           for var in ("input_order", "first_fail") for val in ("indomain_min", "indomain_median")]


@pytest.mark.parametrize("var,val,level", ORDERS)
def test_every_level_and_order_counts_every_solution_of_n_queens(level: str, var: str, val: str,
                                                                   reference: Reference) -> None:
    for n in range(1, 8):
        result = search(NQueens(n), var=var, val=val, propagate=level, all=True).result
        assert (result.status, result.count) == (Status.COMPLETE, reference.term("A000170", n)), n
        assert len(set(result.solutions)) == result.count


@pytest.mark.parametrize("level", list(LEVELS))
def test_eight_queens_all_solutions_at_every_level(level: str) -> None:
    n = 6 if level == "generate" else 8
    assert search(NQueens(n), propagate=level, all=True, var="first_fail").result.count == brute_queens(n)


@pytest.mark.parametrize("puzzle,sequence,n", [
    (Superqueens(10), "A051223", 10), (Toroidal(7), "A051906", 7), (Kings(6), "A002464", 6),
])
@pytest.mark.parametrize("level", ["forward", "arc", "alldifferent", "bounds"])
def test_other_families_match_oeis(puzzle: object, sequence: str, n: int, level: str, reference: Reference) -> None:
    result = search(puzzle, propagate=level, var="first_fail", all=True).result  # type: ignore[arg-type]
    assert result.count == reference.term(sequence, n)


def test_the_boolean_viewpoint_counts_bishops_and_a_puzzle_file(reference: Reference) -> None:
    result = search(Bishops(4), all=True).result
    assert (result.count, result.stats["viewpoint"]) == (16, "boolean")
    assert count(of_size("domination", 4), "teaching").count == reference.term("A002564", 4)


def test_a_run_repeats_to_the_digit() -> None:
    for var, val in [("random", "indomain_random"), ("dom_w_deg", "indomain_split"), ("first_fail", "indomain_median")]:
        runs = [search(NQueens(9), var=var, val=val, all=True, seed=3).result for _ in range(2)]
        assert runs[0].stats == runs[1].stats and runs[0].solutions == runs[1].solutions


def test_the_orders_are_minizincs_names() -> None:
    assert tuple(VARIABLE_ORDERS) == VARIABLE_CHOICES and tuple(VALUE_ORDERS) == VALUE_CHOICES


def test_what_it_cannot_hold_is_refused_with_the_reason() -> None:
    with pytest.raises(Unsupported, match="optimum"):
        search(of_size("domination", 4))
    with pytest.raises(Unsupported, match="unknown propagation level"):
        search(NQueens(4), propagate="magic")
    with pytest.raises(Unsupported, match="unknown variable order"):
        search(NQueens(4), var="most_constrained")
    with pytest.raises(Unsupported, match="boards of at most 2,500 cells"):
        search(NQueens(70))
    with pytest.raises(Unsupported, match="pair by pair"):
        get_backend("teaching", propagate="arc").find(lower(NQueens(70)), None)


def test_the_router_never_picks_it_unasked() -> None:
    assert get_backend("teaching").picked_unasked is False
    answer = run_main("count", "nqueens", "-n", "5", "--json")
    assert json.loads(answer.stdout)["backend"] != "teaching"
    named = solve(NQueens(12), "teaching")
    assert named.status is Status.SOLVED and named.solution is not None
    assert verify(NQueens(12), named.solution) == named.solution


def test_limits_stop_the_search_as_gecodes_do() -> None:
    stopped = search(NQueens(30), fail_limit=100).result
    assert stopped.status is Status.LIMIT and stopped.stats["failures"] == 101
    assert search(NQueens(30), node_limit=50).result.stats["nodes"] == 51


def test_the_tree_json_has_every_node(tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    searched = search(NQueens(4), all=True, tree=path)
    tree = json.loads(path.read_text())
    assert [node["id"] for node in tree["nodes"]] == list(range(11)) and searched.result.stats["nodes"] == 11
    statuses = [node["status"] for node in tree["nodes"]]
    assert statuses.count("failure") == 4 and statuses.count("solution") == 2
    root, first = tree["nodes"][0], tree["nodes"][1]
    assert root["parent"] is None and root["decision"] is None and root["domains"]["q[0]"] == [0, 1, 2, 3]
    assert first["decision"] == {"var": "q[0]", "op": "=", "value": 0, "text": "q[0] = 0"} and first["alternative"] == 0
    assert first["domains"]["q[1]"] == [2, 3]
    failed = next(node for node in tree["nodes"] if node["status"] == "failure")
    assert set(failed["failed"]) == {"var", "by"}
    for suffix in (".svg", ".dot", ".tex"):
        written = search(NQueens(6), all=True, tree=tmp_path / f"tree{suffix}").tree
        assert isinstance(written, SearchTree) and (tmp_path / f"tree{suffix}").stat().st_size > 0
    assert 'data-node="0"' in (tmp_path / "tree.svg").read_text()


def test_search_json_fits_the_schema() -> None:
    answer = run_main("search", "nqueens", "-n", "6", "--all", "--var", "first_fail", "--json")
    payload = json.loads(answer.stdout)
    schemas.validate(payload)
    assert payload["count"] == 4 and payload["stats"]["nodes"] == 79 and payload["stats"]["failures"] == 36
    assert payload["details"]["search"]["var"] == "first_fail"


# --- Gecode, to the digit -----------------------------------------------------------------

@pytest.fixture(scope="module")
def gecode() -> None:
    from queens.solvers.backends.minizinc import MiniZinc

    reason = MiniZinc().supports(lower(NQueens(4)))
    if reason:
        pytest.skip(reason)


AGREEING = [(var, val) for var in ("input_order", "first_fail") for val in ("indomain_min", "indomain_median")]


@pytest.mark.parametrize("var,val", AGREEING)
@pytest.mark.parametrize("level", ["forward", "alldifferent"])
def test_all_solutions_nodes_and_failures_are_gecodes(gecode: None, var: str, val: str, level: str) -> None:
    for n in range(4, 9):
        ours = search(NQueens(n), var=var, val=val, propagate=level, all=True).result.stats
        theirs = count(NQueens(n), "minizinc", split=False, symmetry=False, var=var, val=val).stats
        assert (ours["nodes"], ours["failures"]) == (theirs["nodes"], theirs["failures"]), n


@pytest.mark.parametrize("var,val", AGREEING)
def test_first_solution_nodes_and_failures_are_gecodes(gecode: None, var: str, val: str) -> None:
    for n in range(10, 17):  # the bench runs n = 10..45 (experiments/bench_strategies.py)
        ours = search(NQueens(n), var=var, val=val).result.stats
        theirs = solve(NQueens(n), "minizinc", var=var, val=val).stats
        assert (ours["nodes"], ours["failures"]) == (theirs["nodes"], theirs["failures"]), n
