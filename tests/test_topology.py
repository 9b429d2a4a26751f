"""The board's topology: steps, walks and lines on the plane, the torus, the cylinder, the
Möbius strip and the Klein bottle.

Expected cells are computed here from coordinates alone (modular arithmetic written out), never
from `Topology` itself. The twisted boards have their own oracle here: the board twice as wide,
the second copy upside down, is a plain cylinder (or torus), and its straight lines fold onto the
twisted board's lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from queens.models import NQueens, Puzzle, lower
from queens.models.geometry import Coord, Topology, attacks
from queens.models.pieces import BISHOP, KING, KNIGHT, NIGHTRIDER, QUEEN, ROOK, Cell, Piece

from tests.conftest import Reference

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


# ---- twisted boards -------------------------------------------------------------------------

MOEBIUS = {"wrap": (False, True), "twist": (False, True)}
KLEIN = {"wrap": (True, True), "twist": (False, True)}
NOTHING: frozenset[Coord] = frozenset()
TWISTED_SHAPES = [(n, n) for n in range(1, 7)] + [(2, 3), (3, 5), (4, 1), (4, 3), (5, 2)]


def folded(rows: int, cols: int, klein: bool) -> Callable[[int, int], Coord | None]:
    """The oracle's map from the double cover to the board: cell (r, c) of a rows x 2*cols board
    whose columns wrap plainly (rows too on a Klein bottle), the right half being the board turned
    upside down; None off the board."""
    def fold(r: int, c: int) -> Coord | None:
        if klein:
            r %= rows
        if not 0 <= r < rows:
            return None
        c %= 2 * cols
        return (r, c) if c < cols else (rows - 1 - r, c - cols)
    return fold


def oracle_attacked(rows: int, cols: int, klein: bool, piece: Piece, cell: Coord) -> set[Coord]:
    """Every cell a piece on `cell` attacks, by straight lines and leaps on the double cover
    (every line of that cover is periodic with a period dividing 2 * rows * cols)."""
    fold = folded(rows, cols, klein)
    r, c = cell
    reach = 2 * rows * cols
    found = {fold(r + sign * dr, c + sign * dc) for dr, dc in piece.leaps for sign in (1, -1)}
    found |= {fold(r + t * dr, c + t * dc) for dr, dc in piece.rays for t in range(-reach, reach + 1) if t}
    return {x for x in found if x is not None and x != cell}


def cells_of(rows: int, cols: int) -> list[Cell]:
    return [(r, c) for r in range(rows) for c in range(cols)]


def independent_sets(size: int, cells: list[Cell], attacked: Callable[[Cell, Cell], bool]) -> int:
    """How many `size`-subsets of `cells` hold no two cells that attack each other."""
    conflict = {a: {b for b in cells if attacked(a, b) or attacked(b, a)} for a in cells}

    def extend(chosen: list[Cell], rest: list[Cell]) -> int:
        if len(chosen) == size:
            return 1
        return sum(extend([*chosen, x], [y for y in rest[i + 1:] if y not in conflict[x]])
                   for i, x in enumerate(rest))
    return extend([], cells)


def test_crossing_the_twist_mirrors_the_row_and_turns_the_direction() -> None:
    """The rule as stated: from (r, cols-1) along (dr, 1) to (rows-1-(r+dr), 0), then along (-dr, 1)."""
    for rows, cols in ((5, 4), (3, 7)):
        moebius = Topology((rows, cols), **MOEBIUS)
        for r in range(rows):
            for dr in (-1, 0, 1):
                landed = rows - 1 - (r + dr)
                expected = ((landed, 0), (-dr, 1)) if 0 <= landed < rows else None
                assert moebius.move((r, cols - 1), (dr, 1)) == expected
                assert moebius.step((r, cols - 1), (dr, 1)) == (expected and expected[0])


def test_a_knights_leap_across_the_twist_lands_on_the_mirrored_row() -> None:
    moebius = Topology((5, 5), **MOEBIUS)
    assert moebius.step((0, 4), (1, 2)) == (3, 1)
    assert moebius.step((0, 3), (2, 1)) == (2, 4)  # no edge crossed: no mirror
    assert moebius.step((1, 4), (-2, 1)) is None


@pytest.mark.parametrize(("wrap", "twist", "reason"), [
    ((False, False), (False, True), "does not wrap"),
    ((True, True), (True, True), "projective plane"),
    ((True, True, True), (False, False, True), "2-D board"),
    ((False, True), (True,), "one twist flag per axis"),
])
def test_a_twist_that_has_no_step_is_refused(wrap: tuple[bool, ...], twist: tuple[bool, ...], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Topology((3,) * len(wrap), wrap, twist)


def test_a_twisted_board_has_no_line_keys_and_is_no_torus() -> None:
    klein = Topology((5, 5), **KLEIN)
    assert not klein.keyed and not klein.toroidal
    assert not Topology((5, 5), **MOEBIUS).keyed
    assert Topology((5, 5), (True, True)).keyed


@pytest.mark.parametrize("n", range(1, 8))
def test_moebius_queens_match_a137279(n: int, reference: Reference) -> None:
    """ceil(n/2) queens on the n x n Möbius board, counted through `attacks` and through the
    oracle: both give the published terms (Bell and Stevens 2008)."""
    expected = reference.term("A137279", n)
    moebius = Topology((n, n), **MOEBIUS)
    cells = cells_of(n, n)
    by_topology = independent_sets((n + 1) // 2, cells, lambda a, b: attacks(
        QUEEN, a, b, topology=moebius, pawns=NOTHING))
    seen = {a: oracle_attacked(n, n, False, QUEEN, a) for a in cells}
    by_oracle = independent_sets((n + 1) // 2, cells, lambda a, b: b in seen[a])
    assert by_topology == by_oracle == expected


@pytest.mark.parametrize("board", [MOEBIUS, KLEIN], ids=["moebius", "klein"])
@pytest.mark.parametrize("piece", [QUEEN, KNIGHT, KING, NIGHTRIDER], ids=lambda p: p.name)
@pytest.mark.parametrize("shape", [(n, n) for n in range(3, 7)] + [(3, 5), (4, 3), (5, 2)])
def test_attacks_on_a_twisted_board_agree_with_the_oracle(
        board: dict[str, tuple[bool, bool]], piece: Piece, shape: tuple[int, int]) -> None:
    rows, cols = shape
    topology = Topology(shape, **board)
    for a in cells_of(rows, cols):
        expected = oracle_attacked(rows, cols, board is KLEIN, piece, a)
        assert {b for b in cells_of(rows, cols) if attacks(piece, a, b, topology=topology, pawns=NOTHING)} == expected


@pytest.mark.parametrize("n", range(1, 7))
def test_a_twist_on_either_axis_is_the_same_board_transposed(n: int) -> None:
    across = Topology((n, n), **MOEBIUS)
    down = Topology((n, n), wrap=(True, False), twist=(True, False))
    cells = cells_of(n, n)
    for a in cells:
        for b in cells:
            assert (attacks(QUEEN, a, b, topology=across, pawns=NOTHING)
                    == attacks(QUEEN, a[::-1], b[::-1], topology=down, pawns=NOTHING))
    assert independent_sets((n + 1) // 2, cells, lambda a, b: attacks(QUEEN, a, b, topology=down, pawns=NOTHING)) \
        == independent_sets((n + 1) // 2, cells, lambda a, b: attacks(QUEEN, a, b, topology=across, pawns=NOTHING))


def test_a_line_may_pass_a_cell_twice_and_lists_it_once() -> None:
    """The walk passes the cell again (heading the other way across the twist); the line does not
    repeat it, so a lowering's line never counts one cell twice."""
    klein = Topology((3, 3), **KLEIN)
    assert (1, 0) in klein.walk((1, 0), (1, 1))  # back at the start, heading (-1, 1)
    assert klein.line((1, 0), (1, 1)) == [(1, 0), (2, 1), (0, 2), (0, 1), (2, 2)]
    narrow = Topology((4, 3), **MOEBIUS)
    walked = [(0, 0), *narrow.walk((0, 0), (1, 1))]
    assert walked == [(0, 0), (1, 1), (2, 2), (0, 0)]  # an open line that ends where it began
    assert narrow.line((0, 0), (1, 1)) == [(0, 0), (1, 1), (2, 2)]


@pytest.mark.parametrize("board", [MOEBIUS, KLEIN], ids=["moebius", "klein"])
@pytest.mark.parametrize("shape", TWISTED_SHAPES)
def test_twisted_lines_hold_every_cell_once_along_each_direction(
        board: dict[str, tuple[bool, bool]], shape: tuple[int, int]) -> None:
    """`line` is the same set from every cell of it, heading either way; `lines` lists each once."""
    topology = Topology(shape, **board)
    for direction in DIRECTIONS:
        lines = [frozenset(line) for line in topology.lines(direction)]
        assert len(set(lines)) == len(lines)
        for cell in cells_of(*shape):
            line = topology.line(cell, direction)
            assert line[0] == cell or cell in line[1:]
            assert len(set(line)) == len(line) and frozenset(line) in lines
            state = topology.move(cell, direction)
            while state is not None and state != (cell, direction):
                assert set(topology.line(*state)) == set(line)
                state = topology.move(*state)


UNTWISTED = [((rows, cols), wrap) for rows, cols in ((1, 1), (2, 2), (3, 5), (4, 4), (5, 3), (6, 6))
             for wrap in ((False, False), (True, True), (False, True), (True, False))]


DOUBLED = Piece("doubled", rays=((1, 1), (-1, -1), (2, 2), (0, 1)))  # an opposite and a multiple of a ray


@pytest.mark.parametrize(("shape", "wrap"), UNTWISTED)
@pytest.mark.parametrize("piece", [QUEEN, ROOK, BISHOP, NIGHTRIDER, DOUBLED], ids=lambda p: p.name)
def test_ray_lines_are_the_lines_of_each_ray_without_a_twist(
        shape: tuple[int, int], wrap: tuple[bool, bool], piece: Piece) -> None:
    check_ray_lines_against_lines(Topology(shape, wrap), piece.rays)


def test_ray_lines_of_a_cube_are_the_lines_of_each_ray() -> None:
    rays = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1), (1, -1, 0), (-1, 1, 0)]
    for wrap in ((False, False, False), (True, True, True)):
        check_ray_lines_against_lines(Topology((3, 3, 3), wrap), rays)


def check_ray_lines_against_lines(topology: Topology, rays: Sequence[Coord]) -> None:
    """The same sets as each ray's `lines`, each once, in one of those lines' own orders."""
    each = [tuple(line) for ray in rays for line in topology.lines(ray)]
    together = [tuple(line) for line in topology.ray_lines(rays)]
    assert {frozenset(line) for line in together} == {frozenset(line) for line in each}
    assert set(together) <= set(each) and len(together) == len({frozenset(line) for line in each})


@pytest.mark.parametrize("board", [MOEBIUS, KLEIN], ids=["moebius", "klein"])
@pytest.mark.parametrize("piece", [QUEEN, ROOK, BISHOP, NIGHTRIDER], ids=lambda p: p.name)
@pytest.mark.parametrize("shape", TWISTED_SHAPES)
def test_ray_lines_on_a_twisted_board_are_what_a_lowering_needs(
        board: dict[str, tuple[bool, bool]], piece: Piece, shape: tuple[int, int]) -> None:
    """Two cells attack each other along a ray exactly when they share a line of
    `ray_lines(piece.rays)`; no line holds a cell twice, and no two lines the same cells."""
    topology = Topology(shape, **board)
    lines = topology.ray_lines(piece.rays)
    assert all(len(set(line)) == len(line) for line in lines)
    assert len({frozenset(line) for line in lines}) == len(lines)
    sharing = {(a, b) for line in lines for a in line for b in line if a != b}
    cells = cells_of(*shape)
    assert sharing == {(a, b) for a in cells for b in cells if attacks(piece, a, b, topology=topology, pawns=NOTHING)}


@pytest.mark.parametrize("n", range(2, 7))
def test_ray_lines_are_in_walking_order(n: int) -> None:
    """On a square Möbius board no line passes a cell twice, so each next cell is one step on."""
    moebius = Topology((n, n), **MOEBIUS)
    for line in moebius.ray_lines(QUEEN.rays):
        for a, b in zip(line, line[1:], strict=False):
            assert any(moebius.step(a, (sr * dr, sc * dc)) == b
                       for dr, dc in QUEEN.rays for sr in (1, -1) for sc in (1, -1))
