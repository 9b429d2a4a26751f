"""Propagation step by step: each decision, each value removed and the constraint that removed
it, each assignment forced, the wipe-out that fails a node, each solution; with the domains
after every step, to draw on the board.

`Steps` follows an `Engine` (it is the engine's `Listener`) and keeps a list of `Step`s; a
`Step` draws itself as a text board (`board_text`) or an SVG board (`board`), where `Q` is a
piece (a variable fixed), `.` a value still possible, `x` a value removed by this very step and
`~` one removed before. `queens trace --propagate` prints them; the JSON of a step is
`Step.to_json`.

>>> from queens.models import NQueens
>>> steps = trace_steps(NQueens(4), var="input_order", val="indomain_min")
>>> [step.text for step in steps[:4]]
['node 0: the root; every constraint posted', 'node 1: decide q[0] = 0', \
'columns q[0] q[1]: q[1] loses 0', 'columns q[0] q[2]: q[2] loses 0']
>>> print(steps[1].board_text(steps.puzzle))
Q x x x
. . . .
. . . .
. . . .
>>> print(steps[7].board_text(steps.puzzle))
Q ~ ~ ~
~ ~ . .
~ . ~ .
~ . . x
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from queens.models import Cell, Puzzle
from queens.models.drawing import ATTACKED_DARK, ATTACKED_LIGHT, Board
from queens.solvers.learn.constraints import Constraint
from queens.solvers.learn.domains import fixed_value, values
from queens.solvers.learn.engine import Engine, Strategy
from queens.solvers.learn.orders import Decision
from queens.solvers.learn.propagation import posted
from queens.solvers.learn.teaching import searchable
from queens.solvers.learn.viewpoint import Problem, build

KINDS = ("root", "decision", "backtrack", "removed", "forced", "wipe-out", "solution")


@dataclass(frozen=True)
class Step:
    """One step: its `kind` (one of `KINDS`), the node it happens at, a line for a student
    (`text`), the variable and values concerned, the constraint responsible (`by`), the domains
    after it, and the (variable, value) pairs this step removed."""

    kind: str
    node: int
    text: str
    problem: Problem
    domains: tuple[int, ...]
    var: str | None = None
    values: tuple[int, ...] = ()
    by: str | None = None
    lost: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "node": self.node, "text": self.text, "var": self.var, "values": list(self.values),
                "by": self.by, "domains": {name: values(mask) for name, mask in
                                            zip(self.problem.names, self.domains, strict=True)}}

    def _marks(self) -> tuple[tuple[Cell, ...], dict[Cell, str]]:
        """The pieces (fixed variables' cells) and a mark for every other cell: '.', 'x' or '~'."""
        pieces, marks = [], {}
        lost = set(self.lost)
        for var, cells in enumerate(self.problem.cells):
            mask = self.domains[var]
            one = fixed_value(mask)
            for value, cell in cells.items():
                if value == one:
                    pieces.append(cell)
                elif mask >> value & 1:
                    marks[cell] = "."
                else:
                    marks[cell] = "x" if (var, value) in lost else "~"
        return tuple(pieces), marks

    def board_text(self, puzzle: Puzzle) -> str:
        """The board after this step (see the module docstring)."""
        pieces, marks = self._marks()
        return Board(puzzle, pieces).text(marks)

    def board(self, puzzle: Puzzle, size: int = 360) -> DomainBoard:
        """The board after this step as a picture (SVG, PNG): removed values tinted red, this
        step's crossed out."""
        pieces, marks = self._marks()
        return DomainBoard(puzzle, pieces, caption=self.text, size=size, marks=tuple(marks.items()))


@dataclass(frozen=True)
class DomainBoard(Board):
    """A `Board` whose squares show domains: a value removed is tinted as an attacked square,
    one removed by the step shown is also crossed out."""

    marks: tuple[tuple[Cell, str], ...] = ()

    def _layers(self) -> dict[Cell, Any]:
        layers = super()._layers()
        for (r, c), mark in self.marks:
            if mark in ("x", "~") and (r, c) in layers:
                fill = ATTACKED_LIGHT if (r + c) % 2 == 0 else ATTACKED_DARK
                layers[(r, c)] = replace(layers[(r, c)], fill=fill, cross=mark == "x")
        return layers


class Steps(list[Step]):
    """The steps of one search, in order (the engine's `Listener`)."""

    def __init__(self, problem: Problem, puzzle: Puzzle) -> None:
        super().__init__()
        self.problem, self.puzzle = problem, puzzle
        self.dom: list[int] = list(problem.domains)
        """The domains now: the engine's store's, once `follow` has been called."""
        self.node = 0
        self.last = -1
        self.pending: Decision | None = None

    def after(self, node: int) -> Step:
        """The last step of `node`'s decision and propagation, every value they removed marked."""
        mine = [step for step in self if step.node == node and step.kind != "backtrack"]
        return replace(mine[-1], lost=tuple(pair for step in mine for pair in step.lost))

    def follow(self, engine: Engine) -> None:
        """Read the domains from `engine`'s store (it changes them, and undoes them)."""
        self.dom = engine.store.dom

    def _add(self, kind: str, text: str, var: int | None = None, shown: tuple[int, ...] = (), by: str | None = None,
             lost: tuple[tuple[int, int], ...] = ()) -> None:
        name = None if var is None or var < 0 else self.problem.names[var]
        self.append(Step(kind, self.node, text, self.problem, tuple(self.dom), name, shown, by, lost))

    def opened(self, node: int, parent: int | None, decision: Decision | None, depth: int) -> None:
        if parent is not None and parent != self.last and decision is not None:
            self.node = parent
            self._add("backtrack", f"back to node {parent}: its other branch, {decision.text(self.problem.names)}")
        self.node, self.last = node, node
        if decision is None:
            self._add("root", "node 0: the root; every constraint posted")
        else:
            self.pending = decision

    def removed(self, var: int, lost: int, left: int, by: Constraint | None) -> None:
        gone = values(lost)
        pairs = tuple((var, value) for value in gone)
        name = self.problem.names[var]
        if by is None:
            said = "" if self.pending is None else self.pending.text(self.problem.names)
            self._add("decision", f"node {self.node}: decide {said}", var, tuple(gone), None, pairs)
        else:
            self._add("removed", f"{by.name}: {name} loses {', '.join(map(str, gone))}", var, tuple(gone), by.name,
                      pairs)
        one = fixed_value(left)
        if one is not None and (by is not None or self.pending is None or self.pending.op != "="):
            self._add("forced", f"{name} = {one} is forced (one value left)", var, (one,),
                      None if by is None else by.name)

    def wiped_out(self, var: int, by: Constraint | None) -> None:
        why = "a decision" if by is None else by.name
        if var < 0:
            self._add("wipe-out", f"{why} cannot hold any more: node {self.node} fails", var, (), why)
        else:
            self._add("wipe-out", f"{self.problem.names[var]} has no value left ({why}): node {self.node} fails",
                      var, (), why)

    def closed(self, node: int, status: str, dom: list[int]) -> None:
        if status == "solution":
            self._add("solution", f"node {node}: a solution")


def trace_steps(puzzle: Puzzle, *, var: str = "input_order", val: str = "indomain_min", propagate: str = "forward",
                seed: int = 0, solutions: int | None = 1, node_limit: int | None = None) -> Steps:
    """The steps of a search of `puzzle` until `solutions` solutions (None: every one) or
    `node_limit` nodes; the search as `queens.solvers.learn.search` runs it."""
    model = searchable(puzzle)
    problem = build(model, posted=posted(propagate))
    steps = Steps(problem, puzzle)
    engine = Engine(problem, Strategy(var, val, propagate, seed), listener=steps, node_limit=node_limit)
    steps.follow(engine)
    for found, _ in enumerate(engine.solutions(), 1):
        if solutions is not None and found >= solutions:
            break
    return steps
