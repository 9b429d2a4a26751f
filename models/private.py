"""Private squares: each piece covers a square that no other piece of its army covers.

A set of pieces in which every piece has a private square (one it alone covers) is
*irredundant*: no piece could be taken off without uncovering a square. The largest such set is
the upper irredundance number (OEIS A075692 for queens, A075709 for kings); with a cover as
well it is a minimal dominating set, and the largest of those the upper domination number.
"No square covered twice" is the stronger form (a packing; with a cover, every square is
covered exactly once: efficient, or perfect, domination). `[[rules.private]]` says either, for
one army or for each army on its own: `squares = "some"` (each piece's squares include a
private one) or `squares = "all"` (all of them are private).

A piece covers what a cover means (`Puzzle.cover_kind`): its own square and the squares it
attacks, or only those it attacks; holes are squares too, blockers and missing squares are
not. When pieces block (`blocking`), a piece covers a square along a line only with no piece in
between.

Lowered, "some" is one `CountIf` per cell p: when p holds a piece, fewer than all of the groups
"the other pieces that would cover s", one per square s that p covers, hold a piece. "All" is a
line per square, at most one of the pieces that would cover it (when pieces block, a clause per
pair instead: "a piece between, or not both").

>>> Private().squares, SQUARES
('some', ('some', 'all'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord
from queens.models.ir import Clause, CountIf, Line, LineFamily, Var

if TYPE_CHECKING:  # the puzzle holds these rules: its module imports this one
    from queens.models.puzzle import Puzzle

SQUARES = ("some", "all")
"""How many of a piece's squares must be its own: some (irredundance), or all (no square
covered twice)."""

MAX_MEMBERS = 200_000_000
"""Most cells the counts of "some" may list, bounded before any work as (cells) x (squares a
piece covers)^2, each member a reference: queens on 24 x 24 list a sixth of their bound, 40 x 40
fit, 50 x 50 are refused (measured: experiments/results/private-and-connected.md)."""

Between = tuple[Coord, ...]
"""The open cells strictly between a piece and a square it covers along a line (none for its
own square and for a leap)."""


@dataclass(frozen=True)
class Private:
    """Each piece of army number `army` (of each army on its own, when None) covers `squares`
    ("some": at least one; "all": every one) that no other piece of its army covers."""

    army: int | None = None
    squares: str = "some"

    def __post_init__(self) -> None:
        if self.squares not in SQUARES:
            raise InvalidBoard(f"a piece's private squares are one of {', '.join(SQUARES)}, got {self.squares!r}")


def too_large(puzzle: Puzzle) -> str | None:
    """Why the private-square rules of `puzzle` would not fit a model, or None: each cell's count
    lists, for each square its piece covers, the other cells that would cover it."""
    if not puzzle.private:
        return None
    reach = max(2 * max(puzzle.shape) * len(army.piece.rays) + 2 * len(army.piece.leaps) + 1 for army in puzzle.armies)
    members = puzzle.variables * reach * reach
    if members <= MAX_MEMBERS:
        return None
    return (f"private squares on {puzzle.size_text} would list about {members:,} cells in their counts (at most "
            f"{MAX_MEMBERS:,}): ask for a smaller board")


def private_counts(puzzle: Puzzle, var: Callable[[int, Coord], Var], cells: tuple[Coord, ...]) -> tuple[CountIf, ...]:
    """Each "some" rule: for each army it names and each open cell p whose squares all may be
    covered by another piece, "a piece on p means fewer than all of the groups that would cover
    its squares (one group per square, the same group once) hold a piece"."""
    found = []
    for a in _armies(puzzle, "some"):
        coverers = _coverers(puzzle, a, cells)
        for p in cells:
            groups = {_others(puzzle, coverers[s], p) for s, via in coverers.items() if p in via}
            if groups and frozenset() not in groups:
                ordered = sorted(tuple(sorted(var(a, q) for q in group)) for group in groups)
                found.append(CountIf(var(a, p), tuple(ordered), 0, len(ordered) - 1, kind="private squares"))
    return tuple(found)


def private_lines(puzzle: Puzzle, var: Callable[[int, Coord], Var], cells: tuple[Coord, ...]) -> LineFamily:
    """Each "all" rule (pieces that do not block): at most one piece of the army on the cells
    that would cover each square."""
    lines = []
    if not puzzle.blocking:
        for a in _armies(puzzle, "all"):
            lines += [Line(tuple(sorted(var(a, q) for q in via)), 1) for via in _coverers(puzzle, a, cells).values()
                      if len(via) > 1]
    return LineFamily("no square covered twice", tuple(lines))


def private_clauses(puzzle: Puzzle, var: Callable[[int, Coord], Var], cells: tuple[Coord, ...]) -> Iterator[Clause]:
    """What the rules ask beyond counts and lines, as clauses: no piece where it would cover no
    square at all (a total cover's lone king), and, for each "all" rule when pieces block, for
    each square and two cells that would cover it, "a piece between either and the square, or
    not both"."""
    for a in sorted(set(_armies(puzzle, "some")) | set(_armies(puzzle, "all"))):
        coverers = _coverers(puzzle, a, cells)
        covering = {p for via in coverers.values() for p in via}
        yield from (Clause((), (var(a, p),)) for p in cells if p not in covering)
        if puzzle.blocking and a in _armies(puzzle, "all"):
            for via in coverers.values():
                for p, q in combinations(sorted(via), 2):
                    between = sorted({*via[p], *via[q]})
                    yield Clause(tuple(var(a, c) for c in between), (var(a, p), var(a, q)))


def _armies(puzzle: Puzzle, squares: str) -> list[int]:
    """The armies the rules with these `squares` name, each once."""
    named = [range(len(puzzle.armies)) if rule.army is None else (rule.army,)
             for rule in puzzle.private if rule.squares == squares]
    return sorted({a for armies in named for a in armies})


def _others(puzzle: Puzzle, via: dict[Coord, Between], p: Coord) -> frozenset[Coord]:
    """The cells other than p whose piece would cover the square, p standing: when pieces
    block, those p stands between cover it no more."""
    return frozenset(q for q, between in via.items() if q != p and not (puzzle.blocking and p in between))


def _coverers(puzzle: Puzzle, a: int, cells: tuple[Coord, ...]) -> dict[Coord, dict[Coord, Between]]:
    """For each square of the board (no blocker, not missing): the open cells from which a piece
    of army `a` would cover it, each with the cells in between (walked on the board's topology:
    a slide stops at a blocker; on a closed line, the way walked first)."""
    topology, piece = puzzle.topology, puzzle.armies[a].piece
    closed = puzzle.blockers | puzzle.missing
    found: dict[Coord, dict[Coord, Between]] = {square: {} for square in puzzle.board_cells if square not in closed}
    for p in cells:
        if puzzle.cover_kind == "occupied or attacked":
            found[p][p] = ()
        for leap in piece.leaps:
            for sign in (1, -1):
                landed = topology.step(p, tuple(sign * d for d in leap))
                if landed is not None and landed != p and landed in found:
                    found[landed][p] = ()
        for ray in piece.rays:
            for sign in (1, -1):
                for square, between in _slide(puzzle, p, tuple(sign * d for d in ray), frozenset(cells)):
                    if square in found:
                        found[square].setdefault(p, between)
    return found


def _slide(puzzle: Puzzle, p: Coord, direction: Coord, open_cells: frozenset[Coord]) -> Iterator[tuple[Coord, Between]]:
    """The squares a slide from p reaches, up to a blocker, each with the open cells passed."""
    between: list[Coord] = []
    for square in puzzle.topology.walk(p, direction):
        if square in puzzle.blockers:
            return
        if square == p:  # a twisted line may cross the piece's own square
            continue
        yield square, tuple(between)
        if square in open_cells:
            between.append(square)
