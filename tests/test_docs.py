"""Every tutorial in docs/ is run, so none of them can rot.

In a tutorial, a ```pycon block is a doctest (its `>>>` lines run in one namespace per file and
their output is compared); a ```console block holds `$ queens ...` commands, each run through
`queens.cli.main` in this process (`tests.cli.run_main`, as tests/test_readme.py runs the
README's), with its output compared the same way (`...` stands for anything).
Pictures the tutorial references (`![...](img/NAME)`) must exist, and when the tutorial's own
code writes one, the file in docs/img must be byte-for-byte what the code writes today
(`QUEENS_UPDATE_DOCS=1 pytest tests/test_docs.py` rewrites them).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
from pathlib import Path

import pytest
from queens.models.families import FAMILIES, tutorial

from tests.cli import run_main

DOCS = Path(__file__).resolve().parents[1] / "docs"
TUTORIALS = [DOCS.parent / tutorial(name) for name in FAMILIES]  # the family registry names each one
TUTORIALS += sorted((DOCS / "rules").glob("*.md"))  # one per construct of the puzzle language
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PICTURE = re.compile(r"!\[[^\]]*\]\((img/[^)]+)\)")
UPDATE_SWITCH = "QUEENS_UPDATE_DOCS"
UPDATE = os.environ.get(UPDATE_SWITCH) == "1"
"""Set to 1 to write the pictures the tutorials draw into docs/img (after changing a drawing)."""


def _console(block: str) -> list[tuple[str, str]]:
    """(command, expected output) for each `$ ` line of a console block."""
    runs: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif runs:
            runs[-1][1].append(line)
    return [(command, "\n".join(lines).strip() + "\n") for command, lines in runs]


def test_every_family_has_a_tutorial():
    assert all(path.is_file() for path in TUTORIALS)


def test_every_rule_of_the_puzzle_language_has_a_tutorial():
    rules = {path.stem for path in (DOCS / "rules").glob("*.md")}
    assert rules == {"cell-sets", "blocking", "covers", "attacks", "goals", "wraps", "parameters", "lines", "connected",
                     "board-counts", "private"}


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_runs(tutorial, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "img").mkdir()
    text = tutorial.read_text(encoding="utf-8")
    namespace: dict[str, object] = {}
    checker = doctest.OutputChecker()
    blocks = BLOCK.findall(text)
    assert any(kind == "pycon" for kind, _ in blocks), "a tutorial shows the Python API"
    for kind, body in blocks:
        if kind == "pycon":
            test = doctest.DocTestParser().get_doctest(body, namespace, tutorial.stem, str(tutorial), 0)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            output: list[str] = []
            runner.run(test, out=output.append, clear_globs=False)
            assert runner.failures == 0, "".join(output)
            namespace = test.globs  # a DocTest runs in a copy: carry the names on to the next block
        elif kind == "console":
            for command, expected in _console(body):
                words = shlex.split(command)
                assert words[0] == "queens", f"console blocks run the queens command only: {command}"
                result = run_main(*words[1:])  # in this process: the page's commands, not the script's start-up
                assert result.returncode == 0, f"{command}\n{result.stderr}"
                assert checker.check_output(expected, result.stdout, FLAGS), (
                    f"{command}\n--- expected\n{expected}--- got\n{result.stdout}")
    for picture in PICTURE.findall(text):
        committed, written = DOCS / picture, tmp_path / picture
        if UPDATE and written.exists():
            committed.write_bytes(written.read_bytes())
        assert committed.is_file(), f"{tutorial.name} shows {picture}, which is missing from docs/"
        if written.exists():
            assert written.read_bytes() == committed.read_bytes(), (
                f"{picture} is out of date: rerun with {UPDATE_SWITCH}=1 to rewrite it")


def test_the_tutorial_index_lists_every_registered_family():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    assert all(f"| {name} | [{name}.md]({name}.md) |" in index for name in FAMILIES)
