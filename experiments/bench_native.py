"""The fast native counter against the yardstick, side by side: Q(14)..Q(17), 1 thread and all.

The yardstick is experiments/yardstick/classic.c (the classic bitboard counter with the half-board
mirror), built here with `gcc -O3 -march=native` into a temporary directory. Each size is
measured `--repeats` times, the three contestants taking turns (so a neighbour's load hits all
of them alike), and the medians are compared: ratio = our time / the yardstick's single-thread
time, so below 1 is faster. Wall-clock times; for one thread the CPU-time ratio is shown too,
which other processes on the machine barely disturb. Every count is checked against the
yardstick's. The table is printed and written to experiments/results/bench_native.md (and .json).

    python -m queens.experiments.bench_native [--sizes 14 15 16 17] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from queens.experiments import runner
from queens.solvers.native import _fast
from queens.solvers.native.counting import count_classes, default_threads

YARDSTICK = Path(__file__).resolve().parent / "yardstick" / "classic.c"
RESULTS = Path(__file__).resolve().parent / "results"


def build_yardstick(directory: Path) -> Path:
    """classic.c compiled the way its README says."""
    if not YARDSTICK.is_file():
        sys.exit(f"yardstick missing: {YARDSTICK}")
    binary = directory / "classic"
    subprocess.run(["gcc", "-O3", "-march=native", "-o", str(binary), str(YARDSTICK)], check=True)
    return binary


def run_yardstick(binary: Path, n: int) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, count) of one run of the yardstick."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    output = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, int(output)


def run_fast(n: int, threads: int) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, count) of one fast count."""
    cpu = time.process_time()
    start = time.perf_counter()
    total = count_classes(n, threads=threads).total
    return time.perf_counter() - start, time.process_time() - cpu, total


def measure(binary: Path, n: int, repeats: int, threads: int) -> dict:
    runs: dict[str, list[tuple[float, float, int]]] = {"classic": [], "fast 1": [], "fast all": []}
    contestants = [("classic", lambda: run_yardstick(binary, n)), ("fast 1", lambda: run_fast(n, 1)),
                   ("fast all", lambda: run_fast(n, threads))]
    for round_ in range(repeats):
        for name, run in contestants[round_ % 3:] + contestants[:round_ % 3]:
            runs[name].append(run())
    counts = {run[2] for results in runs.values() for run in results}
    if len(counts) != 1:
        sys.exit(f"n = {n}: the counters disagree: {sorted(counts)}")
    wall = {name: statistics.median(run[0] for run in results) for name, results in runs.items()}
    cpu = {name: statistics.median(run[1] for run in results) for name, results in runs.items()}
    return {"n": n, "count": counts.pop(), "repeats": repeats, "threads": threads,
            "classic_s": wall["classic"], "fast_1_s": wall["fast 1"], "fast_all_s": wall["fast all"],
            "ratio_1": wall["fast 1"] / wall["classic"], "ratio_all": wall["fast all"] / wall["classic"],
            "cpu_ratio_1": cpu["fast 1"] / cpu["classic"],
            "parallelism": statistics.median(run[1] / run[0] for run in runs["fast all"])}


def machine() -> str:
    return f"{runner.machine()['cpu']}, {default_threads()} cores, {platform.system()} {platform.release()}"


def table(rows: list[dict], threads: int) -> str:
    lines = [f"| n | Q(n) | classic.c s | fast 1 thread s | ratio | fast {threads} threads s | ratio | "
             "cores used | CPU ratio (1 thread) |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['n']} | {r['count']:,} | {r['classic_s']:.3f} | {r['fast_1_s']:.3f} | {r['ratio_1']:.2f}x "
              f"| {r['fast_all_s']:.3f} | {r['ratio_all']:.2f}x | {r['parallelism']:.2f} | {r['cpu_ratio_1']:.2f}x |"
              for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    threads = default_threads()
    with tempfile.TemporaryDirectory(prefix="queens-bench-") as scratch:
        binary = build_yardstick(Path(scratch))
        rows = []
        for n in args.sizes:
            rows.append(measure(binary, n, args.repeats, threads))
            print(f"n = {n}: ratio {rows[-1]['ratio_1']:.2f}x (1 thread), {rows[-1]['ratio_all']:.2f}x "
                  f"({threads} threads)", file=sys.stderr)
    kernel = "AVX-512 lanes" if _fast.VECTOR else "scalar"
    where = machine()
    header = (f"Fast counter ({kernel} kernel) vs experiments/yardstick/classic.c (gcc -O3 -march=native), "
              f"medians of {args.repeats} runs, {date.today().isoformat()}, {where}. "
              "Ratio = time / classic.c's single-thread time (lower is faster); cores used = CPU time / wall "
              f"time of the {threads}-thread runs (below {threads}: other processes had the cores).")
    report = f"{header}\n\n{table(rows, threads)}\n"
    print(report)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_native.md").write_text(report)
    (RESULTS / "bench_native.json").write_text(json.dumps(
        {"date": date.today().isoformat(), "machine": where, "kernel": kernel, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
