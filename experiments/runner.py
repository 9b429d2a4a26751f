"""Run a spec's grid: each run in its own process, limited, verified, stored; resumable.

Every run is a child process, forked by the grid's fork server (`queens.experiments.forks`: the
run asked as JSON, the measurement written as JSON), which has imported the solvers once. The
child caps its own address space (RLIMIT_AS) and dies with the server, which dies with the
runner (PR_SET_PDEATHSIG); the solver gets the run's time limit, and the runner kills the child
if it is still alive a grace period later (python-constraint2, for one, cannot be interrupted
inside its search). So a hung or memory-hungry solver becomes a `timeout` or `memout` row and
the grid goes on.

Each answer is checked against the native ground truth (queens.solvers.count / queens.solvers.solve with
"native", computed once per task, family and n, under the same limits; a native run with its
defaults is its own ground truth, not run twice): a count or an optimum that differs is stored
with its expected value and flagged by the report, never dropped. A solution needs no ground
truth, since queens.solvers.solve verified it; only a "no solution" answer is checked against native.
Rows are written when a run ends, so an interrupted grid, run again, skips exactly the runs
already stored.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import TypedDict, cast

from queens.experiments.forks import server_of_this_thread
from queens.experiments.spec import Run, Spec
from queens.experiments.store import Machine, Store, disagrees
from queens.solvers.options import Options
from queens.solvers.runtime.deadline_child import die_with_parent

GRACE = 10.0
"""Seconds after the time limit before the runner kills a child (start-up and clean stop)."""
LIBRARIES = ("queens", "ortools", "python-sat", "python-constraint2", "numpy", "dask", "matplotlib")
_MEMORY_SIGNS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")


class Measurement(TypedDict):
    """What one run measured, as the child prints it and `execute` returns it."""

    status: str  # ok, timeout, memout or error
    outcome: str | None  # the Result's status ("killed" when the runner killed the child)
    answer: int | None  # the count; 1/0 for found/no solution; the optimum
    wall: float | None
    cpu: float | None
    peak_mib: float | None
    stats: dict[str, int | float | str]
    error: str | None


Executor = Callable[[list[Run]], Iterator[tuple[Run, Measurement]]]
"""Runs a batch of runs somewhere (here, or on Dask) and yields each with its measurement."""


# --- the child ---------------------------------------------------------------------------------
def limit_self(memory_mib: int) -> None:
    """Cap this process's address space, and ask Linux to kill it if its parent dies."""
    limit = memory_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    die_with_parent()


def cpu_seconds() -> float:
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def measure(run: Run) -> Measurement:
    """Execute `run` in this process: the measurement the child prints (see `execute`)."""
    from queens.models import QueensError
    from queens.solvers import Status, count, get_backend, solve

    record: Measurement = {"status": "error", "outcome": None, "answer": None, "wall": None, "stats": {},
                           "error": None, "cpu": None, "peak_mib": None}
    cpu = cpu_seconds()
    try:
        get_backend(run.backend, **dict(run.options))  # imports the solver library before the clocks start
        cpu, start = cpu_seconds(), time.perf_counter()
        puzzle = run.puzzle()
        options = _options(run)
        if run.task == "count":
            result = count(puzzle, run.backend, method=run.method, time_limit=run.time_limit, **options)
            answer = result.count
        else:
            result = solve(puzzle, run.backend, method=run.method, time_limit=run.time_limit, **options)
            answer = {Status.SOLVED: 1, Status.INFEASIBLE: 0, Status.OPTIMAL: result.objective}.get(result.status)
        record.update({"status": "timeout" if result.status is Status.LIMIT else "ok",
                       "outcome": result.status.value, "answer": answer, "wall": time.perf_counter() - start,
                       "stats": result.stats})
    except MemoryError:
        record.update({"status": "memout", "error": f"out of memory (limit {run.memory_limit} MiB)"})
    except QueensError as error:
        record["error"] = str(error)
    except Exception as error:  # a solver's own failure: recorded with the run, not raised
        record["error"] = f"{type(error).__name__}: {error}"
    usage = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    record.update({"cpu": cpu_seconds() - cpu, "peak_mib": usage / 1024})
    return record


def _options(run: Run) -> Options:
    """What the router gets besides the task: the backend's options (the spec built the backend
    with these names and values, spec._check_backend), the split's processes, the symmetry asked,
    and a local search's seed (the repetition: each repetition a different walk)."""
    options = cast(Options, dict(run.options))
    if run.method == "split" and run.processes:
        options["processes"] = run.processes
    if run.symmetry is not None:
        options["symmetry"] = run.symmetry
    if run.method == "random":
        options["seed"] = run.repetition
    return options


# --- the parent --------------------------------------------------------------------------------
def execute(run: Run) -> Measurement:
    """Run `run` in a child process under its limits and return the measurement.

    Keys: status (ok/timeout/memout/error), outcome (the Result status), answer (count; 1/0 for
    found/no solution; the optimum), wall and cpu seconds of the whole `queens.solvers.count` or
    `queens.solvers.solve` call (building the puzzle, lowering, solving, verifying; the solver library
    is imported before the clocks start), peak_mib, stats, error.
    """
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="queens-run-") as folder:
        out, err = Path(folder) / "measurement.json", Path(folder) / "output"
        forks = server_of_this_thread()
        pid = forks.start(run, out, err)
        try:
            code = forks.wait(run.time_limit + GRACE)
            if code is None:  # alive past its limit and the grace period
                _kill(pid)
                forks.wait(None)
                return {"status": "timeout", "outcome": "killed", "answer": None,
                        "wall": time.perf_counter() - start, "cpu": None, "peak_mib": None, "stats": {},
                        "error": f"killed {GRACE:.0f} s after the {run.time_limit:g} s limit"}
        except BaseException:  # interrupted while it runs: the child goes too, and the server stays in step
            _kill(pid)
            forks.wait(None)
            raise
        printed = err.read_text(errors="replace") if err.exists() else ""
        measured = out.read_text() if out.exists() else ""
    try:
        record: Measurement = json.loads(measured)
    except json.JSONDecodeError:
        memory = any(sign in printed for sign in _MEMORY_SIGNS) or code == -signal.SIGKILL
        last = (printed.strip().splitlines() or [f"exit code {code}"])[-1]
        return {"status": "memout" if memory else "error", "outcome": None, "answer": None,
                "wall": time.perf_counter() - start, "cpu": None, "peak_mib": None, "stats": {},
                "error": f"child died ({last[:300]})"}
    if record["status"] == "error" and any(sign in printed for sign in _MEMORY_SIGNS):
        # the search's own process (queens.solvers.runtime.deadline_child) died of it, and this one said so
        record.update({"status": "memout",
                       "error": f"out of memory (limit {run.memory_limit} MiB): {record['error']}"})
    return record


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:  # ended meanwhile
        pass


def sequential(runs: list[Run]) -> Iterator[tuple[Run, Measurement]]:
    """The default executor: one run after another on this machine, so timings do not compete."""
    for run in runs:
        yield run, execute(run)


def machine() -> Machine:
    """What the figures were measured on."""
    info: Machine = {"system": platform.platform(), "python": platform.python_version(),
                     "cpus": os.cpu_count(), "usable cpus": len(os.sched_getaffinity(0)),
                     "load average": [round(x, 2) for x in os.getloadavg()]}
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            info["cpu"] = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")),
                               platform.processor())
        with open("/proc/meminfo") as meminfo:
            info["memory GiB"] = round(int(meminfo.readline().split()[1]) / 2**20, 1)
    except OSError:
        info["cpu"] = platform.processor()
    return info


def versions() -> dict[str, str]:
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


# --- the grid ---------------------------------------------------------------------------------
def _truth_run(run: Run) -> Run:
    """The native run that gives `run`'s ground truth (same task, puzzle and limits)."""
    return replace(run, spec="ground truth", backend="native", options=(), method="search", processes=None,
                   symmetry=None, repetition=0)


def _is_truth_run(run: Run) -> bool:
    """Whether `run` is itself the ground truth's run: native's search with its defaults."""
    return run.backend == "native" and not run.options and run.method == "search" and run.symmetry is None


def _truth_value(record: Measurement) -> tuple[int | None, str]:
    if record["status"] == "ok":
        return record["answer"], f"native: {record['outcome']}"
    return None, f"native: {record['status']} {record.get('error') or ''}".strip()


def _expected(run: Run, record: Measurement, store: Store, executor: Executor) -> int | None:
    """The ground truth for `run`: a verified solution proves itself; the rest ask native."""
    if run.task == "solve" and record["answer"] == 1:
        return 1
    if record["status"] != "ok" and run.task == "solve":
        return None
    known, value = store.truth(run.task, run.family, run.n)
    if not known:
        truths = [(run, record)] if _is_truth_run(run) else executor([_truth_run(run)])
        for _, truth in truths:
            value, note = _truth_value(truth)
            store.set_truth(run.task, run.family, run.n, value, note)
    return value


def _row(run: Run, record: Measurement, expected: int | None,
         env: dict[str, Mapping[str, object]]) -> dict[str, object]:
    """The store's row for `run`: its parameters, its measurement, the ground truth and `env`."""
    stats = record.get("stats") or {}

    def size(name: str) -> int | None:
        value = stats.get(name)
        return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    return {"key": run.key, "spec": run.spec, "task": run.task, "family": run.family, "n": run.n,
            "backend": run.backend, "configuration": run.configuration, "options": dict(run.options),
            "method": run.method, "processes": run.processes, "symmetry": run.symmetry, "repetition": run.repetition,
            "time_limit": run.time_limit, "memory_limit": run.memory_limit, "status": record["status"],
            "outcome": record.get("outcome"), "answer": record.get("answer"), "expected": expected,
            "wall": record.get("wall"), "cpu": record.get("cpu"), "peak_mib": record.get("peak_mib"),
            "variables": size("variables"), "clauses": size("clauses"), "constraints": size("constraints"),
            "stats": stats, "error": record.get("error"), **env}


def pending(spec: Spec, store: Store) -> list[Run]:
    """The runs not stored yet, first repetitions first: a passing load spreads over every
    configuration instead of spoiling all the repetitions of one."""
    done = store.finished_keys()
    return sorted((run for run in spec.runs if run.key not in done), key=lambda run: run.repetition)


def run_grid(spec: Spec, store: Store, executor: Executor = sequential,
             progress: Callable[[str], None] = lambda line: None) -> dict[str, int]:
    """Run every run of `spec` not yet in `store`; returns how many ended in each status."""
    store.save_spec(spec.name, str(spec.path), spec.text)
    todo = pending(spec, store)
    progress(f"{spec.name}: {len(spec.runs) - len(todo)} of {len(spec.runs)} runs already stored, {len(todo)} to run")
    env: dict[str, Mapping[str, object]] = {"versions": versions(), "machine": machine()}
    tally: dict[str, int] = {}
    for done, (run, record) in enumerate(executor(todo), start=1):
        expected = _expected(run, record, store, executor)
        row = _row(run, record, expected, env)
        store.add(row)
        status, seconds = record["status"], record.get("wall")  # as the row holds them
        tally[status] = tally.get(status, 0) + 1
        verdict = " ✗ disagrees with native" if disagrees(status, record.get("answer"), expected) else ""
        wall = "-" if seconds is None else f"{seconds:.2f} s"
        progress(f"[{done}/{len(todo)}] {run.task} {run.family} n={run.n} {run.configuration} "
                 f"#{run.repetition + 1}: {status} {wall}{verdict}")
    return tally
