"""`queens why` before and after issue 37, side by side in one run: the deletion's irreducible set
(what `why` named before: none of it can be dropped) against the hitting-set search's smallest set
(proved the fewest), on the issue's case and on seeded random infeasible completions.

Each instance is drawn by a seeded generator: QUEENS non-attacking queens placed at random on an
n x n board, HOLES empty squares at random among the rest, kept when the router proves it has no
solution (so the givens are the queens, the holes and the count of n queens). Timed is the whole
`why_not_puzzle` call, as `queens why` and the explorer's why? button make it, search and the
two-sided check on fresh solvers with the independent checker on every witness: with
`fewest=False` (before: the deletion alone) and as shipped (after). Medians and maxima over the
instances; the load average beside them, since the machine is shared.

    python -m queens.experiments.bench_why [--n 20] [--queens 14] [--holes 15] [--instances 20] [--seed 30]
    python -m queens.experiments.bench_why --case      # the issue's case alone
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from dataclasses import replace
from datetime import date

from queens.models import Completion, Puzzle
from queens.models.givens import Given
from queens.solvers import Status, solve
from queens.solvers.proofs.why import WhyNot, why_not_puzzle

CASE = Completion(7, [(0, 3), (1, 5), (4, 6), (5, 4), (6, 1)])
"""Issue 37's case: `queens why completion -n 7 --queens '0,3 1,5 4,6 5,4 6,1'` named 4 givens;
0,3 4,6 and the count, 3 givens, already have none."""


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


def timed(puzzle: Puzzle, fewest: bool) -> tuple[WhyNot[Given], float]:
    start = time.perf_counter()
    answer = why_not_puzzle(puzzle, fewest=fewest)
    return answer, time.perf_counter() - start


def row(label: str, givens: str, pairs: list[tuple[tuple[WhyNot[Given], float], tuple[WhyNot[Given], float]]]) -> str:
    """One line of the table: sizes and times before (deletion) and after (the fewest, proved)."""
    before = [a for (a, _), _ in pairs]
    after = [a for _, (a, _) in pairs]
    smaller = sum(len(b.subset) > len(a.subset) for b, a in zip(before, after, strict=True))
    proved = sum(a.fewest for a in after)
    sizes = sorted(len(a.subset) for a in after)
    old = sorted(len(b.subset) for b in before)
    then, now = [t for (_, t), _ in pairs], [t for _, (_, t) in pairs]
    rounds = [a.hitting_sets for a in after]
    return (f"| {label} | {givens} | {len(pairs)} | {old[0]}-{old[-1]} | {sizes[0]}-{sizes[-1]} | {smaller} "
            f"| {proved} of {len(pairs)} | {statistics.median(then):.3f} / {max(then):.3f} "
            f"| {statistics.median(now):.3f} / {max(now):.3f} | {statistics.median(rounds):.0f} / {max(rounds)} |")


HEADER = ("| instances | givens | measured | before: irreducible set | after: fewest | smaller after | proved fewest "
          "| before median / max s | after median / max s | hitting sets median / max |\n"
          "|---|---|---:|---|---|---:|---|---:|---:|---:|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="queens why before and after, on random infeasible completions "
                                                 "(prints Markdown).")
    parser.add_argument("--n", type=int, default=20, help="board side")
    parser.add_argument("--queens", type=int, default=14, help="queens placed")
    parser.add_argument("--holes", type=int, default=15, help="holes")
    parser.add_argument("--instances", type=int, default=20, help="infeasible instances measured")
    parser.add_argument("--seed", type=int, default=30, help="the generator's seed")
    parser.add_argument("--case", action="store_true", help="the issue's case alone")
    asked = parser.parse_args(argv)
    before = os.getloadavg()
    why_not_puzzle(CASE)  # warm up (the solvers' libraries load on the first call), untimed
    if asked.case:
        pairs = [(timed(CASE, False), timed(CASE, True))]
        label, givens = "issue 37: 7 × 7, `--queens '0,3 1,5 4,6 5,4 6,1'`", "5 + 0 + 1 = 6"
        command = "--case"
    else:
        rng = random.Random(asked.seed)
        pairs = []
        while len(pairs) < asked.instances:
            puzzle = infeasible(rng, asked.n, asked.queens, asked.holes)
            if puzzle is not None:
                pairs.append((timed(puzzle, False), timed(puzzle, True)))
        label = f"{asked.n} × {asked.n}, seed {asked.seed}"
        givens = f"{asked.queens} + {asked.holes} + 1 = {asked.queens + asked.holes + 1}"
        command = (f"--n {asked.n} --queens {asked.queens} --holes {asked.holes} --instances {asked.instances} "
                   f"--seed {asked.seed}")
    print(f"`python -m queens.experiments.bench_why {command}`, {date.today()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {before[0]:.2f} before, {os.getloadavg()[0]:.2f} after.\n")
    print(HEADER)
    print(row(label, givens, pairs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
