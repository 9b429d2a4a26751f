"""Boards with nothing to place on: every backend answers them as the rules say, not by a search
over nothing (a board of holes once gave csp "no solution" where the optimum is 0, and sat an
IndexError; issue "Nothing silently wrong")."""

from __future__ import annotations

import pytest
from queens.models import Puzzle
from queens.models.armies import Army
from queens.models.errors import Refused
from queens.solvers.registry import BACKENDS
from queens.solvers.result import Status

import queens

EVERY_CELL = frozenset((r, c) for r in range(3) for c in range(3))


def _most(**board: object) -> Puzzle:
    return Puzzle(shape=(3, 3), armies=(Army("queens", goal="maximise"),), **board)  # type: ignore[arg-type]


def _fewest_covering(**board: object) -> Puzzle:
    return Puzzle(shape=(3, 3), armies=(Army("queens", goal="minimise"),), within=False, cover=True,
                  **board)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize(("puzzle", "optimum"), [
    (_most(holes=EVERY_CELL), 0),                 # no piece fits: the empty placement is the best
    (_fewest_covering(holes=EVERY_CELL), None),   # holes must be covered, and nothing can cover them
    (_fewest_covering(missing=EVERY_CELL), 0),    # missing squares need no covering
], ids=["most-on-holes", "cover-of-holes", "cover-of-missing"])
def test_a_board_with_no_open_cell(puzzle: Puzzle, optimum: int | None, backend: str) -> None:
    try:
        result = queens.optimise(puzzle, backend, time_limit=30)
    except Refused as refused:
        pytest.skip(str(refused))
    if optimum is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert (result.status, result.objective) == (Status.OPTIMAL, optimum)
