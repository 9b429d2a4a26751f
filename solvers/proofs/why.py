"""Why not: a smallest set of the user's givens that has no solution by itself.

A minimal unsatisfiable subset (MUS) of the givens, found by deletion (Marques-Silva 2010):
try each given in turn without it; if the rest still has no solution, drop it, and with it
every given the solver's core did not use; otherwise it is needed. A given that is one literal
of the model (`fixes` returns it: a placed piece's cell, a stated rule's guard, see
`queens.models.givens`) is an assumption, so one incremental solver answers every question
about pieces, counts and bounds; a given that changes the board (a hole, a pawn) is answered
by rebuilding the model from the subset (`guarded`, by default `build`), cached per subset.

The subset is then checked twice, on fresh solvers and the models built from scratch: the subset
alone has no solution, and dropping any one given from it gives a solution (re-checked by
`check`, the independent checker, when one is given). That is what "minimal" means.

`why_not_puzzle` asks this about a puzzle's own givens and `in_words` says the answer: the one
path `queens why` and the explorer's "why?" button both take, so they show the same subset in
the same words.

>>> from queens.models import Completion, lower
>>> from queens.models.givens import givens_of, stated_rules, with_givens
>>> puzzle = Completion(5, [(0, 0), (1, 2), (4, 1)])
>>> answer = why_not(givens_of(puzzle), lambda gs: lower(with_givens(puzzle, gs)),
...                  guarded=lambda gs: lower(with_givens(puzzle, [*gs, *stated_rules(puzzle)]), guarded=True),
...                  fixes=lambda g: g.literal(plain=True))
>>> [g.name for g in answer.subset]
['queen at 0,0', 'queen at 4,1', 'exactly 5 queens in all']
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

from pysat.solvers import Solver
from queens.models import AttackingQueens, ConstraintModel, Placement, Puzzle, QueensError, TimeLimit, lower, verify
from queens.models.givens import Given, givens_of, stated_rules, with_givens
from queens.models.ir import Var
from queens.solvers.backend import deadline_after, seconds_left
from queens.solvers.formats.cnf import cnf, guard_variables

G = TypeVar("G", bound=Hashable)
MUS_SOLVER = "glucose4"
"""Assumptions and cores on an incremental solver: Glucose's are cheap to ask for."""


_STOPPED = "why: the smallest set of givens was not found and checked within the time limit"


class HasSolution(QueensError):
    """The givens together have a solution: there is nothing to explain."""


@dataclass(frozen=True)
class WhyNot(Generic[G]):
    """The minimal subset, how long finding and checking it took, and how many SAT calls."""

    subset: tuple[G, ...]
    seconds: float
    check_seconds: float
    calls: int
    witnesses: tuple[Placement, ...] = field(default=(), repr=False)
    """One solution per given of `subset`: the puzzle without that given (the minimality check)."""


@dataclass
class _Oracle(Generic[G]):
    """Answers "does this subset have a solution?" and, when not, which of it the solver used.
    `guarded(structural)` is the model with those givens that change the board, in which every
    given `fixes` names is a literal left free (a cell, a guard)."""

    guarded: Callable[[Sequence[G]], ConstraintModel]
    fixes: Callable[[G], Var | None]
    deadline: float | None = None
    calls: int = 0
    solvers: dict[frozenset[G], tuple[Solver, dict[Var, int]]] = field(default_factory=dict)

    def core(self, subset: Sequence[G]) -> list[G] | None:
        """None when `subset` has a solution, else the part of it the solver's proof used."""
        self.calls += 1
        structural = [g for g in subset if self.fixes(g) is None]
        solver, var = self._solver(structural)
        assumed = {g: self.fixes(g) for g in subset if self.fixes(g) is not None}
        lost = [g for g, literal in assumed.items() if literal not in var]  # a piece on a hole: impossible at once
        if lost:
            return [*structural, lost[0]]
        by_literal = {var[literal]: g for g, literal in assumed.items()}
        if _satisfiable(solver, self.deadline, list(by_literal)):
            return None
        used = set(solver.get_core() or ())
        return [*structural, *(g for literal, g in by_literal.items() if literal in used)]

    def _solver(self, structural: list[G]) -> tuple[Solver, dict[Var, int]]:
        key = frozenset(structural)
        if key not in self.solvers:
            model = replace(self.guarded(structural), lex=None)  # what is assumed is free in it
            formula, cell_of = cnf(model)
            self.solvers[key] = (Solver(name=MUS_SOLVER, bootstrap_with=formula.clauses),
                                 {**{cell: v for v, cell in cell_of.items()}, **guard_variables(model)})
        return self.solvers[key]

    def close(self) -> None:
        for solver, _ in self.solvers.values():
            solver.delete()


def why_not(givens: Sequence[G], build: Callable[[Sequence[G]], ConstraintModel], *,
            fixes: Callable[[G], Var | None] = lambda g: None,
            guarded: Callable[[Sequence[G]], ConstraintModel] | None = None,
            check: Callable[[Sequence[G], Placement], object] | None = None,
            time_limit: float | None = None) -> WhyNot[G]:
    """A minimal subset of `givens` with no solution, checked twice (see the module docstring).

    `build(subset)` is the model with only those givens; `fixes(g)` the literal that is g (a
    placed piece's cell, a rule's guard; None: g changes the board); `guarded(structural)` the
    model the search assumes them in, with only those of the board-changing givens (default
    `build`: then only cells can be assumed); `check(subset, placement)` the independent checker.
    Raises `HasSolution` when all the givens together have one, `TimeLimit` when the time
    limit passes (a SAT call still running then is interrupted, see `_satisfiable`)."""
    start = time.perf_counter()
    deadline = deadline_after(time_limit)
    oracle: _Oracle[G] = _Oracle(guarded or build, fixes, deadline)
    try:
        subset = _deletion(oracle, list(givens))
    finally:
        oracle.close()
    found = time.perf_counter() - start
    witnesses = confirm(subset, build, check, deadline)
    return WhyNot(tuple(subset), found, time.perf_counter() - start - found, oracle.calls, witnesses)


def why_not_puzzle(puzzle: Puzzle, time_limit: float | None = None) -> WhyNot[Given]:
    """`why_not` over the puzzle's own givens (`givens_of`): pieces and stated rules as
    assumptions on the guarded model, holes and pawns by rebuilding, each solution without a
    given re-checked by the independent checker.

    >>> from queens.models import Completion
    >>> puzzle = Completion(5, [(0, 0), (1, 2), (4, 1)])
    >>> in_words(puzzle, why_not_puzzle(puzzle))[1:]
    ['  queen at 0,0', '  queen at 4,1', '  exactly 5 queens in all']
    """
    givens = givens_of(puzzle)
    if not givens:
        raise QueensError(f"{puzzle.name} has no givens (placed pieces, holes, pawns, counts, bounds) to explain")
    rules = stated_rules(puzzle)
    return why_not(givens, lambda gs: lower(with_givens(puzzle, gs)), fixes=lambda g: g.literal(puzzle.plain),
                   guarded=lambda gs: lower(with_givens(puzzle, [*gs, *rules]), guarded=True),
                   check=lambda gs, placement: verify(with_givens(puzzle, gs), placement), time_limit=time_limit)


def in_words(puzzle: Puzzle, answer: WhyNot[Given]) -> list[str]:
    """The answer as `queens why` prints it above its board (and the explorer lists it): one
    line saying what the subset is, then one line per given."""
    seconds = answer.seconds + answer.check_seconds
    if not answer.subset:
        return [f"{puzzle.name}: no solution, even without any of its {len(givens_of(puzzle))} givens: "
                f"the board itself has none (found and checked in {seconds:.3f} s)"]
    total = len(givens_of(puzzle))
    these = (f"This one of its {total} givens has none by itself (without it there is a solution"
             if len(answer.subset) == 1 else
             f"These {len(answer.subset)} of its {total} givens have none by themselves (without any one of them "
             "there is a solution")
    return [f"{puzzle.name}: no solution. {these}; found and checked in {seconds:.3f} s):",
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
    """`solver.solve(assumptions)`, interrupted at the deadline (TimeLimit). Most questions take
    milliseconds, but one with more pieces than its lines hold once a pawn is dropped is a
    pigeonhole problem, which resolution takes exponentially long to refute."""
    if deadline is None:
        return bool(solver.solve(assumptions=list(assumptions)))
    timer = threading.Timer(seconds_left(deadline, _STOPPED), solver.interrupt)
    timer.start()
    try:
        answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    finally:
        timer.cancel()
    if answer is None:
        raise TimeLimit(_STOPPED)
    return bool(answer)
