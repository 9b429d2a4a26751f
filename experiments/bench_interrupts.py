"""Ctrl-C, measured: every backend x task as the real `queens` command, interrupted at work;
and the commands whose long loops once ignored it (`EXTRAS`), by SIGINT and by SIGTERM.

Each case starts `queens TASK ... -b BACKEND` in a session of its own, waits until the command
has said what it is doing ("solving ...", "counting ...") and has computed `WORK` CPU seconds
more (its children included), then sends SIGINT to its process group, as a terminal's Ctrl-C
does (an extra case: its own moment, and the signal to the command alone, as `kill` sends it).
Recorded: the time from the signal to the exit, the exit code (130 is the contract), a
traceback or C++ abort on stderr, and the processes left running, found by an environment marker
every descendant inherits (as `tests/test_interrupt.py` finds them); those are then killed. A
pair the backend refuses, or one that finishes before it could be interrupted, is a row saying so.

    python -m queens.experiments.bench_interrupts [--backends sat cpsat] [--tasks count] [--extras why]

Each task is one command whose answer takes far longer than a few seconds on every backend:
  solve     24-queens on a torus (none exists, 24 being even (Polya), but no backend knows it: each
            must search the whole space)
  count     every solution of 19-queens (4,968,057,848 of them: the native counters take 12 s or
            more on 2 cores; Q(17) ended within 1 s of the moment, before the signal)
  minimise  the fewest queens dominating 12 x 12 (proved optimal)
The extras are in `EXTRAS`, each with the loop that once kept the signal waiting.
The tables go to stdout and to experiments/results/interrupts.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from queens.experiments.saved import RESULTS, save
from queens.solvers import BACKENDS

SCRIPT = Path(sys.executable).parent / "queens"
TASKS = {"solve": ["solve", "toroidal", "-n", "24"],
         "count": ["count", "nqueens", "-n", "19"],
         "minimise": ["solve", "domination", "-n", "12"]}
WORK = 1.0
"""CPU seconds the command computes, after saying what it does, before it is interrupted."""
GIVE_UP = 60.0
"""Seconds to wait for the moment to interrupt, and then for the exit, before killing the case."""
LINGER = 5.0
"""Seconds the processes a case started may take to go after it exits, before they count as left."""
BROKEN = ("Traceback", "terminate called", "leaked semaphore", "Abort", "core dumped", "internal error")
DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def says_what_it_does(line: bytes) -> bool:
    """The line a command prints as it starts its work: "solving ...", "counting ..."."""
    return line.rstrip().endswith(b"...")


def says_the_answer(line: bytes) -> bool:
    """The line that gives a solve's answer ("optimal: ..."): --certify works after it."""
    return line.startswith(b"optimal")


@dataclass(frozen=True)
class Case:
    """A command and its moment: `work` CPU seconds after the stderr line `announced` picks (None:
    after its start, for a command that says nothing while it works)."""

    args: tuple[str, ...]
    why: str
    announced: Callable[[bytes], bool] | None = says_what_it_does
    work: float = WORK


EXTRAS = {
    "line counter": Case(("count", "two-per-line", "-n", "8"),
                         "the line counter's C loop (it ran to its end, 30 s and more)"),
    "native optimum, line counter": Case(("solve", "peaceable", "-n", "6", "-b", "native"),
                                         "the same loop, one value at a time (native/search on an optimum)"),
    "--certify, the proof's solve": Case(("solve", "domination", "-n", "8", "--certify"),
                                         "pysat on the main thread (it raised its own error, exit 1)", says_the_answer),
    "--certify, the checks": Case(("solve", "domination", "-n", "8", "--certify"),
                                  "the C trimmer, then drup's step workers", says_the_answer, 6.0),
    "why": Case(("why", str(DATA / "why-hitting-sets.toml")),
                "why's hitting sets and SAT questions (a 24-queens completion with 200 holes)", None, 3.0),
}
"""Commands whose long loops ignored the signals until issue 37: each must exit 130 like the rest."""


@dataclass
class Row:
    backend: str
    task: str
    seconds: str = "-"
    code: str = "-"
    traceback: str = "-"
    left: str = "-"
    note: str = ""


def marked(marker: str) -> list[int]:
    """Live processes whose environment holds the marker: the case and its descendants."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"QUEENS_BENCH_INTERRUPT={marker}".encode() in \
                    (entry / "environ").read_bytes().split(b"\0") and _state(entry) != "Z":
                found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def _state(entry: Path) -> str:
    return (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (0 for one that is gone)."""
    total = 0
    for pid in pids:
        try:
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            continue
    return total / os.sysconf("SC_CLK_TCK")


class Stderr(threading.Thread):
    """The case's stderr, read as it comes (so a full pipe never stalls it); `announced` is set
    at the line `announces` picks (at once when None)."""

    def __init__(self, process: subprocess.Popen[bytes], announces: Callable[[bytes], bool] | None) -> None:
        super().__init__(daemon=True)
        self.process, self.text, self.announced = process, "", threading.Event()
        self.announces = announces
        if announces is None:
            self.announced.set()

    def run(self) -> None:
        assert self.process.stderr is not None
        for line in iter(self.process.stderr.readline, b""):
            self.text += line.decode(errors="replace")
            if self.announces is not None and self.announces(line):
                self.announced.set()


def _at_work(process: subprocess.Popen[bytes], stderr: Stderr, marker: str, work: float) -> bool:
    """Wait until the command has announced its work and computed `work` CPU seconds since;
    False if it ended first (refused or finished) or never got there."""
    give_up = time.monotonic() + GIVE_UP
    while not stderr.announced.wait(0.05):
        if process.poll() is not None or time.monotonic() > give_up:
            return False
    base = cpu_seconds(marked(marker))
    while cpu_seconds(marked(marker)) < base + work:
        if process.poll() is not None or time.monotonic() > give_up:
            return False
        time.sleep(0.02)
    return True


def interrupt(backend: str, task: str) -> Row:
    """One case of the grid, run and interrupted (see the module docstring)."""
    return run_case(Case((*TASKS[task], "-b", backend), task), Row(backend, task), signal.SIGINT, group=True)


def interrupt_extra(name: str, signum: signal.Signals) -> Row:
    """One of `EXTRAS`, run and interrupted by `signum`, sent to the command alone."""
    return run_case(EXTRAS[name], Row(name, signum.name), signum, group=False)


def run_case(case: Case, row: Row, signum: signal.Signals, group: bool) -> Row:
    """Run `case`, send `signum` (to its process group when `group`) at its moment, fill `row`."""
    marker = uuid.uuid4().hex
    env = {**os.environ, "QUEENS_BENCH_INTERRUPT": marker, "COLUMNS": "200"}
    process = subprocess.Popen([str(SCRIPT), *case.args], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    stderr = Stderr(process, case.announced)
    stderr.start()
    try:
        if not _at_work(process, stderr, marker, case.work):
            if process.poll() is None:
                row.note = f"not at work within {GIVE_UP:g} s"
            else:
                stderr.join()
                last = ([line for line in stderr.text.splitlines() if line.strip()][-1:] or ["(nothing)"])[0]
                said = "refused" if not stderr.announced.is_set() and process.returncode in (1, 2) else "finished"
                row.note = f"{said} before the signal (exit {process.returncode}): {last.removeprefix('error: ')[:140]}"
            return row
        if group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        signalled = time.monotonic()
        try:
            process.wait(GIVE_UP)
            row.seconds = f"{time.monotonic() - signalled:.2f}"
            row.code = str(process.returncode)
        except subprocess.TimeoutExpired:
            row.seconds, row.code = f"> {GIVE_UP:g}", "killed"
        stderr.join(LINGER)
        broken = [line for line in stderr.text.splitlines() if any(word in line for word in BROKEN)]
        row.traceback = "yes" if broken else "no"
        row.note = "; ".join(dict.fromkeys(line.strip()[:100] for line in broken))
        gone = time.monotonic() + LINGER
        while (left := marked(marker)) and time.monotonic() < gone:
            time.sleep(0.05)
        row.left = str(len(left))
        return row
    finally:
        for pid in [process.pid, *marked(marker)]:  # only what this case started
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        process.wait()


def table(rows: list[Row], first: str = "backend", second: str = "task") -> str:
    lines = [f"| {first} | {second} | time to exit (s) | exit code | traceback | processes left | note |",
             "|---|---|---:|---:|---|---:|---|"]
    lines += [f"| {r.backend} | {r.task} | {r.seconds} | {r.code} | {r.traceback} | {r.left} | {r.note} |"
              for r in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="*", choices=list(BACKENDS), default=list(BACKENDS))
    parser.add_argument("--tasks", nargs="+", choices=list(TASKS), default=list(TASKS))
    parser.add_argument("--extras", nargs="*", choices=list(EXTRAS), default=list(EXTRAS))
    parser.add_argument("--repeat", type=int, default=1, help="run each case this many times (a row each)")
    parser.add_argument("--no-save", action="store_true", help="print only; leave results/interrupts.md alone")
    args = parser.parse_args(argv)
    before = os.getloadavg()
    rows, extras = [], []
    for backend in args.backends:
        for task in args.tasks:
            for _ in range(args.repeat):
                rows.append(interrupt(backend, task))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    for name in args.extras:
        for signum in (signal.SIGINT, signal.SIGTERM):
            for _ in range(args.repeat):
                extras.append(interrupt_extra(name, signum))
                print(table(extras[-1:]).splitlines()[-1], flush=True)
    after = os.getloadavg()
    commands = "; ".join(f"{task}: `queens {' '.join(TASKS[task])} -b BACKEND`" for task in args.tasks)
    called = " ".join(["python -m queens.experiments.bench_interrupts", *sys.argv[1:]])
    text = (f"# Ctrl-C and SIGTERM: time to exit per backend and task, and where long loops ignored them\n\n"
            f"`{called}`, {date.today()}, {platform.machine()}, {os.cpu_count()} cores, load average "
            f"{before[0]:.2f} before, {after[0]:.2f} after. Contract: exit 130 within 1 s, no traceback, nothing "
            f"left running.\n")
    if rows:
        text += (f"\nSIGINT to the process group once the command computes ({WORK:g} CPU s after its \"...\" "
                 f"line). Commands: {commands}.\n\n{table(rows)}")
    if extras:
        cases = "\n".join(f"- {name}: `queens {' '.join(EXTRAS[name].args).replace(str(DATA), 'tests/data')}`, "
                          f"{EXTRAS[name].work:g} CPU s after {_moment(EXTRAS[name])}: {EXTRAS[name].why}"
                          for name in args.extras)
        text += (f"\nThe commands whose long loops ignored the signals (issue 37), each signal sent to the "
                 f"command alone:\n\n{cases}\n\n{table(extras, 'case', 'signal')}")
    print(text)
    if not args.no_save:
        save(RESULTS / "interrupts.md", text)
    return 0


def _moment(case: Case) -> str:
    """The moment a case counts its CPU seconds from, in words."""
    if case.announced is None:
        return "its start"
    return "its answer's line" if case.announced is says_the_answer else 'its "..." line'


if __name__ == "__main__":
    sys.exit(main())
