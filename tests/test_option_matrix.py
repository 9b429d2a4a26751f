"""Every option is honoured or refused, for every puzzle: the whole matrix of command x option x
registry family (and every shipped puzzle file), run through the real command line.

A cell passes when the command either honours the option, with the effect the option promises
(a file written, a JSON document that fits the schema, every optimum listed, the classes
counted, one row per backend), or refuses it before any work with one line and exit 2. Exit 1
is a finished answer at a time limit (honoured too). Anything else (a traceback, a silent
success without the effect, a refusal with another code) fails the cell.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from queens.models.families import FAMILIES, FamilyOptions
from queens.models.puzzle_file import SHIPPED, load
from queens.solvers import BACKENDS

from tests import schemas
from tests.cli import run_main

SIZE = 4
ALL_BACKENDS_SIZE = 4
CUBE_SIZE = 3
"""n for a 3-D board: the matrix asks whether an option is honoured, not how fast, and
`count --backend all` on the 4 x 4 x 4 cube took 40 s (every backend counting its optima) where
3 x 3 x 3 takes about 1 s."""


def _side(n: int, dimensions: int) -> int:
    return min(n, CUBE_SIZE) if dimensions == 3 else n


def _family_args(name: str) -> list[str]:
    """The command line of a family's first example (or n = 4 when it has none)."""
    examples = FAMILIES[name].examples
    options = examples[0][1] if examples else FamilyOptions(SIZE)
    n = min(options.n, 6)
    args = [name, "-n", str(_side(n, FAMILIES[name].build(replace(options, n=n)).dimensions))]
    if options.m is not None:
        args += ["-m", str(options.m)]
    if options.queens is not None:
        args += ["--queens", options.queens]
    for r, c in options.pawn:
        args += ["--pawn", f"{r},{c}"]
    if options.pieces is not None:
        args += ["--pieces", str(options.pieces)]
    return args


PUZZLES = ([(name, _family_args(name)) for name in FAMILIES]
           + [(f"file-{path.stem}", [str(path), "-n", str(_side(SIZE, load(path, SIZE).dimensions))])
              for path in sorted(SHIPPED.glob("*.toml"))])

Check = Callable[[dict[str, object] | None, Path], None]


def _json(result_stdout: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result_stdout)
    schemas.validate(data)
    return data


def _wrote(name: str) -> Check:
    def check(data: dict[str, object] | None, folder: Path) -> None:
        assert data is None or data["status"] in ("no solution", "time limit") or (folder / name).stat().st_size > 0
    return check


def _all_optimal(data: dict[str, object] | None, folder: Path) -> None:
    assert data is not None and data["count"] == len(data["solutions"]) == len(data["armies"])  # type: ignore[arg-type]


def _classes(data: dict[str, object] | None, folder: Path) -> None:
    assert data is not None
    assert data["status"] == "time limit" or "classes" in data["details"]  # type: ignore[operator]


def _every_backend(data: dict[str, object] | None, folder: Path) -> None:
    assert data is not None
    assert {row["backend"] for row in data["details"]["results"]} == set(BACKENDS)  # type: ignore[index]


def _answered(data: dict[str, object] | None, folder: Path) -> None:
    assert data is not None and data["status"] in ("solved", "optimal", "no solution", "complete", "time limit", "ok")


OPTIONS: list[tuple[str, list[str], Check]] = [
    ("solve", ["--json"], _answered),
    ("solve", ["--json", "--all-optimal"], _all_optimal),
    ("solve", ["--json", "--out", "{dir}/out.txt"], _wrote("out.txt")),
    ("solve", ["--json", "--progress"], _answered),
    ("show", ["--json", "--svg", "{dir}/board.svg"], _wrote("board.svg")),
    ("show", ["--json", "--heat-map", "{dir}/heat.txt"], _wrote("heat.txt")),
    ("count", ["--json"], _answered),
    ("count", ["--json", "--unique"], _classes),
    ("count", ["--json", "--symmetry"], _answered),
    ("count", ["--json", "--threads", "1"], _answered),
    ("count", ["--json", "--backend", "all"], _every_backend),
    ("count", ["--json", "--ledger", "{dir}/ledger.sqlite"], _wrote("ledger.sqlite")),
    ("explain", ["--json"], _answered),
]


FILE_OPTIONS = {("solve", "--json"), ("count", "--json"), ("explain", "--json")}
"""What a shipped file is asked in `make test`: each command reads it. A file builds the very
puzzle its family does (tests/test_puzzle_files.py), so its whole row of options, the family's
again, runs in `make test-slow`."""


@pytest.mark.parametrize("puzzle,command,options,check", [
    pytest.param(args, c, o, k, id=f"{name}-{c} {' '.join(o)}",
                 marks=[pytest.mark.slow] if name.startswith("file-") and (c, " ".join(o)) not in FILE_OPTIONS else [])
    for name, args in PUZZLES for c, o, k in OPTIONS])
def test_every_option_is_honoured_or_refused(puzzle, command, options, check, tmp_path):
    args = [arg.replace("{dir}", str(tmp_path)) for arg in options]
    if "all" in options and "-n" in puzzle:  # every backend counts: n = 4 at most (bishops on 6 x 6 took 4 s)
        at = puzzle.index("-n") + 1
        puzzle = [*puzzle[:at], str(min(int(puzzle[at]), ALL_BACKENDS_SIZE)), *puzzle[at + 1:]]
    result = run_main(command, *puzzle, "--time-limit", "20", *args) if command != "explain" else \
        run_main(command, *puzzle, *args)
    assert "Traceback" not in result.stderr, result.stderr
    if result.returncode == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert lines and lines[-1].lower().startswith("error") and not result.stdout.strip(), result.stderr
        assert len([line for line in lines if line.lower().startswith("error")]) == 1, result.stderr
        return
    assert result.returncode in (0, 1), (result.returncode, result.stderr)
    data = _json(result.stdout)
    if result.returncode == 1:  # a time limit, on the answer or on one backend's row
        rows = data["details"].get("results", [])
        assert data["status"] == "time limit" or any(row["status"] == "time limit" for row in rows), data
    check(data, tmp_path)
