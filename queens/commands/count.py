"""`queens count`: the fastest exact strategy by default, every backend side by side with
--backend all (queens/commands/compare.py: count, time, effort, symmetry), each count checked
against the native counter.

The command line is read once into one request (`CountRequest`): the puzzle, the backend and
method that narrow the router, and the options, which are the strategies' own (--symmetry for
enumerating backends, --unique for every strategy that counts classes, --threads, --ledger,
--resume and --dask for the native counters, native/classes and native/quadrant). The router
refuses, before any work, an option no strategy that can count the puzzle takes. One layout
whichever strategy answered: a line with the count (a lower bound, "≥ 4,012 (time limit)",
when the time limit stopped it), who answered and why; `--json` gives the shape of
docs/json.md. A backend that cannot answer shows "n/a (reason)", never a disagreement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import click

from queens.commands.answer import answered_by, payload, print_payload
from queens.commands.common import (
    DISAGREES,
    backend_options,
    backend_settings,
    command,
    err,
    explain_none,
    json_option,
    made_puzzle,
    method_option,
    out,
    puzzle_options,
)
from queens.commands.compare import COUNT, compare, refuse_for_all
from queens.commands.number_options import Count
from queens.commands.progress import progress_option, progress_shown
from queens.ground_truth import ground_truth
from queens.models import Puzzle
from queens.solvers import Result, Status
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.routing.ledgered_count import DEFAULT_LEDGER, LEDGER_FROM
from queens.solvers.routing.router import Choice, answer

INTERRUPTED = 130


@dataclass(frozen=True)
class CountRequest:
    """One count, as the command line asked it."""

    puzzle: Puzzle
    backend: str | None
    method: str | None
    time_limit: float | None
    options: Options


def _counter_options(command: Callable[..., object]) -> Callable[..., object]:
    """--unique, --threads, --resume, --ledger, --dask: options of the strategies that count."""
    decorators = [
        click.option("--unique", is_flag=True, default=None,
                     help="Also count symmetry classes (nqueens: fundamental solutions, A002562, and the three "
                          "class counts; any other puzzle: classes under the symmetries that keep it)."),
        click.option("--threads", type=Count(1), default=None,
                     help="nqueens, native/classes and native/quadrant: threads for the counter (default: all cores)."),
        click.option("--resume", is_flag=True, default=None,
                     help="nqueens, native/classes and native/quadrant: skip the subproblems the ledger "
                          "already holds."),
        click.option("--ledger", type=click.Path(dir_okay=False), default=None,
                     help=f"nqueens, native/classes and native/quadrant: SQLite file of finished subproblems "
                          f"[default: ./{DEFAULT_LEDGER}]."),
        click.option("--dask", metavar="local|tcp://HOST:PORT", default=None,
                     help="nqueens, native/classes and native/quadrant: count on a Dask LocalCluster or an existing "
                          "scheduler."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


@command("count", examples=(
    "queens count nqueens -n 12               # 14,200, by the native counter",
    "queens count nqueens -n 8 --backend all  # every backend side by side, each checked",
    "queens count A103330 -n 8                # a published puzzle, by its OEIS id",
))
@puzzle_options
@backend_options(allow_all=True)
@method_option(Task.COUNT)
@click.option("--symmetry/--no-symmetry", default=None,
              help="Backends that count by enumerating list one solution per symmetry class (lex-leader "
                   "constraints) and add its class size; --no-symmetry lists every solution. Default: each "
                   "backend's choice by board size (minizinc: never). With --backend all, a backend that has no "
                   "such switch (a counter that does not enumerate) is n/a, with its reason.")
@json_option
@progress_option
@_counter_options
def count_command(family_or_file: str, n: int | None, m: int | None, backend: str | None, time_limit: float | None,
                  viewpoint: str | None, encoding: str | None,
                  solver: str | None, method: str, symmetry: bool | None, as_json: bool,
                  progress: bool, unique: bool | None, threads: int | None, resume: bool | None, ledger: str | None,
                  dask: str | None) -> int:
    """Count solutions by the fastest exact strategy; --backend all compares every backend."""
    settings = backend_settings(viewpoint, encoding, solver)
    if symmetry is not None:
        settings["symmetry"] = symmetry
    puzzle, file_asks_unique = made_puzzle(family_or_file, n, m)
    if unique or file_asks_unique:
        settings["unique"] = True
    if threads is not None:
        settings["threads"] = threads
    if resume:
        settings["resume"] = True
    if ledger is not None:
        settings["ledger"] = ledger
    if dask is not None:
        settings["dask"] = dask
    request = CountRequest(puzzle, None if backend == "all" else backend,
                           None if method == "auto" else method, time_limit, settings)
    note = explain_none(family_or_file, n, m)
    if backend == "all":
        refuse_for_all({key for key in settings if key != "symmetry"}, request.method)
        return compare(COUNT, Task.COUNT, puzzle, time_limit, settings, as_json, note)
    try:
        result = _count(request)
    except KeyboardInterrupt:
        kept = ledger or resume or request.puzzle.rows >= LEDGER_FROM
        err.print("interrupted" + (f": finished subproblems are kept in {ledger or DEFAULT_LEDGER}; run again "
                                   "with --resume" if kept else ""), markup=False)
        return INTERRUPTED
    return _report(request, result, note, as_json)


def _count(request: CountRequest) -> Result:
    """The count by the router's strategy, announced on stderr before it starts."""
    def announce(choice: Choice) -> None:
        err.print(f"counting {request.puzzle.name} with {choice.strategy.name} ...", markup=False)

    with progress_shown():
        return answer(Task.COUNT, request.puzzle, backend=request.backend, method=request.method,
                      time_limit=request.time_limit, announce=announce, **request.options)


def _report(request: CountRequest, result: Result, note: str | None, as_json: bool) -> int:
    if "ledger" in result.stats:  # what a native counter kept or resumed: a log line
        err.print(f"ledger: {result.stats['ledger']}", markup=False)
    if result.status is Status.LIMIT:
        err.print(f"time limit: {result.count or 0:,} solutions so far, a lower bound", markup=False)
    truth = _truth(request, result)
    agrees = None if truth is None or result.status is not Status.COMPLETE else result.count == truth
    verified = result.status is Status.COMPLETE and (result.backend == "native" or agrees is True)
    why_none = note if result.count == 0 and result.status is Status.COMPLETE else None
    if as_json:
        print_payload(payload("count", request.puzzle, result, verified=verified, ground_truth=truth, agrees=agrees,
                              note=why_none, **_classes(result)))
    else:
        out.print(_count_line(request.puzzle, result), markup=False)
        if result.why:
            out.print(f"strategy: {result.backend}/{result.method}, {result.why}", markup=False)
        for key in ("symmetry", "workers"):
            if key in result.stats:
                out.print(f"{key}: {result.stats[key]}", markup=False)
        _print_classes(result)
        _print_notes(result.objective, why_none, agrees, truth)
    return _exit_code([result], [agrees])


def _classes(result: Result) -> dict[str, object]:
    """The class counts a strategy reported (`unique`), as the JSON's details."""
    keys = ("classes", "fundamental", "quarter_turn", "half_turn", "asymmetric", "whole_board")
    return {key: result.stats[key] for key in keys if key in result.stats} if "classes" in result.stats else {}


def _print_classes(result: Result) -> None:
    stats = result.stats
    if "classes" not in stats:
        return
    if "fundamental" in stats:
        out.print(f"  fundamental (up to rotation and reflection): {stats['fundamental']:,}")
        out.print(f"  classes fixed by a quarter turn: {stats['quarter_turn']:,} (2 solutions each)")
        out.print(f"  classes fixed by a half turn only: {stats['half_turn']:,} (4 solutions each)")
        out.print(f"  classes with no rotational symmetry: {stats['asymmetric']:,} (8 solutions each)")
        if stats["whole_board"]:
            out.print(f"  the lone queen, fixed by all 8 symmetries: {stats['whole_board']}")
    elif "classes" in stats:
        out.print(f"  {stats['classes']:,} classes under the symmetries that keep the puzzle")


CHECK_BUDGET = (10.0, 2.0)
"""The native check's time, at most this factor of the count's own time or this many seconds,
whichever is more: the count is the answer asked for, the check a service (peaceable queens
n = 5: the native check took over a hundred times sat's count; experiments/results/design-choices.md)."""


def _truth(request: CountRequest, result: Result) -> int | None:
    """The native count to check `result` against, within CHECK_BUDGET and what is left of the
    time limit: none for a bound (nothing to check), nor once the limit is spent (the check
    would double the command's time: experiments/results/design-choices.md); unchecked, the JSON says
    `verified: false`."""
    if result.backend == "native":
        return result.count
    factor, floor = CHECK_BUDGET
    left = max(floor, factor * result.wall_time)
    if request.time_limit is not None:
        left = min(left, request.time_limit - result.wall_time)
    if result.status is not Status.COMPLETE or left <= 0:
        return None
    return ground_truth(request.puzzle, [result], left)


def _count_line(puzzle: Puzzle, result: Result) -> str:
    noun = "solution" if result.count == 1 else "solutions"
    if puzzle.goal is not None:
        noun = "optimal placement" if result.count == 1 else "optimal placements"
    limit = " (time limit)" if result.status is Status.LIMIT else ""
    prefix = "≥ " if limit else ""
    return f"{puzzle.name}: {prefix}{result.count or 0:,} {noun}{limit} by {answered_by(result)}"


def _print_notes(objective: int | None, why_none: str | None, agrees: bool | None, truth: int | None) -> None:
    if objective is not None:
        out.print(f"optimum: {objective} (every count above is of placements with that value)")
    if why_none:
        out.print(f"why: {why_none}")
    if agrees is False:
        out.print(f"✗ the native counter says {truth:,}")


def _exit_code(results: list[Result], agreements: list[bool | None]) -> int:
    if any(agrees is False for agrees in agreements):
        err.print("a count disagrees with the native counter")
        return DISAGREES
    return 1 if any(r.status is Status.LIMIT for r in results) else 0
