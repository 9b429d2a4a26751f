"""The classes counter (classcore.c, bound by classcount.c): exact counts, symmetry classes, hardening.

Ground truth: OEIS A000170 (all solutions) and A002562 (fundamental ones) from
tests/data/sequences.json, the simple search (simple.c) and the plain-Python twin of the scheme.
Each SIMD kernel forced one by one: tests/test_kernels.py.
"""

from __future__ import annotations

import time

import pytest
from queens.models import NQueens, Puzzle, TimeLimit, Unsupported, lower
from queens.models.pieces import ROOK, SUPERQUEEN
from queens.solvers import count, get_backend
from queens.solvers.native import _classes
from queens.solvers.native.counting import (
    SymmetryClasses,
    count_classes,
    split_depth,
    subproblem_key,
    subproblems,
)
from queens.solvers.native.structure import plain_queens_size

from tests import plain_reference
from tests.plain_reference import KERNELS
from tests.typed_results import number, text


@pytest.mark.parametrize("n", range(1, 15))
def test_total_and_fundamental_match_oeis(n: int, reference) -> None:
    classes = count_classes(n)
    assert classes.total == reference.term("A000170", n)
    assert classes.fundamental == reference.term("A002562", n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16])
def test_larger_totals_match_oeis(n: int, reference) -> None:
    classes = count_classes(n)
    assert classes.total == reference.term("A000170", n)
    assert classes.fundamental == reference.term("A002562", n)


@pytest.mark.parametrize("n", range(4, 11))
def test_classes_agree_with_burnside_on_the_solutions_themselves(n: int) -> None:
    """A quarter-turn class holds 2 boards fixed by the quarter turn, a half-turn class 4 fixed
    by the half turn; counted on the plain list of solutions, so the classes mean what they say."""
    classes = count_classes(n)
    boards = plain_reference.solutions(n)
    assert 2 * classes.quarter_turn == sum(plain_reference.fixed_by(b, 1) for b in boards)
    assert 2 * classes.quarter_turn + 4 * classes.half_turn == sum(plain_reference.fixed_by(b, 2) for b in boards)
    assert 8 * classes.fundamental == classes.total + 3 * 2 * classes.quarter_turn + 4 * classes.half_turn


def test_the_lone_queen_is_its_own_class() -> None:
    assert count_classes(1) == SymmetryClasses(0, 0, 0, whole_board=1)
    assert count_classes(2) == count_classes(3) == SymmetryClasses(0, 0, 0)


@pytest.mark.parametrize("n", range(1, 12))
def test_classes_counter_equals_the_simple_search(n: int) -> None:
    simple = count(NQueens(n), "native", counter="simple")
    by_classes = count(NQueens(n), "native")
    assert by_classes.count == simple.count
    assert simple.stats.get("counter") is None
    if n >= 4:
        assert text(by_classes.stats, "counter").startswith("classes")


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("n", [8, 9, 10])
def test_every_subproblem_matches_the_python_twin(n: int, kernel: str) -> None:
    keys = subproblems(n)
    expected = plain_reference.classes_by_prefix(n, split_depth(n))
    got = [counted[:3] for counted in _classes.count(n, keys, kernel=kernel) if counted is not None]  # None: stopped
    assert {key: c for key, c in zip(keys, got, strict=True) if c != (0, 0, 0)} == expected


@pytest.mark.skipif(not _classes.VECTOR, reason="this CPU has no AVX-512: only the scalar kernel runs here")
def test_vector_and_scalar_kernels_agree_per_subproblem() -> None:
    """Classes and nodes: both kernels walk the same tree, one queen at a time or 16 at once."""
    keys = subproblems(13)
    assert _classes.count(13, keys, kernel="vector") == _classes.count(13, keys, kernel="scalar")


def test_the_classes_counter_reports_its_work(reference) -> None:
    stats = count(NQueens(12), "native").stats
    assert number(stats, "nodes") > 0 and stats["subproblems"] == len(subproblems(12))
    assert stats["fundamental"] == reference.term("A002562", 12)


def test_the_result_does_not_depend_on_threads() -> None:
    assert count_classes(12, threads=1) == count_classes(12, threads=3) == count_classes(12, kernel="scalar")


def test_subproblems_are_fixed_and_named_by_their_columns() -> None:
    keys = subproblems(10)
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert keys == subproblems(10)
    assert subproblem_key(keys[0]) == "-".join(map(str, keys[0]))
    assert subproblems(3) == []


def test_a_stopped_count_reports_nothing_unfinished() -> None:
    keys = subproblems(12)
    assert _classes.count(12, keys, stop=bytearray(b"\x01")) == [None] * len(keys)


def test_a_deadline_gives_a_time_limit_with_a_lower_bound(reference) -> None:
    with pytest.raises(TimeLimit) as stopped:
        count_classes(16, deadline=time.monotonic())
    assert stopped.value.partial is not None and stopped.value.partial < reference.term("A000170", 16)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: _classes.count(3, []), ValueError),
    (lambda: _classes.count(31, []), ValueError),
    (lambda: _classes.count(8, [(0, 2)], kernel="gpu"), ValueError),
    (lambda: _classes.count(8, [(0, 2, 4), (0, 2)]), ValueError),       # unequal lengths
    (lambda: _classes.count(8, [(0, 1, 3)]), ValueError),               # queens attack
    (lambda: _classes.count(8, [(6, 0, 2)]), ValueError),               # not a canonical branch
    (lambda: _classes.count(8, [(1, 0, 2)]), ValueError),               # side column before row b1
    (lambda: _classes.count(8, [(0, 2, 9)]), ValueError),               # off the board
    (lambda: _classes.count(8, [(0, 2, -1)]), ValueError),
    (lambda: _classes.count(8, [(0,)]), ValueError),                    # too short
    (lambda: _classes.count(8, [tuple(range(8))]), ValueError),         # too long
    (lambda: _classes.count(8, [(0, 2, 2**70)]), OverflowError),
    (lambda: _classes.count(8, [(0, "2")]), TypeError),  # type: ignore[list-item]  # the wrong types on purpose
    (lambda: _classes.count(8, 5), TypeError),  # type: ignore[arg-type]
    (lambda: _classes.count(8, [(0, 2)], stop=bytearray()), ValueError),
    (lambda: _classes.count(8, [(0, 2)], stop=3), TypeError),
    (lambda: _classes.subproblems(8, 1), ValueError),
    (lambda: _classes.subproblems(8, 7), ValueError),
    (lambda: _classes.subproblems(40, 3), ValueError),
    (lambda: _classes.subproblems(30, 28), ValueError),                # too deep to list
])
def test_the_extension_rejects_bad_arguments(call, error) -> None:
    with pytest.raises(error):
        call()


def test_vector_kernel_request_is_refused_without_avx512() -> None:
    if _classes.VECTOR:
        assert _classes.count(8, [(0, 2)], kernel="vector") == _classes.count(8, [(0, 2)], kernel="scalar")
    else:
        with pytest.raises(ValueError, match="AVX-512"):
            _classes.count(8, [(0, 2)], kernel="vector")


@pytest.mark.parametrize("n", range(1, 10))
def test_the_plain_board_is_recognised(n: int) -> None:
    assert plain_queens_size(lower(NQueens(n))) == n


@pytest.mark.parametrize("puzzle", [
    Puzzle(rows=7, cols=7, pieces=7, wrap=True),
    Puzzle(rows=8, cols=8, pieces=8, holes=frozenset({(3, 3)})),
    Puzzle(rows=8, cols=8, pieces=8, fixed=frozenset({(0, 1)})),
    Puzzle(rows=8, cols=8, pieces=8, blockers=frozenset({(3, 3)})),
    Puzzle(rows=6, cols=8, pieces=6),
    Puzzle(rows=8, cols=8, pieces=7),
    Puzzle(rows=8, cols=8, piece=ROOK, pieces=8),
    Puzzle(rows=10, cols=10, piece=SUPERQUEEN, pieces=10),
    Puzzle(rows=5, cols=5, cover=True),
], ids=lambda p: p.name)
def test_everything_else_keeps_the_simple_search(puzzle: Puzzle) -> None:
    assert plain_queens_size(lower(puzzle)) is None
    assert count(puzzle, "native").stats.get("counter") is None
    with pytest.raises(Unsupported):
        count(puzzle, "native", counter="classes")


@pytest.mark.parametrize("options", [{"counter": "turbo"}, {"threads": 0}, {"threads": True}])
def test_native_options_are_checked(options: dict[str, object]) -> None:
    with pytest.raises(Unsupported):
        get_backend("native", **options)


@pytest.mark.parametrize("n", [0, 31, 2.5, True])
def test_count_classes_rejects_sizes_it_cannot_count(n: object) -> None:
    with pytest.raises(Unsupported):
        count_classes(n)  # type: ignore[arg-type]  # the wrong types on purpose
