"""Board-wide counts: how many attacking pairs, attacked squares or safe squares the whole board
has, bounded as a rule or taken as the goal (docs/rules/board-counts.md).

"Kings, any number, with at most one attacking pair on the board" (A143870) bounds a count that
no single piece sees; "the most squares left safe by k queens" (A342151) maximises one. A count
reads every piece of every army:

- `attacking pairs`: pairs of pieces of which one attacks the other (counted once);
- `attacked squares`: squares some piece attacks (an occupied square too, when attacked);
- `safe squares`: squares neither occupied nor attacked.

The squares are the board's cells without a blocker and not missing (holes too: lines pass
over them, as for a cover). Blockers stop a slide; when pieces block (`Puzzle.blocking`), so does
the first piece along it, which is attacked. Every board symmetry of the puzzle keeps each count.

`lowered` writes each as a `queens.models.tally.Tally` over the model's (army, cell) variables;
the checker (`queens.models.check`) counts them again from the answer, by walking the moves.

>>> BoardCount("attacking pairs", most=1).stated
'at most 1 attacking pairs'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from queens.models.armies import Goal
from queens.models.geometry import Coord
from queens.models.tally import Conjunction, Tally, Term, Var

if TYPE_CHECKING:
    from queens.models.puzzle import Puzzle

Counted = Literal["attacking pairs", "attacked squares", "safe squares"]
COUNTED: tuple[Counted, ...] = ("attacking pairs", "attacked squares", "safe squares")


@dataclass(frozen=True)
class BoardCount:
    """Between `least` and `most` (None: no bound) of what `of` names, on the whole board; with a
    `goal`, that count is also maximised or minimised (one goal per puzzle)."""

    of: Counted
    least: int = 0
    most: int | None = None
    goal: Goal | None = None

    @property
    def stated(self) -> str:
        """The rule in words (what `explain` shows)."""
        bound = (f"exactly {self.least}" if self.least == self.most else f"at most {self.most}" if not self.least
                 else f"at least {self.least}" if self.most is None else f"{self.least} to {self.most}")
        said = f"{bound} {self.of}" if self.least or self.most is not None else ""
        goal = f"{self.goal} the {self.of}" if self.goal else ""
        return ", ".join(part for part in (said, goal) if part)


VarOf = Callable[[int, Coord], Var]


def lowered(puzzle: Puzzle, count: BoardCount, var: VarOf, open_cells: frozenset[Coord]) -> Tally:
    """`count` as a tally over the variables `var(army, cell)` of the `open_cells` (see the module
    docstring); its bounds are the count's, its goal is the caller's (an objective)."""
    if count.of == "attacking pairs":
        return Tally(count.of, tuple(_pairs(puzzle, var, open_cells)), count.least, count.most)
    reaching = _reaching(puzzle, var, open_cells)
    squares = [cell for cell in puzzle.board_cells if cell not in puzzle.blockers | puzzle.missing]
    if count.of == "attacked squares":
        return Tally(count.of, tuple(reaching.get(s, ()) for s in squares), count.least, count.most)
    armies = range(len(puzzle.armies))
    terms = tuple((*(Conjunction((var(a, s),)) for a in armies if s in open_cells), *reaching.get(s, ()))
                  for s in squares)
    return Tally(count.of, terms, count.least, count.most, complement=True)


def _reaching(puzzle: Puzzle, var: VarOf, open_cells: frozenset[Coord]) -> dict[Coord, Term]:
    """For each square, the conjunctions under which some piece attacks it."""
    found: dict[Coord, dict[Conjunction, None]] = {}
    for a, army in enumerate(puzzle.armies):
        for cell in sorted(open_cells):
            for square, between in _attacks_from(puzzle, army.piece.rays, army.piece.leaps, cell, open_cells):
                absent = tuple(var(b, c) for c in between for b in range(len(puzzle.armies)))
                found.setdefault(square, {})[Conjunction((var(a, cell),), absent)] = None
    return {square: tuple(conjunctions) for square, conjunctions in found.items()}


def _pairs(puzzle: Puzzle, var: VarOf, open_cells: frozenset[Coord]) -> Iterator[Term]:
    """One term per pair of open cells that can hold an attacking pair: a conjunction per pair of
    armies on them and way the attack runs."""
    found: dict[tuple[Coord, Coord], dict[Conjunction, None]] = {}
    armies = range(len(puzzle.armies))
    for a, army in enumerate(puzzle.armies):
        for x in sorted(open_cells):
            for y, between in _attacks_from(puzzle, army.piece.rays, army.piece.leaps, x, open_cells):
                if y not in open_cells:
                    continue
                absent = tuple(var(c, z) for z in between for c in armies)
                conjunctions = found.setdefault((min(x, y), max(x, y)), {})
                for b in armies:
                    present = tuple(sorted((var(a, x), var(b, y)), key=repr))
                    conjunctions[Conjunction(present, absent)] = None
    for pair in sorted(found):
        yield tuple(found[pair])


def _attacks_from(puzzle: Puzzle, rays: tuple[Coord, ...], leaps: tuple[Coord, ...], cell: Coord,
                  open_cells: frozenset[Coord]) -> Iterator[tuple[Coord, tuple[Coord, ...]]]:
    """Each square a piece on `cell` attacks, with the open cells before it along the way when
    pieces block (any piece there would stop the attack; none for a leap). Blockers stop a
    slide; holes and missing squares are passed over."""
    topology = puzzle.topology
    for leap in leaps:
        for sign in (1, -1):
            landed = topology.step(cell, tuple(sign * d for d in leap))
            if landed is not None and landed != cell and landed not in puzzle.blockers:
                yield landed, ()
    for ray in rays:
        for sign in (1, -1):
            passed: list[Coord] = []
            for square in topology.walk(cell, tuple(sign * d for d in ray)):
                if square in puzzle.blockers:
                    break
                if square == cell:  # a twisted line may cross the piece's own square
                    continue
                yield square, tuple(passed) if puzzle.blocking else ()
                if square in open_cells:
                    passed.append(square)
