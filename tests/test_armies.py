"""Armies, goals and cubes: every optimum and count checked against OEIS / DIMACS terms
(tests/data/sequences.json) or the brute force of tests/army_oracle.py, on every backend that
says it can answer; every answer passes the independent army checker (inside solve/count)."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from math import ceil

import pytest
from queens.models import KNIGHT, InvalidBoard, InvalidPlacement, Puzzle, Unsupported, as_pairs, lower, verify
from queens.models.armies import Army
from queens.models.pieces import PIECES_ON, piece_named
from queens.models.puzzle_file import PUBLISHED, SHIPPED, read
from queens.solvers import count, solve
from queens.solvers.api import solutions
from queens.solvers.registry import BACKENDS, get_backend
from queens.solvers.result import Status

from tests import army_oracle, schemas
from tests.conftest import REFERENCE
from tests.oracle import two_per_line_count
from tests.typed_results import number

ALL = sorted(BACKENDS)


def peaceable(n: int) -> Puzzle:
    return Puzzle(shape=(n, n), armies=(Army("white", goal="maximise"), Army("black", goal="maximise")), within=False)


def independent(piece: str, rows: int, cols: int) -> Puzzle:
    moves = piece_named(piece, 2)
    assert moves is not None
    return Puzzle(shape=(rows, cols), armies=(Army(piece, moves, goal="maximise"),))


def answers(puzzle: Puzzle, backends: list[str] = ALL) -> dict[str, int | None]:
    """The proved optimum from every backend that supports the puzzle (at least one must)."""
    found = {}
    for name in backends:
        try:
            result = solve(puzzle, name)
        except Unsupported:
            continue
        assert result.status in (Status.OPTIMAL, Status.INFEASIBLE), (name, result.status)
        found[name] = result.objective
    assert found
    return found


@pytest.mark.parametrize("n", range(1, 7))
def test_peaceable_queens_match_a250000(n, reference):
    expected = reference.term("A250000", n)
    backends = ["cpsat", "sat"] + (["csp"] if n <= 4 else [])
    assert set(answers(peaceable(n), backends).values()) == {expected}
    if n <= 5:
        assert army_oracle.most_peaceable(n) == expected


@pytest.mark.parametrize("n", [7, pytest.param(8, marks=pytest.mark.slow)])  # 8: 4 s
def test_peaceable_queens_7_and_8_by_sat(n, reference):
    """A few seconds: sat orders the lines the armies share, not their placements (`Side`)."""
    assert answers(peaceable(n), ["sat"]) == {"sat": reference.term("A250000", n)}


@pytest.mark.slow
def test_peaceable_queens_7_by_cpsat(reference):
    """About 40 s on the 2-core machine."""
    assert answers(peaceable(7), ["cpsat"]) == {"cpsat": reference.term("A250000", 7)}


@pytest.mark.slow
def test_peaceable_queens_9_by_sat(reference):
    """"13 of each do not fit" is the hard part: about 20 s on the 2-core machine."""
    assert answers(peaceable(9), ["sat"]) == {"sat": reference.term("A250000", 9)}


BOARDS = [dict(shape=(5, 5)), dict(shape=(5, 5), wrap=(True, True)), dict(shape=(4, 6), wrap=(False, True)),
          dict(shape=(5, 5), holes=[(2, 2), (0, 4)]), dict(shape=(5, 5), wrap=(False, True), twist=(False, True)),
          dict(shape=(3, 3, 3))]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: "-".join(f"{k}" for k in b))
@pytest.mark.parametrize("pieces", [("queen", "queen"), ("rook", "bishop"), ("queen", "knight")])
def test_bicliques_are_exactly_the_lines_between_armies(board, pieces):
    """A family's bicliques say its lines once more, grouped (`LineFamily.bicliques`): every
    line is a pair of one biclique, and every pair of a biclique a line or one cell twice."""
    dimensions = len(board["shape"])
    moves = [piece_named(name, dimensions) or piece_named("queen", dimensions) for name in pieces]
    assert moves[0] is not None and moves[1] is not None
    puzzle = Puzzle(armies=(Army("a", moves[0], goal="maximise"), Army("b", moves[1], goal="maximise")),
                    within=False, **board)
    grouped = [family for family in lower(puzzle).families if family.bicliques]
    assert grouped
    for family in grouped:
        lines = {line.cells for line in family.lines}
        pairs = {(x, y) for b in family.bicliques for x in b.first for y in b.second}
        assert lines <= pairs
        assert {(x, y) for x, y in pairs - lines if x[1] != y[1]} == set()


def test_native_answers_peaceable_queens_only_when_asked():
    """The line counter answers armies kept equal, but does not propagate between them: the router
    passes it over unasked (measured: n = 5 78 s, sat 0.2 s), and it answers when asked by name."""
    model = lower(peaceable(4))
    assert get_backend("native").supports(model) is None and not get_backend("native").worth(model)
    assert solve(peaceable(4), "native").objective == army_oracle.most_peaceable(4)


def _knights(rows: int, cols: int) -> int:
    """Independence number of the knight graph (closed form; Gardner, Culberson)."""
    short, long = sorted((rows, cols))
    if short == 1:
        return long
    if short == 2:
        return 2 * (2 * (long // 4) + min(long % 4, 2))
    return ceil(rows * cols / 2)


CLOSED_FORMS: dict[str, Callable[[int, int], int | None]] = {
    "king": lambda m, n: ceil(m / 2) * ceil(n / 2),
    "knight": _knights,
    "bishop": lambda m, n: 2 * n - 2 if m == n > 1 else None,
    "rook": min,
    "queen": lambda m, n: min(m, n) if (m, n) not in {(2, 2), (3, 3), (2, 3), (3, 2)} else min(m, n) - 1,
}
"""The most non-attacking pieces on m x n: kings ceil(m/2)ceil(n/2); knights ceil(mn/2) from 3 x 3
up, with the 1 x n and 2 x n exceptions; bishops 2n - 2 on n x n (None: no closed form used here,
the brute force alone decides); rooks min(m, n); queens min(m, n) except on the 2 x 2, 2 x 3 and
3 x 3 boards."""


@pytest.mark.parametrize("piece", sorted(CLOSED_FORMS))
@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 4), (2, 2), (2, 5), (3, 3), (3, 5), (4, 4), (5, 6), (6, 6)])
def test_independence_numbers_match_their_closed_forms(piece, rows, cols):
    expected = CLOSED_FORMS[piece](rows, cols)
    if expected is None or rows * cols <= 25:
        brute = army_oracle.independence_number(cols, piece, rows=rows)
        assert expected in (None, brute)
        expected = brute
    backends = ["native", "sat"] + (["cpsat"] if rows * cols <= 16 else [])
    assert set(answers(independent(piece, rows, cols), backends).values()) == {expected}


def colouring(n: int, cols: int | None = None) -> Puzzle:
    return Puzzle(shape=(n, cols or n), armies=(Army("colour", copies=None),), between=False, partition=True)


@pytest.mark.parametrize("n", range(1, 8))
def test_queen_graph_colouring_matches_a088202(n, reference):
    backends = ["native", "sat", "cpsat"] if n <= 6 else ["native", "sat"]
    assert set(answers(colouring(n), backends).values()) == {reference.term("A088202", n)}


@pytest.mark.parametrize("n", range(2, 11))
def test_the_greedy_colouring_is_a_colouring_at_or_above_a088202(n, reference):
    """DSatur's colouring (the fewest copies' incumbent) passes the army checker (inside
    greedy_copies) and a brute check here: every cell coloured once, no two queens of one colour
    on a line; it never beats the published chromatic number, and meets it on queen5_5."""
    from queens.solvers.routing.fewest_copies import greedy_copies

    placement = greedy_copies(colouring(n), lower(colouring(n).with_copies(1)))
    assert placement is not None
    colours = {cell: copy for copy, cell in as_pairs(placement)}
    assert sorted(colours) == [(r, c) for r in range(n) for c in range(n)]
    for (r1, c1), k1 in colours.items():
        for (r2, c2), k2 in colours.items():
            if (r1, c1) < (r2, c2) and k1 == k2:
                assert r1 != r2 and c1 != c2 and abs(r1 - r2) != abs(c1 - c2)
    used = len(set(colours.values()))
    assert used >= reference.term("A088202", n)
    if n == 5:
        assert used == 5


@pytest.mark.parametrize(("n", "backends"), [(8, ["cpsat"]), (9, ["sat"]),  # about 1 and 3 s; the others past 4 s
                                         pytest.param(8, ["sat"], marks=pytest.mark.slow),
                                         pytest.param(9, ["cpsat"], marks=pytest.mark.slow),
                                         pytest.param(10, ["cpsat"], marks=pytest.mark.slow)])
def test_queen_graph_colouring_is_proved_past_the_clique_bound(n, backends, reference):
    """queen8_8 to queen10_10, whose chromatic number is the clique bound + 1: refuting n colours
    rests on the saturated lines (each colour one queen per row and column), which took these
    backends from no answer in 60 s to a few seconds (queen10_10: about 30 s, slow)."""
    assert set(answers(colouring(n), backends).values()) == {reference.term("A088202", n)}


def test_saturated_lines_hold_each_armys_cap_exactly():
    """Under `partition`, a run every army's caps fill exactly holds each army's cap: with n
    colours on n x n, every row, column and long diagonal of every colour holds exactly one;
    with n + 1 colours nothing is derived, and a hole derives nothing on the runs it shortens."""
    def exact(puzzle: Puzzle) -> list[frozenset[tuple[int, int]]]:
        return [frozenset(cell for _, cell in line.cells) for line in lower(puzzle).lines
                if line.at_least == line.at_most == 1 and len({a for a, _ in line.cells}) == 1]

    assert len(exact(colouring(4).with_copies(4))) == 4 * (4 + 4 + 2)
    assert exact(colouring(4).with_copies(5)) == []
    holed = Puzzle(shape=(4, 4), armies=(Army("colour", copies=4),), between=False, partition=True, holes=[(0, 0)])
    runs = exact(holed)
    assert len(runs) == 4 * (3 + 3 + 1)  # rows 1-3, columns 1-3, the anti-diagonal
    assert all(len(run) == 4 and (0, 0) not in run for run in runs)


def test_a_colouring_cut_off_answers_with_the_greedy_colouring_and_its_bound(reference):
    """queen9_9 in 2 s: no proof (9 colours is not refuted that fast), yet the answer holds a
    checked colouring with its number of colours, above the proved lower bound."""
    result = solve(colouring(9), "native", time_limit=2)
    assert result.status is Status.LIMIT
    assert result.objective is not None and result.objective >= reference.term("A088202", 9)
    assert len(result.solutions) == 1 and len({copy for copy, _ in result.solutions[0]}) == result.objective
    assert 9 <= number(result.stats, "bound") <= reference.term("A088202", 9)


def _dimacs() -> dict[str, dict[str, int]]:
    instances: dict[str, dict[str, int]] = json.loads(REFERENCE.read_text())["DIMACS queen graphs"]["instances"]
    return instances


@pytest.mark.slow
@pytest.mark.parametrize("name", ["queen8_8", "queen8_12"])
def test_dimacs_chromatic_numbers(name):
    """queen8_8: 8 colours proved impossible in about 15 s (native); queen9_9 (9 impossible)
    does not finish in 120 s on any backend and is left out."""
    rows, cols = map(int, name.removeprefix("queen").split("_"))
    assert solve(colouring(rows, cols), "native").objective == _dimacs()[name]["chi"]


@pytest.mark.parametrize("name", sorted(_dimacs()))
def test_dimacs_col_export_matches_the_published_headers(name):
    from queens.solvers.formats.dimacs import dimacs_col

    rows, cols = map(int, name.removeprefix("queen").split("_"))
    text = dimacs_col(colouring(rows, cols))
    header = next(line for line in text.splitlines() if line.startswith("p "))
    edges = [line for line in text.splitlines() if line.startswith("e ")]
    instance = _dimacs()[name]
    assert header == f"p edge {instance['vertices']} {instance['edges']}"
    assert len(edges) == instance["edges"] == 2 * army_oracle.queen_graph_edges(rows, cols)


def cube(n: int, count: int | None = None) -> Puzzle:
    army = Army("queens", PIECES_ON[3]["queen"], goal="maximise") if count is None else \
        Army("queens", PIECES_ON[3]["queen"], least=count, most=count)
    return Puzzle(shape=(n, n, n), armies=(army,))


@pytest.mark.parametrize("n", range(1, 5))
def test_most_queens_on_a_cube(n, reference):
    expected = reference.term("A068940", n)
    assert army_oracle.independence_number(n, "queen", dimensions=3) == expected
    assert set(answers(cube(n), ["native", "sat", "cpsat"]).values()) == {expected}


@pytest.mark.parametrize("n", range(2, 6))
def test_no_n_squared_queens_on_small_cubes(n):
    for backend in ("native", "sat"):
        assert solve(cube(n, n * n), backend).status is Status.INFEASIBLE


@pytest.mark.slow
@pytest.mark.parametrize("n,backend", [(11, "cpsat"), (11, "sat"), (13, "native")])
def test_n_squared_queens_on_the_11_and_13_cubes(n, backend):
    result = solve(cube(n, n * n), backend, time_limit=600)
    assert result.status is Status.SOLVED and result.solution is not None
    assert len(result.solution) == n * n  # checked inside


@pytest.mark.slow
@pytest.mark.parametrize("n", [6, 7, 8])
def test_no_n_squared_queens_on_larger_small_cubes(n):
    assert solve(cube(n, n * n), "native", time_limit=600).status is Status.INFEASIBLE


def two_rooks_per_line(n: int) -> Puzzle:
    rook = piece_named("rook", 2)
    assert rook is not None
    return Puzzle(shape=(n, n), armies=(Army("rooks", rook, 2 * n, 2 * n),), within=False,
                      per_line=(("rows", 2, 2), ("cols", 2, 2)))


def test_two_rooks_do_not_fit_one_row():
    assert two_per_line_count(1) == 0
    with pytest.raises(InvalidBoard, match="do not fit"):
        lower(two_rooks_per_line(1))


@pytest.mark.parametrize("n", [2, 3, 4, pytest.param(5, marks=pytest.mark.slow)])  # n = 5: 2,040 solutions
def test_two_rooks_per_line_match_a001499(n, reference):  # enumerated by sat and cpsat, 6 CPU-s: make test-slow
    expected = reference.term("A001499", n)
    assert two_per_line_count(n) == expected
    for backend in ("sat", "cpsat") + (("csp",) if n <= 4 else ()):
        assert count(two_rooks_per_line(n), backend).count == expected


@pytest.mark.slow
def test_two_rooks_per_line_6(reference):
    assert count(two_rooks_per_line(6), "sat").count == reference.term("A001499", 6)


def test_native_counts_two_per_line_with_its_line_counter(reference):
    assert get_backend("native").supports(lower(two_rooks_per_line(3))) is None
    assert count(two_rooks_per_line(5), "native").count == reference.term("A001499", 5)


def queens_and_knights(n: int) -> Puzzle:
    knight = piece_named("knight", 2)
    assert knight is not None
    return Puzzle(shape=(n, n), armies=(Army("queens", goal="maximise"), Army("knights", knight, goal="maximise")))


@pytest.mark.parametrize("n", range(1, 6))
def test_queens_and_knights_match_the_brute_force(n):
    assert set(answers(queens_and_knights(n), ["cpsat", "sat"]).values()) == {army_oracle.queens_and_knights(n)}


def test_all_optimal_counts_every_optimum():
    """n independent queens on n x n are the n-queens solutions: 92 on 8 x 8 (A000170)."""
    assert count(independent("queen", 8, 8), "native").count == 92
    assert count(independent("queen", 6, 6), "sat").count == 4
    assert count(peaceable(4), "cpsat").count == army_oracle.count_peaceable(4, 2)
    assert sum(1 for _ in solutions(peaceable(3), "sat")) == army_oracle.count_peaceable(3, 1)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_unique_counts_classes_under_the_board_and_the_swap_of_colours(n, reference):
    m = reference.term("A250000", n)
    assert count(peaceable(n), "sat", unique=True).stats["classes"] == army_oracle.peaceable_classes(n, m)


def test_a_time_limit_reports_a_bound():
    # 2 s, not less: with 0.2 s a loaded machine killed the child before it could report (no bound);
    # CP-SAT proves peaceable n = 9 in no less than minutes (frontier.md: bound 39 at 60 s)
    result = solve(peaceable(9), "cpsat", time_limit=2.0)
    if result.status is Status.LIMIT:  # a fast machine may prove it: then it is the optimum
        assert "bound" in result.stats
    else:
        assert result.objective == 12


def test_the_checker_rejects_what_breaks_the_rules():
    puzzle = peaceable(4)
    with pytest.raises(InvalidPlacement, match="attack each other"):
        verify(puzzle, [(0, (0, 0)), (1, (3, 3))])
    with pytest.raises(InvalidPlacement, match="equal numbers"):
        verify(puzzle, [(0, (0, 0)), (0, (0, 1))])
    with pytest.raises(InvalidPlacement, match="two pieces stand"):
        verify(puzzle, [(0, (0, 0)), (1, (0, 0))])
    with pytest.raises(InvalidPlacement, match="holds no piece"):
        verify(colouring(2).with_copies(4), [(0, (0, 0))])
    with pytest.raises(InvalidPlacement, match="line of rows"):
        verify(two_rooks_per_line(3), [(0, (0, 0)), (0, (0, 1)), (0, (0, 2)), (0, (1, 0)), (0, (1, 1)),
                                              (0, (2, 2))])
    with pytest.raises(InvalidPlacement, match="attack each other"):
        verify(cube(3), [(0, (0, 0, 0)), (0, (2, 2, 2))])


def test_a_cylinder_wraps_one_axis():
    """On a cylinder that wraps the columns, n rooks still fit but queens' diagonals wrap:
    checked against the torus (where 5 queens fit, Pólya) and the plane."""
    row_wrap = Puzzle(shape=(5, 5), armies=(Army("q", least=5, most=5),), wrap=(False, True))
    found = solve(row_wrap, "sat")
    assert found.status is Status.SOLVED
    bad = [(0, (0, 0)), (0, (1, 4))]  # (0, 0) and (1, 4) share a diagonal across the seam
    with pytest.raises(InvalidPlacement):
        verify(Puzzle(shape=(5, 5), armies=(Army("q"),), wrap=(False, True)), bad)


WITH_ARMIES = sorted(p for p in SHIPPED.glob("*.toml") if not read(p, n=8).puzzle.plain)
"""The shipped files with armies, goals, bounds or a cube (the others: tests/test_puzzle_files.py)."""


@pytest.mark.parametrize("path", WITH_ARMIES, ids=lambda p: p.stem)
def test_every_shipped_file_is_answered_by_every_backend_that_can(path):
    spec = read(path, n=3)
    outcomes = set()
    for backend in ALL:
        try:
            result = count(spec.puzzle, backend) if spec.task == "count" else solve(spec.puzzle, backend)
        except Unsupported:
            continue
        outcomes.add((result.status, result.objective, result.count))
    assert len(outcomes) == 1, outcomes


def test_json_lists_every_army():
    from queens.commands.answer import payload

    puzzle = peaceable(4)
    armies = payload("solve", puzzle, solve(puzzle, "sat"), verified=True)["armies"][0]
    assert [entry["army"] for entry in armies] == ["white", "black"]
    assert all(len(entry["cells"]) == 2 and all(len(cell) == 2 for cell in entry["cells"]) for entry in armies)
    cubic = payload("solve", cube(3), solve(cube(3), "native"), verified=True)
    assert all(len(cell) == 3 for entry in cubic["armies"][0] for cell in entry["cells"])


def test_a_piece_is_its_rays_and_leaps_in_any_dimension():
    assert KNIGHT.leaps == ((1, 2), (2, 1), (1, -2), (2, -1))
    assert len(PIECES_ON[3]["queen"].rays) == 13


@pytest.mark.parametrize("path", sorted([*SHIPPED.glob("*.toml"), *PUBLISHED.glob("*.toml")]), ids=lambda p: p.stem)
def test_every_shipped_file_fits_the_json_schema(path):
    schemas.validate(tomllib.loads(path.read_text()), schemas.PUZZLE_FILE)
