"""Which CNF encoding should the `sat` backend use by default? Measure, side by side.

For each pysat encoding: the time to count Q(n) by blocking clauses (the enumeration workload,
without symmetry breaking, so that every encoding solves the model alone) with CaDiCaL's own
effort counters beside it, and to find one n-queens solution (the single-solve workload),
medians of a few runs, plus the CNF size as `queens explain` gives it (the model's, no
lex-leader chains). Prints a Markdown table; the fastest overall becomes DEFAULT_ENCODING.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from queens.models import NQueens
from queens.solvers import Result, solve
from queens.solvers.api import count
from queens.solvers.formats.cnf import DEFAULT_ENCODING, ENCODINGS

COUNT_N = 10
SOLVE_N = 60
REPEATS = 3


def _median_seconds(job: Callable[[], Result]) -> tuple[float, Result]:
    """The median time of REPEATS runs of `job`, and the last run's result (for its stats)."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)  # --help, and no option
    print(f"| encoding | count Q({COUNT_N}) s | conflicts | decisions | solve n={SOLVE_N} s | clauses (n={SOLVE_N}) "
          f"| aux vars (n={SOLVE_N}) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = []
    for name in ENCODINGS:
        def counts(name: str = name) -> Result:
            return count(NQueens(COUNT_N), "sat", encoding=name, symmetry=False, split=False)

        def solves(name: str = name) -> Result:
            return solve(NQueens(SOLVE_N), "sat", encoding=name, time_limit=120)

        counting, counted = _median_seconds(counts)
        solving, solved = _median_seconds(solves)
        effort, stats = counted.stats, solved.stats
        rows.append((counting + solving, name))
        print(f"| {name}{' (default)' if name == DEFAULT_ENCODING else ''} | {counting:.3f} | {effort['conflicts']:,} "
              f"| {effort['decisions']:,} | {solving:.3f} | {stats['clauses']:,} | {stats['auxiliary']:,} |")
    print(f"\nfastest overall: {min(rows)[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
