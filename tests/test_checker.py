"""The independent checker rejects every kind of wrong placement and names the rule."""

from __future__ import annotations

import pytest
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
