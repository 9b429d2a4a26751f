"""The repository stands alone: a clone with no sibling folders has everything it needs."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUTSIDE = ".." + "/shared"  # spelled in two parts so this file does not name it itself


def test_no_tracked_file_reaches_outside_the_repo() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    naming = [name for name in tracked.split() if (REPO / name).is_file()
              and OUTSIDE in (REPO / name).read_text(encoding="utf-8", errors="replace")]
    assert naming == []


def test_the_ground_truth_and_the_yardstick_are_in_the_repo() -> None:
    assert (REPO / "tests" / "data" / "sequences.json").is_file()
    assert (REPO / "experiments" / "yardstick" / "classic.c").is_file()
