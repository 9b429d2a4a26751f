"""The real `queens` command: tables, JSON, exit codes, and one-line errors."""

from __future__ import annotations

import json

import pytest
from queens.solvers import BACKENDS

from tests.cli import error_line, run_cli, run_main


def test_count_all_backends_agree_on_eight_queens(reference):
    result = run_cli("count", "nqueens", "-n", "8", "--backend", "all")
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if f" {reference.term('A000170', 8)} " in line]
    assert len(rows) >= 4 and all("✓" in row for row in rows)  # minizinc joins where installed


def test_count_json_reports_ground_truth(reference):
    result = run_cli("count", "nqueens", "-n", "7", "--backend", "all", "--json")
    assert result.returncode == 0
    payload = json.loads(result.stdout)
    assert payload["details"]["ground_truth"] == reference.term("A000170", 7)
    rows = payload["details"]["results"]
    assert {r["backend"] for r in rows} == set(BACKENDS)  # a backend that cannot answer has its n/a row
    assert all(r["agrees"] for r in rows if r["status"] != "n/a")


def test_solve_prints_a_verified_board():
    result = run_cli("solve", "nqueens", "-n", "8", "--backend", "sat")
    assert result.returncode == 0
    assert result.stdout.count("♛") == 8
    assert "solving" in result.stderr  # progress goes to stderr, not stdout


def test_show_plain_grid():
    result = run_cli("show", "nqueens", "-n", "5", "--plain", "--backend", "native")
    grid = result.stdout.split("\n")[:5]
    assert result.returncode == 0
    assert [row.count("Q") for row in grid] == [1] * 5
    assert all(set(row.replace(" ", "")) <= {"Q", "."} for row in grid)


def test_solve_json_has_solution():
    payload = json.loads(run_cli("solve", "nqueens", "-n", "6", "--json", "-b", "csp").stdout)
    assert payload["status"] == "solved" and (payload["backend"], payload["method"]) == ("csp", "search")
    assert len(payload["solutions"][0]) == 6


@pytest.mark.parametrize("n", ["2", "3"])
def test_no_solution_is_an_answer_not_an_error(n):
    result = run_cli("solve", "nqueens", "-n", n)
    assert result.returncode == 0
    assert "no solution" in result.stdout


@pytest.mark.parametrize("args,code,message", [
    (["count", "nqueens", "-n", "0"], 1, "positive number of rows"),
    (["count", "nqueens", "-n", "-4", "-b", "native"], 1, "positive number of rows"),
    (["count", "nqueens", "-n", "1000", "-b", "cpsat"], 2, "counts boards of at most"),
    (["count", "nqueens", "-n", "70", "-b", "native"], 2, "at most 4,096 cells"),
    (["count", "nqueens", "-n", "5000", "-b", "sat"], 2, "counts boards of at most"),
    (["count", "nqueens", "-n", "8", "-b", "gurobi"], 2, "gurobi"),
    (["count", "hexqueens", "-n", "8"], 2, "hexqueens"),
    (["count", "nqueens", "-n", "eight"], 2, "must be a whole number"),
    (["count", "nqueens"], 2, "Missing option"),
    (["solve", "nqueens", "-n", "8", "--encoding", "pairwise", "-b", "cpsat"], 2, "encoding: not an option of cpsat"),
    (["solve", "nqueens", "-n", "8", "--viewpoint", "sideways", "-b", "cpsat"], 2, "viewpoint"),
    (["solve", "nqueens", "-n", "8", "--time-limit", "-1"], 2, "time-limit"),
    (["show", "nqueens", "-n", "500"], 2, "draws boards up to"),
])
def test_bad_input_gets_one_clear_line_and_nonzero_exit(args, code, message):
    """In this process: the command's own messages and codes (the script's are the same:
    test_bad_input.py's test_the_real_script_agrees runs it on each kind of mistake)."""
    result = run_main(*args)
    assert result.returncode == code
    assert message in error_line(result)
