"""A backend's viewpoint as a model a reader can follow: its variables and the constraints it
posts, one line per group, in the backend's own terms.

A backend that offers viewpoints (its `settings` name them: cpsat's `boolean` and `alldifferent`,
csp's `rows` and `boolean`) writes a `Viewpoint` while it builds its model, from the very
structure it posts (`queens.models.row_viewpoint.RowViewpoint` for the integer ones): the counts
are the posted ones, and nothing is written twice. `queens explain --viewpoint` prints them.

>>> from queens.models import NQueens, lower
>>> print(viewpoints(lower(NQueens(4)), "alldifferent")[0].text())
cpsat alldifferent: 4 variables, 3 constraints
  q[0..3] ∈ 0..3                         4  the column of each row's piece
  AllDifferent(q[r])      over the rows  1  columns
  AllDifferent(q[r] - r)  over the rows  1  diagonals
  AllDifferent(q[r] + r)  over the rows  1  anti-diagonals
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from queens.models import ConstraintModel, Line, LineFamily, QueensError
from queens.models.errors import BadOption
from queens.models.notation import key_text
from queens.solvers.registry import BACKENDS, get_backend

FORMULA_WIDTH = 40
"""The formulas' column in `Viewpoint.text`: a longer formula runs on, leaving the others' lines short."""


@dataclass(frozen=True)
class Group:
    """Some variables, or some constraints, written once for all: the formula, for which of
    them (`scope`), how many the backend made, and what they stand for."""

    formula: str
    scope: str
    count: int
    note: str = ""


@dataclass(frozen=True)
class Viewpoint:
    """One backend's model in one viewpoint, as built: its variables and its constraints, or
    (`refusal`) why this viewpoint cannot hold the model."""

    backend: str
    name: str
    variables: tuple[Group, ...] = ()
    constraints: tuple[Group, ...] = ()
    refusal: str = ""

    @property
    def variable_count(self) -> int:
        return sum(group.count for group in self.variables)

    @property
    def constraint_count(self) -> int:
        return sum(group.count for group in self.constraints)

    def text(self) -> str:
        """The viewpoint as `queens explain --viewpoint` prints it."""
        head = f"{self.backend} {self.name}"
        if self.refusal:
            return f"{head}: not applicable ({self.refusal})"
        groups = (*self.variables, *self.constraints)
        formula = min(FORMULA_WIDTH, max(len(g.formula) for g in groups))
        scope = max(len(g.scope) for g in groups)
        count = max(len(f"{g.count:,}") for g in groups)
        sizes = f"{_counted(self.variable_count, 'variable')}, {_counted(self.constraint_count, 'constraint')}"
        lines = [f"{head}: {sizes}"]
        lines += [f"  {g.formula:<{formula}}  {g.scope:<{scope}}  {g.count:>{count},}  {g.note}".rstrip()
                  for g in groups]
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        def rows(groups: tuple[Group, ...]) -> list[dict[str, object]]:
            return [{"formula": g.formula, "scope": g.scope, "count": g.count, "note": g.note} for g in groups]
        return {"backend": self.backend, "viewpoint": self.name, "variables": rows(self.variables),
                "constraints": rows(self.constraints), "variable_count": self.variable_count,
                "constraint_count": self.constraint_count, "refusal": self.refusal}


class Recorder:
    """A viewpoint written down while a backend builds its model: each group of constraints is
    recorded by the code that posts it, with the number the model's own size says it added
    (`sizes`: the model's variables and constraints so far), so the description cannot drift
    from the model."""

    def __init__(self, sizes: Callable[[], tuple[int, int]]) -> None:
        self.sizes = sizes
        self.variables: list[Group] = []
        self.constraints: list[Group] = []

    def declare(self, formula: str, scope: str, count: int, note: str = "") -> None:
        """Variables made in bulk, outside `posting`."""
        self.variables.append(Group(formula, scope, count, note))

    @contextmanager
    def posting(self, formula: str, scope: str, note: str = "", auxiliary: str = "") -> Iterator[None]:
        """Record what the block posts as one group of constraints, and the variables it makes on
        the way as one group of `auxiliary` variables."""
        variables, constraints = self.sizes()
        yield
        made, posted = self.sizes()
        if made > variables:
            self.declare(auxiliary, "", made - variables, f"for the {note}")
        if posted > constraints:
            self.constraints.append(Group(formula, scope, posted - constraints, note))

    def viewpoint(self, backend: str, name: str) -> Viewpoint:
        return Viewpoint(backend, name, tuple(self.variables), tuple(self.constraints))


@runtime_checkable
class Describes(Protocol):
    """A backend that writes its model as a `Viewpoint` while it builds it."""

    def describe(self, model: ConstraintModel) -> Viewpoint:
        """The model this backend builds of `model`, as a reader would write it."""


def viewpoint_settings(backend: str | None = None) -> list[tuple[str, str, dict[str, str]]]:
    """(backend, viewpoint, constructor options) for every viewpoint a registered, installed
    backend (or `backend` alone) names in its `settings`."""
    found = []
    for name in BACKENDS if backend is None else (backend,):
        try:
            settings = get_backend(name).settings
        except QueensError:
            continue  # not installed: `queens explain` lists it with its reason
        found += [(name, options["viewpoint"], options) for _, options in settings if "viewpoint" in options]
    return found


def viewpoints(model: ConstraintModel, name: str | None = None, backend: str | None = None,
               max_cells: int | None = None) -> tuple[Viewpoint, ...]:
    """Every backend's (or `backend`'s) viewpoint called `name` (None: every viewpoint), built for
    `model`; one that cannot hold the model says why, and none is built beyond `max_cells`
    cells. An unknown name, or a backend without viewpoints, is a usage error."""
    settings = viewpoint_settings(backend)
    names = sorted({viewpoint for _, viewpoint, _ in settings})
    if not names:
        having = sorted({owner for owner, _, _ in viewpoint_settings()})
        raise BadOption(f"{backend} has no viewpoints to show; {', '.join(having)} have")
    if name is not None and name not in names:
        raise BadOption(f"--viewpoint must be one of {', '.join(names)}, got {name!r}")
    shown = []
    for owner, viewpoint, options in settings:
        if name is not None and viewpoint != name:
            continue
        engine = get_backend(owner, **options)
        if max_cells is not None and len(model.cells) > max_cells:
            shown.append(Viewpoint(owner, viewpoint, refusal=f"not built: {len(model.cells):,} cells is more than "
                                                             f"{max_cells:,}; ask for a smaller board"))
        elif isinstance(engine, Describes):
            try:
                shown.append(engine.describe(model))
            except QueensError as error:
                shown.append(Viewpoint(owner, viewpoint, refusal=str(error)))
    return tuple(shown)


def _counted(count: int, thing: str) -> str:
    return f"{count:,} {thing}" + ("" if count == 1 else "s")


def domains_text(rows: Sequence[int], domains: Sequence[Sequence[int]]) -> list[tuple[str, int]]:
    """The row variables' domains, runs of rows with one domain written once: ('q[0..7] ∈ 0..7', 8).

    >>> domains_text([0, 1, 2], [(1,), (0, 1, 2), (0, 1, 2)])
    [('q[0] ∈ {1}', 1), ('q[1..2] ∈ 0..2', 2)]
    """
    runs: list[tuple[list[int], Sequence[int]]] = []
    for r, domain in zip(rows, domains, strict=True):
        if runs and runs[-1][1] == domain and runs[-1][0][-1] == r - 1:
            runs[-1][0].append(r)
        else:
            runs.append(([r], domain))
    return [(f"q[{_span(run)}] ∈ {_values(domain)}", len(run)) for run, domain in runs]


def _span(values: Sequence[int]) -> str:
    return f"{values[0]}" if len(values) == 1 else f"{values[0]}..{values[-1]}"


def _values(domain: Sequence[int]) -> str:
    """A domain: '0..7' when it has no gap and two values or more, else its values in braces."""
    if len(domain) > 1 and domain[-1] - domain[0] == len(domain) - 1:
        return _span(domain)
    return "{" + ", ".join(map(str, domain)) + "}"


def by_bounds(lines: Sequence[Line]) -> dict[tuple[int, int], list[Line]]:
    """`lines` grouped by their bounds (at least, at most), in order: one group of constraints each."""
    groups: dict[tuple[int, int], list[Line]] = {}
    for line in lines:
        groups.setdefault(line.bounds, []).append(line)
    return groups


def line_cells(family: LineFamily, variable: str = "x") -> tuple[str, str]:
    """The cells of one of `family`'s lines, and which lines: ('x[r,c] : r - c = k', 'for each k')
    for a keyed family, ('x[a], x[b]', 'for each pair') for pairs, ('x[p] : p ∈ L', 'for each
    line L') otherwise."""
    if family.key is not None:
        return f"{variable}[r,c] : {key_text(family.key)} = k", "for each k"
    if {len(line.cells) for line in family.lines} == {2}:
        return f"{variable}[a], {variable}[b]", "for each pair"
    return f"{variable}[p] : p ∈ L", "for each line L"
