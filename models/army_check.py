"""The independent checker of puzzles with armies: the rules read again from the puzzle.

It shares no code with `queens.models.lowering`: moves are walked here cell by cell (with
the board's own wrap arithmetic, twists included), lines for the per-line bounds are found by
walking, attacks are counted piece by piece (stopping at the first piece when pieces block), a
symmetry is checked by mapping the answer, and every rule is tested on the answer as the puzzle
states it. An answer is one tuple of cells per army.

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

from collections.abc import Callable, Iterable
from itertools import combinations

from queens.models.armies import Army
from queens.models.errors import InvalidPlacement
from queens.models.geometry import Coord
from queens.models.ir import Var
from queens.models.pieces import Piece, Vector
from queens.models.puzzle import Puzzle
from queens.models.rules import SYMMETRIES

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
    occupied = frozenset(cell for cells in answer for cell in cells) if puzzle.blocking else None
    if puzzle.within:
        for army, cells in zip(puzzle.armies, answer, strict=True):
            _check_within(puzzle, army, cells, occupied)
    if puzzle.between:
        _check_between(puzzle, answer, occupied)
    _check_lines(puzzle, answer)
    _check_regions(puzzle, answer)
    _check_attack_bounds(puzzle, answer, occupied)
    _check_invariant(puzzle, answer)
    if puzzle.cover:
        _check_cover(puzzle, answer)
    return answer


def _check_cells(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    seen: set[Coord] = set()
    for army, cells in zip(puzzle.armies, answer, strict=True):
        for cell in cells:
            if len(cell) != len(puzzle.shape) or not all(0 <= x < s for x, s in zip(cell, puzzle.shape, strict=True)):
                raise InvalidPlacement(f"{army.name} at {cell} is off the {puzzle.size_text} board")
            if cell in puzzle.holes or cell in puzzle.blockers or cell in puzzle.missing:
                raise InvalidPlacement(f"{army.name} at {cell} stands on a hole, a blocker or a missing square")
            if cell in seen:
                raise InvalidPlacement(f"two pieces stand on {cell}")
            seen.add(cell)
        if not army.fixed <= set(cells):
            raise InvalidPlacement(f"a pre-placed piece of {army.name} at {min(army.fixed - set(cells))} was removed")
    if puzzle.partition:
        for cell in puzzle.board_cells:
            if cell not in seen and cell not in puzzle.holes | puzzle.blockers | puzzle.missing:
                raise InvalidPlacement(f"cell {cell} holds no piece, and the armies must fill the board")


def _check_within(puzzle: Puzzle, army: Army, cells: tuple[Coord, ...], occupied: frozenset[Coord] | None) -> None:
    """No two pieces of one army attack; with a `line_cap` above 1, a slide may see that many."""
    slides = Piece(army.piece.name, leaps=army.piece.leaps) if army.line_cap > 1 else army.piece
    own = frozenset(cells)
    pairs = [(min(x, y), max(x, y)) for x in cells for y in attacked(puzzle, slides, x, occupied) & own]
    if pairs:
        x, y = min(pairs)
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


def _check_between(puzzle: Puzzle, answer: ArmyPlacement, occupied: frozenset[Coord] | None) -> None:
    reach = [{cell: attacked(puzzle, army.piece, cell, occupied) for cell in cells}
             for army, cells in zip(puzzle.armies, answer, strict=True)]
    for a, b in combinations(range(len(answer)), 2):
        for x in answer[a]:
            for y in answer[b]:
                if y in reach[a][x] or x in reach[b][y]:
                    raise InvalidPlacement(f"{puzzle.armies[a].name} at {x} and {puzzle.armies[b].name} at {y} "
                                           "attack each other")


def _move(puzzle: Puzzle, cell: Coord, vector: Vector) -> tuple[Coord, Vector] | None:
    """The cell `vector` away and the vector to go on with: an edge that wraps with a twist
    (a Moebius strip's) mirrors the other axis and turns the move's component along it."""
    moved, going = list(cell), list(vector)
    for axis, (x, d, side) in enumerate(zip(cell, vector, puzzle.shape, strict=True)):
        moved[axis] = x + d
        if not puzzle.wrap[axis] and not 0 <= moved[axis] < side:
            return None
    for axis, side in enumerate(puzzle.shape):
        if puzzle.wrap[axis]:
            laps, moved[axis] = divmod(moved[axis], side)
            if puzzle.twist[axis] and laps % 2:
                other = 1 - axis
                moved[other] = puzzle.shape[other] - 1 - moved[other]
                going[other] = -going[other]
    return tuple(moved), tuple(going)


def _reach(puzzle: Puzzle, moves: Piece, a: Coord, occupied: frozenset[Coord] | None) -> list[list[Coord]]:
    """What a piece on `a` attacks: a list per half-line (its cells up to a blocker, or up to and
    including the first piece when pieces block) and one per leap."""
    found: list[list[Coord]] = []
    for vector in moves.leaps:
        for sign in (1, -1):
            landed = _move(puzzle, a, tuple(sign * d for d in vector))
            if landed is not None and landed[0] != a:
                found.append([landed[0]])
    for ray in moves.rays:
        for sign in (1, -1):
            half: list[Coord] = []
            step = _move(puzzle, a, tuple(sign * d for d in ray))
            while step is not None and step[0] != a and step[0] not in puzzle.blockers and len(half) <= puzzle.cells:
                half.append(step[0])
                if occupied is not None and step[0] in occupied:
                    break
                step = _move(puzzle, *step)
            found.append(half)
    return found


def attacked(puzzle: Puzzle, moves: Piece, a: Coord, occupied: frozenset[Coord] | None = None) -> frozenset[Coord]:
    """Every cell a piece with `moves` on `a` attacks: blockers stop slides, and so does the
    first piece when pieces block (`occupied`: the pieces on the board then). Walked once per
    piece, so a rule over pairs of pieces is one set lookup per pair (200 knights on 20 x 20:
    0.5 s when every pair walked both pieces' moves again)."""
    return frozenset(cell for reached in _reach(puzzle, moves, a, occupied) for cell in reached)


_LINES = {"rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1))}


def _line_through(puzzle: Puzzle, cell: Coord, direction: Vector) -> frozenset[Coord]:
    found = {cell}
    for sign in (1, -1):
        step = _move(puzzle, cell, tuple(sign * d for d in direction))
        while step is not None and step[0] not in found and step[0] not in puzzle.blockers:
            found.add(step[0])
            step = _move(puzzle, *step)
    return frozenset(found)


def _check_lines(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    occupied = {cell for cells in answer for cell in cells}
    for family, least, most in puzzle.per_line:
        for direction in _LINES[family]:
            lines = {_line_through(puzzle, cell, direction) for cell in puzzle.board_cells
                     if cell not in puzzle.blockers}
            for line in lines:
                pieces = len(line & occupied)
                if not least <= pieces <= most:
                    raise InvalidPlacement(f"a line of {family} through {min(line)} holds {pieces} pieces, "
                                           f"{least} to {most} allowed")


def _check_regions(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    for region in puzzle.regions:
        armies = range(len(answer)) if region.army is None else (region.army,)
        held = sum(1 for a in armies for cell in answer[a] if cell in region.cells)
        if held < region.least or (region.most is not None and held > region.most):
            raise InvalidPlacement(f"region {region.name or sorted(region.cells)[:3]} holds {held} pieces, "
                                   f"{region.least} to {region.most} allowed")


def _check_attack_bounds(puzzle: Puzzle, answer: ArmyPlacement, occupied: frozenset[Coord] | None) -> None:
    """Each piece's attacked pieces, counted once each: the armies the bound names, found by
    walking its moves (to the first piece along each line when pieces block)."""
    owner = {cell: a for a, cells in enumerate(answer) for cell in cells}
    for bound in puzzle.attack_bounds:
        for a in range(len(answer)) if bound.army is None else (bound.army,):
            for cell in answer[a]:
                reached = {other for half in _reach(puzzle, puzzle.armies[a].piece, cell, occupied) for other in half}
                hit = [other for other in reached if other in owner
                       and (bound.of == "any" or (owner[other] == a) == (bound.of == "own"))]
                if len(hit) < bound.least or (bound.most is not None and len(hit) > bound.most):
                    raise InvalidPlacement(f"{puzzle.armies[a].name} at {cell} attacks {len(hit)} pieces, "
                                           f"{bound.least} to {bound.most} allowed")


def _check_invariant(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    """Each army's cells map onto themselves under each named symmetry (written out here)."""
    n, m = puzzle.rows - 1, puzzle.cols - 1
    images: dict[str, Callable[[int, int], Coord]] = {
        "rotate 90": lambda r, c: (c, n - r), "rotate 180": lambda r, c: (n - r, m - c),
        "rotate 270": lambda r, c: (m - c, r), "flip rows": lambda r, c: (n - r, c),
        "flip columns": lambda r, c: (r, m - c), "transpose": lambda r, c: (c, r),
        "anti-transpose": lambda r, c: (m - c, n - r)}
    for name in puzzle.invariant:
        image = images[SYMMETRIES[name]]
        for army, cells in zip(puzzle.armies, answer, strict=True):
            if {image(*cell) for cell in cells} != set(cells):
                raise InvalidPlacement(f"the pieces of {army.name} are not kept by the {name}")


def _check_cover(puzzle: Puzzle, answer: ArmyPlacement) -> None:
    covered: set[Coord] = set()
    for a, (army, cells) in enumerate(zip(puzzle.armies, answer, strict=True)):
        for cell in cells if puzzle.cover_by in (None, a) else ():
            covered |= attacked(puzzle, army.piece, cell)
            if puzzle.cover_kind == "occupied or attacked":
                covered.add(cell)
    for square in puzzle.board_cells:
        if square not in covered and square not in puzzle.blockers and square not in puzzle.missing:
            raise InvalidPlacement(f"square {square} is not {puzzle.cover_kind}")
