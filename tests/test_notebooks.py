"""The notebooks in docs/notebooks/, executed as a student runs them (nbclient, a real IPython
kernel, the notebook's own folder as its working directory).

They are stored without outputs; a run fails on any error in any cell. What a notebook prints is
its own claim, so each one checks itself: every number it prints is asserted in the cell that
prints it, against OEIS (tests/data/sequences.json), a brute force written in the notebook, or
Gecode through MiniZinc. This test holds that shape: every code cell that shows anything has an
`assert`, each notebook draws at least one board or tree inline (SVG), and none is stored with
outputs. The executed copies are kept in build/notebooks/ (their paths printed: `pytest -rP`).
A notebook that takes longer than the suite's budget for one test is marked slow.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from queens.models import NQueens, lower
from queens.solvers.api import count
from queens.solvers.backends.minizinc import MiniZinc

from tests.conftest import Reference

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "docs" / "notebooks"
EXECUTED = REPO / "build" / "notebooks"
SLOW = {"comparing-backends"}
"""Notebooks over the ~12 s a test may take in `make test` (every backend's imports, MiniZinc's calls):
run by `make test-slow`."""
TIMEOUT = 300
"""Seconds a cell may take on a loaded machine (the longest takes a few)."""


def _notebooks() -> list[object]:
    return [pytest.param(path, id=path.stem, marks=[pytest.mark.slow] if path.stem in SLOW else [])
            for path in sorted(NOTEBOOKS.glob("*.ipynb"))]


def test_there_are_the_four_notebooks_the_issue_asks_for() -> None:
    names = {path.stem for path in NOTEBOOKS.glob("*.ipynb")}
    assert {"modelling-and-viewpoints", "propagation-and-search", "symmetry", "comparing-backends"} <= names
    assert SLOW <= names


def _read(path: Path) -> nbformat.NotebookNode:
    notebook: nbformat.NotebookNode = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # no hints
    return notebook


def _shows_something(cell: nbformat.NotebookNode) -> bool:
    return bool(cell.get("outputs"))


def _asserts(source: str) -> bool:
    return any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(source)))


@pytest.mark.parametrize("path", _notebooks())
def test_the_notebook_runs_and_checks_every_number_it_prints(path: Path) -> None:
    stored = _read(path)
    nbformat.validate(stored)
    assert not any(_shows_something(cell) for cell in stored.cells if cell.cell_type == "code"), \
        f"{path.name} is stored with outputs: clear them (the test runs it)"
    executed = _read(path)
    NotebookClient(executed, timeout=TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()  # raises on any cell's error
    EXECUTED.mkdir(parents=True, exist_ok=True)
    kept = EXECUTED / path.name
    nbformat.write(executed, kept)  # type: ignore[no-untyped-call]  # as `_read`
    print(f"executed notebook: {kept}")
    code = [cell for cell in executed.cells if cell.cell_type == "code"]
    for cell in code:
        if _shows_something(cell):
            assert _asserts(cell.source), f"{path.name}: a cell shows output without asserting it:\n{cell.source}"
    drawn = [output for cell in code for output in cell.outputs
             if output.output_type in ("display_data", "execute_result")
             and ("image/svg+xml" in output.data or "<svg" in output.data.get("text/html", ""))]
    assert drawn, f"{path.name} draws no board or tree inline"


def test_minizinc_answers_where_an_event_loop_already_runs(reference: Reference) -> None:
    """A notebook's kernel runs an event loop; the minizinc backend's call ran one of its own in
    the same thread and failed ("Cannot run the event loop while another loop is running")."""
    absent = MiniZinc().supports(lower(NQueens(4)))
    if absent:
        pytest.skip(absent)

    async def in_a_notebook() -> int | None:
        return count(NQueens(6), "minizinc").count

    assert asyncio.run(in_a_notebook()) == reference.term("A000170", 6)
