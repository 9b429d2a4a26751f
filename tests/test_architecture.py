"""docs/architecture.md stays true: every file and every dotted name it cites exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
CITED = re.findall(r"`([^`\s]+)`", PAGE)
STRATEGIES = ("native/", "python/", "sat/")  # `sat/search` names a strategy, not a file


def _is_path(cited: str) -> bool:
    """A file (a/b.py) or a folder (a/b/) the page names."""
    return "/" in cited and not cited.startswith(STRATEGIES) and (cited.endswith("/") or "." in cited.split("/")[-1])


PATHS = sorted({c for c in CITED if _is_path(c)})
NAMES = sorted({c.removesuffix("()") for c in CITED if re.fullmatch(r"queens(\.\w+)+", c.removesuffix("()"))})


def test_the_page_cites_files_and_names() -> None:
    assert len(PATHS) > 30 and len(NAMES) > 10


@pytest.mark.parametrize("path", PATHS)
def test_a_cited_file_exists(path: str) -> None:
    assert (ROOT / path).exists(), path


@pytest.mark.parametrize("name", NAMES)
def test_a_cited_name_exists(name: str) -> None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return
    pytest.fail(f"{name} cannot be imported")
