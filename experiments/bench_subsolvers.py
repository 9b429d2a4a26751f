"""Which CP-SAT workers should prove optima on a small machine? `cpsat` (OPTIMA_SUBSOLVERS on
fewer than 8 cores: the full linear relaxation and the core-based bound) against
`cpsat search=portfolio` (CP-SAT's own choice of workers), side by side in one run.

Each run is the public call (`queens.optimise`: lowering, solving, the checker), with a time
limit; the optimum is checked against the repository's terms (A075458, A250000, the independence
closed forms). Medians of REPEATS runs, taken in turns; the load average beside the table.

    python -m queens.experiments.bench_subsolvers [--repeats 3] [--limit 30]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from datetime import date

from queens.experiments.bench_backends import terms
from queens.experiments.bench_frontier import closed_form
from queens.experiments.bench_mip import independent
from queens.models import Puzzle
from queens.models.families import FamilyOptions, build
from queens.solvers import Status

import queens

CASES: list[tuple[str, Callable[[], Puzzle], Callable[[], int]]] = [
    *((f"independence: knights {n} × {n}", lambda n=n: independent("knight", n), lambda n=n: closed_form("knight", n))
      for n in (10, 12, 16)),
    ("independence: kings 12 × 12", lambda: independent("king", 12), lambda: closed_form("king", 12)),
    *((f"queen domination n = {n}", lambda n=n: build("domination", FamilyOptions(n)),
       lambda n=n: terms("A075458", n)) for n in (8, 10, 11)),
    *((f"peaceable queens n = {n}", lambda n=n: build("peaceable", FamilyOptions(n)),
       lambda n=n: terms("A250000", n)) for n in (6, 7)),
]
SETTINGS = {"cpsat (max_lp, core)": {}, "cpsat search=portfolio": {"search": "portfolio"}}


def run(puzzle: Puzzle, options: dict[str, str], limit: float) -> tuple[float, int | None, bool]:
    start = time.perf_counter()
    result = queens.optimise(puzzle, "cpsat", time_limit=limit, **options)
    return time.perf_counter() - start, result.objective, result.status is Status.OPTIMAL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CP-SAT's workers for optima, side by side (prints Markdown).")
    parser.add_argument("--repeats", type=int, default=3, help="runs per cell, taken in turns")
    parser.add_argument("--limit", type=float, default=30.0, help="time limit per run, seconds")
    asked = parser.parse_args(argv)
    print(f"`python -m queens.experiments.bench_subsolvers --repeats {asked.repeats} --limit {asked.limit:g}`, "
          f"{date.today()}, {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}.\n")
    print("| problem | optimum | " + " | ".join(f"{name} s" for name in SETTINGS) + " | ratio |")
    print("|---|---:|" + "---:|" * len(SETTINGS) + "---:|")
    for name, puzzle_of, optimum_of in CASES:
        puzzle, optimum = puzzle_of(), optimum_of()
        times: dict[str, list[float]] = {setting: [] for setting in SETTINGS}
        shown: dict[str, str] = {}
        for _ in range(asked.repeats):
            for setting, options in SETTINGS.items():
                seconds, value, proved = run(puzzle, options, asked.limit)
                times[setting].append(seconds)
                if not proved:
                    shown[setting] = f"limit ({value})"
                elif value != optimum:
                    shown[setting] = f"WRONG ({value})"
        cells = [shown.get(setting, f"{statistics.median(times[setting]):.2f}") for setting in SETTINGS]
        medians = [statistics.median(times[setting]) for setting in SETTINGS]
        print(f"| {name} | {optimum} | " + " | ".join(cells) + f" | {medians[0] / medians[1]:.2f}× |", flush=True)
    print(f"\nLoad average at the end {os.getloadavg()[0]:.2f}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
