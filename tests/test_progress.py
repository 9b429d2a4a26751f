"""Progress of a long run goes to stderr, from its first second, and never to stdout: the real
`queens` script with --progress forced on (stderr is a pipe here, not a terminal), and the line
drawn in place on a terminal and wiped at the end."""

from __future__ import annotations

import io
import json
import time

from queens.solvers.runtime.progress import Progress

from queens.commands.progress import ProgressLine
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


def test_on_a_terminal_the_line_is_redrawn_in_place_and_wiped() -> None:
    stream = io.StringIO()
    line = ProgressLine(stream, terminal=True, start=time.monotonic() - 5)  # a run 5 s old
    line(Progress(solutions=10, done=1, total=4))
    line.close()
    assert stream.getvalue().startswith("\rprogress: 1/4 subproblems, 10 solutions so far")
    assert stream.getvalue().endswith("\r\x1b[K")
    assert "\n" not in stream.getvalue()
