"""The environment a command runs in: a closed stderr, a port already taken, a folder it cannot
write. None of them may cost the user the answer, or give more than one line of error.

Each runs the real `queens` console script in a subprocess, as a user's shell would.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from queens.solvers.runtime.cores import BLAS_THREADS

from tests.cli import SCRIPT, _environment, error_line, run_cli


def _without_stderr(*args: str) -> subprocess.CompletedProcess[str]:
    """`queens ARGS 2>&-`: the command starts with descriptor 2 closed."""
    return subprocess.run(["sh", "-c", 'exec "$0" "$@" 2>&-', str(SCRIPT), *args], stdout=subprocess.PIPE,
                          text=True, timeout=120, env=_environment())


@pytest.mark.parametrize("args, answer", [
    (("solve", "nqueens", "-n", "6"), "cells: "),
    (("count", "nqueens", "-n", "6"), "4 solutions"),
    (("count", "knights", "-n", "3", "-b", "native"), "solutions"),
    (("show", "nqueens", "-n", "4"), "♛"),
    (("count", "nqueens", "-n", "6", "--json"), '"count": 4'),
])
def test_a_closed_stderr_costs_nothing_but_the_progress_lines(args, answer):
    result = _without_stderr(*args)
    assert result.returncode == 0
    assert answer in result.stdout


def test_an_error_with_stderr_closed_still_exits_with_its_code():
    result = _without_stderr("count", "nqueens", "-n", "0")
    assert result.returncode == 1 and result.stdout == ""


def test_serve_on_a_busy_port_says_so_in_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", "--port", str(port), timeout=60)
    assert result.returncode == 1
    assert error_line(result) == f"error: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_an_unrequested_ledger_that_cannot_be_written_does_not_fail_the_count(tmp_path):
    """n = 18 keeps a ledger unasked; in a folder where it cannot be created the count goes on.
    (A directory where the file would be stands in for a read-only folder, which root can write.)"""
    (tmp_path / "queens-ledger.sqlite").mkdir()
    os.chmod(tmp_path, 0o555)
    try:
        result = run_cli("count", "nqueens", "-n", "18", "--method", "classes", "--time-limit", "1", cwd=tmp_path)
    finally:
        os.chmod(tmp_path, 0o755)
    assert "Traceback" not in result.stderr
    assert "counting without a ledger" in result.stderr
    assert "18-queens: ≥ " in result.stdout  # the count ran, to its limit
    asked = run_cli("count", "nqueens", "-n", "8", "--ledger", str(tmp_path / "queens-ledger.sqlite" / "x" / "y"))
    assert asked.returncode == 1 and "cannot use" in error_line(asked)  # one asked for must work, or fail


def _fresh(code: str, **variables: str) -> str:
    """What a fresh interpreter running `code` prints, in the user's environment without numpy's
    BLAS variable, plus `variables`."""
    env = {key: value for key, value in _environment().items() if key != BLAS_THREADS}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={**env, **variables})
    assert result.returncode == 0, result.stderr
    return result.stdout


RUN_THE_CONSOLE_SCRIPT = """
import os, sys
from queens import console
before = "numpy" in sys.modules
sys.argv = ["queens", "count", "nqueens", "-n", "4"]
try:
    console.main()
except SystemExit:
    pass
print("numpy before:", before, "numpy after:", "numpy" in sys.modules, "blas:", os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.parametrize("asked, given", [(None, "1"), ("3", "3")])
def test_the_console_script_gives_numpys_blas_one_thread_unless_the_user_chose(asked, given):
    """Set before the command imports numpy (the console script's own imports do not), and
    inherited by every process the command starts; a number the user set is theirs."""
    printed = _fresh(RUN_THE_CONSOLE_SCRIPT, **({BLAS_THREADS: asked} if asked else {}))
    assert printed.splitlines()[-1] == f"numpy before: False numpy after: True blas: {given}"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the thread count in /proc")
def test_numpys_blas_starts_no_thread_of_its_own_when_given_one():
    """The variable is the one numpy's BLAS reads: with it, importing numpy leaves this process
    its one thread (OpenBLAS otherwise starts one per core, spinning before they sleep)."""
    printed = _fresh("import numpy, pathlib; print(pathlib.Path('/proc/self/status').read_text())",
                     **{BLAS_THREADS: "1"})
    assert re.search(r"^Threads:\s+1$", printed, flags=re.MULTILINE), printed
