"""Lines of any slope: bounds on every straight line of the board, said without listing cells.

A line of slope (dr, dc) is the cells (r + t*dr, c + t*dc) of the board for whole t: a knight's
line (1, 2), a camel's (1, 3), any rational slope. The no-three-in-line problem (OEIS A000769,
A000755: 2n points on an n x n grid, no three on a line) is "at most 2 pieces on every line of
every slope", one table in a puzzle file; "through" keeps only the lines through at least so
many of the board's cells (a bound of at least one piece on the lines through 3 cells, say).

>>> SlopeLines(most=2).slopes is None
True
>>> directions(3, 3)
((0, 1), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (2, -1), (2, 1))
>>> [len(line) for line in board_lines(3, 3, ((1, 2),), through=2)]
[2, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import gcd
from typing import TYPE_CHECKING

from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord
from queens.models.ir import Line, LineFamily, Var
from queens.models.pieces import Vector

if TYPE_CHECKING:  # the puzzle holds these rules: its module imports this one
    from queens.models.puzzle import Puzzle


@dataclass(frozen=True)
class SlopeLines:
    """Between `least` and `most` pieces (None: no upper bound) on every line of the board
    through at least `through` of its cells, along the `slopes` (reduced (dr, dc) directions,
    None: every slope), of army number `army` or of every army (None). Holes, blockers and
    missing squares hold no piece; they neither cut a line nor count against `through`'s cells
    being the board's."""

    least: int = 0
    most: int | None = None
    slopes: tuple[Vector, ...] | None = None
    through: int = 2
    army: int | None = None

    def __post_init__(self) -> None:
        if self.slopes is not None:  # each slope once, in its one written form
            object.__setattr__(self, "slopes", tuple(sorted({reduced(step) for step in self.slopes})))
        if isinstance(self.through, bool) or not isinstance(self.through, int) or self.through < 1:
            raise InvalidBoard(f"lines through at least 1 cell or more, got through = {self.through!r}")


def reduced(step: Sequence[int]) -> Vector:
    """A direction in its one written form: divided by the gcd of its parts, pointing down the
    board (or right along a row), so that a vector and its opposite are one slope.

    >>> reduced((-2, 4)), reduced((0, -3))
    ((1, -2), (0, 1))
    """
    dr, dc = step
    if (dr, dc) == (0, 0):
        raise InvalidBoard("a slope needs a direction other than [0, 0]")
    g = gcd(dr, dc)
    dr, dc = dr // g, dc // g
    return (dr, dc) if dr > 0 or (dr == 0 and dc > 0) else (-dr, -dc)


def directions(rows: int, cols: int) -> tuple[Vector, ...]:
    """Every slope along which a rows x cols board has a line through two cells or more."""
    return tuple(sorted({reduced((dr, dc)) for dr in range(rows) for dc in range(-cols + 1, cols)
                         if (dr, dc) != (0, 0) and gcd(dr, dc) == 1}))


def board_lines(rows: int, cols: int, slopes: Iterable[Vector], through: int) -> Iterator[tuple[Coord, ...]]:
    """Every line of the board along each slope with at least `through` cells, walked from its
    first cell (the one whose step back leaves the board)."""
    def inside(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols

    for dr, dc in slopes:
        for r in range(rows):
            for c in range(cols):
                if inside(r - dr, c - dc):
                    continue
                line = []
                at = (r, c)
                while inside(*at):
                    line.append(at)
                    at = (at[0] + dr, at[1] + dc)
                if len(line) >= max(through, 1):
                    yield tuple(line)


def slope_families(puzzle: Puzzle, var: Callable[[int, Coord], Var], open_cells: frozenset[Coord]) -> list[LineFamily]:
    """The lowering of each `SlopeLines` rule: a family of lines with its bounds over the open
    cells of every line it reads (`var(army, cell)`: the model's variable), a line its bounds
    cannot cut left out. A line with room for fewer pieces than `least` is refused."""
    families = []
    for rule in puzzle.slope_lines:
        armies = range(len(puzzle.armies)) if rule.army is None else (rule.army,)
        slopes = directions(puzzle.rows, puzzle.cols) if rule.slopes is None else rule.slopes
        lines = []
        for line in board_lines(puzzle.rows, puzzle.cols, slopes, rule.through):
            members = tuple(var(a, cell) for cell in line if cell in open_cells for a in armies)
            most = len(members) if rule.most is None else min(rule.most, len(members))
            if rule.least > most:
                raise InvalidBoard(f"a line from {line[0]} to {line[-1]} has room for {most} pieces, "
                                   f"{rule.least} asked")
            if rule.least > 0 or most < len(members):
                lines.append(Line(members, most, rule.least))
        families.append(LineFamily(f"lines of {slope_text(rule.slopes)}", tuple(lines)))
    return families


def slope_text(slopes: tuple[Vector, ...] | None) -> str:
    """The slopes in words: "every slope", or the directions as the file writes them.

    >>> slope_text(None), slope_text(((1, 2), (2, 1)))
    ('every slope', 'slopes [1, 2], [2, 1]')
    """
    if slopes is None:
        return "every slope"
    return "slope" + ("s " if len(slopes) > 1 else " ") + ", ".join(f"[{dr}, {dc}]" for dr, dc in slopes)
