"""Every kernel of the classes counter against two yardsticks, side by side, at 1 and 2 threads.

The yardsticks are C programs in experiments/yardstick/, built here with `gcc -O3 -march=native`:
classic.c (the classic bitboard counter with the half-board mirror) and takaken.c (our own
re-implementation of Takaken's 2003 symmetry-class scheme, the fair comparison for a
symmetry-class counter). Every kernel this CPU runs is forced in turn (`kernel=` of
count_classes, as QUEENS_KERNEL does). Each round runs every contestant once, the order rotating
from round to round, so a neighbour's load hits all alike; the table shows medians, and ratio =
our wall time / the yardstick's single-thread wall time (lower is faster); the CPU-time ratio
of the 1-thread runs is shown too, which other processes on the machine barely disturb. Every
count is checked against the yardsticks'.

Balance: the largest subproblem's and the largest batch's share of the search's nodes (what
bounds a 2-thread split), and the cores the 2-thread runs used (CPU time / wall time: near 2
means the pool does not serialise on the GIL or a lock; the C code runs without the GIL).

The meet-in-the-middle counter (native/quadrant, mitmcore.c) has its own table: every matcher
this CPU runs (forced by QUEENS_MITM_MATCHER, each in a process of its own: the matcher is chosen
once per process), at 1 and 2 threads beside classic.c, takaken.c and the classes counter's best
kernel, with the memory it held, for larger n (the yardsticks are measured up to --classic-upto and scaled
beyond, as the header says). n = 20 is in by default (issue 24 asks n = 16..20): about half an
hour of the run on a 2-core Intel Xeon (Q(20) took 1.8-2.9 min on one thread and 0.9-1.3 min on
two per matcher, 2026-11-28; three rounds).

    python -m queens.experiments.bench_native [--sizes 16 17] [--repeats 3] [--threads 2]
        [--quadrant-sizes 16 17 18 19 20] [--matchers scalar avx2 avx512] [--classic-upto 17]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any, TypedDict

from queens.experiments import runner
from queens.experiments.bench_backends import terms
from queens.experiments.saved import RESULTS, save
from queens.solvers.native import _classes, _mitm
from queens.solvers.native.counting import batches, count_classes, split_depth, subproblems
from queens.solvers.native.quadrant import count_total
from queens.solvers.runtime.cores import default_threads

YARDSTICKS = Path(__file__).resolve().parent / "yardstick"
TARGETS = {"avx2": (0.30, 0.17), "scalar": (0.38, 0.21), "avx512": (0.20, 0.12)}
"""Issue 11's targets: ratio to classic.c at 1 thread and at 2 threads."""

QUADRANT_TARGETS = {17: (0.08, 0.045), 18: (0.018, 0.010), 19: (0.035, 0.020)}
"""Issue 24's targets: the quadrant counter's ratio to classic.c at 1 thread and at 2 threads."""
MATCHERS = ("scalar", "avx2", "avx512")
"""The quadrant counter's matchers (mitmcore.c): QUEENS_MITM_MATCHER forces one."""

Run = tuple[float, float, int]
"""(wall seconds, CPU seconds, count)"""


class Row(TypedDict):
    """One kernel at one n against the yardsticks: a line of the table."""

    n: int
    kernel: str
    count: int
    classic_s: float
    takaken_s: float
    one_s: float
    many_s: float
    threads: int
    ratio_1: float
    ratio_many: float
    takaken_ratio_1: float
    takaken_ratio_many: float
    cpu_ratio_1: float
    takaken_cpu_ratio_1: float
    cores_used: float
    target: tuple[float, float] | None


class Balance(TypedDict):
    """How the work of one n splits into subproblems and batches."""

    subproblems: int
    split_depth: int
    batches: int
    largest_subproblem_share: float
    largest_batch_share: float


class BalanceRow(Balance):
    n: int


def build_yardsticks(directory: Path) -> dict[str, Path]:
    """classic.c and takaken.c compiled with -O3 -march=native (their best on this CPU)."""
    binaries = {}
    for name in ("classic", "takaken"):
        source = YARDSTICKS / f"{name}.c"
        if not source.is_file():
            sys.exit(f"yardstick missing: {source}")
        binaries[name] = directory / name
        subprocess.run(["gcc", "-O3", "-march=native", "-o", str(binaries[name]), str(source)], check=True)
    return binaries


def run_yardstick(binary: Path, n: int) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    output = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, int(output)


def run_kernel(n: int, kernel: str, threads: int) -> Run:
    cpu = time.process_time()  # every thread of this process
    start = time.perf_counter()
    total = count_classes(n, threads=threads, kernel=kernel).total
    return time.perf_counter() - start, time.process_time() - cpu, total


def contestants(binaries: dict[str, Path], n: int, threads: int) -> dict[str, Callable[[], Run]]:
    runs: dict[str, Callable[[], Run]] = {name: partial(run_yardstick, binary, n)
                                          for name, binary in binaries.items()}
    for kernel in _classes.SUPPORTED:
        for t in sorted({1, threads}):
            runs[f"{kernel}/{t}"] = partial(run_kernel, n, kernel, t)
    return runs


def measure(binaries: dict[str, Path], n: int, repeats: int, threads: int) -> dict[str, list[Run]]:
    """Every contestant `repeats` times, in turns (the order rotating each round)."""
    return _in_turns(contestants(binaries, n, threads), n, repeats)


def balance(n: int, threads: int) -> Balance:
    """How evenly the work splits: nodes per subproblem (scalar kernel, same tree as every kernel)."""
    keys = subproblems(n)
    nodes = []
    for counted in _classes.count(n, keys, kernel="scalar"):
        if counted is None:  # only a count told to stop leaves a subproblem unfinished
            sys.exit(f"n = {n}: the scalar kernel left a subproblem unfinished")
        nodes.append(counted[3])
    by_key = dict(zip(keys, nodes, strict=True))
    work = [sum(by_key[key] for key in batch) for batch in batches(keys, threads)]
    total = sum(nodes)
    return {"subproblems": len(keys), "split_depth": split_depth(n), "batches": len(work),
            "largest_subproblem_share": max(nodes) / total, "largest_batch_share": max(work) / total}


def rows_for(n: int, results: dict[str, list[Run]], threads: int) -> list[Row]:
    wall = {name: statistics.median(run[0] for run in series) for name, series in results.items()}
    cpu = {name: statistics.median(run[1] for run in series) for name, series in results.items()}
    rows: list[Row] = []
    for kernel in _classes.SUPPORTED:
        one, many = wall[f"{kernel}/1"], wall[f"{kernel}/{threads}"]
        cores = statistics.median(run[1] / run[0] for run in results[f"{kernel}/{threads}"])
        rows.append({"n": n, "kernel": kernel, "count": results["classic"][0][2], "classic_s": wall["classic"],
                     "takaken_s": wall["takaken"], "one_s": one, "many_s": many, "threads": threads,
                     "ratio_1": one / wall["classic"], "ratio_many": many / wall["classic"],
                     "takaken_ratio_1": one / wall["takaken"], "takaken_ratio_many": many / wall["takaken"],
                     "cpu_ratio_1": cpu[f"{kernel}/1"] / cpu["classic"],
                     "takaken_cpu_ratio_1": cpu[f"{kernel}/1"] / cpu["takaken"],
                     "cores_used": cores, "target": TARGETS.get(kernel)})
    return rows


def verdict(row: Row) -> str:
    if row["target"] is None:
        return "(no target)"
    one, many = row["target"]
    marks = ["✓" if row["ratio_1"] <= one else "✗", "✓" if row["ratio_many"] <= many else "✗"]
    return f"≤{one:.2f} {marks[0]} / ≤{many:.2f} {marks[1]}"


def table(rows: list[Row], threads: int) -> str:
    lines = [f"| n | kernel | classic.c s | takaken.c s | 1 thread s | ÷classic | ÷takaken | {threads} threads s "
             "| ÷classic | ÷takaken | cores used | 1 thread CPU ÷classic | ÷takaken "
             "| target 1 / 2 threads (÷classic) |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {r['n']} | {r['kernel']} | {r['classic_s']:.3f} | {r['takaken_s']:.3f} | {r['one_s']:.3f} "
              f"| {r['ratio_1']:.2f}x | {r['takaken_ratio_1']:.2f}x | {r['many_s']:.3f} | {r['ratio_many']:.2f}x "
              f"| {r['takaken_ratio_many']:.2f}x | {r['cores_used']:.2f} | {r['cpu_ratio_1']:.2f}x "
              f"| {r['takaken_cpu_ratio_1']:.2f}x | {verdict(r)} |" for r in rows]
    return "\n".join(lines)


def balance_table(balances: list[BalanceRow]) -> str:
    lines = ["| n | subproblems (depth) | largest subproblem's share | batches | largest batch's share |",
             "|---:|---:|---:|---:|---:|"]
    lines += [f"| {b['n']} | {b['subproblems']:,} ({b['split_depth']}) | {b['largest_subproblem_share']:.3%} "
              f"| {b['batches']} | {b['largest_batch_share']:.3%} |" for b in balances]
    return "\n".join(lines)


def run_quadrant(n: int, threads: int, matcher: str, memory: dict[tuple[int, str, int], int]) -> Run:
    """The meet-in-the-middle counter with `matcher` forced, in a process of its own (timed
    inside it: no interpreter start-up); `memory` keeps the most it held per (n, matcher, threads)."""
    env = {**os.environ, "QUEENS_MITM_MATCHER": matcher}
    code = f"from queens.experiments.bench_native import quadrant_child; quadrant_child({n}, {threads})"
    child = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if child.returncode:
        sys.exit(f"the quadrant count of n = {n} with QUEENS_MITM_MATCHER={matcher} failed: {child.stderr.strip()}")
    wall, used, total, held, ran = json.loads(child.stdout)
    if ran != matcher:
        sys.exit(f"QUEENS_MITM_MATCHER={matcher} ran the {ran} matcher: not one this CPU runs (--matchers)")
    memory[n, matcher, threads] = max(memory.get((n, matcher, threads), 0), held)
    return wall, used, total


def quadrant_child(n: int, threads: int) -> None:
    """Print [wall s, CPU s, Q(n), memory held, matcher] of one count (`run_quadrant`'s child)."""
    stats: dict[str, int | float | str] = {}
    cpu = time.process_time()
    start = time.perf_counter()
    total = count_total(n, threads=threads, stats=stats)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps([wall, used, total, int(stats["memory"]), _mitm.MATCHER]))


YARDSTICKS_RUN = ("classic", "takaken")
"""The yardsticks the quadrant table divides by (measured up to --classic-upto, scaled beyond)."""


def measure_quadrant(yardsticks: dict[str, Path], sizes: list[int], matchers: list[str], repeats: int,
                     threads: int, classic_upto: int) -> list[dict[str, object]]:
    """Per matcher quadrant/1 and quadrant/{threads}, the classes counter's best kernel (1 thread),
    classic.c and takaken.c (up to `classic_upto`) in turns; beyond it both yardsticks are scaled from their
    largest measured size."""
    rows: list[dict[str, object]] = []
    memory: dict[tuple[int, str, int], int] = {}
    measured: dict[int, dict[str, float]] = {}
    for n in sizes:
        results = _in_turns(_quadrant_runs(yardsticks, n, matchers, threads, n <= classic_upto, memory), n, repeats)
        wall = {name: statistics.median(run[0] for run in series) for name, series in results.items()}
        cpu = {name: statistics.median(run[1] for run in series) for name, series in results.items()}
        if "classic" in wall:
            measured[n] = {name: wall[name] for name in YARDSTICKS_RUN}
        base = max(measured) if measured else None
        classic_s, takaken_s = (_yardstick_s(name, n, wall, measured) for name in YARDSTICKS_RUN)
        for matcher in matchers:
            one, many = f"{matcher}/1", f"{matcher}/{threads}"
            rows.append({"n": n, "matcher": matcher, "count": results[many][0][2], "classic_s": classic_s,
                         "takaken_s": takaken_s, "takaken_ratio_1": wall[one] / takaken_s,
                         "takaken_ratio_many": wall[many] / takaken_s,
                         "classic_scaled_from": None if "classic" in wall else base,
                         "classes_s": wall.get("classes/1"), "one_s": wall[one], "one_cpu_s": cpu[one],
                         "many_s": wall[many], "threads": threads,
                         "ratio_1": wall[one] / classic_s, "ratio_many": wall[many] / classic_s,
                         "cpu_ratio_classes": cpu[one] / cpu["classes/1"] if "classes/1" in cpu else None,
                         "memory_1": memory[n, matcher, 1], "memory_many": memory[n, matcher, threads],
                         "target": QUADRANT_TARGETS.get(n)})
    return rows


def _yardstick_s(name: str, n: int, wall: dict[str, float], measured: dict[int, dict[str, float]]) -> float:
    """A yardstick's seconds at n: measured in this round of turns, else scaled from its largest
    measured n by the solution count (nan when none was measured)."""
    if name in wall:
        return wall[name]
    if not measured:
        return float("nan")
    base = max(measured)
    return measured[base][name] * _solutions(n) / _solutions(base)


def _quadrant_runs(yardsticks: dict[str, Path], n: int, matchers: list[str], threads: int, with_yardsticks: bool,
                   memory: dict[tuple[int, str, int], int]) -> dict[str, Callable[[], Run]]:
    runs: dict[str, Callable[[], Run]] = {f"{m}/{t}": partial(run_quadrant, n, t, m, memory)
                                          for m in matchers for t in sorted({1, threads})}
    if with_yardsticks:
        for name in YARDSTICKS_RUN:
            runs[name] = partial(run_yardstick, yardsticks[name], n)
        runs["classes/1"] = lambda: run_kernel(n, "auto", 1)
    return runs


def _in_turns(runs: dict[str, Callable[[], Run]], n: int, repeats: int) -> dict[str, list[Run]]:
    """Each run `repeats` times, in turns (the order rotating each round); every count must agree."""
    names = list(runs)
    results: dict[str, list[Run]] = {name: [] for name in names}
    for round_ in range(repeats):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            results[name].append(runs[name]())
            print(f"n = {n} round {round_ + 1}: {name} {results[name][-1][0]:.3f} s", file=sys.stderr)
    counts = {run[2] for series in results.values() for run in series}
    if len(counts) != 1:
        sys.exit(f"n = {n}: the counters disagree: {sorted(counts)}")
    return results


def _solutions(n: int) -> int:
    """Q(n) from the repository's OEIS copy: classic.c's tree grows as its solutions do (its
    time ratio 16 -> 17 is measured in the same table), the scale for sizes it is not run at."""
    return terms("A000170", n)


def quadrant_table(rows: list[dict[str, Any]], threads: int) -> str:
    lines = ["| n | matcher | classic.c s | takaken.c s | classes, best kernel, 1 thread s "
             "| quadrant 1 thread s (CPU s) "
             f"| ÷classic | CPU ÷classes | {threads} threads s | ÷classic | ÷takaken 1 / {threads} threads "
             f"| memory held 1 / {threads} threads | target 1 / {threads} threads (÷classic) |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        classic = f"{r['classic_s']:.2f}" + (f" (scaled from n = {r['classic_scaled_from']})"
                                              if r["classic_scaled_from"] else "")
        classes = "-" if r["classes_s"] is None else f"{r['classes_s']:.3f}"
        versus = "-" if r["cpu_ratio_classes"] is None else f"{r['cpu_ratio_classes']:.2f}x"
        target = "(no target)"
        if r["target"]:
            one, many = r["target"]
            target = (f"≤{one:.3f} {'✓' if r['ratio_1'] <= one else '✗'} / "
                      f"≤{many:.3f} {'✓' if r['ratio_many'] <= many else '✗'}")
        lines.append(f"| {r['n']} | {r['matcher']} | {classic} | {r['takaken_s']:.2f} | {classes} "
                     f"| {r['one_s']:.3f} ({r['one_cpu_s']:.3f}) | {r['ratio_1']:.3f}x "
                     f"| {versus} | {r['many_s']:.3f} | {r['ratio_many']:.3f}x "
                     f"| {r['takaken_ratio_1']:.3f}x / {r['takaken_ratio_many']:.3f}x "
                     f"| {r['memory_1'] / 2**20:.1f} / {r['memory_many'] / 2**20:.1f} MiB | {target} |")
    return "\n".join(lines)


def machine() -> str:
    return f"{runner.machine()['cpu']}, {default_threads()} cores, {platform.system()} {platform.release()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quadrant-sizes", type=int, nargs="*", default=[16, 17, 18, 19, 20])
    parser.add_argument("--matchers", nargs="+", choices=MATCHERS, default=list(MATCHERS),
                        help="the quadrant counter's matchers to force in turn (default: all; one this CPU "
                             "cannot run stops the bench)")
    parser.add_argument("--classic-upto", type=int, default=17)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    balances: list[BalanceRow] = []
    with tempfile.TemporaryDirectory(prefix="queens-bench-") as scratch:
        binaries = build_yardsticks(Path(scratch))
        for n in args.sizes:
            rows += rows_for(n, measure(binaries, n, args.repeats, args.threads), args.threads)
            balances.append({"n": n, **balance(n, args.threads)})
        quadrant = measure_quadrant(binaries, args.quadrant_sizes, args.matchers, args.repeats,
                                    args.threads, args.classic_upto)
    where = machine()
    header = (f"Classes counter, every kernel this CPU runs ({', '.join(_classes.SUPPORTED)}; CPU features: "
              f"{_classes.FEATURES or 'none asked'}), portable build, vs experiments/yardstick/classic.c and "
              f"takaken.c (gcc -O3 -march=native, single thread). Medians of {args.repeats} runs taken in turns, "
              f"{date.today().isoformat()}, {where}. Ratio = wall time / the yardstick's (lower is faster); "
              "CPU ÷: the same with CPU times (1 thread), robust to a busy machine; cores used = CPU time / wall "
              f"time of the {args.threads}-thread runs (below {args.threads}: other processes had the cores, "
              "or the pool serialised).\n\n"
              f"Command: `python -m queens.experiments.bench_native --sizes {' '.join(map(str, args.sizes))} "
              f"--repeats {args.repeats} --threads {args.threads} --quadrant-sizes "
              f"{' '.join(map(str, args.quadrant_sizes))} --matchers {' '.join(args.matchers)}` "
              "(`make bench` runs it with the defaults).")
    report = (f"{header}\n\n{table(rows, args.threads)}\n\nHow the work splits over {args.threads} threads "
              f"(nodes of the search):\n\n{balance_table(balances)}\n")
    if quadrant:
        report += ("\nThe meet-in-the-middle counter (native/quadrant), every matcher forced in turn "
                   f"(QUEENS_MITM_MATCHER: {' '.join(args.matchers)}), same runs in turns with classic.c, takaken.c "
                   "and the classes counter's best kernel ('auto'); each yardstick beyond n = "
                   f"{args.classic_upto} is its largest measured time scaled by Q(n) / Q(that n) (not run); memory "
                   "held = the counter's tables and lists at their peak (C allocations, not the interpreter).\n\n"
                   f"{quadrant_table(quadrant, args.threads)}\n")
    print(report)
    save(RESULTS / "bench_native.md", report)
    save(RESULTS / "bench_native.json", json.dumps(
        {"date": date.today().isoformat(), "machine": where, "features": _classes.FEATURES, "rows": rows,
         "balance": balances, "quadrant": quadrant}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
