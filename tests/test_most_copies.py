"""`copies = "maximise"`: the most disjoint copies of an army on one board (A171760), checked
against a brute force written here (every n-queens solution by permutations, then the largest
set of pairwise disjoint ones) and the OEIS terms."""

from __future__ import annotations

from itertools import permutations

import pytest
from queens.models.armies import Army
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, read
from queens.solvers.backend import Task
from queens.solvers.routing.router import route
from queens.solvers.routing.strategy import Subject

import queens
from tests.conftest import Reference


def _most_disjoint(n: int) -> int:
    """The largest set of pairwise disjoint n-queens solutions (a clique search, by hand)."""
    solutions = [frozenset(enumerate(p)) for p in permutations(range(n))
                 if len({r + c for r, c in enumerate(p)}) == n and len({r - c for r, c in enumerate(p)}) == n]

    def grow(chosen: list[frozenset[tuple[int, int]]], rest: list[frozenset[tuple[int, int]]]) -> int:
        best = len(chosen)
        for i, s in enumerate(rest):
            best = max(best, grow([*chosen, s], [t for t in rest[i + 1:] if not t & s]))
        return best
    return grow([], solutions)


@pytest.mark.parametrize("n", (4, 5, 6, 7))
def test_the_most_disjoint_solutions_match_a_brute_force_and_a171760(n: int, reference: Reference) -> None:
    brute = _most_disjoint(n)
    assert brute == reference.term("A171760", n)
    puzzle = read(PUBLISHED / "A171760-most-disjoint-solutions.toml", n).puzzle
    for backend in ("cpsat", "sat"):
        result = queens.optimise(puzzle, backend)
        assert (result.status.value, result.objective, result.method) == ("optimal", brute, "most-copies"), backend
        assert result.solution is not None and len(result.solution) == n * brute


def test_the_fewest_copies_are_still_the_colouring_and_the_most_refuse_what_fewer_copies_may_break() -> None:
    assert route(Task.OPTIMISE, Subject(Puzzle(shape=(4, 4), armies=(Army(count="maximise", copies="minimise"),),
                                               between=False))).strategy.method != "most-copies"
    empty = Puzzle(shape=(4, 4), armies=(Army(copies="maximise"),), between=False)
    with pytest.raises(queens.QueensError, match="fits any number of times"):
        queens.optimise(empty, "cpsat")
    covered = Puzzle(shape=(4, 4), armies=(Army(count=2, copies="maximise"),), between=False, cover=True)
    with pytest.raises(queens.QueensError, match="fewer copies keep; this puzzle has a cover"):
        queens.optimise(covered, "cpsat")


@pytest.mark.parametrize("n", (4, pytest.param(5, marks=pytest.mark.slow)))  # 5: 5 s
def test_the_most_copies_are_certified_by_refuting_one_more(n: int, reference: Reference) -> None:
    """--certify on the most copies k: the witness of k checked, and a proof (both checkers) that
    k + 1 copies have none; on 5 x 5, 6 copies do not fit by counting, proved on the model too."""
    puzzle = read(PUBLISHED / "A171760-most-disjoint-solutions.toml", n).puzzle
    result = queens.solve(puzzle, certify=True)
    best = reference.term("A171760", n)
    assert result.objective == best and result.certificate is not None
    assert (result.certificate.claim, result.certificate.value, result.certificate.refuted) == (
        "optimum", best, f"{best + 1} copies")
    assert result.certificate.checked_by_both


def test_a_no_by_counting_is_certified_too() -> None:
    """5 knights on 2 x 2: the pigeonhole's "no" is re-proved through the CNF (the size's
    cardinality is the empty clause), not refused by the lowering."""
    result = queens.solve(Puzzle(shape=(2, 2), armies=(Army(piece="knight", count=5),)), certify=True)
    assert result.status.value == "no solution" and result.certificate is not None
    assert result.certificate.claim == "no solution" and result.certificate.checked_by_both
