"""Long counts lose nothing: the ledger, resuming, and a real counting process killed mid-run, for
each counter that keeps a ledger (native/classes, native/quadrant: read from the strategy registry)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from queens.models import NQueens, QueensError, as_cells
from queens.solvers import solutions
from queens.solvers.native import _classes
from queens.solvers.native.counting import KERNEL_VERSION, count_classes, subproblem_key, subproblems
from queens.solvers.routing.ledgered_count import LedgeredCount
from queens.solvers.routing.strategies import registered
from queens.solvers.runtime.ledger import Ledger

from tests.cli import run_cli, run_main, start_cli
from tests.ledger_file import rows
from tests.plain_reference import fixed_by

LEDGERED = {strategy.method: strategy for strategy in registered() if isinstance(strategy, LedgeredCount)}
"""The counters that keep a ledger, by method: each is killed, interrupted and resumed below."""


def count_until_first_row(ledger: Path, method: str, **popen: Any) -> subprocess.Popen[Any]:
    """A real n = 17 count by `method`, returned running once the ledger holds a finished subproblem."""
    counting = start_cli("count", "nqueens", "-n", "17", "--method", method, "--threads", "1", "--ledger",
                         str(ledger), **popen)
    give_up = time.monotonic() + 120
    while rows(ledger) == 0 and counting.poll() is None and time.monotonic() < give_up:
        time.sleep(0.01)  # polling the ledger, not a timed assertion
    if counting.poll() is not None or rows(ledger) == 0:
        counting.kill()
        pytest.fail("the count ended, or recorded nothing within 120 s, before it could be interrupted")
    return counting


@pytest.mark.parametrize("method", LEDGERED)
def test_a_killed_count_resumes_to_the_exact_total(method: str, tmp_path: Path, reference) -> None:
    ledger = tmp_path / "ledger.sqlite"
    counting = count_until_first_row(ledger, method, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        counting.send_signal(signal.SIGKILL)
        counting.wait(timeout=30)
    finally:
        counting.kill()
    kept = rows(ledger)
    _, keys = LEDGERED[method].ledgered(17)
    assert 0 < kept < len(keys)

    resumed = run_cli("count", "nqueens", "-n", "17", "--method", method, "--resume", "--ledger", str(ledger),
                      "--json", timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept:,} of {len(keys):,} subproblems already counted" in resumed.stderr
    result = json.loads(resumed.stdout)
    assert (result["method"], result["count"]) == (method, reference.term("A000170", 17))
    assert result["stats"].get("fundamental", reference.term("A002562", 17)) == reference.term("A002562", 17)
    assert rows(ledger) == len(keys)


def test_the_quadrant_counter_records_every_range_and_resumes_only_the_missing(tmp_path: Path, reference) -> None:
    """Unasked, n = 16 is counted by meeting in the middle, and --ledger keeps it there: every
    range is recorded; with a third of the rows deleted, --resume counts those again and leaves
    the rest untouched (their times of recording unchanged)."""
    ledger = tmp_path / "ledger.sqlite"
    version, keys = LEDGERED["quadrant"].ledgered(16)
    first = run_main("count", "nqueens", "-n", "16", "--ledger", str(ledger), "--json")
    assert first.returncode == 0, first.stderr
    assert (json.loads(first.stdout)["method"], json.loads(first.stdout)["count"]) == \
        ("quadrant", reference.term("A000170", 16))
    query = "SELECT key, recorded_at FROM subproblems WHERE n = 16 AND version = ?"
    with sqlite3.connect(ledger) as db:
        recorded = dict(db.execute(query, (version,)).fetchall())
        assert sorted(recorded) == sorted(keys) and len(keys) == 256
        db.execute("DELETE FROM subproblems WHERE rowid % 3 = 0")
        kept = dict(db.execute(query, (version,)).fetchall())
    assert 0 < len(kept) < len(keys)

    resumed = run_main("count", "nqueens", "-n", "16", "--resume", "--ledger", str(ledger), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept):,} of {len(keys):,} subproblems already counted" in resumed.stderr
    result = json.loads(resumed.stdout)
    assert (result["method"], result["count"]) == ("quadrant", reference.term("A000170", 16))
    assert result["stats"]["resumed"] == len(kept)
    with sqlite3.connect(ledger) as db:
        after = dict(db.execute(query, (version,)).fetchall())
    assert sorted(after) == sorted(keys)
    assert {key: after[key] for key in kept} == kept  # not counted again
    assert all(after[key] > recorded[key] for key in set(keys) - set(kept))  # counted again


def test_resuming_from_part_of_the_work_is_bit_identical(tmp_path: Path) -> None:
    with Ledger(tmp_path / "l.sqlite") as ledger:
        keys = subproblems(12)
        half = keys[::2]
        counted = [c for c in _classes.count(12, half) if c is not None]  # None: stopped (then zip's lengths differ)
        ledger.record(12, KERNEL_VERSION, [(subproblem_key(k), c[:3]) for k, c in zip(half, counted, strict=True)])
        ledger.record(12, "fast-0", [(subproblem_key(keys[1]), (10**6, 0, 0))])   # an older counter: ignored
        ledger.record(11, KERNEL_VERSION, [(subproblem_key(keys[1]), (10**6, 0, 0))])  # another n: ignored
        seen = []
        resumed = count_classes(12, ledger=ledger, resume=True, progress=lambda *p: seen.append(p))
        assert resumed == count_classes(12)
        assert seen[0][:2] == (len(half), len(keys))


def test_a_ledger_written_before_the_rename_still_resumes(tmp_path: Path, reference) -> None:
    """The classes counter was `fast`: rows stored as fast-<version> are this counter's rows."""
    with Ledger(tmp_path / "l.sqlite") as ledger:
        keys = subproblems(12)
        half = keys[::2]
        counted = [c for c in _classes.count(12, half) if c is not None]  # None: stopped (then zip's lengths differ)
        ledger.record(12, f"fast-{_classes.VERSION}",
                      [(subproblem_key(k), c[:3]) for k, c in zip(half, counted, strict=True)])
        assert ledger.holdings() == {(12, KERNEL_VERSION): len(half)}
        seen = []
        resumed = count_classes(12, ledger=ledger, resume=True, progress=lambda *p: seen.append(p))
        assert resumed.total == reference.term("A000170", 12)
        assert seen[0][:2] == (len(half), len(keys))
        assert len(ledger.finished(12, KERNEL_VERSION)) == len(keys)


def test_without_resume_the_ledger_is_recounted(tmp_path: Path) -> None:
    with Ledger(tmp_path / "l.sqlite") as ledger:
        key = subproblem_key(subproblems(10)[0])
        ledger.record(10, KERNEL_VERSION, [(key, (99, 0, 0))])
        assert count_classes(10, ledger=ledger) == count_classes(10)
        assert ledger.finished(10, KERNEL_VERSION)[key] != (99, 0, 0)


def test_a_file_that_is_not_a_ledger_is_one_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_bytes(b"this is not a database" * 100)
    with pytest.raises(QueensError, match="ledger"):
        Ledger(bogus)
    result = run_main("count", "nqueens", "-n", "8", "--ledger", str(bogus))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "ledger" in result.stderr


def test_cli_unique_prints_the_classes(reference) -> None:
    result = run_main("count", "nqueens", "-n", "12", "--unique")
    assert result.returncode == 0, result.stderr
    assert f"{reference.term('A000170', 12):,} solutions" in result.stdout
    fundamental = reference.term("A002562", 12)
    assert f"{fundamental:,}" in result.stdout
    # the split by rotational symmetry, counted independently: boards from the simple search,
    # turned by the plain-Python twin (a class fixed by a quarter turn holds 2 boards, by a half turn 4)
    boards = [tuple(c for _, c in as_cells(s)) for s in solutions(NQueens(12), "native")]
    quarter = sum(fixed_by(b, 1) for b in boards) // 2
    half = (sum(fixed_by(b, 2) for b in boards) - 2 * quarter) // 4
    assert (quarter, half) == (4, 18)
    assert f"quarter turn: {quarter}" in result.stdout and f"half turn only: {half}" in result.stdout
    assert f"no rotational symmetry: {fundamental - quarter - half:,}" in result.stdout


def test_cli_small_counts_leave_no_ledger_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_main("count", "nqueens", "-n", "10", "--threads", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == reference.term("A000170", 10)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["nqueens", "-n", "8", "--ledger", "x.sqlite", "--backend", "cpsat"],
    ["toroidal", "-n", "7", "--threads", "2"],
    ["nqueens", "-n", "8", "--threads", "0"],
    ["nqueens", "-n", "31", "--unique"],
    ["nqueens", "-n", "8", "--threads", "2", "--encoding", "ladder"],
    ["nqueens", "-n", "8", "--threads", "2", "--dask", "tcp://localhost:8786"],
])
def test_cli_usage_errors(args: list[str]) -> None:
    result = run_main("count", *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process is a POSIX affair")
@pytest.mark.parametrize("method", LEDGERED)
def test_ctrl_c_keeps_finished_work_and_says_so(method: str, tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite"
    counting = count_until_first_row(ledger, method, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        counting.send_signal(signal.SIGINT)
        _, stderr = counting.communicate(timeout=60)
    finally:
        counting.kill()
    assert counting.returncode == 130
    assert "interrupted: finished subproblems are kept" in stderr and "Traceback" not in stderr
    assert 0 < rows(ledger) < len(LEDGERED[method].ledgered(17)[1])


def test_resuming_from_a_ledger_that_does_not_exist_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_main("count", "nqueens", "-n", "10", "--resume", "--ledger", "typo.sqlite")
    assert result.returncode == 2
    assert "there is no ledger typo.sqlite to resume from" in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # and none was created


def test_a_ledger_of_another_count_is_ignored_and_named(tmp_path: Path, reference) -> None:
    path = tmp_path / "other.sqlite"
    with Ledger(path) as ledger:
        key = subproblem_key(subproblems(12)[0])
        ledger.record(12, "fast-0", [(key, (10**6, 0, 0))])         # an older counter's rows
        ledger.record(11, KERNEL_VERSION, [(key, (10**6, 0, 0))])   # another n's rows
    result = run_main("count", "nqueens", "-n", "12", "--resume", "--ledger", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["count"] == reference.term("A000170", 12)
    assert "0 of" in result.stderr and "ignored" in result.stderr
    assert f"1 of n = 11 from counter {KERNEL_VERSION}" in result.stderr
    assert "1 of n = 12 from counter classes-0" in result.stderr  # an old name is read as the new one


def test_cli_time_limit_reports_a_lower_bound() -> None:
    # Q(17) takes over a second even by meeting in the middle: it cannot finish in 0.05 s
    result = run_main("count", "nqueens", "-n", "17", "--threads", "1", "--time-limit", "0.05")
    assert result.returncode == 1  # stderr: the strategy announced, then the bound
    assert result.stderr.count("\n") <= 2 and "solutions so far, a lower bound" in result.stderr
