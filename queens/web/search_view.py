"""The explorer's search view: the teaching engine (solvers/learn/) run on the board the page shows.

What a CP course turns on, put beside the board a student can also solve and count on:

- `search_view`: one search with MiniZinc's names for the variable order, the value order and
  the propagation level, from the board's givens. The reply holds the search tree as the
  engine draws it (`queens.solvers.learn.tree_drawing.svg`: CP-Profiler's colours, failed
  subtrees collapsed, the paths to the solutions bold, each node a `data-node` the page
  clicks), the tree's JSON (`SearchTree.to_json`: every node's domains after propagation), the
  cell on the page's canvas of each variable's values (so the page shades a node's domains on
  the board), and the steps of propagation (`queens.solvers.learn.steps`: each value removed
  and the constraint that removed it, each value forced, each wipe-out) to step through;
- `ladder`: the node counts of one model solved by generate and test, backtracking, forward
  checking and arc consistency (the engine's own levels, every solution, input order, smallest
  value) and by the native search (its placements), as docs/ladder.md tells it.

Both are for small boards only: the engine is written to be read, not to be fast. A search
stops at `MAX_TREE_NODES` nodes (the reply says so), a rung of the ladder at `LADDER_NODES`
(shown as a lower bound), the steps are cut at `MAX_STEPS`; a board whose domains the tree
does not keep (`queens.solvers.learn.tree.DOMAINS_UP_TO` values) is refused with the reason,
since its nodes could not be shown on it. The server runs both in its worker pool, under its
time limit.

>>> from queens.models import NQueens
>>> from queens.models.drawing import Canvas
>>> reply = search_view(NQueens(4), Canvas(4, 4), Settings(all=True), 10.0)
>>> reply["stats"]["solutions"], sum(node["status"] == "solution" for node in reply["tree"]["nodes"])
(2, 2)
>>> reply["cells"]["q[1]"][3]
[3, 1, 3]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from queens.models import Puzzle, QueensError
from queens.models.drawing import Canvas
from queens.solvers.api import count
from queens.solvers.learn.engine import Strategy
from queens.solvers.learn.orders import VALUE_ORDERS, VARIABLE_ORDERS
from queens.solvers.learn.propagation import LEVELS
from queens.solvers.learn.steps import trace_steps
from queens.solvers.learn.teaching import search
from queens.solvers.learn.tree import COLLAPSE, DOMAINS_UP_TO
from queens.solvers.learn.tree_drawing import svg
from queens.solvers.learn.viewpoint import Problem
from queens.web.schema import BadRequest, Json

MAX_TREE_NODES = 5_000
"""Nodes a search in the explorer explores at most: every node's domains travel to the page."""
MAX_STEPS = 2_000
"""Steps of propagation sent at most (each with the domains after it)."""
LADDER_NODES = 100_000
"""Nodes each rung of the ladder explores at most: generate and test on 6-queens takes 93,311,
on 7-queens 1.6 million (its count is then shown as a lower bound)."""
RUNGS = {"generate": "generate and test", "none": "backtracking", "forward": "forward checking",
         "arc": "arc consistency"}
"""The ladder's rungs from the engine's own levels, weakest first (docs/ladder.md)."""


def choices() -> Json:
    """The names the page offers, from the engine's own tables (MiniZinc's names), so the page
    keeps no list of its own."""
    return {"var": list(VARIABLE_ORDERS), "val": list(VALUE_ORDERS), "propagate": list(LEVELS),
            "max_nodes": MAX_TREE_NODES}


@dataclass(frozen=True)
class Settings:
    """One search as the page asks for it: MiniZinc's orders, a propagation level, every
    solution or the first, the seed of the random orders."""

    var: str = "input_order"
    val: str = "indomain_min"
    propagate: str = "forward"
    all: bool = False
    seed: int = 0

    @classmethod
    def of(cls, request: Json) -> Settings:
        """The settings a request names (the engine's defaults for those it leaves out)."""
        found: dict[str, Any] = {}
        for key in ("var", "val", "propagate"):
            if key in request:
                if not isinstance(request[key], str):
                    raise BadRequest(f"'{key}' must be a name, got {request[key]!r}")
                found[key] = request[key]
        if "all" in request:
            if not isinstance(request["all"], bool):
                raise BadRequest(f"'all' must be true or false, got {request['all']!r}")
            found["all"] = request["all"]
        if "seed" in request:
            seed = request["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 31:
                raise BadRequest(f"'seed' must be a whole number from 0 to 2^31 - 1, got {seed!r}")
            found["seed"] = seed
        settings = cls(**found)
        try:
            Strategy(settings.var, settings.val, settings.propagate, settings.seed).check()
        except QueensError as error:  # an unknown name: the engine's message lists the names
            raise BadRequest(str(error)) from None
        return settings


def _canvas_cells(problem: Problem, canvas: Canvas) -> dict[str, list[list[int]]]:
    """For each variable, [value, row, col]: the canvas square its value puts a piece on (a
    Boolean variable's 1; its 0 puts none)."""
    cells: dict[str, list[list[int]]] = {}
    for name, by_value in zip(problem.names, problem.cells, strict=True):
        cells[name] = [[value, *canvas.position(cell)] for value, cell in sorted(by_value.items())
                       if isinstance(cell, tuple) and len(cell) in (2, 3) and all(isinstance(v, int) for v in cell)]
    return cells


def search_view(puzzle: Puzzle, canvas: Canvas, settings: Settings, time_limit: float) -> Json:
    """The search of `puzzle` by `settings`: its tree (SVG and JSON), each variable's cells on
    `canvas`, and its steps (see the module docstring); a puzzle the engine cannot search, or
    whose nodes' domains it would not keep, is refused (BadRequest) with the reason."""
    try:
        searched = search(puzzle, var=settings.var, val=settings.val, propagate=settings.propagate,
                          all=settings.all, seed=settings.seed, tree=True, time_limit=time_limit,
                          node_limit=MAX_TREE_NODES)
    except QueensError as error:  # the engine's refusal (an optimum, attack counts, a board too large)
        raise BadRequest(f"the search view: {error}") from None
    result, tree = searched.result, searched.tree
    assert tree is not None  # asked for
    if not tree.keep_domains:
        size = sum(mask.bit_count() for mask in tree.problem.domains)
        raise BadRequest(f"the search view shows each node's domains on the board, which the engine keeps for at "
                         f"most {DOMAINS_UP_TO} values; this board's {tree.problem.viewpoint} viewpoint has {size:,}")
    stats = {key: result.stats[key] for key in ("nodes", "failures", "solutions", "propagations", "peakDepth")}
    return {"status": result.status.value, "message": _said(result.stats, tree.complete, settings),
            "stats": stats, "viewpoint": tree.problem.viewpoint, "complete": tree.complete,
            "tree": tree.to_json(), "svg": svg(tree, COLLAPSE), "collapse": COLLAPSE,
            "cells": _canvas_cells(tree.problem, canvas), **_steps(puzzle, settings)}


def _said(stats: dict[str, Any], complete: bool, settings: Settings) -> str:
    """One line for the page: the strategy, the effort, and whether the search was cut short."""
    what = "every solution" if settings.all else "the first solution"
    found = stats["solutions"]
    line = (f"{settings.var}, {settings.val}, {settings.propagate} ({what}): {stats['nodes']:,} nodes, "
            f"{stats['failures']:,} failures, {found:,} solution{'' if found == 1 else 's'}")
    if not complete and (settings.all or not found):
        stop = (f"the explorer explores at most {MAX_TREE_NODES:,} nodes" if stats["nodes"] > MAX_TREE_NODES
                else "the time limit")
        line += f" (stopped by {stop}: the counts are lower bounds)"
    return line


def _steps(puzzle: Puzzle, settings: Settings) -> Json:
    """The steps of the same search (it repeats to the digit: the random orders are seeded), the
    domains after each as lists by variable, cut at `MAX_STEPS`."""
    steps = trace_steps(puzzle, var=settings.var, val=settings.val, propagate=settings.propagate, seed=settings.seed,
                        solutions=None if settings.all else 1, node_limit=MAX_TREE_NODES)
    shown = [step.to_json() for step in steps[:MAX_STEPS]]
    return {"steps": shown, "steps_truncated": len(steps) > MAX_STEPS}


def ladder(puzzle: Puzzle, time_limit: float) -> Json:
    """Every solution of `puzzle` found by each rung (`RUNGS`, then the native search): the
    nodes each explored, its solutions, and whether it finished (a rung stopped at
    `LADDER_NODES` or by the time limit gives its counts as lower bounds); a rung that cannot
    take the puzzle says why."""
    end = time.monotonic() + time_limit
    rungs = [_rung(puzzle, level, name, end) for level, name in RUNGS.items()]
    rungs.append(_native_rung(puzzle, end))
    return {"rungs": rungs, "node_limit": LADDER_NODES,
            "message": f"{puzzle.name}: every solution, one rung after another (input order, smallest value)"}


def _rung(puzzle: Puzzle, level: str, name: str, end: float) -> Json:
    left = end - time.monotonic()
    if left <= 0:
        return {"level": level, "name": name, "refused": "the time limit ran out before this rung"}
    try:
        result = search(puzzle, propagate=level, all=True, time_limit=left, node_limit=LADDER_NODES).result
    except QueensError as error:
        return {"level": level, "name": name, "refused": str(error)}
    return {"level": level, "name": name, "nodes": result.stats["nodes"], "failures": result.stats["failures"],
            "solutions": result.count, "complete": result.status.value == "complete", "unit": "nodes"}


def _native_rung(puzzle: Puzzle, end: float) -> Json:
    """The native search (solvers/native/): one placement per node, only on a square no piece
    attacks, in C; its nodes are its placements (the root not counted)."""
    name = "native bit masks"
    left = end - time.monotonic()
    if left <= 0:
        return {"level": "native", "name": name, "refused": "the time limit ran out before this rung"}
    try:
        result = count(puzzle, "native", counter="simple", symmetry=False, split=False, time_limit=left)
    except QueensError as error:
        return {"level": "native", "name": name, "refused": str(error)}
    nodes = result.stats.get("nodes")
    if not isinstance(nodes, int):
        return {"level": "native", "name": name, "refused": f"the native search counted by {result.method}, "
                                                             "which reports no placements"}
    return {"level": "native", "name": name, "nodes": nodes, "solutions": result.count,
            "complete": result.status.value == "complete", "unit": "placements"}
