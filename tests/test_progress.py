"""Progress of a long run goes to stderr, from its first second, and never to stdout: the real
`queens` script with --progress forced on (stderr is a pipe here, not a terminal), and the line
drawn in place on a terminal and wiped at the end."""

from __future__ import annotations

import io
import json
import time

from queens.solvers.runtime.progress import Progress

from queens.commands.progress import Estimate, ProgressView
from tests.cli import run_cli

SLOW = ("count", "nqueens", "-n", "16", "-b", "csp", "--time-limit", "2")
"""A count split over subproblems that no machine finishes in its 2 s: it runs to its limit."""


def test_a_split_count_shows_its_progress_on_stderr_when_asked() -> None:
    done = run_cli(*SLOW, "--progress")
    assert done.returncode == 1, done.stderr  # the time limit: a lower bound
    lines = [line for line in done.stderr.splitlines() if line.startswith("progress:")]
    assert lines and all("subproblems" in line and "solutions so far" in line for line in lines)
    assert "progress" not in done.stdout
    assert "≥" in done.stdout  # the answer itself is the bound


def test_json_output_stays_one_document_with_progress_on() -> None:
    done = run_cli(*SLOW, "--progress", "--json")
    assert json.loads(done.stdout)["status"] == "time limit"
    assert "progress:" in done.stderr


def test_no_progress_off_a_terminal_unless_asked() -> None:
    done = run_cli(*SLOW)
    assert "progress:" not in done.stderr


def test_on_a_terminal_a_bar_is_redrawn_in_place_and_wiped() -> None:
    stream = io.StringIO()
    view = ProgressView(stream, terminal=True, start=time.monotonic() - 5)  # a run 5 s old
    view(Progress(solutions=10, done=1, total=4))
    view.close()
    drawn = stream.getvalue()
    assert "━" in drawn and "1/4 subproblems (25%), about 15 s left, 0.2/s" in drawn
    assert drawn.endswith("\x1b[2K")  # wiped: the answer starts on a clean line
    assert "progress:" not in drawn  # the log line's form is for pipes


def test_a_resumed_count_leaves_what_it_resumed_out_of_the_rate_and_the_time_left() -> None:
    """90 of 120 subproblems read from the ledger, 10 counted in this run's 10 s: 1 a second,
    20 left, 20 s, not the 2.2 s that 100 done in 10 s would promise."""
    resumed = Estimate.of(Progress(done=100, total=120, resumed=90), elapsed=10.0)
    assert (resumed.rate, resumed.left, resumed.fraction) == (1.0, 20.0, 100 / 120)
    fresh = Estimate.of(Progress(done=100, total=120), elapsed=10.0)
    assert fresh.rate == 10.0 and fresh.left == 2.0
    assert Estimate.of(Progress(done=90, total=120, resumed=90), elapsed=1.0).left is None  # nothing done yet


def test_a_resumed_count_reports_the_subproblems_it_read_from_its_ledger(tmp_path, reference) -> None:
    """The classes counter says, with each report, how many of its done subproblems came from the
    ledger: all of them when the ledger holds the whole count."""
    from queens.models import NQueens
    from queens.solvers import count
    from queens.solvers.runtime.progress import listening

    ledger = str(tmp_path / "ledger.sqlite")
    first: list[Progress] = []
    with listening(first.append):
        count(NQueens(12), "native", method="classes", ledger=ledger)
    again: list[Progress] = []
    with listening(again.append):
        resumed = count(NQueens(12), "native", method="classes", ledger=ledger, resume=True)
    assert resumed.count == reference.term("A000170", 12)
    assert first and all(report.resumed == 0 for report in first)
    assert again and all(report.resumed == report.total for report in again if report.total)
