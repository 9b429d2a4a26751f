"""Boards and heat maps as text, SVG and PNG, and the Jupyter hooks."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from queens.models import NQueens, Puzzle, QueensError
from queens.models.drawing import Board, HeatMap, attacked_cells
from queens.models.ninequeens import NineQueens
from queens.solvers import solve
from queens.solvers.learn.heat_map import heat_map

SVG = "{http://www.w3.org/2000/svg}"
FOUR = ((0, 1), (1, 3), (2, 0), (3, 2))


def test_svg_is_well_formed_with_one_square_per_cell():
    root = ET.fromstring(Board(NQueens(4), FOUR).svg())
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f"{SVG}rect")) == 16
    assert root.findtext(f"{SVG}title") == "4-queens"
    assert len(root.findall(f"{SVG}polygon")) == 4 * 2  # each crown: points and base


def test_png_has_the_board_size():
    data = Board(NQueens(8), size=400).png()
    assert data.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(data)).size == (400, 400)
    wide = Board(Puzzle(rows=2, cols=5, pieces=1), size=500).png()
    assert Image.open(io.BytesIO(wide)).size == (500, 200)


def test_text_marks_attacks_pawns_and_marks():
    puzzle = NineQueens(3, [(1, 1)], queens=2)
    board = Board(puzzle, ((0, 0),), show_attacks=True)
    assert board.text() == "Q ~ ~\n~ p .\n~ . .", board.text()
    assert board.text({(2, 2): "x"}).endswith("x")


def test_attacked_cells_respect_pawns():
    puzzle = NineQueens(3, [(1, 1)], queens=2)
    assert (2, 2) not in attacked_cells(puzzle, [(0, 0)])  # the pawn blocks the diagonal
    assert (2, 2) in attacked_cells(NQueens(3), [(0, 0)])


def test_jupyter_hooks_show_a_result():
    puzzle = NQueens(6)
    board = Board.of(puzzle, solve(puzzle, "native"))
    assert board._repr_svg_().startswith("<svg")
    html = board._repr_html_()
    assert "<figure" in html and "6-queens: solved by native" in html
    assert len(board.placement) == 6


def test_heat_map_counts_cell_use(reference):
    n = 6
    heat = heat_map(NQueens(n))
    assert heat.total == reference.term("A000170", n)
    assert sum(heat.counts.values()) == heat.total * n
    # the board's symmetry shows in the map: a quarter turn changes nothing
    assert all(heat.counts.get((r, c), 0) == heat.counts.get((c, n - 1 - r), 0) for r in range(n) for c in range(n))
    title = ET.fromstring(heat.svg()).findtext(f"{SVG}title")
    assert title is not None and title.endswith(f"{heat.total} solutions")
    assert heat.png().startswith(b"\x89PNG")
    assert isinstance(heat, HeatMap) and "<figure" in heat._repr_html_()


def test_save_by_suffix(tmp_path):
    board = Board(NQueens(4), FOUR)
    assert board.save(tmp_path / "b.svg").read_text().startswith("<svg")
    assert board.save(tmp_path / "b.png").read_bytes().startswith(b"\x89PNG")
    assert board.save(tmp_path / "b.txt").read_text() == ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
    with pytest.raises(QueensError, match="format"):
        board.save(tmp_path / "b.gif")


def test_huge_boards_are_refused():
    with pytest.raises(QueensError, match="drawn up to"):
        Board(NQueens(101)).svg()
