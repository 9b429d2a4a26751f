"""A lowered model in math notation, and what each backend really compiles it to.

Learners see the constraint model the backends read (variables, their domain, each constraint
group with how many constraints it makes, and why a group is "exactly one") next to the sizes
of the models the backends build from it: CP-SAT's proto, the CNF per cardinality encoding,
python-constraint's problem, the native bitsets. The sizes are read off models built for
real, so they cannot drift from the code.

>>> from queens.models import NQueens
>>> [(g.name, g.count) for g in describe_model(NQueens(4)).groups]
[('rows', 4), ('columns', 4), ('diagonals', 5), ('anti-diagonals', 5), ('size', 0)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from queens.models import ConstraintModel, LineFamily, Puzzle, QueensError, lower
from queens.models.armies import Army
from queens.models.notation import key_text
from queens.solvers import BACKENDS, get_backend

MAX_COMPILED_CELLS = 1024
"""Backends are built only up to 32 x 32: the pairwise CNF grows as n^3, and so does the wait."""


@dataclass(frozen=True)
class ConstraintGroup:
    """One family of constraints: its name, one formula for all of them, how many there are."""

    name: str
    formula: str
    scope: str
    count: int
    note: str = ""


@dataclass(frozen=True)
class ModelDescription:
    """The constraint model of a puzzle in words and formulas."""

    title: str
    variables: str
    variable_count: int
    groups: tuple[ConstraintGroup, ...]
    reasons: tuple[str, ...]

    @property
    def constraint_count(self) -> int:
        return sum(group.count for group in self.groups)


@dataclass(frozen=True)
class Compiled:
    """What one backend (with one setting) builds from the model: its sizes, or why it cannot."""

    backend: str
    setting: str
    sizes: dict[str, int]
    note: str = ""


@dataclass(frozen=True)
class Explanation:
    model: ModelDescription
    compiled: tuple[Compiled, ...]

    def text(self) -> str:
        """The explanation as plain text, as `queens explain` prints it."""
        m = self.model
        out = [m.title, "", "Variables", f"  {m.variables}", "", "Constraints"]
        width = max((len(g.name) for g in m.groups), default=5)
        formula_width = max((len(g.formula) for g in m.groups), default=0)
        scope_width = max((len(g.scope) for g in m.groups), default=0)
        for g in m.groups:
            count = f"{g.count:>6,}" if g.count else "     -"
            out.append(f"  {g.name:<{width}}  {g.formula:<{formula_width}}  {g.scope:<{scope_width}}  "
                       f"{count}  {g.note}".rstrip())
        out.append(f"  {'total':<{width}}  {'':<{formula_width + scope_width + 2}}  {m.constraint_count:>6,}")
        if m.reasons:
            out += ["", "Why", *(f"  {reason}" for reason in m.reasons)]
        out += ["", "What each backend compiles it to"]
        name_width = max((len(c.backend) for c in self.compiled), default=0) + 1
        for c in self.compiled:
            label = f"{c.backend:<{name_width}}{c.setting:<13}"
            body = ", ".join(f"{value:,} {key}" for key, value in c.sizes.items()) or c.note
            note = f"  ({c.note})" if c.sizes and c.note else ""
            out.append(f"  {label}{body}{note}")
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        m = self.model
        return {
            "title": m.title,
            "variables": {"text": m.variables, "count": m.variable_count},
            "groups": [{"name": g.name, "formula": g.formula, "scope": g.scope, "count": g.count, "note": g.note}
                       for g in m.groups],
            "constraints": m.constraint_count,
            "reasons": list(m.reasons),
            "compiled": [{"backend": c.backend, "setting": c.setting, "sizes": c.sizes, "note": c.note}
                         for c in self.compiled],
        }


def explain(puzzle: Puzzle) -> Explanation:
    """The model of `puzzle` in math notation and what every backend compiles it to."""
    if not puzzle.cells_are_variables:  # x[a,p]: a variable per army and cell
        described = describe_armies(puzzle)
        return Explanation(described, compile_sizes(_army_model(puzzle)))
    model = lower(puzzle)
    return Explanation(describe_model(puzzle, model), compile_sizes(model))


def _army_model(puzzle: Puzzle) -> ConstraintModel:
    """The model shown: with open copies (colouring), as many as the board's last side."""
    return lower(puzzle.with_copies(puzzle.shape[-1]) if puzzle.copies_open else puzzle)


def _bounds_text(family: LineFamily) -> str:
    bounds = {line.bounds for line in family.lines}
    if len(bounds) != 1:
        return "between its bounds"
    low, high = bounds.pop()
    return f"= {low}" if low == high else (f"≤ {high}" if low == 0 else f"∈ [{low}, {high}]")


def describe_armies(puzzle: Puzzle) -> ModelDescription:
    """The model of a puzzle with armies: x[a,p] = 1 when army a has a piece on cell p."""
    model = _army_model(puzzle)
    armies = ", ".join(f"{a}: {army.name} ({army.piece.name})" for a, army in enumerate(model_armies(puzzle)))
    variables = (f"x[a,p] ∈ {{0, 1}} for each army a and open cell p ({len(model.cells):,} in all; "
                 f"armies {armies})")
    groups = []
    for family in model.families:
        pairs = {len(line.cells) for line in family.lines} == {2}
        formula = ("x[a,p] + x[b,q] ≤ 1" if pairs and _bounds_text(family) == "≤ 1"
                   else f"Σ{{ x[a,p] : (a,p) ∈ L }} {_bounds_text(family)}")
        groups.append(ConstraintGroup(family.name, formula, "for each pair" if pairs else "for each L",
                                      len(family.lines)))
    if model.covers:
        groups.append(ConstraintGroup("covers", "Σ{ x[a,p] : p = s or a's piece on p attacks s } ≥ 1",
                                      "for each square s", len(model.covers), "domination"))
    if model.fixed:
        groups.append(ConstraintGroup("fixed", "x[a,p] = 1", "for each pre-placed piece", len(model.fixed)))
    if private := [count for count in model.counts if count.kind == "private squares"]:
        groups.append(ConstraintGroup("private squares", "x[a,p] = 1 ⇒ Σ_s [no other piece of a covers s] ≥ 1",
                                      "for each cell p, s a square p covers", len(private),
                                      f"{sum(len(c.groups) for c in private):,} groups: the other pieces that "
                                      "would cover s"))
    if model.connections:
        groups.append(ConstraintGroup("connected", "{ p : x[a,p] = 1 } is one group of neighbours", "for each group",
                                      len(model.connections), f"{sum(len(c.edges) for c in model.connections):,} "
                                      "neighbour pairs"))
    if model.size is not None and not model.size_implied:
        groups.append(ConstraintGroup("size", f"Σ x[a,p] = {model.size}", "", 1))
    groups += _tally_groups(model)
    if model.objective is not None and model.objective.tally is not None:
        groups.append(ConstraintGroup("objective", f"{model.objective.sense} #{{{model.objective.tally.name}}}", "",
                                      0, "the goal, not a constraint"))
    elif model.objective is not None:
        groups.append(ConstraintGroup("objective", f"{model.objective.sense} m, Σ_p x[a,p] = m",
                                      "for each army with the goal", 0, "the goal, not a constraint"))
    reasons = []
    caps = [army.line_cap for army in model_armies(puzzle)]
    saturated = sum(1 for f in model.families if f.name not in ("army sizes", "regions") for line in f.lines
                    if len(owners := {a for a, _ in line.cells}) == 1
                    and line.at_least == line.at_most == caps[owners.pop()])
    if puzzle.partition and saturated:
        reasons.append(f"every cell holds a piece and the armies' caps on {saturated} of their lines add up to the "
                       "line's cells: by pigeonhole each army holds exactly its cap there ('= 1', not '≤ 1')")
    if puzzle.copies_open and puzzle.copies_goal == "maximise":
        reasons.append(f"copies = maximise: shown with {len(model_armies(puzzle))} copies; the solver asks k = 1, "
                       "2, ... copies (in lex order: they are interchangeable) until one has no solution; the last "
                       "k that worked is the most")
    elif puzzle.copies_open:
        reasons.append(f"copies = minimise: shown with {len(model_armies(puzzle))} copies; the solver asks k copies "
                       "from the longest line up, the first k that works is the fewest")
    return ModelDescription(puzzle.name, variables, len(model.cells), tuple(groups), tuple(reasons))


def _tally_groups(model: ConstraintModel) -> list[ConstraintGroup]:
    """A board-wide count (attacking pairs, attacked or safe squares) as one constraint: how many
    of its terms may hold, over the whole board."""
    groups = []
    for tally in model.tallies:
        low, high = tally.least, tally.top if tally.most is None else min(tally.most, tally.top)
        bound = f"= {low}" if low == high else f"≤ {high}" if low == 0 else f"≥ {low}" if high == tally.top \
            else f"∈ [{low}, {high}]"
        groups.append(ConstraintGroup(tally.name, f"#{{{tally.name}}} {bound}", "on the whole board", 1,
                                      f"a count of {tally.top:,} terms"))
    return groups


def model_armies(puzzle: Puzzle) -> tuple[Army, ...]:
    return (puzzle.with_copies(puzzle.shape[-1]) if puzzle.copies_open else puzzle).armies


# --- the model in notation ---------------------------------------------------------------

def _family_group(family: LineFamily, cut: bool) -> ConstraintGroup:
    relation = "= 1" if family.exactly_one else "≤ 1"
    lengths = sorted({len(line.cells) for line in family.lines})
    if family.key is not None:
        formula, scope = f"Σ{{ x[r,c] : {key_text(family.key)} = k }} {relation}", "for each k"
    elif lengths == [2]:
        formula, scope = "x[a] + x[b] ≤ 1", "for each pair {a, b}"
    else:
        formula = f"Σ{{ x[r,c] : (r,c) ∈ L }} {relation}"
        scope = "for each segment L" if cut else "for each line L"
    span = f"{lengths[0]}" if len(lengths) == 1 else f"{lengths[0]}..{lengths[-1]}"
    note = f"lines of {span} cells" if lengths != [2] else "pairs one move apart"
    return ConstraintGroup(family.name, formula, scope, len(family.lines), note)


def _title(puzzle: Puzzle) -> str:
    board = f"{puzzle.rows} x {puzzle.cols}{' toroidal' if puzzle.toroidal else ''} board"
    amount = "the fewest" if puzzle.pieces is None else str(puzzle.pieces)
    rules = []
    if puzzle.within:
        rules.append(f"no two {puzzle.piece.name}s attacking")
    if puzzle.cover:
        rules.append("every square occupied or attacked")
    if puzzle.blockers:
        rules.append(f"{len(puzzle.blockers)} pawn{'s' if len(puzzle.blockers) > 1 else ''} blocking lines")
    if puzzle.fixed:
        rules.append(f"{len(puzzle.fixed)} {puzzle.piece.name}s already placed")
    return f"{puzzle.name}: {amount} {puzzle.piece.name}s on the {board}" + (f"; {', '.join(rules)}" if rules else "")


def describe_model(puzzle: Puzzle, model: ConstraintModel | None = None) -> ModelDescription:
    """The lowered model of `puzzle` as formulas, one group per kind of constraint (`model`:
    `lower(puzzle)`, when the caller has it already)."""
    model = lower(puzzle) if model is None else model
    blocked = puzzle.rows * puzzle.cols - len(model.cells)
    variables = (f"x[r,c] ∈ {{0, 1}} for each of the {len(model.cells):,} cells that may hold a "
                 f"{puzzle.piece.name} (1 = a {puzzle.piece.name} stands on (r, c))")
    if blocked:
        variables += f"; the {blocked} pawn or blocked squares get no variable"
    groups = [_family_group(family, bool(puzzle.blockers)) for family in model.families]
    reasons = [
        f"{len(family.lines)} {family.name} for {model.size} {puzzle.piece.name}s: by pigeonhole each of "
        f"the {family.name} holds exactly one, so '= 1' is posted instead of '≤ 1'"
        for family in model.families if family.exactly_one and model.size == len(family.lines)
    ]
    if puzzle.blockers:
        reasons.append("pawns cut every line they stand on into segments; each segment is a line of its own")
    short = [f.name for f in model.families if f.key is not None and not f.exactly_one]
    if short:
        reasons.append(f"lines of a single cell are left out of the {', '.join(short)}: they cannot hold two")
    if model.covers:
        reasons.append("each square needs a piece on it or on a cell attacking it: one clause per square")
        groups.append(ConstraintGroup("covers", "Σ{ x[p] : p = s or p attacks s } ≥ 1", "for each square s",
                                      len(model.covers), "domination"))
    if model.fixed:
        groups.append(ConstraintGroup("fixed", "x[r,c] = 1", "for each pre-placed piece", len(model.fixed)))
    groups += _tally_groups(model)
    if model.minimise:
        groups.append(ConstraintGroup("objective", "minimise Σ x[r,c]", "", 0, "the goal, not a constraint"))
    elif model.size_implied:
        groups.append(ConstraintGroup("size", f"Σ x[r,c] = {model.size}", "", 0,
                                      "implied by an exactly-one family: not posted"))
    elif model.size is not None:
        groups.append(ConstraintGroup("size", f"Σ x[r,c] = {model.size}", "", 1))
    return ModelDescription(_title(puzzle), variables, len(model.cells), tuple(groups), tuple(reasons))


# --- what the backends build --------------------------------------------------------------
# Each backend builds its own model for real (Backend.model_size): explain shows exactly what
# the backend solves, not a re-derivation of it.

def _size(backend: str, **options: object) -> Callable[[ConstraintModel], dict[str, int]]:
    def build(model: ConstraintModel) -> dict[str, int]:
        return get_backend(backend, **options).model_size(model)
    return build


def _builders() -> list[tuple[str, str, Callable[[ConstraintModel], dict[str, int]]]]:
    """Every registered backend in each setting it declares (`Backend.settings`); one that is
    not installed is listed with its reason."""
    builders: list[tuple[str, str, Callable[[ConstraintModel], dict[str, int]]]] = []
    for name in BACKENDS:
        try:
            settings = get_backend(name).settings
        except QueensError as error:
            builders.append((name, "-", _unavailable(str(error))))
            continue
        builders += [(name, label, _size(name, **options)) for label, options in settings]
    return builders


def _unavailable(reason: str) -> Callable[[ConstraintModel], dict[str, int]]:
    def build(model: ConstraintModel) -> dict[str, int]:
        raise QueensError(reason)
    return build


def compile_sizes(model: ConstraintModel) -> tuple[Compiled, ...]:
    """Build every backend's model of `model` and read its size; say why where one cannot."""
    if len(model.cells) > MAX_COMPILED_CELLS:
        return (Compiled("all", "", {}, f"not built: {len(model.cells):,} cells is more than "
                                        f"{MAX_COMPILED_CELLS:,}; ask for a smaller board"),)
    compiled = []
    for backend, setting, build in _builders():
        try:
            compiled.append(Compiled(backend, setting, build(model)))
        except QueensError as error:
            compiled.append(Compiled(backend, setting, {}, f"not applicable: {error}"))
    return tuple(compiled)
