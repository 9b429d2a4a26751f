"""The rules a puzzle states beyond its armies' own attacks, as plain data.

Each is what a published puzzle of the family says in one sentence, and what a puzzle file writes
in one or two lines (docs/puzzle-files.md):

- `Region`: between so many and so many pieces on a set of cells ("one queen on each of the two
  main diagonals", A007016), of one army or of all;
- `AttackBound`: every piece attacks between so many and so many others ("no queen attacks more
  than one other", A260113; "each attacks exactly three", A051756);
- `CoverKind`: what covering a square means: occupied or attacked (domination), or attacked
  (total domination, A261752);
- `SYMMETRIES`: the board symmetries a solution may be asked to keep ("invariant under a
  quarter turn", A033148), by name.

`queens.models.lowering` compiles them; `queens.models.check` checks an answer against
them, each written once more on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from queens.models.geometry import Coord

CoverKind = Literal["occupied or attacked", "attacked"]
COVER_KINDS: tuple[CoverKind, ...] = ("occupied or attacked", "attacked")

Targets = Literal["any", "own", "other"]
TARGETS: tuple[Targets, ...] = ("any", "own", "other")

SYMMETRIES: dict[str, str] = {
    "quarter turn": "rotate 90", "half turn": "rotate 180", "rotate 90": "rotate 90",
    "rotate 180": "rotate 180", "rotate 270": "rotate 270", "flip rows": "flip rows",
    "flip columns": "flip columns", "transpose": "transpose", "anti-transpose": "anti-transpose",
}
"""The names a puzzle may give a symmetry its solutions keep, and the board transform each means
(`queens.models.symmetry`'s names): a quarter turn is a rotation by 90 degrees."""


@dataclass(frozen=True)
class Region:
    """Between `least` and `most` pieces (None: no upper bound) on `cells`, counting the pieces of
    army number `army`, or of every army when None."""

    cells: frozenset[Coord]
    least: int = 0
    most: int | None = None
    army: int | None = None
    name: str = ""


@dataclass(frozen=True)
class AttackBound:
    """Every piece of army number `army` (of every army when None) attacks between `least` and
    `most` pieces (None: no upper bound): of its own army, of the others, or of any (`of`)."""

    least: int = 0
    most: int | None = None
    army: int | None = None
    of: Targets = "any"
