"""DRUP proofs of unsatisfiability: logged by a pysat solver, checked by two independent checkers.

A SAT solver's "unsatisfiable" is only its word. With proof logging on (`with_proof=True`) it
writes every clause it learns (and every clause it deletes) as a DRUP proof (Heule, Hunt &
Wetzler 2013): each added clause must follow from the formula and the clauses before it by unit
propagation alone (reverse unit propagation, RUP), and the last one is the empty clause. Checking
that is simple and shares nothing with the solver's search, so we check every proof twice:

- `drup` (PyPI, from cmu-transparency/verified_rup): C extracted from a checker verified in Why3;
  it ignores deletions and propagates naively, its time growing with the lemmas times the clauses
  it holds, so it checks the refutation step by step: the formula clauses and lemmas the
  refutation needs, each lemma against the few clauses its hints name (`trim_files`: an untrusted
  trimmer, a check that the core is lines of the formula, and `queens.solvers.proofs.proof_steps`); past
  its time budget its verdict is "timeout" and the proof rests on dratify alone (the certificate
  says so);
- `dratify` (PyPI): a second checker written separately (pure Python here, or its optional Rust
  engine), on the same core and steps, whole, without the hints: each step checked against
  every clause before it by its own propagation (the formula and the proof as the solver wrote
  them when the trimmer cannot follow the proof).

Both read the very files written to disk (DIMACS and proof text), not our in-memory clauses, so a
bug in how we hand clauses around cannot hide a wrong proof.

>>> import tempfile
>>> refutation = refute([[1, 2], [-1, 2], [1, -2], [-1, -2]])
>>> with tempfile.TemporaryDirectory() as scratch:
...     verdicts = check_files(*write(refutation, Path(scratch)))
>>> refutation.unsatisfiable, [v.verdict for v in verdicts]
(True, ['valid', 'valid'])
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

from pysat.solvers import Solver
from queens.models import NativeMissing, TimeLimit
from queens.solvers.native.proof_trim import NotRefuted, trim_lines
from queens.solvers.proofs.proof_steps import check_steps, clause_line
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.deadline_child import call_until
from queens.solvers.runtime.interruptible import solve_interruptibly

PROOF_SOLVER = "glucose4"
"""The pysat solver that logs proofs: Glucose 4 writes DRUP with its deletions, which keeps
dratify's clause database small (CaDiCaL's shorter proofs took drup longer to check on an
8-queens completion; experiments/results/certified.md, design-choices.md)."""


@dataclass(frozen=True)
class Refutation:
    """One SAT call with proof logging: the formula as DIMACS text, and either the proof text
    (unsatisfiable) or a satisfying assignment's true variables (satisfiable)."""

    dimacs: str
    proof: str
    unsatisfiable: bool
    model: tuple[int, ...]
    solver: str
    seconds: float


@dataclass(frozen=True)
class Verdict:
    """What one checker said about one proof, and how long it took."""

    checker: str
    version: str
    verdict: str  # "valid", "invalid", or "timeout" (drup, past its budget)
    seconds: float
    detail: str = ""
    trimmed: Trimmed | None = None
    """What drup read when it was not the whole formula and proof."""

    @property
    def valid(self) -> bool:
        return self.verdict == "valid"

    def to_json(self) -> dict[str, object]:
        return {"checker": self.checker, "version": self.version, "verdict": self.verdict,
                "seconds": round(self.seconds, 6), "detail": self.detail,
                "trimmed": self.trimmed.to_json() if self.trimmed else None}


def to_dimacs(clauses: Sequence[Sequence[int]], variables: int) -> str:
    """The formula in DIMACS: a header and one clause per line (no comments: drup's reader
    joins lines and would take a comment's words for literals).

    >>> print(to_dimacs([[1, -2], [2]], 2), end="")
    p cnf 2 2
    1 -2 0
    2 0
    """
    body = "".join(clause_line(clause) + "\n" for clause in clauses)
    return f"p cnf {variables} {len(clauses)}\n{body}"


def refute(clauses: Sequence[Sequence[int]], variables: int | None = None, solver: str = PROOF_SOLVER) -> Refutation:
    """Solve `clauses` once with proof logging on. `variables` defaults to the largest one used."""
    top = variables if variables is not None else max((abs(lit) for c in clauses for lit in c), default=0)
    start = time.perf_counter()
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as sat:
        satisfiable = bool(solve_interruptibly(sat))  # Ctrl-C stops it within a beat (no deadline: never None)
        seconds = time.perf_counter() - start
        model = tuple(v for v in sat.get_model() or () if v > 0) if satisfiable else ()
        proof = "" if satisfiable else "\n".join(sat.get_proof()) + "\n"
    return Refutation(to_dimacs(clauses, top), proof, not satisfiable, model, solver, seconds)


DRUP_SECONDS = 60.0
"""How long `drup` may take before its verdict is "timeout". The verified checker ignores
deletions and propagates naively: 2,571 lemmas against 368 clauses (queen domination, n = 7)
took it far longer than dratify (docs/certificates.md, experiments/results/design-choices.md),
so on large proofs it runs out of time and the certificate says so instead of waiting."""


def check_files(cnf_file: Path, proof_file: Path, drup_seconds: float = DRUP_SECONDS) -> list[Verdict]:
    """Both checkers' verdicts on the proof in `proof_file` that the formula in `cnf_file` is
    unsatisfiable, each reading files itself: the core and the steps `trim_files` writes, drup
    step by step with their hints, dratify whole without them; or, when the trimmer cannot
    follow the proof, the formula and the proof as the solver wrote them (each checker then
    gives its own verdict on them).

    drup, step by step: in this process, as each step is small and the deadline is looked at
    between two (a fork was most of a 12 x 12 completion's check: experiments/results/design-choices.md),
    or, from `proof_steps.STEPS_PER_WORKER` steps, shared by a forked process per core; on a whole
    proof, in a forked child killed at the deadline, as drup runs for minutes in C that cannot be
    interrupted in ours (forked, not a new interpreter: drup's own command line spent twenty
    times a 12 x 12 completion's proof solve just starting Python). dratify reads the core,
    not the whole formula: parsing a 50 x 50 completion's 203,484 clauses in Python took it
    longer than finding the proof (experiments/results/design-choices.md)."""
    try:
        trimmed = trim_files(cnf_file, proof_file)
    except (NotRefuted, NativeMissing, ValueError) as why:  # ValueError: a line that is not a clause
        read = f"on the whole formula and proof (not trimmed: {why})"
        deadline = time.monotonic() + drup_seconds
        return [_drup_verdict(read, drup_seconds, None,
                              lambda: call_until(deadline, _drup_says, cnf_file, proof_file, nested=True)),
                _dratify(cnf_file, proof_file, read, None)]
    deadline = time.monotonic() + drup_seconds
    return [_drup_verdict(f"on {trimmed}, step by step", drup_seconds, trimmed,
                          lambda: check_steps(trimmed.cnf_file, trimmed.proof_file, trimmed.hints_file, deadline,
                                              workers=default_threads())),
            _dratify(trimmed.cnf_file, trimmed.proof_file, f"on {trimmed}, without the hints", trimmed)]


def _drup_verdict(read: str, seconds: float, trimmed: Trimmed | None, says: Callable[[], str]) -> Verdict:
    """drup's verdict from `says()` (text starting "valid" when it accepts; TimeLimit past the
    `seconds` it was given); `read` says in words what it read."""
    start = time.perf_counter()
    try:
        said = says()
    except TimeLimit:
        return Verdict("drup", version("drup"), "timeout", time.perf_counter() - start,
                       f"stopped after {seconds:g} s {read}", trimmed)
    valid = said.startswith("valid")
    detail = f"checked {read}: {said}" if valid else f"{said[-200:]} ({read})"
    return Verdict("drup", version("drup"), "valid" if valid else "invalid", time.perf_counter() - start, detail,
                   trimmed)


def _drup_says(cnf_file: Path, proof_file: Path) -> str:
    """drup's verdict on the whole files (run in the forked child, which is killed at the deadline)."""
    from drup.wrappers import Outcome, check_proof_from_files  # lazy: only a certificate needs it

    try:
        result = check_proof_from_files(str(cnf_file), str(proof_file))
    except ValueError as unreadable:  # drup's own refusal of a file it cannot parse
        return f"drup could not read the files: {unreadable}"
    return "valid: the whole proof" if result.outcome is Outcome.VALID else str(result)


@dataclass(frozen=True)
class Trimmed:
    """The core and the trimmed proof drup reads in place of the formula and the proof: their
    files, their sizes against the whole (lemmas counted as `proof_lines` counts them, the
    empty clause with them) and the trimmer's time."""

    cnf_file: Path
    proof_file: Path
    hints_file: Path
    clauses: int
    of_clauses: int
    lemmas: int
    of_lemmas: int
    units: int
    """Top-level units the trimmer named as steps of their own (each checked like a lemma)."""
    seconds: float

    def __str__(self) -> str:
        return (f"a core and trimmed proof: {self.clauses:,} of {self.of_clauses:,} clauses, "
                f"{self.lemmas:,} of {self.of_lemmas:,} lemmas, {self.units:,} units")

    def to_json(self) -> dict[str, object]:
        return {"clauses": self.clauses, "of_clauses": self.of_clauses, "lemmas": self.lemmas,
                "of_lemmas": self.of_lemmas, "units": self.units, "seconds": round(self.seconds, 6)}


def trim_files(cnf_file: Path, proof_file: Path) -> Trimmed:
    """The formula clauses and the lemmas the proof needs (`queens.solvers.native.proof_trim`, untrusted),
    written beside the formula as `*.core.cnf` (lines of the formula), `*.trimmed.drup` (the
    steps: lines of the proof in order, no deletions, with the top-level units the trimmer names,
    the empty clause last) and `*.hints` (per step, the clauses its check uses). drup propagates
    naively, so this is what makes it finish: a 50 x 50 completion's 28,946 clauses (no lemma:
    unit propagation refutes it) ran past the limit where its core of 455 takes a moment; the
    4 x 4 x 4 cube's 5,866 clauses and 1,625 lemmas likewise, its core read whole far slower than
    step by step (experiments/results/design-choices.md).

    Nothing here is trusted but the subset check: the core is read back from its file and every
    line must be a line of the formula's file, so a core that drup refutes is a part of the
    formula that has no solution, and so the whole has none. The steps and hints need no check:
    drup checks each step against the clauses its hints name (`check_steps`)."""
    start = time.perf_counter()
    header, *lines = cnf_file.read_text().splitlines()
    added = [line for line in proof_file.read_text().splitlines() if line.strip() and line[:1] != "d"]
    found = trim_lines(lines, added)
    core = cnf_file.with_suffix(".core.cnf")
    core.write_text(f"p cnf {header.split()[2]} {len(found.core)}\n" + "".join(lines[i] + "\n" for i in found.core))
    if not set(core.read_text().splitlines()[1:]) <= set(lines):
        raise AssertionError(f"{core} holds a clause that is not in {cnf_file}")
    trimmed = cnf_file.with_suffix(".trimmed.drup")
    trimmed.write_text("".join(clause_line(step.clause) + "\n" for step in found.steps))
    line_of = {c: k for k, c in enumerate(found.core, start=1)}  # a formula clause: its line in the core
    hints = cnf_file.with_suffix(".hints")  # an earlier step s is -1 - s in both: the file numbers steps from 1
    hints.write_text("".join(clause_line([line_of[c] if c >= 0 else c for c in step.hints if c < 0 or c in line_of])
                             + "\n" for step in found.steps))
    empty = [line for line in added if line.split() == ["0"]][:1]  # counted as `proof_lines` counts it
    return Trimmed(core, trimmed, hints, len(found.core), len(lines), len(found.lemmas) + len(empty), len(added),
                   len(found.steps) - len(found.lemmas) - 1, time.perf_counter() - start)


def _dratify(cnf_file: Path, proof_file: Path, read: str, trimmed: Trimmed | None) -> Verdict:
    """dratify's verdict on the files; `read` says in words what they are."""
    import dratify  # lazy: the checker is needed only when certifying

    _register_native(dratify)
    start = time.perf_counter()
    result = dratify.check_proof(dratify.parse_dimacs(cnf_file.read_text()), proof_file.read_text())
    engine = "native" if dratify.native_available() else "python"
    return Verdict(f"dratify ({engine})", dratify.__version__, "valid" if result.ok else "invalid",
                   time.perf_counter() - start, f"{result.reason} ({read})", trimmed)


def _register_native(dratify: ModuleType) -> None:
    """dratify's Rust engine (the `cdclkit-native` wheel), when installed: about ten times faster
    than its Python engine (experiments/results/design-choices.md); the verdict
    names the engine that gave it."""
    try:
        import cdclkit_native
    except ImportError:
        return
    if not dratify.native_available():
        dratify.register_native(cdclkit_native)


def write(refutation: Refutation, directory: Path) -> tuple[Path, Path]:
    """The formula and its proof as files in `directory`, named by the formula's hash."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = sha256(refutation.dimacs)[:16]
    cnf_file, proof_file = directory / f"{stem}.cnf", directory / f"{stem}.drup"
    cnf_file.write_text(refutation.dimacs)
    proof_file.write_text(refutation.proof)
    return cnf_file, proof_file


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def proof_lines(proof: str) -> tuple[int, int]:
    """(clauses added, clauses deleted) in a DRUP proof text.

    >>> proof_lines("1 0\\nd 1 2 0\\n0\\n")
    (2, 1)
    """
    lines = [line for line in proof.splitlines() if line.strip()]
    deleted = sum(line.startswith("d") for line in lines)
    return len(lines) - deleted, deleted
