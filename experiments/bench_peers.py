"""The suite's backends against the tools their users would otherwise use, in the same run.

Peers (experiments/peers/), each the puzzle written the way its own users write it:
- OR-Tools' n-queens example (`ortools_example.py`, from `nqueens_sat.py`): CP-SAT, AllDifferent;
- CPMpy's n-queens (`cpmpy_model.py`) on its `ortools` and `pysat` solvers;
- MiniZinc + Gecode on the hand-written `nqueens.mzn` (the MiniZinc tutorial's model).
The suite's own MiniZinc export runs as the `minizinc` backend. A second table sets cpsat's
integer viewpoint (`queens count --backend cpsat --viewpoint alldifferent --no-symmetry`: the
textbook model, `queens.models.row_viewpoint`) beside the model it stands for, OR-Tools' example,
counting Q(10) and Q(12): the router's choice (it splits Q(12) over processes) and one process.
A peer that is not installed (or cannot take the model) is skipped with its reason, never faked.

Each backend's time is shown as a ratio to the best peer on the same puzzle and size (below 1:
the suite is faster). Times are medians of REPEATS whole calls, wall and CPU seconds (threads and
child processes too: CP-SAT's workers, MiniZinc and Gecode), with the load average at the start
and the end; every answer is checked against OEIS A000170 (counts) or as "a solution was found"
(peers report it; the suite's checker verifies). The table closes with what one MiniZinc call
costs before any search (an empty model through the same Python package), which bounds how
close the `minizinc` backend and the MiniZinc peer can come to an in-process solver.

Run: python -m queens.experiments.bench_peers [--output FILE]   (`make bench` writes
experiments/results/peers.md); prints Markdown, and writes it to FILE once the run has ended.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from queens.experiments.bench_backends import load, terms
from queens.experiments.runner import cpu_seconds
from queens.experiments.saved import save
from queens.models import NQueens, QueensError, TimeLimit
from queens.solvers import Status, count, get_backend, solve
from queens.solvers.runtime.deadline_child import call_until

REPEATS = 3
LIMIT = 30.0
TEXTBOOK = (10, 12)
"""The counts on which cpsat's integer viewpoint meets OR-Tools' example (issue 36: at most 2x)."""
TEXTBOOK_LIMIT = 180.0
"""Their time limit: OR-Tools' example counts Q(12) in 10-50 s, with the machine's load."""
TEXTBOOK_ROWS: dict[str, str | None] = {
    "`queens count --backend cpsat --viewpoint alldifferent --no-symmetry`": None,
    "the same with `--method search` (one process)": "search",
}
"""The suite's rows of that table: label -> the method asked (None: the router's choice)."""
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


def _ortools_example(task: str, n: int, limit: float = LIMIT) -> int | None:
    from queens.experiments.peers.ortools_example import nqueens

    return nqueens(n, count=task == "count", time_limit=limit)


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


def timed(job: Callable[[], object], limit: float = LIMIT) -> tuple[float, float, object, str | None]:
    """Median wall and CPU seconds of REPEATS runs, the last answer, and the reason when the job cannot run.

    Each run is a forked child killed `limit` seconds on (`call_until`): a peer that honours its
    time limit only while searching (CPMpy's pysat took minutes encoding 50 queens) cannot hold
    up the bench; its answer is then "no answer in `limit` s", after one run."""
    times, cpus, answer = [], [], None
    for _ in range(REPEATS):
        cpu, start = cpu_seconds(), time.perf_counter()
        try:
            answer = call_until(time.monotonic() + limit, job)
        except TimeLimit:
            return time.perf_counter() - start, cpu_seconds() - cpu, f"no answer in {limit:g} s", None
        except (ImportError, QueensError, RuntimeError) as error:
            return 0.0, 0.0, None, f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
        times.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu)
    return statistics.median(times), statistics.median(cpus), answer, None


def minizinc_start_up() -> str:
    """What one call through the minizinc package costs with nothing to search: the model's
    analysis, the compilation and Gecode's start, each a process of its own."""
    def empty() -> None:
        import minizinc

        model = minizinc.Model()
        model.add_string("var 0..1: x;\nsolve satisfy;\n")
        minizinc.Instance(minizinc.Solver.lookup("gecode"), model).solve()
    seconds, cpu, _, reason = timed(empty)
    if reason:
        return f"MiniZinc's cost per call not measured ({reason})"
    return (f"One MiniZinc call on an empty model (python-minizinc: analyse, compile, start Gecode) takes "
            f"{seconds:.3f} s wall, {cpu:.3f} s CPU: the floor under every MiniZinc row")


def _suite(task: str, n: int, backend: str) -> int | None:
    if task == "count":
        result = count(NQueens(n), backend, time_limit=LIMIT)
        return result.count if result.status is Status.COMPLETE else None
    result = solve(NQueens(n), backend, time_limit=LIMIT)
    return {Status.SOLVED: 1, Status.INFEASIBLE: 0}.get(result.status)


def _textbook(n: int, method: str | None) -> int | None:
    """`queens count nqueens -n N --backend cpsat --viewpoint alldifferent --no-symmetry [--method M]`,
    through the router as the command line calls it."""
    result = count(NQueens(n), "cpsat", method=method, time_limit=TEXTBOOK_LIMIT, viewpoint="alldifferent",
                   symmetry=False)
    return result.count if result.status is Status.COMPLETE else None


def _expected(task: str, n: int) -> int:
    return terms("A000170", n) if task == "count" else 1


def _warm() -> None:
    """What every run would otherwise repeat in its forked child, done once here so the children
    share it, for the peers and the suite alike: importing the peers' models and making each
    backend (the minizinc backend looks Gecode up, which python-minizinc then keeps)."""
    for module in ("queens.experiments.peers.ortools_example", "queens.experiments.peers.cpmpy_model"):
        try:
            import_module(module)
        except ImportError:
            pass  # that peer's row says why
    for backend in BACKENDS:
        try:
            get_backend(backend)
        except QueensError:
            pass


def table(lines: list[str]) -> None:
    """Print each line as it comes (a run takes minutes) and keep it for the file."""
    _warm()
    def emit(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    emit(f"## The suite's backends against their peers (seconds, medians of {REPEATS}; ratio = backend / best peer)\n")
    emit(f"Measured from {load()}. Versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()) + "\n")
    notes: list[str] = []
    emit("| puzzle | who | seconds | CPU s | ratio to best peer | answer |")
    emit("|---|---|---:|---:|---:|---|")
    for task, n in PUZZLES:
        label = f"count Q({n})" if task == "count" else f"one {n}-queens solution"
        expected, peer_times = _expected(task, n), {}
        for name, (job, _) in PEERS.items():
            seconds, cpu, answer, reason = timed(partial(job, task, n))
            if reason:
                notes.append(f"{name} on {label}: skipped ({reason})")
                continue
            ok = answer == expected
            if ok:
                peer_times[name] = seconds
            emit(f"| {label} | peer: {name} | {seconds:.3f} | {cpu:.3f} | | {answer if ok else f'{answer} ✗'} |")
        best = min(peer_times.values(), default=None)
        for backend in BACKENDS:
            seconds, cpu, answer, reason = timed(partial(_suite, task, n, backend))
            if reason:
                notes.append(f"{backend} on {label}: n/a ({reason})")
                continue
            ratio = f"{seconds / best:.2f}×" if best and answer == expected else "–"
            shown = answer if answer == expected else f"{answer} (limit or wrong) ✗"
            emit(f"| {label} | **{backend}** | {seconds:.3f} | {cpu:.3f} | {ratio} | {shown} |")
    textbook(emit, notes)
    notes.append(minizinc_start_up())
    emit("\nNotes:\n" + "\n".join(f"- {note}" for note in notes))
    emit(f"\nEnded at {load()}.")


def textbook(emit: Callable[[str], None], notes: list[str]) -> None:
    """The integer viewpoint against OR-Tools' example, counting without symmetry breaking."""
    emit(f"\n## The textbook model: cpsat's integer viewpoint against OR-Tools' example (seconds, medians of "
         f"{REPEATS}; ratio = row / example)\n")
    emit("| puzzle | who | seconds | CPU s | ratio to the example | answer |")
    emit("|---|---|---:|---:|---:|---|")
    for n in TEXTBOOK:
        label, expected = f"count Q({n})", terms("A000170", n)
        example, cpu, answer, reason = timed(partial(_ortools_example, "count", n, TEXTBOOK_LIMIT), TEXTBOOK_LIMIT)
        if reason or answer != expected:
            notes.append(f"OR-Tools example on {label}: {reason or answer}")
            continue
        emit(f"| {label} | peer: OR-Tools example (CP-SAT) | {example:.3f} | {cpu:.3f} | 1.00× | {answer} |")
        for who, method in TEXTBOOK_ROWS.items():
            seconds, cpu, answer, reason = timed(partial(_textbook, n, method), TEXTBOOK_LIMIT)
            if reason:
                notes.append(f"{who} on {label}: n/a ({reason})")
                continue
            shown = answer if answer == expected else f"{answer} (limit or wrong) ✗"
            ratio = f"{seconds / example:.2f}×" if answer == expected else "–"
            emit(f"| {label} | {who} | {seconds:.3f} | {cpu:.3f} | {ratio} | {shown} |")
    notes.append("The textbook table's CPU column counts every process: the router's choice counts Q(12) by "
                 "decomposition, in a process per core")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The suite's backends against their peers, in Markdown.")
    parser.add_argument("--output", type=Path, help="also write the table here once the run has ended")
    args = parser.parse_args(argv)
    lines: list[str] = []
    table(lines)
    if args.output:  # written whole at the end: an interrupted run leaves the last table in place
        save(args.output, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
