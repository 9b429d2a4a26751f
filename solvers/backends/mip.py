"""The `mip` backend: integer programming through the MIP solvers inside the OR-Tools wheel.

The model is written as an `MPModelProto` (one 0/1 variable per cell) by a list of named, pure
passes (`PASSES`) and loaded into OR-Tools' `pywraplp` solver:

- `cells`   one 0/1 variable per cell; a fixed cell's lower bound is 1;
- `lines`   at_least <= sum(line) <= at_most (an at-most-one line is already a clique
            inequality, the strongest form of "no two pieces here" a MIP solver gets);
- `covers`  sum(cover) >= 1;
- `size`    sum(cells) == size, when no exactly-one family already forces it;
- `clauses` sum(present) + sum(1 - absent) >= 1;
- `counts`  one 0/1 variable y_g per distinct group of two cells or more, y_g >= x for each x
            in g and y_g <= sum(g) (so y_g is "g holds a piece"; a one-cell group is its cell),
            then sum(y) <= at_most + M(1 - when), M = groups - at_most (the least that frees
            the bound when `when` is empty), and sum(y) >= at_least * when;
- `lex`     each lex chain (see `_lex`);
- `goal`    the objective: "fewest pieces" minimises sum(cells); an `Objective` adds one
            integer m in [least, top], every group's sum equals m, and m is maximised or
            minimised.

The solver's status is the proof: OPTIMAL (gap 0, so a proved optimum), INFEASIBLE (proved
"none"), FEASIBLE at the time limit (the best found, with the solver's bound on the optimum).
A MIP solver proves one optimum; it has no exact enumeration, so counting and listing are
refused (`limits`) before any work rather than done by re-solving with a no-good cut per
solution (92 solves for Q(8), 14,200 for Q(12)). Lex-leader chains (`lex`, asked with
`symmetry=True`: one optimum per symmetry class) are rows over continuous "equal so far"
variables; not the default (`Backend.lex_for_optima`): they slowed queen domination n = 9 several
times and left peaceable queens n = 6 where it was (experiments/results/design-choices.md).

Defaults, measured (`python -m queens.experiments.bench_mip`, experiments/results/mip.md and
defaults.md): HiGHS on one thread (`DEFAULT_SOLVER`, `DEFAULT_THREADS`). The formulation is the
model's own: every line is already a clique inequality (one constraint per row, column and
diagonal, not one per pair of cells), so nothing is strengthened by hand. SCIP's own symmetry
handling could not be measured: OR-Tools sets its parameters after SCIP has begun, and SCIP
refuses `misc/usesymmetry` then ("Cannot turn on symmetry handling during (pre)solving").
Weak spot, measured: peaceable queens, whose white-black conflicts the model states as pairs
(the LP relaxation of x + y <= 1 over pairs is weak); n = 6 takes seconds, n = 8 is out of
reach in a minute, where CP-SAT proves it (experiments/results/design-choices.md). The
literature's line formulation (a colour variable per line, w <= y and b <= 1 - y on it) was no
faster, written by hand (`bench_mip --formulations`, experiments/results/mip.md), so the
model's own pairs stay.

>>> from queens.models import NQueens, lower
>>> Mip().find(lower(NQueens(4)), None)
((0, 2), (1, 0), (2, 3), (3, 1))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import numpy as np
from ortools.linear_solver import pywraplp  # type: ignore[import-untyped]  # stubs, but no py.typed marker
from ortools.linear_solver.linear_solver_pb2 import (  # type: ignore[import-untyped]
    MPConstraintProto,
    MPModelProto,
    MPSolutionResponse,
    MPVariableProto,
)
from queens.models import BackendError, ConstraintModel, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend, Optimum, Task, seconds_left
from queens.solvers.formats.cell_order import line_literals, literals, plain_numbering, positions
from queens.solvers.runtime.interruptible import interruptible

SOLVERS = {"scip": "SCIP", "highs": "HIGHS"}
"""The MIP solvers the OR-Tools wheel ships, by our name and OR-Tools' (CBC is not built in)."""
DEFAULT_SOLVER = "highs"
"""HiGHS proves the hard instances (queen domination n = 9, 10; peaceable queens n = 6) about
twice as fast as SCIP, the two are equal on the easy ones, and SCIP is ahead only where both take
under a second (experiments/results/mip.md, defaults.md). But at a time limit HiGHS, through
OR-Tools' pywraplp, hands back nothing (status 99, no solution, a bound of 0), where SCIP
hands back its best and its bound: to attempt an instance out of reach, ask for `solver="scip"`."""
DEFAULT_THREADS = 1
"""A second HiGHS thread did not pay on the 2 shared cores, and HiGHS's own default measured as
one, within the noise (experiments/results/mip.md). SCIP, as OR-Tools builds it, searches on one
thread whatever is asked."""
PARAMETERS = {
    # SCIP installs its own SIGINT handler while it solves and reports Ctrl-C as an early stop
    # (which would read as a time limit): Ctrl-C stays Python's
    "scip": "misc/catchctrlc = FALSE",
    # HiGHS prints its banner and log on stdout, where our results go
    "highs": "output_flag = false",
}
"""Solver-specific parameters, in each solver's own syntax."""
NO_COUNTING = ("mip finds one solution and proves optima; a MIP solver has no exact enumeration, "
               "so it does not count or list solutions (a backend that enumerates does)")

Pass = Callable[[MPModelProto, ConstraintModel, np.ndarray], None]


class Mip(Backend):
    """Options: `solver` ("highs" or "scip"), `threads` (None: the solver's own default)."""

    name = "mip"
    settings = tuple((solver, {"solver": solver}) for solver in sorted(SOLVERS, key=lambda s: s != DEFAULT_SOLVER))
    """`queens explain` shows the model once per solver (the same proto: the solvers differ in search)."""

    def __init__(self, solver: str = DEFAULT_SOLVER, threads: int | None = DEFAULT_THREADS) -> None:
        super().__init__()
        if solver not in SOLVERS:
            raise Unsupported(f"mip solver must be one of {', '.join(SOLVERS)}, got {solver!r}")
        if threads is not None and threads < 1:
            raise Unsupported(f"mip threads must be at least 1, got {threads}")
        self.solver_name = solver
        self.threads = threads

    def limits(self, rows: int, cols: int, task: Task) -> str | None:
        if task in (Task.COUNT, Task.ENUMERATE):
            return NO_COUNTING
        return super().limits(rows, cols, task)

    # --- building: the passes ------------------------------------------------------------
    def _proto(self, model: ConstraintModel) -> MPModelProto:
        """`model` as an MPModelProto, pass by pass (`PASSES`); variable i is model.cells[i]."""
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        proto = MPModelProto()
        number = plain_numbering(model)
        for lowering in PASSES:
            lowering(proto, model, number)
        self.stats = {"solver": self.solver_name, "variables": len(proto.variable),
                      "constraints": len(proto.constraint)}
        return proto

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._proto(model)

    def _solve(self, proto: MPModelProto, deadline: float | None) -> tuple[pywraplp.Solver, int]:
        """Load and solve `proto` within the deadline; the solver and its status."""
        solver = pywraplp.Solver.CreateSolver(SOLVERS[self.solver_name])
        if solver is None:
            raise BackendError(f"mip: OR-Tools was built without {SOLVERS[self.solver_name]}")
        error = solver.LoadModelFromProto(proto)
        if error:
            raise Unsupported(f"mip: {self.solver_name} rejected the model ({error})")
        solver.SetSolverSpecificParametersAsString(PARAMETERS[self.solver_name])
        if self.threads is not None:
            solver.SetNumThreads(self.threads)
        if deadline is not None:
            left = seconds_left(deadline, "mip: time limit reached before solving")
            solver.SetTimeLimit(max(1, int(left * 1000)))
        parameters = pywraplp.MPSolverParameters()
        parameters.SetDoubleParam(parameters.RELATIVE_MIP_GAP, 0.0)  # OPTIMAL must mean proved
        start = time.perf_counter()
        status = interruptible(lambda: solver.Solve(parameters), halt=solver.InterruptSolve)
        self.stats.update(status=_STATUS.get(status, str(status)), nodes=solver.nodes(),
                          solver_wall_time=round(time.perf_counter() - start, 6))
        if status in (pywraplp.Solver.ABNORMAL, pywraplp.Solver.MODEL_INVALID):
            raise BackendError(f"mip: {self.solver_name} failed on this model ({_STATUS[status]})")
        return solver, status

    @staticmethod
    def _placement(model: ConstraintModel, solver: pywraplp.Solver) -> Placement:
        response = MPSolutionResponse()
        solver.FillSolutionResponseProto(response)
        held = np.flatnonzero(np.asarray(response.variable_value)[:len(model.cells)] > 0.5)
        cells = model.cells
        return tuple(sorted(cells[p] for p in held.tolist()))

    # --- the interface -------------------------------------------------------------------
    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """One solution: the model without its goal (a feasibility problem)."""
        if not model.cells:  # an empty row (a cover of holes) leaves HiGHS undecided: no search over nothing
            return () if model.keeps_nothing_placed else None
        solver, status = self._solve(self._proto(replace(model, minimise=False, objective=None)), deadline)
        if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return self._placement(model, solver)
        if status == pywraplp.Solver.INFEASIBLE:
            return None
        raise TimeLimit("mip: time limit reached without an answer")

    def minimise(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """The fewest pieces, proved by the solver (status OPTIMAL); a best found but not proved
        at the deadline is a TimeLimit, never claimed optimal."""
        if not model.cells:
            return self.find(model, deadline)
        solver, status = self._solve(self._proto(replace(model, minimise=True)), deadline)
        if status == pywraplp.Solver.OPTIMAL:
            return self._placement(model, solver)
        if status == pywraplp.Solver.INFEASIBLE:
            return None
        bound = _rounded(solver.Objective().BestBound(), up=True)
        self.stats["bound"] = bound if bound is not None else "-"
        raise TimeLimit(f"mip: no proof of the fewest pieces yet (bound {bound})")

    def optimise(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """The solver's own optimiser over m (every group's sum); OPTIMAL is the proof, and at the
        time limit the best m found comes with the solver's bound on the optimum."""
        objective = model.objective
        assert objective is not None
        if not model.cells:
            return Optimum((), 0, True) if model.keeps_nothing_placed else Optimum(None, None, True)
        solver, status = self._solve(self._proto(model), deadline)
        if status == pywraplp.Solver.INFEASIBLE:
            return Optimum(None, None, True)
        minimising = objective.sense == "minimise"
        trivial = objective.least if minimising else objective.top
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            # nothing found in time; HiGHS then reports status 99 and a bound of 0, which bounds
            # nothing, so only the objective's own range is claimed
            return Optimum(None, None, False, trivial)
        bound = _rounded(solver.Objective().BestBound(), up=minimising)
        bound = trivial if bound is None else bound
        value = round(solver.Objective().Value())
        proved = status == pywraplp.Solver.OPTIMAL
        return Optimum(self._placement(model, solver), value, proved, value if proved else bound)

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        raise Unsupported(NO_COUNTING)


# --- the passes ----------------------------------------------------------------------------
def _cells(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """One 0/1 variable per cell, in the model's order; a fixed cell's is fixed at 1."""
    template = MPVariableProto(lower_bound=0.0, upper_bound=1.0, is_integer=True)
    proto.variable.extend([template] * len(model.cells))
    fixed = sorted(model.fixed)
    for index in number[positions(model, fixed, len(fixed))].tolist():
        proto.variable[index].lower_bound = 1.0


def _lines(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """at_least <= sum <= at_most per line (none for a bound the line's length already keeps)."""
    lines = list(model.lines)
    for line, chosen in zip(lines, line_literals(model, lines, number), strict=True):
        if line.at_least > 0 or line.at_most < len(chosen):
            _linear(proto, chosen, line.at_least, line.at_most)


def _covers(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """At least one piece in each cover."""
    for chosen in literals(model, model.covers, number):
        _linear(proto, chosen, 1, float("inf"))


def _size(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """The number of pieces, when it is fixed and no exactly-one family implies it."""
    if model.size is not None and not model.size_implied:
        _linear(proto, number, model.size, model.size)


def _clauses(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """Some piece in `present` or some gap in `absent`: sum(present) - sum(absent) >= 1 - |absent|."""
    if not model.clauses:
        return
    presents = literals(model, [clause.present for clause in model.clauses], number)
    absents = literals(model, [clause.absent for clause in model.clauses], number)
    for present, absent in zip(presents, absents, strict=True):
        _weighted(proto, _terms((present.tolist(), 1.0), (absent.tolist(), -1.0)), 1 - len(absent), float("inf"))


def _counts(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """Each count over "group g holds a piece" (see the module docstring). A group of several
    cells gets one variable y_g, shared by every count that reads the same cells."""
    if not model.counts:
        return
    held: dict[tuple[int, ...], int] = {}

    def holds(group: list[int]) -> int:
        """The variable that is 1 exactly when `group` holds a piece."""
        if len(group) == 1:
            return group[0]
        key = tuple(sorted(group))
        if key not in held:
            y = held[key] = len(proto.variable)
            proto.variable.add(lower_bound=0.0, upper_bound=1.0, is_integer=True)
            for x in key:
                _weighted(proto, _terms(([y], 1.0), ([x], -1.0)), 0, float("inf"))  # y >= x
            _weighted(proto, _terms((key, 1.0), ([y], -1.0)), 0, float("inf"))  # y <= sum(group)
        return held[key]

    whens = number[positions(model, [count.when for count in model.counts], len(model.counts))].tolist()
    groups = iter(literals(model, [group for count in model.counts for group in count.groups], number))
    for count, when in zip(model.counts, whens, strict=True):
        ys = [holds(next(groups).tolist()) for _ in count.groups]
        slack = len(ys) - count.at_most  # M: how far the groups reached can exceed at_most
        if slack > 0:  # sum(y) + M when <= at_most + M
            _weighted(proto, _terms((ys, 1.0), ([when], slack)), float("-inf"), count.at_most + slack)
        if count.at_least > 0:  # sum(y) - at_least when >= 0
            _weighted(proto, _terms((ys, 1.0), ([when], -count.at_least)), 0, float("inf"))


def _goal(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """Fewest pieces: minimise their sum (the cells' variables, the first ones). An objective:
    m, every group's sum equal to m, m maximised or minimised (a variable after the others)."""
    if model.minimise:
        for variable in proto.variable[:len(model.cells)]:
            variable.objective_coefficient = 1.0
        return
    objective = model.objective
    if objective is None:
        return
    m = len(proto.variable)
    proto.variable.add(lower_bound=float(objective.least), upper_bound=float(objective.top), is_integer=True,
                       objective_coefficient=1.0)
    for chosen in literals(model, objective.groups, number):
        constraint = _linear(proto, chosen, 0, 0)
        constraint.var_index.append(m)
        constraint.coefficient.append(-1.0)
    proto.maximize = objective.sense == "maximise"


def _lex(proto: MPModelProto, model: ConstraintModel, number: np.ndarray) -> None:
    """Each lex chain x[a_1..] >=lex x[b_1..] over "equal so far" variables e (continuous in
    [0, 1]; e_1 is the constant 1): x[b_i] - x[a_i] + e_i <= 1 (while equal, a piece on b_i
    has one on a_i), and e_(i+1) >= 2 e_i - 1 - x[a_i] + x[b_i] (equal so far and here: still
    equal). An e may sit above what the prefix says only where that asks no more, so its least
    value is 0 or 1 and the chains keep exactly the leaders."""
    if model.lex is None:
        return
    index = dict(zip(model.cells, number.tolist(), strict=True))
    for chain in model.lex.chains:
        equal: int | None = None
        for i, (a, b) in enumerate(chain):
            x, y = index[a], index[b]
            e = ([equal], 1.0) if equal is not None else ([], 0.0)
            _weighted(proto, _terms(([y], 1.0), ([x], -1.0), e), float("-inf"), 1.0 - (equal is None))
            if i == len(chain) - 1:
                break
            follows = len(proto.variable)
            proto.variable.add(lower_bound=0.0, upper_bound=1.0)
            before = ([equal], -2.0) if equal is not None else ([], 0.0)
            _weighted(proto, _terms(([follows], 1.0), before, ([x], 1.0), ([y], -1.0)),
                      -1.0 + 2.0 * (equal is None), float("inf"))
            equal = follows


PASSES: tuple[Pass, ...] = (_cells, _lines, _covers, _size, _clauses, _counts, _lex, _goal)
"""The lowering, in order: each pass reads the model and appends to the proto."""


def _linear(proto: MPModelProto, chosen: np.ndarray, at_least: float, at_most: float) -> MPConstraintProto:
    """at_least <= sum of the variables `chosen` <= at_most."""
    constraint = proto.constraint.add(lower_bound=float(at_least), upper_bound=float(at_most))
    constraint.var_index.extend(chosen.tolist())
    constraint.coefficient.extend([1.0] * len(chosen))
    return constraint


def _weighted(proto: MPModelProto, terms: dict[int, float], at_least: float, at_most: float) -> None:
    """at_least <= the sum of coefficient * variable over `terms` (`_terms`) <= at_most: the
    general row, for the few constraints with other coefficients than 1 (`_linear` writes the
    many lines and covers straight from their arrays)."""
    constraint = proto.constraint.add(lower_bound=float(at_least), upper_bound=float(at_most))
    constraint.var_index.extend(terms)
    constraint.coefficient.extend(terms.values())


def _terms(*weighted: tuple[Sequence[int], float]) -> dict[int, float]:
    """The coefficient of each variable in a sum of (variables, weight) parts, a variable that
    comes twice (a count's piece in one of its groups) once, as a MIP row names it.

    >>> _terms(([3, 4], 1.0), ([4], -2.0))
    {3: 1.0, 4: -1.0}
    """
    total: dict[int, float] = {}
    for variables, weight in weighted:
        for x in variables:
            total[x] = total.get(x, 0.0) + weight
    return total


def _rounded(value: float, *, up: bool) -> int | None:
    """An integer objective's value or bound read from the solver's float (None when infinite):
    a bound is rounded towards the side it bounds, with a tolerance for the solver's."""
    if not np.isfinite(value):
        return None
    return int(np.ceil(value - 1e-6)) if up else int(np.floor(value + 1e-6))


_STATUS = {pywraplp.Solver.OPTIMAL: "optimal", pywraplp.Solver.FEASIBLE: "feasible",
           pywraplp.Solver.INFEASIBLE: "infeasible", pywraplp.Solver.UNBOUNDED: "unbounded",
           pywraplp.Solver.ABNORMAL: "abnormal", pywraplp.Solver.MODEL_INVALID: "model invalid",
           pywraplp.Solver.NOT_SOLVED: "not solved", 99: "unknown (HiGHS at its time limit)"}
