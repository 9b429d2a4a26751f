"""The teaching engine's tutorials (docs/propagation.md, docs/ladder.md, docs/search-strategies.md)
run as every tutorial does (tests/test_docs.py: pycon blocks as doctests, console blocks as the
real command, pictures byte for byte), so their printed counts cannot rot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import test_docs

TUTORIALS = [test_docs.DOCS / name for name in ("propagation.md", "ladder.md", "search-strategies.md")]


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[path.stem for path in TUTORIALS])
def test_teaching_tutorial_runs(tutorial: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    test_docs.test_tutorial_runs(tutorial, tmp_path, monkeypatch)
