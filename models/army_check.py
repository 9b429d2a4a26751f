"""The independent checker of puzzles with armies: the rules read again from the puzzle.

It shares no code with `queens.models.army_lowering`: moves are walked here cell by cell (with
the board's own wrap arithmetic), lines for the per-line bounds are found by walking, and every
rule is tested on the answer as the puzzle states it. An answer is one tuple of cells per army.

>>> from queens.models.armies import Army
>>> from queens.models.puzzle import Puzzle
>>> puzzle = Puzzle(shape=(3, 3), armies=(Army("white", least=1, most=1), Army("black", least=1, most=1)),
...                 within=False)
>>> verify_armies(puzzle, [(0, (0, 0)), (1, (1, 2))])
(((0, 0),), ((1, 2),))
>>> verify_armies(puzzle, [(0, (0, 0)), (1, (1, 1))])
Traceback (most recent call last):
...
queens.models.errors.InvalidPlacement: white at (0, 0) and black at (1, 1) attack each other
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from queens.models.armies import Army, Moves, Vector
from queens.models.errors import InvalidPlacement
from queens.models.geometry import Coord
from queens.models.ir import Var
from queens.models.puzzle import Puzzle

ArmyPlacement = tuple[tuple[Coord, ...], ...]
"""One sorted tuple of cells per army, in the puzzle's army order."""


def verify_armies(puzzle: Puzzle, placement: Iterable[Var]) -> ArmyPlacement:
    """The answer as cells per army, or `InvalidPlacement` naming the first broken rule; the
    placement is (army number, cell) pairs, as a backend returns the model's variables."""
    armies: list[list[Coord]] = [[] for _ in puzzle.armies]
    for a, cell in placement:
        if not 0 <= a < len(armies):
            raise InvalidPlacement(f"no army number {a}")
        armies[a].append(tuple(int(x) for x in cell))
    answer = tuple(tuple(sorted(cells)) for cells in armies)
    _check_cells(puzzle, answer)
    _check_sizes(puzzle, answer)
    if puzzle.within:
        for army, cells in zip(puzzle.armies, answer, strict=True):
            _check_within(puzzle, army, cells)
    if puzzle.between:
        _check_between(puzzle, answer)
    _check_lines(puzzle, answer)
    if puzzle.cover:
        _check_cover(puzzle, answer)
    return answer


def _check_cells(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    seen: set[Coord] = set()
    for army, cells in zip(puzzle.armies, answer, strict=True):
        for cell in cells:
            if len(cell) != len(puzzle.shape) or not all(0 <= x < s for x, s in zip(cell, puzzle.shape, strict=True)):
                raise InvalidPlacement(f"{army.name} at {cell} is off the {puzzle.size_text} board")
            if cell in puzzle.holes or cell in puzzle.blockers:
                raise InvalidPlacement(f"{army.name} at {cell} stands on a hole or blocker")
            if cell in seen:
                raise InvalidPlacement(f"two pieces stand on {cell}")
            seen.add(cell)
        if not army.fixed <= set(cells):
            raise InvalidPlacement(f"a pre-placed piece of {army.name} at {min(army.fixed - set(cells))} was removed")
    if puzzle.partition:
        for cell in puzzle.board_cells:
            if cell not in seen and cell not in puzzle.holes and cell not in puzzle.blockers:
                raise InvalidPlacement(f"cell {cell} holds no piece, and the armies must fill the board")


def _check_within(puzzle: Puzzle, army: Army, cells: tuple[Coord, ...]) -> None:
    """No two pieces of one army attack; with a `line_cap` above 1, a slide may see that many."""
    slides = Moves(army.piece.name, leaps=army.piece.leaps) if army.line_cap > 1 else army.piece
    for x, y in combinations(cells, 2):
        if attacks(puzzle, slides, x, y):
            raise InvalidPlacement(f"two pieces of {army.name} at {x} and {y} attack each other")
    if army.line_cap > 1:
        for ray in army.piece.rays:
            for line in {_line_through(puzzle, cell, ray) for cell in cells}:
                if len(line.intersection(cells)) > army.line_cap:
                    raise InvalidPlacement(f"{len(line.intersection(cells))} pieces of {army.name} on the line "
                                           f"through {min(line)} along {ray}, at most {army.line_cap} allowed")


def _check_sizes(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    goal_sizes = {len(cells) for army, cells in zip(puzzle.armies, answer, strict=True) if army.goal}
    if len(goal_sizes) > 1:
        raise InvalidPlacement(f"the armies with a goal must hold equal numbers, not {sorted(goal_sizes)}")
    for army, cells in zip(puzzle.armies, answer, strict=True):
        if len(cells) < army.least or (army.most is not None and len(cells) > army.most):
            wanted = army.least if army.least == army.most else f"{army.least} to {army.most}"
            raise InvalidPlacement(f"{army.name} has {len(cells)} pieces, {wanted} required")


def _check_between(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    for a, b in combinations(range(len(answer)), 2):
        first, second = puzzle.armies[a], puzzle.armies[b]
        for x in answer[a]:
            for y in answer[b]:
                if attacks(puzzle, first.piece, x, y) or attacks(puzzle, second.piece, y, x):
                    raise InvalidPlacement(f"{first.name} at {x} and {second.name} at {y} attack each other")


def _move(puzzle: Puzzle, cell: Coord, vector: Vector) -> Coord | None:
    moved = []
    for axis, (x, d, side) in enumerate(zip(cell, vector, puzzle.shape, strict=True)):
        value = x + d
        if axis < len(puzzle.wrap) and puzzle.wrap[axis]:
            value %= side
        if not 0 <= value < side:
            return None
        moved.append(value)
    return tuple(moved)


def attacks(puzzle: Puzzle, moves: Moves, a: Coord, b: Coord) -> bool:
    """Whether a piece with `moves` on `a` attacks `b` (blockers stop slides; pieces do not)."""
    for vector in moves.leaps:
        for sign in (1, -1):
            if _move(puzzle, a, tuple(sign * d for d in vector)) == b:
                return True
    for ray in moves.rays:
        for sign in (1, -1):
            cell = _move(puzzle, a, tuple(sign * d for d in ray))
            while cell is not None and cell != a and cell not in puzzle.blockers:
                if cell == b:
                    return True
                cell = _move(puzzle, cell, tuple(sign * d for d in ray))
    return False


_LINES = {"rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1))}


def _line_through(puzzle: Puzzle, cell: Coord, direction: Vector) -> frozenset[Coord]:
    found = {cell}
    for sign in (1, -1):
        step = tuple(sign * d for d in direction)
        other = _move(puzzle, cell, step)
        while other is not None and other not in found and other not in puzzle.blockers:
            found.add(other)
            other = _move(puzzle, other, step)
    return frozenset(found)


def _check_lines(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    occupied = {cell for cells in answer for cell in cells}
    for family, least, most in puzzle.per_line:
        for direction in _LINES[family]:
            lines = {_line_through(puzzle, cell, direction) for cell in puzzle.board_cells
                     if cell not in puzzle.blockers and cell not in puzzle.holes}
            for line in lines:
                pieces = len(line & occupied)
                if not least <= pieces <= most:
                    raise InvalidPlacement(f"a line of {family} through {min(line)} holds {pieces} pieces, "
                                           f"{least} to {most} allowed")


def _check_cover(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    pieces = [(army.piece, cell) for army, cells in zip(puzzle.armies, answer, strict=True) for cell in cells]
    for square in puzzle.board_cells:
        if square in puzzle.blockers:
            continue
        if not any(cell == square or attacks(puzzle, moves, cell, square) for moves, cell in pieces):
            raise InvalidPlacement(f"square {square} is neither occupied nor attacked")
