"""Adding a backend or a family is one registry entry: a throw-away backend and a throw-away
multi-army family, registered in fixtures, reach the router, `explain`, the CLI and the
`make run` grid without any other edit (docs/adding-a-backend.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import combinations

import pytest
from queens.models import ROOK, ConstraintModel, Placement, Puzzle, TimeLimit
from queens.models.armies import Army
from queens.models.families import FAMILIES, Family, FamilyOptions
from queens.models.pieces import piece_named
from queens.solvers import count, solve
from queens.solvers.backend import Backend, Task
from queens.solvers.registry import BACKENDS, get_backend

from tests import army_oracle
from tests.cli import run_main

CORNERS = 65
"""A 65 x 65 board: more cells than any real backend counts on (native: 4,096; the others: 400)."""


class Brute(Backend):
    """Tries every subset of a model's cells: a backend a learner writes in an afternoon. It reads
    only the model, and answers any model small enough in variables, whatever the board's size."""

    name = "brute"
    count_limit = 1_000_000

    def supports(self, model: ConstraintModel) -> str | None:
        if model.beyond_lines:  # `_fits` reads lines, covers and fixed cells: it would ignore these
            return f"brute checks lines, covers and fixed cells only; this model also asks {model.beyond_lines}"
        if model.lex is not None or model.objective is not None or model.minimise:
            return "brute tries fixed-size subsets only"
        return None if len(model.cells) <= 12 else "brute tries subsets of at most 12 cells"

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        sizes = [model.size] if model.size is not None else range(len(model.cells) + 1)
        for size in sizes:
            for chosen in combinations(model.cells, size):
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeLimit("brute: out of time")
                if self._fits(model, set(chosen)):
                    yield tuple(chosen)

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return next(iter(self.solutions(model, deadline)), None)

    @staticmethod
    def _fits(model: ConstraintModel, chosen: set[object]) -> bool:
        if not model.fixed <= chosen:
            return False
        if any(not line.at_least <= len(chosen.intersection(line.cells)) <= line.at_most for line in model.lines):
            return False
        return all(chosen.intersection(cover) for cover in model.covers)

    def _build_for_size(self, model: ConstraintModel) -> None:
        self.stats = {"subsets": 2 ** len(model.cells)}


def corners(options: FamilyOptions) -> Puzzle:
    """One rook on the three corners left open of a 65 x 65 board: only brute counts it."""
    n = CORNERS
    keep = {(0, 0), (0, n - 1), (n - 1, 0)}
    holes = {(r, c) for r in range(n) for c in range(n)} - keep
    return Puzzle(rows=n, cols=n, pieces=1, holes=holes, title="a rook in a corner")


@pytest.fixture
def brute(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(BACKENDS, "brute", (__name__, "Brute", "nothing to install"))
    monkeypatch.setitem(FAMILIES, "corners", Family(corners, "a rook on one of three corners",
                                                    examples=(("65x65", FamilyOptions(4)),)))
    return "brute"


def test_a_new_backend_is_routed_explained_and_in_the_grid(brute):
    puzzle = corners(FamilyOptions(4))
    result = count(puzzle)
    assert (result.backend, result.count) == ("brute", 3)
    counting = [name for name in BACKENDS if name != "brute" and get_backend(name).limits(1, 1, Task.COUNT) is None]
    passed = counting  # a backend that never counts (mip) is not listed as passed over
    assert all(f"{name}/search (" in result.why for name in passed), result.why  # each says why it could not
    explained = run_main("explain", "nqueens", "-n", "4")
    assert explained.returncode == 0 and "brute" in explained.stdout
    from queens.experiments.main_job import answer

    assert answer(puzzle, "brute").count == 3


def test_a_new_backend_answers_what_it_can_and_says_why_not(brute):
    assert count(Puzzle(rows=3, cols=3, piece=ROOK, pieces=3), "brute").count == 6  # 3! permutations
    refused = run_main("count", "nqueens", "-n", "8", "-b", "brute")
    assert refused.returncode == 2 and "at most 12 cells" in refused.stderr


def _kings_and_rooks(options: FamilyOptions) -> Puzzle:
    king, rook = piece_named("king", 2), piece_named("rook", 2)
    assert king is not None and rook is not None
    n = options.n
    return Puzzle(shape=(n, n), armies=(Army("kings", king, 2, 2), Army("rooks", rook, 2, 2)), within=False,
                  title="two kings and two rooks, none attacking the other army")


@pytest.fixture
def two_armies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(FAMILIES, "kingsrooks", Family(_kings_and_rooks, "2 kings and 2 rooks, at peace",
                                                       examples=(("n=4", FamilyOptions(4)),)))


def test_a_new_multi_army_family_runs_everywhere(two_armies):
    expected = army_oracle.count_two_armies(4, ("king", 2), ("rook", 2))
    result = run_main("count", "kingsrooks", "-n", "4", "--json")
    assert result.returncode == 0 and f'"count": {expected}' in result.stdout
    assert run_main("solve", "kingsrooks", "-n", "4").returncode == 0
    assert run_main("explain", "kingsrooks", "-n", "4").returncode == 0
    for backend in ("sat", "cpsat", "csp"):
        assert count(_kings_and_rooks(FamilyOptions(4)), backend).count == expected
    assert solve(_kings_and_rooks(FamilyOptions(4))).status.value == "solved"
