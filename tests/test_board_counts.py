"""Board-wide counts (docs/rules/board-counts.md): attacking pairs, attacked and safe squares,
bounded or as the goal, checked against brute forces written here (they share no code with
models/: moves are walked by hand) and against the OEIS terms of the shipped files."""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from itertools import combinations

import pytest
from queens.models.armies import Army
from queens.models.board_counts import BoardCount
from queens.models.check import verify
from queens.models.errors import InvalidPlacement, MalformedInput
from queens.models.lowering import lower
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.models.symmetry import model_group
from queens.solvers.registry import get_backend

import queens
from tests.conftest import Reference

Square = tuple[int, int]

KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
QUEEN = KING


def _rays(n: int, slides: bool, pawns: frozenset[Square] = frozenset()) -> list[list[list[int]]]:
    """For each square r * n + c, the squares a king (slides False: one step) or a queen there
    walks over in each of the 8 directions, in order, up to the board's edge or a pawn."""
    rays = []
    for r in range(n):
        for c in range(n):
            walks = []
            for dr, dc in KING:
                walk, (rr, cc) = [], (r + dr, c + dc)
                while 0 <= rr < n and 0 <= cc < n and (rr, cc) not in pawns:
                    walk.append(rr * n + cc)
                    if not slides:
                        break
                    rr, cc = rr + dr, cc + dc
                walks.append(walk)
            rays.append(walks)
    return rays


def _counts(pieces: int, rays: list[list[list[int]]], squares: int, blocking: bool = False) -> tuple[int, int, int]:
    """(attacking pairs, attacked squares, safe squares) of a placement, by hand: `pieces` has
    bit r * n + c set for a piece on (r, c), `squares` for each square that is no pawn's; a
    blocking piece stops the walks through it."""
    placed = [i for i in range(pieces.bit_length()) if pieces >> i & 1]
    hits: dict[int, int] = {}
    for i in placed:
        hit = 0
        for walk in rays[i]:
            for j in walk:
                hit |= 1 << j
                if blocking and pieces >> j & 1:
                    break
        hits[i] = hit
    pairs = sum(1 for x, y in combinations(placed, 2) if hits[x] >> y & 1 or hits[y] >> x & 1)
    attacked = squares & functools.reduce(operator.or_, hits.values(), 0)
    return pairs, attacked.bit_count(), (squares & ~attacked & ~pieces).bit_count()


def _subsets(free: int) -> Iterator[int]:
    """Every subset of the bits of `free`, the empty one first."""
    subset = 0
    while True:
        yield subset
        subset = (subset - free) & free
        if subset == 0:
            return


def _kings(n: int, most: int) -> Puzzle:
    return Puzzle(shape=(n, n), armies=(Army(piece="king", count={"min": 0}),), within=False,
                  board_counts=(BoardCount("attacking pairs", most=most),))


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_kings_with_at_most_one_attacking_pair_match_a_brute_force_and_a143870(n: int, reference: Reference) -> None:
    rays = _rays(n, slides=False)
    brute = sum(1 for mask in range(1 << n * n) if _counts(mask, rays, (1 << n * n) - 1)[0] <= 1)
    assert brute == reference.term("A143870", n)
    spec = read(PUBLISHED / "A143870-kings-at-most-one-attacking-pair.toml", n)
    for backend in ("cpsat", "sat"):
        assert queens.count(spec.puzzle, backend).count == brute, backend


@pytest.mark.parametrize("k", (1, 2, 3))
def test_the_most_safe_squares_match_a_brute_force_and_a342151(k: int, reference: Reference) -> None:
    rays = _rays(8, slides=True)
    brute = max(_counts(sum(1 << i for i in placed), rays, (1 << 64) - 1)[2] for placed in combinations(range(64), k))
    assert brute == reference.term("A342151", k)
    result = queens.optimise(read(PUBLISHED / "A342151-most-safe-squares.toml", k).puzzle, "sat")
    assert (result.status.value, result.objective) == ("optimal", brute)


@pytest.mark.parametrize("of, blocking, pawns", [
    ("attacking pairs", True, ()), ("attacked squares", False, ((1, 2),)), ("safe squares", True, ((0, 0),)),
    ("attacked squares", True, ())])
def test_bounds_on_every_count_with_pieces_and_pawns_that_block_match_a_brute_force(of: str, blocking: bool,
                                                                                   pawns: tuple[Square, ...]) -> None:
    """Any number of queens (free to attack) on 4 x 4, a bound on one count: the count of
    placements agrees with one by hand, pieces blocking or not, pawns cutting the lines."""
    n, index = 4, ("attacking pairs", "attacked squares", "safe squares").index(of)
    blocked = frozenset(pawns)
    bound = {"attacking pairs": (0, 2), "attacked squares": (0, 5), "safe squares": (2, 3)}[of]
    rays = _rays(n, slides=True, pawns=blocked)
    free = sum(1 << (r * n + c) for r in range(n) for c in range(n) if (r, c) not in blocked)
    brute = sum(1 for mask in _subsets(free)
                if bound[0] <= _counts(mask, rays, free, blocking)[index] <= bound[1])
    puzzle = Puzzle(shape=(n, n), armies=(Army(count={"min": 0}),), within=False, blocking=blocking, blockers=pawns,
                    board_counts=(BoardCount(of, *bound),))  # type: ignore[arg-type]
    assert queens.count(puzzle, "cpsat").count == brute
    assert queens.count(puzzle, "sat").count == brute


def test_the_checker_counts_again_and_refuses_a_placement_over_the_bound() -> None:
    puzzle = _kings(3, 1)
    assert verify(puzzle, [(0, (0, 1)), (0, (0, 0))]) == ((0, (0, 0)), (0, (0, 1)))
    with pytest.raises(InvalidPlacement, match="3 attacking pairs"):
        verify(puzzle, [(0, (0, 0)), (0, (0, 1)), (0, (1, 0))])


def test_board_counts_keep_the_board_symmetries_and_blockers_break_them() -> None:
    full = Puzzle(shape=(5, 5), armies=(Army(count=2),), within=False,
                  board_counts=(BoardCount("safe squares", goal="maximise"),))
    pawned = Puzzle(shape=(5, 5), blockers=((0, 1),), armies=(Army(count=2),), within=False,
                    board_counts=(BoardCount("safe squares", most=3),))
    assert len(model_group(full, lower(full))) == 8
    assert len(model_group(pawned, lower(pawned))) == 1


@pytest.mark.parametrize("backend", ("mip", "native", "teaching", "minizinc"))
def test_backends_without_board_counts_refuse_with_the_reason(backend: str) -> None:
    try:
        engine = get_backend(backend)
    except queens.QueensError:
        pytest.skip(f"{backend} is not installed")
    refusal = engine.supports(lower(_kings(3, 1)))
    assert refusal and "board-wide count" in refusal


def test_a_file_names_the_count_it_bounds() -> None:
    text = '[board]\nshape = [3, 3]\n[[army]]\npiece = "king"\ncount = { min = 0 }\n[rules]\nwithin = "free"\n'
    assert loads(text + '[[rules.board_count]]\nof = "attacking pairs"\nexactly = 2\n').puzzle.board_counts == (
        BoardCount("attacking pairs", 2, 2),)
    with pytest.raises(MalformedInput, match="board_count"):
        loads(text + '[[rules.board_count]]\nof = "pairs"\nat_most = 1\n')
    goal = loads(text + '[goal]\nminimise = "attacked squares"\n')
    assert (goal.task, goal.puzzle.board_goal) == ("optimise", BoardCount("attacked squares", goal="minimise"))


def test_explain_shows_a_board_wide_count_and_its_goal() -> None:
    """`queens explain` names the count as one constraint (its terms counted: 20 king-adjacent
    pairs on 3 x 3 = 12 orthogonal + 8 diagonal) and a count taken as the goal as the objective."""
    from queens.explain import explain

    kings = explain(read(PUBLISHED / "A143870-kings-at-most-one-attacking-pair.toml", 3).puzzle).model
    assert [(g.name, g.formula, g.count, g.note) for g in kings.groups] == [
        ("attacking pairs", "#{attacking pairs} ≤ 1", 1, "a count of 20 terms")]
    safe = explain(read(PUBLISHED / "A342151-most-safe-squares.toml", 2).puzzle)
    assert [(g.name, g.formula) for g in safe.model.groups] == [
        ("size", "Σ x[a,p] = 2"), ("objective", "maximise #{safe squares}")]
    assert "objective  maximise #{safe squares}" in safe.text()
