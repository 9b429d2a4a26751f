"""Large boards: completion that never wrongly says "no", construction, local search, the verifier.

Every "no" of the completion solver on small boards is confirmed by two independent means: the
SAT backend (CaDiCaL) and the native exhaustive count, which must find 0 solutions.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from queens.models import Completion, InvalidBoard, InvalidPlacement, MalformedInput, NQueens, TimeLimit, verify
from queens.models.generate import planted, random_placement
from queens.models.placement_file import CHUNK, read_placement, write_placement
from queens.models.verify_stream import verify_cells, verify_columns, verify_file
from queens.solvers import Status, count, solve
from queens.solvers.native import _completion, _localsearch
from queens.solvers.native.completion import complete, solve_completion
from queens.solvers.native.local_search import random_solution
from queens.solvers.routing.construct import construct

from tests.cli import error_line, run_main
from tests.typed_results import counted


def _cells(columns: np.ndarray) -> list[tuple[int, int]]:
    return [(r, int(c)) for r, c in enumerate(columns) if c >= 0]


def _solved(columns: np.ndarray | None) -> np.ndarray:
    """A construction's or a local search's columns, for an n that has a solution (not 2 or 3)."""
    assert columns is not None
    return columns


# ---- generators ------------------------------------------------------------------------------

@pytest.mark.parametrize("n, k", [(8, 0), (8, 5), (50, 20), (300, 290)])
def test_generators_place_non_attacking_queens(n, k):
    solution = _solved(random_solution(n, seed=k)).tolist()
    for queens in (planted(solution, k, seed=1), random_placement(n, k, seed=1)):
        assert len(queens) == k
        assert verify_cells(n, np.array([r for r, _ in queens]), np.array([c for _, c in queens])) == k
    assert set(planted(solution, k, seed=1)) <= set(enumerate(solution))


def test_generators_are_reproducible_by_seed():
    assert random_placement(40, 30, seed=7) == random_placement(40, 30, seed=7)
    assert random_placement(40, 30, seed=7) != random_placement(40, 30, seed=8)
    assert _solved(random_solution(500, seed=3)).tolist() == _solved(random_solution(500, seed=3)).tolist()
    assert _solved(random_solution(500, seed=3)).tolist() != _solved(random_solution(500, seed=4)).tolist()


def test_generators_refuse_impossible_sizes():
    with pytest.raises(InvalidBoard):
        random_placement(5, 6, seed=0)
    with pytest.raises(InvalidBoard, match="too many"):
        random_placement(2, 2, seed=0)
    with pytest.raises(InvalidBoard):
        planted([1, 3, 0, 2], 5, seed=0)


# ---- exact completion ------------------------------------------------------------------------

@pytest.mark.parametrize("n, k", [(4, 1), (8, 3), (30, 10), (100, 90), (1000, 100), (1000, 500), (1000, 990)])
def test_planted_instances_always_complete(n, k):
    for seed in range(5):
        queens = planted(_solved(random_solution(n, seed=seed)).tolist(), k, seed)
        columns = complete(n, queens, seed=seed)
        assert columns is not None
        assert verify_columns(columns) == n
        assert all(columns[r] == c for r, c in queens)


def _confirmed_answer(n: int, queens: tuple[tuple[int, int], ...]) -> bool:
    """Whether a completion exists, by the solver, checked against SAT and the native count."""
    columns = complete(n, queens, seed=n)
    puzzle = Completion(n, queens)
    solutions = counted(count(puzzle, "native"))
    sat = solve(puzzle, "sat").status
    if columns is None:
        assert solutions == 0 and sat is Status.INFEASIBLE, f"false 'no' for n={n} {queens}"
        return False
    verify(puzzle, _cells(columns))
    assert solutions > 0 and sat is Status.SOLVED
    return True


def test_every_no_is_confirmed_by_sat_and_exhaustive_search():
    answers = []
    for n in range(1, 10):
        for k in range(0, n + 1, 2):
            for seed in range(4):
                try:
                    queens = random_placement(n, k, seed)
                except InvalidBoard:
                    continue
                answers.append(_confirmed_answer(n, queens))
    assert answers.count(False) > 20 and answers.count(True) > 20  # both kinds were exercised


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 9), st.integers(0, 9), st.integers(0, 10**6))
def test_completion_agrees_with_the_native_count(n, k, seed):
    try:
        queens = random_placement(n, min(k, n), seed)
    except InvalidBoard:
        assume(False)  # no such placement: discarded, not counted as a pass
    has = complete(n, queens, seed=seed) is not None
    assert has == (counted(count(Completion(n, queens), "native")) > 0)


def test_completion_decides_the_transition_quickly_and_exactly():
    n = 400
    k = round(n - 2.3 * n**0.5)
    outcomes = [solve_completion(n, random_placement(n, k, seed), seed=seed) for seed in range(20)]
    assert {r.columns is None for r in outcomes} == {True, False}  # both sides of the transition


def test_completion_refuses_bad_queens_with_one_clear_error():
    with pytest.raises(InvalidPlacement, match="share a diagonal"):
        complete(8, [(0, 0), (3, 3)])
    with pytest.raises(InvalidPlacement, match="off the 8x8 board"):
        complete(8, [(0, 8)])
    with pytest.raises(MalformedInput):
        complete(8, [(0, 1, 2)])  # type: ignore[list-item]  # a malformed cell on purpose
    with pytest.raises(InvalidBoard):
        complete(0, [])


def test_completion_stops_at_the_time_limit():
    with pytest.raises(TimeLimit):
        solve_completion(3000, [], time_limit=1e-6)


def test_native_modules_validate_their_arguments():
    with pytest.raises(ValueError):
        _completion.complete(0, b"", b"")
    with pytest.raises(ValueError):
        _completion.complete(8, b"\0" * 8, b"")
    with pytest.raises(ValueError):
        _completion.complete(8, b"\0" * 7, b"\0" * 7)
    with pytest.raises(ValueError, match="off the"):
        _completion.complete(8, np.array([9], np.int64).tobytes(), np.array([0], np.int64).tobytes())
    with pytest.raises(ValueError, match="share a column"):
        _completion.complete(8, np.array([0, 1], np.int64).tobytes(), np.array([3, 3], np.int64).tobytes())
    with pytest.raises(ValueError):
        _localsearch.search(8, np.empty(7, np.int32))
    with pytest.raises(TypeError):
        _localsearch.search(8, bytes(32))  # read-only
    with pytest.raises(ValueError, match="shares a"):
        _localsearch.search(8, np.empty(8, np.int32), np.array([0, 1], np.int64).tobytes(),
                            np.array([0, 1], np.int64).tobytes())


# ---- one solution for huge n -----------------------------------------------------------------

def test_construction_is_valid_for_every_n_up_to_3000():
    for n in range(4, 3001):
        columns = _solved(construct(n))
        if n <= 300:  # the original tuple checker, independent of the streaming one
            verify(NQueens(n), list(enumerate(columns.tolist())))
        r = np.arange(n)
        assert len(set(columns.tolist())) == len(set((r - columns).tolist())) == len(set((r + columns).tolist())) == n
    assert _solved(construct(1)).tolist() == [0]
    assert construct(2) is None and construct(3) is None


@pytest.mark.parametrize("n", [10**4 + 1, 99_998, 123_459, 500_004, 999_999, 10**6])  # every n mod 6
def test_construction_is_valid_for_sampled_large_n(n):
    assert verify_columns(_solved(construct(n))) == n


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 50, 1000, 200_000])
def test_local_search_results_pass_the_verifier(n):
    columns = _solved(random_solution(n, seed=n))
    assert verify_columns(columns) == n
    if n <= 1000:  # and the original tuple checker agrees
        verify(NQueens(n), list(enumerate(columns.tolist())))


def test_local_search_knows_two_and_three_have_no_solution():
    assert random_solution(2) is None and random_solution(3) is None
    with pytest.raises(InvalidBoard):
        random_solution(0)


# ---- the streaming verifier and the files ----------------------------------------------------

@pytest.mark.parametrize("cells, message", [
    ([(0, 1), (0, 3)], "queens at (0, 1) and (0, 3) share a row"),
    ([(0, 1), (2, 1)], "queens at (0, 1) and (2, 1) share a column"),
    ([(0, 1), (3, 4)], "queens at (0, 1) and (3, 4) share a diagonal"),
    ([(1, 3), (3, 1)], "queens at (1, 3) and (3, 1) share an anti-diagonal"),
    ([(0, 1), (5, 0)], "queen at (5, 0) is off the 5x5 board"),
    ([(0, 1), (2, -1)], "queen at (2, -1) is off the 5x5 board"),
])
def test_verifier_names_each_kind_of_conflict(cells, message):
    with pytest.raises(InvalidPlacement, match=re.escape(message)):
        verify_cells(5, np.array([r for r, _ in cells]), np.array([c for _, c in cells]))


def test_verifier_names_the_first_conflict_across_chunks():
    n = 3 * CHUNK
    columns = _solved(construct(n)).copy()
    later = 2 * CHUNK + 5
    columns[later] = columns[10]  # a second queen in row 10's column, two chunks later
    with pytest.raises(InvalidPlacement, match=re.escape(f"queens at (10, {columns[10]}) and ({later}, {columns[10]}) "
                                                         "share a column")):
        verify_columns(columns)


def test_verifier_reports_the_earliest_of_several_conflicts():
    columns = _solved(construct(100)).copy()
    columns[90] = columns[5]
    columns[30] = columns[20]
    with pytest.raises(InvalidPlacement, match=re.escape(f"queens at (20, {columns[20]}) and (30, {columns[20]}) "
                                                         "share a column")):
        verify_columns(columns)


def test_verifier_orders_conflicts_by_queen_not_by_kind():
    rows, cols = np.array([0, 2, 3, 2]), np.array([0, 1, 3, 5])  # diagonal at the 3rd queen, row at the 4th
    with pytest.raises(InvalidPlacement, match=re.escape("queens at (0, 0) and (3, 3) share a diagonal")):
        verify_cells(6, rows, cols)


@pytest.mark.parametrize("fmt", ["npy", "text", "perm"])
def test_files_round_trip_and_verify(tmp_path, fmt):
    columns = _solved(random_solution(3000, seed=1))
    path = tmp_path / f"solution.{fmt}"
    write_placement(path, columns, fmt)
    assert verify_file(path) == (3000, 3000)
    read = np.concatenate([c for _, c in read_placement(path).chunks()])
    assert read.tolist() == columns.tolist()
    partial = columns.copy()
    partial[::2] = -1
    write_placement(path, partial, fmt)
    assert verify_file(path, 3000) == (3000, 1500)


@pytest.mark.parametrize("content, message", [
    ("# n=8\n0 1\n1 x\n", r":3: 'x' is not a whole number"),
    ("# n=8\n0 1\n1 2 3\n", r":3: expected a row and a column"),
    ("# n=8\n0 1\n1\n", r":3: expected a row and a column"),
    ("0 1\n2 3\n", "give -n"),
    ("1 3 0 2 x\n", "'x' is not a whole number"),
])
def test_verifier_rejects_malformed_text(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    with pytest.raises(MalformedInput, match=message):
        verify_file(path)


def test_verifier_rejects_malformed_binary(tmp_path):
    floats, pairs3, junk = tmp_path / "f.npy", tmp_path / "p.npy", tmp_path / "j.bin"
    np.save(floats, np.array([1.0, 3.0, 0.0, 2.0]))
    np.save(pairs3, np.zeros((4, 3), np.int32))
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(128, 256)))
    for path, message in ((floats, "expected integers"), (pairs3, "shape"), (junk, "not a text placement")):
        with pytest.raises(MalformedInput, match=message):
            verify_file(path, 8)
    with pytest.raises(MalformedInput, match="no such file"):
        verify_file(tmp_path / "missing.npy")


def test_verifier_checks_n_against_the_file(tmp_path):
    path = tmp_path / "s.npy"
    write_placement(path, _solved(construct(8)), "npy")
    with pytest.raises(MalformedInput, match="is for n = 8, not 9"):
        verify_file(path, 9)


# ---- the command line ------------------------------------------------------------------------

def test_cli_constructs_writes_and_verifies_a_large_solution(tmp_path):
    path = tmp_path / "big.npy"
    result = run_main("solve", "nqueens", "-n", "200000", "--method", "construct", "--out", str(path))
    assert result.returncode == 0, result.stderr
    assert "use --out" not in result.stdout and len(result.stdout) < 200  # no cell list for 2*10^5
    checked = run_main("verify", str(path))
    assert checked.returncode == 0 and "a valid 200000-queens solution" in checked.stdout


def test_cli_generates_solves_and_verifies_a_completion(tmp_path):
    instance, solution = tmp_path / "instance.txt", tmp_path / "solution.txt"
    generated = run_main("generate", "completion", "-n", "500", "-k", "50", "--seed", "1", "--out", str(instance))
    assert generated.returncode == 0, generated.stderr
    result = run_main("solve", "completion", "-n", "500", "--queens", str(instance), "--method", "complete",
                     "--out", str(solution), "--format", "perm", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "solved"
    checked = run_main("verify", str(solution), "--json")
    payload = json.loads(checked.stdout)
    assert (payload["method"], payload["verified"], payload["count"]) == ("verify", True, 500)
    assert payload["details"] == {"file": str(solution), "queens": 500, "kind": "solution"}
    given = run_main("verify", str(instance))
    assert "a valid partial placement, 50 queens on 500x500" in given.stdout


def test_cli_random_solution_is_seeded():
    first, second = (json.loads(run_main("solve", "nqueens", "-n", "30", "--method", "random", "--seed", "5",
                                        "--json").stdout)["solutions"][0] for _ in range(2))
    assert first == second and sorted(c for _, c in first) == list(range(30))


def test_cli_verify_names_the_conflict_on_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# n=8\n0 1\n5 1\n")
    result = run_main("verify", str(path))
    assert result.returncode == 1
    assert error_line(result) == "error: queens at (0, 1) and (5, 1) share a column"


def test_cli_refuses_what_it_cannot_do():
    shown = run_main("show", "nqueens", "-n", "200")
    assert shown.returncode == 2 and "show draws boards up to 100 wide" in shown.stderr
    wrong = run_main("solve", "superqueens", "-n", "10", "--method", "construct")
    assert wrong.returncode == 2 and "python/construct: needs n queens on a full n x n board" in wrong.stderr


def test_cli_writes_a_backend_solution_and_refuses_what_is_no_queen_placement(tmp_path):
    path = tmp_path / "eight.txt"
    assert run_main("solve", "nqueens", "-n", "8", "-b", "native", "--out", str(path)).returncode == 0
    assert "a valid 8-queens solution" in run_main("verify", str(path)).stdout
    knights = run_main("solve", "knights", "-n", "4", "-b", "native", "--out", str(tmp_path / "knights.txt"))
    assert knights.returncode == 2  # refused before any search: knights may share a row
    assert error_line(knights).startswith("error: --out writes one piece per row of a square board")
    assert not (tmp_path / "knights.txt").exists()
