"""The published puzzles (models/puzzles/published/), each file on every backend that answers it:
the value reached beside the OEIS term, and the time, side by side in one run; and the default
answer (no backend named: the router's choice, or its race) against the fastest single backend,
on those puzzles and on issue 37's cases.

Each run is the public call a user makes (`queens.count` or `queens.optimise`, with the backend
named or not: lowering, solving and the independent checker on every answer), one run each with a
time limit; a backend that refuses is shown with "n/a" (docs/support.md has its reason). The load
average is printed with each table: the machine is shared. The target of the second table
(issue 37): the default within 2x of the fastest backend plus `STARTUP`, or, where that backend
needs the whole limit too, within the limit.

Run: python -m queens.experiments.bench_published [--limit SECONDS] [--table all|backends|default]
(prints Markdown)
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from datetime import date

from queens.experiments.bench_backends import terms
from queens.models import Puzzle
from queens.models.errors import QueensError, Refused
from queens.models.families import FamilyOptions, build
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.solvers import Result
from queens.solvers.registry import BACKENDS

import queens

LIMIT = 120.0
SIZES = {  # file stem: the n measured (the largest each backend reaches in about a minute, or less)
    "A103330-queens-and-a-pawn": (6, 7, 8),
    "A007016-one-per-main-diagonal": (6, 7),
    "A033148-quarter-turn-queens": (8, 12, 13),
    "A137279-moebius-queens": (6, 7),
    "A261752-total-knight-domination": (6, 8),
    "A260113-attacking-at-most-one": (6, 8),
    "A051756-attacking-exactly-three": (5, 6),
    "A006317-three-colours": (4, 5),
}


STARTUP = 0.5
"""Seconds the default may take beyond 2x the fastest backend at least (issue 37's "plus the
start-up"): the racers' processes started and stopped, the router's look at every strategy. Each
run also measures it (`startup`), and the larger of the two is allowed."""
REPEATS = 3
"""Runs of the default and of the fastest backend per row, in turns: the medians are compared."""
TINY = ("A261752-total-knight-domination", 4)
"""A puzzle the router races and every racer answers at once: its default time less its fastest
backend's is the start-up of a race, measured in the run."""
SAFE_SQUARES = """
title = "most safe squares with one queen"
[board]
shape = ["n", "n"]
[[army]]
name = "queen"
piece = "queen"
count = 1
[[army]]
name = "safe"
piece = "pawn"
count = "maximise"
"""
"""Issue 37's "most safe squares with one queen": a queen, and as many pieces that attack nothing
as stand where it does not attack (n^2 - 1 - the fewest squares a queen attacks: 42 on 8 x 8)."""
ISSUE_CASES: dict[str, tuple[Callable[[int], Puzzle], str, int, int | None]] = {
    # label: (the puzzle for n, its task, n, the published value or None)
    "A260113 (issue 37)": (lambda n: read(PUBLISHED / "A260113-attacking-at-most-one.toml", n).puzzle,
                           "optimise", 8, terms("A260113", 8)),
    "A051756 (issue 37)": (lambda n: read(PUBLISHED / "A051756-attacking-exactly-three.toml", n).puzzle,
                           "optimise", 7, terms("A051756", 7)),
    "most safe squares with one queen": (lambda n: loads(SAFE_SQUARES, n).puzzle, "optimise", 8, 42),
    "peaceable queens": (lambda n: build("peaceable", FamilyOptions(n)), "optimise", 5, terms("A250000", 5)),
}
"""Issue 37's cases of a router that picked a strategy that could not finish, beside the files."""


def published(stem: str, n: int) -> int:
    """The OEIS term for n of the file's sequence (its id begins the file's name)."""
    return terms(stem.split("-")[0], n)


def measure(stem: str, n: int, backend: str, limit: float) -> str:
    """One cell of the table: the value reached and the seconds, or why there is none."""
    spec = read(PUBLISHED / f"{stem}.toml", n)
    start = time.perf_counter()
    try:
        if spec.task == "optimise":
            result = queens.optimise(spec.puzzle, backend, time_limit=limit)
            value = result.objective if result.status.value == "optimal" else None
        else:
            result = queens.count(spec.puzzle, backend, time_limit=limit)
            value = result.count if result.status.value == "complete" else None
    except Refused:
        return "n/a"
    except QueensError as error:
        return f"error: {error}"[:60]
    seconds = time.perf_counter() - start
    if value is None:
        return f"{result.status.value} ({seconds:.0f} s)"
    mark = "" if value == published(stem, n) else " WRONG"
    return f"{value}{mark} in {seconds:.2f} s"


def timed(puzzle: Puzzle, task: str, backend: str | None, limit: float) -> tuple[Result | None, int | None, float]:
    """One public call: its result (None: refused), the value it proved (None: none within the
    limit) and its wall seconds."""
    start = time.perf_counter()
    try:
        if task == "optimise":
            result = queens.optimise(puzzle, backend, time_limit=limit)
            value = result.objective if result.status.value == "optimal" else None
        else:
            result = queens.count(puzzle, backend, time_limit=limit)
            value = result.count if result.status.value == "complete" else None
    except Refused:
        return None, None, time.perf_counter() - start
    return result, value, time.perf_counter() - start


def startup(limit: float, repeats: int = 5) -> float:
    """The median of `repeats` differences between the default (a race) and the fastest backend on
    `TINY`: what starting and stopping the racers costs here, now."""
    spec = read(PUBLISHED / f"{TINY[0]}.toml", TINY[1])
    differences = []
    for _ in range(repeats):
        raced = timed(spec.puzzle, spec.task, None, limit)[2]
        fastest = min(timed(spec.puzzle, spec.task, backend, limit)[2] for backend in ("sat", "mip", "cpsat"))
        differences.append(raced - fastest)
    return max(0.0, sorted(differences)[len(differences) // 2])


def default_row(label: str, n: int, puzzle: Puzzle, task: str, expected: int | None, limit: float,
                allowed: float = STARTUP) -> str:
    """One row of the default-vs-best table (see the module docstring for the target): every
    backend once, to find the fastest; then the default and that backend in turns, `REPEATS`
    times each, and the medians (the machine is shared: turns see the same load)."""
    best: tuple[float, str] | None = None
    for backend in BACKENDS:
        _, single, taken = timed(puzzle, task, backend, limit)
        if single is not None and (best is None or taken < best[0]):
            best = (taken, backend)
    runs, fastest_runs = [], []
    for _ in range(REPEATS):
        runs.append(timed(puzzle, task, None, limit))
        if best is not None:
            fastest_runs.append(timed(puzzle, task, best[1], limit)[2])
    result, value, seconds = sorted(runs, key=lambda run: run[2])[len(runs) // 2]
    assert result is not None, "the default answers every puzzle some backend answers"
    if best is not None:
        best = (sorted(fastest_runs)[len(fastest_runs) // 2], best[1])
    default = (f"{value} in {seconds:.2f} s" if value is not None else f"none in {seconds:.0f} s") + (
        f" ({result.backend}/{result.method}" + (", raced" if "race" in result.stats else "") + ")")
    wrong = value is not None and expected is not None and value != expected
    if best is None:
        fastest, ratio, met = f"none in {limit:.0f} s", "-", value is not None or seconds <= limit * 1.1 + 1
    else:
        fastest, ratio = f"{best[1]} in {best[0]:.2f} s", f"{seconds / best[0]:.1f}x"
        met = value is not None and seconds <= 2 * best[0] + allowed
    return (f"| {label} | {n} | {expected if expected is not None else '?'} | {default}{' WRONG' if wrong else ''} "
            f"| {fastest} | {ratio} | {'✓' if met and not wrong else '✗'} |")


def backends_table(limit: float) -> None:
    names = list(BACKENDS)
    print(f"Published puzzles, {date.today()}, {platform.machine()} {os.cpu_count()} cores, "
          f"time limit {limit:.0f} s per run, load average {os.getloadavg()[0]:.1f}\n")
    print("| puzzle | n | published | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for stem, sizes in SIZES.items():
        for n in sizes:
            cells = [measure(stem, n, name, limit) for name in names]
            print(f"| {stem} | {n} | {published(stem, n)} | " + " | ".join(cells) + " |", flush=True)


def default_table(limit: float) -> None:
    print(f"\nDefault against the fastest backend, {date.today()}, {platform.machine()} {os.cpu_count()} cores, "
          f"time limit {limit:.0f} s per run, load average {os.getloadavg()[0]:.1f} before\n")
    measured = startup(limit)
    allowed = max(STARTUP, measured)
    print(f"A race's start-up, measured on {TINY[0]} n = {TINY[1]} (the default less the fastest backend, median "
          f"of 5): {measured:.2f} s; allowed: {allowed:.2f} s.\n")
    print(f"Each time the median of {REPEATS} runs, the default and the fastest backend in turns.\n")
    print(f"| puzzle | n | published | default (who answered) | fastest single backend | default / fastest "
          f"| within 2x + {allowed:.2f} s |")
    print("|---|---|---|---|---|---:|:---:|")
    for stem, sizes in SIZES.items():
        for n in sizes:
            spec = read(PUBLISHED / f"{stem}.toml", n)
            print(default_row(stem, n, spec.puzzle, spec.task, published(stem, n), limit, allowed), flush=True)
    for label, (puzzle_for, task, n, expected) in ISSUE_CASES.items():
        print(default_row(label, n, puzzle_for(n), task, expected, limit, allowed), flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} after")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The published puzzles on every backend (prints Markdown).")
    parser.add_argument("--limit", type=float, default=LIMIT, metavar="SECONDS", help="time limit per run")
    parser.add_argument("--table", choices=("all", "backends", "default"), default="all",
                        help="every backend per file, the default against the fastest backend, or both")
    asked = parser.parse_args(argv)
    if asked.table in ("all", "backends"):
        backends_table(asked.limit)
    if asked.table in ("all", "default"):
        default_table(asked.limit)


if __name__ == "__main__":
    main()
