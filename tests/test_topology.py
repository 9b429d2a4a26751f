"""The board's topology: steps, walks and lines on the plane, the torus and the cylinder.

Expected cells are computed here from coordinates alone (modular arithmetic written out), never
from `Topology` itself.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from queens.models import NQueens, Puzzle, lower
from queens.models.geometry import Topology

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1), (1, 2), (2, -1)]


@st.composite
def boards(draw: st.DrawFn) -> tuple[Topology, tuple[int, int], tuple[int, int]]:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    wrap = (draw(st.booleans()), draw(st.booleans()))
    cell = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    return Topology((rows, cols), wrap), cell, draw(st.sampled_from(DIRECTIONS))


@given(boards())
def test_a_step_wraps_exactly_the_wrapped_axes(board: tuple[Topology, tuple[int, int], tuple[int, int]]) -> None:
    topology, (r, c), (dr, dc) = board
    r2, c2 = r + dr, c + dc
    if topology.wrap[0]:
        r2 %= topology.rows
    if topology.wrap[1]:
        c2 %= topology.cols
    inside = 0 <= r2 < topology.rows and 0 <= c2 < topology.cols
    assert topology.step((r, c), (dr, dc)) == ((r2, c2) if inside else None)


@given(boards())
def test_a_walk_never_repeats_a_cell_and_a_line_holds_its_start(
        board: tuple[Topology, tuple[int, int], tuple[int, int]]) -> None:
    topology, cell, direction = board
    walked = list(topology.walk(cell, direction))
    assert cell not in walked and len(set(walked)) == len(walked)
    line = topology.line(cell, direction)
    assert cell in line and len(set(line)) == len(line)
    assert all(set(topology.line(other, direction)) == set(line) for other in line)


def test_the_torus_closes_every_diagonal() -> None:
    torus = Topology.of(5, 5, toroidal=True)
    assert len(torus.line((0, 0), (1, 1))) == 5
    assert torus.step(torus.line((2, 3), (1, -1))[-1], (1, -1)) == (2, 3)


def test_a_cylinder_wraps_rows_but_not_columns() -> None:
    cylinder = Topology((4, 6), wrap=(False, True))
    assert cylinder.line((1, 2), (0, 1)) == [(1, 2), (1, 3), (1, 4), (1, 5), (1, 0), (1, 1)]
    assert cylinder.line((1, 2), (1, 0)) == [(0, 2), (1, 2), (2, 2), (3, 2)]
    assert not cylinder.keyed


def test_a_wrapped_row_holds_the_cells_of_a_plane_row() -> None:
    """Wrapping a row does not change which cells share it: the lowering's rows are the same sets."""
    plane = Puzzle(rows=4, cols=4, pieces=4)
    lines = {frozenset(line.cells) for line in lower(plane).lines}
    assert {frozenset(Topology((4, 4), (False, True)).line((r, 0), (0, 1))) for r in range(4)} <= lines


def test_the_queens_conflict_graph_is_read_from_the_lines() -> None:
    """A queen on a corner of 5 x 5 sees 4 cells of its row, 4 of its column, 4 of its diagonal."""
    assert len(lower(NQueens(5)).conflicts[(0, 0)]) == 12
    assert (4, 4) in lower(NQueens(5)).conflicts[(0, 0)]
