"""The suite's backends against the tools their users would otherwise use, in the same run.

Peers (experiments/peers/), each the puzzle written the way its own users write it:
- OR-Tools' n-queens example (`ortools_example.py`, from `nqueens_sat.py`): CP-SAT, AllDifferent;
- CPMpy's n-queens (`cpmpy_model.py`) on its `ortools` and `pysat` solvers;
- MiniZinc + Gecode on the hand-written `nqueens.mzn` (the MiniZinc tutorial's model).
The suite's own MiniZinc export runs as the `minizinc` backend. A peer that is not installed
(or cannot take the model) is skipped with its reason, never faked.

Each backend's time is shown as a ratio to the best peer on the same puzzle and size (below 1:
the suite is faster). Times are medians of REPEATS whole calls; every answer is checked against
OEIS A000170 (counts) or as "a solution was found" (peers report it; the suite's checker verifies).

Run: python -m queens.experiments.bench_peers   (also `make bench`); prints Markdown.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from queens.experiments.bench_backends import terms
from queens.models import NQueens, QueensError
from queens.solvers import Status, count, solve

REPEATS = 3
LIMIT = 30.0
PEERS_DIR = Path(__file__).resolve().parent / "peers"
BACKENDS = ("cpsat", "sat", "csp", "minizinc")
PUZZLES = [("count", 8), ("count", 10), ("solve", 50), ("solve", 100), ("solve", 200)]

Job = Callable[[str, int], int | None]
"""(task, n) -> the count, or 1 for "found one", 0 for "none", None for a time limit."""


def _mzn_handwritten(task: str, n: int) -> int | None:
    import minizinc

    model = minizinc.Model(str(PEERS_DIR / "nqueens.mzn"))
    instance = minizinc.Instance(minizinc.Solver.lookup("gecode"), model)
    instance["n"] = n
    from datetime import timedelta

    result = instance.solve(all_solutions=task == "count", timeout=timedelta(seconds=LIMIT))
    if task == "count":
        return len(result.solution) if result.status is minizinc.Status.ALL_SOLUTIONS else None
    return {minizinc.Status.SATISFIED: 1, minizinc.Status.UNSATISFIABLE: 0}.get(result.status)


def _ortools_example(task: str, n: int) -> int | None:
    from queens.experiments.peers.ortools_example import nqueens

    return nqueens(n, count=task == "count", time_limit=LIMIT)


def _cpmpy(solver: str) -> Job:
    def run(task: str, n: int) -> int | None:
        from queens.experiments.peers.cpmpy_model import nqueens

        return nqueens(n, solver, count=task == "count", time_limit=LIMIT)
    return run


PEERS: dict[str, tuple[Job, str]] = {
    "OR-Tools example (CP-SAT)": (_ortools_example, "ortools"),
    "CPMpy + ortools": (_cpmpy("ortools"), "cpmpy"),
    "CPMpy + pysat": (_cpmpy("pysat"), "cpmpy"),
    "MiniZinc + Gecode, hand-written .mzn": (_mzn_handwritten, "minizinc"),
}


def versions() -> dict[str, str]:
    found = {}
    for package in ("ortools", "cpmpy", "python-sat", "python-constraint2", "minizinc"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    if shutil.which("minizinc"):
        out = subprocess.run(["minizinc", "--version"], capture_output=True, text=True, check=False).stdout
        found["MiniZinc binary"] = out.strip().splitlines()[0] if out.strip() else "unknown"
        solvers = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True, check=False).stdout
        found["Gecode"] = next((line.strip() for line in solvers.splitlines() if "Gecode" in line), "not listed")
    return found


def timed(job: Callable[[], object]) -> tuple[float, object, str | None]:
    """Median seconds of REPEATS runs, the last answer, and the reason when the job cannot run."""
    times, answer = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        try:
            answer = job()
        except (ImportError, QueensError, RuntimeError) as error:
            return 0.0, None, f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
        times.append(time.perf_counter() - start)
    return statistics.median(times), answer, None


def _suite(task: str, n: int, backend: str) -> int | None:
    if task == "count":
        result = count(NQueens(n), backend, time_limit=LIMIT)
        return result.count if result.status is Status.COMPLETE else None
    result = solve(NQueens(n), backend, time_limit=LIMIT)
    return {Status.SOLVED: 1, Status.INFEASIBLE: 0}.get(result.status)


def _expected(task: str, n: int) -> int:
    return terms("A000170", n) if task == "count" else 1


def main() -> int:
    print("## The suite's backends against their peers (seconds, medians of 3; ratio = backend / best peer)\n")
    print("Versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()) + "\n")
    notes: list[str] = []
    print("| puzzle | who | seconds | ratio to best peer | answer |")
    print("|---|---|---:|---:|---|")
    for task, n in PUZZLES:
        label = f"count Q({n})" if task == "count" else f"one {n}-queens solution"
        expected, peer_times = _expected(task, n), {}
        for name, (job, _) in PEERS.items():
            seconds, answer, reason = timed(lambda job=job, task=task, n=n: job(task, n))
            if reason:
                notes.append(f"{name} on {label}: skipped ({reason})")
                continue
            ok = answer == expected
            if ok:
                peer_times[name] = seconds
            print(f"| {label} | peer: {name} | {seconds:.3f} | | {answer if ok else f'{answer} ✗'} |", flush=True)
        best = min(peer_times.values(), default=None)
        for backend in BACKENDS:
            seconds, answer, reason = timed(lambda backend=backend, task=task, n=n: _suite(task, n, backend))
            if reason:
                notes.append(f"{backend} on {label}: n/a ({reason})")
                continue
            ratio = f"{seconds / best:.2f}×" if best and answer == expected else "–"
            shown = answer if answer == expected else f"{answer} (limit or wrong) ✗"
            print(f"| {label} | **{backend}** | {seconds:.3f} | {ratio} | {shown} |", flush=True)
    if notes:
        print("\nNotes:\n" + "\n".join(f"- {note}" for note in notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
