"""Propagation levels: what the engine does after each decision, before it decides again.

| level | after a decision | the textbook's name |
|---|---|---|
| `generate` | nothing; every constraint is checked once all variables are fixed | generate and test |
| `none` | a constraint is checked as soon as all its variables are fixed | backtracking |
| `forward` | a fixed variable removes, through each of its constraints, the values it rules out | forward checking |
| `arc` | every value of every variable keeps a support in each two-variable constraint (AC-3) | arc consistency |
| `alldifferent` | as `forward`, each keyed family of lines one `AllDifferent` by value | AllDifferent (value) |
| `bounds` | as `alldifferent`, and Hall intervals move the keys' bounds | AllDifferent (bounds) |

At every level a variable fixed by propagation (one value left) is treated as a decision
would be: it propagates too, until nothing changes (the *fixpoint*). That is what Gecode and
MiniCP do, and why `forward` here removes exactly what Gecode's propagators remove on the
pairwise model (q[i] != q[j], q[i] + i != q[j] + j, q[i] - i != q[j] - j): each disequality
acts once one of its two variables is fixed, and never before. Nodes and failures then agree
with Gecode's to the digit (tests/test_teaching_engine.py); `alldifferent` prunes the same
values with fewer propagator runs. In the Boolean viewpoint every constraint is a count or a
clause, which forward checking already makes domain consistent: `arc`, `alldifferent` and
`bounds` prune nothing more there.

The loop (`Propagation.fixpoint`) reads the store's list of changed variables: a variable
just fixed wakes the constraints that act on fixed variables (`forward`, or the check), any
change wakes those that act on every change (`revise` at `arc`, `bounds`).
"""

from __future__ import annotations

from collections.abc import Callable

from queens.models import Unsupported
from queens.solvers.learn.constraints import AllDifferent, Constraint
from queens.solvers.learn.domains import Store
from queens.solvers.learn.viewpoint import PAIRWISE_UP_TO, Problem

LEVELS: dict[str, str] = {
    "generate": "generate and test: constraints are checked once every variable is fixed",
    "none": "backtracking: a constraint is checked once all its variables are fixed",
    "forward": "forward checking: a fixed variable removes the values it rules out",
    "arc": "arc consistency: AC-3 keeps a support for every value in each two-variable constraint",
    "alldifferent": "forward checking, each keyed family of lines one AllDifferent by value",
    "bounds": "AllDifferent by value and by bounds (Hall intervals)",
}
"""The levels, weakest first, each in a line."""
POSTED = {"arc": "rows", "alldifferent": "alldifferent", "bounds": "alldifferent"}
"""How each level has the integer viewpoint post its lines (`viewpoint.POSTINGS`; `pairs` when
not named): AC-3 revises one constraint per pair of rows (on the pairwise disequalities it
would remove no more than forward checking: a disequality loses a value only once the other
side is fixed)."""
CHECKS_PAIRS = frozenset({"generate", "none", "arc"})
"""The levels that read each pair of rows on its own (a check, a support): they need the
pairwise constraints, which boards of more than `PAIRWISE_UP_TO` rows do not get."""

FixRule = Callable[[Store, int], bool]
ChangeRule = Callable[[Store], bool]


def posted(level: str) -> str:
    """How `level` has the lines posted (`viewpoint.build(posted=...)`)."""
    return POSTED.get(level, "pairs")


def check_level(level: str) -> None:
    if level not in LEVELS:
        raise Unsupported(f"unknown propagation level {level!r}; choose from {', '.join(LEVELS)}")


def _bounds(constraint: Constraint) -> ChangeRule:
    assert isinstance(constraint, AllDifferent)
    return constraint.bounds


class Propagation:
    """One level's propagation over one problem: which constraints wake when a variable is
    fixed (`on_fix`) or changes at all (`on_change`), and the loop that runs them. Counts the
    propagator runs (`propagations`) and remembers the constraint that failed last
    (`culprit`, which dom/wdeg weighs)."""

    def __init__(self, level: str, problem: Problem) -> None:
        check_level(level)
        if level in CHECKS_PAIRS and any(isinstance(c, AllDifferent) for c in problem.constraints):
            raise Unsupported(f"the {level} level checks the rows pair by pair: boards of at most "
                              f"{PAIRWISE_UP_TO} rows")
        self.level = level
        self.problem = problem
        count = len(problem.names)
        self.on_fix: list[list[tuple[Constraint, FixRule]]] = [[] for _ in range(count)]
        """For each variable, the constraints that run when it is fixed, each with its rule."""
        self.on_change: list[list[tuple[Constraint, ChangeRule]]] = [[] for _ in range(count)]
        """For each variable, those that run on every change of it."""
        for constraint in problem.constraints:
            for var in constraint.variables:
                self._wake(constraint, var)
        self.propagations = 0
        self.culprit: Constraint | None = None

    def _wake(self, constraint: Constraint, var: int) -> None:
        """Say when `constraint` runs: when `var` is fixed, and on every change of `var` where
        the level acts on every change (`_every_change`)."""
        if self.level == "generate":
            return
        if self._every_change(constraint):
            self.on_change[var].append((constraint, self._change_rule(constraint)))
        if not (self.level == "arc" and constraint.binary):
            rule = constraint.holds_when_fixed if self.level == "none" else constraint.forward
            self.on_fix[var].append((constraint, rule))

    def _every_change(self, constraint: Constraint) -> bool:
        """AC-3 revises a two-variable constraint whenever a domain shrinks, and the bounds of a
        monotone AllDifferent move whenever a bound does."""
        if self.level == "arc":
            return constraint.binary
        return self.level == "bounds" and isinstance(constraint, AllDifferent) and constraint.monotone

    def _change_rule(self, constraint: Constraint) -> ChangeRule:
        return _bounds(constraint) if self.level == "bounds" else constraint.revise

    def root(self, store: Store) -> bool:
        """The propagation before the first decision: every constraint runs once, then the
        fixpoint (a fixed piece, a line that must be full, a count already met)."""
        store.changed.clear()
        if self.level == "generate":
            return True
        for constraint in self.problem.constraints:
            self.propagations += 1
            if self.level == "none":
                ok = constraint.holds_when_fixed(store, None)
            else:
                ok = constraint.forward(store, None)
                if ok and self._every_change(constraint):
                    ok = self._change_rule(constraint)(store)
            if not ok:
                return self._failed(store, constraint)
        return self.fixpoint(store)

    def fixpoint(self, store: Store) -> bool:
        """Run the woken constraints until no domain changes; False on a failure."""
        changed, on_fix, on_change = store.changed, self.on_fix, self.on_change
        while changed:
            var, fixed = changed.popleft()
            if fixed:
                for constraint, rule in on_fix[var]:
                    self.propagations += 1
                    if not rule(store, var):
                        return self._failed(store, constraint)
            for constraint, change in on_change[var]:
                self.propagations += 1
                if not change(store):
                    return self._failed(store, constraint)
        return True

    def _failed(self, store: Store, constraint: Constraint) -> bool:
        self.culprit = constraint
        store.changed.clear()
        return False

    def leaf(self, store: Store) -> bool:
        """Generate and test: every variable is fixed; does every constraint hold?"""
        if self.level != "generate":
            return True
        for constraint in self.problem.constraints:
            self.propagations += 1
            if not constraint.holds(store.dom):
                self.culprit = constraint
                return store.fail(constraint)
        return True
