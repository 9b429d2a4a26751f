"""Ground truth for the CLI's ✓/✗ column: the native counter.

The CLI cannot read the OEIS files (they are the tests' fixtures, not part of the package),
so a count is checked against the suite's own ground truth, the native bitset search.
"""

from __future__ import annotations

from queens.models import QueensError
from queens.models.puzzle import Puzzle
from queens.solvers import Result, Status
from queens.solvers.routing.router import count


def ground_truth(puzzle: Puzzle, results: list[Result], time_limit: float | None) -> int | None:
    """The native count: native's own among `results` when it ran (None unless it finished),
    else counted here within `time_limit` (None if it can't)."""
    native = next((result for result in results if result.backend == "native"), None)
    if native is not None:
        return native.count if native.status is Status.COMPLETE else None
    try:
        truth = count(puzzle, "native", time_limit=time_limit)
    except QueensError:
        return None
    return truth.count if truth.status is Status.COMPLETE else None
