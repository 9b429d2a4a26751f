"""Lines of any slope ([[rules.lines]], queens.models.slopes) against a brute force written here.

The brute force shares no code with models/: it tries every placement of k points on a small
board and tests every triple (or every line through two cells, found by a cross product) for
collinearity; the suite's answers (every backend that answers, the router's verified count)
must match it, and the shipped no-three-in-line file must reach OEIS A000755 and, counted by
classes, A000769.
"""

from __future__ import annotations

from itertools import combinations, product

import pytest
from queens.models.armies import Army
from queens.models.check import verify
from queens.models.errors import InvalidBoard, InvalidPlacement, MalformedInput, Refused
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.models.slopes import SlopeLines
from queens.models.symmetry import puzzle_group
from queens.solvers.registry import BACKENDS

import queens
from tests.conftest import Reference

NO_THREE = PUBLISHED / "A000755-no-three-in-line.toml"
Case = tuple[int, int, int, int, int, set[tuple[int, int]] | None, int]
"""rows, cols, points, least and most per line, the slopes (None: every slope), through."""


def _collinear(a: tuple[int, ...], b: tuple[int, ...], c: tuple[int, ...]) -> bool:
    return (b[0] - a[0]) * (c[1] - a[1]) == (b[1] - a[1]) * (c[0] - a[0])


def _brute_no_three(n: int, k: int) -> int:
    cells = list(product(range(n), repeat=2))
    return sum(1 for chosen in combinations(cells, k)
               if not any(_collinear(a, b, c) for a, b, c in combinations(chosen, 3)))


def _brute_lines(rows: int, cols: int, slopes: set[tuple[int, int]] | None,
                 through: int) -> list[frozenset[tuple[int, int]]]:
    """Every line of the board as a set of cells: the cells collinear with each pair of cells,
    kept when its direction (reduced by the fraction's sign and size) is asked."""
    cells = list(product(range(rows), range(cols)))
    found = set()
    for a, b in combinations(cells, 2):
        dr, dc = b[0] - a[0], b[1] - a[1]
        step = max(d for d in range(1, max(abs(dr), abs(dc)) + 1) if dr % d == 0 and dc % d == 0)
        dr, dc = dr // step, dc // step
        if dr < 0 or (dr == 0 and dc < 0):
            dr, dc = -dr, -dc
        if slopes is not None and (dr, dc) not in slopes:
            continue
        line = frozenset(c for c in cells if _collinear(a, b, c))
        if len(line) >= through:
            found.add(line)
    return list(found)


def _brute_count(rows: int, cols: int, k: int, least: int, most: int,
                 slopes: set[tuple[int, int]] | None, through: int) -> int:
    lines = _brute_lines(rows, cols, slopes, through)
    cells = list(product(range(rows), range(cols)))
    return sum(1 for chosen in combinations(cells, k)
               if all(least <= len(line.intersection(chosen)) <= most for line in lines))


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_no_three_in_line_file_counts_as_the_brute_force_and_oeis(n: int, reference: Reference) -> None:
    puzzle = read(NO_THREE, n).puzzle
    expected = _brute_no_three(n, 2 * n)
    assert expected == reference.term("A000755", n)
    assert queens.count(puzzle).count == expected
    assert queens.count(puzzle, unique=True).stats.get("classes", expected) == reference.term("A000769", n)


@pytest.mark.parametrize("n", (5, 6))
def test_no_three_in_line_classes_reach_a000769(n: int, reference: Reference) -> None:
    """Lines of every slope keep the square's 8 symmetries: counted by classes, A000769."""
    result = queens.count(read(NO_THREE, n).puzzle, "sat", unique=True)
    assert (result.count, result.stats["classes"]) == (reference.term("A000755", n), reference.term("A000769", n))


@pytest.mark.parametrize("case", [
    (3, 4, 5, 0, 2, None, 2),            # no three in line on a rectangle
    (4, 4, 4, 0, 1, {(1, 2), (2, 1)}, 2),  # at most one per knight's line, two slopes only
    (4, 4, 6, 1, 3, {(1, 1)}, 3),        # at least one on each diagonal through 3 cells or more
    (3, 3, 3, 0, 1, {(0, 1), (1, 0), (1, 1), (1, -1)}, 2),  # the queen's lines, said as slopes
])
def test_every_backend_that_answers_agrees_with_the_brute_force(case: Case) -> None:
    rows, cols, k, least, most, slopes, through = case
    puzzle = Puzzle(shape=(rows, cols), armies=(Army("points", piece="pawn", least=k, most=k),),
                    slope_lines=(SlopeLines(least, most, None if slopes is None else tuple(slopes), through),))
    expected = _brute_count(rows, cols, k, least, most, slopes, through)
    answered = []
    for backend in BACKENDS:
        try:
            assert queens.count(puzzle, backend, time_limit=60).count == expected, backend
        except Refused as refused:
            assert str(refused)
            continue
        answered.append(backend)
    assert {"cpsat", "sat"} <= set(answered)


def test_chosen_slopes_keep_only_the_symmetries_that_map_them_to_themselves() -> None:
    """A knight's slopes [1, 2] and [1, -2] alone are kept by the flips, not by the transpose."""
    def group(slopes: tuple[tuple[int, int], ...] | None) -> int:
        return len(puzzle_group(Puzzle(shape=(5, 5), armies=(Army(piece="pawn", least=4, most=4),),
                                       slope_lines=(SlopeLines(most=1, slopes=slopes),))))
    assert group(None) == 8
    assert group(((1, 2), (1, -2))) == 4
    assert group(((1, 2),)) == 2


def test_the_checker_refuses_three_in_a_line() -> None:
    """The checker finds the line on its own: three points one knight's slope apart."""
    puzzle = Puzzle(shape=(5, 5), armies=(Army(piece="pawn", least=3, most=3),), slope_lines=(SlopeLines(most=2),))
    assert verify(puzzle, [(0, (0, 0)), (0, (1, 2)), (0, (2, 3))])
    with pytest.raises(InvalidPlacement, match="slope \\[1, 2\\]"):
        verify(puzzle, [(0, (0, 0)), (0, (1, 2)), (0, (2, 4))])


@pytest.mark.parametrize(("text", "message"), [
    ("slopes = [[0, 0]]", "non-zero"),
    ("slopes = \"some\"", "pairs"),
    ("through = 0", "through"),
    ("army = \"nobody\"", "no army is named"),
    ("colour = 1", "unknown key"),
])
def test_a_mistake_in_rules_lines_is_one_error_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(MalformedInput, match=message):
        loads(f"[board]\nshape = [4, 4]\n[[army]]\npiece = \"pawn\"\ncount = 4\n[[rules.lines]]\nat_most = 2\n{text}")


def test_lines_of_any_slope_are_read_on_a_flat_2d_board() -> None:
    with pytest.raises(InvalidBoard, match="flat 2-D board"):
        Puzzle(shape=(4, 4), armies=(Army(piece="pawn", least=4, most=4),), wrap=True,
               slope_lines=(SlopeLines(most=2),))
