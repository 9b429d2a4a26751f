"""The MiniZinc handbook's table of search strategies, rebuilt: failures (and nodes) to the first
solution of n-queens for the handbook's five strategies, from the teaching engine (forward
checking) and from Gecode on the suite's own MiniZinc export of the same model (what `queens
export --format mzn` writes and the minizinc backend runs), side by side.

    python -m queens.experiments.bench_strategies                      # n = 10, 15, ..., 45
    python -m queens.experiments.bench_strategies --sizes 10 35 --output experiments/results/strategies.md

A cell past `FAILURES` failures is "---", as in the handbook: both engines stop there (the
teaching engine's `fail_limit`, Gecode's `-fail`, which the minizinc backend has no option for,
so Gecode is run here by the `minizinc` binary on the backend's model text). Cells run in
parallel, one process per core. docs/search-strategies.md reads the table.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from queens.models import NQueens
from queens.solvers.formats.minizinc import Search, minizinc
from queens.solvers.learn import search

STRATEGIES = (("input_order", "indomain_min"), ("input_order", "indomain_median"), ("first_fail", "indomain_min"),
              ("first_fail", "indomain_median"), ("input_order", "indomain_random"))
"""The handbook's five columns: input-min, input-median, ff-min, ff-median, input-random."""
FAILURES = 100_000
"""The handbook's "---": more than this many failures."""
HANDBOOK = {  # the handbook's printed failures (an older Gecode, alldifferent as a global constraint)
    10: (22, 2, 5, 0, 6), 15: (191, 4, 4, 12, 39), 20: (20511, 32, 27, 16, 2), 25: (2212, 345, 51, 25, 2),
    30: (None, 137, 22, 66, 9), 35: (None, 1722, 52, 12, 12), 40: (None, None, 16, 44, 2),
    45: (None, None, 41, 18, 6)}

Cell = tuple[str, int, str, str]
Effort = tuple[int, int, bool]
"""(failures, nodes, whether a solution was found before the limit)."""


def teaching(n: int, var: str, val: str) -> Effort:
    result = search(NQueens(n), var=var, val=val, propagate="forward", fail_limit=FAILURES).result
    return int(result.stats["failures"]), int(result.stats["nodes"]), bool(result.solutions)


def gecode(n: int, var: str, val: str) -> Effort:
    text, data = minizinc(NQueens(n), search=Search(var, val))
    with tempfile.TemporaryDirectory() as folder:
        model, values = Path(folder) / "model.mzn", Path(folder) / "data.dzn"
        model.write_text(text)
        values.write_text(data)
        run = subprocess.run(["minizinc", "--solver", "gecode", "-s", "-fail", str(FAILURES), str(model), str(values)],
                             capture_output=True, text=True, check=False)
    stats = dict(re.findall(r"%%%mzn-stat: (\w+)=(\S+)", run.stdout))
    found = stats.get("nSolutions") or stats.get("solutions") or "0"
    return int(stats["failures"]), int(stats["nodes"]), int(found) > 0


def measure(cell: Cell) -> tuple[Cell, Effort, float]:
    """One cell's effort and the CPU seconds it took (this process's, or Gecode's as a child)."""
    engine, n, var, val = cell
    start = time.process_time() + _children()
    effort = (teaching if engine == "teaching" else gecode)(n, var, val)
    return cell, effort, time.process_time() + _children() - start


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _shown(effort: Effort | None) -> str:
    if effort is None:
        return ""
    failures, nodes, found = effort
    return f"{failures:,} ({nodes:,})" if found else "---"


def table(sizes: list[int], workers: int) -> tuple[str, float, dict[str, float]]:
    """The markdown table, the wall time, and each engine's CPU seconds."""
    cells = [(engine, n, var, val) for n in sizes for var, val in STRATEGIES for engine in ("teaching", "gecode")]
    start = time.perf_counter()
    cpu = {"teaching": 0.0, "gecode": 0.0}
    done = {}
    with ProcessPoolExecutor(workers) as pool:
        for cell, effort, seconds in pool.map(measure, cells):
            done[cell] = effort
            cpu[cell[0]] += seconds
    seconds = time.perf_counter() - start
    names = [f"{var.replace('_order', '').replace('first_fail', 'ff')}-{val.replace('indomain_', '')}"
             for var, val in STRATEGIES]
    lines = ["| n | engine | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for n in sizes:
        for engine in ("teaching", "gecode"):
            shown = [_shown(done.get((engine, n, var, val))) for var, val in STRATEGIES]
            lines.append(f"| {n} | {engine} | " + " | ".join(shown) + " |")
        printed = HANDBOOK.get(n)
        if printed:
            lines.append(f"| {n} | handbook | " + " | ".join("---" if f is None else f"{f:,}" for f in printed) + " |")
    return "\n".join(lines), seconds, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=(10, 45), metavar=("FROM", "TO"))
    parser.add_argument("--step", type=int, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    sizes = list(range(args.sizes[0], args.sizes[1] + 1, args.step))
    text, seconds, cpu = table(sizes, args.workers)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    report = (f"# The handbook's strategy table: failures (nodes) to the first n-queens solution\n\n"
              f"Teaching engine (forward checking, pairwise disequalities) and Gecode "
              f"(`minizinc --solver gecode -fail {FAILURES}` on the suite's export), n = {sizes[0]}..{sizes[-1]} "
              f"step {args.step}; --- is more than {FAILURES:,} failures. Measured "
              f"{when}, {args.workers} workers: {seconds:.1f} s in all (CPU: teaching {cpu['teaching']:.1f} s, "
              f"Gecode and MiniZinc {cpu['gecode']:.1f} s; load average {os.getloadavg()[0]:.1f}).\n\n"
              f"{text}\n")
    print(report)
    if args.output is not None:
        args.output.write_text(report)


if __name__ == "__main__":
    main()
