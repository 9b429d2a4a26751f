"""drup, step by step: each step of a trimmed proof checked alone, against the clauses its hints name.

drup (the checker verified in Why3) reads a proof whole, ignores deletions and propagates naively
over every clause it holds, so its time grows with the lemmas times the clauses: queen domination
n = 7, 714 clauses and 3,508 lemmas, ran past its limit. But a DRUP lemma needs only the few
clauses of its own unit propagation, and the untrusted trimmer (`queens.solvers.native.proof_trim`)
knows them: its hints, as LRAT gives them (Cruz-Filipe, Heule, Hunt, Kaufmann & Schneider-Kamp
2017). The trimmed proof's steps are its lemmas, the top-level units they rest on, and the empty
clause. Here drup checks each step C alone: the formula it reads is the clauses the hints name
(lines of the core, or steps before C) and one unit clause per literal of C negated, and the
proof it checks is the empty clause. drup accepts that empty clause only by unit propagation (an
empty clause has no pivot for a RAT step), so "valid" says exactly that those clauses imply C
by unit propagation: the RUP check of C, against fewer clauses. A RAT step is never accepted
this way (RAT is not kept by a subset of the clauses); the trimmer refuses a proof whose lemmas
need it, and drup then reads that proof whole.

What this adds to the trusted base is this module's loop, short enough to read: the files are
parsed as DIMACS clause lines; every hint names a line of the core or a step before its own
(never itself or a later one); one hint line per step; the last step is the empty clause. Then
each step follows from the core, and so does the empty clause: the core has no solution. The
steps are independent checks (a step's hints are clauses written in the files, not verdicts),
so long proofs are shared among worker processes. The hints themselves are not trusted: a wrong
one can only make a check fail.

The hints file has one line per step of the trimmed proof, in order: the clauses its check
uses, a line of the core as its number k (from 1) and the step before it numbered j (from 1)
as -j, ended by 0.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as scratch:
...     core, lemmas, hints = (Path(scratch) / name for name in ("core.cnf", "proof.drup", "proof.hints"))
...     _ = core.write_text("p cnf 2 4\\n1 2 0\\n-1 2 0\\n1 -2 0\\n-1 -2 0\\n")
...     _ = lemmas.write_text("2 0\\n0\\n")
...     _ = hints.write_text("1 2 0\\n-1 3 4 0\\n")
...     check_steps(core, lemmas, hints, time.monotonic() + 5)
'valid: 2 steps, each by unit propagation from its hints (5 clauses in all)'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from queens.models import TimeLimit
from queens.solvers.runtime.forking import may_fork

STEPS_PER_WORKER = 2_000
"""Steps below which one more worker process does not pay: forking a pool costs as much as tens of steps
(experiments/results/design-choices.md), and each worker parses the files again (a
12 x 12 completion has a few dozen steps; queen domination n = 12, 65,833)."""


def check_steps(core_file: Path, proof_file: Path, hints_file: Path, deadline: float, workers: int = 1) -> str:
    """drup's verdict, step by step: "valid: ..." when every step of `proof_file` follows by
    unit propagation from the clauses its line of `hints_file` names and the last is the empty
    clause, else "invalid: " and the first step found that failed. Raises TimeLimit past
    `deadline`. The steps are independent checks, so up to `workers` forked processes share
    them (step i to worker i mod workers), each reading the files itself; all in this process
    where none may start (a daemonic process: `queens.solvers.runtime.forking`)."""
    files = (core_file, proof_file, hints_file)
    read = _read(*files)
    steps = len(read[2])
    shares = max(1, min(workers if may_fork() else 1, steps // STEPS_PER_WORKER))
    said: list[str | int | None]
    if shares == 1:
        said = [_check(*read, deadline, 0, 1)]
    else:
        from queens.solvers.runtime.process_pool import run_in_processes  # lazy: a pool only for long proofs

        said = run_in_processes(_check_share, [(*files, deadline, k, shares) for k in range(shares)], shares,
                                deadline=deadline, start="fork")
    if any(share is None for share in said):
        raise TimeLimit("drup: the steps were not all checked by the deadline")
    failures = [share for share in said if isinstance(share, str)]
    if failures:
        return f"invalid: {failures[0]}"
    used = sum(share for share in said if isinstance(share, int))
    return (f"valid: {steps:,} steps, each by unit propagation from its hints ({used:,} clauses in all"
            + (f", {shares} processes)" if shares > 1 else ")"))


Clauses = list[list[int]]


def _read(core_file: Path, proof_file: Path, hints_file: Path) -> tuple[Clauses, Clauses, Clauses]:
    """The core's clauses (its header skipped), the steps and the hints."""
    return (_clauses(core_file.read_text().splitlines()[1:]), _clauses(proof_file.read_text().splitlines()),
            _clauses(hints_file.read_text().splitlines()))


def _check_share(core_file: Path, proof_file: Path, hints_file: Path, deadline: float, share: int,
                 shares: int) -> str | int:
    """`_check` in a worker process, which reads the files itself."""
    return _check(*_read(core_file, proof_file, hints_file), deadline, share, shares)


def _check(core: Clauses, lemmas: Clauses, hints: Clauses, deadline: float, share: int, shares: int) -> str | int:
    """Check steps share, share + shares, ... (and the whole proof's shape): why the first one
    that fails does, or the number of hints the share's steps read."""
    from drup.wrappers import Outcome, check_proof  # lazy: only a certificate needs it

    if not lemmas or lemmas[-1]:
        return "the proof does not end with the empty clause"
    if len(hints) != len(lemmas):
        return f"{len(hints):,} hint lines for {len(lemmas):,} steps"
    used = 0
    for number in range(share + 1, len(lemmas) + 1, shares):
        if time.monotonic() > deadline:
            raise TimeLimit(f"drup: step {number:,} of {len(lemmas):,} not reached")
        lemma, named = lemmas[number - 1], hints[number - 1]
        wrong = [k for k in named if not (0 < k <= len(core) or 0 < -k < number)]
        if wrong:
            return f"step {number:,} names {wrong[0]}, neither a line of the core nor a step before it"
        clauses = [core[k - 1] if k > 0 else lemmas[-k - 1] for k in named]
        if check_proof([*clauses, *([-literal] for literal in lemma)], [[]]).outcome is not Outcome.VALID:
            return f"step {number:,} ({clause_line(lemma)}) does not follow from its hints by unit propagation"
        used += len(clauses)
    return used


def _clauses(lines: list[str]) -> Clauses:
    """DIMACS clause lines (each ended by 0; blank lines skipped) as lists of literals; a line
    that is not one is a ValueError."""
    clauses = []
    for line in lines:
        if not line.strip():
            continue
        *literals, end = (int(word) for word in line.split())
        if end != 0 or 0 in literals:
            raise ValueError(f"not a clause line: {line!r}")
        clauses.append(literals)
    return clauses


def clause_line(clause: Sequence[int]) -> str:
    """A clause as a DIMACS line.

    >>> clause_line([1, -2]), clause_line([])
    ('1 -2 0', '0')
    """
    return " ".join(map(str, (*clause, 0)))
