"""The `sat` backend: CNF through pysat's cardinality encodings, solved by CaDiCaL.

Each line becomes `CardEnc.atmost` / `CardEnc.equals` with bound 1 in the chosen encoding,
each cover a clause, each fixed cell a unit clause, and the size (when no exactly-one family
already implies it) a totalizer. Enumeration adds one blocking clause per solution over the
cell variables only, so auxiliary encoding variables never produce duplicates.

Encodings (pysat names; references as in pysat.card):
  pairwise    every pair of cells excluded: O(k^2) clauses, no auxiliaries;
  seqcounter  sequential counter (Sinz 2005): O(k) clauses and auxiliaries;
  ladder      ladder / regular encoding (Gent & Nightingale 2004): O(k);
  bitwise     binary / bitwise encoding (Frisch et al. 2005): O(k log k) clauses, log k aux;
  totalizer   totalizer (Bailleux & Boufkhad 2003); cardnetwrk, sortnetwrk: sorting networks
              (Asín et al. 2011; Eén & Sörensson 2006); mtotalizer, kmtotalizer: modulo and
              k-modulo totalizers (Ogawa et al. 2013; Morgado et al. 2014).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import CNF
from pysat.solvers import Solver

from models import ConstraintModel, LineKind, Placement, TimeLimit, Unsupported
from solvers.backend import Backend

ENCODINGS = {
    name: getattr(EncType, name)
    for name in ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk",
                 "cardnetwrk", "mtotalizer", "kmtotalizer")
}
CONFLICT_SLICE = 20_000
"""Conflicts per slice when a deadline is set: well under a second of CaDiCaL's time."""

DEFAULT_ENCODING = "seqcounter"
"""Chosen by measurement (experiments/bench_encodings.py, README): see the table there."""


class Sat(Backend):
    name = "sat"

    def __init__(self, encoding: str = DEFAULT_ENCODING, solver: str = "cadical195") -> None:
        super().__init__()
        if encoding not in ENCODINGS:
            raise Unsupported(f"sat encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
        self.encoding = encoding
        self.solver_name = solver

    def _cnf(self, model: ConstraintModel) -> tuple[CNF, dict[int, tuple[int, int]]]:
        var = {cell: i + 1 for i, cell in enumerate(model.cells)}
        cnf = CNF()
        top = len(var)
        encoding = ENCODINGS[self.encoding]
        for line in model.lines:
            literals = [var[c] for c in line.cells]
            build = CardEnc.equals if line.kind is LineKind.EXACTLY_ONE else CardEnc.atmost
            part = build(lits=literals, bound=1, top_id=top, encoding=encoding)
            cnf.extend(part.clauses)
            top = max(top, part.nv)
        for cover in model.covers:
            cnf.append([var[c] for c in cover])
        for c in model.fixed:
            cnf.append([var[c]])
        if model.size is not None and not model.size_implied:
            part = CardEnc.equals(lits=list(var.values()), bound=model.size, top_id=top,
                                  encoding=EncType.totalizer)
            cnf.extend(part.clauses)
            top = max(top, part.nv)
        self.stats = {"encoding": self.encoding, "variables": top, "clauses": len(cnf.clauses)}
        return cnf, {v: c for c, v in var.items()}

    def _solve(self, solver: Solver, deadline: float | None) -> bool:
        """One SAT call that honours the deadline.

        pysat's CaDiCaL cannot be interrupted, but it stops at a conflict budget and keeps
        what it learnt, so a limited call runs in slices with a look at the clock between.
        """
        if deadline is None:
            return solver.solve()
        while True:
            if time.monotonic() >= deadline:
                raise TimeLimit("sat: time limit reached")
            solver.conf_budget(CONFLICT_SLICE)
            answer = solver.solve_limited()
            if answer is not None:
                return answer

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        cnf, cell_of = self._cnf(model)
        with Solver(name=self.solver_name, bootstrap_with=cnf.clauses) as solver:
            blocks = 0
            try:
                while self._solve(solver, deadline):
                    chosen = [v for v in solver.get_model() if 0 < v and v in cell_of]
                    yield tuple(sorted(cell_of[v] for v in chosen))
                    if model.size is not None:  # all solutions have the same size: block the set
                        solver.add_clause([-v for v in chosen])
                    else:  # a superset could be a solution too: block the whole assignment
                        picked = set(chosen)
                        solver.add_clause([-v if v in picked else v for v in cell_of])
                    blocks += 1
            finally:
                self.stats.update(blocking_clauses=blocks, **self._solver_stats(solver))

    @staticmethod
    def _solver_stats(solver: Solver) -> dict[str, int]:
        stats = solver.accum_stats() or {}
        return {key: int(value) for key, value in stats.items() if key in ("conflicts", "decisions", "propagations")}

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return next(iter(self.solutions(model, deadline)), None)
