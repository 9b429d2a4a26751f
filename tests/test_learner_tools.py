"""The learner tools on every puzzle, or refused up front with the reason: the heat map, the
replayed search, the exports, explain and hand placement in the explorer, on every family of the
registry and every shipped puzzle file. A refusal is one QueensError that says why (the CLI and
the explorer print it as one line), never another exception."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import pytest
from queens.models import Placement, Puzzle, QueensError
from queens.models.armies import Army
from queens.models.families import FAMILIES, FamilyOptions, build
from queens.models.pieces import PIECES_ON
from queens.models.puzzle_file import SHIPPED, read
from queens.solvers import count, solutions
from queens.solvers.formats.export import FORMATS, exported
from queens.solvers.learn.heat_map import heat_map
from queens.solvers.learn.trace import trace

from queens.explain import explain
from queens.web.api import answer as web
from queens.web.schema import BadRequest
from tests.cli import run_main

REPO = Path(__file__).resolve().parents[1]


def _puzzles() -> list[tuple[str, Puzzle]]:
    built = []
    for name, family in FAMILIES.items():
        options = FamilyOptions(4) if name != "completion" else family.examples[0][1]
        built.append((name, build(name, options)))
    return built + [(path.name, read(path, n=4).puzzle) for path in sorted(SHIPPED.glob("*.toml"))]


PUZZLES = _puzzles()
TOOLS: dict[str, Callable[[Puzzle], object]] = {
    "explain": lambda p: explain(p).text(),
    "heat map": lambda p: heat_map(p, time_limit=60).text(),
    "trace": lambda p: [event for _, event in zip(range(3000), trace(p), strict=False)],
    **{f"export {f}": partial(exported, format_name=f) for f in FORMATS},
}


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("label,puzzle", PUZZLES, ids=[label for label, _ in PUZZLES])
def test_every_tool_answers_every_puzzle_or_says_why(label: str, puzzle: Puzzle, tool: str) -> None:
    try:
        TOOLS[tool](puzzle)
    except QueensError as refused:
        assert len(str(refused)) > 20, refused  # a reason, not a bare word


CUBE = Puzzle(shape=(3, 3, 3), armies=(Army("queens", PIECES_ON[3]["queen"], least=4, most=4),))
"""Four queens on a 3 x 3 x 3 cube: 16 placements."""


def _cells_of(puzzle: Puzzle, placements: Iterable[Placement]) -> Counter[tuple[int, ...]]:
    return Counter(cell for placement in placements for cells in puzzle.per_army(placement) for cell in cells)


@pytest.mark.parametrize("puzzle", [build("peaceable", FamilyOptions(4)), CUBE,
                                    build("queens-and-knights", FamilyOptions(4))], ids=["peaceable", "cube", "mixed"])
def test_the_heat_map_counts_every_army_on_any_board(puzzle: Puzzle) -> None:
    heat = heat_map(puzzle)
    found = list(solutions(puzzle, "sat"))
    assert heat.total == len(found) == count(puzzle).count
    assert heat.counts == _cells_of(puzzle, found)
    assert len(heat.text().splitlines()) == (puzzle.shape[1] if puzzle.dimensions == 3 else puzzle.rows)


def test_the_trace_replays_one_army_on_any_board() -> None:
    for puzzle in (CUBE, Puzzle(shape=(5, 5), armies=(Army("queens", least=5, most=5),), wrap=(False, True))):
        found = {event.placement for event in trace(puzzle) if event.step == "solution"}
        assert found == {placement[0] for placement in map(puzzle.per_army, solutions(puzzle, "sat"))}
        assert found


def test_the_trace_and_the_heat_map_say_why_not_before_any_work() -> None:
    with pytest.raises(QueensError, match="one army; Peaceable queens has 2"):
        list(trace(build("peaceable", FamilyOptions(4))))
    with pytest.raises(QueensError, match="copies is open"):
        heat_map(build("colouring", FamilyOptions(4)))
    result = run_main("show", "colouring", "-n", "4", "--heat-map", "heat.txt")
    assert result.returncode == 2 and result.stderr.startswith("error: --heat-map:"), result.stderr
    result = run_main("trace", "peaceable", "-n", "4", "--no-animate")
    assert result.returncode == 1 and "one army" in result.stderr and "Traceback" not in result.stderr


def test_the_trace_draws_a_cube_in_the_terminal() -> None:
    result = run_main("trace", "cube-squared", "-n", "3", "--no-animate")  # 9 queens do not fit 3 x 3 x 3
    assert result.returncode == 0 and "place (0, 0, 0)" in result.stdout, result.stderr
    assert result.stdout.strip().endswith("no solution")


@pytest.mark.parametrize("family", FAMILIES)
def test_pieces_are_placed_by_hand_on_every_puzzle_with_one_army(family: str) -> None:
    request: dict[str, object] = {"family": family, "n": 3, "queens": [[0, 0]]}
    try:
        reply = web("board", request)
    except BadRequest as refused:
        assert re.search(r"one army|copies", str(refused)), refused
        return
    assert reply["placeable"] and reply["queens"] == [[0, 0]]


def test_a_queen_placed_by_hand_on_a_cube_is_kept_and_attacks() -> None:
    cube = {"family": "cube-squared", "n": 3, "queens": [[1, 5]]}  # layer 1, the middle of the cube
    board = web("board", cube)
    assert board["queens"] == [[1, 5]] and [1, 1] in board["attacked"] and [1, 5] not in board["attacked"]
    assert [1, 3] not in board["attacked"]  # the gap between two layers
    with pytest.raises(BadRequest, match="between the cube's layers"):
        web("board", {**cube, "queens": [[1, 3]]})
    answer = web("complete", cube)
    assert answer["status"] in ("solved", "no solution") and ([1, 5] in answer["solution"] or not answer["solution"])
    events = web("trace", {**cube, "queens": []})["events"]
    assert events and all(len(event["cell"]) == 2 for event in events if event["cell"])


def test_no_more_than_three_sites_outside_models_ask_for_the_plain_form() -> None:
    """Each site asks the structural question it means (the model's variables are cells, one army,
    a goal), answered by queens.models; the `plain` form, the fast paths' own, stays inside."""
    sites = [f"{path.relative_to(REPO)}:{number}" for folder in ("solvers", "queens", "experiments", "tests")
             for path in sorted((REPO / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\.plain\b(?!_)", line) and "re.search" not in line]
    assert len(sites) <= 3, sites
