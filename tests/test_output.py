"""The one writer (`queens.models.output`) on real paths: every way a write fails is one line
naming the path (or stdout) and the reason, exit 1; the file written is the file named; "-" is
stdout; a format asked for is never ignored. Each case is a path Linux has: /proc/version
(refuses writes), /sys (refuses new files), /dev/full (always full), a pipe whose reader is gone.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from queens.models import NQueens
from queens.models.drawing import Board
from queens.models.errors import OutputError
from queens.models.output import write_file

from tests.cli import SCRIPT, error_line, run_cli, run_main

linux_only = pytest.mark.skipif(not Path("/dev/full").exists() or not Path("/proc/version").exists(),
                                reason="needs Linux's /dev/full and /proc")


@linux_only
@pytest.mark.parametrize(("target", "reason"), [
    ("/proc/version", "Input/output error"),
    ("/sys/kernel/not-a-file", ""),  # EACCES or EPERM, as the kernel and the user decide
    ("full-link.txt", "No space left on device"),
])
def test_out_that_cannot_be_written_is_one_line(tmp_path: Path, target: str, reason: str) -> None:
    (tmp_path / "full-link.txt").symlink_to("/dev/full")
    result = run_cli("solve", "nqueens", "-n", "8", "--out", target, cwd=tmp_path)
    assert result.returncode == 1
    line = error_line(result)
    assert line.startswith(f"error: cannot write {target}: ") and reason in line


@linux_only
@pytest.mark.parametrize("args", [("explain", "nqueens", "-n", "6"), ("show", "nqueens", "-n", "6"), ("info",),
                                  ("count", "nqueens", "-n", "6", "--json"), ("--version",)])
def test_a_full_stdout_is_an_error(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run([str(SCRIPT), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert result.stderr.strip().splitlines()[-1] == "error: cannot write to stdout: No space left on device"


def test_a_closed_stdout_is_refused_before_any_work() -> None:
    result = subprocess.run([str(SCRIPT), "count", "nqueens", "-n", "8"], capture_output=True, text=True, timeout=120,
                            preexec_fn=lambda: os.close(1))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "error: cannot write to stdout: it is closed (redirect it to a file, or to /dev/null)"]


def test_a_pipe_whose_reader_is_gone_is_an_error() -> None:
    """The reader's end closed before the command starts: every write fails (EPIPE), and the
    answer is said to be lost, not dropped with exit 0."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        result = subprocess.run([str(SCRIPT), "count", "nqueens", "-n", "8"], stdout=writing,
                                stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(writing)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == "error: cannot write to stdout: Broken pipe"


def test_the_file_written_is_the_file_named(tmp_path: Path) -> None:
    result = run_cli("solve", "nqueens", "-n", "8", "--out", "q.txt", "--format", "npy", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["q.txt"]
    assert np.load(tmp_path / "q.txt").tolist() == [1, 3, 5, 7, 2, 0, 6, 4]
    assert "wrote q.txt (npy)" in result.stderr


def test_dash_is_stdout(tmp_path: Path) -> None:
    result = run_cli("solve", "nqueens", "-n", "6", "--out", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []
    assert result.stdout.splitlines()[0] == "# n=6" and len(result.stdout.splitlines()) == 7  # the file alone


@pytest.mark.parametrize(("fmt", "expected"), [("perm", "1 3 5 0 2 4\n"),
                                               ("text", "# n=6\n0 1\n1 3\n2 5\n3 0\n4 2\n5 4\n")])
def test_a_format_without_out_writes_stdout(fmt: str, expected: str) -> None:
    result = run_main("solve", "nqueens", "-n", "6", "--format", fmt)
    assert (result.returncode, result.stdout) == (0, expected)


@pytest.mark.parametrize(("args", "message"), [
    (("--format", "npy"), "error: --format npy is binary: give --out FILE"),
    (("--out", "-", "--json"), "error: --json and a placement on stdout"),
])
def test_stdout_placements_refused_where_they_cannot_be(args: tuple[str, ...], message: str) -> None:
    result = run_main("solve", "nqueens", "-n", "6", *args)
    assert result.returncode == 2 and result.stderr.strip().startswith(message)


def test_export_dash_is_stdout(tmp_path: Path) -> None:
    result = run_cli("export", "nqueens", "-n", "4", "--format", "dimacs", "-o", "-", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("c ") and list(tmp_path.iterdir()) == []


@linux_only
def test_pictures_and_exports_through_the_writer(tmp_path: Path) -> None:
    (tmp_path / "full.svg").symlink_to("/dev/full")
    shown = run_cli("show", "nqueens", "-n", "6", "--svg", "full.svg", cwd=tmp_path)
    assert (shown.returncode, error_line(shown)) == (1, "error: cannot write full.svg: No space left on device")
    exported = run_cli("export", "nqueens", "-n", "4", "--format", "dimacs", "-o", "/proc/version")
    assert (exported.returncode, error_line(exported)) == (1, "error: cannot write /proc/version: Input/output error")
    with pytest.raises(OutputError, match="cannot write /proc/version: Input/output error"):
        Board(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2))).save("/proc/version", "txt")


def test_a_folder_is_no_file_to_write(tmp_path: Path) -> None:
    """From Python too (`Board.save`, `write_file`): one OutputError, and the folder stays."""
    with pytest.raises(OutputError, match="Is a directory"):
        write_file(tmp_path, "x")
    assert tmp_path.is_dir()


@linux_only
@pytest.mark.parametrize(("folder", "message"), [
    ("/proc/version", "error: cannot write the report into /proc/version: File exists"),
    ("full-link", "error: cannot write the report into full-link: File exists"),
])
def test_a_report_where_no_folder_can_be(tiny_db: Path, tmp_path: Path, folder: str, message: str) -> None:
    """`queens bench report --out` writes through the same writer: a path that is no folder is one line."""
    (tmp_path / "full-link").symlink_to("/dev/full")
    result = run_cli("bench", "report", "--db", str(tiny_db), "--out", folder, cwd=tmp_path)
    assert (result.returncode, error_line(result)) == (1, message)
