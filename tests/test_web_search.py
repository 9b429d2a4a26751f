"""The explorer's search view and ladder (/api/search, /api/ladder; queens/web/search_view.py).

Every number is held to ground truth that shares no code with the teaching engine or models/:
each node's domains to forward checking written in tests/test_ladder.py, applied to the
decisions on the node's path; the solutions to OEIS A000170 or to completions counted by brute
force here; the ladder's rungs to tests/test_ladder.py's brute force; the 9-queens steps to the
MiniZinc handbook's story as docs/propagation.md retells it. Bad requests are one HTTP 400 each,
through the real server.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from itertools import permutations
from typing import Any

import pytest

from queens.web.api import answer
from queens.web.schema import BadRequest
from queens.web.search_view import LADDER_NODES, MAX_STEPS, MAX_TREE_NODES
from tests.conftest import Reference
from tests.explorer_server import running_explorer
from tests.test_ladder import RUNGS, Domains, attack, forward, placements, two_way

Json = dict[str, Any]


def _search(n: int, queens: list[list[int]] | None = None, **settings: object) -> Json:
    return answer("search", {"family": "nqueens", "n": n, "queens": queens or [], **settings}, 30.0)


def _path(nodes: dict[int, Json], node: Json) -> list[tuple[int, str, int]]:
    """The decisions from the root to `node`: (row, "=" or "!=", column)."""
    path: list[tuple[int, str, int]] = []
    while node["decision"] is not None:
        decision = node["decision"]
        path.insert(0, (int(decision["var"][2:-1]), decision["op"], decision["value"]))
        node = nodes[node["parent"]]
    return path


def _brute_force(n: int, path: list[tuple[int, str, int]], given: dict[int, int] | None = None) -> Domains | None:
    """Forward checking (tests/test_ladder.py) from the givens, then after each decision."""
    start = [frozenset({given[r]}) if given and r in given else frozenset(range(n)) for r in range(n)]
    domains = forward(start)
    for row, op, column in path:
        if domains is None:
            return None
        kept = frozenset({column}) if op == "=" else domains[row] - {column}
        domains = forward([kept if r == row else d for r, d in enumerate(domains)])
    return domains


def _completions(n: int, given: dict[int, int]) -> int:
    """n-queens solutions through the given queens (row: column), by permutations."""
    return sum(1 for q in permutations(range(n)) if all(q[r] == c for r, c in given.items())
               and not any(attack(r1, q[r1], r2, q[r2]) for r1 in range(n) for r2 in range(r1 + 1, n)))


def _check_tree(reply: Json, n: int, given: dict[int, int] | None = None) -> None:
    """Every node's domains equal the brute force's after its path; failures are its wipe-outs."""
    nodes = {node["id"]: node for node in reply["tree"]["nodes"]}
    for node in nodes.values():
        expected = _brute_force(n, _path(nodes, node), given)
        if expected is None or not all(expected):
            assert node["status"] == "failure", node
        else:
            assert node["status"] in ("branch", "solution"), node
            assert [frozenset(node["domains"][f"q[{r}]"]) for r in range(n)] == expected, node
            assert (node["status"] == "solution") == all(len(d) == 1 for d in expected)


@pytest.mark.parametrize("var", ["input_order", "first_fail", "dom_w_deg"])
@pytest.mark.parametrize("val", ["indomain_min", "indomain_max", "indomain_median"])
def test_each_nodes_domains_are_forward_checkings(var: str, val: str, reference: Reference) -> None:
    reply = _search(6, var=var, val=val, all=True)
    _check_tree(reply, 6)
    solutions = sum(node["status"] == "solution" for node in reply["tree"]["nodes"])
    assert solutions == reply["stats"]["solutions"] == reference.term("A000170", 6)
    assert reply["svg"].count('data-status="solution"') == reference.term("A000170", 6)
    assert reply["complete"] and reply["status"] == "complete"


def test_the_tree_of_4_queens(reference: Reference) -> None:
    reply = _search(4, all=True)
    statuses = [node["status"] for node in reply["tree"]["nodes"]]
    assert statuses.count("solution") == reference.term("A000170", 4)
    assert f"{reference.term('A000170', 4)} solutions" in reply["message"]
    assert reply["cells"]["q[2]"] == [[c, 2, c] for c in range(4)]  # each value's square on the board
    _check_tree(reply, 4)


def test_the_search_starts_from_the_givens() -> None:
    given = {0: 1, 2: 5}
    reply = _search(7, queens=[[r, c] for r, c in given.items()], all=True)
    _check_tree(reply, 7, given)
    assert reply["stats"]["solutions"] == _completions(7, given)


STORY = ["node 1: decide q[0] = 0", "node 2: decide q[1] = 2", "node 3: decide q[2] = 4", "node 4: decide q[5] = 3",
         "q[7] = 6 is forced (one value left)", "q[6] = 1 is forced (one value left)",
         "q[8] = 1 is forced (one value left)", "q[8] has no value left (columns q[6] q[8]): node 4 fails",
         "back to node 3: its other branch, q[5] != 3", "node 5: decide q[5] != 3",
         "q[5] = 8 is forced (one value left)"]
"""The MiniZinc handbook's 9-queens story (first fail, smallest value) as docs/propagation.md
retells it, counted from 0 with rows for the handbook's columns."""


def test_the_9_queens_steps_tell_the_handbooks_story() -> None:
    reply = _search(9, var="first_fail")
    steps = reply["steps"]
    story = [step["text"] for step in steps if step["kind"] in ("decision", "forced", "wipe-out", "backtrack")]
    assert story[:len(STORY)] == STORY
    wipe = next(step for step in steps if step["kind"] == "wipe-out")
    assert wipe["domains"]["q[8]"] == [] and wipe["by"] == "columns q[6] q[8]"
    after = _brute_force(9, [(0, "=", 0), (1, "=", 2), (2, "=", 4), (5, "=", 3)])
    assert after is None  # the brute force fails there too
    back = _brute_force(9, [(0, "=", 0), (1, "=", 2), (2, "=", 4), (5, "!=", 3)])
    assert back is not None and back[5] == frozenset({8})  # and forces q[5] = 8 after the backtrack
    last = steps[-1]
    assert last["kind"] == "solution"
    placed = [(r, last["domains"][f"q[{r}]"][0]) for r in range(9)]
    assert all(len(last["domains"][f"q[{r}]"]) == 1 for r in range(9))
    assert not any(attack(*a, *b) for i, a in enumerate(placed) for b in placed[i + 1:])


def test_each_step_only_removes_values_within_a_node() -> None:
    """Within a node the domains only shrink, one step after another (the board the page shows)."""
    steps = _search(7, var="first_fail", all=True)["steps"]
    for before, step in zip(steps, steps[1:], strict=False):
        if step["node"] == before["node"] and step["kind"] != "backtrack" and before["kind"] != "backtrack":
            assert all(set(step["domains"][name]) <= set(values) for name, values in before["domains"].items())


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_ladder_counts_the_brute_forces_nodes(n: int) -> None:
    rungs = {rung["level"]: rung for rung in answer("ladder", {"family": "nqueens", "n": n}, 60.0)["rungs"]}
    for level, propagate in RUNGS.items():
        assert (rungs[level]["nodes"], rungs[level]["solutions"]) == two_way(n, propagate)
        assert rungs[level]["complete"]
    assert rungs["native"]["nodes"] == placements(n) and rungs["native"]["unit"] == "placements"


def test_a_rung_past_its_node_limit_is_a_lower_bound() -> None:
    rungs = {rung["level"]: rung for rung in answer("ladder", {"family": "nqueens", "n": 7}, 60.0)["rungs"]}
    assert not rungs["generate"]["complete"] and rungs["generate"]["nodes"] > LADDER_NODES
    assert (rungs["none"]["nodes"], rungs["none"]["solutions"]) == two_way(7, RUNGS["none"])


def test_a_search_past_the_node_limit_says_so() -> None:
    reply = _search(8, propagate="none", all=True)
    assert not reply["complete"] and len(reply["tree"]["nodes"]) == MAX_TREE_NODES
    assert f"at most {MAX_TREE_NODES:,} nodes" in reply["message"] and "lower bounds" in reply["message"]
    assert reply["steps_truncated"] and len(reply["steps"]) == MAX_STEPS


BAD = {
    "unknown variable order": ({"var": "ff"}, "unknown variable order 'ff'; choose from input_order"),
    "unknown value order": ({"val": "min"}, "unknown value order 'min'; choose from indomain_min"),
    "unknown level": ({"propagate": "strong"}, "unknown propagation level 'strong'; choose from generate"),
    "a level that is no name": ({"propagate": 3}, "'propagate' must be a name, got 3"),
    "all not a boolean": ({"all": "yes"}, "'all' must be true or false, got 'yes'"),
    "a negative seed": ({"seed": -1}, "'seed' must be a whole number"),
    "an unknown key": ({"order": "first_fail"}, "unknown key 'order' for /api/search"),
    "queens that attack": ({"queens": [[0, 0], [1, 1]]}, "attack each other: the search starts from pieces"),
    "an optimum": ({"family": "domination"}, "the search view: search explores one satisfaction model"),
    "domains too many to keep": ({"family": "bishops", "n": 15}, "the engine keeps for at most 400 values; "
                                                                   "this board's boolean viewpoint has 450"),
}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with running_explorer(workers=1, time_limit=30.0) as url:
        yield url


def _post(base: str, route: str, body: Json) -> tuple[int, Json]:
    request = urllib.request.Request(f"{base}/api/{route}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(("change", "said"), BAD.values(), ids=list(BAD))
def test_a_bad_request_is_one_400_with_the_reason(base: str, change: Json, said: str) -> None:
    status, reply = _post(base, "search", {"family": "nqueens", "n": 6, **change})
    assert status == 400 and said in reply["error"], reply


def test_the_server_answers_a_search_and_the_ladder(base: str, reference: Reference) -> None:
    status, reply = _post(base, "search", {"family": "nqueens", "n": 5, "all": True, "var": "first_fail"})
    assert status == 200 and reply["stats"]["solutions"] == reference.term("A000170", 5)
    status, ladder = _post(base, "ladder", {"family": "nqueens", "n": 4, "queens": [[0, 1]]})
    assert status == 200
    solutions = {rung["level"]: rung["solutions"] for rung in ladder["rungs"]}
    assert set(solutions.values()) == {_completions(4, {0: 1})}
    status, info = _post(base, "ladder", {"family": "nqueens", "n": 4, "var": "first_fail"})
    assert status == 400 and "unknown key 'var' for /api/ladder" in info["error"]


def test_info_offers_the_engines_names() -> None:
    with pytest.raises(BadRequest):
        answer("search", {"family": "nqueens", "n": 4, "var": "dom/wdeg"})
    from queens.web.api import info

    offered = info()["search"]
    assert offered["var"][:2] == ["input_order", "first_fail"] and "indomain_median" in offered["val"]
    assert {"none", "forward", "arc"} <= set(offered["propagate"])
