"""The frontier (issue 23): the hardest variants people study, each beside the best peer on the
same machine and the published value with its source.

Rows, with the issue's targets as each instance's budget:
- γ(Q_n), proved (A075458): n = 1, 2, ... until an n none of our backends proves; 10 min each up
  to n = 14, then 30 min ("the largest n proved in 30 min");
- χ of queen9_9 (5 min) and queen10_10 (attempted) (A088202);
- peaceable queens n = 8 (30 s), 9 and 10 (10 min each) (A250000);
- the most queens on the n x n x n cube, n = 5 (60 s) and 6 (attempted) (A068940);
- two rooks per row and column, counted, n = 7 (10 s) and 8 (5 min) (A001499);
- independence numbers of kings, knights, bishops and queens on 8 x 8 to 20 x 20 (5 s each;
  the closed forms of docs/independence.md).

Ours: each of the row's backends through the public call (`queens.optimise` / `queens.count`:
lowering, solving and the independent checker on every answer). Peers (experiments/peers/), each
written the way its own users write it: CPMpy on OR-Tools (`cpmpy_model.py`), MiniZinc + Gecode
(the .mzn files, `minizinc_gecode.py`), and an integer program the way OR-Tools' examples write
one (`ortools_mip.py`, SCIP). A peer runs in a forked child killed GRACE seconds after its own
time limit (`call_until`), so none can hold up the table; a peer without a model for a row, or not
installed, is skipped with its reason.

An attempt that does not prove the published value is shown with what it reached (the value found,
the bound proved, the seconds), never as a success; a proved value that disagrees with the
published one is marked ✗. Within a row, who gave no answer at one size is not attempted at the
larger ones (the table says so), except the row's first backend, which attempts every size so
each has a bound reached. The ratio is our fastest proof over the fastest peer's (below 1: ours
is faster; the issue's goal is ≤ 0.5).

Run: python -m queens.experiments.bench_frontier [--seconds S] [--rows NAME ...] [--output FILE];
S caps every budget (the issue's targets when not given), --rows runs only the rows named (`ROWS`).
Prints Markdown row by row; `make bench` writes experiments/results/frontier.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from pathlib import Path

from queens.experiments.bench_backends import DATA, terms
from queens.experiments.bench_backends import load as load_average
from queens.experiments.bench_mip import independent
from queens.experiments.bench_peers import versions
from queens.experiments.runner import cpu_seconds
from queens.experiments.saved import save
from queens.models import Puzzle, QueensError, TimeLimit
from queens.models.puzzle_file import SHIPPED, load
from queens.solvers import Result, Status
from queens.solvers.runtime.deadline_child import call_until

import queens

GRACE = 10.0
"""Seconds a peer may run past its own time limit (building the model, MiniZinc's compiler) before
it is killed: a peer's limit bounds its search only."""
ATTEMPTED = 600.0
"""The budget of an instance the issue asks only to attempt."""
PEERS = {"CPMpy + OR-Tools": "cpmpy_model", "MiniZinc + Gecode": "minizinc_gecode",
         "OR-Tools MIP (SCIP)": "ortools_mip"}
"""Peer name: its module in experiments/peers/, holding one function per puzzle."""
PIECES = ("king", "knight", "bishop", "queen")


def closed_form(piece: str, n: int) -> int:
    """The most non-attacking `piece`s on n x n, n ≥ 4 (tests/data/sequences.json, "independence
    closed forms", says each formula and its source)."""
    return {"king": ((n + 1) // 2) ** 2, "knight": (n * n + 1) // 2, "bishop": 2 * n - 2, "queen": n}[piece]


def closed_form_source(piece: str) -> str:
    form = json.loads(DATA.read_text())["independence closed forms"]["forms"][piece]
    return f"{form['formula']}: {form['oeis']}"


@dataclass(frozen=True)
class Instance:
    """One size of one row: our puzzle, the peers' function and its arguments, the published value."""

    row: str
    label: str
    puzzle: Puzzle
    peer: tuple[str, tuple[object, ...]]
    published: int
    source: str
    target: float | None
    """The issue's seconds (None: "attempted", budget ATTEMPTED)."""
    backends: tuple[str, ...]
    counting: bool = False


@dataclass(frozen=True)
class Attempt:
    """What one of ours or one peer reached on an instance."""

    who: str
    value: int | None = None
    """The best value found; a count: the solutions found."""
    bound: int | None = None
    """The bound proved; equal to value once proved (a count: once complete)."""
    seconds: float = 0.0
    cpu: float = 0.0
    skipped: str | None = None
    """Why there was no attempt (refused, not installed, no model, gave up at a smaller size)."""
    solver: float | None = None
    """Ours only: the wall seconds inside the solver (the backend's `solver_wall_time`); the rest of
    `seconds` is the suite's own work (lowering, routing, symmetry, the checker)."""

    @property
    def proved(self) -> bool:
        return self.value is not None and self.value == self.bound

    def shown(self, published: int) -> str:
        if self.skipped:
            return f"{self.who}: {self.skipped}"
        if self.proved:
            wrong = "" if self.value == published else f" ✗ (published {published:,})"
            inside = "" if self.solver is None else f", solver {self.solver:.2f} s"
            return f"{self.who}: {self.value:,}{wrong} in {self.seconds:.2f} s ({self.cpu:.2f} CPU{inside})"
        found = "nothing found" if self.value is None else f"{self.value:,} found"
        bound = "" if self.bound is None else f", bound {self.bound:,}"
        return f"{self.who}: {found}{bound} at {self.seconds:.0f} s (limit)"


def _shipped(name: str, n: int) -> Puzzle:
    return load(SHIPPED / f"{name}.toml", n)


def domination(n: int) -> Instance:
    return Instance("γ(Q_n), proved", f"n = {n}", _shipped("domination", n), ("domination", (n,)),
                    terms("A075458", n), "A075458", 600.0 if n <= 14 else 1800.0, ("sat", "native", "mip"))


def colouring(n: int, target: float | None) -> Instance:
    return Instance("χ(queen n_n)", f"queen{n}_{n}", _shipped("colouring", n), ("colouring", (n,)),
                    terms("A088202", n), "A088202", target, ("native", "cpsat", "mip"))


def peaceable(n: int, target: float | None) -> Instance:
    return Instance("peaceable queens", f"n = {n}", _shipped("peaceable", n), ("peaceable", (n,)),
                    terms("A250000", n), "A250000", target, ("sat", "cpsat"))


def cube(n: int, target: float | None) -> Instance:
    return Instance("most queens on n × n × n", f"n = {n}", _shipped("cube", n), ("cube", (n,)),
                    terms("A068940", n), "A068940", target, ("cpsat", "sat", "native"))


def two_per_line(n: int, target: float | None) -> Instance:
    return Instance("two rooks per row and column", f"n = {n}", _shipped("two-per-line", n), ("two_per_line", (n,)),
                    terms("A001499", n), "A001499", target, ("native", "cpsat"), counting=True)


def independence(piece: str, n: int) -> Instance:
    return Instance(f"independence: {piece}s", f"{n} × {n}", independent(piece, n), ("independence", (piece, n)),
                    closed_form(piece, n), closed_form_source(piece), 5.0, ("cpsat", "mip", "native"))


def rows() -> Iterator[tuple[str, list[Instance]]]:
    """The issue's rows after domination (`sweep`), each its name (`--rows`) and its sizes in
    increasing order."""
    yield "colouring", [colouring(9, 300.0), colouring(10, None)]
    yield "peaceable", [peaceable(8, 30.0), peaceable(9, 600.0), peaceable(10, 600.0)]
    yield "cube", [cube(5, 60.0), cube(6, None)]
    yield "two-per-line", [two_per_line(7, 10.0), two_per_line(8, 300.0)]
    for piece in PIECES:
        yield "independence", [independence(piece, n) for n in range(8, 21)]


ROWS = ("domination", "colouring", "peaceable", "cube", "two-per-line", "independence")
"""The rows' names, in the table's order: `--rows` picks some (domination is the γ(Q_n) sweep)."""


def ours(instance: Instance, backend: str, budget: float) -> Attempt:
    """One of our backends on the instance, the whole public call, within `budget` seconds."""
    ask = queens.count if instance.counting else queens.optimise
    cpu, start = cpu_seconds(), time.perf_counter()
    try:
        result: Result = ask(instance.puzzle, backend, time_limit=budget)
    except QueensError as refusal:
        return Attempt(backend, skipped=f"refused ({str(refusal).splitlines()[0][:160]})")
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    if instance.counting:
        complete = result.status is Status.COMPLETE
        return Attempt(backend, result.count, result.count if complete else None, seconds, cpu)
    bound = result.objective if result.status is Status.OPTIMAL else result.stats.get("bound")
    solver = result.stats.get("solver_wall_time")
    return Attempt(backend, result.objective, None if bound is None else int(bound), seconds, cpu,
                   solver=float(solver) if isinstance(solver, (int, float)) else None)


def peer(instance: Instance, name: str, budget: float) -> Attempt:
    """One peer on the instance: its model's function in a child killed GRACE s after its limit."""
    function_name, args = instance.peer
    try:
        module = import_module(f"queens.experiments.peers.{PEERS[name]}")
    except ImportError as error:
        return Attempt(name, skipped=f"not installed ({error})")
    function: Callable[..., tuple[int | None, int | None]] | None = getattr(module, function_name, None)
    if function is None:
        why = getattr(module, "UNMODELLED", {}).get(function_name, "not written")
        return Attempt(name, skipped=f"no model ({why})")
    cpu, start = cpu_seconds(), time.perf_counter()
    try:
        value, bound = call_until(time.monotonic() + budget + GRACE, partial(function, *args, time_limit=budget))
    except TimeLimit:
        value, bound = None, None
    except Exception as error:  # noqa: BLE001 - a peer's own failure is its row's note, not the bench's end
        return Attempt(name, skipped=f"failed ({type(error).__name__}: {str(error).splitlines()[0][:120]})")
    return Attempt(name, value, bound, time.perf_counter() - start, cpu_seconds() - cpu)


def measure(instance: Instance, budget: float, given_up: dict[str, str]) -> list[Attempt]:
    """Each of ours, then each peer, on the instance; `given_up` (who: why) grows with whoever
    gives no answer, and they skip the row's larger sizes (but the row's first backend)."""
    attempts = []
    everyone = [(b, partial(ours, instance, b)) for b in instance.backends] + \
               [(p, partial(peer, instance, p)) for p in PEERS]
    for who, run in everyone:
        if who in given_up and who != instance.backends[0]:
            attempts.append(Attempt(who, skipped=given_up[who]))
            continue
        attempt = run(budget)
        if not attempt.skipped and not attempt.proved:
            given_up[who] = f"not attempted (no answer at {instance.label} in {budget:g} s)"
        attempts.append(attempt)
    return attempts


def fastest(attempts: list[Attempt], published: int) -> Attempt | None:
    right = [a for a in attempts if a.proved and a.value == published]
    return min(right, key=lambda a: a.seconds, default=None)


HEADER = ("| row | instance | published (source) | budget s | ours | peers | our best / best peer | "
          "target met | load |\n|---|---|---|---:|---|---|---:|:---:|---:|")


def line(instance: Instance, budget: float, attempts: list[Attempt], slow: list[tuple[Attempt, Attempt]]) -> str:
    """One Markdown table row: every attempt, the ratio of the fastest proofs, the target; a row
    where our best takes more than half the best peer's time adds (ours, peer) to `slow`."""
    mine = [a for a in attempts if a.who in instance.backends]
    theirs = [a for a in attempts if a.who not in instance.backends]
    best, best_peer = fastest(mine, instance.published), fastest(theirs, instance.published)
    if best and best_peer and best.seconds > GOAL * best_peer.seconds:
        slow.append((best, best_peer))
    if best and best_peer:
        ratio = f"{best.seconds / best_peer.seconds:.2f}× ({best.who} / {best_peer.who})"
    elif best:
        ratio = f"no peer answered in {budget:g} s"
    elif best_peer:
        ratio = f"ours none in {budget:g} s; {best_peer.who} did"
    else:
        ratio = f"none answered in {budget:g} s"
    target = instance.target
    met = "attempted" if target is None else "✓" if best and best.seconds <= target else f"✗ (≤ {target:g} s)"
    cells = [instance.row, instance.label, f"{instance.published:,} ({instance.source})", f"{budget:g}",
             "; ".join(a.shown(instance.published) for a in mine),
             "; ".join(a.shown(instance.published) for a in theirs), ratio, met, f"{os.getloadavg()[0]:.1f}"]
    return "| " + " | ".join(cells) + " |"


GOAL = 0.5
"""The issue's goal: our best at most this times the best peer's time, on every row a peer answers."""


def why_slower(slow: list[tuple[Attempt, Attempt]]) -> str:
    """The measured reason for the rows above the goal: how much of our best call is the solver's
    and how much the suite's own work, and how many rows the solver's time alone would bring
    within the goal."""
    timed = [(ours, peer) for ours, peer in slow if ours.solver is not None]
    if not timed:
        return f"{len(slow)} rows above {GOAL:g}× the best peer (no solver time recorded for them)"
    outside = statistics.median((o.seconds - (o.solver or 0.0)) for o, _ in timed)
    share = statistics.median((o.seconds - (o.solver or 0.0)) / o.seconds for o, _ in timed)
    within = sum((o.solver or 0.0) <= GOAL * p.seconds for o, p in timed)
    return (f"{len(slow)} rows above {GOAL:g}× the best peer; in the {len(timed)} with the solver's own time, "
            f"the suite's work outside the solver (lowering, routing, symmetry, the checker) is a median "
            f"{outside:.3f} s, {share:.0%} of our call, and the solver's time alone is within {GOAL:g}× the "
            f"peer's whole call on {within} of them")


def budget_of(instance: Instance, cap: float | None) -> float:
    wanted = instance.target if instance.target is not None else ATTEMPTED
    return wanted if cap is None else min(wanted, cap)


def sweep(cap: float | None, emit: Callable[[str], None], slow: list[tuple[Attempt, Attempt]]) -> str:
    """γ(Q_n) for n = 1, 2, ... until none of ours proves it (or the published terms end); the
    largest n proved, for the note."""
    given_up: dict[str, str] = {}
    largest = 0
    for n in range(1, 26):
        instance = domination(n)
        budget = budget_of(instance, cap)
        attempts = measure(instance, budget, given_up)
        emit(line(instance, budget, attempts, slow))
        best = fastest([a for a in attempts if a.who in instance.backends], instance.published)
        if best is None:
            return f"γ(Q_n): the largest n proved by ours is {largest} (n = {n} not within {budget:g} s)"
        largest = n
    return f"γ(Q_n): every n ≤ {largest} proved (the published terms end there)"


def machine() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    model = next((row.split(":", 1)[1].strip() for row in cpuinfo.read_text().splitlines()
                  if row.startswith("model name")), platform.processor()) if cpuinfo.exists() else platform.processor()
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def table(cap: float | None, emit: Callable[[str], None], chosen: Sequence[str] = ROWS) -> None:
    started = datetime.datetime.now(datetime.UTC)
    budgets = "the issue's targets" if cap is None else f"the issue's targets, capped at {cap:g} s per attempt"
    emit(f"# The frontier: the hardest variants beside their peers ({started:%Y-%m-%d %H:%M} UTC)\n")
    emit(f"Machine: {machine()} (shared with other jobs: load averages below). Budget: {budgets} "
         f"(a peer is killed {GRACE:g} s after its own limit). Versions: "
         + ", ".join(f"{k} {v}" for k, v in versions().items()) + f". Measured from {load_average()}.\n")
    emit("Regenerate: `python -m queens.experiments.bench_frontier --output experiments/results/frontier.md` "
         "(`make bench`; `--seconds S` caps every budget). Each cell: who, the value proved, the wall seconds of "
         "the whole call and its CPU seconds (threads and child processes too; for ours, the solver's own "
         "wall seconds where the backend records them: cpsat, mip, minizinc), or what it reached at its limit "
         "(found, bound); load: the 1-minute load average at the row's end. A ✗ on a value is a disagreement "
         "with the published one. Target met: ✓ proved within the issue's target; ✗ (≤ T s) not proved within "
         "it or, where the budget column is below T, not within that budget (the target itself untested).\n")
    emit(HEADER)
    slow: list[tuple[Attempt, Attempt]] = []
    notes = [sweep(cap, emit, slow)] if "domination" in chosen else []
    for name, sizes in rows():
        if name not in chosen:
            continue
        given_up: dict[str, str] = {}
        for instance in sizes:
            budget = budget_of(instance, cap)
            emit(line(instance, budget, measure(instance, budget, given_up), slow))
    notes.append(why_slower(slow))
    emit("\n" + "\n".join(f"- {note}" for note in notes))
    emit(f"\nEnded at {load_average()}, {datetime.datetime.now(datetime.UTC):%H:%M} UTC.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The frontier table, in Markdown.")
    parser.add_argument("--seconds", type=float, help="cap on every attempt's budget (default: the issue's targets)")
    parser.add_argument("--output", type=Path, help="also write the table here once the run has ended")
    parser.add_argument("--rows", nargs="+", choices=ROWS, default=list(ROWS), help="only these rows (default: all)")
    args = parser.parse_args(argv)
    lines: list[str] = []

    def emit(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    table(args.seconds, emit, args.rows)
    if args.output:  # written whole at the end: an interrupted run leaves the last table in place
        save(args.output, "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
