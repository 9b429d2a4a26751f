"""docs/support.md's table of constructs x backends is what the backends say today: generated
from the router's refusals (`queens.solvers.routing.support_table`), checked here, rewritten with
QUEENS_UPDATE_DOCS=1 (as the tutorials' pictures are)."""

from __future__ import annotations

import os
from pathlib import Path

from queens.solvers.routing.support_table import CONSTRUCTS, support_table

SUPPORT = Path(__file__).resolve().parents[1] / "docs" / "support.md"
BEGIN = "<!-- generated: queens.solvers.routing.support_table.support_table -->\n"
END = "<!-- end of generated table -->\n"


def test_the_support_table_is_generated_and_current():
    text = SUPPORT.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    table = support_table()
    if os.environ.get("QUEENS_UPDATE_DOCS") == "1":
        SUPPORT.write_text(head + BEGIN + table + END + tail, encoding="utf-8")
    assert rest.split(END)[0] == table, "docs/support.md is out of date: rerun with QUEENS_UPDATE_DOCS=1"


def test_every_construct_is_answered_by_some_backend():
    for construct, answers in _rows():
        assert any(answer.startswith("yes") for answer in answers.values()), construct


def _rows() -> list[tuple[str, dict[str, str]]]:
    from queens.solvers.routing.support_table import support_rows

    rows = support_rows()
    assert [construct for construct, _ in rows] == list(CONSTRUCTS)
    return rows
