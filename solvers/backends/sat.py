"""The `sat` backend: CNF through pysat's cardinality encodings, or native cardinality constraints.

The CNF is `queens.solvers.formats.cnf`'s (each line a pysat cardinality encoding, named by
`encoding`): the same formula the exports, certificates and "why not?" read. With the encoding
`native` each line is instead an at-most-k *constraint* inside Minicard (Liffiton & Maglalang
2012), which propagates it directly (`Sat._native`); that is not a CNF, so exports never use it.
Enumeration adds one blocking clause per solution over the cell variables only, so auxiliary
encoding variables never produce duplicates.

Defaults, chosen by measurement (experiments/results/defaults.md): one solution is searched
with `native` on Minicard (on large boards far faster than CaDiCaL on a CNF encoding),
while counting enumerates the `pairwise` CNF on CaDiCaL, which keeps what it learnt between
blocking clauses (Minicard and MiniSat slow down tenfold there) and, on boards small enough
to count, gains more from having no auxiliary variables than it loses to O(k^2) clauses.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np
from pysat.card import ITotalizer
from pysat.formula import CNF
from pysat.solvers import Solver, SolverNames
from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported
from queens.models.errors import BadOption
from queens.models.ir import Side
from queens.models.lowering import MAX_CELLS
from queens.solvers.backend import Backend, Optimum
from queens.solvers.backends.cube_and_conquer import SPLIT_AFTER, central_sides, conquer, cubes, placed
from queens.solvers.formats.cell_order import literals, seeded_numbering
from queens.solvers.formats.cnf import (
    DEFAULT_ENCODING,
    ENCODINGS,
    ONE_ONLY,
    biclique_clauses,
    cell_variables,
    chain_clauses,
    clauses_and_counts,
    encode,
    fixed_variables,
    line_variables,
    occupancy_clauses,
    one_only_refusal,
)
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.progress import Progress, report

NATIVE = "native"
"""Cardinality constraints kept as constraints (Minicard): the default to find one solution."""
COUNT_ENCODING = "pairwise"
"""The default CNF to enumerate (count) with: it counted faster than every other encoding
(experiments/results/defaults.md)."""
CONFLICT_SLICE = 5_000
"""Conflicts per call for solvers that cannot be interrupted (CaDiCaL): a Ctrl-C waits for the
slice to end, and 20 000 kept it waiting too long on queen domination n = 12, where 5 000 do not
(experiments/results/design-choices.md)."""
BATCH = 64
"""The most solutions an enumeration finds per hand-off to the SAT thread (`Sat._batch`)."""
SLICED = frozenset({"cadical103", "cadical153", "cadical195"})
"""pysat's CaDiCaL has no `interrupt()`; it stops at a conflict budget instead and keeps what it
learnt, so with a deadline it runs in CONFLICT_SLICE slices with a look at the clock between."""
SOLVER_NAMES = frozenset(name for key, names in vars(SolverNames).items() if not key.startswith("_") for name in names)
"""Every SAT solver pysat knows, by each of its names."""
SOLVERS = {NATIVE: "minicard", "cnf": "cadical195"}
"""The pysat solver for each kind of formula, when none is asked for."""
MINIMISE_ENCODING = DEFAULT_ENCODING
"""The CNF to minimise and optimise over (its lines; the piece count is a totalizer): queen domination
n = 1..10 proved about a hundred times faster than with Minicard's native cardinality
(experiments/results/design-choices.md)."""
OCCUPANCY_FROM_CELLS = 121
"""The smallest board on which `Sat.minimise` bounds the groups pieces occupy (`occupancy_clauses`):
queen domination's whole minimisations gain from the bounds from n = 11 and lose below it: the
refutations they shorten are cheap there, and the last, satisfiable call pays for them
(experiments/results/design-choices.md)."""


class Sat(Backend):
    name = "sat"
    reads_tallies = True
    lex_for_optima = True
    """The chains pay on optima: peaceable queens and queen domination were proved several times
    faster with them (experiments/results/design-choices.md)."""
    lex_over_sides = True
    settings = tuple((encoding, {"encoding": encoding}) for encoding in ENCODINGS)
    cell_limit = MAX_CELLS  # it finds one 2000-queens solution (experiments/results/defaults.md)
    states_connections = True  # reachability layers in the CNF (queens.solvers.formats.cnf_reachability)

    def __init__(self, encoding: str | None = None, solver: str | None = None, workers: int | None = None) -> None:
        """`encoding` None: `NATIVE` to find one solution, `COUNT_ENCODING` to enumerate.
        `workers`: the processes a hard question of armies that share lines is split over
        (`queens.solvers.backends.cube_and_conquer`); None: this process's cores, 1: never split."""
        super().__init__()
        if encoding is not None and encoding not in ENCODINGS and encoding != NATIVE:
            raise Unsupported(f"sat encoding must be one of {', '.join([*ENCODINGS, NATIVE])}, got {encoding!r}")
        if solver is not None and solver not in SOLVER_NAMES:
            raise BadOption(f"sat solver must be one of pysat's ({', '.join(sorted(SOLVER_NAMES))}), got {solver!r}")
        if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
            raise BadOption(f"sat workers must be a positive number, got {workers!r}")
        self.encoding = encoding
        self.solver_name = solver
        self.workers = workers
        self.sides: dict[Side, int] = {}
        """The variable of each side of the last CNF's bicliques (`_cnf`)."""

    def _cnf(self, model: ConstraintModel, name: str | None = None,
             number: np.ndarray | None = None) -> tuple[CNF, np.ndarray]:
        """The CNF in encoding `name` (default: this backend's CNF encoding), and each cell's
        variable: model.cells[p] is variable number[p], numbered from 1 (default: the cells in
        the model's order)."""
        name = name or (self.encoding if self.encoding in ENCODINGS else DEFAULT_ENCODING)
        refusal = one_only_refusal(model, name) if self.encoding in ONE_ONLY else None  # name is self.encoding
        if refusal:
            raise Unsupported(refusal)
        encoded = encode(model, name, number)
        self.sides, self.stats = encoded.sides, encoded.stats
        return encoded.formula, encoded.var

    def supports(self, model: ConstraintModel) -> str | None:
        if self.encoding not in ONE_ONLY:
            return None
        if model.objective is not None and not model.at_value(model.objective.top).one_per_line:  # what optimise asks
            return (f"sat encoding {self.encoding!r} encodes at most one piece per line only (pysat has no bound "
                    f"k > 1 for it), and the objective asks so many pieces of each group; choose e.g. "
                    f"{DEFAULT_ENCODING!r}")
        return one_only_refusal(model, self.encoding)

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._cnf(model)

    def _native(self, model: ConstraintModel, solver: Solver, solver_name: str,
                number: np.ndarray | None = None) -> np.ndarray:
        """Load `model` into a solver that keeps at-most-k constraints as they are (Minicard);
        model.cells[p] is variable number[p], numbered from 1 (default: the cells in the model's
        order). Returns the numbering."""
        if not solver.supports_atmost():
            raise Unsupported(f"sat solver {solver_name!r} has no native cardinality constraints; "
                              f"use {SOLVERS[NATIVE]} or a CNF encoding")
        if model.guards:
            raise Unsupported("a guarded model (why not?) is read through its CNF (`cnf`), not as native constraints")
        var = cell_variables(model, number)
        clauses = cardinality = 0
        for line, chosen in line_variables(model, var):
            if line.at_most < len(chosen):
                solver.add_atmost(chosen, line.at_most)
                cardinality += 1
            if line.at_least == 1:
                solver.add_clause(chosen)
                clauses += 1
            elif line.at_least > 1:  # at least k of them true: at most len - k of them false
                solver.add_atmost([-v for v in chosen], len(chosen) - line.at_least)
                cardinality += 1
        for cover in literals(model, model.covers, var):
            solver.add_clause(cover.tolist())
        for v in fixed_variables(model, var):
            solver.add_clause([v])
        exclusions, top, sides = biclique_clauses(model, var, len(var))
        lex, top = chain_clauses(model, var, top, sides)
        beyond, _ = clauses_and_counts(model, var, top, DEFAULT_ENCODING)  # Minicard has no conditional atmost
        for clause in exclusions + lex + beyond:
            solver.add_clause(clause)
        clauses += len(model.covers) + len(model.fixed) + len(exclusions) + len(lex) + len(beyond)
        if model.size is not None and not model.size_implied:
            solver.add_atmost(var.tolist(), model.size)
            solver.add_atmost((-var).tolist(), len(var) - model.size)  # at least size
            cardinality += 2
        self.stats = {"encoding": NATIVE, "variables": len(var), "clauses": clauses,
                      "cardinality constraints": cardinality}
        return var

    def _loaded(self, model: ConstraintModel, encoding: str,
                number: np.ndarray | None = None) -> tuple[Solver, np.ndarray]:
        """A solver holding `model` in `encoding`, cells numbered by `number`, and each cell's
        variable."""
        name = self.solver_name or SOLVERS[NATIVE if encoding == NATIVE else "cnf"]
        if encoding == NATIVE:
            solver = Solver(name=name)
            try:
                var = self._native(model, solver, name, number)
            except Unsupported:
                solver.delete()
                raise
        else:
            formula, var = self._cnf(model, encoding, number)
            solver = Solver(name=name, bootstrap_with=formula.clauses)
        self.stats["solver"] = name
        return solver, var

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        return self._enumerate(model, deadline, self.encoding or COUNT_ENCODING)

    def _enumerate(self, model: ConstraintModel, deadline: float | None, encoding: str,
                   *, greedy: bool = False) -> Iterator[Placement]:
        """Every solution by blocking clauses. `greedy` sets every cell's phase to "a piece here",
        so each decision places a piece and propagation clears its lines (one 1000-queens
        solution: 483 k decisions instead of 2.8 M with the solvers' default phase "empty"), and
        numbers the cells by `seeded_numbering`, which the solver's first decisions follow."""
        solver, var = self._loaded(model, encoding, seeded_numbering(model, 1) if greedy else None)
        if greedy:
            solver.set_phases(var.tolist())
        position = np.full(int(var.max(initial=0)) + 1, -1, dtype=np.int64)  # each variable's cell
        position[var] = np.arange(len(var))
        sliced = self.stats["solver"] in SLICED
        stop = None if sliced else _alarm(solver, deadline)

        def block() -> np.ndarray:
            """The solver's solution as the cells' positions, blocked before the next call."""
            values = np.asarray(solver.get_model()[:len(position) - 1], dtype=np.int64)  # cell variables first
            placed = position[values[values > 0]]
            placed = placed[placed >= 0]
            if model.size is not None:  # all solutions have the same size: block the set
                solver.add_clause((-var[placed]).tolist())
            else:  # a superset could be a solution too: block the whole assignment
                flipped = var.copy()
                flipped[placed] *= -1
                solver.add_clause(flipped.tolist())
            return placed

        with solver, _OffMain(solver, sliced) as run:
            blocks, size = 0, 1
            more: bool | None = True
            try:
                while more:
                    found, more = self._batch(solver, deadline, sliced, size, block, run=run)
                    for placed in found:
                        yield tuple(sorted(model.cells[p] for p in placed.tolist()))
                        blocks += 1
                    if more is None:
                        raise TimeLimit("sat: time limit reached", partial=blocks)
                    size = min(2 * size, BATCH)
            finally:
                if stop is not None:
                    stop.cancel()
                self.stats.update(blocking_clauses=blocks, **self._solver_stats(solver))

    @staticmethod
    def _batch(solver: Solver, deadline: float | None, sliced: bool, size: int, block: Callable[[], np.ndarray],
               *, run: _OffMain) -> tuple[list[np.ndarray], bool | None]:
        """Up to `size` solutions in one hand-off to `run`'s thread, each blocked (`block`) as it
        is found, and whether more may exist (None: the deadline or an interruption stopped the
        search). Batches grow from one (so `find` makes one call) to `BATCH`: a hand-off costs
        about as much as finding a small board's next solution (experiments/results/design-choices.md)."""
        def job() -> tuple[list[np.ndarray], bool | None]:
            found: list[np.ndarray] = []
            while len(found) < size:
                answer = _limited(solver, deadline, sliced, run)
                if answer is not True:
                    return found, answer
                found.append(block())
            return found, True
        return run(job)

    @staticmethod
    def _solve(solver: Solver, deadline: float | None, found: int, sliced: bool,
               assumptions: tuple[int, ...] = (), *, run: _OffMain) -> bool:
        """One SAT call (under `assumptions`), made through `run` so that Ctrl-C never lands
        inside the solver; at the deadline the alarm interrupts it (or, `sliced`, the clock is
        read between conflict budgets) and this raises TimeLimit carrying the `found`
        solutions so far (a lower bound)."""
        answer = run(lambda: _limited(solver, deadline, sliced, run, assumptions))
        if answer is None:
            raise TimeLimit("sat: time limit reached", partial=found)
        return answer

    @staticmethod
    def _solver_stats(solver: Solver) -> dict[str, int]:
        stats = solver.accum_stats() or {}
        return {key: int(value) for key, value in stats.items() if key in ("conflicts", "decisions", "propagations")}

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        if self.encoding in ENCODINGS and model.bicliques and self._workers > 1:
            return self._find_split(model, deadline, self.encoding)
        return next(iter(self._enumerate(model, deadline, self.encoding or NATIVE, greedy=True)), None)

    @property
    def _workers(self) -> int:
        return self.workers or default_threads()

    def _find_split(self, model: ConstraintModel, deadline: float | None, encoding: str) -> Placement | None:
        """`find` on a CNF of armies that share lines: `SPLIT_AFTER` conflicts on one solver
        (the cells' phases "a piece here", as `_enumerate` sets them), then, still open, the
        question split over the sides of the central lines into cubes, solved by `_workers`
        processes (`queens.solvers.backends.cube_and_conquer`). On 2 cores the whole optimisation
        of peaceable queens n = 9 and 10 is faster than on one solver
        (experiments/results/design-choices.md)."""
        formula, var = self._cnf(model, encoding, seeded_numbering(model, 1))
        name = self.solver_name or SOLVERS["cnf"]
        self.stats["solver"] = name
        phases = var.tolist()
        with Solver(name=name, bootstrap_with=formula.clauses) as solver, _OffMain(solver, True) as run:
            solver.set_phases(phases)
            answer = run(lambda: _limited(solver, deadline, True, run, conflicts=SPLIT_AFTER))
            self.stats.update(**self._solver_stats(solver))
            found = solver.get_model() if answer else None
        if answer is False:
            return None
        if found is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeLimit("sat: time limit reached")
            split = cubes(central_sides(model, self.sides))
            self.stats["split"] = placed(split, self._workers)
            found = conquer(formula.clauses, phases, split, self._workers, deadline, name)
            if found is None:
                return None
        return _placement(model, phases, found)

    def optimise(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """As every backend does (`Backend.optimise`: one question per value), each question on
        the CNF (`MINIMISE_ENCODING` on CaDiCaL) unless an encoding was named: the last question,
        "nothing better", is a hard "no", where CaDiCaL's learning beats Minicard's native
        cardinalities on peaceable queens, most kings, knights and the cube; only the queens'
        independence number, n by one per row, is Minicard's (experiments/results/design-choices.md)."""
        if self.encoding is not None:
            return super().optimise(model, deadline)
        cnf = Sat(MINIMISE_ENCODING, self.solver_name, self.workers)
        try:
            return cnf.optimise(model, deadline)
        finally:
            self.stats = cnf.stats

    def minimise(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """The fewest pieces, on one incremental solver: "at most k pieces?" for k = 0, 1, 2, ...
        as an assumption on a totalizer over the cells (Bailleux & Boufkhad 2003; pysat's
        ITotalizer, its bound raised as k grows), so what the solver learnt proving "not k"
        serves for k + 1. The model's lex chains, which `queens.solvers.api.solve` adds over its
        symmetry group, keep one solution of each class and lose no optimum (measured on queen
        domination n = 12: several times faster, experiments/results/design-choices.md)."""
        least = len(model.fixed)
        report(Progress(bound=least))  # before the loading, which a deadline can cut short too
        solver, var = self._loaded(model, self.encoding or MINIMISE_ENCODING)
        cells = var.tolist()
        occupying: list[list[int]] = []
        occupied: list[list[int]] = []
        top = solver.nof_vars()
        if len(model.cells) >= OCCUPANCY_FROM_CELLS:
            occupying, top, occupied = occupancy_clauses(model, var, top)
        for clause in occupying:
            solver.add_clause(clause)
        counters = []  # the pieces, then the occupied groups of each family: at most k of each
        for lits in (cells, *occupied):
            counters.append(ITotalizer(lits=lits, ubound=min(least, len(lits) - 1) + 1, top_id=top))
            top = counters[-1].top_id
            for clause in counters[-1].cnf.clauses:
                solver.add_clause(clause)
        sliced = self.stats["solver"] in SLICED
        stop = None if sliced else _alarm(solver, deadline)
        run = _OffMain(solver, sliced).__enter__()
        try:
            for k in range(least, len(cells) + 1):
                bound, top = _at_most(solver, counters, k, top)
                try:
                    found = self._solve(solver, deadline, 0, sliced, bound, run=run)
                except TimeLimit:
                    self.stats["bound"] = k  # proved: none with fewer, the lower bound the answer reports
                    raise TimeLimit(f"sat: no solution with at most {k - 1} pieces yet") from None
                if found:
                    self.stats["bound"] = k
                    return _placement(model, cells, solver.get_model())
                report(Progress(bound=k + 1))
            return None
        finally:
            run.__exit__(None, None, None)
            if stop is not None:
                stop.cancel()
            self.stats.update(**self._solver_stats(solver))
            for counter in counters:
                counter.delete()
            solver.delete()


def _placement(model: ConstraintModel, cells: list[int], assignment: list[int]) -> Placement:
    """The cells a solver's assignment places pieces on; `cells` are the cells' variables, in
    the model's order."""
    cell_of = dict(zip(cells, model.cells, strict=True))
    return tuple(sorted(cell_of[v] for v in assignment if v > 0 and v in cell_of))


def _at_most(solver: Solver, counters: list[ITotalizer], k: int, top: int) -> tuple[tuple[int, ...], int]:
    """The assumptions "at most k" on every counter that has more than k literals, each raised
    to k first when it stops below (rhs[k]: "at least k + 1"; its new clauses go to `solver`,
    its new variables above `top`, so that the counters never share one); and the new top."""
    bound = []
    for counter in counters:
        if k >= len(counter.lits):
            continue
        if k >= len(counter.rhs):
            added = len(counter.cnf.clauses)
            counter.increase(ubound=k, top_id=top)
            top = max(top, counter.top_id)
            for clause in counter.cnf.clauses[added:]:
                solver.add_clause(clause)
        bound.append(-counter.rhs[k])
    return tuple(bound), top


Answer = TypeVar("Answer")


class _OffMain:
    """SAT calls made on a helper thread while the main thread waits, so that a signal never
    lands inside a solver: pysat installs its own SIGINT handler for a call from the main
    thread, which longjmps out of CaDiCaL and leaves it "in invalid state" (the next call
    aborts the process, exit 134). Off the main thread pysat installs none; Ctrl-C and SIGTERM
    reach Python's handler in the waiting main thread, which stops the call the solver's own
    way (`interrupt()`, or for CaDiCaL, which has none, the end of its conflict slice, well
    under a second), waits for it to return, and only then lets the KeyboardInterrupt go on.
    From any other thread the call is made directly: no handler is installed there either.
    One thread per enumeration or minimisation, not per call (a thread start costs more than
    finding an 11-queens solution). A job that makes several calls (`Sat._batch`) reads
    `stopping` between them, so an interruption ends it after the call it is in.
    """

    def __init__(self, solver: Solver, sliced: bool) -> None:
        self._solver, self._sliced = solver, sliced
        self._jobs: queue.SimpleQueue[Callable[[], object] | None] = queue.SimpleQueue()
        self._done = threading.Event()  # an event, not a queue: an interruption cannot lose it
        self._outcome: tuple[object, BaseException | None] = (None, None)
        self._helper: threading.Thread | None = None
        self.stopping = False

    def __enter__(self) -> _OffMain:
        if threading.current_thread() is threading.main_thread():
            self._helper = threading.Thread(target=self._serve, name="sat", daemon=True)
            self._helper.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._helper is not None:
            self._jobs.put(None)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                self._outcome = (job(), None)
            except BaseException as error:  # handed back to the caller, raised there
                self._outcome = (None, error)
            self._done.set()

    def __call__(self, job: Callable[[], Answer]) -> Answer:
        if self._helper is None:
            return job()
        self._done.clear()
        self._jobs.put(job)
        try:
            while not self._done.wait(0.1):  # bounded waits: Python runs signal handlers between them
                interrupts.check()
        except BaseException:  # Ctrl-C or SIGTERM: stop the solver, and let it return first
            self.stopping = True
            while not self._done.is_set():
                if not self._sliced:  # asked again and again: a request just before the call began is lost
                    self._solver.interrupt()
                self._done.wait(0.05)
            raise
        answer, error = self._outcome
        if error is not None:
            raise error
        return answer  # type: ignore[return-value]  # the job's own answer, handed back through the thread


def _limited(solver: Solver, deadline: float | None, sliced: bool, run: _OffMain,
             assumptions: tuple[int, ...] = (), conflicts: int | None = None) -> bool | None:
    """One SAT call, on `run`'s thread: True, False, or None when the deadline or an
    interruption stopped it. A `sliced` solver (CaDiCaL, which has no `interrupt()`) runs in
    conflict budgets, the clock and `run.stopping` read between them, all in the one hand-off;
    `conflicts` (sliced only) stops it, None too, after that many."""
    slices = None if conflicts is None else conflicts // CONFLICT_SLICE
    while (deadline is None or time.monotonic() < deadline) and not run.stopping and slices != 0:
        if not sliced:
            answer: bool | None = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            return answer
        solver.conf_budget(CONFLICT_SLICE)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        slices = None if slices is None else slices - 1
    return None


def _alarm(solver: Solver, deadline: float | None) -> threading.Timer | None:
    """A timer that interrupts `solver` at `deadline` (pysat's `interrupt()`, which every
    solver the backend offers honours inside `solve_limited(expect_interrupt=True)`): one
    timer for a whole enumeration, not one per solution."""
    if deadline is None:
        return None
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), solver.interrupt)
    timer.daemon = True
    timer.start()
    return timer


