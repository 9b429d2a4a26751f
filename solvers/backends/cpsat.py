"""The `cpsat` backend: OR-Tools CP-SAT, in two viewpoints.

- `boolean` (default): one Boolean per cell, AddExactlyOne/AddAtMostOne per line (a linear
  sum between its bounds for any other per-line bound), a clause per cover, a linear sum for
  the size or the objective.
- `alldifferent`: the textbook model (`queens.models.row_viewpoint`): q[r] = the column of the
  piece in row r over the row's open columns (a given piece's one column), and one AllDifferent
  per keyed family of lines (columns q[r], diagonals q[r] - r, anti-diagonals q[r] + r): for
  n-queens n variables and 3 constraints, what OR-Tools' own example posts. On a torus the keys
  differ modulo n: AllDifferent over the keys and the keys + n (`_post_alldifferent`). Booleans
  channelled to q only for what the keys cannot say (lines without a key: knight pairs, lines
  cut by pawns; covers, clauses, counts, lex chains, an objective). It needs one piece per row.
  Before issue 36 it channelled every cell: Q(10) counted far slower than OR-Tools' example,
  now faster than it (experiments/results/viewpoints-before-after.md).

Each viewpoint is written down as it is posted (`_Built`, `queens.solvers.viewpoint.Recorder`):
`describe` returns it, and `queens explain --viewpoint` prints it.

In both, the model's clauses are BoolOr and its attack counts a linear sum enforced by the
counting cell (`_post_clauses`, `_post_counts`), over the same cell Booleans.

Tuning, measured (experiments/results/defaults.md): to find one solution presolve is off, since
there it only costs time, and it is on to enumerate, where it does no harm. One solution is
searched `greedy` when the model has exactly-one lines and no covers: cells numbered by
`seeded_numbering` (each row's cells in a seeded random order), CP-SAT's SAT search told to
decide them in that order with a piece first (GREEDY), on one worker. On 1000 queens it meets
no conflict and takes a fraction of the portfolio's time, where CP-SAT's automatic choice found
none; a second worker only loads the 10^6 Booleans again (defaults.md, design-choices.md).
Otherwise (domination, whose "none with k" proofs need probing) the portfolio of branching
heuristics (`search="portfolio"`). Enumeration branches on the cells in board order
(FIXED_SEARCH), a plain depth-first search that counts faster than CP-SAT's default search
(defaults.md); with lex chains (counting one solution per symmetry class) in the chains' order,
middle rows first, faster than in board order (experiments/results/symmetry.md). The integer
viewpoint branches likewise on q, the rows in that order, the smallest column first: the
textbook model in plain CP-SAT counts in less CPU time than with CP-SAT's own search, presolve
on or off alike (experiments/results/viewpoints.md).

Minimisation uses the generic iterative bound (Backend.minimise), not CP-SAT's objective:
measured on 8x8 queen domination, proving optimality by `minimize` took far longer than the
two questions "no solution with 4 queens?" and "one with 5?" together
(experiments/results/design-choices.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping

import numpy as np
from ortools.sat.python import cp_model, cp_model_helper
from ortools.sat.python.cp_model_helper import SatParameters
from queens.models import Cell, ConstraintModel, Placement, TimeLimit, Unsupported
from queens.models.ir import LexLeader, Line, LineFamily
from queens.models.lowering import MAX_CELLS
from queens.models.row_viewpoint import AllDifferent, RowViewpoint, row_refusal, row_viewpoint
from queens.models.tally import Tally
from queens.solvers.backend import Backend, Optimum, seconds_left
from queens.solvers.backends.enumeration import callback_stream
from queens.solvers.formats.cell_order import line_literals, literals, plain_numbering, positions, seeded_numbering
from queens.solvers.formats.reachability import post_connections
from queens.solvers.formats.tally_literals import term_literals
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.interruptible import interruptible
from queens.solvers.viewpoint import Recorder, Viewpoint, by_bounds, domains_text, line_cells

VIEWPOINTS = ("boolean", "alldifferent")
SEARCHES = {"greedy": cp_model.AUTOMATIC_SEARCH, "portfolio": cp_model.PORTFOLIO_SEARCH,
            "automatic": cp_model.AUTOMATIC_SEARCH}
GREEDY = {"initial_polarity": SatParameters.POLARITY_TRUE, "preferred_variable_order": SatParameters.IN_ORDER,
          "cp_model_probing_level": 0, "use_sat_inprocessing": False, "linearization_level": 0,
          "symmetry_level": 0}
"""CP-SAT's parameters for the `greedy` search (see the module docstring): its SAT search decides
the cells in the order of their numbers (`seeded_numbering`), a piece first, and skips the probing,
inprocessing, linear relaxation and symmetry detection that cost seconds on 10^6 Booleans."""
OPTIMA_SUBSOLVERS = ("max_lp", "core", "default_lp", "quick_restart", "no_lp", "reduced_costs", "pseudo_costs")
"""The workers an optimisation runs on fewer than `FULL_PORTFOLIO` cores, in this order: CP-SAT's
own choice for 2 workers (its default search with a light relaxation, and one without) found
knights' independence numbers (2 x 2 x n^2 / 4 bipartite pairs, whose full relaxation is exact)
but never proved them within its limit; with the full relaxation (`max_lp`) and the core-based
bound (`core`) they are proved at once; peaceable queens pay a little for the relaxation; queen
domination is searched k by k, unaffected (experiments/results/subsolvers.md, `bench_subsolvers`,
and design-choices.md). CP-SAT's own pair is (default_lp, no_lp): fast on peaceable, never a
knights' proof."""
GREEDY_CONFLICTS = 30_000
"""The conflicts the `greedy` search may meet before the portfolio takes over, with presolve on:
greedy finds loose puzzles with few (1000 queens: none; a 31 x 31 torus: 14,542) and jams on
tight ones, where presolve and the portfolio's probing pay: on colourings of queen10_10 greedy
alone found none, or refuted slowly, where the portfolio with presolve answered quickly
(session probes, 2026-11-25, experiments/results/defaults.md)."""
FULL_PORTFOLIO = 8
"""From this many workers CP-SAT's own portfolio holds both `max_lp` and `core`: it is kept (as it
is with `search="portfolio"`, which asks for CP-SAT's own choice)."""
Values = Callable[[np.ndarray], np.ndarray]
"""The solver's values of the variables at some indices of the proto."""
Decode = Callable[[Values], Placement]
"""Turns the solver's values (`Values`) into a placement."""


class CpSat(Backend):
    name = "cpsat"
    reads_tallies = True
    settings = (("boolean", {"viewpoint": "boolean"}), ("alldifferent", {"viewpoint": "alldifferent"}))
    lex_from_cells = 81
    """CP-SAT pays more for the chains than sat and csp (experiments/results/defaults.md)."""
    cell_limit = MAX_CELLS  # it finds one 2000-queens solution (experiments/results/defaults.md)
    states_connections = True  # reachability layers (queens.solvers.formats.reachability)

    def __init__(self, viewpoint: str = "boolean", workers: int | None = None, presolve: bool | None = None,
                 search: str = "greedy") -> None:
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
        self._number = np.zeros(0, dtype=np.int64)  # each cell's Boolean in the model last built (-1: none)
        self._rows: tuple[tuple[int, int], ...] | None = None  # its row variables (the integer viewpoint)
        self.described = Viewpoint(self.name, viewpoint)  # and that model as a reader would write it

    def worth(self, model: ConstraintModel) -> bool:
        """Not for an optimum of armies that share lines (an objective over a model with
        `bicliques`: peaceable queens): sat orders the lines themselves (`queens.models.ir.Side`)
        and proves n = 9 and n = 10, where CP-SAT's bound stays far off (experiments/results/frontier.md);
        nor for the fewest pieces that cover a board (queen domination n = 11 and 12: native and
        sat answer first, experiments/results/design-choices.md); nor for an optimum of connected
        armies or of pieces with private squares (sat proves A370428 and A075692 for n = 6 many
        times sooner, experiments/results/private-and-connected.md). Asked by name, it answers."""
        sharing = model.objective is not None and bool(model.bicliques)
        grouped = model.objective is not None and (bool(model.connections)
                                                   or any(count.kind == "private squares" for count in model.counts))
        return not sharing and not grouped and not (model.minimise and model.covers)

    # --- building ------------------------------------------------------------------------
    def _build_for_size(self, model: ConstraintModel) -> None:
        self._build(model)

    def proto(self, model: ConstraintModel) -> cp_model_helper.CpModelProto:
        """The model this backend builds of `model` (as `explain` sizes it): what `queens export
        --format cpsat` prints."""
        return self._build(model)[0].proto

    def _greedy(self, model: ConstraintModel) -> bool:
        """Whether to find one solution by the `greedy` search: asked for, and the model has
        exactly-one lines to take in turn and no covers (a domination's proofs of "none with k"
        need CP-SAT's probing and relaxation)."""
        return self.search == "greedy" and bool(model.branch_lines) and not model.covers

    @property
    def _fallback(self) -> str:
        """The search where `greedy` does not apply: the portfolio."""
        return "portfolio" if self.search == "greedy" else self.search

    def _build(self, model: ConstraintModel, *, in_order: bool = False,
               greedy: bool = False) -> tuple[cp_model.CpModel, Decode]:
        """The CP-SAT model in this backend's viewpoint, written down as it is built
        (`self.described`, what `describe` returns); `in_order` adds a decision strategy (the
        rows or the cells in board order, in the lex chains' order when the model has them:
        middle rows first); `greedy` numbers the cells by `seeded_numbering`."""
        built = _Built()
        if self.viewpoint == "alldifferent":
            decode = _post_rows(built, model, in_order)
        else:
            decode = _post_cells(built, model, in_order, greedy)
        self._number, self._rows = built.number, built.rows
        self.described = built.record.viewpoint(self.name, self.viewpoint)
        proto = built.cp.proto
        self.stats = {"viewpoint": self.viewpoint, "variables": len(proto.variables),
                      "constraints": len(proto.constraints)}
        return built.cp, decode

    def describe(self, model: ConstraintModel) -> Viewpoint:
        """The model this backend builds of `model` in its viewpoint, as a reader would write it:
        recorded by the code that posts it (`_Built`), so the counts are the proto's."""
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        self._build(model)
        return self.described

    def supports(self, model: ConstraintModel) -> str | None:
        if self.viewpoint == "alldifferent":
            refusal = row_refusal(model)
            return f"the cpsat alldifferent viewpoint {refusal}" if refusal else None
        return None

    def _solver(self, deadline: float | None, *, enumerating: bool = False, greedy: bool = False) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        # CP-SAT's own SIGINT handler replaces Python's while it solves (and aborts the process
        # with std::bad_function_call when the solve runs off the main thread): Ctrl-C stays Python's
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:
            solver.parameters.max_time_in_seconds = seconds_left(deadline, "cpsat: time limit reached before solving")
        if self.workers:
            solver.parameters.num_workers = self.workers
        solver.parameters.cp_model_presolve = enumerating if self.presolve is None else self.presolve
        if greedy:
            for key, value in GREEDY.items():
                setattr(solver.parameters, key, value)
            solver.parameters.search_branching = SEARCHES["greedy"]
            solver.parameters.num_workers = self.workers or 1  # a second worker loads the model again
        else:
            solver.parameters.search_branching = SEARCHES[self._fallback]
        return solver

    def _record(self, solver: cp_model.CpSolver) -> None:
        self.stats.update(conflicts=solver.num_conflicts, branches=solver.num_branches,
                          solver_wall_time=round(solver.wall_time, 6))

    # --- the interface -------------------------------------------------------------------
    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        greedy = self._greedy(model)
        cp, decode = self._build(model, greedy=greedy)
        solver = self._solver(deadline, greedy=greedy)
        if greedy:
            solver.parameters.max_number_of_conflicts = GREEDY_CONFLICTS
        status = interruptible(lambda: solver.solve(cp), halt=solver.stop_search)
        self._record(solver)
        self.stats["search"] = "greedy" if greedy else self._fallback
        if greedy and status == cp_model.UNKNOWN and solver.num_conflicts >= GREEDY_CONFLICTS:
            solver = self._solver(deadline)
            solver.parameters.cp_model_presolve = True if self.presolve is None else self.presolve
            status = interruptible(lambda: solver.solve(cp), halt=solver.stop_search)
            self._record(solver)
            self.stats["search"] = f"greedy, then {self._fallback} with presolve after {GREEDY_CONFLICTS:,} conflicts"
        return self._outcome(solver, status, decode)

    @staticmethod
    def _outcome(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus, decode: Decode) -> Placement | None:
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            values = np.asarray(solver.response_proto.solution)
            return decode(values.__getitem__)
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
        cp, decode = self._build(model)  # the model with its objective: the integer viewpoint channels the cells
        value = cp.new_int_var(objective.least, objective.top, "m")
        if objective.tally is not None:
            cp.add(_tally_sum(cp, model, objective.tally, self._number) == value)
        for chosen in literals(model, objective.groups, self._number):
            cp.add(sum(cp.get_bool_var_from_proto_index(i) for i in chosen[chosen >= 0].tolist()) == value)
        (cp.maximize if objective.sense == "maximise" else cp.minimize)(value)
        solver = self._solver(deadline, enumerating=True)
        workers = self.workers or default_threads()
        if self.search == "greedy" and 2 <= workers < FULL_PORTFOLIO:  # the suite's tuned default
            solver.parameters.num_workers = workers
            solver.parameters.subsolvers.extend(OPTIMA_SUBSOLVERS[:workers])
        self.stats["subsolvers"] = ", ".join(solver.parameters.subsolvers) or "CP-SAT's portfolio"
        status = interruptible(lambda: solver.solve(cp), halt=solver.stop_search)
        self._record(solver)
        if status == cp_model.INFEASIBLE:
            return Optimum(None, None, True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            bound = round(solver.best_objective_bound) if status == cp_model.UNKNOWN else None
            return Optimum(None, None, False, bound)
        best = decode(np.asarray(solver.response_proto.solution).__getitem__)
        return Optimum(best, round(solver.objective_value), status == cp_model.OPTIMAL,
                       round(solver.best_objective_bound))

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        cp, _ = self._build(model, in_order=True)
        decode = _reader(cp, model, _by_cell(model, self._number)) if self._rows is None else _row_reader(self._rows)
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


class _Built:
    """A CP-SAT model as it is built, and the viewpoint it is written down as (`record`: each
    group as posted, counted on the proto). `number` is each cell's Boolean (-1: none; the
    integer viewpoint makes them only when the model needs them) and `rows` each row and its
    variable's index (the integer viewpoint), in board order."""

    def __init__(self) -> None:
        self.cp = cp_model.CpModel()
        proto = self.cp.proto
        self.record = Recorder(lambda: (len(proto.variables), len(proto.constraints)))
        self.number = np.zeros(0, dtype=np.int64)
        self.rows: tuple[tuple[int, int], ...] | None = None


def _post_cells(built: _Built, model: ConstraintModel, in_order: bool, greedy: bool) -> Decode:
    """The Boolean viewpoint: one Boolean per cell (none for a cell a given piece clears), each
    line as ExactlyOne, AtMostOne or a sum between its bounds (a line through a given piece is
    left out: the others on it are not even variables), and what the model asks beyond its
    lines (`_post_beyond`). Constraints go into the proto as lists of variable indices and the
    Booleans are made in bulk (`_add_booleans`): a Python object per variable costs
    microseconds, seconds for the 10^6 cells of 1000 x 1000."""
    cp = built.cp
    number = seeded_numbering(model) if greedy else plain_numbering(model)
    dead = _cleared_by_fixed(model)
    if dead:  # number the live cells only, in the same order
        number[positions(model, dead, len(dead))] = -1
        live = np.flatnonzero(number >= 0)
        number[live[np.argsort(number[live])]] = np.arange(len(live))
    built.number = number
    count = int(np.count_nonzero(number >= 0))
    _add_booleans(cp.proto, count)
    cleared = f"; none for the {len(dead):,} cells the given pieces attack" if dead else ""
    built.record.declare("x[r,c] ∈ {0, 1}", "for each open cell", count, f"1: a piece on (r, c){cleared}")
    for family in model.families:
        _post_family(built, model, family, [line for line in family.lines if not (
            dead and line.at_most == 1 and model.fixed.intersection(line.cells))])
    if model.fixed:
        with built.record.posting("x[r,c] = 1", "for each given piece", "givens"):
            for index in number[positions(model, model.fixed, len(model.fixed))].tolist():
                cp.proto.constraints.add().bool_or.literals.append(index)
    _post_beyond(built, model, model.size is not None and not model.size_implied)
    if in_order:
        _decide_in_order(cp, model, _by_cell(model, number))
    cells = model.cells
    holding = np.flatnonzero(number >= 0)

    def decode(value: Values) -> Placement:
        chosen = holding[np.asarray(value(number[holding]), dtype=bool)]
        return tuple(sorted(cells[p] for p in chosen.tolist()))
    return decode


def _post_rows(built: _Built, model: ConstraintModel, in_order: bool) -> Decode:
    """The integer viewpoint, the textbook model (`queens.models.row_viewpoint`): q[r] = the
    column of row r's piece, its domain the row's open columns (a given piece's one column), and
    one AllDifferent per keyed family. Cell Booleans, channelled to q, only when the model asks
    what the keys cannot say (`RowViewpoint.over_cells`)."""
    view = row_viewpoint(model)
    cp = built.cp
    q = [cp.new_int_var_from_domain(cp_model.Domain.from_values(list(domain)), f"q{r}")
         for r, domain in zip(view.rows, view.domains, strict=True)]
    for i, (text, count) in enumerate(domains_text(view.rows, view.domains)):
        built.record.declare(text, "", count, "" if i else "the column of each row's piece")
    for alldifferent in view.alldifferent:
        _post_alldifferent(built, view, alldifferent, q)
    if view.over_cells:
        _channel(built, model, view, q)
        for family in (*view.unkeyed, *view.bounded):
            _post_family(built, model, family, list(family.lines))
        _post_beyond(built, model, model.size is not None and model.size != len(view.rows))
    if in_order:
        _decide_rows_in_order(cp, model, dict(zip(view.rows, q, strict=True)))
    built.rows = tuple(sorted(zip(view.rows, (var.index for var in q), strict=True)))
    rows = [r for r, _ in built.rows]
    indices = np.array([index for _, index in built.rows], dtype=np.int64)

    def decode(value: Values) -> Placement:
        return tuple(zip(rows, np.asarray(value(indices)).tolist(), strict=True))
    return decode


def _post_alldifferent(built: _Built, view: RowViewpoint, alldifferent: AllDifferent,
                       q: list[cp_model.IntVar]) -> None:
    """AllDifferent of the family's key over the rows, as linear expressions in q. On a torus the
    key is taken modulo m, which CP-SAT's AllDifferent cannot say: when the keys span less than
    k*m, two of them are equal modulo m exactly when they are equal after adding multiples of m
    below k, so AllDifferent over each key plus 0, m, ..., (k - 1)*m says it with no variable
    more (n-queens on a torus: q[r] + r and q[r] + r + n). Against CP-SAT's AddModuloEquality
    (a variable and a constraint per row) and a linear quotient, in plain CP-SAT, toroidal
    n-queens counted in a fraction of the CPU time of either (experiments/results/viewpoints.md,
    design-choices.md)."""
    terms = [alldifferent.scale * var + alldifferent.shift * r for r, var in zip(view.rows, q, strict=True)]
    modulus = alldifferent.modulus
    copies = 1 if modulus is None else _span(view, alldifferent) // modulus + 1
    if copies == 1:
        formula, note = f"AllDifferent({alldifferent.expression})", alldifferent.name
    else:
        assert modulus is not None
        shifts = ", ".join(str(k * modulus) for k in range(copies))
        formula = f"AllDifferent({alldifferent.expression} + s : s ∈ {{{shifts}}})"
        note = f"{alldifferent.name}: AllDifferent({alldifferent.text}), {copies * len(terms)} terms"
    with built.record.posting(formula, "over the rows", note):
        built.cp.add_all_different([term + k * (modulus or 0) for term in terms for k in range(copies)])


def _span(view: RowViewpoint, alldifferent: AllDifferent) -> int:
    """How far apart the key's values (before the modulus) can be over the rows' domains."""
    ends = [alldifferent.scale * c + alldifferent.shift * r for r, domain in zip(view.rows, view.domains, strict=True)
            if domain for c in (domain[0], domain[-1])]
    return max(ends) - min(ends) if ends else 0


def _channel(built: _Built, model: ConstraintModel, view: RowViewpoint, q: list[cp_model.IntVar]) -> None:
    """A Boolean per cell, true exactly when its row's variable takes its column: what the
    model's constraints over cells read (`RowViewpoint.over_cells`)."""
    cp = built.cp
    by_row = dict(zip(view.rows, q, strict=True))
    cells = model.cells
    built.number = np.arange(len(cells), dtype=np.int64) + len(cp.proto.variables)
    why = "; ".join(view.over_cells)
    built.record.declare("x[r,c] ∈ {0, 1}", "for each open cell", len(cells), f"for {why}")
    held = [cp.new_bool_var(f"x{r}_{c}") for r, c in cells]
    with built.record.posting("x[r,c] ⇔ q[r] = c", "for each cell, both ways", "the channel"):
        for (r, c), cell in zip(cells, held, strict=True):
            cp.add(by_row[r] == c).only_enforce_if(cell)
            cp.add(by_row[r] != c).only_enforce_if(~cell)


def _post_family(built: _Built, model: ConstraintModel, family: LineFamily, lines: list[Line]) -> None:
    """`lines` of `family` over the cells' Booleans, one group per pair of bounds (a cell without
    a variable, cleared by a given piece, is left out)."""
    cells, scope = line_cells(family)
    for (least, most), same in by_bounds(lines).items():
        with built.record.posting(_bounded(cells, least, most), scope, family.name):
            for chosen in line_literals(model, same, built.number):
                _post_line(built.cp, chosen[chosen >= 0].tolist(), least, most)


def _bounded(cells: str, least: int, most: int) -> str:
    """CP-SAT's constraint for at least `least` and at most `most` of `cells`."""
    if (least, most) == (1, 1):
        return f"ExactlyOne({cells})"
    if (least, most) == (0, 1):
        return f"AtMostOne({cells})"
    return f"Σ({cells}) = {most}" if least == most else f"{least} ≤ Σ({cells}) ≤ {most}"


def _post_beyond(built: _Built, model: ConstraintModel, size: bool) -> None:
    """What the model asks beyond its lines, over the cells' Booleans: covers, clauses, attack
    counts, the size (when `size`: no exactly-one family implies it) and the lex chains."""
    cp, number = built.cp, built.number
    if model.covers:
        with built.record.posting("BoolOr(x[p] : p = s or p attacks s)", "for each square s", "covers"):
            for chosen in literals(model, model.covers, number):
                cp.proto.constraints.add().bool_or.literals.extend(chosen[chosen >= 0].tolist())
    if model.clauses:
        with built.record.posting("BoolOr(x[p] : p ∈ P, ¬x[a] : a ∈ A)", "for each clause", "clauses"):
            _post_clauses(cp, model, number)
    if model.counts:
        with built.record.posting("x[w] ⇒ lo ≤ Σ held(group) ≤ hi", "for each attack count", "attack counts",
                                  "held(group) = max(x[p] : p ∈ group)"):
            _post_counts(cp, model, number)
    if model.connections:
        with built.record.posting("x[i] ⇒ reach[L][i]", "for each connected group", "connected groups",
                                  "reach[t][i] = x[i] ∧ (reach[t-1][i] ∨ reach[t-1][j], j a neighbour)"):
            post_connections(cp, model, number)
    if model.tallies:
        with built.record.posting("lo ≤ Σ t[i] ≤ hi", "for each board-wide count", "board-wide counts",
                                  "t[i] = OR of c[j], c[j] = AND(x[p] : p ∈ P, ¬x[a] : a ∈ A)"):
            for tally in model.tallies:
                low, high = tally.held_bounds
                cp.add_linear_constraint(_tally_sum(cp, model, tally, number, held=True), low, high)
    if size:
        with built.record.posting(f"Σ x[r,c] = {model.size}", "", "size"):
            _post_line(cp, number[number >= 0].tolist(), model.size or 0, model.size or 0)
    if model.lex:
        with built.record.posting("x ≥lex x∘g, clause by clause", "for each symmetry g", "lex-leader chains",
                                  "e[i]: the chain equal up to pair i"):
            _post_lex(cp, model.lex, _by_cell(model, number))


def _tally_sum(cp: cp_model.CpModel, model: ConstraintModel, tally: Tally, number: np.ndarray,
               held: bool = False) -> cp_model.LinearExpr:
    """The tally's value (or, `held`, how many of its terms hold) over a Boolean per term equal to
    the OR of its conjunctions, each a Boolean equal to its AND: functions of the cells, so
    enumeration lists no placement twice."""
    cell = cp.get_bool_var_from_proto_index
    terms: list[cp_model.IntVar] = []
    for conjunctions in term_literals(model, tally, number):
        ands = []
        for present, absent in conjunctions:
            parts = [cell(p) for p in present] + [~cell(a) for a in absent]
            if len(parts) == 1 and not absent:
                ands.append(parts[0])
                continue
            both = cp.new_bool_var("")
            cp.add_bool_and(parts).only_enforce_if(both)
            cp.add_bool_or([~part for part in parts] + [both])
            ands.append(both)
        if ands:
            term = cp.new_bool_var("")
            cp.add_max_equality(term, ands)
            terms.append(term)
    total = cp_model.LinearExpr.sum(terms)
    return total if held or not tally.complement else tally.top - total


def _post_line(cp: cp_model.CpModel, literals: list[int], at_least: int, at_most: int) -> None:
    """at_least <= sum(literals) <= at_most over Booleans given by index, with CP-SAT's own
    constraints for one piece."""
    constraint = cp.proto.constraints.add()
    if (at_least, at_most) == (1, 1):
        constraint.exactly_one.literals.extend(literals)
    elif (at_least, at_most) == (0, 1):
        constraint.at_most_one.literals.extend(literals)
    else:
        constraint.linear.vars.extend(literals)
        constraint.linear.coeffs.extend([1] * len(literals))
        constraint.linear.domain.extend((at_least, at_most))


def _post_clauses(cp: cp_model.CpModel, model: ConstraintModel, number: np.ndarray) -> None:
    """Each clause as a BoolOr of its present cells and its absent cells negated (index i's
    negation is -i - 1 in the proto). A cell without a variable (cleared by a fixed piece) is
    empty: left out of `present`, and an absent one satisfies the clause, which is not posted."""
    present = literals(model, [clause.present for clause in model.clauses], number)
    absent = literals(model, [clause.absent for clause in model.clauses], number)
    for held, empty in zip(present, absent, strict=True):
        if (empty < 0).any():
            continue
        cp.proto.constraints.add().bool_or.literals.extend([*held[held >= 0].tolist(), *(-empty - 1).tolist()])


def _post_counts(cp: cp_model.CpModel, model: ConstraintModel, number: np.ndarray) -> None:
    """Each attack count "when w holds a piece, between lo and hi of these groups hold one": a
    Boolean per group of several cells equal to their maximum (their OR: a function of the
    cells, so enumeration lists no placement twice; one per group, shared by the counts), and
    lo <= sum <= hi enforced by w. Cells cleared by a fixed piece are empty: a count of one
    is dropped, a group loses them."""
    whens = number[positions(model, [count.when for count in model.counts], len(model.counts))].tolist()
    groups = iter(literals(model, [group for count in model.counts for group in count.groups], number))
    holding: dict[tuple[int, ...], cp_model.IntVar] = {}
    for count, when in zip(model.counts, whens, strict=True):
        mine = (group[group >= 0].tolist() for group in itertools.islice(groups, len(count.groups)))
        live = [group for group in mine if group]
        if when < 0 or (count.at_least == 0 and count.at_most >= len(live)):
            continue
        enforced = cp.get_bool_var_from_proto_index(when)
        if count.at_least > min(count.at_most, len(live)):
            cp.add_bool_or([~enforced])
        else:
            held = [_holding(cp, group, holding) for group in live]
            cp.add_linear_constraint(sum(held), count.at_least, count.at_most).only_enforce_if(enforced)


def _holding(cp: cp_model.CpModel, group: list[int], known: dict[tuple[int, ...], cp_model.IntVar]) -> cp_model.IntVar:
    """The Boolean "some cell of `group` holds a piece": the cell's own for a group of one, else
    a new one equal to the group's maximum, made once per group in `known`."""
    cells = [cp.get_bool_var_from_proto_index(i) for i in group]
    if len(cells) == 1:
        return cells[0]
    key = tuple(sorted(group))
    if key not in known:
        known[key] = cp.new_bool_var(f"holds{len(known)}")
        cp.add_max_equality(known[key], cells)
    return known[key]


def _reader(cp: cp_model.CpModel, model: ConstraintModel,
            number: Mapping[Cell, int]) -> Callable[[cp_model.CpSolverSolutionCallback], Placement]:
    """How an enumeration reads each solution, fast: every 1-value read costs a call into CP-SAT
    (cheaper by index than by `boolean_value`), so each line of an exactly-one family gets an
    integer "which of its cells" (fully defined by the cells: no duplicate solutions) and one
    read per line instead of one per cell (Q(14): 14 reads, not 196); other cells are read one
    by one, by index."""
    family = next((f for f in model.families if f.exactly_one), None)
    lines = [[c for c in line.cells if c in number] for line in family.lines] if family else []
    lines = [line for line in lines if line]
    covered = {c for line in lines for c in line}
    which = []
    for i, line in enumerate(lines):
        where = cp.new_int_var(0, len(line) - 1, f"which{i}")
        cp.add(where == sum(k * cp.get_bool_var_from_proto_index(number[c]) for k, c in enumerate(line)))
        which.append((where.index, line))
    rest = [(index, c) for c, index in number.items() if c not in covered]

    def read(solution: cp_model.CpSolverSolutionCallback) -> Placement:
        value, held = solution.SolutionIntegerValue, solution.SolutionBooleanValue
        found = [line[value(index)] for index, line in which]
        found += [c for index, c in rest if held(index)]
        return tuple(sorted(found))
    return read


def _row_reader(rows: tuple[tuple[int, int], ...]) -> Callable[[cp_model.CpSolverSolutionCallback], Placement]:
    """How an enumeration in the integer viewpoint reads each solution: one read per row (each a
    call into CP-SAT, by index), the rows in board order."""
    def read(solution: cp_model.CpSolverSolutionCallback) -> Placement:
        value = solution.SolutionIntegerValue
        return tuple((r, value(index)) for r, index in rows)
    return read


def _by_cell(model: ConstraintModel, number: np.ndarray) -> dict[Cell, int]:
    """Each cell's variable as a dict (cells cleared by a fixed piece have none)."""
    return {c: i for c, i in zip(model.cells, number.tolist(), strict=True) if i >= 0}


def _decide_rows_in_order(cp: cp_model.CpModel, model: ConstraintModel, q: Mapping[int, cp_model.IntVar]) -> None:
    """Branch on the rows in board order (the lex chains' order when there are chains: middle
    rows first), the smallest column first."""
    rows = model.row_family
    assert rows is not None  # the integer viewpoint's models have one
    lines = rows.lines if model.lex is None else model.lex.first_read(rows.lines)
    cp.add_decision_strategy([q[line.cells[0][0]] for line in lines], cp_model.CHOOSE_FIRST,
                             cp_model.SELECT_MIN_VALUE)


def _decide_in_order(cp: cp_model.CpModel, model: ConstraintModel, number: Mapping[Cell, int]) -> None:
    """Branch on the cells in board order (the lex chains' order when there are chains), a piece first."""
    order = model.lex.order if model.lex else model.cells
    cp.add_decision_strategy([cp.get_bool_var_from_proto_index(number[c]) for c in order if c in number],
                             cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)


def _post_lex(cp: cp_model.CpModel, lex: LexLeader | None, number: Mapping[Cell, int]) -> None:
    """Each lex chain (if any) as clauses over "equal so far" literals: e_1 is true, e_i -> x[a_i] >= x[b_i],
    and e_(i+1) <-> e_i and x[a_i] == x[b_i]. Every e is a function of the cells, so enumerating
    all solutions lists each placement once. A cell cleared by a fixed piece is the constant 0."""
    if lex is None:
        return
    empty = cp.new_bool_var("empty")
    cp.add(empty == 0)

    def literal(c: Cell) -> cp_model.IntVar:
        return cp.get_bool_var_from_proto_index(number[c]) if c in number else empty
    for k, chain in enumerate(lex.chains):
        equal: cp_model.IntVar | None = None  # e_1: true
        for i, (a, b) in enumerate(chain):
            x, y = literal(a), literal(b)
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


def _add_booleans(proto: cp_model_helper.CpModelProto, count: int) -> None:
    """`count` Boolean variables, numbered from 0 (the proto must have none yet), made by
    merging blocks of doubling size, far faster than one by one on a large board
    (experiments/results/defaults.md)."""
    block = cp_model_helper.CpModelProto()
    block.variables.add().domain.extend((0, 1))
    size = 1
    while True:
        if count & size:
            proto.merge_from(block)
            count -= size
        if not count:
            return
        twin = cp_model_helper.CpModelProto()
        twin.copy_from(block)
        block.merge_from(twin)
        size *= 2


def _cleared_by_fixed(model: ConstraintModel) -> set[Cell]:
    """The cells that share an at-most-one line with a fixed piece: empty in every solution,
    so they get no variable at all. A completion of 60 queens on 200 x 200 keeps about a
    quarter of the 40,000 cells, which CP-SAT builds and searches in a fraction of the time."""
    dead: set[Cell] = set()
    if not model.fixed:
        return dead
    for line in model.lines:
        if line.at_most == 1 and model.fixed.intersection(line.cells):
            dead.update(line.cells)
    return dead - model.fixed
