"""The real `queens` console script, as a user runs it: finished (`run_cli`) or running (`start_cli`).

A module of its own rather than in conftest.py: importing conftest by name loads it a second
time beside pytest's own copy.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

SCRIPT = Path(sys.executable).parent / "queens"


def _environment() -> dict[str, str]:
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("QUEENS_DEBUG", None)  # errors must be one line, as users see them
    return env


def run_cli(*args: str, timeout: float = 120, input: str | None = None, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The console script run to its end; `env`: variables set on top of the user's environment."""
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout, input=input,
                          cwd=cwd, env={**_environment(), **(env or {})})


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one line an error prints (never a traceback)."""
    assert "Traceback" not in result.stderr
    return [line for line in result.stderr.splitlines() if line.strip()][-1]


def start_cli(*args: str, **popen: Any) -> subprocess.Popen[Any]:
    """The command started and left running (to interrupt or kill it). `popen`: Popen's own
    keywords (Any: their types depend on each other, as Popen's overloads spell out)."""
    return subprocess.Popen([str(SCRIPT), *args], env=_environment(), **popen)


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    """`queens.cli.main` run in this process, as `run_cli` runs the script (in its environment):
    exit code, stdout and stderr (the same messages and codes, without starting an interpreter
    per command)."""
    from queens.cli import main

    saved, script = dict(os.environ), _environment()  # the script's: its width, no debug tracebacks
    os.environ.clear()
    os.environ.update(script)
    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            try:
                main(list(args))
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else 1
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(["queens", *args], code, stdout.getvalue(), stderr.getvalue())
