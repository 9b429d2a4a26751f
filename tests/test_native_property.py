"""Hypothesis drives the C cores with random boards against their plain-Python twins.

The simple search (simplecore.c, through the native backend) on n <= 10 boards with random blocked
cells and pre-placed queens, and on other pieces with domination covers; the classes counter
(classcount.c) on random sets of its subproblems, both kernels, n <= 10.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from queens.models import PIECES, Puzzle, QueensError, lower
from queens.models.lowering import no_room
from queens.solvers import get_backend
from queens.solvers.native import _classes
from queens.solvers.native.counting import split_depth, subproblems

from tests import plain_reference
from tests.plain_reference import KERNELS, Cell


@st.composite
def queen_boards(draw: st.DrawFn, largest: int = 10) -> tuple[int, frozenset[Cell], frozenset[Cell]]:
    """n <= `largest`, some blocked cells, and pre-placed queens that do not attack each other."""
    n = draw(st.integers(1, largest))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = draw(st.frozensets(cells, max_size=n * n // 3))
    fixed: set[Cell] = set()
    for cell in draw(st.lists(cells, max_size=3)):
        if cell not in blocked and not any(plain_reference.attack(cell, q) or cell == q for q in fixed):
            fixed.add(cell)
    return n, blocked, frozenset(fixed)


def simple_count(puzzle: Puzzle) -> int:
    found = get_backend("native", counter="simple").count(lower(puzzle), None)
    assert found is not None  # the native counter counts without enumerating
    return found


def _counts_alike(board: tuple[int, frozenset[Cell], frozenset[Cell]]) -> None:
    n, blocked, fixed = board
    puzzle = Puzzle(rows=n, cols=n, pieces=n, holes=blocked, fixed=fixed)
    expected = plain_reference.count_queens(n, blocked, fixed)
    if n <= 7:  # the twin walks sets of cells: slow beyond that
        assert plain_reference.count_model(lower(puzzle)) == expected
    assert simple_count(puzzle) == expected


@settings(max_examples=50, deadline=None)
@given(queen_boards(largest=9))
def test_simple_kernel_counts_like_the_plain_python_searches(board: tuple[int, frozenset[Cell], frozenset[Cell]]) \
        -> None:
    """n <= 9 here: the twin's search of an open 10 x 10 board takes most of a second, and the
    few such boards among the 50 drawn made this test's time vary from run to run, the suite's
    slowest in one (suite-time.md); n = 10 is drawn in the test below (`make test-slow`)."""
    _counts_alike(board)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(queen_boards())
def test_simple_kernel_counts_like_the_plain_python_searches_on_many_more_boards(
        board: tuple[int, frozenset[Cell], frozenset[Cell]]) -> None:
    """The same on 300 boards up to n = 10 (`make test` runs 50 up to n = 9)."""
    _counts_alike(board)


@st.composite
def other_puzzles(draw: st.DrawFn) -> Puzzle | None:
    """Any piece, a small rectangular board, a fixed number of pieces, maybe domination."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    try:
        return Puzzle(rows=rows, cols=cols, piece=PIECES[draw(st.sampled_from(sorted(PIECES)))],
                      pieces=draw(st.integers(0, min(5, rows * cols))), cover=draw(st.booleans()),
                      within=draw(st.booleans()), holes=draw(st.frozensets(cells, max_size=3)),
                      blockers=draw(st.frozensets(cells, max_size=2)))
    except QueensError:  # e.g. a pawn and a blocked cell on the same square
        return None


@settings(max_examples=150, deadline=None)
@given(other_puzzles())
def test_simple_kernel_follows_its_twin_on_any_model(puzzle: Puzzle | None) -> None:
    assume(puzzle is not None)
    assert puzzle is not None  # (assume's narrowing, for the type checker)
    assume(no_room(puzzle) is None)  # more pieces than room: 0 by counting, no model (tests/test_boundaries.py)
    model = lower(puzzle)
    assert simple_count(puzzle) == plain_reference.count_model(model)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_classes_counter_subproblems_match_the_twin(data: st.DataObject) -> None:
    n = data.draw(st.integers(4, 10), label="n")
    keys = subproblems(n)
    chosen = data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=len(keys), unique=True), label="keys")
    kernel = data.draw(st.sampled_from(KERNELS), label="kernel")
    expected = plain_reference.classes_by_prefix(n, split_depth(n))
    got = [counted[:3] for counted in _classes.count(n, chosen, kernel=kernel) if counted is not None]  # None: stopped
    assert got == [expected.get(key, (0, 0, 0)) for key in chosen]


def test_a_search_whose_init_failed_refuses_to_run():
    """A failed __init__ used to leave half the buffers set: count() then crashed the process."""
    from queens.solvers.native._simple import Search

    search = Search.__new__(Search)
    with pytest.raises(ValueError, match="outside the board"):
        search.__init__(4, b"\xff" * 8, b"\0" * 32, b"", b"\0" * 8, b"", 0)
    with pytest.raises(RuntimeError, match="not initialised"):
        search.count()
    with pytest.raises(RuntimeError, match="already initialised|not initialised"):
        search.next_batch(1)
