"""Why not: the subset `queens why` shows is the smallest, checked by brute force over every
subset of the givens: over every n-queens solution of small boards for completions, by the puzzle
oracle (tests/puzzle_oracle.py) for counts, per-line bounds and regions; neither shares anything
with the lowering or the solver."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache, partial

import pytest
from queens.models import Completion, ConstraintModel, Placement, Puzzle, lower, verify
from queens.models.givens import Given, givens_of, stated_rules, with_givens
from queens.models.ninequeens import FreePawns
from queens.models.puzzle_file import SHIPPED, loads
from queens.models.rules import AttackBound, Region
from queens.solvers.proofs.why import HasSolution, in_words, why_not, why_not_puzzle

from queens.cli import main
from tests import puzzle_oracle, schemas


@cache
def all_queens(n: int) -> tuple[frozenset[tuple[int, int]], ...]:
    """Every n-queens solution, by trying every permutation (n <= 8)."""
    return tuple(frozenset(enumerate(p)) for p in itertools.permutations(range(n))
                 if len({r - c for r, c in enumerate(p)}) == n and len({r + c for r, c in enumerate(p)}) == n)


def solvable(n: int, givens: list[Given]) -> bool:
    """Whether some n-queens solution holds every given piece and leaves every hole empty; without
    the count of n queens, the given pieces alone are one (they do not attack each other)."""
    pieces = {g.cell for g in givens if g.kind == "piece"}
    holes = {g.cell for g in givens if g.kind == "hole"}
    if not any(g.kind == "count" for g in givens):
        return True
    return any(pieces <= s and not holes & s for s in all_queens(n))


def random_infeasible(rng: random.Random, n: int, holes: int) -> Puzzle | None:
    """Some non-attacking queens (and holes) that no solution extends, or None."""
    cells: list[tuple[int, int]] = []
    for r in rng.sample(range(n), rng.randint(2, n - 2)):
        c = rng.randrange(n)
        if all(c != c2 and r - c != r2 - c2 and r + c != r2 + c2 for r2, c2 in cells):
            cells.append((r, c))
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cells]
    puzzle = replace(Completion(n, cells), holes=frozenset(rng.sample(free, holes)))
    return None if solvable(n, givens_of(puzzle)) else puzzle


def _model(puzzle: Puzzle, givens: Sequence[Given]) -> ConstraintModel:
    return lower(with_givens(puzzle, givens))


def _guarded(puzzle: Puzzle, givens: Sequence[Given]) -> ConstraintModel:
    return lower(with_givens(puzzle, [*givens, *stated_rules(puzzle)]), guarded=True)


def _checked(puzzle: Puzzle, givens: Sequence[Given], placement: Placement) -> object:
    return verify(with_givens(puzzle, givens), placement)


def test_the_subset_is_minimal_on_50_random_infeasible_completions() -> None:
    rng = random.Random(22)
    checked = 0
    while checked < 50:
        puzzle = random_infeasible(rng, rng.choice((5, 6, 7, 8)), holes=rng.choice((0, 0, 2)))
        if puzzle is None:
            continue
        givens = givens_of(puzzle)
        answer = why_not(givens, partial(_model, puzzle), fixes=partial(Given.literal, puzzle=puzzle),
                         guarded=partial(_guarded, puzzle), check=partial(_checked, puzzle))
        subset = list(answer.subset)
        assert set(subset) <= set(givens)
        assert not solvable(puzzle.rows, subset)
        for i in range(len(subset)):
            assert solvable(puzzle.rows, subset[:i] + subset[i + 1:]), (puzzle, subset, i)
        assert len(answer.witnesses) == len(subset)
        checked += 1


def fewest_by_brute_force(givens: Sequence[Given], has_solution: Callable[[list[Given]], bool]) -> int:
    """The size of a smallest subset of `givens` with no solution: every subset, smallest first."""
    for size in range(len(givens) + 1):
        if any(not has_solution(list(subset)) for subset in itertools.combinations(givens, size)):
            return size
    raise AssertionError("the givens together have a solution")


def test_the_subset_is_the_smallest_on_60_random_infeasible_completions() -> None:
    """The hitting-set search's subset is as small as the smallest a brute force over every subset
    finds, and says it is proved; on some of them the deletion's irreducible set is larger (the
    audit's 9 of 46; 3 of these 60), so the test tells the two apart."""
    rng = random.Random(37)
    checked = larger = 0
    while checked < 60:
        puzzle = random_infeasible(rng, rng.choice((6, 7, 8)), holes=rng.choice((0, 0, 2, 3)))
        if puzzle is None:
            continue
        givens, n = givens_of(puzzle), puzzle.rows
        answer = why_not_puzzle(puzzle)
        subset = list(answer.subset)
        fewest = fewest_by_brute_force(givens, partial(solvable, n))
        assert (len(subset), answer.fewest, answer.bound) == (fewest, True, fewest), (puzzle, subset)
        assert not solvable(n, subset)
        assert all(solvable(n, subset[:i] + subset[i + 1:]) for i in range(len(subset)))
        larger += answer.irreducible > fewest
        checked += 1
    assert larger >= 2


def test_the_issue_case_names_three_givens_and_says_fewest(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37: the deletion named 4 givens (1,5 5,4 6,1 and the count); 0,3 4,6 and the count
    already have none."""
    out = run(capsys, "why", "completion", "-n", "7", "--queens", "0,3 1,5 4,6 5,4 6,1")
    assert "These 3 of its 6 givens have none by themselves, and no fewer of them do (the fewest, proved)" in out
    assert "  queen at 0,3\n  queen at 4,6\n  exactly 7 queens in all\n" in out
    data = json.loads(run(capsys, "why", "completion", "-n", "7", "--queens", "0,3 1,5 4,6 5,4 6,1", "--json"))
    assert (data["details"]["fewest"], data["details"]["bound"], data["details"]["irreducible"]) == (True, 3, 4)


def test_an_answer_not_proved_the_fewest_says_so() -> None:
    """Stopped by the time limit after the deletion: "none can be dropped", and the bound proved;
    without the search (fewest=False), no bound beyond the trivial one is claimed."""
    puzzle = Completion(7, [(0, 3), (1, 5), (4, 6), (5, 4), (6, 1)])
    irreducible = why_not_puzzle(puzzle, fewest=False)
    assert (len(irreducible.subset), irreducible.fewest) == (4, False)
    assert "none of them can be dropped, but a smaller set was not ruled out" in in_words(puzzle, irreducible)[0]
    bounded = replace(irreducible, bound=3)
    assert in_words(puzzle, bounded)[0].endswith("(every set with none has at least 3: proved); found and checked "
                                                 f"in {bounded.seconds + bounded.check_seconds:.3f} s:")


def test_a_puzzle_with_a_solution_has_nothing_to_explain() -> None:
    puzzle = Completion(8, [(0, 0)])
    with pytest.raises(HasSolution):
        why_not_puzzle(puzzle)


def test_holes_are_explained_by_rebuilding() -> None:
    """Without `fixes`, every given is answered by rebuilding the model: a minimal subset too."""
    rng = random.Random(5)
    puzzle = None
    while puzzle is None:
        puzzle = random_infeasible(rng, 6, holes=3)
    build = lambda gs: lower(with_givens(puzzle, gs))  # noqa: E731 - one line, used twice
    fast = why_not_puzzle(puzzle)
    slow = why_not(givens_of(puzzle), build)
    for answer in (fast, slow):
        subset = list(answer.subset)
        assert not solvable(6, subset)
        assert all(solvable(6, subset[:i] + subset[i + 1:]) for i in range(len(subset)))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The command run in this process (the worktree's code, not the installed script's)."""
    with pytest.raises(SystemExit) as finished:
        main(list(args))
    assert finished.value.code == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_the_command_lists_and_draws_the_subset(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "why", "completion", "-n", "8", "--queens", "3,0 4,7 6,4 1,3 0,6", "--certify")
    assert "queen at 0,6\n  queen at 6,4\n  exactly 8 queens in all" in out  # deletion alone named 1,3 and 3,0 too
    assert ". . . . . . Q ." in out and ". . . . Q . . ." in out
    assert "drup valid" in out and ("dratify (native) valid" in out or "dratify (python) valid" in out)


def test_the_command_names_two_attacking_queens(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "why", "completion", "-n", "8", "--queens", "0,0 1,1", "--json")
    assert '"queen at 0,0"' in out and '"queen at 1,1"' in out


def test_the_json_has_the_one_shape(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/queens-output.schema.json, as every command's --json; the certificate its top-level key."""
    out = run(capsys, "why", "completion", "-n", "5", "--queens", "0,0 1,2 4,1", "--json", "--certify")
    data = json.loads(out)
    schemas.validate(data)
    assert data["status"] == "no solution"
    assert [g["name"] for g in data["details"]["subset"]] == ["queen at 0,0", "queen at 4,1", "exactly 5 queens in all"]
    assert data["details"]["subset"][-1]["cell"] is None  # a rule has no square
    assert data["certificate"]["proved"] and data["certificate"]["claim"] == "no solution"


def assert_minimal(puzzle: Puzzle, subset: list[Given]) -> None:
    """The puzzle oracle's word (tests/puzzle_oracle.py): the subset alone has no solution, and
    without any one of its givens it has one."""
    assert not puzzle_oracle.has_solution(with_givens(puzzle, subset)), subset
    for i in range(len(subset)):
        assert puzzle_oracle.has_solution(with_givens(puzzle, subset[:i] + subset[i + 1:])), (subset, i)


def test_a_count_too_high_is_the_culprit_by_itself() -> None:
    """9 queens on 8 x 8 (no given but the count); 6 on 5 x 5 re-checked by the puzzle oracle."""
    assert [g.name for g in why_not_puzzle(Puzzle(rows=8, cols=8, pieces=9)).subset] == ["exactly 9 queens in all"]
    small = Puzzle(rows=5, cols=5, pieces=6, fixed=[(0, 0)])
    subset = list(why_not_puzzle(small).subset)
    assert [g.kind for g in subset] == ["count"]
    assert_minimal(small, subset)


def test_an_army_is_named_once_in_its_count() -> None:
    """Free pawns: the queens' army is called "queens", and its count says so once."""
    answer = why_not_puzzle(FreePawns(4, 1))
    assert [g.name for g in answer.subset] == ["exactly 5 queens in all"]


def test_a_two_per_line_file_with_a_count_too_high_names_the_count_and_one_bound() -> None:
    text = (SHIPPED / "two-per-line.toml").read_text().replace('count = "2*n"', 'count = "2*n + 1"')
    puzzle = loads(text, n=3).puzzle
    subset = list(why_not_puzzle(puzzle).subset)
    assert [g.kind for g in subset] == ["count", "per line"]
    assert subset[0].name == "exactly 7 rooks in all" and subset[1].name in (
        "exactly 2 pieces on every row", "exactly 2 pieces on every column")
    assert_minimal(puzzle, subset)


def random_region_completion(rng: random.Random) -> Puzzle:
    """n queens on 5 x 5 or 6 x 6 with a few placed (not attacking) and a region or two with a
    bound (some cells holding exactly one, or at most none)."""
    n = rng.choice((5, 6))
    cells: list[tuple[int, int]] = []
    for r, c in rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, 3)):
        if all(r != r2 and c != c2 and abs(r - r2) != abs(c - c2) for r2, c2 in cells):
            cells.append((r, c))
    board = [(r, c) for r in range(n) for c in range(n)]
    regions = tuple(Region(frozenset(rng.sample(board, rng.randint(2, 2 * n))), *rng.choice(((1, 1), (0, 0), (2, 2))),
                           name=name) for name in "AB"[:rng.randint(1, 2)])
    return Puzzle(rows=n, cols=n, pieces=n, fixed=cells, regions=regions)


def test_placed_queens_against_a_region_named_and_minimal_on_random_puzzles() -> None:
    """Random completions with regions that have no solution: the subset is minimal by the puzzle
    oracle, and on some of them the region is part of the reason."""
    rng = random.Random(2022)
    checked = with_region = 0
    while checked < 8:
        puzzle = random_region_completion(rng)
        if puzzle_oracle.has_solution(puzzle):
            continue
        subset = list(why_not_puzzle(puzzle).subset)
        assert set(subset) <= set(givens_of(puzzle))
        assert_minimal(puzzle, subset)
        with_region += any(g.kind == "region" for g in subset)
        checked += 1
    assert with_region >= 2


@pytest.mark.slow
def test_the_fewest_with_regions_equals_a_brute_force_over_every_subset() -> None:
    """The random region puzzles above: the subset is as small as the smallest any subset of the
    givens gives, by the puzzle oracle over all of them (slow: the oracle searches each)."""
    rng = random.Random(2022)
    checked = 0
    while checked < 8:
        puzzle = random_region_completion(rng)
        if puzzle_oracle.has_solution(puzzle):
            continue
        answer = why_not_puzzle(puzzle)
        oracle = lambda gs, p=puzzle: puzzle_oracle.has_solution(with_givens(p, gs))  # noqa: E731
        assert (len(answer.subset), answer.fewest) == (fewest_by_brute_force(givens_of(puzzle), oracle), True)
        checked += 1


def test_an_attack_bound_is_a_given() -> None:
    """Queens that may attack (within = "free"), each attacking at most one other, five on 3 x 3:
    the count and the bound together, and nothing else, have no solution."""
    puzzle = replace(Puzzle(rows=3, cols=3, pieces=5), within=False, attack_bounds=(AttackBound(most=1),))
    subset = list(why_not_puzzle(puzzle).subset)
    assert [g.name for g in subset] == ["exactly 5 queens in all", "every piece attacks at most 1 other"]
    assert_minimal(puzzle, subset)


def test_the_time_limit_bounds_the_search_and_the_answer_says_what_it_proved(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`--time-limit`: within it here (the search takes milliseconds), so the fewest, proved; the
    JSON says so with the bound, the deletion's size and the hitting sets tried."""
    data = json.loads(run(capsys, "why", "completion", "-n", "8", "--queens", "3,0 4,7 6,4 1,3 0,6", "--json",
                          "--time-limit", "30"))
    details = data["details"]
    assert (details["fewest"], details["bound"], len(details["subset"])) == (True, 3, 3)
    assert details["irreducible"] == 4 and details["hitting_sets"] >= 1
