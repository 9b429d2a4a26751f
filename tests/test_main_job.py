"""`make run` (experiments/main_job.py) reads in one screen: one line per puzzle that fits the
width asked (80 to 200 columns), a reason for "cannot count" written once, every count checked
against the native counter (a disagreement exits 3), and three commands to try next that run
and say true things. The rows are real answers of real backends on small puzzles; the whole
job, 27 puzzles on every backend, is `test_the_whole_job_fits_80_columns` (slow)."""

from __future__ import annotations

import os
import re
import shutil
import sys

import pytest
from queens.experiments import main_job
from queens.experiments.main_job import SMALL_CUBE, SMALL_SIDE, TRY_NEXT, Row, answer, jobs, report
from queens.models.families import FAMILIES
from queens.solvers.registry import BACKENDS
from rich.console import Console

from tests.cli import run_cli, run_main

SMALL = ("nqueens n=6", "completion n=21, 10 queens", "colouring n=4", "independence n=4")
"""A plain puzzle, one the counting backends refuse by size, one no backend counts, one with armies."""


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return [Row(label, {backend: answer(puzzle, backend) for backend in BACKENDS})
            for label, puzzle in jobs() if label in SMALL]


def _shown(rows: list[Row], width: int) -> tuple[int, list[str]]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"), highlight=False)  # noqa: SIM115
    code = report(rows, 1.0, console)
    return code, console.export_text().splitlines()


@pytest.mark.parametrize("width", [80, 120, 200])
def test_one_line_per_puzzle_within_the_width(rows, width):
    code, lines = _shown(rows, width)
    assert code == 0
    assert all(len(line.rstrip()) <= width for line in lines)
    for row in rows:
        assert sum(line.startswith(row.label + " ") for line in lines) == 1, row.label
    assert (width >= 120) == any("what it asks" in line for line in lines)  # the registry's words, when there is room


def test_a_backend_that_cannot_answer_is_one_note_not_a_cell_per_row(rows):
    _, lines = _shown(rows, 80)
    text = " ".join(" ".join(lines).split())
    for row in rows:
        for backend, found in row.answers.items():
            if found.reasons and not row.unanswered:
                said = [reason for reason in found.reasons if main_job._own(reason, backend) in text]
                assert said, (row.label, backend)
    notes = [line for line in lines if re.match(r"^[¹²³⁴⁵⁶⁷⁸⁹] ", line)]
    assert len(notes) == len({line[2:] for line in notes})  # each reason once
    assert any(line.startswith("¹ no backend counts colouring n=4") for line in lines)
    mip = next(row for row in rows if row.label == "nqueens n=6").answers.get("mip")
    if mip is not None and mip.reasons:  # mip finds and proves; it never counts
        assert text.count("finds one solution and proves optima") == 1


def test_every_count_shown_is_the_native_one(rows, reference):
    _, lines = _shown(rows, 80)
    nqueens = next(line for line in lines if line.startswith("nqueens n=6 "))
    assert nqueens.split()[2] == str(reference.term("A000170", 6))
    assert all(row.truth == row.answers["native"].count for row in rows if not row.unanswered)
    assert any("✓ all equal to the native counter's" in line for line in lines)


def test_a_count_that_disagrees_is_shown_and_exits_3(monkeypatch, reference):
    monkeypatch.setitem(BACKENDS, "forgetful", ("tests.test_cli_conventions", "Forgetful", "nothing to install"))
    puzzle = dict(jobs())["nqueens n=6"]
    row = Row("nqueens n=6", {backend: answer(puzzle, backend) for backend in BACKENDS})
    code, lines = _shown([row], 80)
    assert code == 3
    assert f"✗ {reference.term('A000170', 6) - 1}" in next(line for line in lines if line.startswith("nqueens"))


def test_every_family_is_a_row_the_file_families_on_a_small_board():
    listed = [label for label, _ in jobs()]
    for name, family in FAMILIES.items():
        mine = [label for label in listed if label.split()[0] == name]
        assert len(mine) == max(1, len(family.examples)), name
        if not family.examples:
            assert mine[0].endswith(f"n={SMALL_SIDE}") or mine[0].endswith(f"n={SMALL_CUBE}")


@pytest.mark.parametrize("columns,tty,width", [("80", False, 80), ("300", False, 200), ("", False, 100),
                                               ("", True, None)])
def test_the_width_is_the_terminals_held_to_80_to_200(columns, tty, width, monkeypatch):
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty, raising=False)  # the modules main_job reads
    monkeypatch.setattr(shutil, "get_terminal_size", lambda: os.terminal_size((150, 40)))
    assert main_job._width() == (150 if width is None else width)


def test_the_commands_to_try_next_run_and_say_true_things(reference):
    count_line, solve_line, serve_line = (line for line, _ in TRY_NEXT)
    counted = run_main(*count_line.split()[1:])
    n = int(count_line.split()[-1])
    assert counted.returncode == 0 and f": {reference.term('A000170', n):,} solutions" in counted.stdout
    assert f"{reference.term('A000170', n):,} (A000170)" in TRY_NEXT[0][1]
    solved = run_cli(*solve_line.split()[1:])
    m = reference.term("A250000", int(solve_line.split()[-1]))
    assert solved.returncode == 0 and f"optimum {m} (proved)" in solved.stdout
    assert TRY_NEXT[1][1].startswith(f"{m} white and {m} black queens")
    assert run_main(*serve_line.split()[1:], "--help").returncode == 0


@pytest.mark.slow
def test_the_whole_job_fits_80_columns():
    done = run_cli_job(80)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert sum(line.split(" ")[0] in FAMILIES for line in lines) == len(jobs())


def run_cli_job(columns: int):
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "queens.experiments.main_job"], capture_output=True, text=True,
                          env=env, timeout=900)
