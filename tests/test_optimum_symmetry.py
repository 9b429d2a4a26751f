"""Optima searched among the leaders of the symmetry classes (`queens.solvers.api.optimum_breaking`):
the board's symmetries and swaps of interchangeable armies broken by lex chains, and a
colouring's clique given copies 1..k (`queens.solvers.routing.fewest_copies`). Every optimum stays the published
one (tests/data/sequences.json) with the reduction and without it, on every backend that
optimises, and the answer's stats name the reduction or say why there is none."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from queens.models import NQueens, Unsupported, lower, symmetry_group
from queens.models.errors import Refused
from queens.models.families import FamilyOptions, build
from queens.models.symmetry import Orbits, lex_leader
from queens.solvers import BACKENDS, Status, get_backend, solutions
from queens.solvers import solve as solve_routed
from queens.solvers.api import solve
from queens.solvers.backend import Task

from tests.cli import run_main
from tests.conftest import able
from tests.test_armies import colouring

OPTIMISING = able(BACKENDS, Task.OPTIMISE)


def _answer(puzzle, backend, **options):
    try:
        return solve(puzzle, backend, **options)
    except Unsupported as refusal:
        pytest.skip(str(refusal))


def _compiles_chains(backend):
    model = lower(NQueens(4))
    return get_backend(backend).supports(lex_leader(model, symmetry_group(model))) is None


def _peaceable(n, backend, symmetry, reference):
    result = _answer(build("peaceable", FamilyOptions(n)), backend, symmetry=symmetry)
    assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A250000", n))
    return result


@pytest.mark.parametrize(("n", "backend"), [
    pytest.param(n, backend, marks=[pytest.mark.slow] if (n, backend) == (5, "csp") else [])  # csp: 4 CPU-s at n = 5
    for n in (4, 5) for backend in OPTIMISING])
def test_peaceable_optimum_with_and_without_breaking(n, backend, reference):
    if n > 4 and not _compiles_chains(backend):
        pytest.skip("compiles no lex chains (n = 4 shows it says so); n = 5 takes this backend 40 s")
    broken = _peaceable(n, backend, True, reference)
    assert "reduction" in broken.stats or "off (" in str(broken.stats["symmetry"])
    if "reduction" in broken.stats:
        assert "16 (8 board symmetries x 2 orders of the armies)" in str(broken.stats["reduction"])
    assert _peaceable(n, backend, False, reference).stats["symmetry"] == "off (asked)"


@pytest.mark.slow
@pytest.mark.parametrize("backend", OPTIMISING)
@pytest.mark.parametrize("symmetry", [True, False])
def test_peaceable_6(backend, symmetry, reference):
    if backend == "csp" or not _compiles_chains(backend):
        pytest.skip("minutes at n = 6 (csp; native, which compiles no chains, takes 40 s at n = 5)")
    _peaceable(6, backend, symmetry, reference)


def test_the_default_breaks_where_it_pays():
    """sat's default breaks the classes (`lex_for_optima`), mip's says why it does not."""
    puzzle = build("peaceable", FamilyOptions(4))
    assert "lex-leader over a group of 16" in str(solve(puzzle, "sat").stats["reduction"])
    assert "cost more than they save" in str(solve(puzzle, "mip").stats["symmetry"])


TOO_SLOW_FOR_QUEEN6_6 = {"csp": "over a minute for queen6_6",
                         "teaching": "still searching queen6_6 after 15 minutes (make test-slow)"}


@pytest.mark.parametrize("backend", OPTIMISING)
@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_colouring_with_and_without_the_clique_fixed(n, backend, reference):
    if n == 6 and backend in TOO_SLOW_FOR_QUEEN6_6:
        pytest.skip(f"{backend}: {TOO_SLOW_FOR_QUEEN6_6[backend]}")
    chi = reference.term("A088202", n)
    for symmetry in (True, False):
        try:
            result = solve_routed(colouring(n), backend, symmetry=symmetry)
        except Refused as refusal:
            pytest.skip(str(refusal))
        assert (result.status, result.objective) == (Status.OPTIMAL, chi)
        named = result.stats["reduction"] if symmetry else result.stats["symmetry"]
        assert named == (f"the {n} cells of one line fixed to copies 1..{n} (copies are interchangeable)"
                         if symmetry else "off (asked)")


def test_mip_lex_chains_keep_exactly_the_leaders():
    """Each 5-queens solution, fixed, is feasible under mip's lex chains exactly when it leads its
    class (the 10 solutions fall in 2 classes: 2 leaders)."""
    model = lower(NQueens(5))
    group = symmetry_group(model)
    orbits, lexed = Orbits(model, group), lex_leader(model, group)
    kept = [placement for placement in solutions(NQueens(5), "sat")
            if get_backend("mip").find(replace(lexed, fixed=frozenset(placement)), None) is not None]
    assert len(kept) == 2
    assert all(orbits.size(placement) is not None for placement in kept)


def test_the_cli_names_the_reduction_and_turns_it_off(reference):
    for flag, key in (("--symmetry", "reduction"), ("--no-symmetry", "symmetry")):
        ran = run_main("solve", "peaceable", "-n", "4", "--backend", "mip", flag, "--json")
        answer = json.loads(ran.stdout)
        assert (ran.returncode, answer["objective"]) == (0, reference.term("A250000", 4))
        assert key in answer["stats"]
