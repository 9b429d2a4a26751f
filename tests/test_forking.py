"""Work that forks asks whether it may (`queens.solvers.runtime.forking`): inside a daemonic process
(a `multiprocessing.Pool` worker, the explorer's solver) the sat backend's cube and conquer and
the process pool ran into "daemonic processes are not allowed to have children" (`queens.optimise`
of peaceable queens n = 8 in a Pool worker crashed; the explorer's *complete* answered HTTP 500).
Each test calls the suite in a real Pool worker and checks the answer against OEIS A250000.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
from queens.solvers.runtime.forking import may_fork
from queens.solvers.runtime.process_pool import run_in_processes

from queens import family
from tests.conftest import Reference

POOL = multiprocessing.get_context("fork")
"""Fork, so that a worker inherits what its initializer sets (the tests' modules need no
re-import either); the workers are daemonic whatever the start method."""


def _asked() -> tuple[bool, bool]:
    return may_fork(), may_fork(dies_with_parent=True)


def test_a_daemonic_process_may_fork_only_a_child_that_dies_with_it() -> None:
    assert may_fork()
    with POOL.Pool(1) as pool:
        assert pool.apply(_asked) == (False, True)


def _pool_in_a_worker() -> list[int | None]:
    return run_in_processes(pow, [(2, 10), (3, 3), (5, 2)], workers=2, start="fork")


def test_a_process_pool_in_a_daemonic_worker_runs_its_jobs_there() -> None:
    with POOL.Pool(1) as pool:
        assert pool.apply(_pool_in_a_worker) == [1024, 27, 25]


def _split_early() -> None:
    """A worker's initializer: the sat backend splits a question after 50 conflicts, not 20,000,
    so that a small board takes the path of cube and conquer (the real solver, the real split)."""
    from queens.solvers.backends import sat

    sat.SPLIT_AFTER = 50  # type: ignore[attr-defined]  # the name sat imported, and reads, from cube_and_conquer


def _peaceable_by_sat(n: int) -> tuple[int | None, str, Any]:
    import queens

    result = queens.optimise(family("peaceable", n=n), backend="sat", workers=2)
    return result.objective, result.status.name, result.stats.get("split")


def test_optimise_splits_its_question_inside_a_pool_worker(reference: Reference) -> None:
    """Peaceable queens n = 6 with the split forced early: the cubes are solved in the worker."""
    with POOL.Pool(1, initializer=_split_early) as pool:
        objective, status, split = pool.apply(_peaceable_by_sat, (6,))
    assert (objective, status) == (reference.term("A250000", 6), "OPTIMAL")
    assert split and "cubes" in split  # the question was split: the path that forked


def _peaceable(n: int) -> tuple[int | None, str]:
    import queens

    result = queens.optimise(family("peaceable", n=n))
    return result.objective, result.status.name


@pytest.mark.slow
def test_optimise_of_peaceable_8_in_a_pool_worker(reference: Reference) -> None:
    """The issue's case as a user writes it: the router's choice, the real split (after 20,000
    conflicts), in a Pool worker."""
    with POOL.Pool(1) as pool:
        assert pool.apply(_peaceable, (8,)) == (reference.term("A250000", 8), "OPTIMAL")


@pytest.mark.slow
def test_the_explorers_complete_of_peaceable_8(reference: Reference) -> None:
    """The explorer's solver processes are daemonic: *complete* of peaceable queens n = 8 answered
    HTTP 500 ("daemonic processes are not allowed to have children")."""
    from queens.web.workers import SolverPool

    with SolverPool(size=1, time_limit=300.0) as pool:
        reply = pool.run("complete", {"family": "peaceable", "n": 8})
    assert (reply["status"], reply["objective"]) == ("optimal", reference.term("A250000", 8))
