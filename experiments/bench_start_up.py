"""What a process pays before it works: the console script's whole run for a few commands, a
split count's worker importing what it needs (experiments/results/start-up.md tells why this
is watched: with PYTHONDONTWRITEBYTECODE set, every process compiled the package again), and an
explorer's solver process: the first search of a one-process pool, and the next search after
a cancel, which waits for the process that replaces the killed one.

Each row is a fresh process, timed from outside (wall seconds), REPEATS times; the table gives
the median and every run. `--no-bytecode` times the same rows with Python told to look for the
package's bytecode in an empty folder (PYTHONPYCACHEPREFIX), as on a clone where it was never
written: the third-party packages are compiled then too, so that column is an upper bound.

Run: python -m queens.experiments.bench_start_up [--no-bytecode]   (also `make bench`); prints Markdown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPEATS = 9
SCRIPT = Path(sys.executable).parent / "queens"
ROWS = (
    ("`queens --version`", [str(SCRIPT), "--version"]),
    ("`queens count nqueens -n 4`", [str(SCRIPT), "count", "nqueens", "-n", "4"]),
    ("`queens solve nqueens -n 8 --backend sat`", [str(SCRIPT), "solve", "nqueens", "-n", "8", "--backend", "sat"]),
    ("a split count's worker: its imports", [sys.executable, "-c",
                                             "import queens.solvers.routing.split_count, queens.solvers.backends.csp"]),
)


def timed(argv: list[str], env: dict[str, str]) -> float:
    """One run's wall seconds; a run that fails is an error, not a time."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start-up of the console script and of a worker (Markdown).")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="also time each row with no bytecode to read (an empty PYTHONPYCACHEPREFIX)")
    asked = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as empty:
        settings = [("bytecode as installed", dict(os.environ))]
        if asked.no_bytecode:
            settings.append(("no bytecode", {**os.environ, "PYTHONPYCACHEPREFIX": empty,
                                             "PYTHONDONTWRITEBYTECODE": "1"}))
        print(f"Start-up, wall seconds of a fresh process, median of {REPEATS} (load {os.getloadavg()[0]:.2f}).\n")
        print("| process | " + " | ".join(name for name, _ in settings) + " |")
        print("|---|" + "---:|" * len(settings))
        for label, command in ROWS:
            cells = []
            for _, env in settings:
                times = sorted(timed(command, env) for _ in range(REPEATS))
                cells.append(f"{statistics.median(times):.3f} ({times[0]:.3f}-{times[-1]:.3f})")
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    first, replaced = explorer_waits()
    print(f"\nThe explorer's solver process (a pool of one), wall seconds: the first search {first:.3f}; "
          f"the next search after each of {REPEATS} cancels, median {statistics.median(replaced):.3f} "
          f"({min(replaced):.3f}-{max(replaced):.3f}).")
    return 0


def explorer_waits() -> tuple[float, list[float]]:
    """The first search's wall seconds in a new one-process pool (its process started, then a 4 x 4
    count), and after each of REPEATS cancelled searches, the next 4 x 4 count's: the killed
    process replaced, then the count."""
    from queens.web.workers import SolverPool

    small, endless = {"family": "nqueens", "n": 4}, {"family": "nqueens", "n": 20}
    start = time.perf_counter()
    with SolverPool(size=1, time_limit=600.0) as pool:
        pool.run("count", small)
        first = time.perf_counter() - start
        replaced = []
        for job in map(str, range(REPEATS)):
            running = threading.Thread(target=pool.run, args=("count", endless, job))
            running.start()
            while running.is_alive() and pool.progress(job) is None:
                time.sleep(0.01)
            pool.cancel(job)
            running.join()
            start = time.perf_counter()
            pool.run("count", small)
            replaced.append(time.perf_counter() - start)
    return first, replaced


if __name__ == "__main__":
    sys.exit(main())
