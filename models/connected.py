"""Connected armies: an army's squares form one group under a chosen adjacency.

"The fewest kings that dominate the board and form one connected group" (connected domination,
OEIS A370428) is a cover, a goal and this rule: `[[rules.connected]]` with `by` the adjacency,
king steps (the 8 neighbours), rook steps (the 4 orthogonal ones) or the army's own moves (two
pieces are neighbours when one attacks the other; pawns cut slides). An army of no piece or one
piece is connected.

>>> Connected().by, ADJACENCIES["rook"]
('king', ((0, 1), (1, 0)))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from queens.models.errors import InvalidBoard
from queens.models.geometry import Coord, attacks
from queens.models.ir import Connection, Var
from queens.models.pieces import Cell, Vector

if TYPE_CHECKING:  # the puzzle holds these rules: its module imports this one
    from queens.models.puzzle import Puzzle

ADJACENCIES: dict[str, tuple[Vector, ...]] = {"king": ((0, 1), (1, 0), (1, 1), (1, -1)), "rook": ((0, 1), (1, 0))}
"""The steps (each with its opposite) that make two squares neighbours, by name; "moves" is the
army's own piece."""
BY = (*ADJACENCIES, "moves")


@dataclass(frozen=True)
class Connected:
    """The pieces of army number `army` (of each army on its own, when None) form one connected
    group: king steps, rook steps, or the army's own `moves` (`by`)."""

    army: int | None = None
    by: str = "king"

    def __post_init__(self) -> None:
        if self.by not in BY:
            raise InvalidBoard(f"an army is connected by one of {', '.join(BY)}, got {self.by!r}")


def connections(puzzle: Puzzle, var: Callable[[int, Coord], Var], cells: tuple[Coord, ...]) -> tuple[Connection, ...]:
    """The lowering of each rule: one `Connection` per army it names, over the army's variables
    on the open `cells` and an edge for each pair of neighbours (steps on the board's topology,
    or attacks of the army's piece)."""
    found = []
    topology, open_cells = puzzle.topology, frozenset(cells)
    for rule in puzzle.connected:
        for a in range(len(puzzle.armies)) if rule.army is None else (rule.army,):
            edges: set[tuple[Coord, Coord]] = set()
            if rule.by == "moves":
                piece = puzzle.armies[a].piece
                flat = [cast(Cell, cell) for cell in cells]  # a 2-D board (Puzzle checks)
                edges = {(p, q) for p in flat for q in flat
                         if p < q and attacks(piece, p, q, topology=topology, pawns=puzzle.blockers)}
            else:
                for p in cells:
                    for step in ADJACENCIES[rule.by]:
                        for sign in (1, -1):
                            q = topology.step(p, (sign * step[0], sign * step[1]))
                            if q is not None and q in open_cells and q != p:
                                edges.add((min(p, q), max(p, q)))
            found.append(Connection(tuple(var(a, c) for c in cells),
                                    tuple((var(a, p), var(a, q)) for p, q in sorted(edges))))
    return tuple(found)
