"""Why not: the fewest of the user's givens that have no solution by themselves, proved.

Two searches, one after the other, on one incremental SAT solver:

1. A minimal unsatisfiable subset (MUS) by deletion (Marques-Silva 2010): try each given in turn
   without it; if the rest still has no solution, drop it, and with it every given the solver's
   core did not use; otherwise it is needed. Fast (one SAT call per given), but only
   *irreducible*: none of its givens can be dropped, yet a smaller set elsewhere may have none
   too (9 of 46 random completions in issue 37's audit).
2. The smallest such set, an optimal unsatisfiable subset (OUS), by implicit hitting sets, as
   CPMpy's OUS (Gamba, Bogaerts and Guns, "Efficiently explaining CSPs with unsatisfiable subset
   optimization", IJCAI 2021) and FindMUS do. Every set with no solution shares a given with
   every *correction set* (the givens outside a set that has one). So: take a minimum hitting set
   of the correction sets found so far (pysat's `Hitman` on RC2, a MaxSAT solver); if it has no
   solution it is a smallest one, proved; else grow it to a maximal set with a solution and add
   the givens outside as one more correction set. Each hitting set's size is a lower bound, and
   the deletion's MUS an upper bound: when they meet, the MUS is the smallest.

Within a time limit the second search may stop first: the answer is then the MUS, "none can be
dropped", with the lower bound it proved (`WhyNot.fewest`, `WhyNot.bound`).

A given that is one literal of the model (`fixes` returns it: a placed piece's cell, a stated
rule's guard, see `queens.models.givens`) is an assumption, so one incremental solver answers
every question about pieces, counts and bounds; a given that changes the board (a hole, a pawn)
is answered by rebuilding the model from the subset (`guarded`, by default `build`), cached per
subset.

The subset is then checked twice, on fresh solvers and the models built from scratch: the subset
alone has no solution, and dropping any one given from it gives a solution (re-checked by
`check`, the independent checker, when one is given). That is what "minimal" means; "fewest" is
the hitting-set search's proof.

`why_not_puzzle` asks this about a puzzle's own givens and `in_words` says the answer: the one
path `queens why` and the explorer's "why?" button both take, so they show the same subset in
the same words.

>>> from queens.models import Completion, lower
>>> from queens.models.givens import givens_of, stated_rules, with_givens
>>> puzzle = Completion(5, [(0, 0), (1, 2), (4, 1)])
>>> answer = why_not(givens_of(puzzle), lambda gs: lower(with_givens(puzzle, gs)),
...                  guarded=lambda gs: lower(with_givens(puzzle, [*gs, *stated_rules(puzzle)]), guarded=True),
...                  fixes=lambda g: g.literal(puzzle))
>>> [g.name for g in answer.subset], answer.fewest
(['queen at 0,0', 'queen at 4,1', 'exactly 5 queens in all'], True)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from pysat.examples.hitman import Hitman
from pysat.solvers import Solver
from queens.models import AttackingQueens, ConstraintModel, Placement, Puzzle, QueensError, TimeLimit, lower, verify
from queens.models.givens import Given, givens_of, stated_rules, with_givens
from queens.models.ir import Var
from queens.solvers.backend import deadline_after, seconds_left
from queens.solvers.formats.cnf import cnf, guard_variables
from queens.solvers.runtime.interruptible import solve_interruptibly

G = TypeVar("G", bound=Hashable)
MUS_SOLVER = "glucose4"
"""Assumptions and cores on an incremental solver: Glucose's are cheap to ask for."""
HITTING = "rc2"
"""The hitting sets are minimum ones, from RC2 (pysat's MaxSAT solver): the lower bound needs that."""
KEPT_SOLVERS = 32
"""Solvers kept for subsets of the board-changing givens (holes, pawns), the least recently asked
dropped first: the hitting-set search asks about many such subsets, each its own model."""
CHECK_SHARE = 2.0
"""Within a time limit, the hitting-set search stops this many times the expected time of the
final check before the deadline (the check is one fresh solve per given of the subset, plus one)."""


_STOPPED = "why: the smallest set of givens was not found and checked within the time limit"


class HasSolution(QueensError):
    """The givens together have a solution: there is nothing to explain."""


@dataclass(frozen=True)
class WhyNot(Generic[G]):
    """The subset, how long finding and checking it took, and how many SAT calls; whether it is
    proved the smallest (`fewest`), and the lower bound proved (`bound`: every set of the givens
    with no solution has at least this many; `len(subset)` when `fewest`)."""

    subset: tuple[G, ...]
    seconds: float
    check_seconds: float
    calls: int
    witnesses: tuple[Placement, ...] = field(default=(), repr=False)
    """One solution per given of `subset`: the puzzle without that given (the minimality check)."""
    fewest: bool = False
    bound: int = 0
    irreducible: int = 0
    """The size of the first set found (by deletion), before the hitting-set search."""
    hitting_sets: int = 0
    """The hitting sets tried (each one SAT call, and a grow when it has a solution)."""


@dataclass
class _Incremental:
    """One incremental solver over one model, its variables by name (cells, guards), and a
    selector variable per given that empties cells (`_Oracle.empties`), added when first asked."""

    solver: Solver
    var: dict[Hashable, int]
    top: int
    selectors: dict[Hashable, int] = field(default_factory=dict)

    def selector(self, given: Hashable, cells: tuple[Var, ...]) -> int:
        """A variable that, assumed, leaves `cells` empty (a cell the model lacks is empty already)."""
        if given not in self.selectors:
            self.top += 1
            self.selectors[given] = self.top
            for cell in cells:
                if cell in self.var:
                    self.solver.add_clause([-self.top, -self.var[cell]])
        return self.selectors[given]


@dataclass
class _Oracle(Generic[G]):
    """Answers "does this subset have a solution?" and, when not, which of it the solver used;
    when so, keeps the solution (`witness`, the true literals) to grow the subset from.
    `guarded(structural)` is the model with those givens that change the board, in which every
    given `fixes` names is a literal left free (a cell, a guard), and every cell a given
    `empties` may be emptied by assuming that given's selector (a hole, where a hole is just an
    empty square)."""

    guarded: Callable[[Sequence[G]], ConstraintModel]
    fixes: Callable[[G], Var | None]
    empties: Callable[[G], tuple[Var, ...] | None]
    deadline: float | None = None
    calls: int = 0
    solvers: OrderedDict[frozenset[G], _Incremental] = field(default_factory=OrderedDict)
    witness: set[Hashable] = field(default_factory=set)
    """The literals true in the last solution found (cells, guards)."""

    def structural(self, given: G) -> bool:
        """Whether `given` changes the board: answered on a model rebuilt with it."""
        return self.fixes(given) is None and self.empties(given) is None

    def core(self, subset: Sequence[G]) -> list[G] | None:
        """None when `subset` has a solution (kept as `witness`), else the part of it the solver's
        proof used."""
        self.calls += 1
        structural = [g for g in subset if self.structural(g)]
        incremental = self._solver(structural)
        by_literal: dict[int, G] = {}
        for given in subset:
            if self.structural(given):
                continue
            literal = self._literal(incremental, given)
            if literal is None:  # a piece on a hole: impossible at once
                return [*structural, given]
            by_literal[literal] = given
        solver = incremental.solver
        if _satisfiable(solver, self.deadline, list(by_literal)):
            self._keep_witness(incremental)
            return None
        used = set(solver.get_core() or ())
        return [*structural, *(g for literal, g in by_literal.items() if literal in used)]

    def grow(self, subset: Sequence[G], givens: Sequence[G]) -> list[G]:
        """A maximal set of `givens` around `subset` (which has a solution, the last one found)
        that has a solution: first every given the solution at hand already meets; then, as the
        CLD algorithm of MCS extraction does (Marques-Silva et al., IJCAI 2013), one SAT call
        asks for a solution that meets at least one more of the givens an assumption can say,
        until none can (one "no" proves them all left out, where a call per given took as many
        "no"s); a board-changing given left over is asked on its own model."""
        grown = list(subset)
        undecided = self._met(grown, [g for g in givens if g not in set(grown)])
        assumable = [g for g in undecided if not self.structural(g)]
        while assumable and self._widens(grown, assumable):
            undecided = self._met(grown, undecided)
            assumable = [g for g in undecided if not self.structural(g)]
        for given in [g for g in undecided if self.structural(g)]:
            if self.core([*grown, given]) is None:
                grown.append(given)
        return grown

    def _widens(self, grown: list[G], candidates: list[G]) -> bool:
        """Whether `grown` has a solution that meets one of `candidates` too (kept as `witness`):
        the candidates' literals as one clause under a fresh activation literal, retired after."""
        self.calls += 1
        incremental = self._solver([g for g in grown if self.structural(g)])
        assumed = [self._literal(incremental, g) for g in grown if not self.structural(g)]
        wanted = [literal for literal in (self._literal(incremental, g) for g in candidates) if literal is not None]
        if not wanted or None in assumed:
            return False
        incremental.top += 1
        switch = incremental.top
        solver = incremental.solver
        solver.add_clause([-switch, *wanted])
        solver.set_phases(wanted)  # meet as many as it can: fewer rounds
        try:
            found = _satisfiable(solver, self.deadline, [*(a for a in assumed if a is not None), switch])
        finally:
            solver.add_clause([-switch])  # the clause is off for every later question
        if found:
            self._keep_witness(incremental)
        return found

    def _literal(self, incremental: _Incremental, given: G) -> int | None:
        """The solver literal that assumes `given` (its cell's piece, its guard, or its selector
        that empties cells); None for a piece on a cell the model lacks (a hole)."""
        literal, cells = self.fixes(given), self.empties(given)
        if literal is not None:
            return incremental.var.get(literal)
        assert cells is not None  # only givens that are not structural are asked
        return incremental.selector(given, cells)

    def _keep_witness(self, incremental: _Incremental) -> None:
        named = {v: name for name, v in incremental.var.items()}
        self.witness = {named[v] for v in incremental.solver.get_model() or () if v > 0 and v in named}

    def _met(self, grown: list[G], undecided: list[G]) -> list[G]:
        """Move into `grown` the givens the witness meets (its literal true, its cells empty); the
        rest, still undecided (a board-changing given among them: only a SAT call on its model
        tells)."""
        left = []
        for given in undecided:
            literal, cells = self.fixes(given), self.empties(given)
            if literal is not None:
                meets = literal in self.witness
            else:
                meets = cells is not None and not self.witness.intersection(cells)
            if meets:
                grown.append(given)
            else:
                left.append(given)
        return left

    def _solver(self, structural: list[G]) -> _Incremental:
        key = frozenset(structural)
        if key in self.solvers:
            self.solvers.move_to_end(key)
            return self.solvers[key]
        model = replace(self.guarded(structural), lex=None)  # what is assumed is free in it
        formula, cell_of = cnf(model)
        self.solvers[key] = _Incremental(Solver(name=MUS_SOLVER, bootstrap_with=formula.clauses),
                                         {**{cell: v for v, cell in cell_of.items()}, **guard_variables(model)},
                                         formula.nv)
        if len(self.solvers) > KEPT_SOLVERS:
            _, oldest = self.solvers.popitem(last=False)
            oldest.solver.delete()
        return self.solvers[key]

    def close(self) -> None:
        for incremental in self.solvers.values():
            incremental.solver.delete()
        self.solvers.clear()


def why_not(givens: Sequence[G], build: Callable[[Sequence[G]], ConstraintModel], *,
            fixes: Callable[[G], Var | None] = lambda g: None,
            empties: Callable[[G], tuple[Var, ...] | None] = lambda g: None,
            guarded: Callable[[Sequence[G]], ConstraintModel] | None = None,
            check: Callable[[Sequence[G], Placement], object] | None = None,
            time_limit: float | None = None, fewest: bool = True) -> WhyNot[G]:
    """The smallest subset of `givens` with no solution when proved within the time limit, else
    a minimal one with the bound proved; checked twice (see the module docstring).

    `build(subset)` is the model with only those givens; `fixes(g)` the literal that is g (a
    placed piece's cell, a rule's guard); `empties(g)` the cells g leaves empty when that is all
    it does (a hole); the others change the board. `guarded(structural)` is the model the search
    assumes them in, with only those of the board-changing givens (default `build`: then only
    cells can be assumed); `check(subset, placement)` the independent checker.
    `fewest=False` stops after the deletion (a minimal set, not proved the smallest).
    Raises `HasSolution` when all the givens together have one, `TimeLimit` when the time
    limit passes before even a minimal set is found and checked (a SAT call still running then
    is interrupted, see `_satisfiable`)."""
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    oracle: _Oracle[G] = _Oracle(guarded or build, fixes, empties, deadline)
    try:
        subset = _deletion(oracle, list(givens))
        irreducible, search = len(subset), _Search(subset, bound=0)
        if fewest:
            oracle.deadline = _search_deadline(deadline, subset, build)
            search = _smallest(oracle, list(givens), subset)
            oracle.deadline = deadline
    finally:
        oracle.close()
    found = time.perf_counter() - start
    witnesses = confirm(search.subset, build, check, deadline)
    return WhyNot(tuple(search.subset), found, time.perf_counter() - start - found, oracle.calls, witnesses,
                  fewest=search.proved, bound=len(search.subset) if search.proved else search.bound,
                  irreducible=irreducible, hitting_sets=search.rounds)


@dataclass
class _Search(Generic[G]):
    """Where the hitting-set search got to: the smallest set found, the lower bound proved."""

    subset: list[G]
    bound: int
    proved: bool = False
    rounds: int = 0


def _smallest(oracle: _Oracle[G], givens: list[G], irreducible: list[G]) -> _Search[G]:
    """The implicit hitting-set search (module docstring, 2.), from the deletion's `irreducible`
    set as the upper bound; at the oracle's deadline, what it had."""
    search: _Search[G] = _Search(irreducible, 0)
    hitter = Hitman(htype=HITTING)
    try:
        while True:
            seconds_left(oracle.deadline, _STOPPED)
            hit = sorted(hitter.get() or ())
            search.bound = len(hit)
            if search.bound >= len(search.subset):  # no set smaller than the one found has none
                search.bound, search.proved = len(search.subset), True
                return search
            search.rounds += 1
            chosen = [givens[i] for i in hit]
            core = oracle.core(chosen)
            if core is not None:  # a minimum hitting set with no solution: a smallest set
                kept = set(core)
                search.subset, search.bound, search.proved = [g for g in givens if g in kept], len(kept), True
                return search
            grown = set(oracle.grow(chosen, givens))
            correction = [i for i, g in enumerate(givens) if g not in grown]
            if not correction:
                raise QueensError("every given fits together after all (a bug in the search)")
            hitter.hit(correction)
    except TimeLimit:
        return search
    finally:
        hitter.delete()


def _search_deadline(deadline: float | None, subset: list[G],
                     build: Callable[[Sequence[G]], ConstraintModel]) -> float | None:
    """When the hitting-set search must stop to leave the final check its time: `CHECK_SHARE`
    times one fresh solve of the subset found, once per given and once more."""
    if deadline is None:
        return None
    start = time.monotonic()
    _solve(build(subset), deadline)
    return deadline - CHECK_SHARE * (len(subset) + 1) * (time.monotonic() - start)


def why_not_puzzle(puzzle: Puzzle, time_limit: float | None = None, fewest: bool = True) -> WhyNot[Given]:
    """`why_not` over the puzzle's own givens (`givens_of`): pieces and stated rules as
    assumptions on the guarded model, holes as empty squares (`_emptied`), pawns by rebuilding,
    each solution without a given re-checked by the independent checker.

    >>> from queens.models import Completion
    >>> puzzle = Completion(5, [(0, 0), (1, 2), (4, 1)])
    >>> in_words(puzzle, why_not_puzzle(puzzle))[1:]
    ['  queen at 0,0', '  queen at 4,1', '  exactly 5 queens in all']
    """
    givens = givens_of(puzzle)
    if not givens:
        raise QueensError(f"{puzzle.name} has no givens (placed pieces, holes, pawns, counts, bounds) to explain")
    rules = stated_rules(puzzle)
    return why_not(givens, lambda gs: lower(with_givens(puzzle, gs)), fixes=lambda g: g.literal(puzzle),
                   empties=lambda g: _emptied(puzzle, g),
                   guarded=lambda gs: lower(with_givens(puzzle, [*gs, *rules]), guarded=True),
                   check=lambda gs, placement: verify(with_givens(puzzle, gs), placement), time_limit=time_limit,
                   fewest=fewest)


def _emptied(puzzle: Puzzle, given: Given) -> tuple[Var, ...] | None:
    """A hole's square in each army's variables: a hole holds no piece, lines pass over it and it
    is covered like any empty square, so it is that square left empty, unless every open square
    must hold a piece (a partition: a hole is then no longer asked to). None for every other given."""
    if given.kind != "hole" or given.cell is None or puzzle.partition:
        return None
    return tuple(puzzle.variable(a, given.cell) for a in range(len(puzzle.armies)))


def in_words(puzzle: Puzzle, answer: WhyNot[Given]) -> list[str]:
    """The answer as `queens why` prints it above its board (and the explorer lists it): one
    line saying what the subset is, and whether it is proved the smallest, then one line per
    given."""
    seconds = answer.seconds + answer.check_seconds
    if not answer.subset:
        return [f"{puzzle.name}: no solution, even without any of its {len(givens_of(puzzle))} givens: "
                f"the board itself has none (found and checked in {seconds:.3f} s)"]
    total, size = len(givens_of(puzzle)), len(answer.subset)
    these = (f"This one of its {total} givens has none by itself" if size == 1 else
             f"These {size} of its {total} givens have none by themselves")
    if answer.fewest:
        how = "no fewer of them do (the fewest, proved)" if size > 1 else "the board without it has a solution"
    else:
        how = "none of them can be dropped, but a smaller set was not ruled out within the time limit" + (
            f" (every set with none has at least {answer.bound}: proved)" if answer.bound > 1 else "")
    return [f"{puzzle.name}: no solution. {these}, and {how}; found and checked in {seconds:.3f} s:",
            *(f"  {given.name}" for given in answer.subset)]


def attacking_pair(clash: AttackingQueens) -> tuple[tuple[Given, Given], str]:
    """Two placed pieces that attack each other: the smallest reason there is, named at once
    (no search), as a pair of givens and the line that says so."""
    pair = (Given("piece", clash.first), Given("piece", clash.second))
    return pair, f"no solution: {pair[0].name} and {pair[1].name} attack each other"


def _deletion(oracle: _Oracle[G], givens: list[G]) -> list[G]:
    """Deletion-based MUS with core trimming: everything before position i is needed (a given
    needed in a set is needed in every unsatisfiable subset of it, so trimming keeps them)."""
    core = oracle.core(givens)
    if core is None:
        raise HasSolution("the puzzle has a solution with all its givens: nothing to explain")
    current = [g for g in givens if g in set(core)]
    i = 0
    while i < len(current):
        trial = current[:i] + current[i + 1:]
        core = oracle.core(trial)
        if core is None:
            i += 1
        else:
            kept = set(core)
            current = [g for g in trial if g in kept]
    return current

def confirm(subset: Sequence[G], build: Callable[[Sequence[G]], ConstraintModel],
            check: Callable[[Sequence[G], Placement], object] | None = None,
            deadline: float | None = None) -> tuple[Placement, ...]:
    """Check `subset` is a minimal unsatisfiable set, each question on a fresh solver and a model
    built from scratch: no solution with all of it, a solution without any one of it (each
    re-checked by `check`). Returns those solutions; raises `QueensError` when a check fails."""
    if _solve(build(subset), deadline) is not None:
        raise QueensError("the subset found has a solution after all (a bug in the search)")
    witnesses = []
    for i in range(len(subset)):
        rest = [*subset[:i], *subset[i + 1:]]
        placement = _solve(build(rest), deadline)
        if placement is None:
            raise QueensError(f"the subset is not minimal: it has no solution without {subset[i]!r}")
        if check is not None:
            check(rest, placement)
        witnesses.append(placement)
    return tuple(witnesses)


def _solve(model: ConstraintModel, deadline: float | None = None) -> Placement | None:
    """One solution of `model` (its CNF, fixed pieces as unit clauses), or None."""
    formula, cell_of = cnf(replace(model, lex=None))
    with Solver(name=MUS_SOLVER, bootstrap_with=formula.clauses) as solver:
        if not _satisfiable(solver, deadline):
            return None
        return tuple(sorted(cell_of[v] for v in solver.get_model() if v in cell_of))


def _satisfiable(solver: Solver, deadline: float | None, assumptions: Sequence[int] = ()) -> bool:
    """`solver.solve(assumptions)`, interrupted at the deadline (TimeLimit) and by Ctrl-C within a
    beat (`solve_interruptibly`). Most questions take milliseconds, but one with more pieces than
    its lines hold once a pawn is dropped is a pigeonhole problem, which resolution takes
    exponentially long to refute."""
    if deadline is not None:
        seconds_left(deadline, _STOPPED)  # already past: TimeLimit before the solve
    answer = solve_interruptibly(solver, assumptions, deadline)
    if answer is None:
        raise TimeLimit(_STOPPED)
    return bool(answer)
