"""`make run`: every family on every backend for small sizes, checked against ground truth.

One line per (family, n): the count from each backend and whether all agree with the native
counter. Exits 3 if any backend disagrees, like `queens count`.
"""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.table import Table

from models import NQueens, Puzzle, QueensError
from solvers import BACKENDS, Status, count

JOBS: list[tuple[str, list[Puzzle]]] = [
    ("nqueens", [NQueens(n) for n in range(4, 11)]),
]


def main() -> int:
    console = Console(highlight=False)
    table = Table(title="Solution counts per backend (✓ = equals the native counter)")
    table.add_column("family")
    table.add_column("n", justify="right")
    for name in BACKENDS:
        table.add_column(name, justify="right")
        table.add_column("s", justify="right", style="dim")
    table.add_column("agree", justify="center")
    disagreements = 0
    start = time.perf_counter()
    for family, puzzles in JOBS:
        for puzzle in puzzles:
            cells, counts = [], []
            for backend in BACKENDS:
                try:
                    result = count(puzzle, backend, time_limit=60)
                except QueensError as error:
                    cells += [f"error: {error}", ""]
                    continue
                complete = result.status is Status.COMPLETE
                counts.append(result.count if complete else None)
                cells += [f"{result.count:,}" if complete else result.status.value, f"{result.wall_time:.2f}"]
            agree = len(set(counts)) == 1 and None not in counts
            disagreements += not agree
            table.add_row(family, str(puzzle.rows), *cells, "✓" if agree else "✗")
    console.print(table)
    console.print(f"total time {time.perf_counter() - start:.1f} s")
    return 3 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
