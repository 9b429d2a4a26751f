"""A fresh audit of new inputs, as issue 37 measured the suite: many inputs no test wrote, each
run through the command line or the Python API, and every answer small enough checked against a
brute force that shares no code with the solvers (`tests.puzzle_oracle`).

An input is drawn from a seeded generator (`random.Random(seed)`, so a run is reproducible
and a failure can be run again by its number):

- a command line: `count` or `solve` (`--json`) on a registry family, with -n mostly small and
  sometimes at an edge, each flag the family takes given or not, a backend or the router's
  choice, a time limit;
- a call of the API: `queens.count`, `queens.solve` or `queens.optimise` on a random `Puzzle`
  (a board of 1 to 4 sides, one or two armies of any piece, counts, goals, holes, a torus,
  covers, per-line bounds), or a call with an odd argument.

Each input is checked for: the documented exit codes (0, 1, 2, 3, 130) or the documented errors
(a `QueensError`, a `TypeError` naming the argument); no traceback and no "internal error"; an
answer within `BOUND` seconds (an alarm otherwise: a hang); and, where the puzzle has at most
`ORACLE_CELLS` open cells, the count, the optimum, or "no solution" the oracle finds, and any
solution given passing the oracle's own reading of the rules.

Run it: `python -m tests.audit_inputs --inputs 500 --seed 1` prints the tally (and each failure);
`tests/test_audit.py` runs a few in `make test`, and QUEENS_FUZZ_EXAMPLES of them when set.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from queens.models import Puzzle, QueensError
from queens.models.armies import Army
from queens.models.families import FAMILIES, FamilyOptions, build
from queens.solvers.result import Result, Status

import queens
from tests import puzzle_oracle
from tests.cli import run_main

BOUND = 60
"""Seconds an input may take before it counts as a hang (each is also given a 20 s time limit)."""
ORACLE_CELLS = 14
"""The most open cells (times armies) the brute force is asked about: 3^14 at worst, seconds."""
EXIT_CODES = {0, 1, 2, 3, 130}
SIZES = [1, 2, 3, 3, 4, 4, 4, 5, 5, 6]
EDGE_SIZES = ["0", "-1", "8_0", "99999999999999999999", "2.5", "x", "7", "+4"]
BACKENDS = [None, None, None, "native", "sat", "cpsat", "csp"]
PIECES_2D = ["queen", "rook", "bishop", "knight", "king", "superqueen", "amazon"]


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so no handler of the suite (or of the CLI) swallows it."""


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Raise `Hang` in this thread after `seconds` (SIGALRM): a hang is a failure, not a stall.
    The CLI's contract fuzzer (tests/test_contract_fuzz.py) uses it too."""
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Tally:
    """What an audit found: inputs run, answers compared with the oracle, and each kind of failure."""

    inputs: int = 0
    answered: int = 0
    refused: int = 0
    limited: int = 0
    checked: int = 0
    wrong: int = 0
    tracebacks: int = 0
    hangs: int = 0
    bad_exits: int = 0
    failures: list[str] = field(default_factory=list)

    def fail(self, kind: str, number: int, what: object, detail: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.failures.append(f"#{number} {kind}: {what}: {detail[:400]}")

    def line(self) -> str:
        return (f"{self.inputs} inputs: {self.answered} answered ({self.checked} checked against the brute force), "
                f"{self.refused} refused with a message, {self.limited} stopped by their time limit; "
                f"{self.wrong} wrong, {self.tracebacks} tracebacks, {self.hangs} hangs, "
                f"{self.bad_exits} other exit codes")


# -- inputs -------------------------------------------------------------------------------------


def _cells(rng: random.Random, n: int, k: int) -> str:
    return " ".join(f"{rng.randrange(n)},{rng.randrange(n)}" for _ in range(k))


def _flags(rng: random.Random, family: str, n: int) -> tuple[list[str], dict[str, Any]]:
    """The family's flags, each given or not: as command-line words and as `FamilyOptions` keywords."""
    words: list[str] = []
    given: dict[str, Any] = {}
    for flag in sorted(FAMILIES[family].accepts):
        wanted = flag in ("queens",) or rng.random() < 0.4
        if not wanted or flag == "vector":
            continue
        value: Any
        if flag == "m":
            value = rng.choice([1, 2, 3, 4, 5])
        elif flag == "queens":
            value = _cells(rng, max(n, 1), rng.randint(1, 2))
        elif flag in ("pawns", "pieces"):
            value = rng.randint(0, n * n + 1)
        elif flag == "pawn":
            value = ((rng.randrange(max(n, 1)), rng.randrange(max(n, 1))),)
        else:  # independent
            value = True
        given[flag] = value
        if value is True:
            words.append(f"--{flag}")
        elif flag == "pawn":
            words += ["--pawn", ",".join(map(str, value[0]))]
        else:
            words += [f"-{flag}" if len(flag) == 1 else f"--{flag}", str(value)]
    return words, given


def command_line(rng: random.Random) -> tuple[list[str], Puzzle | None]:
    """A command line, and the puzzle it asks about when it is one the oracle can build."""
    family = rng.choice(sorted(FAMILIES))
    command = rng.choice(["count", "solve"])
    edge = rng.random() < 0.1
    n = rng.choice(SIZES)
    words, given = _flags(rng, family, n)
    line = [command, family, "-n", rng.choice(EDGE_SIZES) if edge else str(n), *words, "--json",
            "--time-limit", "20"]
    backend = rng.choice(BACKENDS)
    if backend:
        line += ["-b", backend]
    try:
        options = FamilyOptions(n, given=frozenset(given), **given)
        puzzle = None if edge else build(family, options)
    except QueensError:
        puzzle = None
    return line, puzzle


def random_puzzle(rng: random.Random) -> Puzzle:
    """A random small puzzle (may be refused by `Puzzle` itself: that is an answer too)."""
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    armies = []
    for i in range(rng.choice([1, 1, 1, 2])):
        count: Any = rng.choice([0, 1, 2, 2, 3, 3, 4, rows * cols + 1, "maximise", {"min": 1, "max": 3}])
        armies.append(Army(f"army{i}", rng.choice(PIECES_2D), count=count))
    if len(armies) == 2 and (armies[0].goal is None) != (armies[1].goal is None):  # a goal is on both or none
        armies[1] = Army("army1", armies[1].piece, count=armies[0].goal or armies[0].least)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    holes = rng.sample(cells, rng.choice([0, 0, 0, 1, 2])) if len(cells) > 2 else []
    keywords: dict[str, Any] = {"shape": (rows, cols), "armies": tuple(armies), "holes": holes,
                                "within": rng.random() < 0.8, "between": rng.random() < 0.8}
    if rows == cols and rng.random() < 0.2:
        keywords["wrap"] = True
    if rng.random() < 0.15:
        keywords["per_line"] = (("rows", 0, rng.randint(1, 2)),)
    return Puzzle(**keywords)


ODD: list[object] = [None, "nqueens", 3, 2.5, float("nan"), 2**70, [], "x.toml"]


def api_call(rng: random.Random) -> tuple[str, Callable[[], Result], Puzzle | None]:
    """A call of the API: on a random puzzle, or with an odd argument where a good one belongs."""
    if rng.random() < 0.1:
        odd = rng.choice(ODD)
        entry = rng.choice(["count", "solve", "optimise"])
        keyword = rng.choice(["puzzle", "time_limit", "backend", "threads", "unique"])
        if keyword == "puzzle":
            return f"queens.{entry}({odd!r})", lambda: getattr(queens, entry)(odd), None
        return (f"queens.{entry}(NQueens(4), {keyword}={odd!r})",
                lambda: getattr(queens, entry)(queens.NQueens(4), **{keyword: odd}), None)
    puzzle = random_puzzle(rng)
    entry = "optimise" if puzzle.goal is not None else rng.choice(["count", "solve"])
    backend = rng.choice(BACKENDS)
    return (f"queens.{entry}({_described(puzzle)}, {backend!r})",
            lambda: getattr(queens, entry)(puzzle, backend, time_limit=20), puzzle)


def _described(puzzle: Puzzle) -> str:
    armies = ", ".join(f"{a.piece.name} {a.goal or (a.least, a.most)}" for a in puzzle.armies)
    return (f"Puzzle({puzzle.size_text}, [{armies}], holes={sorted(puzzle.holes)}, wrap={any(puzzle.wrap)}, "
            f"within={puzzle.within}, between={puzzle.between}, per_line={puzzle.per_line})")


# -- checks -------------------------------------------------------------------------------------


def _small(puzzle: Puzzle | None) -> bool:
    if puzzle is None or puzzle.copies_open or puzzle.dimensions != 2:
        return False
    open_cells = puzzle.cells - len(puzzle.holes | puzzle.blockers | puzzle.missing)
    return open_cells * len(puzzle.armies) <= ORACLE_CELLS


def disagreement(puzzle: Puzzle, command: str, status: str, count: int | None, objective: int | None,
                 solution: list[tuple[int, tuple[int, ...]]] | None) -> str | None:
    """What the oracle holds against an answer, or None: a count, an optimum, "no solution", or a
    solution that breaks a rule (each read by the brute force on its own)."""
    if command == "count" and status == "complete":
        expected = puzzle_oracle.count(puzzle)
        return None if count == expected else f"count {count}, the brute force {expected}"
    if status == "no solution":
        return None if not puzzle_oracle.has_solution(puzzle) else "'no solution', but the brute force finds one"
    if solution is not None:
        broken = puzzle_oracle.broken_rule(puzzle, frozenset((a, tuple(cell)) for a, cell in solution))
        if broken:
            return f"the solution {solution} breaks {broken}"
    if status == "optimal":
        best = puzzle_oracle.optimum(puzzle)
        return None if objective == best else f"optimum {objective}, the brute force {best}"
    return None


def _armied(puzzle: Puzzle, result: Result) -> list[tuple[int, tuple[int, ...]]] | None:
    """A result's first solution as (army, cell) pairs, on the puzzle asked."""
    if result.solution is None or result.answered not in (None, puzzle):
        return None
    return [(a, tuple(cell)) for a, cells in enumerate(puzzle.per_army(result.solution)) for cell in cells]


def _json_solution(payload: dict[str, Any], puzzle: Puzzle) -> list[tuple[int, tuple[int, ...]]] | None:
    """The JSON answer's first solution, per army (docs/json.md: `armies`, each army's cells by
    its name), on the puzzle asked (None when it answers another: a layout, a colouring's copies)."""
    armies = payload.get("armies") or []
    number = {army.name: a for a, army in enumerate(puzzle.armies)}
    if not armies or any(entry["army"] not in number for entry in armies[0]):
        return None
    return [(number[entry["army"]], tuple(cell)) for entry in armies[0] for cell in entry["cells"]]


def audit_command(tally: Tally, number: int, line: list[str], puzzle: Puzzle | None) -> None:
    try:
        with alarm(BOUND):
            result = run_main(*line)
    except Hang as hang:
        tally.fail("hangs", number, " ".join(line), str(hang))
        return
    if result.returncode not in EXIT_CODES:
        tally.fail("bad_exits", number, " ".join(line), f"exit {result.returncode}: {result.stderr[-300:]}")
    if "Traceback" in result.stderr or "internal error" in result.stderr:
        tally.fail("tracebacks", number, " ".join(line), result.stderr[-600:])
        return
    if result.returncode != 0:
        tally.refused += result.returncode in (1, 2) and "time limit" not in result.stderr
        tally.limited += "time limit" in result.stderr
        return
    tally.answered += 1
    payload = json.loads(result.stdout)
    if puzzle is None or not _small(puzzle) or payload.get("puzzle", {}).get("name") != puzzle.name:
        return
    tally.checked += 1
    found = disagreement(puzzle, line[0], payload["status"], payload.get("count"), payload.get("objective"),
                         _json_solution(payload, puzzle))
    if found:
        tally.fail("wrong", number, " ".join(line), found)


def audit_call(tally: Tally, number: int, what: str, call: Callable[[], Result], puzzle: Puzzle | None) -> None:
    try:
        with alarm(BOUND):
            result = call()
    except Hang as hang:
        tally.fail("hangs", number, what, str(hang))
        return
    except QueensError:
        tally.refused += 1
        return
    except TypeError as error:
        if "argument" in str(error) or " must be " in str(error):
            tally.refused += 1
        else:
            tally.fail("tracebacks", number, what, "".join(traceback.format_exception(error))[-600:])
        return
    except Exception as error:  # noqa: BLE001 - any other exception is what the audit looks for
        tally.fail("tracebacks", number, what, "".join(traceback.format_exception(error))[-600:])
        return
    if result.status is Status.LIMIT:
        tally.limited += 1
        return
    tally.answered += 1
    if puzzle is None or not _small(puzzle):
        return
    tally.checked += 1
    command = "count" if result.count is not None and result.status is Status.COMPLETE else "solve"
    found = disagreement(puzzle, command, result.status.value, result.count, result.objective, _armied(puzzle, result))
    if found:
        tally.fail("wrong", number, what, found)


def audit(inputs: int, seed: int = 0, progress: Callable[[int, Tally], None] | None = None) -> Tally:
    """Run `inputs` drawn inputs (half command lines, half API calls) from `seed` and tally them."""
    tally = Tally()
    for number in range(inputs):
        rng = random.Random(seed * 1_000_003 + number)
        tally.inputs += 1
        if rng.random() < 0.5:
            audit_command(tally, number, *command_line(rng))
        else:
            try:
                what, call, puzzle = api_call(rng)
            except QueensError:  # the random puzzle itself refused: a documented error
                tally.refused += 1
                continue
            audit_call(tally, number, what, call, puzzle)
        if progress is not None:
            progress(number, tally)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    start = time.monotonic()

    def report(number: int, tally: Tally) -> None:
        if (number + 1) % 50 == 0:
            print(f"  {number + 1} inputs, {time.monotonic() - start:.0f} s: {tally.line()}", file=sys.stderr)

    tally = audit(arguments.inputs, arguments.seed, report)
    for failure in tally.failures:
        print(failure)
    print(tally.line())
    print(f"seed {arguments.seed}, {time.monotonic() - start:.0f} s")
    return 0 if not (tally.wrong or tally.tracebacks or tally.hangs or tally.bad_exits) else 1


if __name__ == "__main__":
    sys.exit(main())
