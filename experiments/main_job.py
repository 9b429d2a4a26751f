"""`make run`: every family on every backend, checked against the native ground truth.

Plain n-queens for n = 4..10, then one line per variant family: the count from each backend
and whether all agree with the native counter (✓). Exits 3 if any backend disagrees, like
`queens count`.
"""

from __future__ import annotations

import sys
import time

from queens.models import Completion, NQueens, Puzzle, QueensError
from queens.models.alternatives import Alternatives
from queens.models.domination import Domination
from queens.models.ninequeens import FreePawns, NineQueens
from queens.models.pieces_families import Bishops, Kings, Knights, RectangularQueens, Rooks
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal
from queens.solvers import BACKENDS, Status
from queens.solvers.classes import count_target
from rich.console import Console
from rich.table import Table

JOBS: list[tuple[str, Puzzle | Alternatives]] = [
    *((f"nqueens n={n}", NQueens(n)) for n in range(4, 11)),
    ("nqueens 6x9", RectangularQueens(6, 9)),
    ("completion n=8, queen at 0,0", Completion(8, [(0, 0)])),
    ("superqueens n=10", Superqueens(10)),
    ("toroidal n=7", Toroidal(7)),
    ("domination n=5 (minimum sets)", Domination(5)),
    ("independent domination n=5", Domination(5, independent=True)),
    ("ninequeens 8x8, pawn at 3,3", NineQueens(8, [(3, 3)])),
    ("ninequeens 8x8, 1 free pawn", FreePawns(8, 1)),
    ("rooks n=6", Rooks(6)),
    ("bishops n=6", Bishops(6)),
    ("kings n=6", Kings(6)),
    ("knights n=4, 6 knights", Knights(4, 6)),
]


def main() -> int:
    console = Console(highlight=False, width=160)
    table = Table(title="Solution counts per backend (✓ = every backend equals the native counter)")
    table.add_column("family", no_wrap=True)
    for name in BACKENDS:
        table.add_column(name, justify="right")
        table.add_column("s", justify="right", style="dim")
    table.add_column("agree", justify="center")
    disagreements = 0
    start = time.perf_counter()
    for label, target in JOBS:
        cells, counts = [], []
        for backend in BACKENDS:
            try:
                result = count_target(target, backend, time_limit=60)
            except QueensError as error:
                cells += [f"error: {error}", ""]
                counts.append(None)
                continue
            complete = result.status is Status.COMPLETE
            counts.append(result.count if complete else None)
            cells += [f"{result.count:,}" if complete else result.status.value, f"{result.wall_time:.2f}"]
        agree = len(set(counts)) == 1 and None not in counts
        disagreements += not agree
        table.add_row(label, *cells, "✓" if agree else "✗")
    console.print(table)
    console.print(f"total time {time.perf_counter() - start:.1f} s")
    return 3 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
