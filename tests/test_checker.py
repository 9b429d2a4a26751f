"""The independent checker rejects every kind of wrong placement and names the rule."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st
from queens.models import (
    KNIGHT,
    SUPERQUEEN,
    AttackingQueens,
    Completion,
    InvalidBoard,
    InvalidPlacement,
    NQueens,
    OffBoard,
    Puzzle,
    verify,
)

from tests import puzzle_oracle
from tests.test_puzzle_oracle import _board as board
from tests.test_puzzle_oracle import _plain as plain_puzzle
from tests.test_puzzle_oracle import random_puzzle

GOOD = ((0, 1), (1, 3), (2, 0), (3, 2))


def test_accepts_a_solution():
    assert verify(NQueens(4), reversed(GOOD)) == GOOD


@pytest.mark.parametrize("placement,message", [
    (((0, 1), (0, 3), (2, 0), (3, 2)), "share a row"),
    (((0, 1), (1, 1), (2, 0), (3, 2)), "share a column"),
    (((0, 0), (1, 1), (2, 3), (3, 2)), "diagonal"),
    (((0, 2), (1, 1), (2, 3), (3, 0)), "anti-diagonal"),
    (((0, 1), (1, 3), (2, 0), (4, 2)), "off the 4x4 board"),
    (((0, 1), (1, 3), (2, 0)), "3 pieces placed, 4 required"),
    (((0, 1), (0, 1), (2, 0), (3, 2)), "same cell"),
])
def test_rejects_each_kind_of_wrong_placement(placement, message):
    with pytest.raises(InvalidPlacement, match=message):
        verify(NQueens(4), placement)


def test_rejects_knight_attacks_for_superqueens():
    puzzle = Puzzle(rows=10, cols=10, piece=SUPERQUEEN, pieces=2)
    with pytest.raises(InvalidPlacement, match="leap"):
        verify(puzzle, [(0, 0), (1, 2)])


def test_pawns_block_and_pieces_may_not_stand_on_them():
    puzzle = Puzzle(rows=3, cols=3, pieces=2, blockers=frozenset({(0, 1)}))
    assert verify(puzzle, [(0, 0), (0, 2)]) == ((0, 0), (0, 2))
    with pytest.raises(InvalidPlacement, match="pawn"):
        verify(puzzle, [(0, 1), (2, 0)])


def test_removed_fixed_piece_is_caught():
    with pytest.raises(InvalidPlacement, match="removed"):
        verify(Completion(4, [(0, 2)]), GOOD)


def test_domination_requires_every_square_covered():
    puzzle = Puzzle(rows=4, cols=4, pieces=None, within=False, cover=True)
    assert verify(puzzle, [(0, 0), (2, 2)])
    with pytest.raises(InvalidPlacement, match="neither occupied nor attacked"):
        verify(puzzle, [(0, 0)])


def test_knights_do_not_attack_along_lines():
    assert verify(Puzzle(rows=3, cols=3, piece=KNIGHT, pieces=2), [(0, 0), (0, 1)])


@pytest.mark.parametrize("build,error", [
    (lambda: NQueens(0), InvalidBoard),
    (lambda: NQueens(-3), InvalidBoard),
    (lambda: Completion(4, [(0, 0), (1, 1)]), AttackingQueens),
    (lambda: Completion(4, [(0, 5)]), OffBoard),
    (lambda: Puzzle(rows=4, cols=5, wrap=True, pieces=4), InvalidBoard),
])
def test_bad_puzzles_are_refused_with_a_reason(build, error):
    with pytest.raises(error):
        build()


def test_attacking_pair_is_named():
    with pytest.raises(AttackingQueens, match=r"\(0, 0\) and \(2, 2\)"):
        Completion(5, [(0, 0), (2, 2)])


# -- the one checker against a brute force: every placement of small random puzzles ---------

LIMIT = 800
"""Placements tried per puzzle: every one when there are at most this many, else a sample."""


def _placements(puzzle: Puzzle, rng: random.Random) -> list[frozenset[tuple[int, tuple[int, ...]]]]:
    """Each open cell empty or holding one army's piece: every such placement, or LIMIT drawn."""
    closed = puzzle.holes | puzzle.blockers | puzzle.missing
    cells = [cell for cell in puzzle.board_cells if cell not in closed]
    choices = len(puzzle.armies) + 1
    owners = (product(range(choices), repeat=len(cells)) if choices ** len(cells) <= LIMIT
              else ([rng.randrange(choices) for _ in cells] for _ in range(LIMIT)))
    return [frozenset((a - 1, cell) for a, cell in zip(chosen, cells, strict=True) if a) for chosen in owners]


def _accepted(puzzle: Puzzle, placement: frozenset[tuple[int, tuple[int, ...]]]) -> bool:
    armies: list[list[tuple[int, ...]]] = [[] for _ in puzzle.armies]
    for a, cell in placement:
        armies[a].append(cell)
    try:
        verify(puzzle, puzzle.placement_of(armies))  # the model's variables: cells, or (army, cell)
    except InvalidPlacement:
        return False
    return True


def _agrees(puzzle: Puzzle, seed: int) -> None:
    answers = puzzle_oracle.solutions(puzzle)
    tried = _placements(puzzle, random.Random(seed))
    for placement in sorted(answers, key=sorted)[:LIMIT] + tried:
        assert _accepted(puzzle, placement) == (placement in answers), (puzzle, sorted(placement))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), twisted=st.booleans())
def test_the_checker_accepts_exactly_what_a_brute_force_accepts(seed, twisted):
    """Random puzzles of every kind (armies, goals, bounds, covers, blocking, twisted boards):
    the checker accepts a placement exactly when tests/puzzle_oracle.py's brute force lists it."""
    try:
        puzzle = random_puzzle(seed, twisted)
    except InvalidBoard:
        reject()
    _agrees(puzzle, seed)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_the_checker_accepts_exactly_what_a_brute_force_accepts_on_one_army(seed):
    """One army of one piece on a plane or torus (the cells are the variables, the fast path)."""
    rng = random.Random(seed)
    try:
        puzzle = plain_puzzle(rng, board(rng, False, 1))
    except InvalidBoard:
        reject()
    assume(puzzle.plain)
    _agrees(puzzle, seed)
