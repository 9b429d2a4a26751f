"""The options a caller may give by name, with their types: every backend's own (its constructor's,
see `queens.solvers.registry`) and the strategies' own (processes, symmetry, seed, path, n).

The router passes them on as keyword arguments, so they are a TypedDict: mypy checks each `**options`
against the function it reaches, where a `dict[str, object]` would hide a clash with a named argument.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict, cast


class SearchOptions(TypedDict, total=False):
    """What `queens.solvers.solve`, `count` and `solutions` take as `**options` (`count` takes
    `processes` by name)."""

    # cpsat
    viewpoint: str | None
    workers: int | None
    presolve: bool | None
    search: str
    # sat (viewpoint above is csp's too)
    encoding: str | None
    solver: str | None  # mip's and minizinc's too
    # minizinc: the search annotation in MiniZinc's names (queens.solvers.formats.minizinc.Search)
    var: str | None
    val: str | None
    # native
    threads: int | None
    counter: str
    # strategies: completion and local search, the streaming verifier
    seed: int
    path: str | Path
    n: int | None


class Options(SearchOptions, total=False):
    """What the router (`answer`) takes as `**options` and hands to a strategy."""

    processes: int | None  # split
    symmetry: bool  # counting by enumeration: lex-leader symmetry breaking (on unless False)
    unique: bool  # counting: symmetry classes too
    ledger: str | Path | None  # the native counters (fast, quadrant): SQLite file of finished subproblems
    resume: bool  # the native counters: skip the subproblems the ledger holds
    dask: str | None  # the native counters: "local" or a scheduler's address


def search_options(options: Options) -> SearchOptions:
    """The options a backend's own entry points take (`SearchOptions`): the strategies' own
    (processes, symmetry, unique, the native counters' ledger) left out."""
    return cast(SearchOptions, {key: value for key, value in options.items()
                                if key in SearchOptions.__optional_keys__})
