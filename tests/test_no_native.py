"""Without the C extensions the suite degrades, never breaks (QUEENS_NO_NATIVE=1 makes the loader
refuse them, as if they had not been built): `--help`, every pure-Python backend and every model
work; what needs native code says once what is missing and how to build it, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.cli import SCRIPT


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QUEENS_NO_NATIVE": "1", "COLUMNS": "200"}
    env.pop("QUEENS_DEBUG", None)
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120, env=env)


def test_help_and_a_pure_python_solve_work(reference):
    assert _run("--help").returncode == 0
    solved = _run("solve", "nqueens", "-n", "8", "-b", "cpsat", "--json")
    assert solved.returncode == 0, solved.stderr
    assert len(json.loads(solved.stdout)["solutions"][0]) == 8
    counted = _run("count", "nqueens", "-n", "8", "--json")  # the router passes over native, says why
    payload = json.loads(counted.stdout)
    assert payload["count"] == reference.term("A000170", 8) and payload["backend"] != "native"
    assert "make install" in payload["why"]


@pytest.mark.parametrize("args", [
    ("count", "nqueens", "-n", "8", "-b", "native"),
    ("solve", "completion", "-n", "8", "--queens", "0,0", "--method", "complete"),
    ("count", "nqueens", "-n", "10", "--threads", "2"),
    ("generate", "completion", "-n", "8", "-k", "2"),
])
def test_what_needs_native_code_says_so_once_and_exits_2(args):
    result = _run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("make install") == 1


def test_models_and_pure_python_backends_from_python(reference):
    code = ("from queens.models import NQueens; from queens.solvers import count; "
            "print(count(NQueens(6), 'sat').count, count(NQueens(6), 'csp').count)")
    env = {**os.environ, "QUEENS_NO_NATIVE": "1"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout.split() == [str(reference.term("A000170", 6))] * 2, result.stderr


def test_unique_without_native_code_is_counted_by_enumeration(reference):
    """--unique is an option of every strategy that counts classes: without the C extensions the
    router passes over native/classes and a backend's search enumerates the classes."""
    result = _run("count", "nqueens", "-n", "8", "--unique", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["count"] == reference.term("A000170", 8) and payload["details"]["classes"] == 12
