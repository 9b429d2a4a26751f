"""The search: depth first, two-way branching, propagation at every node, every node counted.

At each node the engine

1. applies the decision that leads there (`x = v` on the left, `x != v` on the right);
2. propagates to the fixpoint (`queens.solvers.learn.propagation`);
3. stops there if a domain ran empty (a **failure**) or every variable is fixed (a
   **solution**), and otherwise branches on the next decision (`queens.solvers.learn.orders`):
   the left child first, then the right one.

Going back up is undoing the trail down to the mark taken at the node (`Store.undo`), so each
node starts from its parent's domains. The effort is counted as Gecode and MiniZinc name it:
`nodes` (every node, the root included), `failures`, `solutions`, `propagations` (propagator
runs) and `peakDepth` (the deepest node's distance from the root: the most decisions on one
path). Nodes and failures are Gecode's to the digit on the same model and propagation
(docs/search-strategies.md); propagations and peakDepth are not: Gecode runs its propagators
in its own order, and its peakDepth counts the choices on its stack, which its recomputation
trims. Nothing here is random unless a random order is asked, and that is seeded: a run
repeats to the digit.

>>> from queens.models import NQueens, lower
>>> from queens.solvers.learn.viewpoint import build
>>> engine = Engine(build(lower(NQueens(4))), Strategy("input_order", "indomain_min", "forward"))
>>> list(engine.solutions())
[((0, 1), (1, 3), (2, 0), (3, 2)), ((0, 2), (1, 0), (2, 3), (3, 1))]
>>> engine.effort.stats()
{'nodes': 11, 'failures': 4, 'solutions': 2, 'propagations': 157, 'peakDepth': 4}
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from queens.models import Placement, TimeLimit
from queens.solvers.learn.constraints import Constraint
from queens.solvers.learn.domains import Store
from queens.solvers.learn.orders import Brancher, Decision, check_orders
from queens.solvers.learn.propagation import Propagation, check_level
from queens.solvers.learn.viewpoint import Problem

CLOCK_EVERY = 256
"""Nodes between two looks at the clock (a deadline is checked that often)."""


@dataclass(frozen=True)
class Strategy:
    """How to search: MiniZinc's variable and value orders, a propagation level, a seed."""

    var: str = "input_order"
    val: str = "indomain_min"
    propagate: str = "forward"
    seed: int = 0

    def check(self) -> None:
        """Refuse an unknown name (Unsupported), before any work."""
        check_orders(self.var, self.val)
        check_level(self.propagate)


@dataclass
class Effort:
    """What a search did, counted as MiniZinc's statistics name it (see the module docstring)."""

    nodes: int = 0
    failures: int = 0
    solutions: int = 0
    propagations: int = 0
    peak_depth: int = 0

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "failures": self.failures, "solutions": self.solutions,
                "propagations": self.propagations, "peakDepth": self.peak_depth}


class Listener(Protocol):
    """Who follows the search node by node (the tree, the step-by-step trace); it is the
    store's `Watcher` too, so it also hears each value removed."""

    def opened(self, node: int, parent: int | None, decision: Decision | None, depth: int) -> None:
        """Node `node` is reached from `parent` by `decision` (None, None: the root)."""

    def closed(self, node: int, status: str, dom: list[int]) -> None:
        """Propagation at `node` is done: `status` is failure, solution or branch; `dom` the
        domains it left."""

    def removed(self, var: int, lost: int, left: int, by: Constraint | None) -> None: ...

    def wiped_out(self, var: int, by: Constraint | None) -> None: ...


def _deep_enough(problem: Problem) -> None:
    """Let Python's stack hold the deepest path of left branches: one a variable for `x = v`, up
    to log2 of the values for `x <= m` (a 40 x 40 Boolean board nests 1,600 generators)."""
    deepest = sum(max(1, mask.bit_length()).bit_length() for mask in problem.domains)
    if sys.getrecursionlimit() < deepest + 1000:
        sys.setrecursionlimit(deepest + 1000)


class _Limit(Exception):
    """A node or failure limit reached: the search stops where it is, without an error."""


class Engine:
    """One search over one `Problem` by one `Strategy`. `solutions()` yields each solution's
    placement lazily; `effort` counts as it goes; `complete` says whether the whole tree was
    explored (False when a node or failure limit stopped it, as Gecode's -node and -fail do:
    the search stops once the count passes the limit)."""

    def __init__(self, problem: Problem, strategy: Strategy, *, listener: Listener | None = None,
                 deadline: float | None = None, fail_limit: int | None = None,
                 node_limit: int | None = None) -> None:
        strategy.check()
        self.problem, self.strategy, self.listener = problem, strategy, listener
        self.deadline, self.fail_limit, self.node_limit = deadline, fail_limit, node_limit
        self.propagation = Propagation(strategy.propagate, problem)
        self.brancher = Brancher(problem, strategy.var, strategy.val, strategy.seed)
        self.store = Store(problem.domains, listener)
        self.effort = Effort()
        self.complete = False
        _deep_enough(problem)

    def solutions(self) -> Iterator[Placement]:
        """Every solution in the order the search meets them (with a limit, those found
        before it)."""
        try:
            yield from self._subtree(None, None, 0)
        except _Limit:
            return
        finally:
            self.effort.propagations = self.propagation.propagations
        self.complete = True

    def _subtree(self, parent: int | None, decision: Decision | None, depth: int) -> Iterator[Placement]:
        """The node reached from `parent` by `decision`, and all below it. Only left branches
        recurse: the right branch is the next turn of the loop, so Python's stack grows with
        the left decisions on the path (at most one per variable and value), never with a run
        of right branches."""
        store = self.store
        while True:
            node = self._open(parent, decision, depth)
            ok = self._propagate(decision)
            choice = self.brancher.next(store.dom) if ok else None
            if ok and choice is None:
                ok = self.propagation.leaf(store)
            if not ok:
                self._close(node, "failure")
                return
            if choice is None:
                self._close(node, "solution")
                yield self.problem.placement(store.dom)
                return
            self._close(node, "branch")
            mark = store.mark()
            yield from self._subtree(node, choice, depth + 1)
            store.undo(mark)
            parent, decision, depth = node, choice.negation(), depth + 1

    def _open(self, parent: int | None, decision: Decision | None, depth: int) -> int:
        effort = self.effort
        node = effort.nodes
        effort.nodes += 1
        effort.peak_depth = max(effort.peak_depth, depth)
        if self.node_limit is not None and effort.nodes > self.node_limit:
            raise _Limit
        if self.deadline is not None and not node % CLOCK_EVERY and time.monotonic() > self.deadline:
            raise TimeLimit("teaching: time limit reached", partial=effort.solutions)
        if self.listener is not None:
            self.listener.opened(node, parent, decision, depth)
        return node

    def _propagate(self, decision: Decision | None) -> bool:
        """The decision applied and propagated (the root: every constraint posted once)."""
        store, propagation = self.store, self.propagation
        if decision is None:
            return propagation.root(store)
        var = decision.var
        return store.narrow(var, decision.keep(store.dom[var]), None) and propagation.fixpoint(store)

    def _close(self, node: int, status: str) -> None:
        effort = self.effort
        if status == "failure":
            effort.failures += 1
            self.brancher.failed(self.propagation.culprit)
        elif status == "solution":
            effort.solutions += 1
        if self.listener is not None:
            self.listener.closed(node, status, self.store.dom)
        if status == "failure" and self.fail_limit is not None and effort.failures > self.fail_limit:
            raise _Limit
