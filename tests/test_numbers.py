"""Numbers at the edges of their types: one parser per kind, one error naming field and value.

Values are drawn from each type's edges (NaN, infinities, 2^63, 2^64 - 1, floats that are
whole, bools, strings); whatever is drawn, a parser returns a value of its kind within its
range, or raises InvalidNumber (OffBoard for a cell off a given board), never anything else.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from queens.models import numbers
from queens.models.completion import Completion
from queens.models.errors import InvalidNumber, OffBoard
from queens.models.families import FamilyOptions, build
from queens.models.pieces_families import Knights, RectangularQueens

from tests.cli import error_line, run_main

EDGES = [math.nan, math.inf, -math.inf, 1e400, 2.5, 3.0, -0.0, 2**63, 2**64 - 1, -(2**63) - 1, True, False,
         "nan", "inf", "1e3", "2.5", "0x10", "", " ", "9" * 5000, None, [1], (1, 2), np.uint64(2**64 - 1),
         np.float64(3.0), np.int8(-1)]
ANY = st.one_of(st.sampled_from(EDGES), st.integers(), st.floats(allow_nan=True), st.text(max_size=12))


@given(ANY)
def test_count_is_a_whole_number_in_range_or_refused(value):
    try:
        result = numbers.count(value, "pieces", minimum=0, maximum=1000)
    except InvalidNumber as error:
        assert str(error).startswith("pieces ")
    else:
        assert type(result) is int and 0 <= result <= 1000


@given(ANY)
def test_size_is_a_side_or_refused(value):
    try:
        result = numbers.size(value, "n")
    except InvalidNumber as error:
        assert str(error).startswith("n ")
    else:
        assert type(result) is int and 1 <= result <= numbers.MAX_SIDE


@given(ANY)
def test_seconds_are_finite_or_refused(value):
    try:
        result = numbers.seconds(value, "--time-limit", minimum=0.1, maximum=600)
    except InvalidNumber as error:
        assert str(error).startswith("--time-limit ")
    else:
        assert type(result) is float and 0.1 <= result <= 600


@given(st.one_of(ANY, st.tuples(ANY, ANY)))
def test_cells_are_pairs_on_the_board_or_refused(value):
    try:
        row, col = numbers.cell(value, "pawn", 8, 8)
    except (InvalidNumber, OffBoard) as error:
        assert str(error).startswith("pawn ")
    else:
        assert type(row) is int and type(col) is int and 0 <= row < 8 and 0 <= col < 8


@pytest.mark.parametrize("make", [  # the wrong kinds of number on purpose (type: ignore)
    lambda: Knights(8, 2.5), lambda: Knights(math.nan), lambda: RectangularQueens(8, 2**64 - 1),  # type: ignore[arg-type]
    lambda: Completion(8, [(0.0, 1.0)]), lambda: Completion(8, [(0, True)]),  # type: ignore[list-item]
    lambda: Completion(math.inf, []),  # type: ignore[arg-type]
    lambda: build("knights", FamilyOptions(8, pieces=2.5)),  # type: ignore[arg-type]
    lambda: FamilyOptions(8, pawn=(("a", 1),)),  # type: ignore[arg-type]
    lambda: FamilyOptions(""),  # type: ignore[arg-type]
])
def test_constructors_refuse_numbers_of_the_wrong_kind(make):
    with pytest.raises(InvalidNumber):
        make()


@pytest.mark.parametrize("args", [
    ("trace", "nqueens", "-n", "4", "--delay", "nan", "--no-animate"),
    ("trace", "nqueens", "-n", "4", "--delay", "1e400", "--no-animate"),
    ("trace", "nqueens", "-n", "4", "--solutions", "18446744073709551615", "--no-animate"),
    ("export", "nqueens", "-n", "4", "--format", "dimacs", "--size", "18446744073709551615"),
    ("generate", "completion", "-n", "18446744073709551615", "-k", "1"),
    ("generate", "completion", "-n", "8", "-k", "2.5"),
    ("count", "nqueens", "-n", "8", "--threads", "18446744073709551615"),
    ("serve", "--time-limit", "nan"),
    ("serve", "--port", "65536"),
    ("count", "knights", "-n", "8", "--pieces", "9223372036854775808"),
])
def test_cli_refuses_edge_numbers_with_one_line_and_exit_2(args):
    result = run_main(*args)
    assert result.returncode == 2, result.stderr
    assert "must be" in error_line(result)
