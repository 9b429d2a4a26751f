"""Families whose counts have no OEIS sequence in the suite, against the brute-force oracle.

The oracle (tests/oracle.py) shares no code with `queens.models`: agreement between our own
backends alone would prove nothing, so each count here is also a count of the rules themselves.
"""

from __future__ import annotations

import pytest
from queens.models.completion import Completion
from queens.models.domination import Domination
from queens.models.ninequeens import FreePawns, NineQueens
from queens.models.pieces_families import Knights, RectangularQueens
from queens.solvers import count

from tests.oracle import Oracle


@pytest.mark.parametrize("n,k", [(3, 3), (4, 4), (4, 6), (5, 5)])
def test_knights(n: int, k: int) -> None:
    assert count(Knights(n, k), "native").count == Oracle(n, n, "knight").count(k)


@pytest.mark.parametrize("rows,cols", [(3, 5), (4, 6), (6, 4), (5, 6)])
def test_rectangular_queens(rows: int, cols: int) -> None:
    assert count(RectangularQueens(rows, cols), "native").count == Oracle(rows, cols, "queen").count(min(rows, cols))


@pytest.mark.parametrize("queens", [[(0, 0)], [(0, 1), (1, 3)], [(2, 2)], [(0, 0), (1, 2)], [(1, 4), (4, 0), (5, 3)]])
def test_completion(queens: list[tuple[int, int]]) -> None:
    oracle = Oracle(6, 6, "queen", fixed=frozenset(queens))
    assert count(Completion(6, queens), "native").count == oracle.count(6)


@pytest.mark.parametrize("pawn", [(2, 2), (1, 2), (0, 3), (2, 3)])
def test_nine_queens_with_a_fixed_pawn(pawn: tuple[int, int]) -> None:
    """n + 1 queens and one pawn on 6 x 6 (the 8 x 8 puzzle, small enough to try every subset)."""
    assert count(NineQueens(6, [pawn]), "native").count == Oracle(6, 6, "queen", pawns=frozenset({pawn})).count(7)


def test_nine_queens_with_a_free_pawn() -> None:
    total = sum(Oracle(6, 6, "queen", pawns=frozenset({(r, c)})).count(7) for r in range(6) for c in range(6))
    assert count(FreePawns(6, 1), "native").count == total


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("independent", [False, True])
def test_domination(n: int, independent: bool) -> None:
    result = count(Domination(n, independent=independent), "native")
    assert (result.objective, result.count) == Oracle(n, n, "queen").fewest(independent=independent)


@pytest.mark.parametrize("n", range(1, 8))
def test_the_oracle_itself_counts_oeis_terms(n: int, reference) -> None:
    """The oracle on sequences everybody can look up: queens A000170, toroidal queens A051906."""
    assert Oracle(n, n, "queen").count(n) == reference.term("A000170", n)
    assert Oracle(n, n, "queen", torus=True).count(n) == reference.term("A051906", n)
