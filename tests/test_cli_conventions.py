"""The CLI's conventions (docs/cli.md), walked over every registered command, so a command added
later is held to them without an edit here: examples in its help that run, FAMILY|FILE in its
usage, "did you mean" for a mistyped family, backend, option or command, `--version`, shell
completion, and the documented exit codes (0 ok, 1 error, 2 usage, 3 a count that disagrees
with the native ground truth, 130 interrupted)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import click
import pytest
from queens.models import ConstraintModel, Placement
from queens.models.families import FAMILIES
from queens.solvers.backends.csp import Csp
from queens.solvers.registry import BACKENDS

from queens.cli import EXIT_CODES, cli
from queens.commands.common import FamilyOrFile, QueensCommand, QueensGroup
from tests.cli import SCRIPT, _environment, error_line, run_main

REPO = Path(__file__).resolve().parents[1]
NOT_RUN = {"serve": "serves until stopped", "bench": "runs experiment grids (minutes)"}
"""Commands whose examples are parsed but not run."""


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command and group under `group`, with the words that name it (("bench", "run"))."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None and command.name == name, f"{name!r} names another command"
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))


COMMANDS = list(_commands())
LEAVES = [(path, command) for path, command in COMMANDS if not isinstance(command, click.Group)]


def _ids(items: list[tuple[tuple[str, ...], click.Command]]) -> list[str]:
    return [" ".join(path) for path, _ in items]


def _examples() -> list[tuple[tuple[str, ...], str]]:
    """Every example line: the top help's (each names its command) and each command's."""
    top = [((_argv(line)[0][1][0],), line) for line in cli.examples]
    return top + [(path, line) for path, command in COMMANDS for line in getattr(command, "examples", ())]


def _argv(example: str) -> list[tuple[dict[str, str], list[str]]]:
    """An example line as the commands it runs: `A=1 queens x && queens y  # why` gives the
    environment and the arguments after `queens` of each."""
    runs = []
    for part in example.split("#", 1)[0].split("&&"):
        words = shlex.split(part)
        env = dict(word.split("=", 1) for word in words[:words.index("queens")])
        runs.append((env, words[words.index("queens") + 1:]))
    return runs


def _leaf(argv: list[str]) -> tuple[click.Command, str, list[str]]:
    """The command an argument list names, and the arguments left for it."""
    command: click.Command = cli
    name = "queens"
    while isinstance(command, click.Group) and argv and (named := command.get_command(click.Context(command), argv[0])):
        name, argv = argv[0], argv[1:]
        command = named
    return command, name, argv


@pytest.mark.parametrize("path,command", COMMANDS, ids=_ids(COMMANDS))
def test_every_command_shows_two_examples_of_itself(path, command):
    assert isinstance(command, QueensCommand | QueensGroup), "declare it with queens.commands.common.command/group"
    assert len(command.examples) >= 2
    shown = run_main(*path, "--help")
    assert shown.returncode == 0
    assert "Examples:" in shown.stdout
    for line in command.examples:
        assert line in shown.stdout
        for _, argv in _argv(line):
            assert _leaf(argv)[0] is not cli, f"{line!r} names no command"
        assert tuple(_argv(line)[-1][1][:len(path)]) == path or any(
            tuple(argv[:len(path)]) == path for _, argv in _argv(line)), f"{line!r} is not an example of {path}"


@pytest.mark.parametrize("path,example", _examples(), ids=[e for _, e in _examples()])
def test_every_example_parses_and_runs(path, example, tmp_path, monkeypatch):
    """Each example parses; those of commands that finish run in a scratch folder that sees the
    clone's folders (an example may name models/puzzles/...), and exit 0."""
    for name in ("models", "experiments", "docs"):
        (tmp_path / name).symlink_to(REPO / name)
    monkeypatch.chdir(tmp_path)
    for env, argv in _argv(example):
        command, name, rest = _leaf(argv)
        command.make_context(name, list(rest))  # raises a UsageError if the line does not parse
        if path[0] in NOT_RUN:
            continue
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        result = run_main(*argv)
        assert result.returncode == 0, f"{example}: {result.stderr}"


def test_the_usage_line_says_family_or_file_and_the_help_lists_the_families():
    shown = run_main("count", "--help").stdout
    assert shown.splitlines()[0] == "Usage: queens count [OPTIONS] FAMILY|FILE"
    listing = " ".join(shown.split("FAMILY is one of", 1)[1].split())  # unwrapped
    assert all(f" {name}," in f" {listing}" or f" {name}." in f" {listing}" for name in FAMILIES)


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_the_exit_codes_are_the_documented_ones(path, command, tmp_path, monkeypatch):
    """0 for --help; 2 for an unknown option, a missing argument, a mistyped family or backend and
    a family flag the family does not take (each with a suggestion where one is close); 1 for a
    puzzle that cannot be (-n 0). Each starts from the command's first example (which has the
    options the command requires), with one thing changed."""
    monkeypatch.chdir(tmp_path)
    assert run_main(*path, "--help").returncode == 0
    typo = run_main(*path, "--hepl")
    assert typo.returncode == 2 and "No such option" in typo.stderr
    if any(param.required for param in command.params if isinstance(param, click.Argument)):
        assert run_main(*path).returncode == 2
    if not any(isinstance(param.type, FamilyOrFile) for param in command.params):
        return
    example = next(argv for _, argv in _argv(command.examples[0]) if tuple(argv[:len(path)]) == path)
    puzzle = len(path)  # the examples name the puzzle right after the command
    assert example[puzzle] in FAMILIES and "-n" in example, "the first example names a family and -n"

    def changed(position: int, value: str, *more: str) -> list[str]:
        return [*example[:position], value, *example[position + 1:], *more]

    family = run_main(*changed(puzzle, "nqeens"))
    assert family.returncode == 2 and "Did you mean 'nqueens'" in family.stderr
    assert run_main(*changed(example.index("-n") + 1, "0")).returncode == 1
    names = {name for param in command.params for name in param.opts}
    if "--pawns" in names:
        flag = run_main(*changed(puzzle, "nqueens", "--pawns", "1"))
        assert flag.returncode == 2 and "--pawns does not apply to nqueens" in error_line(flag)
    if "--backend" in names:
        backend = run_main(*example, "--backend", "cpsta")
        assert backend.returncode == 2 and "Did you mean 'cpsat'" in backend.stderr


def test_a_mistyped_command_gets_a_suggestion():
    result = run_main("cuont", "nqueens", "-n", "4")
    assert result.returncode == 2 and "Did you mean 'count'" in result.stderr


class Forgetful(Csp):
    """A backend that loses the first solution it finds: what the ground truth is there to catch."""

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        found = super().solutions(model, deadline)
        next(found, None)
        yield from found


@pytest.fixture
def forgetful(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(BACKENDS, "forgetful", (__name__, "Forgetful", "nothing to install"))
    return "forgetful"


def test_a_count_that_disagrees_with_the_native_one_exits_3(forgetful, reference):
    result = run_main("count", "nqueens", "-n", "6", "--backend", forgetful)
    assert result.returncode == 3
    assert f"the native counter says {reference.term('A000170', 6)}" in result.stdout


@pytest.mark.parametrize("path,command", LEAVES, ids=_ids(LEAVES))
def test_an_interruption_exits_130_whichever_command(path, command, monkeypatch):
    """Ctrl-C anywhere inside a command reaches `queens.cli.main` as KeyboardInterrupt (the console
    script's handlers raise it; tests/test_interrupt.py sends real signals to real runs): one
    line, exit 130."""
    def interrupted(self: click.Command, ctx: click.Context) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(type(command), "invoke", interrupted)
    argv = _argv(command.examples[0])[0][1] if isinstance(command, QueensCommand) else list(path)
    result = run_main(*argv)
    assert result.returncode == 130 and result.stderr.strip().splitlines()[-1] == "interrupted"


def test_the_exit_codes_listed_in_the_help_are_the_documented_ones():
    shown = run_main("--help").stdout
    assert "0 ok, 1 error, 2 usage, 3 disagreement, 130 interrupted." in shown
    documented = (REPO / "docs" / "cli.md").read_text()
    assert all(f"| {code} |" in documented for code in EXIT_CODES)


def test_the_version_is_the_installed_distributions_everywhere():
    installed = version("queens")
    assert run_main("--version").stdout.strip() == f"queens {installed}"
    assert f"queens {installed}" in run_main("info").stdout
    assert json.loads(run_main("info", "--json").stdout)["version"] == installed
    assert json.loads(run_main("count", "nqueens", "-n", "5", "--json").stdout)["version"] == installed


def test_the_top_help_counts_the_backends_from_the_registry():
    shown = " ".join(run_main("--help").stdout.split())
    assert f"{len(BACKENDS)} backends ({', '.join(BACKENDS)})" in shown


def _complete(*words: str) -> list[str]:
    """What bash completion offers after `queens WORDS` (click's protocol, as docs/cli.md sets it up)."""
    env = {**_environment(), "_QUEENS_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(("queens", *words)),
           "COMP_CWORD": str(len(words))}
    result = subprocess.run([str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_shell_completion_offers_commands_families_and_files():
    assert "plain,count" in _complete("cou")
    offered = _complete("count", "nq")
    assert "plain,nqueens" in offered and "file,nq" in offered  # the families, and the shell's files
    assert "plain,--backend" in _complete("count", "nqueens", "--back")


def test_the_completion_script_is_what_docs_cli_md_says():
    env = {**_environment(), "_QUEENS_COMPLETE": "bash_source"}
    script = subprocess.run([str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120).stdout
    assert "_queens_completion" in script
    assert "_QUEENS_COMPLETE=bash_source queens" in (REPO / "docs" / "cli.md").read_text()
    assert os.environ.get("_QUEENS_COMPLETE") is None
