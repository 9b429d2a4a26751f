"""The published puzzles (models/puzzles/published/), each file on every backend that answers it:
the value reached beside the OEIS term, and the time, side by side in one run.

Each run is the public call a user makes (`queens.count` or `queens.optimise` with the backend
named: lowering, solving and the independent checker on every answer), one run each with a time
limit; a backend that refuses is shown with "n/a" (docs/support.md has its reason). The load
average is printed with the table: the machine is shared.

Run: python -m queens.experiments.bench_published [--limit SECONDS]   (prints Markdown)
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import date

from queens.experiments.bench_backends import terms
from queens.models.errors import QueensError, Refused
from queens.models.puzzle_file import PUBLISHED, read
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The published puzzles on every backend (prints Markdown).")
    parser.add_argument("--limit", type=float, default=LIMIT, metavar="SECONDS", help="time limit per run")
    limit = parser.parse_args(argv).limit
    names = list(BACKENDS)
    print(f"Published puzzles, {date.today()}, {platform.machine()} {os.cpu_count()} cores, "
          f"time limit {limit:.0f} s per run, load average {os.getloadavg()[0]:.1f}\n")
    print("| puzzle | n | published | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for stem, sizes in SIZES.items():
        for n in sizes:
            cells = [measure(stem, n, name, limit) for name in names]
            print(f"| {stem} | {n} | {published(stem, n)} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
