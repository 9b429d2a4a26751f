"""The symmetry kit: a solution's images under the symmetries that keep its puzzle, the classes
they fall into, and the symmetry-breaking constraints each backend posts, as data a learner
can print (`queens show --symmetries`, `queens explain --symmetry`, docs/symmetry.md).

Everything here is read off the model, never listed per family: the group is the one
`queens.models.symmetry.symmetry_group` finds (the 8 symmetries of the square for n-queens,
fewer when pre-placed queens break some), each symmetry under its name there (identity,
rotate 90/180/270, flip rows, flip columns, transpose, anti-transpose), and the chains are
`queens.models.symmetry.lex_leader`'s, which `queens.solvers.api` hands to a backend that
breaks symmetry.

>>> from queens.models import NQueens
>>> [(image.symmetry, image.same_as) for image in images(NQueens(4), ((0, 1), (1, 3), (2, 0), (3, 2)))][:3]
[('identity', None), ('rotate 180', 'identity'), ('flip rows', None)]
>>> sorted(len(group) for group in classes(NQueens(8)))
[4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]
"""

from __future__ import annotations

from dataclasses import dataclass

from queens.models import ConstraintModel, Placement, Puzzle, QueensError, as_cells, symmetry_group
from queens.models.drawing import Board, Sheet
from queens.models.errors import BadOption
from queens.models.ir import LexChain, Var
from queens.models.symmetry import Transform, lex_leader, lex_order
from queens.solvers.api import breaking, checked_model, lowered, optimum_breaking, solutions
from queens.solvers.backend import Backend, Task
from queens.solvers.registry import BACKENDS, get_backend


def group_of(puzzle: Puzzle) -> tuple[Transform, ...]:
    """The board symmetries that keep `puzzle` (found on its model), identity first. The kit
    names the symmetries of one army on a 2-D board: a puzzle of armies or a cube is refused
    (BadOption: the kit's options do not apply to it)."""
    if not puzzle.cells_are_variables:  # the kit maps the model's cells by board symmetries
        raise BadOption(f"the symmetry kit names the board symmetries of one army on a 2-D board; {puzzle.name} "
                        "is not one (its symmetries also swap armies, or turn a cube)")
    return symmetry_group(lowered(puzzle))


@dataclass(frozen=True)
class Image:
    """A placement moved by one symmetry: `same_as` names the first symmetry before it in the
    group with the same image (None: an image not seen before)."""

    symmetry: str
    placement: Placement
    same_as: str | None = None

    @property
    def label(self) -> str:
        """'rotate 90', or 'rotate 180 = identity' for an image seen before."""
        return self.symmetry if self.same_as is None else f"{self.symmetry} = {self.same_as}"


def images(puzzle: Puzzle, placement: Placement) -> tuple[Image, ...]:
    """`placement` under each symmetry of `puzzle`'s group, in the group's order. A solution's
    images are solutions: its class is the distinct ones, |group| / |the symmetries that fix it|."""
    seen: dict[Placement, str] = {}
    moved = []
    for transform in group_of(puzzle):
        image = tuple(sorted(transform(cell, puzzle.rows, puzzle.cols) for cell in as_cells(placement)))
        moved.append(Image(transform.name, image, seen.get(image)))
        seen.setdefault(image, transform.name)
    return tuple(moved)


def image_sheet(puzzle: Puzzle, placement: Placement) -> Sheet:
    """The images drawn side by side, each captioned with its symmetry (`Sheet`: text, SVG, PNG)."""
    return Sheet(tuple(Board(puzzle, image.placement, caption=image.label) for image in images(puzzle, placement)))


def classes(puzzle: Puzzle, backend: str = "native", *, time_limit: float | None = None) -> list[frozenset[Placement]]:
    """Every solution of `puzzle` (each verified by the backend's `solutions`) in its symmetry
    class: the classes, in the order their first member was found. A class's size is its
    number of distinct images."""
    found: list[frozenset[Placement]] = []
    placed: set[Placement] = set()
    for solution in solutions(puzzle, backend, time_limit=time_limit):
        if solution in placed:
            continue
        orbit = frozenset(image.placement for image in images(puzzle, solution))
        placed |= orbit
        found.append(orbit)
    return found


# --- the chains a backend posts ------------------------------------------------------------------
@dataclass(frozen=True)
class Chain:
    """One lex chain as a backend receives it: the cells read in lex order against their images
    under `symmetry` (x[a1] x[a2] ... ≥lex x[b1] x[b2] ...: at the first pair that differs, the
    piece is on a)."""

    symmetry: str
    pairs: LexChain


@dataclass(frozen=True)
class Posting:
    """What one backend does about symmetry for the task: `unasked` its default, `asked` with
    `symmetry=True` (--symmetry), each in `queens.solvers.api`'s words; `posts` whether it posts
    the chains unasked."""

    backend: str
    unasked: str
    asked: str
    posts: bool


@dataclass(frozen=True)
class SymmetryBreaking:
    """The lex-leader chains for a puzzle and task, and which backends post them."""

    puzzle: str
    task: str
    """"count", or "optimum" for a puzzle with a goal."""
    group: tuple[str, ...]
    order: tuple[Var, ...]
    chains: tuple[Chain, ...]
    postings: tuple[Posting, ...]

    def text(self, per_line: int = 12) -> str:
        """As `queens explain --symmetry` prints it."""
        doing = "counting" if self.task == "count" else "searching for the optimum"
        lines = [f"{self.puzzle}: the symmetry-breaking constraints each backend posts when {doing}"]
        width = max(len(p.backend) for p in self.postings)
        for posting in self.postings:
            lines.append(f"  {posting.backend:<{width}}  unasked: {posting.unasked}")
            if posting.asked != posting.unasked:
                lines.append(f"  {'':<{width}}  --symmetry: {posting.asked}")
        lines += ["", f"Group, found on the model ({len(self.group)}): {', '.join(self.group)}"]
        if not self.chains:
            return "\n".join([*lines, "No chains: the identity alone keeps this puzzle, nothing to break."])
        if not self.posted:
            return "\n".join([*lines, "No chains: none of these backends posts them, even when asked."])
        lines += ["", "Lex order (middle rows first, in each row the centre columns first):",
                  *_wrapped([_cell(var) for var in self.order], per_line), "",
                  f"{len(self.chains)} chains, one per symmetry s but the identity: the cells x in lex order against",
                  "their images s(x), x ≥lex s(x): at the first pair that differs, the piece is on the upper cell.",
                  "A pair that can never be the first to differ (a cell s keeps, a pair an earlier equality",
                  "ties) is left out."]
        for chain in self.chains:
            lines += ["", f"{chain.symmetry} ({len(chain.pairs)} pairs)"]
            for start in range(0, len(chain.pairs), per_line):
                part = chain.pairs[start:start + per_line]
                cells = [(_cell(a), _cell(b)) for a, b in part]
                widths = [max(len(a), len(b)) for a, b in cells]
                lines.append("  x     " + " ".join(a.rjust(w) for (a, _), w in zip(cells, widths, strict=True)))
                lines.append("  s(x)  " + " ".join(b.rjust(w) for (_, b), w in zip(cells, widths, strict=True)))
        return "\n".join(lines)

    @property
    def posted(self) -> bool:
        """Whether one of the backends asked about posts the chains (unasked, or with --symmetry)."""
        return any(posting.asked.startswith("lex-leader") for posting in self.postings)

    def to_json(self) -> dict[str, object]:
        """The chains (when a backend posts them) and each backend's words, cells as [row, col]."""
        chains = self.chains if self.posted else ()
        return {"task": self.task, "group": list(self.group), "order": [list(_flat(v)) for v in self.order],
                "chains": [{"symmetry": c.symmetry, "pairs": [[list(_flat(a)), list(_flat(b))] for a, b in c.pairs]}
                           for c in chains],
                "backends": [{"backend": p.backend, "unasked": p.unasked, "asked": p.asked, "posts": p.posts}
                             for p in self.postings]}


def _flat(var: Var) -> tuple[int, ...]:
    assert isinstance(var, tuple) and all(isinstance(x, int) for x in var)  # a plain puzzle's cell
    return tuple(int(x) for x in var)


def _cell(var: Var) -> str:
    return ",".join(map(str, _flat(var)))


def _wrapped(words: list[str], per_line: int) -> list[str]:
    return ["  " + " ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]


def symmetry_breaking(puzzle: Puzzle, backends: tuple[str, ...] = ()) -> SymmetryBreaking:
    """The chains that break `puzzle`'s symmetries, named, and what each of `backends` (every
    registered one when empty) does with them: for counting, or for the optimum of a puzzle
    with a goal."""
    group = group_of(puzzle)
    model = lowered(puzzle)
    task = "optimum" if model.objective is not None or model.minimise else "count"
    chains = tuple(Chain(t.name, chain) for t in group for chain in _chains(model, t))
    names = backends or tuple(BACKENDS)
    return SymmetryBreaking(puzzle.name, task, tuple(t.name for t in group), lex_order(model), chains,
                            tuple(_posting(name, puzzle, task) for name in names))


def _chains(model: ConstraintModel, symmetry: Transform) -> tuple[LexChain, ...]:
    """`lex_leader`'s chain for one symmetry (none for the identity, nor when every pair of its
    chain is left out)."""
    lex = lex_leader(model, (symmetry,)).lex
    return () if lex is None else lex.chains


def _posting(backend: str, puzzle: Puzzle, task: str) -> Posting:
    """What `backend` does about symmetry for `task`, unasked and asked, or why it cannot answer."""
    try:
        engine = get_backend(backend)
        model = checked_model(engine, puzzle, Task.COUNT if task == "count" else Task.SOLVE)
    except QueensError as refusal:
        return Posting(backend, f"n/a ({refusal})", f"n/a ({refusal})", False)
    if task == "count" and type(engine).count is not Backend.count:
        said = f"no chains: {backend} counts without enumerating solutions (no symmetry switch)"
        return Posting(backend, said, said, False)
    unasked, asked = (_said(engine, puzzle, model, task, symmetry) for symmetry in (None, True))
    return Posting(backend, unasked, asked, unasked.startswith("lex-leader"))


def _said(engine: Backend, puzzle: Puzzle, model: ConstraintModel, task: str, symmetry: bool | None) -> str:
    if task == "count":
        return breaking(engine, model, symmetry).note
    _, stats = optimum_breaking(engine, puzzle, model, symmetry)
    return str(stats.get("reduction") or stats.get("symmetry"))
