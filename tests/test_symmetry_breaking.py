"""Counting with lex-leader symmetry breaking: one solution per class, weighted by its size.

Every family in the registry (models/families.py), on every backend that compiles lex chains,
counts the same with symmetry breaking on and off, and both equal the ground truth: the native
counter (which never breaks symmetry) or the oracle. Groups are found on the model, so a
completion puzzle gets a smaller one and a rectangle the Klein four-group.
"""

from __future__ import annotations

import json
import math

import pytest
from queens.models import Completion, ConstraintModel, NQueens, Puzzle, lower, symmetry_group
from queens.models.families import FAMILIES, FamilyOptions, build
from queens.models.pieces_families import RectangularQueens
from queens.models.symmetry import Orbits, lex_leader
from queens.models.toroidal import Toroidal
from queens.solvers import BACKENDS, Backend, Status, get_backend, solutions
from queens.solvers.api import breaking, count
from queens.solvers.backend import Task
from queens.solvers.routing.split_count import subproblems

from tests.cli import run_main
from tests.conftest import able
from tests.oracle import two_per_line_count
from tests.typed_results import number

ENUMERATING = [name for name in able(BACKENDS, Task.COUNT) if type(get_backend(name)).count is Backend.count]
MAX_CELLS = 64
"""Boards up to 8 x 8: every backend enumerates them without symmetry breaking in a blink..."""
MAX_BOOLEAN_CSP = 25
"""... but csp's Boolean viewpoint (no row variables), which takes seconds past 5 x 5."""


def _small(name: str) -> list[tuple[str, Puzzle]]:
    """The family's labelled examples (or n = 4, 5 without any) that are one puzzle of at most
    MAX_CELLS cells, whose model's variables are its cells (free pawns and armies have their own
    counting paths)."""
    entry = FAMILIES[name]
    examples = list(entry.examples) or [(f"n={n}", FamilyOptions(n)) for n in (4, 5)]
    built = [(label, build(name, options)) for label, options in examples]
    return [(label, p) for label, p in built if p.cells_are_variables and p.rows * p.cols <= MAX_CELLS]


CASES = [pytest.param(puzzle, id=f"{name}-{label}") for name in FAMILIES for label, puzzle in _small(name)]


def ground_truth(puzzle: Puzzle) -> int:
    """The native counter's count, or the oracle's where native cannot count (two per line)."""
    if get_backend("native").supports(lower(puzzle)) is None:
        found = count(puzzle, "native", counter="simple")
        assert found.status is Status.COMPLETE
        assert found.count is not None
        return found.count
    assert puzzle.line_cap == 2 and puzzle.rows == puzzle.cols, "no ground truth for this puzzle"
    return two_per_line_count(puzzle.rows)


def _leading(puzzle: Puzzle) -> ConstraintModel:
    return lex_leader(lower(puzzle), symmetry_group(lower(puzzle)))


def _breaks(backend: str, puzzle: Puzzle) -> bool:
    return get_backend(backend).supports(_leading(puzzle)) is None


@pytest.mark.parametrize("backend", ENUMERATING)
@pytest.mark.parametrize("puzzle", CASES)
def test_every_family_counts_alike_with_and_without_symmetry_breaking(puzzle, backend):
    engine = get_backend(backend)
    refused = engine.supports(lower(puzzle))
    if refused is not None:
        pytest.skip(refused)
    if not _breaks(backend, puzzle):
        pytest.skip(f"{backend} compiles no lex chains: {get_backend(backend).supports(_leading(puzzle))}")
    if backend == "csp" and lower(puzzle).row_family is None and puzzle.rows * puzzle.cols > MAX_BOOLEAN_CSP:
        pytest.skip("csp's Boolean viewpoint is slow past 5 x 5")
    truth = ground_truth(puzzle)
    broken = count(puzzle, backend, split=False, symmetry=True)
    plain = count(puzzle, backend, split=False, symmetry=False)
    assert (broken.count, plain.count) == (truth, truth)
    assert plain.stats["symmetry"] == "off (asked)"
    group = symmetry_group(lower(puzzle))
    if len(group) > 1:
        assert str(broken.stats["symmetry"]).startswith(f"lex-leader over a group of {len(group)}")
        assert number(broken.stats, "enumerated") <= number(plain.stats, "enumerated")


@pytest.mark.parametrize("backend", ENUMERATING)
def test_a_completion_puzzle_breaks_its_own_smaller_group(backend):
    puzzle = Completion(8, [(0, 0)])  # the corner queen keeps the transpose only
    assert [t.name for t in symmetry_group(lower(puzzle))] == ["identity", "transpose"]
    result = count(puzzle, backend, split=False, symmetry=True)
    assert result.count == ground_truth(puzzle)
    if _breaks(backend, puzzle):
        assert str(result.stats["symmetry"]).startswith("lex-leader over a group of 2")


@pytest.mark.parametrize("backend", ENUMERATING)
def test_a_rectangle_breaks_the_klein_group(backend):
    puzzle = RectangularQueens(5, 7)
    assert len(symmetry_group(lower(puzzle))) == 4
    result = count(puzzle, backend, split=False, symmetry=True)
    assert result.count == ground_truth(puzzle)
    if _breaks(backend, puzzle):
        assert str(result.stats["symmetry"]).startswith("lex-leader over a group of 4")


def test_an_off_centre_queen_leaves_nothing_to_break():
    result = count(Completion(8, [(0, 1)]), "sat", split=False, symmetry=True)
    assert str(result.stats["symmetry"]).startswith("none to break")


def test_a_backend_without_lex_chains_counts_every_solution_and_says_why():
    """native refuses lex chains; when asked to enumerate-count it never is (it counts natively),
    so the refusal is read through `breaking`, as `count` reads it for minizinc."""
    chosen = breaking(get_backend("native"), lower(NQueens(6)), True)
    assert chosen.orbits is None and chosen.note.startswith("off (native: ")


@pytest.mark.parametrize("backend", [b for b in ENUMERATING if b != "minizinc"])
@pytest.mark.parametrize("puzzle", [NQueens(8), Toroidal(7), Completion(9, [(4, 4)])], ids=str)
@pytest.mark.parametrize("symmetry", [True, False])
def test_the_split_weighs_orbits_once(puzzle, backend, symmetry):
    """With lex chains the split gives every subproblem weight 1 and the whole puzzle's group."""
    result = count(puzzle, backend, split=True, processes=1, symmetry=symmetry)
    assert result.status is Status.COMPLETE
    assert result.count == ground_truth(puzzle)


def test_leaders_are_one_per_class_and_their_orbits_add_up(reference):
    """Through Orbits: of Q(8)'s 92 solutions (native, no symmetry), 12 lead their class (A002562)."""
    model = lower(NQueens(8))
    orbits = Orbits(model, symmetry_group(model))
    sizes = [orbits.size(s) for s in solutions(NQueens(8), "native")]
    leaders = [s for s in sizes if s is not None]
    assert len(leaders) == reference.term("A002562", 8)
    assert sum(leaders) == reference.term("A000170", 8)


def test_split_drops_subproblems_that_hold_no_leader():
    model = lower(NQueens(6))
    leading = lex_leader(model, symmetry_group(model))
    kept = subproblems(leading, lines=1)
    assert {s.weight for s in kept} == {1}
    assert sorted(c for s in kept for (_, c) in s.fixed) == [0, 1, 2]  # the left half of a middle row


def test_the_cli_turns_symmetry_breaking_off_and_says_so():
    broken = json.loads(run_main("count", "nqueens", "-n", "8", "-b", "sat", "--json").stdout)
    plain = json.loads(run_main("count", "nqueens", "-n", "8", "-b", "sat", "--no-symmetry", "--json").stdout)
    assert broken["count"] == plain["count"] == ground_truth(NQueens(8))
    assert broken["stats"]["symmetry"].startswith("lex-leader over a group of 8")
    assert plain["stats"]["symmetry"] == "off (asked)"
    refused = run_main("count", "nqueens", "-n", "8", "-b", "native", "--no-symmetry")
    assert refused.returncode != 0 and "symmetry: not an option of native" in refused.stderr


@pytest.mark.parametrize("backend", [name for name in ENUMERATING if get_backend(name).lex_from_cells is not None])
def test_by_default_small_boards_count_without_chains_and_larger_ones_with_them(backend):
    """The default (symmetry=None) breaks symmetry from the backend's `lex_from_cells` up, and
    says why not below it; both counts are the OEIS terms."""
    threshold = get_backend(backend).lex_from_cells
    assert threshold is not None
    small, large = math.isqrt(threshold - 1), math.isqrt(threshold - 1) + 1  # the sides either side of it
    below, above = count(NQueens(small), backend, split=False), count(NQueens(large), backend, split=False)
    assert (below.count, above.count) == (ground_truth(NQueens(small)), ground_truth(NQueens(large)))
    assert below.stats["symmetry"] == f"off (under {threshold} cells the chains cost more than they save)"
    if _breaks(backend, NQueens(large)):
        assert str(above.stats["symmetry"]).startswith("lex-leader over a group of 8")


@pytest.mark.parametrize("backend", [name for name in ENUMERATING if get_backend(name).lex_from_cells is None])
@pytest.mark.parametrize("n", [6, 8])
def test_a_backend_the_chains_never_pay_for_counts_every_solution_by_default(backend, n):
    """minizinc (Gecode) counts faster without the chains on every board measured: by default it
    breaks no symmetry and says why; asked, it still breaks it; both counts are the OEIS terms."""
    plain, asked = count(NQueens(n), backend, split=False), count(NQueens(n), backend, split=False, symmetry=True)
    assert plain.count == asked.count == ground_truth(NQueens(n))
    assert plain.stats["symmetry"] == f"off ({backend}: the chains cost more than they save on every board)"
    assert str(asked.stats["symmetry"]).startswith("lex-leader over a group of 8")
