"""A size that fills a family (`ConstraintModel.filled`): n pieces on the n rows of an n x n board
leave one on each. The deduction must lose no solution (counted against A000170 by a counter
that shares nothing with it), and an optimiser that asks the filled top first
(`Backend.optimise`) must still prove the published optimum on every backend, and the true one
when the top is not reached."""

import pytest
from queens.experiments.bench_mip import independent
from queens.models import Puzzle, lower
from queens.models.armies import Army
from queens.models.pieces import piece_named
from queens.solvers.registry import get_backend

import queens

OPTIMISERS = ("native", "cpsat", "sat", "csp", "mip")


@pytest.mark.parametrize("n", range(4, 9))
def test_n_queens_fill_the_rows_and_columns_and_no_fewer_do(n):
    model = lower(independent("queen", n))
    assert model.fills(n) and not model.fills(n - 1)
    exact = {family.name: family.exact for family in model.with_size(n).families}
    assert sorted(name for name, k in exact.items() if k == 1) == sorted(
        family.name for family in model.families if len(family.lines) == n and family.exact is None
        and sum(len(line.cells) for line in family.lines) == n * n)
    assert model.with_size(n).size_implied and not model.with_size(n - 1).size_implied


@pytest.mark.parametrize("n", range(4, 10))
def test_the_filled_model_keeps_every_maximum_set_of_independent_queens(n, reference):
    """The maximum independent sets of queens are the n-queens solutions: A000170(n) of them."""
    found = list(get_backend("native").solutions(lower(independent("queen", n)).with_size(n), None))
    assert len(set(found)) == len(found) == reference.term("A000170", n)


@pytest.mark.parametrize("backend", OPTIMISERS)
@pytest.mark.parametrize("piece, n, best", [("queen", 8, 8), ("rook", 6, 6), ("queen", 3, 2), ("bishop", 5, 8)])
def test_every_optimiser_proves_the_independence_number(backend, piece, n, best):
    """Queens and rooks reach the filled top; three queens on 3 x 3 do not (the top is asked
    first, refuted, and the ascent goes on); bishops' diagonals leave two corners off every
    line, so nothing is filled."""
    result = queens.optimise(independent(piece, n), backend, time_limit=60)
    assert result.status.name == "OPTIMAL" and result.objective == best, result


def test_a_board_with_a_given_piece_fills_the_rows_it_leaves():
    """A given queen counts in its row: 8 on 8 x 8 still fill the rows, and the answer keeps it."""
    moves = piece_named("queen", 2)
    assert moves is not None
    puzzle = Puzzle(shape=(8, 8), armies=(Army("queen", moves, goal="maximise", fixed=frozenset({(0, 0)})),))
    result = queens.optimise(puzzle, "native", time_limit=60)
    assert result.objective == 8 and result.solution is not None and (0, (0, 0)) in result.solution
