"""The placement-file grammar of docs/placement-files.md, rule by rule.

Each row is a file's bytes and what the one reader must make of them: the queens it holds, or
the refusal naming the line. The reproductions of issue 21 are rows here: a first queen line
that ends in a comment, a byte-order mark, uint64 values off every board.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from queens.models.errors import InvalidPlacement, MalformedInput
from queens.models.placement_file import read_placement
from queens.models.verify_stream import verify_cells, verify_columns, verify_file

from tests.cli import error_line, run_main

READ = [
    (b"# n=8\n0 4   # my queen\n", None, [(0, 4)], 8),
    (b"# n=8\n0,4\n3 5\n", None, [(0, 4), (3, 5)], 8),
    (b"\xef\xbb\xbf# n=8\r\n0 4\r\n1 6\r\n", None, [(0, 4), (1, 6)], 8),  # BOM and CRLF: accepted
    (b"\xef\xbb\xbf1 3 0 2\r\n", None, [(0, 1), (1, 3), (2, 0), (3, 2)], 4),
    (b"# a remark\n1 3 -1 2  # a perm\n", None, [(0, 1), (1, 3), (3, 2)], 4),
    (b"0 4\n", 8, [(0, 4)], None),  # the caller's n = 8 rules out a 2-board permutation
    (b"0 1\n2 3\n", None, [(0, 1), (2, 3)], None),  # several lines: pairs
    (b"# n=8\n", None, [], 8),
]


@pytest.mark.parametrize("content, n, cells, said", READ)
def test_each_format_reads_one_way(tmp_path, content, n, cells, said):
    path = tmp_path / "p.txt"
    path.write_bytes(content)
    placement = read_placement(path, n)
    assert [tuple(cell) for cell in placement.cells().tolist()] == cells
    assert placement.n == said


REFUSED = [
    (b"0 4\n", None, r"p.txt:1: '0 4' reads two ways: one queen .* or the columns of a 2x2 board"),
    (b"# remark\n\n0 4 # q\n", 2, r"p.txt:3: '0 4' reads two ways"),
    (b"# n=8x\n0 1\n", None, r"p.txt:1: '# n=8x' is not a header"),
    (b"# n=0\n", None, r"p.txt:1: '# n=0' is not a header"),
    (b"# n=8\n# n=9\n0 1\n", None, r"p.txt:2: a second '# n=' header"),
    (b"# n=8\n0 1\n# n=9\n2 3\n", None, r"p.txt:3: '# n=9': the '# n=N' header comes once"),
    (b"# n=8\n1 3 5 7 2 0 6 4\n", None, r"p.txt:2: expected a row and a column, .*a permutation is one line"),
    (b"# n=8\r0 4\r", None, r"p.txt:1: a carriage return without a line feed"),
    (b"# n=8\n0 4\n1 6\r2 0\n", None, r"p.txt:3: a carriage return without a line feed"),
    (b"\xff\xfe#\x00 \x00n\x00", None, r"p.txt:1: not a text placement .*UTF-16"),
    (b"# n=8\n0 4\n\xe9 1\n", None, r"p.txt:3: not a text placement"),
]


@pytest.mark.parametrize("content, n, message", REFUSED)
def test_what_two_readings_could_explain_is_refused_with_its_line(tmp_path, content, n, message):
    path = tmp_path / "p.txt"
    path.write_bytes(content)
    with pytest.raises(MalformedInput, match=message):
        read_placement(path, n).cells()


@pytest.mark.parametrize("dtype", ["uint64", ">u8", "int64", ">i4", "uint32", "int8"])
def test_verify_refuses_values_off_the_board_whatever_the_dtype(tmp_path, dtype):
    big = np.iinfo(np.dtype(dtype)).max
    columns = np.array([1, 3, 0, big], dtype=dtype)
    path = tmp_path / "c.npy"
    np.save(path, columns)
    with pytest.raises(InvalidPlacement, match="off"):
        verify_file(path)
    with pytest.raises(InvalidPlacement, match="off"):
        verify_columns(columns)
    with pytest.raises(InvalidPlacement, match="off"):
        verify_cells(4, np.array([0, 1], dtype), np.array([1, big], dtype))


def test_cli_reads_a_commented_first_queen_as_one_queen(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# n=8\n0 4   # my queen\n")
    counted = run_main("count", "completion", "-n", "8", "--queens", str(path), "--json")
    assert counted.returncode == 0, counted.stderr
    assert json.loads(counted.stdout)["count"] == 18
    checked = run_main("verify", str(path))
    assert checked.returncode == 0 and "1 queen on 8x8" in checked.stdout


def test_cli_refuses_uint64_columns_off_the_board(tmp_path):
    path = tmp_path / "c.npy"
    np.save(path, np.array([1, 3, 0, 2**64 - 1], np.uint64))
    result = run_main("verify", str(path))
    assert result.returncode == 1
    assert error_line(result) == "error: value 18446744073709551615 is off every board"
