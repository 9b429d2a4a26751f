"""Ground truth for the CLI's ✓/✗ column: the native counter.

The CLI cannot read the OEIS files (they are the tests' fixtures, not part of the package),
so a count is checked against the suite's own ground truth, the native bitset search.
"""

from __future__ import annotations

from models import QueensError
from models.alternatives import Alternatives
from models.puzzle import Puzzle
from solvers import Result, Status
from solvers.classes import count_target


def ground_truth(puzzle: Puzzle | Alternatives, results: list[Result]) -> int | None:
    """The native count: reused if native is among `results`, else computed (None if it can't)."""
    for result in results:
        if result.backend == "native" and result.status is Status.COMPLETE:
            return result.count
    try:
        truth = count_target(puzzle, "native")
    except QueensError:
        return None
    return truth.count if truth.status is Status.COMPLETE else None
