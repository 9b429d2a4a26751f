"""The input forms of the families: cells, files, Grigoryan vectors, pawns; and their errors."""

from __future__ import annotations

import json

import pytest
from queens.models import MalformedInput, as_cells, parse_cells, parse_vector
from queens.models.families import pre_placed_cells
from queens.models.placement_file import read_placement
from queens.models.toroidal import Toroidal
from queens.solvers import solutions

from tests.cli import error_line, run_main
from tests.plain_reference import images


def test_three_forms_name_the_same_queens(tmp_path):
    path = tmp_path / "queens.txt"
    path.write_text("# row col\n0,0\n\n1 4  # second\n")
    from_file = tuple(map(tuple, read_placement(path).cells().tolist()))
    assert from_file == parse_cells("0,0 1,4") == parse_vector("1 5 0 0 0 0 0 0")


@pytest.mark.parametrize("text", ["0,0,1", "a,b", "3"])
def test_malformed_cells_are_named(text):
    with pytest.raises(MalformedInput, match="queen"):
        parse_cells(text)


def test_malformed_file_names_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("0 0\n1 x\n")
    with pytest.raises(MalformedInput, match="bad.txt:2"):
        read_placement(path).cells()


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "queens.bin"
    path.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(MalformedInput, match="cannot read"):
        read_placement(path).cells()


@pytest.mark.parametrize("text", ["1 -2", "1 two"])
def test_malformed_vector(text):
    with pytest.raises(MalformedInput):
        parse_vector(text)


def test_completion_from_a_file_on_the_cli(tmp_path):
    path = tmp_path / "queens.txt"
    path.write_text("0 0\n")
    result = run_main("count", "completion", "-n", "8", "--queens", str(path), "-b", "native", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == 4


def test_cells_longer_than_a_file_name_are_cells() -> None:
    """60 given queens written out exceed a file name's 255 bytes: read as cells, not a failed open."""
    cells = [(i, 2 * i) for i in range(60)]  # rows differ, columns 2i, diagonals i and 3i: none attack
    text = " ".join(f"{r},{c}" for r, c in cells)
    assert len(text) > 255
    assert sorted(map(tuple, pre_placed_cells(text, None, 200).tolist())) == cells
    result = run_main("solve", "completion", "-n", "200", "--queens", text, "--json")
    assert result.returncode == 0, result.stderr
    placed = [tuple(cell) for cell in json.loads(result.stdout)["solutions"][0]]
    assert set(cells) <= set(placed)
    for key in (lambda r, c: r, lambda r, c: c, lambda r, c: r - c, lambda r, c: r + c):
        assert len({key(r, c) for r, c in placed}) == 200  # 200 queens, no two on a row, column or diagonal


@pytest.mark.parametrize("args,message", [
    (["count", "completion", "-n", "8", "--queens", "0,0 2,2"], "attack each other"),
    (["count", "completion", "-n", "8", "--queens", "0,9"], "off the 8x8 board"),
    (["count", "completion", "-n", "8", "--queens", "0,0 0,0"], "listed twice"),
    (["count", "completion", "-n", "8"], "needs pre-placed queens"),
    (["count", "completion", "-n", "8", "--queens", "0,0", "--vector", "1"], "once"),
    (["count", "ninequeens", "-n", "8", "--pawns", "1", "--pawn", "3,3"], "either --pawns"),
    (["count", "ninequeens", "-n", "8", "--pawns", "9"], "free pawns must be"),
    (["count", "ninequeens", "-n", "8", "--pawn", "9,9"], "off the 8x8 board"),
])
def test_family_input_errors_are_one_line(args, message):
    result = run_main(*args)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert message in result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("args,message", [
    (["count", "nqueens", "-n", "8", "--pawns", "1"], "--pawns does not apply to nqueens (nqueens takes -m)"),
    (["count", "toroidal", "-n", "8", "-m", "9"], "-m does not apply"),
])
def test_a_flag_the_family_does_not_take_is_a_usage_error(args, message):
    result = run_main(*args)
    assert result.returncode == 2
    assert message in error_line(result)


def test_pawn_cell_must_be_row_comma_col():
    result = run_main("count", "ninequeens", "-n", "8", "--pawn", "3")
    assert result.returncode == 2 and "row,col" in result.stderr


def test_toroidal_zero_says_why():
    payload = json.loads(run_main("count", "toroidal", "-n", "6", "-b", "native", "--json").stdout)
    assert payload["count"] == 0 and "Pólya" in payload["details"]["note"]


def test_unique_counts_classes_for_any_family(reference):
    payload = json.loads(run_main("count", "toroidal", "-n", "7", "--unique", "--json").stdout)
    boards = [tuple(c for _, c in as_cells(s)) for s in solutions(Toroidal(7), "native")]
    classes = len({min(images(board)) for board in boards})  # the plain-Python twin's 8 symmetries
    assert (payload["count"], payload["details"]["classes"]) == (reference.term("A051906", 7), classes)
