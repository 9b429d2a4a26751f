"""Which variable to decide next and how: MiniZinc's `int_search` annotations, by their names.

The search branches in two (Gecode's and MiniCP's *two-way branching*): a decision `x = v`
on the left, its negation `x != v` on the right; `indomain_split` decides `x <= m | x > m`.
A variable already fixed is never chosen; ties go to the first variable in input order, as
in Gecode. The random orders draw from one generator seeded by `seed`, so a run repeats.

>>> from queens.models import NQueens, lower
>>> from queens.solvers.learn.viewpoint import build
>>> brancher = Brancher(build(lower(NQueens(4))), "first_fail", "indomain_median", seed=0)
>>> decision = brancher.next([0b1111, 0b0101, 0b1110, 0b1111])
>>> decision.text(["q[0]", "q[1]", "q[2]", "q[3]"]), decision.negation().text(["q[0]", "q[1]", "q[2]", "q[3]"])
('q[1] = 0', 'q[1] != 0')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from queens.models import Unsupported
from queens.solvers.learn.constraints import Constraint
from queens.solvers.learn.domains import highest, lowest, up_to, values
from queens.solvers.learn.viewpoint import Problem

VARIABLE_ORDERS: dict[str, str] = {
    "input_order": "the first variable not yet fixed",
    "first_fail": "the variable with the fewest values left",
    "smallest": "the variable with the smallest value left",
    "largest": "the variable with the largest value left",
    "dom_w_deg": "the smallest domain size over weighted degree (each constraint weighs 1 + its failures)",
    "random": "a variable not yet fixed, at random",
}
VALUE_ORDERS: dict[str, str] = {
    "indomain_min": "x = its smallest value | x != it",
    "indomain_max": "x = its largest value | x != it",
    "indomain_median": "x = its median value (the smaller of the two middle ones) | x != it",
    "indomain_split": "x <= (min + max) / 2 | x > (min + max) / 2",
    "indomain_random": "x = one of its values at random | x != it",
}
_NEGATION = {"=": "!=", "!=": "=", "<=": ">", ">": "<="}


@dataclass(frozen=True)
class Decision:
    """`x op value`: what one branch of the tree adds (x = 3, x != 3, x <= 4, x > 4)."""

    var: int
    op: str
    value: int

    def keep(self, mask: int) -> int:
        """The values of `mask` this decision keeps."""
        if self.op == "=":
            return mask & 1 << self.value
        if self.op == "!=":
            return mask & ~(1 << self.value)
        if self.op == "<=":
            return mask & up_to(self.value)
        return mask & ~up_to(self.value)

    def negation(self) -> Decision:
        return Decision(self.var, _NEGATION[self.op], self.value)

    def text(self, names: list[str]) -> str:
        return f"{names[self.var]} {self.op} {self.value}"


def check_orders(var: str, val: str) -> None:
    if var not in VARIABLE_ORDERS:
        raise Unsupported(f"unknown variable order {var!r}; choose from {', '.join(VARIABLE_ORDERS)}")
    if val not in VALUE_ORDERS:
        raise Unsupported(f"unknown value order {val!r}; choose from {', '.join(VALUE_ORDERS)}")


class Brancher:
    """The next decision at a node, by one variable order and one value order. Keeps the
    constraints' failure weights for dom/wdeg (`failed`) and the seeded generator."""

    def __init__(self, problem: Problem, var: str, val: str, seed: int = 0) -> None:
        check_orders(var, val)
        self.var_order, self.val_order = var, val
        self.rng = random.Random(seed)
        self.weights = [1] * len(problem.constraints)
        self.constraints_of: list[list[Constraint]] = [[] for _ in problem.names]
        for constraint in problem.constraints:
            for v in constraint.variables:
                self.constraints_of[v].append(constraint)

    def failed(self, constraint: Constraint | None) -> None:
        """A failure caused by `constraint`: it weighs one more for dom/wdeg."""
        if constraint is not None:
            self.weights[constraint.index] += 1

    def next(self, dom: list[int]) -> Decision | None:
        """The left decision at a node whose domains are `dom`; None when every variable is
        fixed (a solution)."""
        var = self.variable(dom)
        return None if var is None else self.value(var, dom[var])

    def variable(self, dom: list[int]) -> int | None:
        open_ = [v for v, mask in enumerate(dom) if mask & (mask - 1)]
        if not open_:
            return None
        order = self.var_order
        if order == "input_order":
            return open_[0]
        if order == "first_fail":
            return min(open_, key=lambda v: dom[v].bit_count())
        if order == "smallest":
            return min(open_, key=lambda v: lowest(dom[v]))
        if order == "largest":
            return min(open_, key=lambda v: -highest(dom[v]))
        if order == "dom_w_deg":
            return min(open_, key=lambda v: dom[v].bit_count() / self._weighted_degree(v, dom))
        return self.rng.choice(open_)

    def _weighted_degree(self, var: int, dom: list[int]) -> float:
        """The weights of `var`'s constraints that still have another variable open (a
        variable whose constraints are all decided comes last)."""
        total = sum(self.weights[c.index] for c in self.constraints_of[var]
                    if any(v != var and dom[v] & (dom[v] - 1) for v in c.variables))
        return total or 1e-9

    def value(self, var: int, mask: int) -> Decision:
        order = self.val_order
        if order == "indomain_split":
            return Decision(var, "<=", (lowest(mask) + highest(mask)) // 2)
        if order == "indomain_min":
            return Decision(var, "=", lowest(mask))
        if order == "indomain_max":
            return Decision(var, "=", highest(mask))
        left = values(mask)
        if order == "indomain_median":
            return Decision(var, "=", left[(len(left) - 1) // 2])
        return Decision(var, "=", self.rng.choice(left))
