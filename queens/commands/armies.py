"""`queens solve|show|count` on a puzzle with armies (an `ArmyPuzzle`: a puzzle file or a family
such as peaceable): the backend is the first, in the measured order, whose `supports` accepts the
model (or the one asked for); the answer lists every army's cells and, for a goal, the optimum
and whether it is proved (else the bound reached at the time limit).
"""

from __future__ import annotations

import time

from queens.commands.answer import print_payload
from queens.commands.common import err, out
from queens.commands.progress import progress_shown
from queens.models import QueensError, Unsupported
from queens.models.armies import ArmyPuzzle
from queens.models.army_check import ArmyPlacement
from queens.models.army_lowering import lower_armies
from queens.solvers import Result, Status
from queens.solvers.armies import army_json, count_armies, optimal_solutions, solve_armies
from queens.solvers.registry import get_backend

ORDER = ("native", "sat", "cpsat", "csp")
"""Backends tried for army puzzles, fastest first as measured (docs/peaceable.md, docs/cube.md):
native where its bitsets suffice (independence, colouring, cubes), then sat, cpsat, csp."""


def choose(puzzle: ArmyPuzzle, backend: str | None) -> tuple[str, str]:
    """The backend to ask and why: the one named, or the first in `ORDER` that supports it."""
    if backend is not None:
        return backend, "asked for"
    model = lower_armies(puzzle.with_copies(1) if puzzle.copies_open else puzzle)
    passed = []
    for name in ORDER:
        try:
            reason = get_backend(name).supports(model)
        except QueensError as error:
            reason = str(error)
        if reason is None:
            return name, "the first that supports it, in the measured order " + ", ".join(ORDER) + (
                f"; passed over {'; '.join(passed)}" if passed else "")
        passed.append(f"{name} ({reason})")
    raise Unsupported(f"no backend can answer {puzzle.name}: {'; '.join(passed)}")


def answer_armies(command: str, puzzle: ArmyPuzzle, backend: str | None, time_limit: float | None,
                  options: dict[str, object], as_json: bool, *, all_optimal: bool = False,
                  unique: bool = False) -> int:
    """Run `command` (solve, show, count) and print the answer; the exit code (1 at a limit).
    `unique` counts symmetry classes; `all_optimal` lists every optimal placement."""
    name, why = choose(puzzle, backend)
    err.print(f"{command} {puzzle.name} with {name} ({why}) ...", markup=False)
    with progress_shown():
        result, answers = _answer(command, puzzle, name, time_limit, options, all_optimal, unique)
    if as_json:
        print_payload(_payload(command, puzzle, result, answers, why))
    else:
        _print(puzzle, result, answers, command == "show", unique)
    return 1 if result.status is Status.LIMIT else 0


def _answer(command: str, puzzle: ArmyPuzzle, name: str, time_limit: float | None, options: dict[str, object],
            all_optimal: bool, unique: bool) -> tuple[Result, list[ArmyPlacement]]:
    if command == "count":
        return count_armies(puzzle, name, time_limit=time_limit, unique=unique, **options), []
    if all_optimal:
        start = time.perf_counter()
        answers = list(optimal_solutions(puzzle, name, time_limit=time_limit, **options))
        return Result(name, Status.COMPLETE, count=len(answers), wall_time=time.perf_counter() - start), answers
    result = solve_armies(puzzle, name, time_limit=time_limit, **options)
    return result, list(result.solutions)  # type: ignore[arg-type]


def _payload(command: str, puzzle: ArmyPuzzle, result: Result, answers: list[ArmyPlacement], why: str) -> dict:
    return {
        "command": command,
        "puzzle": {"name": puzzle.name, "shape": list(puzzle.shape),
                   "armies": [{"name": a.name, "piece": a.piece.name} for a in puzzle.armies]},
        "backend": result.backend, "method": "search", "why": why, "status": result.status.value,
        "solutions": [army_json(_expanded(puzzle, answer), answer) for answer in answers],
        "count": result.count, "lower_bound": result.status is Status.LIMIT and result.count is not None,
        "objective": result.objective, "time_s": round(result.wall_time, 6), "verified": bool(answers),
        "stats": {k: v for k, v in result.stats.items() if isinstance(v, int | float | str)}, "details": {},
    }


def _expanded(puzzle: ArmyPuzzle, answer: ArmyPlacement) -> ArmyPuzzle:
    """The puzzle with as many armies as the answer has (a colouring fixes its copies)."""
    return puzzle.with_copies(len(answer) - len(puzzle.armies) + 1) if puzzle.copies_open else puzzle


def _print(puzzle: ArmyPuzzle, result: Result, answers: list[ArmyPlacement], draw_only: bool, unique: bool) -> None:
    line = f"{puzzle.name}: {result.status.value} by {result.backend} in {result.wall_time:.3f} s"
    if result.objective is not None:
        line += f"; optimum {result.objective}" + (" (proved)" if result.status is Status.OPTIMAL else "")
    if "bound" in result.stats:
        line += f"; bound {result.stats['bound']}"
    if result.count is not None:
        line += f"; {result.count:,} " + ("optimal placements" if _has_goal(puzzle) else "solutions")
        if unique:
            line += " up to symmetry"
    out.print(line, markup=False)
    for answer in answers[:1] if draw_only else answers:
        out.print(drawing(_expanded(puzzle, answer), answer), markup=False)
        if not draw_only:
            for entry in army_json(_expanded(puzzle, answer), answer):
                cells = " ".join(",".join(map(str, cell)) for cell in entry["cells"])  # type: ignore[union-attr]
                out.print(f"{entry['army']}: {cells}", markup=False)


def _has_goal(puzzle: ArmyPuzzle) -> bool:
    return any(army.goal for army in puzzle.armies)


SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""One symbol per army on the text board when the armies' initials do not tell them apart."""


def drawing(puzzle: ArmyPuzzle, answer: ArmyPlacement) -> str:
    """The answer as text: one letter per army (its initial when the initials differ), `.` for
    an empty cell, `#` for a hole or blocker; a cube as its layers side by side."""
    initials = [army.name[:1].upper() for army in puzzle.armies]
    letters = initials if len(set(initials)) == len(initials) and all(initials) else list(SYMBOLS)
    where = {cell: letters[a % len(letters)] for a, cells in enumerate(answer) for cell in cells}

    def mark(cell: tuple[int, ...]) -> str:
        return where.get(cell, "#" if cell in puzzle.holes | puzzle.blockers else ".")

    if puzzle.dimensions == 2:
        rows, cols = puzzle.shape
        return "\n".join(" ".join(mark((r, c)) for c in range(cols)) for r in range(rows))
    side_x, side_y, side_z = puzzle.shape  # layer x drawn as rows y and columns z, layers side by side
    return "\n".join("   ".join(" ".join(mark((x, y, z)) for z in range(side_z)) for x in range(side_x))
                     for y in range(side_y))
