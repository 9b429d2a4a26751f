"""Every command's --json follows one schema (docs/queens-output.schema.json, described in
docs/json.md), whichever strategy answered; the counts it carries are checked against OEIS."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from typing import Any

import pytest
from queens.solvers import get_backend
from queens.solvers.backend import Task

from tests import schemas
from tests.cli import run_cli, run_main

TWENTY_ONE = "0,3 1,5 2,7 3,9 4,11 5,13 6,15 7,17 8,19 9,1"


def _valid(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode in (0, 1), result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    schemas.validate(payload)
    return payload


@pytest.mark.parametrize("args,method", [
    (("solve", "nqueens", "-n", "8"), "construct"),
    (("solve", "completion", "-n", "8", "--queens", "0,0"), "complete"),
    (("solve", "nqueens", "-n", "8", "-b", "sat"), "search"),
    (("solve", "nqueens", "-n", "30", "--method", "random", "--seed", "1"), "random"),
    (("solve", "domination", "-n", "4"), "search"),
    (("solve", "nqueens", "-n", "3"), "construct"),
    (("solve", "ninequeens", "-n", "6", "--pawns", "1", "-b", "native"), "layouts"),
    (("show", "nqueens", "-n", "5", "-b", "native"), "complete"),
])
def test_every_solve_path_has_one_shape(args, method):
    payload = _valid(run_main(*args, "--json"))
    assert payload["method"] == method and payload["command"] == args[0]
    assert payload["verified"] == bool(payload["solutions"])


@pytest.mark.parametrize("args,method,sequence,n", [
    (("count", "nqueens", "-n", "8"), "classes", "A000170", 8),
    (("count", "nqueens", "-n", "8", "-b", "cpsat"), "search", "A000170", 8),
    (("count", "nqueens", "-n", "12", "-b", "sat"), "split", "A000170", 12),
    (("count", "nqueens", "-n", "10", "--unique"), "classes", "A000170", 10),
    (("count", "toroidal", "-n", "7", "--unique"), "search", "A051906", 7),
    (("count", "superqueens", "-n", "10"), "search", "A051223", 10),
    (("count", "nqueens", "-n", "7", "-b", "all"), "compare", "A000170", 7),
])
def test_every_count_path_has_one_shape(args, method, sequence, n, reference):
    payload = _valid(run_main(*args, "--json"))
    assert (payload["method"], payload["count"], payload["lower_bound"]) == (method, reference.term(sequence, n), False)
    assert payload["verified"]


def test_refusals_in_a_comparison_are_rows_not_errors():
    payload = _valid(run_main("count", "completion", "-n", "21", "--queens", TWENTY_ONE, "-b", "all", "--json"))
    refused = [row for row in payload["details"]["results"] if row["status"] == "n/a"]
    assert refused and all(get_backend(row["backend"]).limits(21, 21, Task.COUNT) in row["reason"] for row in refused)
    native = next(row for row in payload["details"]["results"] if row["backend"] == "native")
    assert native["agrees"] and native["count"] == payload["count"]


def test_a_count_stopped_by_its_time_limit_is_a_lower_bound():
    result = run_main("count", "nqueens", "-n", "14", "-b", "csp", "--method", "search", "--time-limit", "0.05",
                      "--json")
    payload = _valid(result)
    assert result.returncode == 1 and payload["status"] == "time limit" and payload["lower_bound"]
    assert 0 <= payload["count"] < 365596  # Q(14): far more than 0.05 s of search finds
    text = run_main("count", "nqueens", "-n", "14", "-b", "csp", "--method", "search", "--time-limit", "0.05")
    assert "≥ " in text.stdout and "(time limit)" in text.stdout


def test_explain_and_verify_have_the_same_shape(tmp_path):
    _valid(run_main("explain", "rooks", "-n", "4", "--json"))
    path = tmp_path / "eight.txt"
    assert run_main("solve", "nqueens", "-n", "8", "--out", str(path)).returncode == 0
    payload = _valid(run_cli("verify", str(path), "--json"))  # once through the real script
    assert (payload["count"], payload["verified"]) == (8, True)


def test_info_has_the_one_shape_too():
    payload = _valid(run_main("info", "--json"))
    assert payload["command"] == "info" and payload["details"]["kernel"] in payload["details"]["compiled"]


@pytest.mark.parametrize("family", sorted(__import__("queens.models.families", fromlist=["FAMILIES"]).FAMILIES))
def test_the_python_api_speaks_the_cli_json(family):
    """`queens.solve(puzzle).to_json()` is the document `queens solve --json` prints: one schema."""
    from queens.models.families import FamilyOptions, build

    import queens

    completion = family == "completion"
    options = FamilyOptions(5, queens="0,0", given=frozenset({"queens"})) if completion else FamilyOptions(5)
    puzzle = build(family, options)
    n = 5 if puzzle.dimensions == 2 else 3  # the 5 x 5 x 5 cube's optimum took 4 s, twice: the shape is the question
    puzzle = build(family, replace(options, n=n))
    api = queens.solve(puzzle, time_limit=20).to_json()
    schemas.validate(api)
    args = [family, "-n", str(n)] + (["--queens", "0,0"] if family == "completion" else [])
    cli = json.loads(run_main("solve", *args, "--json", "--time-limit", "20").stdout)
    assert set(api) == set(cli) and api["puzzle"] == cli["puzzle"]
    assert (api["status"], api["objective"]) == (cli["status"], cli["objective"])
    assert len(api["armies"]) == len(cli["armies"])
