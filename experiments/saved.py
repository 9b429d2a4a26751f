"""Where the benchmarks keep their tables, and how a table is written there: whole or not at all.

A benchmark runs for minutes to hours; interrupted, it must leave the last complete table in place
rather than half a new one, so the text goes to a `.partial` file beside the target first and
replaces it in one rename.
"""

from __future__ import annotations

import os
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
"""experiments/results/: every table a benchmark writes, committed with its date and machine."""


def save(path: Path, text: str) -> None:
    """Write `text` to `path` whole (see the module docstring), creating its folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".partial")
    partial.write_text(text)
    os.replace(partial, path)
