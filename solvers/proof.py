"""DRUP proofs of unsatisfiability: logged by a pysat solver, checked by two independent checkers.

A SAT solver's "unsatisfiable" is only its word. With proof logging on (`with_proof=True`) it
writes every clause it learns (and every clause it deletes) as a DRUP proof (Heule, Hunt &
Wetzler 2013): each added clause must follow from the formula and the clauses before it by unit
propagation alone (reverse unit propagation, RUP), and the last one is the empty clause. Checking
that is simple and shares nothing with the solver's search, so we check every proof twice:

- `drup` (PyPI, from cmu-transparency/verified_rup): C extracted from a checker verified in Why3;
  it ignores deletions, which only makes it slower, never wrong, and slow it is: past its time
  budget its verdict is "timeout" and the proof rests on dratify alone (the certificate says so);
- `dratify` (PyPI): a second checker written separately (pure Python here, or its optional Rust
  engine), applying deletions.

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
import subprocess
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

from pysat.solvers import Solver

PROOF_SOLVER = "glucose4"
"""The pysat solver that logs proofs: Glucose 4 writes DRUP with its deletions, which keeps
dratify's clause database small (CaDiCaL's shorter proofs took drup 5 x longer to check on an
8-queens completion; experiments/results/certified.md)."""


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

    @property
    def valid(self) -> bool:
        return self.verdict == "valid"

    def to_json(self) -> dict[str, object]:
        return {"checker": self.checker, "version": self.version, "verdict": self.verdict,
                "seconds": round(self.seconds, 6), "detail": self.detail}


def to_dimacs(clauses: Sequence[Sequence[int]], variables: int) -> str:
    """The formula in DIMACS: a header and one clause per line (no comments: drup's reader
    joins lines and would take a comment's words for literals).

    >>> print(to_dimacs([[1, -2], [2]], 2), end="")
    p cnf 2 2
    1 -2 0
    2 0
    """
    body = "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    return f"p cnf {variables} {len(clauses)}\n{body}"


def refute(clauses: Sequence[Sequence[int]], variables: int | None = None, solver: str = PROOF_SOLVER) -> Refutation:
    """Solve `clauses` once with proof logging on. `variables` defaults to the largest one used."""
    top = variables if variables is not None else max((abs(lit) for c in clauses for lit in c), default=0)
    start = time.perf_counter()
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as sat:
        satisfiable = sat.solve()
        seconds = time.perf_counter() - start
        model = tuple(v for v in sat.get_model() or () if v > 0) if satisfiable else ()
        proof = "" if satisfiable else "\n".join(sat.get_proof()) + "\n"
    return Refutation(to_dimacs(clauses, top), proof, not satisfiable, model, solver, seconds)


DRUP_SECONDS = 60.0
"""How long `drup` may take before its verdict is "timeout". The verified checker ignores
deletions and propagates naively: 2,571 lemmas against 368 clauses (queen domination, n = 7)
took it 68 s where dratify took 0.9 s (docs/certificates.md), so on large proofs it runs out of
time and the certificate says so instead of waiting."""


def check_files(cnf_file: Path, proof_file: Path, drup_seconds: float = DRUP_SECONDS) -> list[Verdict]:
    """Both checkers' verdicts on the proof in `proof_file` that the formula in `cnf_file`
    is unsatisfiable (each reads the files itself)."""
    return [_drup(cnf_file, proof_file, drup_seconds), _dratify(cnf_file, proof_file)]


def _drup(cnf_file: Path, proof_file: Path, seconds: float) -> Verdict:
    """drup in a child process (its C code cannot be interrupted in ours), stopped after `seconds`;
    a proof without lemmas is checked against the formula's unit-propagation core."""
    start = time.perf_counter()
    formula, note = _core_file(cnf_file, proof_file), ""
    if formula != cnf_file:
        note = f"on the unit-propagation core: {_clauses_in(formula)} of {_clauses_in(cnf_file)} clauses"
    try:
        run = subprocess.run([sys.executable, "-m", "drup.cli", str(formula), str(proof_file)],
                             capture_output=True, text=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        return Verdict("drup", version("drup"), "timeout", time.perf_counter() - start,
                       f"stopped after {seconds:g} s {note}".strip())
    valid = run.stdout.strip() == "CheckerResult(Outcome.VALID)"
    detail = note if valid else (run.stdout + run.stderr).strip()[-200:]
    return Verdict("drup", version("drup"), "valid" if valid else "invalid", time.perf_counter() - start, detail)


def _clauses_in(cnf_file: Path) -> int:
    return int(cnf_file.read_text().split("\n", 1)[0].split()[3])


def _core_file(cnf_file: Path, proof_file: Path) -> Path:
    """The formula drup should read: when the proof adds no lemma but the empty clause, if any (unit
    propagation refutes the formula: most completions), the clauses that propagation used, written beside
    the formula (`unit_core`); else the formula itself. drup propagates naively, so the core is
    what makes it finish: a 50 x 50 completion's 28,946 clauses, over 60 s; its core, under a second.

    Nothing here is trusted but the subset check: the core is read back from its file and every
    line must be a line of the formula's file, so a core that drup refutes is a part of the
    formula that has no solution, and so the whole has none."""
    if any(line.strip() not in ("", "0") for line in proof_file.read_text().splitlines() if line[:1] != "d"):
        return cnf_file
    header, *lines = cnf_file.read_text().splitlines()
    used = unit_core([[int(x) for x in line.split()[:-1]] for line in lines])
    if used is None:
        return cnf_file  # propagation does not refute it: drup will say the proof is invalid
    core = cnf_file.with_suffix(".core.cnf")
    core.write_text(f"p cnf {header.split()[2]} {len(used)}\n" + "".join(lines[i] + "\n" for i in used))
    if not set(core.read_text().splitlines()[1:]) <= set(lines):
        raise AssertionError(f"{core} holds a clause that is not in {cnf_file}")
    return core


def unit_core(clauses: Sequence[Sequence[int]]) -> list[int] | None:
    """The indices of the clauses unit propagation uses to refute `clauses` (the conflict and,
    back from it, the reason of every literal it needs), or None when propagation finds no conflict.

    >>> unit_core([[1, 2], [-1], [3, 4], [-2], [5]])
    [0, 1, 3]
    """
    conflict, reason = _propagate(clauses)
    if conflict is None:
        return None
    used, stack = {conflict}, [conflict]
    while stack:
        for literal in clauses[stack.pop()]:
            why = reason.get(abs(literal))
            if why is not None and why not in used:
                used.add(why)
                stack.append(why)
    return sorted(used)


def _propagate(clauses: Sequence[Sequence[int]]) -> tuple[int | None, dict[int, int]]:
    """Unit propagation from the unit clauses, breadth first (shorter chains of reasons): the
    clause found with every literal false (None if none), and the clause that set each variable."""
    containing: dict[int, list[int]] = {}
    for i, clause in enumerate(clauses):
        for literal in clause:
            containing.setdefault(literal, []).append(i)
    value: dict[int, bool] = {}
    reason: dict[int, int] = {}
    pending = deque((clause[0], i) for i, clause in enumerate(clauses) if len(clause) == 1)
    conflict = next((i for i, clause in enumerate(clauses) if not clause), None)
    while pending and conflict is None:
        literal, why = pending.popleft()
        if abs(literal) in value:
            conflict = None if value[abs(literal)] == (literal > 0) else why
            continue
        value[abs(literal)], reason[abs(literal)] = literal > 0, why
        for i in containing.get(-literal, ()):
            free = [x for x in clauses[i] if value.get(abs(x), x > 0) == (x > 0)]
            if not free:
                conflict = i
                break
            if len(free) == 1 and abs(free[0]) not in value:
                pending.append((free[0], i))
    return conflict, reason


def _dratify(cnf_file: Path, proof_file: Path) -> Verdict:
    import dratify  # lazy: the checker is needed only when certifying

    _register_native(dratify)
    start = time.perf_counter()
    result = dratify.check_proof(dratify.parse_dimacs(cnf_file.read_text()), proof_file.read_text())
    engine = "native" if dratify.native_available() else "python"
    return Verdict(f"dratify ({engine})", dratify.__version__, "valid" if result.ok else "invalid",
                   time.perf_counter() - start, str(result.reason))


def _register_native(dratify: ModuleType) -> None:
    """dratify's Rust engine (the `cdclkit-native` wheel), when installed: 10 x faster than its
    Python engine (2,571 lemmas of queen domination n = 7: 0.35 s instead of 3.7 s); the verdict
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
