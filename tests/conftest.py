"""Shared fixtures: the OEIS ground truth in tests/data/sequences.json, each term with its source
(the real CLI: tests/cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "data" / "sequences.json"


class Reference:
    """OEIS terms by sequence id, indexed the way the sequence is (its offset respected)."""

    def __init__(self, data: dict) -> None:
        self._data = data

    def term(self, sequence: str, n: int) -> int:
        entry = self._data[sequence]
        return entry["terms"][n - entry["offset"]]

    def known(self, sequence: str) -> range:
        entry = self._data[sequence]
        return range(entry["offset"], entry["offset"] + len(entry["terms"]))


@pytest.fixture(scope="session")
def reference() -> Reference:
    if not REFERENCE.is_file():
        pytest.fail(f"ground truth missing: {REFERENCE}")
    return Reference(json.loads(REFERENCE.read_text()))
