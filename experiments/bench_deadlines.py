"""Time is a contract: does every backend stop at the time limit it is given?

Each case (backend, task, size, limit) runs in a fresh process, through the router
(`queens.solvers.routing.router.answer`) as the CLI does, so each backend answers by its default method
(a count of 12 x 12 and up goes through the split pool). The wall time is measured around that
one call, from before the puzzle is lowered, so model building counts against the deadline;
interpreter start-up and the backend library's import do not (they come before the deadline
exists, in the CLI too). The target (issue 14) is
`overrun = wall - limit <= 10 % of the limit + 0.5 s`; a case that finishes early, or is
refused before any work, meets it trivially and is still listed.

    python -m queens.experiments.bench_deadlines [--limits 1 3 5] [--backends sat csp] [--tasks solve]

Tasks and sizes (small, medium, large):
  solve     n-queens, n = 30, 200, 1000 (one solution)
  count     n-queens, n = 10, 14, 20 (every solution; 20 x 20 is the most an enumeration counts)
  minimise  queen domination, n = 6, 10, 16 (the fewest queens, proved)
The table goes to stdout and to experiments/results/deadlines.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
from datetime import date

from queens.experiments.saved import RESULTS, save

TASKS = {"solve": ("nqueens", (30, 200, 1000)), "count": ("nqueens", (10, 14, 20)),
         "minimise": ("domination", (6, 10, 16))}
BACKENDS: dict[str, tuple[str, str | None, dict[str, object]]] = {
    # label: (backend, method (None: the router's choice), the backend's options)
    "native": ("native", None, {}),
    "native/search": ("native", "search", {}),
    "cpsat": ("cpsat", None, {}),
    "sat": ("sat", None, {}),
    "sat/cadical": ("sat", None, {"solver": "cadical195"}),
    "csp": ("csp", None, {}),
    "minizinc": ("minizinc", None, {}),
}
CADICAL_CNF = "seqcounter"
"""CaDiCaL has no native cardinality constraints: to find one solution it gets this CNF."""
GRACE = 30.0
"""Seconds past the limit after which a case is killed and reported as hung."""


def allowed(limit: float) -> float:
    """The overrun the contract allows."""
    return 0.1 * limit + 0.5


def one(task: str, family: str, n: int, backend: str, method: str | None, options: dict[str, object],
        limit: float) -> dict[str, object]:
    """Run one case in this process: what the router answered and how long the call took."""
    from queens.models import QueensError
    from queens.models.families import of_size
    from queens.solvers.backend import Task
    from queens.solvers.registry import get_backend
    from queens.solvers.routing.router import answer

    kind = Task.COUNT if task == "count" else Task.OPTIMISE if task == "minimise" else Task.SOLVE
    puzzle = of_size(family, n)
    start = time.monotonic()
    try:
        get_backend(backend, **options)  # imports the backend's library: before the clock, as in the CLI
        start = time.monotonic()
        result = answer(kind, puzzle, backend=backend, method=method, time_limit=limit, **options)  # type: ignore[arg-type]
    except QueensError as error:
        return {"wall": time.monotonic() - start, "status": "refused", "answer": str(error)[:70], "method": "-"}
    wall = time.monotonic() - start
    found = result.bound if task == "count" else (
        f"{len(result.solution)} pieces" if result.solution is not None else "-")
    return {"wall": wall, "status": result.status.value, "answer": found, "method": result.method}


def in_child(task: str, n: int, label: str, limit: float) -> dict[str, object]:
    """One case in a fresh process, killed when it runs GRACE seconds past its limit."""
    backend, method, options = BACKENDS[label]
    if label == "sat/cadical" and task != "count":
        options = {**options, "encoding": CADICAL_CNF}
    family = TASKS[task][0]
    case = json.dumps([task, family, n, backend, method, options, limit])
    args = [sys.executable, "-m", "queens.experiments.bench_deadlines", "--one", case]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as child:  # its own group: killed with what it started
        try:
            stdout, stderr = child.communicate(timeout=limit + GRACE)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            return {"wall": limit + GRACE, "status": "hung (killed)", "answer": "-", "method": "-"}
    if child.returncode != 0:
        last = (stderr.strip().splitlines() or ["?"])[-1]
        return {"wall": float("nan"), "status": f"crashed ({child.returncode})", "answer": last[:70], "method": "-"}
    row: dict[str, object] = json.loads(stdout.strip().splitlines()[-1])
    return row


def table(rows: list[dict[str, object]]) -> str:
    head = ("| backend | method | task | n | limit s | wall s | overrun s | allowed s | met | status | answer |\n"
            "|---|---|---|---:|---:|---:|---:|---:|---|---|---|\n")
    lines = []
    for row in rows:
        wall, limit = float(str(row["wall"])), float(str(row["limit"]))
        over = wall - limit
        met = "✓" if over <= allowed(limit) else "✗"
        lines.append(f"| {row['backend']} | {row['method']} | {row['task']} | {row['n']} | {limit:g} | {wall:.2f} | "
                     f"{over:+.2f} | {allowed(limit):.2f} | {met} | {row['status']} | {row['answer']} |")
    return head + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[1.0, 3.0, 5.0])
    parser.add_argument("--backends", nargs="+", choices=list(BACKENDS), default=list(BACKENDS))
    parser.add_argument("--tasks", nargs="+", choices=list(TASKS), default=list(TASKS))
    parser.add_argument("--sizes", nargs="+", choices=("small", "medium", "large"),
                        default=["small", "medium", "large"])
    parser.add_argument("--no-save", action="store_true", help="print only; leave results/deadlines.md alone")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a case, run in this (child) process
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(*json.loads(args.one))))
        return 0
    pick = [("small", "medium", "large").index(size) for size in args.sizes]
    rows = []
    for task in args.tasks:
        for n in (TASKS[task][1][i] for i in pick):
            for label in args.backends:
                for limit in args.limits:
                    row = {"backend": label, "task": task, "n": n, "limit": limit,
                           **in_child(task, n, label, limit)}
                    rows.append(row)
                    print(table([row]).splitlines()[-1], flush=True)
    load = os.getloadavg()
    text = (f"# Deadlines: wall time against the time limit\n\n`python -m queens.experiments.bench_deadlines`, "
            f"{date.today()}, {platform.processor() or platform.machine()}, load average "
            f"{load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} at the end.\nTarget: overrun <= 10 % of the limit "
            f"+ 0.5 s.\n\n{table(rows)}")
    print(text)
    if not args.no_save:
        save(RESULTS / "deadlines.md", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
