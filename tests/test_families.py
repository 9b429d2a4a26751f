"""Every family on every backend: counts equal across backends, equal to OEIS where a sequence
exists, every solution verified by the family's own checker (inside queens.solvers.count)."""

from __future__ import annotations

from math import factorial

import pytest
from queens.models import (
    QUEEN,
    Completion,
    LineKind,
    NQueens,
    Piece,
    Puzzle,
    as_cells,
    lower,
    symmetry_group,
    verify,
)
from queens.models.domination import Domination
from queens.models.layouts import layout_form, layouts
from queens.models.ninequeens import FreePawns, NineQueens
from queens.models.pieces_families import Bishops, Kings, Knights, RectangularQueens, Rooks
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal, why_none
from queens.solvers import BACKENDS as REGISTERED
from queens.solvers import Status, count, solutions, solve
from queens.solvers.backend import Task

from tests.conftest import able
from tests.plain_reference import count_model
from tests.typed_results import counted

BACKENDS = list(REGISTERED)
COUNTING = able(BACKENDS, Task.COUNT)
"""The backends that count (one that does not says so in `limits`, before any work)."""


def counts_everywhere(puzzle, backends=COUNTING) -> int:
    """The count on each backend; they must agree; the agreed count is returned."""
    found = {b: count(puzzle, b) for b in backends}
    assert all(r.status is Status.COMPLETE for r in found.values())
    values = {b: r.count for b, r in found.items()}
    assert len(set(values.values())) == 1, values
    return counted(found["native"])


# --- families with an OEIS sequence ------------------------------------------------------

# (family, OEIS sequence, sizes counted natively, sizes counted on every backend)
SEQUENCE_FAMILIES = [
    (Superqueens, "A051223", range(1, 12), [1, 4, 9, 10]),
    (Toroidal, "A051906", range(1, 14), range(1, 8)),
    (Kings, "A002464", range(1, 10), range(1, 7)),  # Hertzsprung's problem
]


@pytest.mark.parametrize("family,sequence,n", [
    pytest.param(f, seq, n, id=f"{f.__name__}-{n}") for f, seq, native, _ in SEQUENCE_FAMILIES for n in native
])
def test_native_matches_oeis(family, sequence, n, reference):
    assert count(family(n), "native").count == reference.term(sequence, n)


@pytest.mark.parametrize("family,sequence,n", [
    pytest.param(f, seq, n, id=f"{f.__name__}-{n}") for f, seq, _, everywhere in SEQUENCE_FAMILIES for n in everywhere
])
def test_every_backend_matches_oeis(family, sequence, n, reference):
    assert counts_everywhere(family(n)) == reference.term(sequence, n)


@pytest.mark.parametrize("n", range(2, 14))
def test_toroidal_zero_comes_with_polyas_reason(n, reference):
    assert (reference.term("A051906", n) == 0) == (why_none(n) is not None)


@pytest.mark.parametrize("n", range(1, 9))
def test_domination_native_matches_a075458_and_a002564(n, reference):
    result = count(Domination(n), "native")
    assert result.objective == reference.term("A075458", n)
    assert result.count == reference.term("A002564", n)


@pytest.mark.parametrize("backend,sizes", [("cpsat", range(1, 7)), ("sat", range(1, 7)), ("csp", range(1, 5))])
def test_domination_solvers_match(backend, sizes, reference):
    for n in sizes:
        result = count(Domination(n), backend)
        assert (result.objective, result.count) == (reference.term("A075458", n), reference.term("A002564", n))


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_domination_number_of_eight_is_five(backend, reference):
    result = solve(Domination(8), backend)
    assert result.status is Status.OPTIMAL
    assert result.objective == reference.term("A075458", 8) == 5


@pytest.mark.parametrize("n", range(1, 7))
def test_independent_domination_agrees(n):
    counts_everywhere(Domination(n, independent=True), ["native", "cpsat", "sat"])


# --- families with a closed form or cross-backend agreement ------------------------------

@pytest.mark.parametrize("n", range(1, 6))
def test_rooks_are_permutations(n):
    assert counts_everywhere(Rooks(n)) == factorial(n)


@pytest.mark.parametrize("n", range(2, 6))
def test_most_bishops_fit_in_two_to_the_n_ways(n):
    assert counts_everywhere(Bishops(n)) == 2 ** n


@pytest.mark.parametrize("n,k", [(3, 3), (4, 4), (4, 6)])
def test_knights_agree(n, k):
    counts_everywhere(Knights(n, k))


@pytest.mark.parametrize("n,m", [(3, 5), (4, 6), (6, 4), (5, 7)])
def test_rectangular_queens_agree(n, m):
    counts_everywhere(RectangularQueens(n, m))


@pytest.mark.parametrize("queens", [[(0, 0)], [(0, 1), (1, 3)], [(2, 2)], [(0, 0), (1, 2)]])
def test_completion_agrees(queens):
    counts_everywhere(Completion(6, queens))


def test_completion_with_no_extension_is_a_proved_no():
    puzzle = Completion(4, [(0, 0)])
    assert counts_everywhere(puzzle) == 0
    assert all(solve(puzzle, b).status is Status.INFEASIBLE for b in BACKENDS)


def test_completion_counts_partition_the_full_count(reference):
    """Fixing row 0 in each column splits Q(8) exactly: a check of fixed cells on every backend."""
    for backend in COUNTING:
        total = sum(counted(count(Completion(8, [(0, c)]), backend)) for c in range(8))
        assert total == reference.term("A000170", 8)


@pytest.mark.parametrize("pawn", [(3, 3), (1, 2), (0, 4)])
def test_nine_queens_with_a_fixed_pawn_agree(pawn):
    counts_everywhere(NineQueens(8, [pawn]))


def _nine_queens_by_hand(n: int) -> tuple[int, int]:
    """Placements and classes of n+1 queens and 1 pawn on n x n, with no symmetry reduction:
    every pawn square, counted by the plain-Python twin; classes by turning each (pawn, queens)
    configuration with the 8 symmetries written out here."""
    def turn(cells, t):
        out = set()
        for r, c in cells:
            if t & 4:
                r, c = c, r
            out.add((n - 1 - r if t & 2 else r, n - 1 - c if t & 1 else c))
        return tuple(sorted(out))
    total, classes = 0, set()
    for pawn in [(r, c) for r in range(n) for c in range(n)]:
        puzzle = NineQueens(n, [pawn])
        total += count_model(lower(puzzle))
        for placement in solutions(puzzle, "native"):
            classes.add(min((turn([pawn], t), turn(placement, t)) for t in range(8)))
    return total, len(classes)


@pytest.fixture(scope="module")
def nine_queens() -> tuple[int, int]:
    return _nine_queens_by_hand(8)


@pytest.mark.parametrize("backend", [pytest.param(b, marks=pytest.mark.slow) if b == "csp" else b for b in COUNTING])
def test_nine_queens_with_a_free_pawn(backend, nine_queens):  # csp: 14 s on a quiet core (make test-slow)
    """9 queens and 1 pawn on 8x8, with the pawn placed by the solver (128 placements)."""
    result = count(FreePawns(8, 1), backend)
    assert (result.status, result.count, result.method) == (Status.COMPLETE, nine_queens[0], "layouts")


def _classes(puzzle: Puzzle, backend: str | None = None) -> tuple[int | None, object]:
    found = count(puzzle, backend, unique=True)
    return found.count, found.stats["classes"]


def test_nine_queens_classes(nine_queens):
    assert _classes(FreePawns(8, 1), "native") == nine_queens == (128, 16)
    assert _classes(FreePawns(6, 1))[0] == count(FreePawns(6, 1), "sat").count


def test_free_pawn_weights_cover_every_layout():
    form, _ = layout_form(FreePawns(8, 2))
    assert form is not None and sum(weight for _, weight in layouts(form)) == 64 * 63 // 2


@pytest.mark.parametrize("n", range(1, 11))
def test_nqueens_classes_match_a002562(n, reference):
    assert _classes(NQueens(n)) == (reference.term("A000170", n), reference.term("A002562", n))


# --- written once: a brand-new variant, defined here, on every counting backend ------------

def no_main_diagonals(n: int) -> Puzzle:
    """Queens that may not stand on either main diagonal: only data, no solver change."""
    diagonals = {(i, i) for i in range(n)} | {(i, n - 1 - i) for i in range(n)}
    return Puzzle(rows=n, cols=n, pieces=n, holes=frozenset(diagonals), title="no main diagonals")


CAMEL_QUEEN = Piece("camel-queen", rays=QUEEN.rays, leaps=((1, 3), (3, 1), (1, -3), (3, -1)))


@pytest.mark.parametrize("n", [4, 5, 6, 8])
def test_a_new_variant_runs_everywhere_without_solver_changes(n):
    puzzle = no_main_diagonals(n)
    total = counts_everywhere(puzzle)
    by_filter = sum(
        1 for s in map(as_cells, solutions(NQueens(n), "native")) if not any(r == c or r + c == n - 1 for r, c in s)
    )
    assert total == by_filter


@pytest.mark.parametrize("n", [6, 8, 10])
def test_a_new_piece_runs_everywhere(n):
    puzzle = Puzzle(rows=n, cols=n, piece=CAMEL_QUEEN, pieces=n)
    total = counts_everywhere(puzzle)
    camel = {(1, 3), (3, 1), (1, -3), (3, -1)}
    by_filter = sum(
        1 for s in map(as_cells, solutions(NQueens(n), "native"))
        if not any((b[0] - a[0], b[1] - a[1]) in camel or (a[0] - b[0], a[1] - b[1]) in camel
                   for i, a in enumerate(s) for b in s[i + 1:])
    )
    assert total == by_filter


# --- the IR expresses every family ---------------------------------------------------------

def test_ir_shapes_of_each_family():
    families = {f.name: f for f in lower(Toroidal(5)).families}
    assert all(f.exactly_one and f.key is not None and f.key.modulus == 5 for f in families.values())

    nine_rows = lower(NineQueens(8, [(3, 3)])).family("rows")
    assert nine_rows is not None and nine_rows.exactly_one and len(nine_rows.lines) == 9
    assert nine_rows.key is None  # cut by the pawn: no row viewpoint

    dom = lower(Domination(5))
    assert dom.minimise and len(dom.covers) == 25 and not list(dom.lines)

    knights = lower(Knights(4))
    assert [f.name for f in knights.families] == ["knight leaps"]
    assert all(len(line.cells) == 2 and line.kind is LineKind.AT_MOST_ONE for line in knights.lines)

    completion = lower(Completion(6, [(0, 1)]))
    assert completion.fixed == {(0, 1)}

    rect = lower(RectangularQueens(4, 6))
    rect_rows, rect_columns = rect.family("rows"), rect.family("columns")
    assert rect_rows is not None and rect_columns is not None
    assert rect_rows.exactly_one and not rect_columns.exactly_one

    superq = lower(Superqueens(6))
    assert [f.name for f in superq.families][-1] == "superqueen leaps"


def test_symmetry_group_is_found_from_the_model():
    assert len(symmetry_group(lower(NQueens(8)))) == 8
    assert len(symmetry_group(lower(RectangularQueens(4, 6)))) == 4
    assert len(symmetry_group(lower(Completion(8, [(0, 1)])))) == 1
    assert len(symmetry_group(lower(NineQueens(8, [(3, 3), (4, 4)])))) == 4


def test_every_family_solution_passes_the_checker():
    for puzzle in [Superqueens(10), Toroidal(7), Kings(6), Bishops(4), Knights(4), NineQueens(8, [(2, 5)])]:
        result = solve(puzzle, "cpsat")
        assert result.solution is not None and verify(puzzle, result.solution) == result.solution
