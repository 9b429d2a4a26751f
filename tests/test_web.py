"""The explorer's HTTP API, against the real server on an ephemeral loopback port."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from queens.models import NQueens, verify
from queens.models.families import FAMILIES
from queens.models.puzzle_file import loads
from queens.solvers import count

from queens.cli import main
from queens.web.api import MAX_SIDE
from queens.web.server import MAX_BODY
from tests.explorer_server import children, running_explorer
from tests.typed_results import counted

PUZZLES = Path(__file__).resolve().parents[1] / "models" / "puzzles"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_explorer() as url:
        yield url


def _get(base: str, path: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as reply:
            return reply.status, reply.headers["Content-Type"], reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def _post(base: str, route: str, body: object, raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/{route}", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_binds_loopback(base):
    assert base.startswith("http://127.0.0.1:")


def test_static_page_is_served_from_the_package(base):
    status, kind, page = _get(base, "/")
    assert status == 200 and kind.startswith("text/html") and "queens explorer" in page
    assert "http" not in page.replace("http-equiv", "")  # nothing fetched from elsewhere (no CDN)
    status, kind, _ = _get(base, "/app.js")
    assert status == 200 and "javascript" in kind
    assert _get(base, "/style.css")[0] == 200
    status, kind, body = _get(base, "/../pyproject.toml")
    assert status == 404 and json.loads(body)["error"]


def test_info_lists_families_backends_and_limits(base):
    status, _, body = _get(base, "/api/info")
    info = json.loads(body)
    assert status == 200 and info["limits"]["side"] == MAX_SIDE
    assert {"native", "cpsat", "sat", "csp"} <= set(info["backends"])
    assert {"name": "ninequeens", "pawns": True, "description": FAMILIES["ninequeens"].description} in info["families"]
    assert [f["description"] for f in info["families"]] == [f.description for f in FAMILIES.values()]


def test_board_reports_conflicts_and_attacks(base):
    status, board = _post(base, "board", {"family": "nqueens", "n": 4, "queens": [[0, 0], [1, 1]]})
    assert status == 200 and board["conflicts"] == [[[0, 0], [1, 1]]]
    assert [0, 3] in board["attacked"] and [2, 1] in board["attacked"] and [2, 3] not in board["attacked"]


@pytest.mark.parametrize("backend", ["native", "cpsat", "sat", "csp"])
def test_complete_keeps_the_placed_queen(base, backend):
    status, reply = _post(base, "complete", {"family": "nqueens", "n": 6, "queens": [[0, 1]], "backend": backend})
    assert status == 200 and reply["status"] == "solved", reply
    cells = [tuple(c) for c in reply["solution"]]
    assert (0, 1) in cells and verify(NQueens(6), cells)
    assert reply["backend"] == backend and reply["time"] >= 0


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_has_a_message(base, n):
    status, reply = _post(base, "complete", {"family": "nqueens", "n": n})
    assert status == 200 and reply["status"] == "no solution" and reply["solution"] == []
    assert "no solution" in reply["message"]


def test_blocked_completion_and_attacking_queens(base):
    status, reply = _post(base, "complete", {"family": "nqueens", "n": 6, "queens": [[0, 0]]})
    assert reply["status"] == "no solution" and "cannot be completed" in reply["message"]
    status, reply = _post(base, "complete", {"family": "nqueens", "n": 6, "queens": [[0, 0], [5, 5]]})
    assert status == 200 and "attack each other" in reply["message"]


def test_toroidal_says_why_there_is_none(base):
    _, reply = _post(base, "complete", {"family": "toroidal", "n": 6})
    assert "Pólya" in reply["message"]


def test_count_and_solutions_in_order(base, reference):
    _, reply = _post(base, "count", {"family": "nqueens", "n": 6, "backend": "sat"})
    assert reply["count"] == reference.term("A000170", 6) and reply["status"] == "complete"
    seen = set()
    for index in range(reference.term("A000170", 6)):
        _, reply = _post(base, "solution", {"family": "nqueens", "n": 6, "index": index})
        seen.add(tuple(map(tuple, reply["solution"])))
    assert len(seen) == reference.term("A000170", 6)
    _, reply = _post(base, "solution", {"family": "nqueens", "n": 6, "index": len(seen)})
    total = reference.term("A000170", 6)
    assert reply["status"] == "no solution" and reply["message"] == f"no solution number {total + 1}: there are {total}"


def test_pawns_for_nine_queens(base):
    request = {"family": "ninequeens", "n": 8, "pawns": [[2, 2]]}
    _, reply = _post(base, "complete", request)
    assert reply["status"] == "solved" and len(reply["solution"]) == 9
    status, reply = _post(base, "complete", {"family": "nqueens", "n": 8, "pawns": [[2, 2]]})
    assert status == 400 and "no pawns" in reply["error"]
    status, reply = _post(base, "complete", {"family": "ninequeens", "n": 8})  # the solver places the pawn
    assert status == 200 and reply["status"] == "solved" and len(reply["solution"]) == 9 and len(reply["pawns"]) == 1


def test_nine_queens_solutions_are_listed_with_their_pawns(base):
    """Free pawns are one model (an army of pawns), so its solutions are listed one by one, the
    solver's pawn drawn as a pawn and the queens as the one army the board shows."""
    status, reply = _post(base, "solution", {"family": "ninequeens", "n": 6, "index": 1})
    assert status == 200 and reply["status"] == "solved"
    assert len(reply["solution"]) == 7 and set(reply["armies"]) == {0} and len(reply["pawns"]) == 1
    assert not {tuple(cell) for cell in reply["solution"]} & {tuple(cell) for cell in reply["pawns"]}


def test_nine_queens_board_before_its_pawns(base):
    """Switching the page to nine queens draws its empty board (it used to answer 400)."""
    status, board = _post(base, "board", {"family": "ninequeens", "n": 8})
    assert status == 200 and board["pawns_first"] and board["pawns"] == [] and board["queens"] == []
    assert (board["rows"], board["cols"], board["pieces"]) == (8, 8, 9)
    status, board = _post(base, "board", {"family": "ninequeens", "n": 8, "pawns": [[2, 2]]})
    assert status == 200 and not board["pawns_first"] and board["pawns"] == [[2, 2]]


def test_trace_events_and_neighbours(base):
    status, reply = _post(base, "trace", {"family": "nqueens", "n": 5})
    assert status == 200 and reply["events"][-1]["step"] == "solution"
    assert [1, 1] in reply["neighbours"]["0,0"] and not reply["truncated"]
    _, reply = _post(base, "trace", {"family": "nqueens", "n": 3, "solutions": 0})
    assert reply["events"][-1]["solutions"] == 0 and "no solution" in reply["message"]


STUCK = [[3, 0], [4, 7], [6, 4], [1, 3], [0, 6]]
"""Five non-attacking queens on 8 x 8 that no solution extends (docs/certificates.md's example)."""


def _completions(cells: list[tuple[int, int]]) -> int:
    """8-queens solutions through these queens, by the native counter (no SAT, no MUS code)."""
    return counted(count(NQueens(8).with_fixed(cells), "native"))


def test_why_names_a_minimal_subset_in_the_commands_words(base, capsys):
    status, reply = _post(base, "why", {"family": "completion", "n": 8, "queens": STUCK})
    assert status == 200 and reply["status"] == "no solution", reply
    subset = [tuple(given["cell"]) for given in reply["subset"] if given["kind"] == "piece"]
    assert set(subset) < set(map(tuple, STUCK)) and _completions(subset) == 0
    rules = [given for given in reply["subset"] if given["kind"] != "piece"]  # the count: listed, no square
    assert [(g["kind"], g["cell"], g["name"]) for g in rules] == [("count", None, "exactly 8 queens in all")]
    for i in range(len(subset)):  # minimal: without any one of them there is a solution (without the count too)
        assert _completions(subset[:i] + subset[i + 1:]) > 0, subset[i]
    assert reply["message"] == reply["lines"][0] and reply["time"] >= 0 and reply["calls"] >= 1
    with pytest.raises(SystemExit) as finished:  # the command, in this process: the same lines
        main(["why", "completion", "-n", "8", "--queens", " ".join(f"{r},{c}" for r, c in STUCK)])
    assert finished.value.code == 0
    printed = capsys.readouterr().out.splitlines()[:len(reply["lines"])]
    timeless = [re.sub(r"in [\d.]+ s", "in ? s", line) for line in (*printed, *reply["lines"])]
    assert timeless[:len(printed)] == timeless[len(printed):]


def test_why_of_a_board_with_a_solution_says_so(base):
    status, reply = _post(base, "why", {"family": "nqueens", "n": 8, "queens": [[0, 0]]})
    assert status == 200 and reply["status"] == "solved" and reply["subset"] == []
    assert "has a solution" in reply["message"]


def test_why_names_two_queens_that_attack(base):
    status, reply = _post(base, "why", {"family": "nqueens", "n": 8, "queens": [[0, 0], [5, 3], [2, 2]]})
    assert status == 200 and reply["status"] == "no solution"
    assert [g["cell"] for g in reply["subset"]] == [[0, 0], [2, 2]] and "attack each other" in reply["message"]


def test_why_of_a_pawn_that_splits_no_line_is_the_count(base):
    """A pawn in a corner separates no line: 9 queens on 8 x 8 have no solution, the pawn or not."""
    status, reply = _post(base, "why", {"family": "ninequeens", "n": 8, "pawns": [[0, 0]]})
    assert status == 200 and reply["status"] == "no solution"
    assert reply["subset"] == [{"kind": "count", "cell": None, "name": "exactly 9 queens in all"}]


@pytest.mark.parametrize(("route", "body", "needle"), [
    ("board", {"family": "nqueens", "n": MAX_SIDE + 1}, "between 1 and"),
    ("board", {"family": "nqueens", "n": "8"}, "whole number"),
    ("board", {"family": "chess", "n": 8}, "unknown family"),
    ("board", {"family": "nqueens", "n": 4, "queens": [[9, 9]]}, "off the 4x4 board"),
    ("board", {"family": "nqueens", "n": 4, "queens": [[0, 0], [0, 0]]}, "listed twice"),
    ("board", [1, 2], "JSON object"),
    ("complete", {"family": "nqueens", "n": 4, "backend": "magic"}, "unknown backend"),
    ("count", {"family": "domination", "n": 7, "independent": True}, "unknown key 'independent'"),
    ("trace", {"family": "nqueens", "n": 11}, "at most 100 cells"),
    ("solution", {"family": "nqueens", "n": 4, "index": -1}, "between 0 and"),
    ("why", {"family": "domination", "n": 3}, "no givens"),
])
def test_bad_requests_get_400_with_a_message(base, route, body, needle):
    status, reply = _post(base, route, body)
    assert status == 400 and needle in reply["error"], reply


def test_malformed_and_oversized_requests(base):
    status, reply = _post(base, "board", None, raw=b"{not json")
    assert status == 400 and reply["error"] == "the request body is not JSON"
    status, reply = _post(base, "board", None, raw=b" " * (MAX_BODY + 1))
    assert status == 413
    status, reply = _post(base, "nothing", {})
    assert status == 404 and "no API call" in reply["error"]


FAMILY_NAMES = sorted(__import__("queens.models.families", fromlist=["FAMILIES"]).FAMILIES)
"""Every family of the registry: the explorer serves each one (none sampled by hand)."""


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_every_family_is_drawn_solved_and_counted(base, family):
    """A board, an answer drawn on it (armies in their colours, a cube's layers side by side) and a
    count or a refusal with its reason: never a server error."""
    request = {"family": family, "n": 4}
    status, board = _post(base, "board", request)
    assert status == 200 and board["rows"] * board["cols"] >= 16 and board["armies"]
    status, reply = _post(base, "complete", request)
    if status == 400:  # a family that needs the user's pieces first says so
        assert "place some pieces" in reply["error"]
        return
    assert status == 200 and reply["status"] in ("solved", "optimal", "no solution", "time limit"), reply
    assert len(reply["solution"]) == len(reply["armies"])
    gaps = {tuple(cell) for cell in board["gaps"]}
    assert all(0 <= r < board["rows"] and 0 <= c < board["cols"] and (r, c) not in gaps for r, c in reply["solution"])
    assert set(reply["armies"]) <= set(range(len(board["armies"]) + 8))
    status, counted = _post(base, "count", request)
    assert status in (200, 400) and (counted.get("message") or counted.get("error"))


def test_count_is_the_routers_within_the_time_limit(base, reference):
    """Counting has no cell limit of its own: 16-queens (256 cells) is the native counter's, as on the CLI."""
    status, reply = _post(base, "count", {"family": "nqueens", "n": 16})
    assert status == 200 and reply["exact"] and reply["count"] == reference.term("A000170", 16), reply
    assert (reply["backend"], reply["method"]) == ("native", "quadrant") and "native/quadrant" in reply["message"]


def test_the_board_says_what_it_asks_and_its_colours(base):
    _, board = _post(base, "board", {"family": "peaceable", "n": 5})
    assert board["asks"] == FAMILIES["peaceable"].description and board["layer"] == 0
    assert [(a["name"], a["colour"]) for a in board["armies"]] == [("white", board["palette"][0]),
                                                                    ("black", board["palette"][1])]
    _, board = _post(base, "board", {"family": "cube", "n": 3})
    assert (board["rows"], board["cols"], board["layer"]) == (3, 11, 3)


def test_a_users_file_is_drawn_counted_and_solved_like_a_family(base, reference):
    """The shipped kings file sent as a user's text: the same board, the count OEIS gives
    (A002464, Hertzsprung), a placed king kept by complete, and the file's opening comment as
    what it asks."""
    text = (PUZZLES / "kings.toml").read_text()
    status, board = _post(base, "board", {"file": text, "n": 6, "queens": [[0, 1]]})
    assert status == 200 and (board["rows"], board["cols"]) == (6, 6) and board["placeable"]
    assert board["asks"].startswith("#") is False and board["asks"] in " ".join(
        line.lstrip("# ") for line in text.splitlines() if line.startswith("#"))
    status, counted = _post(base, "count", {"file": text, "n": 6})
    assert status == 200 and counted["count"] == reference.term("A002464", 6) and counted["exact"]
    status, solved = _post(base, "complete", {"file": text, "n": 6, "queens": [[0, 1]]})
    placed = [tuple(cell) for cell in solved["solution"]]
    assert solved["status"] == "solved" and (0, 1) in placed
    assert verify(loads(text, 6).puzzle, placed)


def test_a_users_file_with_a_goal_is_optimised(base, reference):
    text = (PUZZLES / "peaceable.toml").read_text()
    status, reply = _post(base, "complete", {"file": text, "n": 5})
    assert status == 200 and reply["status"] == "optimal" and reply["objective"] == reference.term("A250000", 5)


def test_a_malformed_file_gets_the_readers_one_line_error(base):
    broken = (PUZZLES / "nqueens.toml").read_text().replace('count = "n"', 'count = "n +"')
    status, reply = _post(base, "board", {"file": broken, "n": 8})
    assert status == 400 and reply["error"].startswith("your puzzle file: key 'army.count'")
    assert "\n" not in reply["error"]


def _count_in_thread(base: str, body: dict[str, Any]) -> tuple[threading.Thread, list[tuple[int, dict[str, Any]]]]:
    replies: list[tuple[int, dict[str, Any]]] = []
    thread = threading.Thread(target=lambda: replies.append(_post(base, "count", body)))
    thread.start()
    return thread, replies


def test_a_named_count_reports_progress_and_can_be_cancelled(reference, tmp_path, monkeypatch):
    """20-queens takes minutes: its progress names the native counter and its subproblems; cancel
    answers the count at once with the solutions found by then, and the server goes on. (The
    server runs in a folder of its own: a count from 18-queens keeps its ledger where it runs.)"""
    monkeypatch.chdir(tmp_path)
    with running_explorer(workers=1, time_limit=600) as url:
        thread, replies = _count_in_thread(url, {"family": "nqueens", "n": 20, "job": "q20"})
        progress: dict[str, Any] = {}
        while thread.is_alive() and not (progress.get("strategy") and progress.get("total")):
            _, progress = _post(url, "progress", {"job": "q20"})
        assert progress["running"] and progress["strategy"].startswith("native/"), progress
        assert 0 <= progress["done"] <= progress["total"] and progress["elapsed"] >= 0
        status, busy = _post(url, "count", {"family": "nqueens", "n": 5, "job": "q20"})
        assert status == 400 and "already running" in busy["error"]
        status, cancelled = _post(url, "cancel", {"job": "q20"})
        assert status == 200 and cancelled["cancelled"]
        thread.join()
        status, reply = replies[0]
        assert status == 200 and reply["status"] == "cancelled" and not reply["exact"], reply
        assert reply["message"].startswith("cancelled after") and "native/" in reply["message"]
        assert reply["count"] is None or reply["count"] < reference.term("A000170", 20)
        _, after = _post(url, "progress", {"job": "q20"})
        assert after == {"job": "q20", "running": False}
        status, board = _post(url, "board", {"family": "nqueens", "n": 8, "queens": [[0, 0]]})
        assert status == 200 and board["queens"] == [[0, 0]]


def _solver_processes() -> set[int | None]:
    return {child.pid for child in multiprocessing.active_children() if child.name == "queens-solver"}


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads processes' parents and libraries in /proc")
def test_solver_processes_come_from_a_warm_fork_server_and_so_does_a_replaced_one(reference):
    """The explorer's solver processes are forked by multiprocessing's fork server, not by the
    threaded server itself, and that server has loaded the solvers' libraries (OR-Tools among
    them) before it forks: a process replaced after a cancel comes from it too, with nothing
    to import before it answers."""
    from queens.web.workers import SolverPool

    others = _solver_processes()  # another test's pool in this process, if any
    with SolverPool(size=1, time_limit=600.0) as pool:
        assert pool.run("count", {"family": "nqueens", "n": 6})["count"] == reference.term("A000170", 6)
        (server,) = children(os.getpid(), "forkserver")
        first = _solver_processes() - others
        assert first and first <= children(server) and first.isdisjoint(children(os.getpid()))
        assert "ortools" in Path(f"/proc/{server}/maps").read_text()
        running = threading.Thread(target=pool.run, args=("count", {"family": "nqueens", "n": 20}, "long"))
        running.start()
        while running.is_alive() and pool.progress("long") is None:
            time.sleep(0.01)  # polling, not a timed assertion
        assert pool.cancel("long")
        running.join()
        assert pool.run("count", {"family": "nqueens", "n": 7})["count"] == reference.term("A000170", 7)
        replaced = _solver_processes() - others
        assert replaced and replaced.isdisjoint(first) and replaced <= children(server)
