"""Shared fixtures: the OEIS ground truth in tests/data/sequences.json, each term with its source
(the real CLI: tests/cli.py)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from queens.solvers import get_backend
from queens.solvers.backend import Task

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "data" / "sequences.json"


class Reference:
    """OEIS terms by sequence id, indexed the way the sequence is (its offset respected)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def term(self, sequence: str, n: int) -> int:
        entry = self._data[sequence]
        term: int = entry["terms"][n - entry["offset"]]
        return term

    def known(self, sequence: str) -> range:
        entry = self._data[sequence]
        return range(entry["offset"], entry["offset"] + len(entry["terms"]))


@pytest.fixture(scope="session")
def reference() -> Reference:
    if not REFERENCE.is_file():
        pytest.fail(f"ground truth missing: {REFERENCE}")
    return Reference(json.loads(REFERENCE.read_text()))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--backend", action="append", default=[], metavar="NAME",
                     help="run the backend grid and contract tests on this backend only (repeatable), "
                          "as CPMpy's `pytest --solver NAME`; tests that name no backend still run")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With --backend NAME, leave out every test parametrised with another registered backend."""
    chosen = set(config.getoption("--backend"))
    if not chosen:
        return
    from queens.solvers.registry import BACKENDS

    unknown = chosen - set(BACKENDS)
    if unknown:
        raise pytest.UsageError(f"--backend {', '.join(sorted(unknown))}: not registered; choose from "
                                f"{', '.join(BACKENDS)}")
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        named = {value for value in params.values() if isinstance(value, str) and value in BACKENDS}
        (dropped if named and not named & chosen else kept).append(item)
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)


def able(backends: Iterable[str], task: Task) -> list[str]:
    """The backends among `backends` that do `task` at all: a backend that never counts or lists
    solutions (mip) refuses it in `limits` before any work, and a counting test reads that
    refusal here, never a backend's name."""
    return [name for name in backends if get_backend(name).limits(1, 1, task) is None]
