"""Fuzzing the placement-file reader and the streaming verifier: whatever bytes a file holds,
the answer is a count of verified queens or one QueensError, never another exception."""

from __future__ import annotations

import io
from itertools import combinations
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from queens.models import QueensError
from queens.models.placement_file import read_placement
from queens.models.verify_stream import verify_file

_LINES = st.lists(st.one_of(
    st.lists(st.integers(-3, 12), min_size=0, max_size=4).map(lambda xs: " ".join(map(str, xs))),
    st.sampled_from(["# n = 8", "n = 8", "", "  ", "0,0", "1 2 3", "x y", "\t5\t3", "9" * 30]),
    st.text(max_size=12)), max_size=12)


def _attacks(cells: list[tuple[int, int]]) -> bool:
    """Two queens share a row, a column or a diagonal: the rule written out for the oracle."""
    return any(a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]) for a, b in combinations(cells, 2))


@settings(max_examples=300, deadline=None)
@given(_LINES)
def test_any_text_file_is_verified_or_refused(tmp_path_factory, lines: list[str]) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "placement.txt"
    path.write_text("\n".join(lines), encoding="utf-8", errors="replace")
    try:
        placement = read_placement(path)
        n, queens = verify_file(path)
    except QueensError as error:
        assert str(error)
        return
    cells = [(int(r), int(c)) for r, c in placement.cells()]
    assert queens == len(cells) and all(0 <= r < n and 0 <= c < n for r, c in cells)
    assert not _attacks(cells)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_verified_or_refused(tmp_path_factory, data: bytes) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "placement.bin"
    path.write_bytes(data)
    try:
        n, queens = verify_file(path)
    except QueensError as error:
        assert str(error)
    else:
        assert 0 <= queens <= n


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-2, 9), max_size=9), st.sampled_from([np.int64, np.int32, np.uint8, np.float64]))
def test_any_npy_array_is_verified_or_refused(tmp_path_factory, columns: list[int], dtype: type) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "placement.npy"
    buffer = io.BytesIO()
    np.save(buffer, np.array(columns).astype(dtype))  # uint8 wraps -1 to 255: off the board
    path.write_bytes(buffer.getvalue())
    try:
        n, queens = verify_file(path)
    except QueensError as error:
        assert str(error)
    else:
        stored = np.array(columns).astype(dtype).tolist()
        cells = [(row, int(column)) for row, column in enumerate(stored) if column != -1]  # -1: an empty row
        assert n == len(columns) and queens == len(cells) and not _attacks(cells)
        assert all(0 <= column < n for _, column in cells)
