"""The CLI's contract, fuzzed: whole command lines drawn from the CLI's own declared parameters.

Hypothesis picks a command of `queens.cli.cli`, then for each of its options and arguments (as
click declares them, so a new option is fuzzed without editing this file) either leaves it out
or gives it a value from its type's edges: the choices and a wrong one, integers at 0, -1,
2^63, 2^64 - 1 and "1e3", floats at NaN, infinity and 1e400, files that are placements, puzzle
files, binary, missing or a folder. Whatever is drawn, the contract holds:

- the exit code is 0, 1, 2, 3 or 130;
- stderr holds no traceback and no "internal error" (an exception the CLI did not expect);
- the command ends within `BOUND` seconds (a SIGALRM raised inside it otherwise: the native
  searches and the SAT calls run Python's signal handlers, so even a search is stopped);
  every command that takes --time-limit is given one (TIME_LIMITS).

Boards stay small (n <= 6 or an edge value that is refused at once), so a run is quick. A short
run is part of `make test`; `make fuzz-cli` runs many (QUEENS_FUZZ_EXAMPLES) and, with
`--hypothesis-show-statistics`, lists each command shape drawn (the command and the options
given, values aside) as an event, so a long run says how many distinct shapes it covered. Command lines
that once broke the contract are kept as explicit examples below.
"""

from __future__ import annotations

import os
from pathlib import Path

import click
import numpy as np
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from queens.cli import cli
from tests.audit_inputs import Hang, alarm
from tests.cli import run_main

EXAMPLES = int(os.environ.get("QUEENS_FUZZ_EXAMPLES", "40"))
BOUND = 60
"""Seconds a command may take; every drawn board is small, so only a hang comes near it."""
EXIT_CODES = {0, 1, 2, 3, 130}
LEFT_OUT_COMMANDS = {"serve": "serves until stopped", "bench": "runs whole experiment specs (minutes)"}
LEFT_OUT_OPTIONS = {"--dask": "starts a cluster", "--step": "waits for Enter", "--animate": "redraws a live screen",
                    "--help": "prints the help only", "--db": "a results database"}
INTEGERS = ["-1", "0", "9223372036854775808", "18446744073709551615", "1e3", "2.5", "x", "8_0", "+4", " 5",
            *["1", "2", "3", "4", "5", "6"] * 3]
FLOATS = ["0", "-1", "nan", "inf", "1e400", "x", *["0.5", "1", "2"] * 3]
"""Edges, and (three times as often) ordinary values, so that most lines get past the parser."""
TIME_LIMITS = ["0.5", "1", "2", "nan", "-1", "x"]
"""--time-limit is always given, so that a search is bounded: finite values, and refused ones
(infinity is left out: "no limit" is a legitimate request for a long search)."""
TEXT = ["0,0", "0,0 1,2", "1 3 0 2", "", "-1", "x", "3,3", "99999999999999999999999,1", "1_0,2", "m=3",
        "m=99999999999999999999"]
FILES = ["placement.txt", "ambiguous.txt", "columns.npy", "huge.npy", "puzzle.toml", "binary.bin", "missing.txt",
         "folder", "squared.toml", "copies.toml"]
OUTPUTS = ["-", "written.txt", "written.svg", "written.npy", "full-link.txt", "/dev/full", "/proc/version",
           "missing/written.txt", "folder"]
"""Where a file an option writes goes (--out, -o, --svg, --png, --heat-map, --tree, --ledger): stdout,
a new file, paths that refuse (a full device, /proc, a missing folder, a folder)."""
WRITTEN = {"out_path", "output", "svg_path", "png_path", "heat_path", "tree_path", "ledger"}


def _values(parameter: click.Parameter) -> st.SearchStrategy[str]:
    """Values from the edges of the parameter's declared type."""
    kind = parameter.type
    if isinstance(kind, click.Choice):
        return st.sampled_from([*map(str, kind.choices), "nope"])
    if isinstance(kind, click.Path):
        return st.sampled_from(OUTPUTS if parameter.name in WRITTEN else FILES)
    name = getattr(kind, "name", "")
    if isinstance(kind, click.types.IntParamType) or name == "integer":
        return st.sampled_from(INTEGERS)
    if isinstance(kind, click.types.FloatParamType) or name == "seconds":
        return st.sampled_from(FLOATS)
    return st.sampled_from(TEXT)


def _option(parameter: click.Option) -> st.SearchStrategy[list[str]]:
    """A required option always, another one time in eight: a line of many options is refused."""
    flag = parameter.opts[-1]
    given = _values(parameter).map(lambda value: [flag, value]) if not parameter.is_flag else st.just([flag])
    if flag == "--time-limit":
        return st.sampled_from(TIME_LIMITS).map(lambda value: [flag, value])
    return given if parameter.required else st.sampled_from([True, *[False] * 7]).flatmap(
        lambda chosen: given if chosen else st.just([]))


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """A command and, for each parameter it declares, nothing or a value from its type's edges."""
    name = draw(st.sampled_from(sorted(set(cli.list_commands(click.Context(cli))) - set(LEFT_OUT_COMMANDS))))
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    line = [name]
    while isinstance(command, click.Group):  # `generate completion`
        name = draw(st.sampled_from(sorted(command.commands)))
        command = command.commands[name]
        line.append(name)
    shape = list(line)
    for parameter in command.params:
        if isinstance(parameter, click.Argument):
            line.append(draw(_values(parameter)))
        elif isinstance(parameter, click.Option) and not set(parameter.opts) & set(LEFT_OUT_OPTIONS):
            given = draw(_option(parameter))
            line.extend(given)
            shape.extend(given[:1])
    event(f"shape: {' '.join(shape)}")  # the command and the options given: distinct shapes, counted
    return line


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every file a drawn command may name (FILES), and nothing else."""
    folder = tmp_path_factory.mktemp("contract")
    (folder / "placement.txt").write_text("# n=6\n0 1\n1 3\n")
    (folder / "ambiguous.txt").write_text("0 4   # one queen, or a 2x2 permutation?\n")
    np.save(folder / "columns.npy", np.array([1, 3, 5, 0, 2, 4], np.int32))
    np.save(folder / "huge.npy", np.array([1, 3, 2**64 - 1], np.uint64))
    (folder / "puzzle.toml").write_text('[board]\nshape = ["n", "n"]\n[[army]]\npiece = "king"\ncount = "maximise"\n')
    (folder / "binary.bin").write_bytes(bytes(range(256)))
    (folder / "folder").mkdir()
    (folder / "full-link.txt").symlink_to("/dev/full")
    squared = "\n".join(f"a{i + 1} = 'a{i}*a{i}'" for i in range(40))  # hung the reader: now refused at once
    (folder / "squared.toml").write_text(f"[parameters]\na0 = 'n'\n{squared}\n[board]\nshape = ['n', 'n']\n"
                                         "[[army]]\ncount = 'a40'\n")
    (folder / "copies.toml").write_text("[board]\nshape = ['n', 'n']\n[[army]]\ncopies = 1000000000\n")
    return folder


def _check(line: list[str]) -> None:
    try:
        with alarm(BOUND):
            result = run_main(*line)
    except Hang as hang:  # as a test failure, so that hypothesis reports (and shrinks) the line
        raise AssertionError(f"{line}: {hang}") from None
    assert result.returncode in EXIT_CODES, (line, result.returncode, result.stderr[-500:])
    assert "Traceback" not in result.stderr, (line, result.stderr[-2000:])
    assert "internal error" not in result.stderr, (line, result.stderr[-500:])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=command_lines())
@example(line=["trace", "nqueens", "-n", "4", "--delay", "nan", "--no-animate"])
@example(line=["export", "nqueens", "-n", "4", "--format", "dimacs", "--size", "18446744073709551615"])
@example(line=["verify", "huge.npy"])
@example(line=["verify", "ambiguous.txt"])
@example(line=["count", "completion", "-n", "8", "--queens", "ambiguous.txt"])
@example(line=["count", "knights", "-n", "6", "--pieces", "2.5"])
@example(line=["generate", "completion", "-n", "18446744073709551615", "-k", "1"])
@example(line=["trace", "peaceable", "-n", "1", "--json"])  # found by this fuzzer: an AttributeError
@example(line=["solve", "nqueens", "-n", "6", "--out", "/proc/version"])  # issue 37's raw edges, each one line now
@example(line=["solve", "nqueens", "-n", "6", "--out", "full-link.txt"])
@example(line=["show", "nqueens", "-n", "5", "--png", "/dev/full"])
@example(line=["count", "completion", "-n", "8", "--queens", "99999999999999999999999,1"])
@example(line=["count", "completion", "-n", "8", "--vector", "99999999999999999999999"])
@example(line=["solve", "squared.toml", "-n", "4"])
@example(line=["solve", "copies.toml", "-n", "4"])
@example(line=["count", "two-per-line", "-n", "1"])
def test_every_command_line_keeps_the_contract(line: list[str], workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    _check(line)
