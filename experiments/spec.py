"""Experiment specs: a TOML grid of families x sizes x backends x methods x options x symmetry x task
x repetitions.

A spec names the grid once and the runner expands it into single runs. Every key is checked
here, so a typo is one `MalformedInput` naming the file and the key, not a grid that silently
runs with defaults. A spec reads like this (experiments/specs/ holds real ones):

    name = "tiny"
    repetitions = 2
    time_limit = 10         # seconds per run
    memory_limit = 2048     # MiB of address space per run

    [[grid]]
    task = "count"          # solve | count | minimise
    families = ["nqueens"]
    sizes = [5, 6]
    backends = ["native", "sat"]
    methods = ["search", "split"]   # the strategies' methods (queens --method): search, split, random, ...
    processes = [1]         # with split: how many processes
    symmetry = [false, true]        # count, minimise: lex-leader symmetry breaking off / on
    [grid.options.sat]
    encoding = ["seqcounter", "pairwise"]

Each `[grid.options.BACKEND]` table maps an option of that backend to the values to try; the
runs take every combination. A backend without a table runs with its defaults. Each backend
runs each method that it has for the task (`queens.solvers.routing.router.candidates`): a pair
that exists nowhere is refused here, and so is `symmetry` for a strategy that cannot switch it
(a counter that does not enumerate has no chains to post). Without `symmetry` every backend
breaks symmetry where it measured that it pays, and the report says which runs did.
Local search is a cell like any other: backend "native", method "random", task "solve"; its
repetition number is its seed, so repetitions are different walks.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from types import EllipsisType
from typing import Any, TypedDict, TypeVar

from queens.models import MalformedInput, Puzzle, QueensError
from queens.models.errors import BadOption
from queens.models.families import FAMILIES, of_size
from queens.solvers import BACKENDS, get_backend
from queens.solvers.backend import Task
from queens.solvers.routing.router import candidates
from queens.solvers.routing.strategy import Subject

_TOP_KEYS = {"name", "description", "repetitions", "time_limit", "memory_limit", "report", "grid"}
_GRID_KEYS = {"task", "families", "sizes", "backends", "options", "methods", "processes", "symmetry",
              "repetitions", "time_limit", "memory_limit"}
_TASKS = {"solve": Task.SOLVE, "count": Task.COUNT, "minimise": Task.OPTIMISE}
"""The router's task behind each of a spec's tasks."""

Option = tuple[str, bool | int | float | str]
Table = dict[str, object]
"""A TOML table as `tomllib` reads it: each value is checked (`_typed`, `_list`) before use."""
T = TypeVar("T")
D = TypeVar("D")


class _Defaults(TypedDict):
    """The spec's top-level settings, which a grid may override."""

    repetitions: int
    time_limit: float
    memory_limit: int


@dataclass(frozen=True)
class Run:
    """One solver call of the grid: what the runner executes in a child process and stores."""

    spec: str
    task: str
    family: str
    n: int
    backend: str
    options: tuple[Option, ...] = ()
    method: str = "search"
    processes: int | None = None
    symmetry: bool | None = None
    """Lex-leader symmetry breaking asked on or off; None: the backend's own choice."""
    repetition: int = 0
    time_limit: float = 60.0
    memory_limit: int = 4096

    @property
    def key(self) -> str:
        """Identifies the run across invocations: a finished key is never run again."""
        return json.dumps([self.spec, self.task, self.family, self.n, self.backend, list(self.options),
                           self.method, self.processes, self.symmetry, self.repetition, self.time_limit,
                           self.memory_limit])

    @property
    def configuration(self) -> str:
        """The backend and its settings, as a report labels a line: 'sat encoding=ladder symmetry=off'."""
        parts = [self.backend, *(f"{k}={v}" for k, v in self.options)]
        if self.method == "split":
            parts.append(f"split×{self.processes or 'all'}")
        elif self.method != "search":
            parts.append(self.method)
        if self.symmetry is not None:
            parts.append(f"symmetry={'on' if self.symmetry else 'off'}")
        return " ".join(parts)

    def puzzle(self) -> Puzzle:
        return of_size(self.family, self.n)

    def to_json(self) -> dict[str, object]:
        return {"spec": self.spec, "task": self.task, "family": self.family, "n": self.n,
                "backend": self.backend, "options": dict(self.options), "method": self.method,
                "processes": self.processes, "symmetry": self.symmetry, "repetition": self.repetition,
                "time_limit": self.time_limit, "memory_limit": self.memory_limit}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Run:
        """The run `to_json` wrote, read back from JSON (whose values are whatever it parsed)."""
        return cls(**{**data, "options": tuple(sorted(data["options"].items()))})


@dataclass(frozen=True)
class Spec:
    name: str
    path: Path
    text: str
    report: Path | None = None
    runs: tuple[Run, ...] = field(default=())


def load(path: Path) -> Spec:
    """Parse and check a spec file; `MalformedInput` names the file and the key at fault."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise MalformedInput(f"{path}: cannot read the spec ({error.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MalformedInput(f"{path}: not valid TOML: {error}") from None
    where = str(path)
    _known(data, _TOP_KEYS, where)
    name = _typed(data, "name", str, where, default=path.stem)
    defaults: _Defaults = {
        "repetitions": _typed(data, "repetitions", int, where, default=1, positive=True),
        "time_limit": float(_typed(data, "time_limit", (int, float), where, default=60, positive=True)),
        "memory_limit": _typed(data, "memory_limit", int, where, default=4096, positive=True),
    }
    grids = data.get("grid")
    if not isinstance(grids, list) or not grids or not all(isinstance(g, dict) for g in grids):
        raise MalformedInput(f"{where}: needs at least one [[grid]] table")
    runs: list[Run] = []
    for index, grid in enumerate(grids):
        runs += _expand(name, grid, defaults, f"{where}: grid {index + 1}")
    keys = [run.key for run in runs]
    if len(set(keys)) != len(keys):
        raise MalformedInput(f"{where}: two grids ask for the same run; each run must appear once")
    report = data.get("report")
    if report is not None and not isinstance(report, str):
        raise MalformedInput(f"{where}: key 'report' must be a directory path (a string)")
    _typed(data, "description", str, where, default="")  # for the reader of the file: checked, not kept
    return Spec(name, path, text, None if report is None else Path(report), tuple(runs))


def _check_families(families: Sequence[str], n: int, task: str, where: str) -> None:
    """Each family is registered, built from n alone, and minimises exactly when the task does."""
    for family in families:
        if family not in FAMILIES:
            raise MalformedInput(f"{where}: key 'families': unknown family {family!r}; "
                                 f"choose from {', '.join(FAMILIES)}")
        minimises = _sized(family, n, where).pieces is None
        if minimises != (task == "minimise"):
            raise MalformedInput(f"{where}: family {family!r} " + ("minimises: use task = \"minimise\""
                                 if minimises else f"has a fixed number of pieces: task {task!r}, not minimise"))


def _sized(family: str, n: int, where: str) -> Puzzle:
    """The family's puzzle from n alone; a family that needs more (pre-placed queens) is refused."""
    try:
        puzzle = of_size(family, n)
    except QueensError as error:
        raise MalformedInput(f"{where}: family {family!r} is not built from n alone ({error})") from None
    refusal = Subject(puzzle).modelled
    if refusal:
        raise MalformedInput(f"{where}: family {family!r} has no single model to measure a backend on ({refusal})")
    return puzzle


def _expand(spec: str, grid: Table, defaults: _Defaults, where: str) -> list[Run]:
    _known(grid, _GRID_KEYS, where)
    task = _typed(grid, "task", str, where)
    if task not in _TASKS:
        raise MalformedInput(f"{where}: key 'task' must be one of {', '.join(_TASKS)}, got {task!r}")
    families = _list(grid, "families", str, where)
    sizes = _list(grid, "sizes", int, where)
    if any(n <= 0 for n in sizes):
        raise MalformedInput(f"{where}: key 'sizes' must hold positive integers")
    _check_families(families, sizes[0], task, where)
    backends = _list(grid, "backends", str, where)
    unknown = [backend for backend in backends if backend not in BACKENDS]
    if unknown:
        raise MalformedInput(f"{where}: key 'backends': unknown backend {unknown[0]!r}; "
                             f"choose from {', '.join(BACKENDS)}")
    methods = _list(grid, "methods", str, where, default=["search"])
    processes = _list(grid, "processes", int, where, default=[None])
    if "split" not in methods and processes != [None]:
        raise MalformedInput(f"{where}: key 'processes' applies to the split method only")
    symmetries = _list(grid, "symmetry", bool, where, default=[None])
    if task == "solve" and symmetries != [None]:
        raise MalformedInput(f"{where}: key 'symmetry' applies to counting and to an optimum (task count or "
                             "minimise); one solution of a puzzle without a goal is searched without chains")
    repetitions = _typed(grid, "repetitions", int, where, default=defaults["repetitions"], positive=True)
    time_limit = float(_typed(grid, "time_limit", (int, float), where, default=defaults["time_limit"],
                              positive=True))
    memory_limit = _typed(grid, "memory_limit", int, where, default=defaults["memory_limit"], positive=True)
    options = grid.get("options", {})
    if not isinstance(options, dict):
        raise MalformedInput(f"{where}: key 'options' must be a table of [grid.options.BACKEND] tables")
    for backend in options:
        if backend not in backends:
            raise MalformedInput(f"{where}: key 'options.{backend}' names a backend the grid does not run")
    runs = []
    for backend, method in product(backends, methods):
        _check_strategy(_TASKS[task], backend, method, symmetries != [None], where)
        counts = processes if method == "split" else [None]  # without split a process count means nothing
        for settings in _settings(options.get(backend, {}), f"{where}: key 'options.{backend}'"):
            _check_backend(backend, settings, where)
            for family, n, count, symmetry, repetition in product(families, sizes, counts, symmetries,
                                                                  range(repetitions)):
                runs.append(Run(spec, task, family, n, backend, settings, method, count, symmetry, repetition,
                                time_limit, memory_limit))
    return runs


def _check_strategy(task: Task, backend: str, method: str, symmetry: bool, where: str) -> None:
    """`backend` has a strategy `method` for `task` (and it takes `symmetry` when the grid sets it),
    as the router would find it: a pair that exists nowhere fails before any run."""
    try:
        candidates(task, backend, method, frozenset({"symmetry"}) if symmetry else frozenset())
    except BadOption as error:
        key = "symmetry" if symmetry and "not an option" in str(error) else "methods"
        raise MalformedInput(f"{where}: key {key!r}: {error}") from None


def _settings(table: object, where: str) -> list[tuple[Option, ...]]:
    """Every combination of the option values in `table` ({} gives the defaults)."""
    if not isinstance(table, dict):
        raise MalformedInput(f"{where} must be a table of option = [values]")
    names = sorted(table)
    values = []
    for name in names:
        choices = table[name]
        if not isinstance(choices, list) or not choices:
            raise MalformedInput(f"{where}.{name} must be a non-empty list of values")
        if not all(isinstance(v, bool | int | float | str) for v in choices):
            raise MalformedInput(f"{where}.{name} must hold plain values (strings, numbers, booleans)")
        values.append(choices)
    return [tuple(zip(names, combo, strict=True)) for combo in product(*values)]


def _check_backend(backend: str, settings: tuple[Option, ...], where: str) -> None:
    """Build the backend once with these options, so a wrong option fails before any run."""
    try:
        get_backend(backend, **dict(settings))
    except QueensError as error:
        raise MalformedInput(f"{where}: key 'options.{backend}': {error}") from None


def _known(table: Table, allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise MalformedInput(f"{where}: unknown key {unknown[0]!r}; expected one of {', '.join(sorted(allowed))}")


def _typed(table: Table, key: str, kind: type[T] | tuple[type[T], ...], where: str, *,
           default: T | EllipsisType = ..., positive: bool = False) -> T:
    """`table[key]`, checked to be of `kind` (and positive, when asked), else `default` if given."""
    if key not in table:
        if isinstance(default, EllipsisType):
            raise MalformedInput(f"{where}: missing key {key!r}")
        return default
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise MalformedInput(f"{where}: key {key!r} must be {names}, got {value!r}")
    if positive and isinstance(value, int | float) and value <= 0:
        raise MalformedInput(f"{where}: key {key!r} must be positive, got {value!r}")
    return value


def _list(table: Table, key: str, kind: type[T], where: str, *, default: list[D] | None = None) -> Sequence[T | D]:
    """`table[key]`, checked to be a non-empty list of `kind`, else `default` if given."""
    if key not in table:
        if default is None:
            raise MalformedInput(f"{where}: missing key {key!r}")
        return default
    values = table[key]
    if not isinstance(values, list) or not values:
        raise MalformedInput(f"{where}: key {key!r} must be a non-empty list")
    for value in values:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise MalformedInput(f"{where}: key {key!r} must hold {kind.__name__} values, got {value!r}")
    return values
