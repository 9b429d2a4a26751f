"""What a process pays before it works: the console script's whole run for a few commands, and a
split count's worker importing what it needs (experiments/results/start-up.md tells why this
is watched: with PYTHONDONTWRITEBYTECODE set, every process compiled the package again).

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
