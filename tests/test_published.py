"""Published puzzles, written as files (models/puzzles/published/), reach their published values on every
backend that supports them.

Each file names its OEIS sequence in its file name; the terms are the repo's copy
(tests/data/sequences.json, with their source). A count is the number of solutions, an optimum
the proved best value; every answer is re-checked by the independent checker on the way (the
router verifies what a backend returns). A backend that refuses says why, and at least one
answers every case: agreement is with the published value, never only between backends.
"""

from __future__ import annotations

import pytest
from queens.models import lower
from queens.models.errors import Refused
from queens.models.ninequeens import FreePawns
from queens.models.puzzle_file import PUBLISHED, read
from queens.solvers.backend import Task
from queens.solvers.registry import BACKENDS
from queens.solvers.routing.router import route
from queens.solvers.routing.strategy import Subject

import queens

PUZZLES = PUBLISHED
CASES = {  # file stem: the n checked on every backend (small enough for each to answer in seconds)
    "A103330-queens-and-a-pawn": (5, 6),
    "A007016-one-per-main-diagonal": (4, 5, 6),
    "A033148-quarter-turn-queens": (4, 5, 6),
    "A137279-moebius-queens": (3, 4, 5),
    "A261752-total-knight-domination": (4, 5),
    "A260113-attacking-at-most-one": (3, 4, 5),
    "A051756-attacking-exactly-three": (2, 3, 4),
    "A006317-three-colours": (2, 3),
    "A000755-no-three-in-line": (3, 4, 5),
    "A370428-connected-king-domination": (3, 4, 5),
    "A143870-kings-at-most-one-attacking-pair": (2, 3),
    "A342151-most-safe-squares": (1, 2),
    "A171760-most-disjoint-solutions": (4,),
    "A075692-upper-irredundance-queens": (2, 3, 4),
    "A075709-upper-irredundance-kings": (3, 4, 5),
    "A248744-minimal-rook-domination": (2, 3),
}


SLOW = {("A171760-most-disjoint-solutions", "csp"), ("A260113-attacking-at-most-one", "mip"),
        ("A342151-most-safe-squares", "cpsat"), ("A342151-most-safe-squares", "csp"),
        ("A103330-queens-and-a-pawn", "minizinc"), ("A075709-upper-irredundance-kings", "csp"),
        ("A075709-upper-irredundance-kings", "mip"), ("A075692-upper-irredundance-queens", "mip")}
"""(file, backend) pairs that took past 4 s in a `make test` run (csp proving that no third
disjoint solution fits on 4 x 4: 13 s; mip on A260113: 12 s): `make test-slow`. Each of these
files is answered in `make test` by the other backends."""


def test_every_published_puzzle_is_checked():
    assert {path.stem for path in PUZZLES.glob("*.toml")} == set(CASES)


@pytest.mark.parametrize("stem", sorted(CASES))
def test_each_published_puzzle_has_a_backend_that_answers_it(stem: str) -> None:
    """The router finds a strategy for every case (which strategy is the router's business)."""
    for n in CASES[stem]:
        spec = read(PUZZLES / f"{stem}.toml", n)
        task = Task.OPTIMISE if spec.task == "optimise" else Task.COUNT
        assert route(task, Subject(spec.puzzle)).strategy.name


@pytest.mark.parametrize(("stem", "backend"), [
    pytest.param(stem, backend, marks=[pytest.mark.slow] if (stem, backend) in SLOW else [])
    for stem in sorted(CASES) for backend in BACKENDS])
def test_published_values(stem: str, backend: str, reference) -> None:
    """The backend reaches the published term for each n, or refuses the puzzle saying why."""
    path, sequence = PUZZLES / f"{stem}.toml", stem.split("-")[0]
    for n in CASES[stem]:
        spec = read(path, n)
        try:
            if spec.task == "optimise":
                result = queens.optimise(spec.puzzle, backend, time_limit=60)
                assert result.objective == reference.term(sequence, n), (backend, n)
            else:
                result = queens.count(spec.puzzle, backend, time_limit=60)
                assert result.count == reference.term(sequence, n), (backend, n)
        except Refused as refused:
            assert str(refused), backend


@pytest.mark.parametrize("n", (6, 7, 8))
def test_free_pawns_is_the_a103330_file_and_both_are_counted_by_layouts(n: int, reference) -> None:
    """`ninequeens --pawns 1` builds the very puzzle the A103330 file writes (one lowered model),
    and the router counts both by their pawn layouts (the structure, not a name), reaching the
    published term."""
    spec = read(PUZZLES / "A103330-queens-and-a-pawn.toml", n)
    family = FreePawns(n, 1)
    assert lower(spec.puzzle) == lower(family)
    for puzzle in (spec.puzzle, family):
        assert route(Task.COUNT, Subject(puzzle)).strategy.name == "native/layouts"
        result = queens.count(puzzle)
        assert (result.method, result.count) == ("layouts", reference.term("A103330", n))


@pytest.mark.parametrize("n", (5, 6))
def test_the_whole_model_of_free_pawns_agrees_with_its_layouts(n: int, reference) -> None:
    """The general model (sat's search, no layouts) reaches the same term: the two paths differ."""
    found = queens.count(FreePawns(n, 1), "sat", method="search")
    assert (found.method, found.count) == ("search", reference.term("A103330", n))
