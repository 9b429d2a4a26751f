"""`make run`: every family's examples on every backend, checked against the native ground truth.

The rows are the family registry's examples (`queens.models.families`), the columns the
backend registry (`queens.solvers.registry`): a new family or backend appears here without an
edit. Each backend counts with its best strategy (the router, narrowed to it). A backend that
cannot answer shows `n/a (reason)`: that is not a disagreement. Exits 3 if an answer given
disagrees with the native counter, else 0.
"""

from __future__ import annotations

import sys
import time

from queens.models import Puzzle, QueensError, Unsupported
from queens.models.errors import Refused
from queens.models.families import FAMILIES, build
from queens.solvers import BACKENDS, Result, Status, count
from rich.console import Console
from rich.table import Table

TIME_LIMIT = 60.0


def jobs() -> list[tuple[str, Puzzle]]:
    """(label, puzzle) for every example of every registered family."""
    return [(f"{name} {label}", build(name, options)) for name, family in FAMILIES.items()
            for label, options in family.examples]


def _cell(target: Puzzle, backend: str) -> tuple[list[str], int | None]:
    """The table cells for one backend, and its count when it finished (None: no answer)."""
    try:
        result: Result = count(target, backend, time_limit=TIME_LIMIT)
    except Refused as refusal:
        return [f"n/a ({'; '.join(refusal.reasons)})", ""], None
    except Unsupported as refusal:
        return [f"n/a ({refusal})", ""], None
    except QueensError as error:
        return [f"error: {error}", ""], None
    if result.status is not Status.COMPLETE:
        return [result.bound, f"{result.wall_time:.2f}"], None
    return [f"{result.count:,}", f"{result.wall_time:.2f}"], result.count


def main() -> int:
    console = Console(highlight=False, width=200)
    table = Table(title="Solution counts per backend (✓ = every answer equals the native counter; "
                        "n/a = the backend cannot answer, and says why)")
    table.add_column("family", no_wrap=True)
    for name in BACKENDS:
        table.add_column(name, justify="right", max_width=40)
        table.add_column("s", justify="right", style="dim")
    table.add_column("agree", justify="center")
    disagreements = 0
    start = time.perf_counter()
    for label, target in jobs():
        cells: list[str] = []
        counts: dict[str, int] = {}
        for backend in BACKENDS:
            shown, found = _cell(target, backend)
            cells += shown
            if found is not None:
                counts[backend] = found
        truth = counts.get("native", next(iter(counts.values()), None))
        agree = all(found == truth for found in counts.values())
        disagreements += not agree
        table.add_row(label, *cells, ("✓" if counts else "-") if agree else "✗")
    console.print(table)
    console.print(f"total time {time.perf_counter() - start:.1f} s")
    return 3 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
