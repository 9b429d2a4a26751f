"""Large boards, measured in one run: exact completion, construction, local search, the verifier.

- Completion, planted instances (always solvable): n = 1000 with k = 100, 300, 500 given
  queens, the mean time of `solve_completion` (end to end: input check, search, check of the
  answer) over `--instances` instances each; Grigoryan (2020) reports 0.062 s on such inputs.
- The same against the CaDiCaL model (`solve(Completion(...), "sat")`) on n = 500, k = 50,
  side by side on the same instances: the speed ratio.
- The solvable/unsolvable transition: Gent, Jefferson & Nightingale's random instances with
  k = n - 2.3 sqrt(n), their share with a completion and the time to decide.
- False "no" answers: every planted instance is solvable, so any "no" there is false; every
  "no" on a transition instance with n <= SAT_CONFIRM is re-decided by the SAT backend.
- Construction and local search for n = 10^7 (and 10^8 unless --skip-huge), each in a fresh
  process so that its peak memory (VmHWM: the whole Python process, interpreter and numpy
  included, about 26 MB) is its own; then the written .npy file through `verify_file`.
The table is printed and written to experiments/results/bench_large.md.

    python -m queens.experiments.bench_large [--instances 100] [--sat-instances 3] [--skip-huge]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import NotRequired, ParamSpec, TypedDict, TypeVar

from queens.experiments.saved import RESULTS, save
from queens.models import Cell, Completion, InvalidBoard
from queens.models.generate import planted, random_placement
from queens.solvers import Status, solve
from queens.solvers.native.completion import solve_completion
from queens.solvers.native.local_search import random_solution

SAT_CONFIRM = 300
"""Largest n whose "no" answers the SAT backend re-decides (n = 500 takes it seconds each)."""
TRANSITION = 2.3
"""k = n - TRANSITION * sqrt(n): the issue's estimate of the solvable/unsolvable transition."""

P = ParamSpec("P")
R = TypeVar("R")

# The report's rows, one kind per table
Planted = TypedDict("Planted", {"n": int, "k": int, "instances": int, "mean": float, "max": float,
                                "by local search": int, "false no": int})


class VersusSat(TypedDict):
    n: int
    k: int
    instances: int
    ours: float
    sat: float
    ratio: float


Transition = TypedDict("Transition", {"n": int, "k": int, "instances": int, "solvable": int, "mean": float,
                                      "max": float, "no confirmed by sat": int | None, "false no": int})


class Measured(TypedDict):
    """What the fresh process (`_CHILD`) prints."""

    seconds: float
    peak_mb: float
    verify_seconds: NotRequired[float]
    verify_peak_mb: NotRequired[float]


class Large(Measured):
    n: int
    job: str


def _timed(function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> tuple[R, float]:
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def planted_instance(n: int, k: int, seed: int) -> tuple[Cell, ...]:
    """k queens of a random solution: an instance that always has a completion."""
    solution = random_solution(n, seed=seed)
    if solution is None:
        raise SystemExit(f"{n}-queens has no solution to plant queens from")
    return planted(solution.tolist(), k, seed)


def planted_completion(n: int, k: int, instances: int) -> Planted:
    """Mean and worst time on planted instances, and how many got a (false) "no"."""
    times, by_local, false_no = [], 0, 0
    for seed in range(instances):
        queens = planted_instance(n, k, seed)
        result, seconds = _timed(solve_completion, n, queens, seed=seed)
        times.append(seconds)
        false_no += result.columns is None
        by_local += result.method == "local search"
    return {"n": n, "k": k, "instances": instances, "mean": statistics.mean(times), "max": max(times),
            "by local search": by_local, "false no": false_no}


def versus_sat(n: int, k: int, instances: int) -> VersusSat:
    """Ours and the CaDiCaL model on the same planted instances, taking turns."""
    ours, sat = [], []
    for seed in range(instances):
        queens = planted_instance(n, k, seed)
        result, seconds = _timed(solve_completion, n, queens, seed=seed)
        ours.append(seconds)
        answer, seconds = _timed(solve, Completion(n, queens), "sat")
        sat.append(seconds)
        if result.columns is None or answer.status is not Status.SOLVED:
            raise SystemExit(f"n={n} k={k} seed={seed}: ours {result.method}, sat {answer.status}")
    return {"n": n, "k": k, "instances": instances, "ours": statistics.mean(ours), "sat": statistics.mean(sat),
            "ratio": statistics.mean(sat) / statistics.mean(ours)}


def transition(n: int, instances: int) -> Transition:
    """Random instances at the transition: share solvable, decision times, "no"s re-decided by SAT."""
    k = round(n - TRANSITION * math.sqrt(n))
    times, solvable, confirmed, false_no = [], 0, 0, 0
    for seed in range(instances):
        try:
            queens = random_placement(n, k, seed)
        except InvalidBoard:  # the generator got stuck before k queens: no instance for this seed
            continue
        result, seconds = _timed(solve_completion, n, queens, seed=seed)
        times.append(seconds)
        solvable += result.columns is not None
        if result.columns is None and n <= SAT_CONFIRM:
            agrees = solve(Completion(n, queens), "sat").status is Status.INFEASIBLE
            confirmed += agrees
            false_no += not agrees
    return {"n": n, "k": k, "instances": len(times), "solvable": solvable, "mean": statistics.mean(times),
            "max": max(times), "no confirmed by sat": confirmed if n <= SAT_CONFIRM else None, "false no": false_no}


_CHILD = """
import json, sys, time, pathlib
import numpy as np

def peak_mb():  # this process's high-water RSS; ru_maxrss would include the parent's from before exec
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

n, job = int(sys.argv[1]), sys.argv[2]
start = time.perf_counter()
if job == "construct":
    from queens.solvers.routing.construct import construct
    columns = construct(n)
elif job == "random":
    from queens.solvers.native.local_search import random_solution
    columns = random_solution(n, seed=1)
elif job == "kernel":
    from queens.solvers.native import _localsearch
    columns = np.empty(n, np.int32)
    assert _localsearch.search(n, columns, seed=1)[0] == _localsearch.SOLVED
seconds = time.perf_counter() - start
report = {"seconds": seconds, "peak_mb": peak_mb()}
if len(sys.argv) > 3:
    from queens.models.placement_file import write_placement
    from queens.models.verify_stream import verify_file
    path = pathlib.Path(sys.argv[3])
    write_placement(path, columns, "npy")
    start = time.perf_counter()
    assert verify_file(path) == (n, n)
    report["verify_seconds"] = time.perf_counter() - start
    report["verify_peak_mb"] = peak_mb()
print(json.dumps(report))
"""


def in_fresh_process(n: int, job: str, verify_file: Path | None = None) -> Large:
    """Run one large job in its own interpreter: time, peak memory, optionally the file check."""
    args = [sys.executable, "-c", _CHILD, str(n), job] + ([str(verify_file)] if verify_file else [])
    done = subprocess.run(args, capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[1])
    if done.returncode != 0:
        raise SystemExit(f"{job} n={n} failed: {done.stderr.strip()}")
    measured: Measured = json.loads(done.stdout)
    return {"n": n, "job": job, **measured}


def _fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def report(planted_rows: list[Planted], sat_row: VersusSat, transition_rows: list[Transition],
           large_rows: list[Large]) -> str:
    lines = [f"# Large boards ({date.today()}, {platform.machine()}, Python {platform.python_version()})", "",
             "## Exact completion, planted instances (always solvable)", "",
             "| n | k | instances | mean ms | max ms | solved by local search | false \"no\" |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['n']} | {r['k']} | {r['instances']} | {_fmt_ms(r['mean'])} | {_fmt_ms(r['max'])} "
              f"| {r['by local search']} | {r['false no']} |" for r in planted_rows]
    lines += ["", "## Against the CaDiCaL model (same instances, taking turns)", "",
              "| n | k | instances | ours ms | sat (CaDiCaL) s | ratio |", "|---:|---:|---:|---:|---:|---:|",
              f"| {sat_row['n']} | {sat_row['k']} | {sat_row['instances']} | {_fmt_ms(sat_row['ours'])} "
              f"| {sat_row['sat']:.2f} | {sat_row['ratio']:,.0f}x |",
              "", f"## The transition: random instances, k = n - {TRANSITION} sqrt(n)", "",
              "| n | k | instances | with a completion | mean ms | max ms | \"no\" confirmed by SAT | false \"no\" |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['n']} | {r['k']} | {r['instances']} | {r['solvable']} | {_fmt_ms(r['mean'])} "
              f"| {_fmt_ms(r['max'])} | {'-' if r['no confirmed by sat'] is None else r['no confirmed by sat']} "
              f"| {r['false no']} |" for r in transition_rows]
    lines += ["", "## One solution for huge n (each in a fresh process; peak = whole process RSS)", "",
              "| job | n | seconds | peak MB | verify .npy s | verify peak MB |", "|---|---:|---:|---:|---:|---:|"]
    names = {"construct": "construction (+ check)", "random": "local search (+ check)", "kernel": "local search kernel"}
    for r in large_rows:
        verify = (f"{r['verify_seconds']:.2f} | {r['verify_peak_mb']:.0f}" if "verify_seconds" in r else "- | -")
        lines.append(f"| {names[r['job']]} | {r['n']:,} | {r['seconds']:.2f} | {r['peak_mb']:.0f} | {verify} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=100, help="instances per completion row")
    parser.add_argument("--sat-instances", type=int, default=3, help="instances for the CaDiCaL comparison")
    parser.add_argument("--skip-huge", action="store_true", help="leave out n = 10^8")
    options = parser.parse_args(argv)
    planted_rows = [planted_completion(1000, k, options.instances) for k in (100, 300, 500)]
    sat_row = versus_sat(500, 50, options.sat_instances)
    transition_rows = [transition(n, options.instances) for n in (100, 300, 1000, 3000)]
    with tempfile.TemporaryDirectory() as scratch:
        large_rows = [in_fresh_process(10**7, "construct", Path(scratch) / "c.npy"),
                      in_fresh_process(10**7, "random", Path(scratch) / "r.npy"),
                      in_fresh_process(10**7, "kernel")]
        if not options.skip_huge:
            large_rows.append(in_fresh_process(10**8, "kernel", Path(scratch) / "h.npy"))
    table = report(planted_rows, sat_row, transition_rows, large_rows)
    print(table)
    save(RESULTS / "bench_large.md", table)
    false_no = sum(r["false no"] for r in planted_rows) + sum(r["false no"] for r in transition_rows)
    if false_no:
        print(f"{false_no} false 'no' answers", file=sys.stderr)
    return 1 if false_no else 0


if __name__ == "__main__":
    sys.exit(main())
