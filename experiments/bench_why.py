"""Issue 22's target for `queens why`, measured: a smallest set of givens with no solution, found
and checked within 1 s for a completion with up to 30 givens on boards up to 20 x 20.

Each instance is drawn by a seeded generator: QUEENS non-attacking queens placed at random on an
n x n board, HOLES empty squares at random among the rest, kept when the router proves it has no
solution (so the givens are the queens, the holes and the count of n queens: 30 by default).
Timed is the whole `why_not_puzzle` call, as `queens why` and the explorer's why? button make it:
the deletion search (found) and the two-sided check on fresh solvers with the independent checker
on every witness (checked). Medians and maxima over the instances; the load average beside them,
since the machine is shared.

    python -m queens.experiments.bench_why [--n 20] [--queens 14] [--holes 15] [--instances 20] [--seed 30]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
from dataclasses import replace
from datetime import date

from queens.models import Completion, Puzzle
from queens.models.givens import givens_of
from queens.solvers import Status, solve
from queens.solvers.proofs.why import why_not_puzzle


def infeasible(rng: random.Random, n: int, queens: int, holes: int) -> Puzzle | None:
    """QUEENS non-attacking queens and HOLES holes drawn at random, or None when the draw fails or
    the puzzle has a solution."""
    cells: list[tuple[int, int]] = []
    for _ in range(50 * queens):
        if len(cells) == queens:
            break
        r, c = rng.randrange(n), rng.randrange(n)
        if all(r != r2 and c != c2 and r - c != r2 - c2 and r + c != r2 + c2 for r2, c2 in cells):
            cells.append((r, c))
    if len(cells) < queens:
        return None
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cells]
    puzzle = replace(Completion(n, cells), holes=frozenset(rng.sample(free, holes)))
    return puzzle if solve(puzzle, time_limit=60).status is Status.INFEASIBLE else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="queens why on random infeasible completions (prints Markdown).")
    parser.add_argument("--n", type=int, default=20, help="board side")
    parser.add_argument("--queens", type=int, default=14, help="queens placed")
    parser.add_argument("--holes", type=int, default=15, help="holes")
    parser.add_argument("--instances", type=int, default=20, help="infeasible instances measured")
    parser.add_argument("--seed", type=int, default=30, help="the generator's seed")
    asked = parser.parse_args(argv)
    rng = random.Random(asked.seed)
    before = os.getloadavg()
    rows: list[tuple[float, float, int, int]] = []
    while len(rows) < asked.instances:
        puzzle = infeasible(rng, asked.n, asked.queens, asked.holes)
        if puzzle is None:
            continue
        answer = why_not_puzzle(puzzle)
        rows.append((answer.seconds, answer.check_seconds, len(givens_of(puzzle)), len(answer.subset)))
    found, checked = [r[0] for r in rows], [r[1] for r in rows]
    together = [f + c for f, c in zip(found, checked, strict=True)]
    print(f"`python -m queens.experiments.bench_why --n {asked.n} --queens {asked.queens} --holes {asked.holes} "
          f"--instances {asked.instances} --seed {asked.seed}`, {date.today()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {before[0]:.2f} before, {os.getloadavg()[0]:.2f} after.\n")
    print("| board | givens (queens + holes + the count) | subset sizes | found median / max s "
          "| checked median / max s | together median / max s | target ≤ 1 s |")
    print("|---|---|---|---:|---:|---:|:---:|")
    sizes = sorted(r[3] for r in rows)
    print(f"| {asked.n} × {asked.n} | {asked.queens} + {asked.holes} + 1 = {rows[0][2]} | {sizes[0]}-{sizes[-1]} "
          f"| {statistics.median(found):.3f} / {max(found):.3f} "
          f"| {statistics.median(checked):.3f} / {max(checked):.3f} "
          f"| {statistics.median(together):.3f} / {max(together):.3f} | {'✓' if max(together) <= 1 else '✗'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
