"""The certified table: optima and "no" answers of the N-Queens family, each with a checked proof.

For each row a backend answers (sat's minimiser for domination, cpsat for the puzzles with armies),
the answer is re-proved through the CNF (`queens.solvers.proofs.certificate`): the witness re-checked by
the independent checker, and a DRUP proof that nothing better exists, checked by drup and dratify.
Each row runs in a child process with a time limit, so one hard proof cannot stall the table.

    python -m queens.experiments.certified --seconds 600 --output experiments/results/certified.md

Writes experiments/results/certified.md (`make certified`).
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import random
import signal
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from queens.experiments.saved import RESULTS, save
from queens.models import Completion, Puzzle, lower, symmetry_group, verify
from queens.models.domination import Domination
from queens.models.puzzle_file import SHIPPED, load
from queens.models.symmetry import leaders_only, lex_leader
from queens.solvers.backends.sat import Sat
from queens.solvers.proofs.certificate import (
    Certificate,
    NotProved,
    better_than,
    certify_copies,
    certify_none,
    certify_optimum,
)
from queens.solvers.proofs.proof_steps import STEPS_PER_WORKER
from queens.solvers.proofs.unsat_proof import DRUP_SECONDS, Trimmed
from queens.solvers.routing.router import solve as solve_routed

Row = dict[str, Any]


LEX_FROM = 8
"""From this n on, γ(Q_n)'s proof keeps the lex-leader chains (named in the certificate as a
reduction): without them n = 8 took 38,038 lemmas, with them 6,570 (load 8, 2 cores)."""


def domination(n: int, drup_seconds: float = DRUP_SECONDS) -> Row:
    """γ(Q_n) (A075458): sat's minimiser answers, the CNF proves "at most γ - 1" has none."""
    puzzle = Domination(n)
    model = lower(puzzle)
    start = time.perf_counter()
    witness = Sat().minimise(lex_leader(model, symmetry_group(model)), None)  # as `solve` asks it
    answered = time.perf_counter() - start
    assert witness is not None
    better, refuted = better_than(model, len(witness))
    if n >= LEX_FROM:
        better = lex_leader(better, symmetry_group(better))
    certificate = certify_optimum(model, witness, len(witness), lambda p: verify(puzzle, p), better=better,
                                  refuted=refuted, lex=n >= LEX_FROM, drup_seconds=drup_seconds)
    return _row("γ(Q_n) A075458", n, "sat (minimise)", answered, certificate)


def _armies(name: str, n: int) -> Puzzle:
    return load(SHIPPED / f"{name}.toml", n)


def _armies_optimum(name: str, problem: str, n: int, drup_seconds: float, lex: bool = False) -> Row:
    """The routed optimum of a shipped puzzle with a goal, and the CNF's proof that nothing is
    better; with `lex`, the proof keeps the lex chains `solve` searched with (the sides of the
    lines the armies share: `leaders_only`), named in the certificate as a reduction."""
    puzzle = _armies(name, n)
    result = solve_routed(puzzle)
    value, answer = result.objective, result.solution
    assert value is not None and answer is not None
    model = lower(puzzle)
    better, refuted = better_than(model, value)
    if lex:
        better, _ = leaders_only(puzzle, better, sides=True)
    certificate = certify_optimum(model, answer, value, lambda p: verify(puzzle, p), checked_by="queens.models.verify",
                                  better=better, refuted=refuted, lex=lex, drup_seconds=drup_seconds)
    return _row(problem, n, f"{result.backend}/{result.method}", result.wall_time, certificate)


PEACEABLE_LEX_FROM = 6
"""From this n on, peaceable queens' proof keeps the chains over the lines' sides (a reduction,
named): without them n = 7 took 43,399 lemmas, past drup's budget (2026-11-27)."""


def peaceable(n: int, drup_seconds: float = DRUP_SECONDS) -> Row:
    """Peaceable queens (A250000): the routed optimum m, the CNF proves m + 1 each has none."""
    return _armies_optimum("peaceable", "peaceable A250000", n, drup_seconds, lex=n >= PEACEABLE_LEX_FROM)


def cube(n: int, drup_seconds: float = DRUP_SECONDS) -> Row:
    """The most non-attacking queens on the n x n x n cube (A068940), as peaceable."""
    return _armies_optimum("cube", "cube A068940", n, drup_seconds)


def colouring(n: int, drup_seconds: float = DRUP_SECONDS) -> Row:
    """χ(queen n_n) (A088202): cpsat finds k colours, the CNF proves k - 1 have none, with the
    reduction named: the first row is a clique, and colours are interchangeable, so its queens
    may take colours 1, 2, ... in order."""
    puzzle = _armies("colouring", n)
    result = solve_routed(puzzle, "cpsat")
    certificate = certify_copies(puzzle, result, drup_seconds=drup_seconds)  # what solve --certify proves
    assert certificate is not None, "queen n_n needs more than one colour from n = 2"
    return _row("χ(queen n_n) A088202", n, "cpsat", result.wall_time, certificate)


def _row(problem: str, n: int, answered_by: str, answer_seconds: float, certificate: Certificate) -> Row:
    drup, dratify = certificate.checks
    return {"problem": problem, "n": n, "value": certificate.value, "answered by": answered_by,
            "answer s": answer_seconds, "refuted": certificate.refuted,
            "cnf": f"{certificate.cnf_variables} / {certificate.cnf_clauses}",
            "lemmas": certificate.proof_added, "deleted": certificate.proof_deleted,
            "proof bytes": certificate.proof_bytes, "proof solve s": certificate.solve_seconds,
            "drup": drup.verdict, "drup s": drup.seconds, **_trimmed(drup.trimmed),
            "dratify": dratify.verdict, "dratify s": dratify.seconds,
            "reductions": ", ".join(r.name for r in certificate.reductions) or "none",
            "load": os.getloadavg()[0]}


def _trimmed(trimmed: Trimmed | None) -> Row:
    """What both checkers read: the core's clauses and the trimmed proof's lemmas (of the whole)
    and units, and the trimmer's time; "whole" when they read the formula and the proof as they are."""
    if trimmed is None:
        return {"read": "whole", "trim s": 0.0}
    return {"read": f"{trimmed.clauses} / {trimmed.of_clauses} clauses, {trimmed.lemmas} / {trimmed.of_lemmas} "
                    f"lemmas, {trimmed.units} units", "trim s": trimmed.seconds}


def random_completion(rng: random.Random, n: int, k: int) -> list[tuple[int, int]]:
    """k non-attacking queens at random (fewer when the random choices run out)."""
    cells: list[tuple[int, int]] = []
    for r in rng.sample(range(n), n):
        columns = [c for c in range(n) if all(c != c2 and r - c != r2 - c2 and r + c != r2 + c2 for r2, c2 in cells)]
        if columns:
            cells.append((r, rng.choice(columns)))
        if len(cells) == k:
            break
    return cells


def hard_density(rng: random.Random, n: int, samples: int = 30) -> int:
    """The number of pre-placed queens at which about half the random completions have no
    solution (the phase transition, where the hard instances are; Gent, Jefferson & Nightingale 2017)."""
    best, gap = 1, 1.0
    for k in range(1, n):
        infeasible = sum(Sat().find(lower(Completion(n, random_completion(rng, n, k))), None) is None
                         for _ in range(samples))
        if abs(infeasible / samples - 0.5) < gap:
            best, gap = k, abs(infeasible / samples - 0.5)
    return best


def completions(n: int, count: int, seed: int = 22) -> list[Row]:
    """`count` random completions with no solution at the hard density, each with its proof."""
    rng = random.Random(seed)
    k = hard_density(rng, n)
    rows: list[Row] = []
    while len(rows) < count:
        cells = random_completion(rng, n, k)
        start = time.perf_counter()
        try:
            certificate = certify_none(lower(Completion(n, cells)), refuted=f"{len(cells)} queens extended")
        except NotProved:
            continue
        rows.append(_row(f"completion {n}x{n}, {len(cells)} queens", n, "sat (proof solve)",
                         time.perf_counter() - start, certificate))
    return rows


def _child(job: Callable[[int], Row], n: int, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    os.setsid()  # a group of its own: at the time limit its drup child is stopped with it
    try:
        queue.put(job(n))
    except Exception as error:  # noqa: BLE001 - the table says what went wrong instead of a time limit
        queue.put({"error": f"{type(error).__name__}: {error}"})


def limited(job: Callable[[int], Row], n: int, seconds: float) -> Row | None:
    """`job(n)` in a child process, stopped after `seconds` (None then)."""
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    child = multiprocessing.Process(target=_child, args=(job, n, queue))
    child.start()
    try:
        return queue.get(timeout=seconds)  # type: ignore[no-any-return]
    except Exception:  # queue.Empty at the time limit
        return None
    finally:
        if child.is_alive() and child.pid is not None:
            os.killpg(child.pid, signal.SIGKILL)
        child.join()


COLUMNS = ["problem", "n", "value", "answered by", "answer s", "refuted", "cnf", "lemmas", "deleted", "proof bytes",
           "proof solve s", "read", "trim s", "drup", "drup s", "dratify", "dratify s", "reductions", "load"]


def _cell(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def table(rows: list[Row]) -> list[str]:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    return lines + ["| " + " | ".join(_cell(row[c]) for c in COLUMNS) + " |" for row in rows]


def sweep(name: str, job: Callable[[int], Row], sizes: range, seconds: float) -> tuple[list[Row], str]:
    """Rows for n in `sizes` until one does not finish within `seconds`; a note on how far it got."""
    rows: list[Row] = []
    for n in sizes:
        row = limited(job, n, seconds)
        print(f"{name} n={n}: {row if row else 'time limit'}", flush=True)
        if row is None:
            return rows, f"{name}: n = {n} did not finish within {seconds:g} s (load {os.getloadavg()[0]:.2f})"
        if "error" in row:
            return rows, f"{name}: n = {n} failed: {row['error']}"
        rows.append(row)
    return rows, f"{name}: every n in {sizes.start}..{sizes.stop - 1} finished"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="time limit per row (the issue: 10 minutes)")
    parser.add_argument("--domination", type=int, default=14, help="γ(Q_n) for n = 1 up to this")
    parser.add_argument("--colouring", type=int, default=8, help="χ(queen n_n) for n = 5 up to this")
    parser.add_argument("--peaceable", type=int, default=8, help="peaceable queens for n = 1 up to this")
    parser.add_argument("--completion-n", type=int, nargs="+", default=[12, 50],
                        help="board sizes of the random completions (the issue's check-cost target: up to 50 x 50)")
    parser.add_argument("--completions", type=int, nargs="+", default=[100, 20],
                        help="how many random completions with no solution, one number per size (0: none)")
    parser.add_argument("--output", type=Path, default=RESULTS / "certified.md")
    args = parser.parse_args()
    started, load = datetime.datetime.now(datetime.UTC), os.getloadavg()
    rows: list[Row] = []
    random_rows: dict[int, list[Row]] = {}
    notes: list[str] = []
    sections = (("domination", domination, range(1, args.domination + 1)),
                ("completions", None, range(0)),
                ("colouring", colouring, range(5, args.colouring + 1)),
                ("peaceable", peaceable, range(1, args.peaceable + 1)),
                ("cube", cube, range(4, 5)))
    for name, job, sizes in sections:  # the file is rewritten after each section: a stopped run keeps its rows
        if job is None:
            for size, count in zip(args.completion_n, args.completions, strict=True):
                random_rows[size] = completions(size, count) if count else []
                write(args.output, rows, random_rows, notes, started, load, args.seconds)
        else:
            done, note = sweep(name, partial(job, drup_seconds=args.seconds), sizes, args.seconds)
            rows += done
            notes.append(note)
        write(args.output, rows, random_rows, notes, started, load, args.seconds)


def _summary(rows: list[Row]) -> list[str]:
    """The completions in one line: medians, and the check's cost against the solve's (the trim,
    which both checkers read, and each checker; then the whole check: the trim and both)."""
    if not rows:
        return []
    solve = [r["proof solve s"] for r in rows]
    costs = {"drup": [r["trim s"] + r["drup s"] for r in rows], "dratify": [r["trim s"] + r["dratify s"] for r in rows],
             "both": [r["trim s"] + r["drup s"] + r["dratify s"] for r in rows]}
    ratio = {name: [c / s for c, s in zip(cost, solve, strict=True)] for name, cost in costs.items()}
    within = {name: sum(r <= CHECK_COST for r in ratios) for name, ratios in ratio.items()}
    lemmas = [r["lemmas"] for r in rows]
    valid = sum(r["drup"] == "valid" and r["dratify"] == "valid" for r in rows)
    median = statistics.median
    return [f"{len(rows)} completions ({rows[0]['problem'].split(',')[0]}), each with no solution: "
            f"{valid} proofs accepted by both checkers. Medians: proof solve {median(solve):.4f} s, trim "
            f"{median(r['trim s'] for r in rows):.4f} s, drup {median(r['drup s'] for r in rows):.4f} s, dratify "
            f"{median(r['dratify s'] for r in rows):.4f} s, {median(lemmas):g} lemmas (max {max(lemmas)}). "
            f"The whole check (the trim and both checkers) against the proof's solve: median "
            f"{median(ratio['both']):.1f} x, max {max(ratio['both']):.1f} x, within the issue's {CHECK_COST:g} x: "
            f"{within['both']} of {len(rows)}; with the trim, drup alone {median(ratio['drup']):.1f} x "
            f"({within['drup']} within), dratify alone {median(ratio['dratify']):.1f} x ({within['dratify']} within).",
            ""]


CHECK_COST = 10.0
"""The issue's target: checking a proof costs at most this times the solve that made it."""


def write(path: Path, rows: list[Row], random_rows: dict[int, list[Row]], notes: list[str],
          started: datetime.datetime, load: tuple[float, float, float], seconds: float) -> None:
    machine = f"{platform.node()} ({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()})"
    text = ["# Certified answers", "",
            f"Run {started:%Y-%m-%d %H:%M} UTC on {machine}; load average at the start {load[0]:.2f} "
            f"(shared machine: other jobs ran beside it; each row's `load` is the 1-minute load at its end).",
            "Regenerate: `make certified`. Each proof: DRUP from pysat's Glucose 4 on the CNF built without symmetry "
            "breaking (lines pairwise when every bound is one, else the sequential counter; a size by the totalizer, "
            "beside it the occupancy bounds of a minimised model), checked by drup (verified in Why3) step by step "
            "on the core and the trimmed proof in `read` (found in `trim s` by the untrusted trimmer, with the "
            "hints of each step; the core checked to be lines of the formula; each step, a lemma or a top-level "
            "unit the trimmer names, checked alone against the clauses its hints name; from "
            f"{STEPS_PER_WORKER:,} steps shared by a process per core; time budget {seconds:g} s for an optimum, "
            f"the row's limit, and {DRUP_SECONDS:g} s for a completion, then `timeout`) and by dratify on the same "
            "core and steps, whole, without the hints (its Rust engine from cdclkit-native when installed, else pure "
            "Python; the column says which). See docs/certificates.md.", "",
            "## Optima", "", *table(rows), "", *[f"- {note}" for note in notes], "",
            "## Random completions with no solution", "",
            *[line for size_rows in random_rows.values() for line in [*_summary(size_rows), *table(size_rows), ""]]]
    save(path, "\n".join(text))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
