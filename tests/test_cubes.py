"""Cube and conquer (queens.solvers.backends.cube_and_conquer): a question of armies that share lines, split over the
sides of the central lines into cubes on worker processes, answers as the whole formula does.
`SPLIT_AFTER` is set to 0 here so that every question is split at once, satisfiable ones (the
ascent to the optimum) and the refuted last one, in real spawned workers."""

import pytest
import queens.solvers.backends.sat as sat_module
from queens.models import lower
from queens.models.errors import BadOption
from queens.models.puzzle_file import SHIPPED, load
from queens.solvers.backends.cube_and_conquer import central_sides, cubes
from queens.solvers.registry import get_backend

import queens


@pytest.fixture
def split_at_once(monkeypatch):
    monkeypatch.setattr(sat_module, "SPLIT_AFTER", 0)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_split_questions_reach_a250000(n, reference, split_at_once):
    result = queens.optimise(load(SHIPPED / "peaceable.toml", n), "sat", workers=2)
    assert (result.status.name, result.objective) == ("OPTIMAL", reference.term("A250000", n)), result
    assert result.stats["split"] == "16 cubes on 2 processes"


def test_one_worker_never_splits(reference, split_at_once):
    result = queens.optimise(load(SHIPPED / "peaceable.toml", 5), "sat", workers=1)
    assert result.objective == reference.term("A250000", 5) and "split" not in result.stats


def test_a_split_question_stops_at_the_deadline(split_at_once):
    """n = 10's questions split at once: the workers are stopped at the limit, the answer is
    what was found, never a hang."""
    result = queens.optimise(load(SHIPPED / "peaceable.toml", 10), "sat", workers=2, time_limit=3)
    assert result.status.name in ("LIMIT", "FEASIBLE") and result.wall_time < 10, result


def test_the_split_lines_are_the_longest_nearest_the_centre():
    """On 5 x 5: the middle row and column, then the two long diagonals."""
    puzzle = load(SHIPPED / "peaceable.toml", 5)
    engine = get_backend("sat", encoding="seqcounter")
    assert isinstance(engine, sat_module.Sat)
    model = lower(puzzle)
    engine._cnf(model)
    chosen = central_sides(model, engine.sides)
    by_variable = {v: side for side, v in engine.sides.items()}
    lines = [sorted(cell for _, cell in model.bicliques[by_variable[v].biclique].first) for v in chosen]
    assert lines[:2] == [[(2, c) for c in range(5)], [(r, 2) for r in range(5)]]
    assert {tuple(line) for line in lines[2:]} == {tuple((r, r) for r in range(5)), tuple((r, 4 - r) for r in range(5))}
    assert len(cubes(chosen)) == 16


def test_workers_must_be_a_positive_number():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(BadOption):
            get_backend("sat", workers=bad)
