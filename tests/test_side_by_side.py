"""`count --backend all` and `solve --backend all`: every registered backend in one table, each
answer checked against OEIS, with each backend's own effort counter and what it did about
symmetry; a backend that cannot answer is a row with its reason, said once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from queens.models import ConstraintModel, Placement
from queens.solvers.backend import Task
from queens.solvers.backends.csp import Csp
from queens.solvers.registry import BACKENDS, get_backend
from queens.solvers.routing.side_by_side import EFFORT, effort_text

from tests import schemas
from tests.cli import run_main
from tests.conftest import able


def _rows(*args: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    result = run_main(*args, "--json")
    assert result.returncode == 0, result.stderr
    payload: dict[str, Any] = json.loads(result.stdout)
    schemas.validate(payload)
    rows = payload["details"]["results"]
    assert [row["backend"] for row in rows] == list(BACKENDS)  # every backend, in the registry's order
    return payload, rows


def test_count_all_shows_92_on_every_backend_that_answers(reference) -> None:
    queens = reference.term("A000170", 8)
    payload, rows = _rows("count", "nqueens", "-n", "8", "--backend", "all")
    assert (payload["count"], payload["details"]["ground_truth"]) == (queens, queens)
    answered = [row for row in rows if row["status"] != "n/a"]
    assert {row["backend"] for row in answered} == set(able(BACKENDS, Task.COUNT))  # the rest say why not
    assert all((row["count"], row["agrees"]) == (queens, True) for row in answered)
    assert all(row["reason"] for row in rows if row["status"] == "n/a")
    assert all(set(row["effort"]) <= set(EFFORT) for row in answered)
    assert sum(1 for row in answered if row["effort"]) >= 3  # native's nodes, CP-SAT's and CaDiCaL's conflicts
    text = run_main("count", "nqueens", "-n", "8", "--backend", "all").stdout
    for row in answered:  # the table prints what the JSON holds, one line per backend
        line = next(line for line in text.splitlines() if line.startswith(f"{row['backend']} "))
        assert f" {queens} " in line and line.endswith("✓") and (effort_text(row["effort"]) or "-") in line
        assert row["symmetry"] in line
    for row in rows:
        if row["status"] == "n/a":
            assert text.count(row["reason"]) == 1  # a reason said once, under the table


@pytest.mark.parametrize("flag, used", [("--no-symmetry", {"off"}), ("--symmetry", {"lex-leader", "off"})])
def test_symmetry_off_or_on_every_backend_counts_the_same(flag: str, used: set[str], reference) -> None:
    """Off: every enumerating backend lists all 92; on: those that compile the chains list 12
    classes' leaders (a backend that cannot, says off); the count is 92 either way."""
    _, rows = _rows("count", "nqueens", "-n", "8", "--backend", "all", flag)
    answered = [row for row in rows if row["status"] != "n/a"]
    assert answered and all(row["count"] == reference.term("A000170", 8) and row["agrees"] for row in answered)
    assert {row["symmetry"] for row in answered} <= used
    if flag == "--symmetry":
        assert any(row["symmetry"] == "lex-leader" for row in answered)
    refused = [row for row in rows if row["status"] == "n/a"]
    assert all(row["reason"] for row in refused)  # a counter that does not enumerate has no switch: says so


def test_solve_all_gives_every_backends_optimum(reference) -> None:
    payload, rows = _rows("solve", "domination", "-n", "5", "--backend", "all")
    fewest = reference.term("A075458", 5)
    assert (payload["backend"], payload["method"], payload["objective"]) == ("all", "compare", fewest)
    answered = [row for row in rows if row["status"] != "n/a"]
    assert len(answered) >= 4
    assert all((row["status"], row["objective"], row["agrees"]) == ("optimal", fewest, True) for row in answered)


def test_solve_all_agrees_there_is_no_solution(reference) -> None:
    assert reference.term("A000170", 3) == 0
    _, rows = _rows("solve", "nqueens", "-n", "3", "--backend", "all")
    assert all((row["status"], row["agrees"]) == ("no solution", True) for row in rows if row["status"] != "n/a")


def test_solve_all_refuses_one_backends_options_before_any_work() -> None:
    for extra in (["--out", "x.txt"], ["--encoding", "ladder"], ["--method", "search"]):
        result = run_main("solve", "nqueens", "-n", "8", "--backend", "all", *extra)
        assert result.returncode == 2 and "--backend all compares every backend" in result.stderr
        assert not result.stdout


class Lossy(Csp):
    """A throw-away backend (it imitates no solver: it is csp, short of one solution) whose count
    the table must show as a disagreement."""

    name = "lossy"

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        yield from list(super().solutions(model, deadline))[:-1]


def test_a_count_that_disagrees_is_marked_and_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BACKENDS, "lossy", (__name__, "Lossy", "nothing to install"))
    assert get_backend("lossy").name == "lossy"
    result = run_main("count", "nqueens", "-n", "6", "--backend", "all", "--no-symmetry")
    assert result.returncode == 3, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("lossy "))
    assert " 3 " in line and line.endswith("✗")
