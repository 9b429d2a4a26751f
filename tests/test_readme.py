"""The README, the front door, says only what runs, and the pages that took its journal too.

Read the way tests/test_docs.py reads a tutorial, on the README and the pages under docs/ that
hold what it used to (`PAGES`):

- a ```console block holds `$ queens ...` lines, each run through `queens.cli.main` in this
  process (`tests.cli.run_main`: the command's own messages and codes; the console script's
  start-up and signals are tests/test_cli.py's and tests/test_interrupt.py's) in a scratch
  folder that sees the clone's `models/`, `experiments/` and `docs/`; its output (stdout, or
  stderr for a command that fails) is compared with `...` standing for anything, and a
  trailing `# exit N` is the exit code it must give (0 when none is written);
- a ```pycon block is a doctest, in one namespace per page, in the same kind of folder; a
  picture the page shows and its code draws must be byte-for-byte the one in docs/img;
- a table with a `command` and an `answer` column is run row by row through `queens.cli.main`
  in this process (the script's own messages and codes, without starting an interpreter per
  row: `tests.cli.run_main`), and the answer must be in what it prints; where the row's
  `checked against` names a sequence of tests/data/sequences.json, or n!, 2^n or n, the
  answer's number must also be that term, so a count shown is a count known.

The numbers the README states are read from the registries (backends, families, published
puzzles, commands, extras), every relative link resolves, and the router's order in
docs/how-it-works.md is `PREFERENCE`'s.
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import math
import re
import shlex
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from queens.models.families import FAMILIES
from queens.solvers.registry import BACKENDS
from queens.solvers.routing.router import PREFERENCE

from queens.cli import cli
from tests.cli import run_main

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
PAGES = [README, *(REPO / "docs" / name for name in (
    "api.md", "commands.md", "counting.md", "how-it-works.md", "learning.md", "measurements.md"))]
LONGEST = 450
"""Lines the README may hold: a front door, not a journal (the hook warns past this)."""
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
EXIT = re.compile(r"#\s*exit (\d+)\s*$")
SEQUENCES = json.loads((REPO / "tests/data/sequences.json").read_text(encoding="utf-8"))
FORMULAS: dict[str, Callable[[int], int]] = {"n!": math.factorial, "2^n": lambda n: 2 ** n, "n": lambda n: n}
"""The closed forms a row may be checked against, beside the sequences."""


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _blocks(page: Path, kind: str) -> list[str]:
    return [body for found, body in BLOCK.findall(_text(page)) if found == kind]


def _console(page: Path) -> list[tuple[str, str, str]]:
    """(page name, command line, expected output) for each `$ ` line of the page's console blocks."""
    runs: list[tuple[str, list[str]]] = []
    for block in _blocks(page, "console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], []))
            elif runs:
                runs[-1][1].append(line)
    return [(page.name, command, "\n".join(lines).strip() + "\n") for command, lines in runs]


def _tables(page: Path) -> list[list[dict[str, str]]]:
    """Every Markdown table of the page, as rows keyed by the header's cells."""
    tables: list[list[dict[str, str]]] = []
    header: list[str] | None = None
    for line in _text(page).splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
            tables.append([])
        elif not set("".join(cells)) <= set("-: "):
            tables[-1].append(dict(zip(header, cells, strict=True)))
    return tables


def _rows(page: Path, column: str) -> list[dict[str, str]]:
    """The rows of every table of the page that has `column`."""
    return [row for table in _tables(page) for row in table if column in row]


def _command_rows() -> list[dict[str, str]]:
    return [row for page in PAGES for row in _rows(page, "answer") if "command" in row]


def _scratch(folder: Path) -> Path:
    """A folder that sees the clone's models/, experiments/ and docs/ (pages name files in them)."""
    for name in ("models", "experiments", "docs"):
        (folder / name).symlink_to(REPO / name)
    return folder


def _needs(text: str) -> str | None:
    """Why an example cannot run here (an optional tool it names is missing), or None."""
    if "minizinc" in text and (shutil.which("minizinc") is None or importlib.util.find_spec("minizinc") is None):
        return "MiniZinc (the binary and the minizinc package) is not installed"
    if "--certify" in text and not all(importlib.util.find_spec(name) for name in ("drup", "dratify")):
        return "the certify extra is not installed"
    return None


def _number(answer: str) -> int:
    found = re.search(r"\d[\d,]*", answer)
    assert found, f"no number in the answer {answer!r}"
    return int(found.group().replace(",", ""))


def _term(source: str, n: int) -> int | None:
    """The known value `source` gives at n: a sequence's term, a closed form's value, or None."""
    if source in FORMULAS:
        return FORMULAS[source](n)
    if source in SEQUENCES and SEQUENCES[source].get("terms"):
        entry = SEQUENCES[source]
        return int(entry["terms"][n - entry["offset"]])
    assert not source, f"{source!r} is neither a sequence of tests/data/sequences.json nor one of {sorted(FORMULAS)}"
    return None


CONSOLE = [run for page in PAGES for run in _console(page)]
ROWS = _command_rows()


@pytest.mark.parametrize("page,command,expected", CONSOLE, ids=[f"{page}: {command}" for page, command, _ in CONSOLE])
def test_each_console_example_prints_what_the_page_shows(page: str, command: str, expected: str,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reason = _needs(command + expected)
    if reason:
        pytest.skip(reason)
    code = EXIT.search(command)
    words = shlex.split(command, comments=True)
    assert words[0] == "queens", f"console blocks run the queens command only: {command}"
    monkeypatch.chdir(_scratch(tmp_path))
    result = run_main(*words[1:])  # in this process: the page's commands, not the console script's start-up
    assert result.returncode == (int(code.group(1)) if code else 0), f"{command}\n{result.stderr}"
    shown = result.stdout if result.returncode == 0 else result.stderr
    assert doctest.OutputChecker().check_output(expected, shown, FLAGS), (
        f"{command}\n--- expected\n{expected}--- got\n{shown}")


@pytest.mark.parametrize("page", [page for page in PAGES if _blocks(page, "pycon")], ids=lambda page: page.name)
def test_each_python_example_runs_as_shown(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_scratch(tmp_path))
    namespace: dict[str, object] = {}
    for body in _blocks(page, "pycon"):
        test = doctest.DocTestParser().get_doctest(body, namespace, page.stem, str(page), 0)
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        output: list[str] = []
        runner.run(test, out=output.append, clear_globs=False)
        assert runner.failures == 0, "".join(output)
        namespace = test.globs
    for picture in PICTURE.findall(_text(page)):
        drawn = tmp_path / Path(picture).name
        if drawn.exists():  # the page's own code drew it: the committed picture is today's drawing
            assert drawn.read_bytes() == (page.parent / picture).read_bytes(), f"{picture} is not what the code draws"


@pytest.mark.parametrize("row", ROWS, ids=[row["command"].strip("`") for row in ROWS])
def test_each_row_prints_its_answer_and_the_answer_is_known(row: dict[str, str]) -> None:
    command = row["command"].strip("`")
    reason = _needs(command)
    if reason:
        pytest.skip(reason)
    words = shlex.split(command)
    assert words[0] == "queens"
    result = run_main(*words[1:])
    assert result.returncode == 0, f"{command}\n{result.stderr}"
    assert " ".join(row["answer"].split()) in " ".join(result.stdout.split()), (
        f"{command}: the table says {row['answer']!r}, the command printed\n{result.stdout}")
    known = _term(row.get("checked against", ""), int(words[words.index("-n") + 1]))
    assert known is None or _number(row["answer"]) == known, f"{command}: {row['answer']} against {known}"


def test_the_readme_is_a_front_door() -> None:
    assert len(_text(README).splitlines()) <= LONGEST


def test_the_readme_states_the_registries_numbers() -> None:
    """"7 backends", "17 families", "8 published": each number the README writes is counted."""
    text = _text(README)
    counted = {"backends": len(BACKENDS), "families": len(FAMILIES),
               "published": len(list((REPO / "models/puzzles/published").glob("*.toml")))}
    for noun, number in counted.items():
        stated = {int(found) for found in re.findall(rf"\b(\d+) {noun}\b", text)}
        assert stated == {number}, f"the README says {sorted(stated)} {noun}; there are {number}"


def test_the_readme_tables_list_every_backend_family_command_and_extra() -> None:
    assert [row["backend"] for row in _rows(README, "backend") if "command" in row] == list(BACKENDS)
    assert [row["family"] for row in _rows(README, "family")] == list(FAMILIES)
    shown = {row["command"].strip("`").split()[1] for row in _rows(README, "what it does")}
    assert shown == set(cli.list_commands(click.Context(cli)))
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [row["extra"].strip("`") for row in _rows(README, "extra")] == list(extras)


def test_the_readme_shows_a_shipped_puzzle_file_as_it_is() -> None:
    (shown,) = _blocks(README, "toml")
    path = re.findall(r"`(models/puzzles/\S+\.toml)`", _text(README).split("```toml")[0])[-1]  # named just before it
    assert shown == (REPO / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_and_picture_resolves(page: Path) -> None:
    missing = [target for target in LINK.findall(_text(page))
               if "://" not in target and not (page.parent / target).exists()]
    assert not missing, f"{page.name} links to {missing}"


def test_the_router_order_shown_is_the_routers() -> None:
    shown = {row["task"]: re.findall(r"`([a-z]+/[a-z]+)`", row["order (first that supports the puzzle answers)"])
             for row in _rows(REPO / "docs/how-it-works.md", "task")}
    assert shown == {task.value: list(order) for task, order in PREFERENCE.items()}
