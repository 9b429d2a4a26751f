"""The teaching engine as the suite sees it: a backend like any other, and `search`, its own call.

- `Teaching` is registered as the backend `teaching` (`queens solve|count -b teaching`): it
  finds, lists and counts through the engine with one fixed strategy (first fail, smallest
  value, forward checking unless its options say otherwise), and its answers are checked like
  every backend's (`queens.solvers.api`). It is slow by design, so the router never picks it
  unasked (`picked_unasked`); it takes the sizes every backend takes (counts up to 400 cells),
  a time limit being the way to stop a search too large for it.
- `search` runs one search with the strategy a student names (MiniZinc's names) and returns
  the verified answer with its effort (`Result.stats`: nodes, failures, solutions,
  propagations, peakDepth) and, when asked, the search tree (`queens.solvers.learn.tree`).

>>> from queens.models import NQueens
>>> result, tree = search(NQueens(6), var="first_fail", all=True, tree=True)
>>> result.count, result.stats["nodes"], result.stats["failures"], len(tree.nodes)
(4, 79, 36, 79)
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

from queens.models import ConstraintModel, Placement, Puzzle, TimeLimit, Unsupported, lower, verify
from queens.solvers.backend import Backend, deadline_after
from queens.solvers.learn.engine import Engine, Strategy
from queens.solvers.learn.propagation import posted
from queens.solvers.learn.tree import COLLAPSE, SearchTree
from queens.solvers.learn.viewpoint import Problem, build, refusal
from queens.solvers.result import Result, Status

MAX_SEARCH_CELLS = 2500
"""`search` takes boards up to 50 x 50 (the strategy table's n = 45 is 2,025 cells)."""


class Teaching(Backend):
    """The teaching engine (solvers/learn/engine.py) as a backend. Options: `var`, `val`,
    `propagate` (the engine's names) and `seed`; only `seed` travels through the router
    (`search_options`), the others are the engine's own (`search`, `queens search`)."""

    name = "teaching"
    picked_unasked = False
    lex_from_cells = None
    """It counts every solution: the engine posts no lex-leader chains (`refusal`)."""
    split_from_cells = None
    search_options = frozenset({"seed"})

    def __init__(self, var: str = "first_fail", val: str = "indomain_min", propagate: str = "forward",
                 seed: int = 0) -> None:
        super().__init__()
        self.strategy = Strategy(var, val, propagate, seed)
        self.strategy.check()  # an unknown name is refused when the backend is made (a bad option)

    def supports(self, model: ConstraintModel) -> str | None:
        return super().supports(model) or refusal(model)

    def worth(self, model: ConstraintModel) -> bool:
        """Asked by name, the teaching engine still leaves to another of its strategies a model
        with clauses (pieces that block lines, pawns the solver places): layout by layout, each
        a model of lines alone, is what pays (9 queens and a free pawn on 8 x 8: the whole
        model's search took minutes, the layouts take seconds)."""
        return not model.clauses

    def _problem(self, model: ConstraintModel) -> Problem:
        refused = self.supports(model)
        if refused:
            raise Unsupported(refused)
        problem = build(model, posted=posted(self.strategy.propagate))
        self.stats = {"viewpoint": problem.viewpoint, "variables": len(problem.names),
                      "constraints": len(problem.constraints)}
        return problem

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._problem(model)

    def solutions(self, model: ConstraintModel, deadline: float | None) -> Generator[Placement, None, None]:
        engine = Engine(self._problem(model), self.strategy, deadline=deadline)
        try:
            yield from engine.solutions()
        finally:
            self.stats.update(engine.effort.stats())

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        stream = self.solutions(model, deadline)
        try:
            return next(stream, None)
        finally:
            stream.close()


@dataclass(frozen=True)
class Searched:
    """What `search` returns: the answer (`result`, verified, its effort in `result.stats`) and
    the search tree when one was asked for. Unpacks as `result, tree = search(...)`; in Jupyter
    it shows the tree."""

    result: Result
    tree: SearchTree | None

    def __iter__(self) -> Iterator[Result | SearchTree | None]:
        yield self.result
        yield self.tree

    def _repr_svg_(self) -> str | None:
        return None if self.tree is None else self.tree._repr_svg_()


def searchable(puzzle: Puzzle) -> ConstraintModel:
    """The model `search` explores, or Unsupported with the reason: one satisfaction model that
    the engine's viewpoints hold (an optimum is many searches: `queens solve -b teaching`)."""
    if puzzle.copies_open:
        raise Unsupported(f"search explores one model; {puzzle.name} has open copies (a search over models)")
    if puzzle.rows * puzzle.cols > MAX_SEARCH_CELLS:
        raise Unsupported(f"search takes boards of at most {MAX_SEARCH_CELLS:,} cells; {puzzle.size_text} is larger")
    model = lower(puzzle)
    if model.minimise or model.objective is not None:
        raise Unsupported(f"search explores one satisfaction model; {puzzle.name} asks for an optimum, which is one "
                          "search per value (queens solve --backend teaching answers it)")
    refused = refusal(model)
    if refused:
        raise Unsupported(refused)
    return model


def search(puzzle: Puzzle, *, var: str = "input_order", val: str = "indomain_min", propagate: str = "forward",
           all: bool = False, seed: int = 0, tree: bool | str | Path = False,  # noqa: A002  # MiniZinc's -a
           time_limit: float | None = None, fail_limit: int | None = None, node_limit: int | None = None,
           viewpoint: str | None = None, collapse: int = COLLAPSE) -> Searched:
    """One search of `puzzle` by the teaching engine, as MiniZinc's `int_search(q, var, val)`
    with the propagation level `propagate` (`queens.solvers.learn.propagation.LEVELS`): the
    first solution, or every one with `all`. Each solution is verified by the puzzle's own
    checker. `tree`: True records the search tree, a path also writes it (.json, .dot, .svg,
    .tex; failed subtrees of more than `collapse` nodes drawn as one). `fail_limit` and
    `node_limit` stop the search once passed, as Gecode's -fail and -node do (status `time
    limit`, the count a lower bound)."""
    strategy = Strategy(var, val, propagate, seed)
    strategy.check()
    model = searchable(puzzle)
    problem = build(model, viewpoint, posted=posted(propagate))
    recorder = SearchTree(problem) if tree is not False else None
    engine = Engine(problem, strategy, listener=recorder, deadline=deadline_after(time_limit),
                    fail_limit=fail_limit, node_limit=node_limit)
    start = time.perf_counter()
    found: list[Placement] = []
    try:
        for placement in engine.solutions():
            found.append(verify(puzzle, placement))
            if not all:
                break
    except TimeLimit:
        pass
    stats: dict[str, int | float | str] = {**engine.effort.stats(), "viewpoint": problem.viewpoint,
                                            "variables": len(problem.names), "constraints": len(problem.constraints),
                                            "var": var, "val": val, "propagate": propagate, "seed": seed}
    result = Result("teaching", _status(found, engine.complete, all), tuple(found),
                    count=len(found) if all else None, wall_time=time.perf_counter() - start, stats=stats,
                    puzzle=puzzle)
    if recorder is not None:
        recorder.stats = engine.effort.stats()
        recorder.strategy = {"var": var, "val": val, "propagate": propagate, "seed": seed}
        recorder.complete = engine.complete
        if not isinstance(tree, bool):
            recorder.save(tree, collapse)
    return Searched(result, recorder)


def _status(found: list[Placement], complete: bool, every: bool) -> Status:
    if every:
        return Status.COMPLETE if complete else Status.LIMIT
    if found:
        return Status.SOLVED
    return Status.INFEASIBLE if complete else Status.LIMIT
