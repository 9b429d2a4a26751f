"""`queens count`: the fastest exact strategy by default, every backend side by side with
--backend all, each count checked against the native counter.

One layout whichever path answered: a line with the count (a lower bound, "≥ 4,012 (time
limit)", when the time limit stopped it), who answered and why; `--json` gives the shape of
docs/json.md. A backend that cannot answer shows "n/a (reason)", never a disagreement.
"""

from __future__ import annotations

import time

import click
from rich.table import Table

from queens.commands.answer import answered_by, payload, print_payload
from queens.commands.armies import answer_armies
from queens.commands.common import (
    DISAGREES,
    backend_options,
    backend_settings,
    err,
    explain_none,
    json_option,
    make_puzzle,
    method_option,
    out,
    puzzle_options,
)
from queens.commands.progress import progress_option, progress_shown
from queens.models import Unsupported
from queens.models.alternatives import Alternatives
from queens.models.armies import ArmyPuzzle
from queens.models.errors import Refused
from queens.models.families import Target
from queens.native_count import LEDGER_FROM, native_count, native_count_options, plain_queens_n, requested_options
from queens.reference import ground_truth
from queens.solvers import BACKENDS, Result, Status
from queens.solvers.backend import Task
from queens.solvers.classes import count_classes, count_target
from queens.solvers.router import Choice, answer, route
from queens.solvers.strategies import FastCount
from queens.solvers.strategy import Subject


@click.command("count")
@puzzle_options
@backend_options(allow_all=True)
@method_option(Task.COUNT)
@click.option("--symmetry/--no-symmetry", default=None,
              help="Backends that count by enumerating list one solution per symmetry class (lex-leader "
                   "constraints) and add its class size; --no-symmetry lists every solution. Default: each "
                   "backend's choice by board size (minizinc: never).")
@json_option
@progress_option
@native_count_options
def count_command(family, n, m, backend, time_limit, viewpoint, encoding, method, symmetry, as_json,
                  progress) -> int:
    """Count solutions by the fastest exact strategy; --backend all compares every backend."""
    target = make_puzzle(family, n, m)
    settings = backend_settings(viewpoint, encoding)
    if symmetry is not None:
        settings["symmetry"] = symmetry
    if isinstance(target, ArmyPuzzle):
        if backend == "all" or set(requested_options()) - {"unique"}:
            raise click.UsageError("puzzles with armies are counted by one backend (--backend native|sat|cpsat|csp), "
                                   "with --unique at most")
        return answer_armies("count", target, backend, time_limit, settings, as_json,
                             unique="unique" in requested_options())
    note = explain_none(family, n, m)
    chosen = None if method == "auto" else method
    if backend == "all":
        if settings or chosen:
            raise click.UsageError("--backend all compares every backend with its defaults: "
                                   "--viewpoint, --encoding, --symmetry and --method apply to one backend")
        return _compare(target, time_limit, note, as_json)
    if requested_options():
        return _counter_options(target, backend, chosen, time_limit, settings, as_json)
    result = _count(target, backend, chosen, time_limit, settings)
    if result is None:  # the fast counter ran with its ledger and reported itself
        return 0
    return _report(target, result, time_limit, note, as_json)


def _count(target: Target, backend: str | None, method: str | None, time_limit: float | None,
           settings: dict[str, object]) -> Result | None:
    """The count by the router's strategy, announced on stderr before it starts; None when a long
    plain count went to the fast counter with its ledger (which prints its own report)."""
    if isinstance(target, Alternatives):
        err.print(f"counting {target.name} over {len(target.choices):,} layouts ...")
        with progress_shown():
            return count_target(target, backend, method=method, time_limit=time_limit, **settings)

    def announce(choice: Choice) -> None:
        err.print(f"counting {target.name} with {choice.strategy.name} ...", markup=False)

    if plain_queens_n(target) is not None and target.rows >= LEDGER_FROM:  # telling costs no lowering
        choice = route(Task.COUNT, Subject(target), backend, method, settings)
        if isinstance(choice.strategy, FastCount):  # a long count: the fast counter with its ledger
            announce(choice)
            native_count(target, target.rows, "native", time_limit, settings, as_json=_as_json())
            return None
    with progress_shown():
        return answer(Task.COUNT, target, backend=backend, method=method, time_limit=time_limit, announce=announce,
                      **settings)


def _as_json() -> bool:
    return bool(click.get_current_context().params.get("as_json"))


def _report(target: Target, result: Result, time_limit: float | None, note: str | None, as_json: bool) -> int:
    truth = _truth(target, result, time_limit)
    agrees = None if truth is None or result.status is not Status.COMPLETE else result.count == truth
    verified = result.status is Status.COMPLETE and (result.backend == "native" or agrees is True)
    why_none = note if result.count == 0 and result.status is Status.COMPLETE else None
    if as_json:
        print_payload(payload("count", target, result, verified=verified, ground_truth=truth, agrees=agrees,
                              note=why_none))
    else:
        out.print(_count_line(target.name, result), markup=False)
        if result.why:
            out.print(f"strategy: {result.backend}/{result.method}, {result.why}", markup=False)
        if "symmetry" in result.stats:
            out.print(f"symmetry: {result.stats['symmetry']}", markup=False)
        _print_notes(result.objective, why_none, agrees, truth)
    return _exit_code([result], [agrees])


def _truth(target: Target, result: Result, time_limit: float | None) -> int | None:
    """The native count to check `result` against, within what is left of the time limit: none
    for a bound (nothing to check), nor once the limit is spent (the check would double the
    command's time: a 10 s limit took 21 s)."""
    if result.backend == "native":
        return result.count
    left = None if time_limit is None else time_limit - result.wall_time
    if result.status is not Status.COMPLETE or (left is not None and left <= 0):
        return None
    return ground_truth(target, [result], left)


def _count_line(name: str, result: Result) -> str:
    noun = "solution" if result.count == 1 else "solutions"
    limit = " (time limit)" if result.status is Status.LIMIT else ""
    prefix = "≥ " if limit else ""
    return f"{name}: {prefix}{result.count or 0:,} {noun}{limit} by {answered_by(result)}"


def _print_notes(objective: int | None, why_none: str | None, agrees: bool | None, truth: int | None) -> None:
    if objective is not None:
        out.print(f"fewest pieces: {objective} (every count above is of sets of that size)")
    if why_none:
        out.print(f"why: {why_none}")
    if agrees is False:
        out.print(f"✗ the native counter says {truth:,}")


def _exit_code(results: list[Result], agreements: list[bool | None]) -> int:
    if any(agrees is False for agrees in agreements):
        err.print("a count disagrees with the native counter")
        return DISAGREES
    return 1 if any(r.status is Status.LIMIT for r in results) else 0


def _compare(target: Target, time_limit: float | None, note: str | None, as_json: bool) -> int:
    """--backend all: each backend's best strategy side by side, checked against the native count;
    a backend that cannot answer is n/a with its reason."""
    results: list[Result] = []
    refused: dict[str, str] = {}
    for name in BACKENDS:
        err.print(f"counting {target.name} with {name} ...")
        try:
            with progress_shown():
                results.append(count_target(target, name, time_limit=time_limit))
        except Refused as refusal:
            refused[name] = "; ".join(refusal.reasons)
        except Unsupported as refusal:
            refused[name] = str(refusal)
    truth = ground_truth(target, results, time_limit)
    rows = [_row(result, truth) for result in results]
    rows += [{"backend": name, "method": None, "status": "n/a", "reason": reason, "count": None, "agrees": None}
             for name, reason in refused.items()]
    why_none = note if truth == 0 else None
    if as_json:
        summary = Result("all", Status.COMPLETE if truth is not None else Status.LIMIT, count=truth,
                         wall_time=sum(r.wall_time for r in results), method="compare")
        print_payload(payload("count", target, summary, verified=truth is not None, ground_truth=truth,
                              results=rows, note=why_none))
    else:
        _table(target.name, rows, truth)
        objective = next((r.objective for r in results if r.objective is not None), None)
        _print_notes(objective, why_none, None, truth)
    return _exit_code(results, [row["agrees"] for row in rows])


def _row(result: Result, truth: int | None) -> dict:
    agrees = None if truth is None or result.status is not Status.COMPLETE else result.count == truth
    return {"backend": result.backend, "method": result.method, "status": result.status.value, "reason": None,
            "count": result.count, "bound": result.bound, "time_s": round(result.wall_time, 6), "agrees": agrees}


def _table(title: str, rows: list[dict], truth: int | None) -> None:
    table = Table(title=f"{title}: solutions" + ("" if truth is None else f" (native: {truth:,})"))
    for heading in ("backend", "method", "count", "time (s)", "status", "ground truth"):
        table.add_column(heading, justify="right" if heading in ("count", "time (s)") else "left")
    for row in rows:
        if row["status"] == "n/a":
            table.add_row(row["backend"], "-", "-", "-", f"n/a ({row['reason']})", "")
            continue
        mark = {True: "✓", False: "✗", None: "?"}[row["agrees"]]
        table.add_row(row["backend"], row["method"], row["bound"], f"{row['time_s']:.3f}", row["status"], mark)
    out.print(table)


def _counter_options(target: Target, backend: str | None, method: str | None, time_limit: float | None,
                     settings: dict[str, object], as_json: bool) -> int:
    """--unique, --threads, --resume, --ledger, --dask: the fast counter on plain n-queens, or
    (--unique alone) symmetry classes by enumeration for any other puzzle."""
    size = plain_queens_n(target)
    if set(requested_options()) == {"unique"} and size is None:
        return _classes(target, backend, settings, as_json)
    if method not in (None, "fast"):
        names = ", --".join(requested_options())
        raise click.UsageError(f"--{names}: these use the fast counter, not --method {method}")
    return native_count(target, size, backend, time_limit, settings, as_json)


def _classes(target: Target, backend: str | None, settings: dict[str, object], as_json: bool) -> int:
    """--unique for any family: enumerate, and count classes under the model's own symmetries
    (for free pawns, the board's symmetries acting on pawns and queens together)."""
    first = target.choices[0][0] if isinstance(target, Alternatives) else target
    engine = route(Task.ENUMERATE, Subject(first), backend, "search", frozenset(settings)).strategy.backend
    err.print(f"counting {target.name} and its symmetry classes with {engine} ...")
    start = time.perf_counter()
    found = count_classes(target, engine, **settings)
    result = Result(engine, Status.COMPLETE, count=found.total, wall_time=time.perf_counter() - start)
    if as_json:
        print_payload(payload("count", target, result, verified=True, classes=found.classes))
    else:
        classes = "class" if found.classes == 1 else "classes"
        out.print(f"{target.name}: {found.total:,} solutions in {found.classes:,} {classes} "
                  f"under the board symmetries that keep the puzzle by {answered_by(result)}")
    return 0
