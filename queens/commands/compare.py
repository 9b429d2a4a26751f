"""`--backend all`: every backend's answer in one table (count and solve), as text and as JSON.

Each row is one backend answering by its own best strategy, under the same time limit: the
answer, the time, the backend's own effort counters and what it did about symmetry
(`queens.solvers.routing.side_by_side`), and whether the answer agrees with the native one. A backend
that cannot answer is a row too, "n/a", and its reason is printed once, under the table (the
same reason for several backends, once for all of them). `--json` gives the one shape of
docs/json.md, the rows under `details.results`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import click

from queens.commands.answer import payload, print_payload
from queens.commands.common import DISAGREES, err, out
from queens.commands.progress import progress_shown
from queens.ground_truth import ground_truth
from queens.models import Puzzle
from queens.solvers import Result, Status
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.routing.side_by_side import Entry, each_backend, effort, effort_text, symmetry_used

Verdict = object
"""What two backends must agree on: a count, an optimum, or whether a solution exists."""


@dataclass(frozen=True)
class Question:
    """What `--backend all` asks every backend, and how its answers are read and checked."""

    command: str
    heading: str
    """The answer column's heading."""
    answer: Callable[[Result], str]
    """The answer column's text."""
    verdict: Callable[[Result], Verdict | None]
    """What must agree across backends (None: the answer proves nothing, a time limit)."""


def refuse_for_all(options: set[str], method: str | None) -> None:
    """--backend all compares every backend with its own defaults: a backend's option (or a
    method) given with it is a usage error, said before any work (--symmetry is every enumerating
    backend's, so it may be given)."""
    if options or method:
        raise click.UsageError("--backend all compares every backend with its defaults: "
                               f"--{', --'.join(sorted(options)) or 'method'} apply to one backend")


def _count_verdict(result: Result) -> Verdict | None:
    return result.count if result.status is Status.COMPLETE else None


def _solve_answer(result: Result) -> str:
    """'solved', 'optimum 5', 'no solution', or at the limit 'time limit (best 6)'."""
    if result.status is Status.OPTIMAL:
        return f"optimum {result.objective}"
    if result.status is Status.LIMIT and result.objective is not None:
        return f"time limit (best {result.objective})"
    return str(result.status.value)


def _solve_verdict(result: Result) -> Verdict | None:
    """An optimum's value, or whether a solution exists: what a proof-giving answer settles."""
    if result.status is Status.OPTIMAL:
        return ("optimum", result.objective)
    return {Status.SOLVED: "a solution exists", Status.INFEASIBLE: "no solution"}.get(result.status)


COUNT = Question("count", "count", lambda result: result.bound, _count_verdict)
SOLVE = Question("solve", "answer", _solve_answer, _solve_verdict)
"""One solution, or the optimum with its proof for a puzzle with a goal (the task says which)."""


def compare(question: Question, task: Task, puzzle: Puzzle, time_limit: float | None, options: Options,
            as_json: bool, note: str | None = None) -> int:
    """Ask every backend `task`, print the table (or the JSON), return the exit code: 3 when an
    answer disagrees with native's, 1 when one stopped at the time limit, else 0."""
    with progress_shown():
        entries = each_backend(task, puzzle, time_limit=time_limit, options=options,
                               starting=lambda backend: err.print(f"{question.command} {puzzle.name} with "
                                                                  f"{backend} ...", markup=False))
    results = [entry.result for entry in entries if entry.result is not None]
    counting = task is Task.COUNT
    truth = _truth(question, counting, puzzle, results, time_limit)
    rows = [_row(question, entry, truth) for entry in entries]
    if as_json:
        summary = _summary(question, counting, truth, results)
        print_payload(payload(question.command, puzzle, summary, verified=truth is not None,
                              ground_truth=truth if counting else None, results=rows,
                              note=note if counting and truth == 0 else None))
    else:
        _print(question, counting, puzzle.name, rows, truth)
        if counting and truth == 0 and note:
            out.print(f"why: {note}", markup=False)
    if any(row["agrees"] is False for row in rows):
        err.print(f"an answer disagrees with the native backend's ({question.command} --backend all)", markup=False)
        return DISAGREES
    return 1 if any(result.status is Status.LIMIT for result in results) else 0


def _truth(question: Question, counting: bool, puzzle: Puzzle, results: list[Result],
           time_limit: float | None) -> Verdict | None:
    """The native answer every other is checked against: the native count (counted here when
    native is not among the answers), or native's own proved answer to a solve."""
    if counting:
        return ground_truth(puzzle, results, time_limit)
    native = next((result for result in results if result.backend == "native"), None)
    return None if native is None else question.verdict(native)


def _summary(question: Question, counting: bool, truth: Verdict | None, results: list[Result]) -> Result:
    """The JSON's top level: the native answer, as an answer of backend "all" by method "compare"."""
    wall = sum(result.wall_time for result in results)
    if counting:
        return Result("all", Status.COMPLETE if truth is not None else Status.LIMIT,
                      count=truth if isinstance(truth, int) else None, wall_time=wall, method="compare")
    native = next((r for r in results if r.backend == "native" and question.verdict(r) is not None), None)
    return Result("all", Status.LIMIT if native is None else native.status,
                  objective=None if native is None else native.objective, wall_time=wall, method="compare")


def _row(question: Question, entry: Entry, truth: Verdict | None) -> dict[str, object]:
    """One backend's row as the JSON lists it."""
    result = entry.result
    if result is None:
        return {"backend": entry.backend, "method": None, "status": "n/a", "reason": entry.reason, "answer": None,
                "count": None, "bound": None, "objective": None, "time_s": None, "effort": {}, "symmetry": None,
                "agrees": None}
    verdict = question.verdict(result)
    return {"backend": result.backend, "method": result.method, "status": result.status.value, "reason": None,
            "answer": question.answer(result), "count": result.count,
            "bound": None if result.count is None else result.bound,
            "objective": result.objective, "time_s": round(result.wall_time, 6), "effort": effort(result.stats),
            "symmetry": symmetry_used(result.stats),
            "agrees": None if truth is None or verdict is None else verdict == truth}


def _print(question: Question, counting: bool, name: str, rows: list[dict[str, object]], truth: Verdict | None) -> None:
    """The rows as a plain table (no wrapping: a long effort cell stays on its line), then each
    reason for n/a once."""
    native = "" if truth is None else f" (native: {truth:,})" if isinstance(truth, int) else \
        f" (native: {next(row['answer'] for row in rows if row['backend'] == 'native')})"
    out.print(f"{name}: {question.heading} by every backend{native}", markup=False)
    headings = ("backend", "method", question.heading, "time (s)", "effort", "symmetry", "check")
    lines = [headings]
    for row in rows:
        if row["status"] == "n/a":
            lines.append((str(row["backend"]), "-", "n/a", "-", "-", "-", ""))
            continue
        mark = {True: "✓", False: "✗", None: "?"}[row["agrees"]]  # type: ignore[index]  # a JSON row's bool
        lines.append((str(row["backend"]), str(row["method"]), str(row["answer"]), f"{row['time_s']:.3f}",
                      effort_text(row["effort"]) or "-", str(row["symmetry"]), mark))  # type: ignore[arg-type]
    widths = [max(len(line[i]) for line in lines) for i in range(len(headings))]
    right = {2, 3} if counting else {3}
    for line in lines:
        out.print("  ".join(text.rjust(width) if i in right else text.ljust(width)
                            for i, (text, width) in enumerate(zip(line, widths, strict=True))).rstrip(), markup=False)
    reasons: dict[str, list[str]] = {}
    for row in rows:
        if row["status"] == "n/a":
            reasons.setdefault(str(row["reason"]), []).append(str(row["backend"]))
    for reason, backends in reasons.items():
        out.print(f"n/a: {', '.join(backends)}: {reason}", markup=False)
