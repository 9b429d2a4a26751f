"""The options a caller may give by name, with their types: every backend's own (its constructor's,
see `queens.solvers.registry`) and the strategies' own (processes, symmetry, seed, path, n).

The router passes them on as keyword arguments, so they are a TypedDict: mypy checks each `**options`
against the function it reaches, where a `dict[str, object]` would hide a clash with a named argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict, cast, get_args, get_type_hints

from queens.models import numbers
from queens.models.errors import BadOption


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
    ledger: str | Path | None  # the native counters (classes, quadrant): SQLite file of finished subproblems
    resume: bool  # the native counters: skip the subproblems the ledger holds
    dask: str | None  # the native counters: "local" or a scheduler's address


EVERY_OPTION = frozenset(Options.__optional_keys__)
"""Every option by name: what a strategy that searches nothing takes (and ignores)."""
LARGEST = {"seed": 2**64 - 1}
"""Whole-number options larger than a count may be (`queens.models.numbers.MAX_COUNT`)."""
FEWEST = {"threads": 1, "workers": 1, "processes": 1}
"""Whole-number options that need at least one (a thread, a worker, a process)."""
RENAMED = {"fast": "classes"}
"""Old names of methods and of native's counters, and the names that replaced them: the D4
symmetry-class counter was `fast`, yet `quadrant` is the fastest. An old name is refused with the
new one (`refuse_renamed`), not taken as an alias; a file stored before the rename (a ledger, a
results database) is read under the new name."""


def checked(options: Mapping[str, object]) -> Options:
    """`options` with each value of the type `Options` declares for its key, or the error naming
    the key: a whole number through `queens.models.numbers` (bounded; "8" becomes 8, 2.5 and
    2**64 are refused), a flag True or False, a name a string, a path a string or a path. A key
    `Options` does not know is left for the router, whose refusal names the strategies.

    >>> checked({"threads": "2", "unique": True})
    {'threads': 2, 'unique': True}
    >>> checked({"unique": "yes"})
    Traceback (most recent call last):
    ...
    queens.models.errors.BadOption: unique must be True or False, got 'yes'
    """
    hints = get_type_hints(Options)
    found: dict[str, object] = {}
    for key, value in options.items():
        allowed = get_args(hints[key]) or (hints[key],) if key in hints else None
        untyped = allowed is None or value is None and type(None) in allowed
        found[key] = value if untyped or allowed is None else _typed(key, value, allowed)
    return cast(Options, found)


def refuse_renamed(kind: str, name: object) -> None:
    """A usage error for a name that has been renamed (`RENAMED`), saying the new one.

    >>> refuse_renamed("method", "classes")
    >>> refuse_renamed("method", "fast")
    Traceback (most recent call last):
    ...
    queens.models.errors.BadOption: method 'fast' is now called 'classes'
    """
    if isinstance(name, str) and name in RENAMED:
        raise BadOption(f"{kind} {name!r} is now called {RENAMED[name]!r}")


def _typed(key: str, value: object, allowed: tuple[object, ...]) -> object:
    if bool in allowed:
        if not isinstance(value, bool):
            raise BadOption(f"{key} must be True or False, got {value!r}")
        return value
    if int in allowed:
        return numbers.count(value, key, minimum=FEWEST.get(key, 0), maximum=LARGEST.get(key, numbers.MAX_COUNT))
    if not isinstance(value, (str, Path) if Path in allowed else str):
        raise BadOption(f"{key} must be {'a path' if Path in allowed else 'a name (a string)'}, got {value!r}")
    return value


def search_options(options: Options) -> SearchOptions:
    """The options a backend's own entry points take (`SearchOptions`): the strategies' own
    (processes, symmetry, unique, the native counters' ledger) left out."""
    return cast(SearchOptions, {key: value for key, value in options.items()
                                if key in SearchOptions.__optional_keys__})
