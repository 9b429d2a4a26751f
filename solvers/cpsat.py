"""The `cpsat` backend: OR-Tools CP-SAT, in two viewpoints.

- `boolean` (default): one Boolean per cell, AddExactlyOne/AddAtMostOne per line (a linear
  sum between its bounds for any other per-line bound), a clause per cover, a linear sum for
  the size or the objective.
- `alldifferent`: the classic integer viewpoint, q[r] = column of the piece in row r, with
  one AllDifferent per line family that has a linear key (columns q[r], diagonals q[r] - r,
  anti-diagonals q[r] + r; modulo n on a torus). Lines without a key (knight pairs, lines cut
  by pawns) and covers go through Booleans channelled to q. It needs one piece per row.

Tuning, measured (experiments/results/defaults.md): to find one solution presolve is off, since
there it only costs time (200-queens: 1.9 s with it, 0.5 s without), and it is on to enumerate,
where it does no harm; one solution is searched with the portfolio of branching heuristics
(`search="portfolio"`): 1000 queens in 22 s, where CP-SAT's automatic choice found none in
40 s. Enumeration branches on the cells in board order (FIXED_SEARCH), a plain depth-first
search that counted Q(12) in 5.4 s against 8.4 s with CP-SAT's default search.

Minimisation uses the generic iterative bound (Backend.minimise), not CP-SAT's objective:
measured on 8x8 queen domination, proving optimality by `minimize` took 24.6 s against
1.2 s for "no solution with 4 queens" plus 0.02 s for "one with 5".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from ortools.sat.python import cp_model
from queens.models import Cell, ConstraintModel, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend, Optimum, seconds_left
from queens.solvers.enumeration import callback_stream

VIEWPOINTS = ("boolean", "alldifferent")
SEARCHES = {"portfolio": cp_model.PORTFOLIO_SEARCH, "automatic": cp_model.AUTOMATIC_SEARCH}
Decode = Callable[[Callable[[cp_model.IntVar], bool]], Placement]
"""Turns a solver's value of each cell variable (`CpSolver.boolean_value`) into a placement."""


class CpSat(Backend):
    name = "cpsat"

    def __init__(self, viewpoint: str = "boolean", workers: int | None = None, presolve: bool | None = None,
                 search: str = "portfolio") -> None:
        """`presolve` None: off to find one solution, on to enumerate (see the module docstring)."""
        super().__init__()
        if viewpoint not in VIEWPOINTS:
            raise Unsupported(f"cpsat viewpoint must be one of {', '.join(VIEWPOINTS)}, got {viewpoint!r}")
        self.viewpoint = viewpoint
        self.workers = workers
        self.presolve = presolve
        if search not in SEARCHES:
            raise Unsupported(f"cpsat search must be one of {', '.join(SEARCHES)}, got {search!r}")
        self.search = search

    # --- building ------------------------------------------------------------------------
    def _build_for_size(self, model: ConstraintModel) -> None:
        self._build(model)

    def _build(self, model: ConstraintModel, *, in_order: bool = False) -> tuple[cp_model.CpModel, Decode]:
        """The CP-SAT model; `in_order` adds a decision strategy: cells in board order (in the lex
        chains' order when the model has them: middle rows first), piece first."""
        cp = cp_model.CpModel()
        if self.viewpoint == "boolean":
            dead = _cleared_by_fixed(model)
            cell = {c: cp.new_bool_var(f"x{c[0]}_{c[1]}") for c in model.cells if c not in dead}
            skip_keyed = False
        else:
            cell = self._integer_view(cp, model)
            dead = set()
            skip_keyed = True
        for family in model.families:
            if skip_keyed and family.key is not None:
                continue  # already an AllDifferent (or the rows themselves)
            for line in family.lines:
                if dead and line.at_most == 1 and model.fixed.intersection(line.cells):
                    continue  # its piece is the fixed one; the others are not even variables
                _post_line(cp, [cell[c] for c in line.cells if c not in dead], line.at_least, line.at_most)
        for cover in model.covers:
            cp.add_bool_or([cell[c] for c in cover if c not in dead])
        for c in model.fixed:
            cp.add(cell[c] == 1)
        if model.size is not None and not model.size_implied:
            cp.add(sum(cell.values()) == model.size)
        if model.lex:
            _post_lex(cp, model, cell)
        if in_order:
            order = model.lex.order if model.lex else model.cells
            cp.add_decision_strategy([cell[c] for c in order if c in cell], cp_model.CHOOSE_FIRST,
                                     cp_model.SELECT_MAX_VALUE)
        chosen = sorted(cell.items())
        self._variables = cell  # what `optimise` posts its objective over

        def decode(value: Callable[[cp_model.IntVar], bool]) -> Placement:
            return tuple(c for c, var in chosen if value(var))

        proto = cp.proto
        self.stats = {"viewpoint": self.viewpoint, "variables": len(proto.variables),
                      "constraints": len(proto.constraints)}
        return cp, decode

    def supports(self, model: ConstraintModel) -> str | None:
        if self.viewpoint == "alldifferent":
            if model.row_family is None:
                return "the cpsat alldifferent viewpoint needs exactly one piece in every row"
            if not model.one_per_line:
                return "the cpsat alldifferent viewpoint needs at most one piece per line"
        return None

    @staticmethod
    def _integer_view(cp: cp_model.CpModel, model: ConstraintModel) -> dict[Cell, cp_model.IntVar]:
        rows = model.row_family
        if rows is None or not model.one_per_line:
            raise Unsupported("the alldifferent viewpoint needs exactly one piece in every row, one per line")
        q: dict[int, cp_model.IntVar] = {}
        for line in rows.lines:
            r = line.cells[0][0]
            q[r] = cp.new_int_var_from_domain(cp_model.Domain.from_values([c for _, c in line.cells]), f"q{r}")
        for family in model.families:
            key = family.key
            if key is None or family is rows:
                continue
            terms = []
            for r, var in q.items():
                expr = key.b * var + key.a * r
                if key.modulus:
                    folded = cp.new_int_var(0, key.modulus - 1, f"{family.name}{r}")
                    shift = key.modulus * (abs(key.a) + abs(key.b)) * (model.rows + model.cols)
                    cp.add_modulo_equality(folded, expr + shift, key.modulus)
                    expr = folded
                terms.append(expr)
            cp.add_all_different(terms)
        cell: dict[Cell, cp_model.IntVar] = {}
        for (r, c) in model.cells:  # channel Booleans for covers, fixed cells and keyless lines
            literal = cp.new_bool_var(f"x{r}_{c}")
            cp.add(q[r] == c).only_enforce_if(literal)
            cp.add(q[r] != c).only_enforce_if(~literal)
            cell[(r, c)] = literal
        return cell

    def _solver(self, deadline: float | None, *, enumerating: bool = False) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        # CP-SAT's own SIGINT handler replaces Python's while it solves (and aborts the process
        # with std::bad_function_call when the solve runs off the main thread): Ctrl-C stays Python's
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:
            solver.parameters.max_time_in_seconds = seconds_left(deadline, "cpsat: time limit reached before solving")
        if self.workers:
            solver.parameters.num_workers = self.workers
        solver.parameters.cp_model_presolve = enumerating if self.presolve is None else self.presolve
        solver.parameters.search_branching = SEARCHES[self.search]
        return solver

    def _record(self, solver: cp_model.CpSolver) -> None:
        self.stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches,
                          solver_wall_time=round(solver.wall_time, 6))

    # --- the interface -------------------------------------------------------------------
    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        cp, decode = self._build(model)
        solver = self._solver(deadline)
        status = solver.solve(cp)
        self._record(solver)
        return self._outcome(solver, status, decode)

    @staticmethod
    def _outcome(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus, decode: Decode) -> Placement | None:
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return decode(solver.boolean_value)
        if status == cp_model.INFEASIBLE:
            return None
        if status == cp_model.MODEL_INVALID:
            raise Unsupported("cpsat rejected the model as invalid")
        raise TimeLimit("cpsat: time limit reached without an answer")

    def optimise(self, model: ConstraintModel, deadline: float | None) -> Optimum:
        """CP-SAT's own optimiser: every group's sum equals one integer m, and m is maximised or
        minimised; status OPTIMAL is the proof, and at the time limit the best m found comes with
        CP-SAT's bound on the optimum."""
        objective = model.objective
        assert objective is not None
        cp, decode = self._build(replace(model, objective=None))
        value = cp.new_int_var(objective.least, objective.top, "m")
        for group in objective.groups:
            cp.add(sum(self._variables[c] for c in group) == value)
        (cp.maximize if objective.sense == "maximise" else cp.minimize)(value)
        solver = self._solver(deadline, enumerating=True)
        status = solver.solve(cp)
        self._record(solver)
        if status == cp_model.INFEASIBLE:
            return Optimum(None, None, True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            bound = round(solver.best_objective_bound) if status == cp_model.UNKNOWN else None
            return Optimum(None, None, False, bound)
        best = decode(solver.boolean_value)
        return Optimum(best, round(solver.objective_value), status == cp_model.OPTIMAL,
                       round(solver.best_objective_bound))

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        cp, _ = self._build(model, in_order=True)
        decode = _reader(cp, model, self._variables)
        solver = self._solver(deadline, enumerating=True)
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1  # enumeration is single-threaded in CP-SAT
        outcome: list[cp_model.CpSolverStatus] = []

        def run(emit: Callable[[Placement], bool]) -> None:
            class Collector(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    if not emit(decode(self)):
                        self.stop_search()
            outcome.append(solver.solve(cp, Collector()))

        yield from callback_stream(run, halt=solver.stop_search)
        self._record(solver)
        if outcome and outcome[0] in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            raise TimeLimit("cpsat: time limit reached while enumerating")


def _post_line(cp: cp_model.CpModel, literals: list[cp_model.IntVar], at_least: int, at_most: int) -> None:
    """at_least <= sum(literals) <= at_most, with CP-SAT's own constraints for one piece."""
    if (at_least, at_most) == (1, 1):
        cp.add_exactly_one(literals)
    elif (at_least, at_most) == (0, 1):
        cp.add_at_most_one(literals)
    else:
        cp.add_linear_constraint(sum(literals), at_least, at_most)


def _reader(cp: cp_model.CpModel, model: ConstraintModel,
            cell: dict[Cell, cp_model.IntVar]) -> Callable[[cp_model.CpSolverSolutionCallback], Placement]:
    """How an enumeration reads each solution, fast: every 1-value read costs a call into CP-SAT
    (0.6 us by index, 2 us by `boolean_value`), so each line of an exactly-one family gets an
    integer "which of its cells" (fully defined by the cells: no duplicate solutions) and one
    read per line instead of one per cell (Q(14): 14 reads, not 196); other cells are read one
    by one, by index."""
    family = next((f for f in model.families if f.exactly_one), None)
    lines = [[c for c in line.cells if c in cell] for line in family.lines] if family else []
    lines = [line for line in lines if line]
    covered = {c for line in lines for c in line}
    which = []
    for i, line in enumerate(lines):
        where = cp.new_int_var(0, len(line) - 1, f"which{i}")
        cp.add(where == sum(k * cell[c] for k, c in enumerate(line)))
        which.append((where.index, line))
    rest = [(var.index, c) for c, var in cell.items() if c not in covered]

    def read(solution: cp_model.CpSolverSolutionCallback) -> Placement:
        value, held = solution.SolutionIntegerValue, solution.SolutionBooleanValue
        found = [line[value(index)] for index, line in which]
        found += [c for index, c in rest if held(index)]
        return tuple(sorted(found))
    return read


def _post_lex(cp: cp_model.CpModel, model: ConstraintModel, cell: dict[Cell, cp_model.IntVar]) -> None:
    """Each lex chain as clauses over "equal so far" literals: e_1 is true, e_i -> x[a_i] >= x[b_i],
    and e_(i+1) <-> e_i and x[a_i] == x[b_i]. Every e is a function of the cells, so enumerating
    all solutions lists each placement once. A cell cleared by a fixed piece is the constant 0."""
    empty = cp.new_bool_var("empty")
    cp.add(empty == 0)
    assert model.lex is not None
    for k, chain in enumerate(model.lex.chains):
        equal: cp_model.IntVar | None = None  # e_1: true
        for i, (a, b) in enumerate(chain):
            x, y = cell.get(a, empty), cell.get(b, empty)
            when: list[cp_model.LiteralT] = [] if equal is None else [~equal]
            cp.add_bool_or([*when, x, ~y])  # x >= y while equal so far
            if i == len(chain) - 1:
                break
            follows = cp.new_bool_var(f"lex{k}_{i}")
            cp.add_bool_or([*when, x, follows])   # equal so far, x = 0 (so y = 0): still equal
            cp.add_bool_or([*when, ~y, follows])  # equal so far, y = 1 (so x = 1): still equal
            cp.add_bool_or([~follows, ~x, y])     # still equal: x == y ...
            cp.add_bool_or([~follows, x, ~y])
            if equal is not None:
                cp.add_implication(follows, equal)  # ... and equal before
            equal = follows


def _cleared_by_fixed(model: ConstraintModel) -> set[Cell]:
    """The cells that share an at-most-one line with a fixed piece: empty in every solution,
    so they get no variable at all. A completion of 60 queens on 200 x 200 keeps about a
    quarter of the 40,000 cells, which CP-SAT builds and searches in a fraction of the time."""
    dead: set[Cell] = set()
    for line in model.lines:
        if line.at_most == 1 and model.fixed.intersection(line.cells):
            dead.update(line.cells)
    return dead - model.fixed
