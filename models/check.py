"""The one independent checker every returned solution passes through.

It reads the `Puzzle` (the rules as the user stated them), never the lowered constraints, so a
bug in the lowering or in a backend cannot hide itself. Without pawns it runs in O(k) for k
pieces (one hash of each ray key per direction), so it also checks solutions for huge boards.

>>> verify(Puzzle(rows=4, cols=4, pieces=4), [(0, 1), (1, 3), (2, 0), (3, 2)])
((0, 1), (1, 3), (2, 0), (3, 2))
"""

from __future__ import annotations

from collections.abc import Iterable

from queens.models.errors import InvalidPlacement
from queens.models.geometry import first_attack
from queens.models.ir import Var
from queens.models.pieces import Piece
from queens.models.puzzle import Puzzle

Placement = tuple[Var, ...]
"""An answer as the model's variables, sorted: cells for a plain puzzle, (army, cell) pairs for
armies; `Puzzle.per_army` gives cells per army either way."""


def verify(puzzle: Puzzle, placement: Iterable[Var]) -> Placement:
    """Return the placement sorted, or raise `InvalidPlacement` naming the first broken rule."""
    if not puzzle.plain:
        from queens.models.army_check import verify_armies

        found = tuple(sorted((int(a), tuple(int(x) for x in cell)) for a, cell in placement))
        verify_armies(puzzle, found)
        return found
    cells = tuple(sorted((int(r), int(c)) for r, c in placement))
    _check_cells(puzzle, cells)
    if puzzle.within:
        _check_independent(puzzle, cells)
    if puzzle.cover:
        _check_dominating(puzzle, cells)
    return cells


def _check_cells(puzzle: Puzzle, cells: Placement) -> None:
    for cell in cells:
        if not (0 <= cell[0] < puzzle.rows and 0 <= cell[1] < puzzle.cols):
            raise InvalidPlacement(f"piece at {cell} is off the {puzzle.rows}x{puzzle.cols} board")
        if cell in puzzle.blockers:
            raise InvalidPlacement(f"piece at {cell} stands on a pawn")
        if cell in puzzle.holes:
            raise InvalidPlacement(f"piece at {cell} stands on a blocked cell")
    if len(set(cells)) != len(cells):
        raise InvalidPlacement("two pieces stand on the same cell")
    missing = puzzle.fixed - set(cells)
    if missing:
        raise InvalidPlacement(f"pre-placed piece at {min(missing)} was removed")
    if puzzle.pieces is not None and len(cells) != puzzle.pieces:
        raise InvalidPlacement(f"{len(cells)} pieces placed, {puzzle.pieces} required")


def _check_independent(puzzle: Puzzle, cells: Placement) -> None:
    piece = puzzle.piece
    if puzzle.line_cap > 1:  # rays may hold per_line pieces; a leap is still an attack
        _check_crowded_lines(puzzle, cells)
        piece = Piece(piece.name, leaps=piece.leaps)
    clash = first_attack(piece, cells, topology=puzzle.topology, pawns=puzzle.blockers)
    if clash:
        a, b, how = clash
        raise InvalidPlacement(f"pieces at {a} and {b} {how}")


def _check_crowded_lines(puzzle: Puzzle, cells: Placement) -> None:
    """No line of a sliding piece (cut at pawns) holds more than `per_line` pieces: from each
    piece, count the pieces it sees along each ray both ways, itself included."""
    occupied = set(cells)
    for a in cells:
        for rr, rc in puzzle.piece.rays:
            seen = [a]
            for direction in ((rr, rc), (-rr, -rc)):
                for cell in puzzle.topology.walk(a, direction):
                    if cell in puzzle.blockers or cell in seen:
                        break
                    if cell in occupied:
                        seen.append(cell)
            if len(seen) > puzzle.line_cap:
                raise InvalidPlacement(f"{len(seen)} pieces on the line through {a} along {(rr, rc)}, "
                                       f"at most {puzzle.line_cap} allowed: {sorted(seen)}")


def _check_dominating(puzzle: Puzzle, cells: Placement) -> None:
    topology = puzzle.topology
    seen = set(cells)
    for a in cells:
        for rr, rc in puzzle.piece.rays:
            for direction in ((rr, rc), (-rr, -rc)):
                for cell in topology.walk(a, direction):
                    if cell in puzzle.blockers:
                        break
                    seen.add(cell)
        for lr, lc in puzzle.piece.leaps:
            for dr, dc in ((lr, lc), (-lr, -lc)):
                target = topology.step(a, (dr, dc))
                if target is not None:
                    seen.add(target)
    for square in ((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)):
        if square not in seen and square not in puzzle.blockers:
            raise InvalidPlacement(f"square {square} is neither occupied nor attacked")
