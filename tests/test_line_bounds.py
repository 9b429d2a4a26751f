"""Per-line bounds: "two rooks in every row and column" is an ordinary model (OEIS A001499).

The terms are checked against a plain count here (a dynamic program over how many pieces each
column holds, sharing no code with `models/`), then every registered backend either counts
them or says why it cannot.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from queens.models import ROOK, InvalidPlacement, Puzzle, lower, verify
from queens.models.errors import BackendUnavailable
from queens.solvers import BACKENDS, Status, count, get_backend
from queens.solvers.backend import Task

from tests.oracle import two_per_line_count


def two_per_line(n: int) -> Puzzle:
    return Puzzle(rows=n, cols=n, piece=ROOK, pieces=2 * n, per_line=2, title=f"{2 * n} rooks, two per line")


@pytest.mark.parametrize("n", range(0, 7))
def test_a001499_terms_match_a_plain_count(n, reference):
    assert two_per_line_count(n) == reference.term("A001499", n)


def test_the_lowering_derives_two_per_row_and_column():
    model = lower(two_per_line(4))
    assert {f.name: {line.bounds for line in f.lines} for f in model.families} == {
        "rows": {(2, 2)}, "columns": {(2, 2)}}
    assert model.size_implied and not model.one_per_line


def test_the_checker_counts_pieces_per_line():
    assert verify(two_per_line(2), [(0, 0), (0, 1), (1, 0), (1, 1)])
    three = Puzzle(rows=3, cols=3, piece=ROOK, pieces=3, per_line=2)
    with pytest.raises(InvalidPlacement, match="3 pieces on the line"):
        verify(three, [(0, 0), (0, 1), (0, 2)])
    assert verify(three, [(0, 0), (0, 1), (1, 2)])


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize("n", range(2, 6))
def test_every_backend_counts_two_per_line_or_says_why_not(backend, n, reference):
    try:
        engine = get_backend(backend)
    except BackendUnavailable as missing:
        pytest.skip(str(missing))
    reason = engine.limits(n, n, Task.COUNT) or engine.supports(lower(two_per_line(n)))
    if reason is not None:
        assert reason.strip()
        pytest.skip(reason)
    result = count(two_per_line(n), backend)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A001499", n)


def test_at_most_two_queens_per_line_counts_like_a_plain_search():
    """Four queens on 3 x 3 with at most two on any line: every backend that supports it agrees
    with a brute force over the 126 placements."""
    puzzle = Puzzle(rows=3, cols=3, pieces=4, per_line=2)
    cells = [(r, c) for r in range(3) for c in range(3)]

    def fine(chosen: tuple[tuple[int, int], ...]) -> bool:
        keys = [lambda p: p[0], lambda p: p[1], lambda p: p[0] - p[1], lambda p: p[0] + p[1]]
        return all(max([sum(1 for p in chosen if key(p) == key(q)) for q in chosen]) <= 2 for key in keys)
    expected = sum(1 for chosen in combinations(cells, 4) if fine(chosen))
    for backend in ("cpsat", "sat", "csp"):
        assert count(puzzle, backend).count == expected, backend
