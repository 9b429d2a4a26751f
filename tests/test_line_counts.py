"""The native line counter (solvers/native/linecore.c): lines that hold between at_least and
at_most pieces, counted exactly.

Checked three ways: against OEIS A001499 (two rooks per row and column, tests/data/sequences.json),
against a brute force over every subset of the variables on small random models (sharing no
code with `queens.models`' lowering: the models are drawn here, as plain lists of lines), and
against its plain-Python twin below, which makes the same decisions and so visits the same nodes.
Peaceable armies at a fixed size are checked against tests/army_oracle.py.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from queens.models import ROOK, ConstraintModel, Line, LineFamily, Puzzle, lower
from queens.models.armies import Army
from queens.models.symmetry import lex_leader, symmetry_group
from queens.solvers import Status, count
from queens.solvers.native.backend import Native, simple_search_fits
from queens.solvers.native.line_counter import bounded_lines, decision_order, line_search

from tests import army_oracle
from tests.typed_results import text

Cell = tuple[int, int]


def two_per_line_model(n: int) -> ConstraintModel:
    """A001499 written straight from its definition: every row and every column holds exactly two."""
    cells = tuple((r, c) for r in range(n) for c in range(n))
    rows = LineFamily("rows", tuple(Line(tuple((r, c) for c in range(n)), 2, 2) for r in range(n)))
    cols = LineFamily("columns", tuple(Line(tuple((r, c) for r in range(n)), 2, 2) for c in range(n)))
    return ConstraintModel(rows=n, cols=n, cells=cells, families=(rows, cols))


def native_count(model: ConstraintModel) -> int:
    backend = Native()
    assert backend.supports(model) is None
    total = backend.count(model, None)
    assert total is not None
    return total


@pytest.mark.parametrize("n", range(1, 7))
def test_a001499_by_the_line_counter(n, reference):
    assert native_count(two_per_line_model(n)) == reference.term("A001499", n)


@pytest.mark.parametrize("n", range(2, 7))
def test_two_per_line_puzzles_count_natively(n, reference):
    result = count(Puzzle(rows=n, cols=n, piece=ROOK, pieces=2 * n, per_line=2), "native")
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A001499", n)
    assert text(result.stats, "counter").startswith("lines")


@pytest.mark.slow
def test_a001499_7_by_the_line_counter(reference):
    """3,110,940: 0.7 s on the 2-core machine (n = 8, 187,530,840: about 65 s, not a test)."""
    assert native_count(two_per_line_model(7)) == reference.term("A001499", 7)


def test_the_simple_kernel_keeps_the_models_it_answers_exactly():
    assert simple_search_fits(lower(Puzzle(rows=6, cols=6, pieces=6)))
    assert not simple_search_fits(two_per_line_model(3))
    # one per line, but a lower bound no pigeonhole implies: the line counter's
    row = Line(((0, 0), (0, 1), (0, 2)), 1, 1)
    free = ConstraintModel(rows=1, cols=3, cells=row.cells, families=(LineFamily("rows", (row,)),), size=1)
    cover = ConstraintModel(rows=2, cols=2, cells=((0, 0), (0, 1), (1, 0), (1, 1)),
                            families=(LineFamily("some", (Line(((0, 0), (1, 1)), 1, 1),)),), size=2)
    assert simple_search_fits(free) and not simple_search_fits(cover)
    assert native_count(cover) == 4  # (0, 0) or (1, 1), with one of the two other cells


def test_fixed_pieces_that_break_a_line_leave_no_solution():
    """The simple search placed fixed pieces without checking them against each other: two on a
    line of at most one were counted as a solution (hypothesis found it in a lone-clone run)."""
    spec = (3, [([1, 2], 0, 1)], [1, 2], 2)
    model = as_model(spec)
    assert brute_force(spec) == 0
    assert (native_count(model), list(Native().solutions(model, None))) == (0, [])


def test_what_native_refuses_it_says_why():
    model = lower(Puzzle(rows=4, cols=4, piece=ROOK, pieces=8, per_line=2))
    assert Native().supports(model) is None
    reason = Native().supports(lex_leader(model, symmetry_group(model)))
    assert reason and "lex" in reason


# --- peaceable armies at a fixed size -----------------------------------------------------------

def peaceable(n: int) -> Puzzle:
    return Puzzle(shape=(n, n), armies=(Army("white", goal="maximise"), Army("black", goal="maximise")), within=False)


@pytest.mark.parametrize("n,m", [(3, 1), (4, 2), (4, 1), (5, 3)])
def test_peaceable_counts_at_a_fixed_size_match_the_army_oracle(n, m):
    model = lower(peaceable(n)).at_value(m)
    assert native_count(model) == army_oracle.count_peaceable(n, m)


# --- random models against a brute force and the plain-Python twin ------------------------------

Spec = tuple[int, list[tuple[list[int], int, int]], list[int], int | None]
"""A random model: variables 0..n-1, lines (variables, least, most), fixed variables, a size."""


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    n = draw(st.integers(1, 10))
    variables = st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)
    lines = []
    for cells in draw(st.lists(variables, max_size=6)):
        least = draw(st.integers(0, len(cells)))
        lines.append((cells, least, draw(st.integers(max(least - 1, 0), len(cells)))))
    fixed = draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    size = draw(st.one_of(st.none(), st.integers(0, n)))
    return n, lines, fixed, size


def brute_force(spec: Spec) -> int:
    """Every subset of the variables, kept when each line holds between its bounds."""
    n, lines, fixed, size = spec
    total = 0
    for bits in product((0, 1), repeat=n):
        if any(not bits[v] for v in fixed) or (size is not None and sum(bits) != size):
            continue
        total += all(least <= sum(bits[v] for v in cells) <= most for cells, least, most in lines)
    return total


def as_model(spec: Spec) -> ConstraintModel:
    n, lines, fixed, size = spec
    family = LineFamily("drawn", tuple(Line(tuple((0, v) for v in cells), most, least) for cells, least, most in lines))
    return ConstraintModel(rows=1, cols=n, cells=tuple((0, v) for v in range(n)), families=(family,),
                           fixed=frozenset((0, v) for v in fixed), size=size)


def twin_count(model: ConstraintModel) -> tuple[int, int]:
    """linecore.c's search in plain Python: the same order, counters and checks; (solutions, nodes)."""
    index = model.index
    lines = [([index[c] for c in cells], least, most) for cells, least, most in bounded_lines(model)]
    order = decision_order(model)
    fixed = {index[c] for c in model.fixed}
    through: dict[int, list[int]] = {}
    for j, (cells, _, _) in enumerate(lines):
        for v in cells:
            through.setdefault(v, []).append(j)
    up = [most - sum(v in fixed for v in cells) for cells, _, most in lines]
    down = [sum(v in fixed or v in order for v in cells) - least for cells, least, _ in lines]
    if any(x < 0 for x in up + down):
        return 0, 0
    nodes = 0

    def search(depth: int) -> int:
        nonlocal nodes
        if depth == len(order):
            return 1
        found = 0
        for counter in (up, down):  # a piece, then an empty cell
            nodes += 1
            mine = through.get(order[depth], [])
            if all(counter[j] > 0 for j in mine):
                for j in mine:
                    counter[j] -= 1
                found += search(depth + 1)
                for j in mine:
                    counter[j] += 1
        return found

    return search(0), nodes


@settings(max_examples=300, deadline=None)
@given(specs())
def test_random_models_match_a_brute_force_and_the_twin(spec):
    model = as_model(spec)
    search, _, _ = line_search(model)
    total, done = search.count()
    assert done
    assert total == brute_force(spec)
    assert (total, search.nodes) == twin_count(model)


@settings(max_examples=100, deadline=None)
@given(specs(), st.integers(1, 5))
@example(spec=(3, [([1, 2], 0, 1)], [1, 2], 2), batch=1)  # two fixed pieces on a line of at most one: none
def test_batches_list_every_solution_once(spec, batch):
    model = as_model(spec)
    backend = Native()
    found = [tuple(sorted(p)) for p in backend.solutions(model, None, batch=batch)]
    assert len(found) == len(set(found)) == brute_force(spec)
    for placement in found:
        chosen = {v for _, v in placement}
        assert set(spec[2]) <= chosen
        assert all(least <= len(chosen.intersection(cells)) <= most for cells, least, most in spec[1])
