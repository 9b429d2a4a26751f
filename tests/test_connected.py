"""Connected armies ([[rules.connected]], queens.models.connected) against a brute force written here.

The brute force shares no code with models/: it tries every set of cells of a small board and
tests connectivity by its own flood fill, with neighbours found from coordinates (king or rook
steps) or from a queen's lines (same row, column or diagonal). cpsat and sat (reachability
layers, in CP-SAT and in the CNF) and csp (a flood fill on partial assignments) must reach the
brute force's counts, so each placement is listed once, and its optimum; the shipped
connected-domination file must reach OEIS A370428; every other backend refuses with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, product

import pytest
from queens.models.armies import Army
from queens.models.check import verify
from queens.models.connected import Connected
from queens.models.errors import InvalidBoard, InvalidPlacement, MalformedInput, Refused
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.models.symmetry import puzzle_group
from queens.solvers.registry import BACKENDS

import queens
from tests.conftest import Reference

Cell = tuple[int, int]
DOMINATION = PUBLISHED / "A370428-connected-king-domination.toml"
STATING = ("cpsat", "sat", "csp")
"""The backends that state connected groups (reachability layers; csp by a flood fill)."""


def _king(a: Cell, b: Cell) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _rook_step(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _queen(a: Cell, b: Cell) -> bool:
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def _connected(cells: tuple[Cell, ...], near: Callable[[Cell, Cell], bool]) -> bool:
    if len(cells) < 2:
        return True
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        here = todo.pop()
        for other in cells:
            if other not in seen and near(here, other):
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def _brute_connected_domination(n: int) -> int:
    cells = list(product(range(n), range(n)))
    for k in range(1, len(cells) + 1):
        for chosen in combinations(cells, k):
            if all(any(c == s or _king(c, s) for c in chosen) for s in cells) and _connected(chosen, _king):
                return k
    raise AssertionError("the whole board dominates")


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_connected_king_domination_reaches_the_brute_force_and_oeis(n: int, reference: Reference) -> None:
    expected = _brute_connected_domination(n)
    assert expected == reference.term("A370428", n)
    for backend in STATING:
        assert queens.optimise(read(DOMINATION, n).puzzle, backend).objective == expected, backend


def test_connected_king_domination_n_5_is_the_published_term(reference: Reference) -> None:
    assert queens.optimise(read(DOMINATION, 5).puzzle).objective == reference.term("A370428", 5)


@pytest.mark.parametrize("n", (6, 7))
def test_sat_reaches_the_published_terms_beyond_the_brute_force(n: int, reference: Reference) -> None:
    assert queens.optimise(read(DOMINATION, n).puzzle, "sat").objective == reference.term("A370428", n)


@pytest.mark.parametrize(("shape", "k", "by", "near"), [
    ((3, 3), 4, "king", _king),
    ((3, 4), 4, "rook", _rook_step),  # the fixed tetrominoes that fit a 3 x 4 board
    ((4, 4), 3, "moves", _queen),     # three queens that may attack, each group joined by attacks
])
def test_each_connected_placement_is_counted_once(shape: Cell, k: int, by: str,
                                                   near: Callable[[Cell, Cell], bool]) -> None:
    piece = "queen" if by == "moves" else "king"
    puzzle = Puzzle(shape=shape, armies=(Army(piece=piece, least=k, most=k),), within=False,
                    connected=(Connected(by=by),))
    cells = list(product(range(shape[0]), range(shape[1])))
    expected = sum(1 for chosen in combinations(cells, k) if _connected(chosen, near))
    for backend in STATING:
        assert queens.count(puzzle, backend).count == expected, backend


def test_every_other_backend_refuses_with_its_reason() -> None:
    puzzle = read(DOMINATION, 4).puzzle
    answered = []
    for backend in BACKENDS:
        try:
            queens.optimise(puzzle, backend, time_limit=60)
        except Refused as refused:
            assert "connected" in str(refused), backend
            continue
        answered.append(backend)
    assert sorted(answered) == sorted(STATING)


def test_the_checker_finds_an_army_cut_in_two() -> None:
    puzzle = Puzzle(shape=(4, 4), armies=(Army(piece="king", least=2, most=2),), within=False,
                    connected=(Connected(),))
    assert verify(puzzle, [(0, (0, 0)), (0, (1, 1))])
    with pytest.raises(InvalidPlacement, match="not one group"):
        verify(puzzle, [(0, (0, 0)), (0, (2, 2))])


def test_king_steps_keep_the_square_and_a_second_army_connected_alone_swaps_no_more() -> None:
    one = Puzzle(shape=(4, 4), armies=(Army(piece="king", least=3, most=3),), within=False, connected=(Connected(),))
    assert len(puzzle_group(one)) == 8
    kings = [Army(name, piece="king", least=2, most=2) for name in "ab"]
    two = Puzzle(shape=(4, 4), armies=kings, within=False, connected=(Connected(army=0),))
    assert len(puzzle_group(two)) == 8  # without the rule the armies would also swap: 16


@pytest.mark.parametrize(("text", "message"), [
    ("by = \"bishop\"", "rules.connected\\[0\\].by"),
    ("army = \"nobody\"", "no army is named"),
    ("colour = 1", "unknown key"),
])
def test_a_mistake_in_rules_connected_is_one_error_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(MalformedInput, match=message):
        loads(f"[board]\nshape = [4, 4]\n[[army]]\npiece = \"king\"\ncount = 4\n[[rules.connected]]\n{text}")


def test_a_connected_rule_names_an_army_that_exists() -> None:
    with pytest.raises(InvalidBoard, match="connected army"):
        Puzzle(shape=(3, 3), armies=(Army(piece="king", least=1, most=1),), connected=(Connected(army=2),))
