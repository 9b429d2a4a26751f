"""Tools for learners, written to be read; never on a fast path, never picked by the router unasked.

- the **teaching engine**, a small finite-domain solver: `search(puzzle, var=..., val=...,
  propagate=..., all=..., seed=..., tree=...)` runs one search with MiniZinc's orders and a
  propagation level and returns the verified answer with its effort and its search tree.
  Its parts, one idea each: `domains` (bit-set domains and the trail), `viewpoint` (the
  variables and constraints of a model), `constraints` (their propagation rules),
  `propagation` (the levels and the fixpoint loop), `orders` (variable and value orders),
  `engine` (two-way branching depth-first search), `tree` and `tree_drawing` (the search
  tree and its pictures), `steps` (propagation step by step), `teaching` (the backend
  `teaching` and `search`);
- the old generate-and-test replay (`trace`), which the web explorer steps through;
- how often each cell is used (`heat_map`).

>>> from queens.models import NQueens
>>> from queens.solvers.learn import search
>>> search(NQueens(8), var="first_fail", all=True).result.stats["failures"]
292
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from queens.solvers.learn.engine import Strategy
    from queens.solvers.learn.teaching import Searched, search
    from queens.solvers.learn.tree import SearchTree

__all__ = ["SearchTree", "Searched", "Strategy", "search"]

_HOME = {"search": "teaching", "Searched": "teaching", "Strategy": "engine", "SearchTree": "tree"}


def __getattr__(name: str) -> Any:
    """An entry point, from its module (imported when first asked for, as `queens.solvers` does)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
