"""The one independent checker every returned solution passes through.

It reads the `Puzzle` (the rules as the user stated them), never the lowered constraints, and
shares no code with the lowering (`queens.models.lowering`): moves are walked here cell by cell
with the board's own wrap arithmetic (twists included), lines for the per-line bounds are found
by walking, attacks are counted piece by piece (stopping at the first piece when pieces block),
a symmetry is checked by mapping the answer, so a bug in the lowering or in a backend cannot
hide itself. An answer is read as the cells of each army (`Puzzle.per_army`) whatever form the
model's variables take.

One army's own attacks have a fast path: on a board where a line key names every line (a 2-D
plane or square torus, `Topology.line_keys`) and nothing stands in the way (no pawns, pieces that
do not block), they are found in O(k) for k pieces, one hash of each ray's key per direction and
a set lookup per leap, so the checker also reads the solutions of 10^6-cell boards.

>>> verify(Puzzle(rows=4, cols=4, pieces=4), [(0, 1), (1, 3), (2, 0), (3, 2)])
((0, 1), (1, 3), (2, 0), (3, 2))
>>> from queens.models.armies import Army
>>> two = Puzzle(shape=(3, 3), armies=(Army("white", least=1, most=1), Army("black", least=1, most=1)), within=False)
>>> verify(two, [(1, (1, 2)), (0, (0, 0))])
((0, (0, 0)), (1, (1, 2)))
>>> verify(two, [(0, (0, 0)), (1, (1, 1))])
Traceback (most recent call last):
...
queens.models.errors.InvalidPlacement: white at (0, 0) and black at (1, 1) attack each other
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import combinations, product
from math import gcd
from typing import cast

from queens.models.errors import InvalidPlacement
from queens.models.geometry import Coord, first_attack
from queens.models.ir import Var
from queens.models.pieces import Cell, Piece, Vector
from queens.models.placement import PerArmy, Placement
from queens.models.puzzle import Puzzle
from queens.models.rules import SYMMETRIES

__all__ = ["attacked", "board_count", "verify"]


def verify(puzzle: Puzzle, placement: Iterable[Var]) -> Placement:
    """The placement sorted, as the model's variables (cells, or (army, cell) pairs:
    `queens.models.placement`), or `InvalidPlacement` naming the first broken rule."""
    answer = _per_army(puzzle, placement)
    _check_cells(puzzle, answer)
    _check_sizes(puzzle, answer)
    occupied = frozenset(cell for cells in answer for cell in cells) if puzzle.blocking else None
    if puzzle.within:
        for a, cells in enumerate(answer):
            _check_within(puzzle, a, cells, occupied)
    if puzzle.between and len(answer) > 1:
        _check_between(puzzle, answer, occupied)
    _check_lines(puzzle, answer)
    _check_regions(puzzle, answer)
    _check_slope_lines(puzzle, answer)
    _check_connected(puzzle, answer)
    _check_private(puzzle, answer, occupied)
    _check_attack_bounds(puzzle, answer, occupied)
    _check_invariant(puzzle, answer)
    _check_board_counts(puzzle, answer, occupied)
    if puzzle.cover:
        _check_cover(puzzle, answer)
    return puzzle.placement_of(answer)


def _per_army(puzzle: Puzzle, placement: Iterable[Var]) -> PerArmy:
    """The answer's cells, one sorted tuple per army, read as whole numbers (a backend may hand
    numpy integers): cells when the puzzle's variables are its cells, else (army, cell) pairs."""
    found = list(placement)
    if puzzle.cells_are_variables:
        try:
            return (tuple(sorted((int(r), int(c)) for r, c in found)),)
        except (TypeError, ValueError):
            pass  # named below
    armies: list[list[Coord]] = [[] for _ in puzzle.armies]
    for var in found:
        try:
            if puzzle.cells_are_variables:
                r, c = var
                armies[0].append((int(r), int(c)))
                continue
            a, cell = int(var[0]), tuple(int(x) for x in var[1])
        except (TypeError, ValueError, IndexError):
            form = "cells (row, col)" if puzzle.cells_are_variables else "(army, cell) pairs"
            raise InvalidPlacement(f"a placement of {puzzle.name} lists {form}, got {var!r}") from None
        if not 0 <= a < len(armies):
            raise InvalidPlacement(f"no army number {a}")
        armies[a].append(cell)
    return tuple(tuple(sorted(cells)) for cells in armies)


def _who(puzzle: Puzzle, a: int) -> str:
    """How a message names a piece of army `a`: "piece" when there is one army, else its army."""
    return "piece" if len(puzzle.armies) == 1 else puzzle.armies[a].name


def _check_cells(puzzle: Puzzle, answer: PerArmy) -> None:
    seen: set[Coord] = set()
    shape, blockers, closed = puzzle.shape, puzzle.blockers, puzzle.holes | puzzle.missing
    rows, cols = shape[0], shape[1]
    flat = len(shape) == 2  # the 2-D case spelt out: the solutions of 10^6-cell boards are checked too
    for a, (army, cells) in enumerate(zip(puzzle.armies, answer, strict=True)):
        for cell in cells:
            if not (len(cell) == 2 and 0 <= cell[0] < rows and 0 <= cell[1] < cols if flat
                    else len(cell) == len(shape) and all(0 <= x < side for x, side in zip(cell, shape, strict=True))):
                raise InvalidPlacement(f"{_who(puzzle, a)} at {cell} is off the {puzzle.size_text} board")
            if cell in blockers:
                raise InvalidPlacement(f"{_who(puzzle, a)} at {cell} stands on a pawn")
            if cell in closed:
                raise InvalidPlacement(f"{_who(puzzle, a)} at {cell} stands on a hole (or a missing square)")
            if cell in seen:
                raise InvalidPlacement(f"two pieces stand on the same cell, {cell}")
            seen.add(cell)
        if army.fixed and not army.fixed <= set(cells):
            whose = "" if len(puzzle.armies) == 1 else f" of {army.name}"
            raise InvalidPlacement(f"pre-placed piece{whose} at {min(army.fixed - set(cells))} was removed")
    if puzzle.partition:
        for cell in puzzle.board_cells:
            if cell not in seen and cell not in puzzle.holes | puzzle.blockers | puzzle.missing:
                raise InvalidPlacement(f"cell {cell} holds no piece, and the armies must fill the board")


def _check_sizes(puzzle: Puzzle, answer: PerArmy) -> None:
    goal_sizes = {len(cells) for army, cells in zip(puzzle.armies, answer, strict=True) if army.goal}
    if len(goal_sizes) > 1:
        raise InvalidPlacement(f"the armies with a goal must hold equal numbers, not {sorted(goal_sizes)}")
    for army, cells in zip(puzzle.armies, answer, strict=True):
        if len(cells) < army.least or (army.most is not None and len(cells) > army.most):
            wanted = army.least if army.least == army.most else f"{army.least} to {army.most}"
            if len(puzzle.armies) == 1:
                raise InvalidPlacement(f"{len(cells)} pieces placed, {wanted} required")
            raise InvalidPlacement(f"{army.name} has {len(cells)} pieces, {wanted} required")


# -- one army's own attacks ---------------------------------------------------------------


def _keyed(puzzle: Puzzle, occupied: frozenset[Coord] | None) -> bool:
    """Whether one army's attacks may be read off line keys: a plane or a square torus with
    nothing in the way (no pawns, pieces that do not block)."""
    return occupied is None and not puzzle.blockers and puzzle.topology.keyed


def _check_within(puzzle: Puzzle, a: int, cells: tuple[Coord, ...], occupied: frozenset[Coord] | None) -> None:
    """No two pieces of one army attack; with a `line_cap` above 1, a slide may see that many."""
    army = puzzle.armies[a]
    piece = army.piece if army.line_cap == 1 else Piece(army.piece.name, leaps=army.piece.leaps)
    pairs: list[tuple[Coord, Coord, str]] = []
    if _keyed(puzzle, occupied):
        clash = first_attack(piece, cast(list[Cell], list(cells)), topology=puzzle.topology, pawns=frozenset())
        pairs += [clash] if clash else []
    else:
        own = frozenset(cells)
        pairs += [(min(x, y), max(x, y), "attack each other")
                  for x in cells for y in attacked(puzzle, piece, x, occupied) & own]
    if pairs:
        x, y, how = min(pairs)
        who = "pieces" if len(puzzle.armies) == 1 else f"two pieces of {army.name}"
        raise InvalidPlacement(f"{who} at {x} and {y} {how}")
    if army.line_cap > 1:
        _check_crowded_lines(puzzle, a, cells, occupied)


def _check_crowded_lines(puzzle: Puzzle, a: int, cells: tuple[Coord, ...], occupied: frozenset[Coord] | None) -> None:
    """No line of the army's rays (cut at pawns) holds more than its `line_cap` pieces: counted
    by line key on a keyed board, else by walking each piece's line. The line named is the one
    through the first piece that stands on a crowded line."""
    army = puzzle.armies[a]
    crowded: list[tuple[Coord, int, list[Coord]]] = []
    for index, ray in enumerate(army.piece.rays):
        if _keyed(puzzle, occupied):
            keys = puzzle.topology.line_keys(cast(Cell, ray), cast(list[Cell], list(cells)))
            lines = [[c for c, k in zip(cells, keys, strict=True) if k == key]
                     for key, held in Counter(keys).items() if held > army.line_cap]
        else:
            lines = [sorted(line.intersection(cells)) for line in {_line_through(puzzle, cell, ray) for cell in cells}]
        crowded += [(line[0], index, line) for line in lines if len(line) > army.line_cap]
    if crowded:
        first, index, held = min(crowded)
        whose = "" if len(puzzle.armies) == 1 else f" of {army.name}"
        raise InvalidPlacement(f"{len(held)} pieces{whose} on the line through {first} along "
                               f"{army.piece.rays[index]}, at most {army.line_cap} allowed: {held}")


# -- walking the moves --------------------------------------------------------------------


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


def _reach(puzzle: Puzzle, piece: Piece, a: Coord, occupied: frozenset[Coord] | None) -> list[list[Coord]]:
    """What a piece on `a` attacks: a list per half-line (its cells up to a blocker, or up to and
    including the first piece when pieces block) and one per leap."""
    found: list[list[Coord]] = []
    for vector in piece.leaps:
        for sign in (1, -1):
            landed = _move(puzzle, a, tuple(sign * d for d in vector))
            if landed is not None and landed[0] != a:
                found.append([landed[0]])
    for ray in piece.rays:
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


def attacked(puzzle: Puzzle, piece: Piece, a: Coord, occupied: frozenset[Coord] | None = None) -> frozenset[Coord]:
    """Every cell a `piece` on `a` attacks: blockers stop slides, and so does the first piece
    when pieces block (`occupied`: the pieces on the board then). Walked once per piece, so a
    rule over pairs of pieces is one set lookup per pair, not a walk of both pieces' moves again
    for every pair (experiments/results/design-choices.md).

    >>> sorted(attacked(Puzzle(rows=3, cols=3, pieces=1), Piece("rook", rays=((0, 1),)), (1, 1)))
    [(1, 0), (1, 2)]
    """
    return frozenset(cell for reached in _reach(puzzle, piece, a, occupied) for cell in reached)


def _line_through(puzzle: Puzzle, cell: Coord, direction: Vector) -> frozenset[Coord]:
    found = {cell}
    for sign in (1, -1):
        step = _move(puzzle, cell, tuple(sign * d for d in direction))
        while step is not None and step[0] not in found and step[0] not in puzzle.blockers:
            found.add(step[0])
            step = _move(puzzle, *step)
    return frozenset(found)


# -- rules between armies and bounds ------------------------------------------------------


def _check_between(puzzle: Puzzle, answer: PerArmy, occupied: frozenset[Coord] | None) -> None:
    reach = [{cell: attacked(puzzle, army.piece, cell, occupied) for cell in cells}
             for army, cells in zip(puzzle.armies, answer, strict=True)]
    for a, b in combinations(range(len(answer)), 2):
        for x in answer[a]:
            for y in answer[b]:
                if y in reach[a][x] or x in reach[b][y]:
                    raise InvalidPlacement(f"{puzzle.armies[a].name} at {x} and {puzzle.armies[b].name} at {y} "
                                           "attack each other")


_LINES = {"rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1))}


def _check_lines(puzzle: Puzzle, answer: PerArmy) -> None:
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


def _check_regions(puzzle: Puzzle, answer: PerArmy) -> None:
    for region in puzzle.regions:
        armies = range(len(answer)) if region.army is None else (region.army,)
        held = sum(1 for a in armies for cell in answer[a] if cell in region.cells)
        if held < region.least or (region.most is not None and held > region.most):
            raise InvalidPlacement(f"region {region.name or sorted(region.cells)[:3]} holds {held} pieces, "
                                   f"{region.least} to {region.most} allowed")


def _check_slope_lines(puzzle: Puzzle, answer: PerArmy) -> None:
    """Every line of every slope the rule reads, found as the cells that share a slope's
    invariant dc*r - dr*c (not walked, as the lowering does), its pieces counted."""
    rows, cols = puzzle.rows, puzzle.cols
    for rule in puzzle.slope_lines:
        armies = range(len(answer)) if rule.army is None else (rule.army,)
        pieces = {cell for a in armies for cell in answer[a]}
        slopes = rule.slopes if rule.slopes is not None else {
            (dr // gcd(dr, dc), dc // gcd(dr, dc)) for dr in range(rows) for dc in range(1 - cols, cols)
            if (dr > 0 or dc > 0)}
        for dr, dc in slopes:
            lines: dict[int, list[int]] = {}
            for r, c in product(range(rows), range(cols)):
                tally = lines.setdefault(dc * r - dr * c, [0, 0])
                tally[0] += 1
                tally[1] += (r, c) in pieces
            for at, (cells, held) in lines.items():
                if cells >= rule.through and not (rule.least <= held <= (held if rule.most is None else rule.most)):
                    raise InvalidPlacement(f"a line of slope [{dr}, {dc}] (dc*r - dr*c = {at}) holds {held} pieces, "
                                           f"{rule.least} to {rule.most} allowed")


_STEPS = {"king": {(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - {(0, 0)},
          "rook": {(-1, 0), (1, 0), (0, -1), (0, 1)}}
"""The squares one step away, by the adjacency's name (the checker's own, not the lowering's)."""


def _check_connected(puzzle: Puzzle, answer: PerArmy) -> None:
    """Each army the rule names is one group: a search from one of its pieces reaches all, a
    step at a time (on the board's own wrap arithmetic) or by the piece's attacks."""
    for rule in puzzle.connected:
        for a in range(len(answer)) if rule.army is None else (rule.army,):
            pieces = set(answer[a])
            if len(pieces) < 2:
                continue
            start = min(pieces)
            seen, todo = {start}, [start]
            while todo:
                cell = todo.pop()
                if rule.by == "moves":
                    near = {other for half in _reach(puzzle, puzzle.armies[a].piece, cell, None) for other in half}
                else:
                    near = {landed[0] for step in _STEPS[rule.by] if (landed := _move(puzzle, cell, step)) is not None}
                for other in (near & pieces) - seen:
                    seen.add(other)
                    todo.append(other)
            if seen != pieces:
                raise InvalidPlacement(f"{puzzle.armies[a].name} is not one group by {rule.by} steps: "
                                       f"{min(pieces - seen)} is cut off from {start}")


def _check_private(puzzle: Puzzle, answer: PerArmy, occupied: frozenset[Coord] | None) -> None:
    """Each army a rule names: how many of its pieces cover each square (occupy it, under an
    "occupied or attacked" cover, or attack it, walked to the first piece when pieces block);
    each piece needs a square covered once ("some"), or every square it covers is ("all")."""
    for rule in puzzle.private:
        for a in range(len(answer)) if rule.army is None else (rule.army,):
            covers = {cell: {square for square in attacked(puzzle, puzzle.armies[a].piece, cell, occupied)
                             | ({cell} if puzzle.cover_kind == "occupied or attacked" else set())
                             if square not in puzzle.blockers and square not in puzzle.missing}
                      for cell in answer[a]}
            times = Counter(square for squares in covers.values() for square in squares)
            for cell, squares in covers.items():
                once = [square for square in squares if times[square] == 1]
                if rule.squares == "some" and not once:
                    raise InvalidPlacement(f"{_who(puzzle, a)} at {cell} covers no square that no other covers")
                if rule.squares == "all" and len(once) < len(squares):
                    raise InvalidPlacement(f"square {min(set(squares) - set(once))} is covered twice "
                                           f"by {puzzle.armies[a].name}")


def _check_attack_bounds(puzzle: Puzzle, answer: PerArmy, occupied: frozenset[Coord] | None) -> None:
    """Each piece's attacked pieces, counted once each: the armies the bound names, found by
    walking its moves (to the first piece along each line when pieces block)."""
    if not puzzle.attack_bounds:
        return
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


def _check_invariant(puzzle: Puzzle, answer: PerArmy) -> None:
    """Each army's cells map onto themselves under each named symmetry (written out here)."""
    if not puzzle.invariant:
        return
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


def _check_cover(puzzle: Puzzle, answer: PerArmy) -> None:
    covered: set[Coord] = set()
    for a, (army, cells) in enumerate(zip(puzzle.armies, answer, strict=True)):
        for cell in cells if puzzle.cover_by in (None, a) else ():
            covered |= attacked(puzzle, army.piece, cell)
            if puzzle.cover_kind == "occupied or attacked":
                covered.add(cell)
    for square in puzzle.board_cells:
        if square not in covered and square not in puzzle.blockers and square not in puzzle.missing:
            lacks = "neither occupied nor attacked" if puzzle.cover_kind == "occupied or attacked" else "not attacked"
            raise InvalidPlacement(f"square {square} is {lacks}")


def board_count(puzzle: Puzzle, answer: PerArmy, of: str, occupied: frozenset[Coord] | None = None) -> int:
    """A board-wide count of an answer (`queens.models.board_counts`), by walking every piece's
    moves: its attacking pairs (a pair counted once, whichever attacks), its attacked squares
    or its safe squares (neither occupied nor attacked), blockers and missing squares left out.

    >>> queen = Puzzle(rows=3, cols=3, pieces=2)
    >>> [board_count(queen, (((0, 0), (2, 2)),), of) for of in ("attacking pairs", "attacked squares", "safe squares")]
    [1, 9, 0]
    """
    if occupied is None and puzzle.blocking:
        occupied = frozenset(cell for cells in answer for cell in cells)
    reach = [attacked(puzzle, army.piece, cell, occupied) for army, cells in zip(puzzle.armies, answer, strict=True)
             for cell in cells]
    if of == "attacking pairs":
        pieces = [cell for cells in answer for cell in cells]
        return sum(1 for i, j in combinations(range(len(pieces)), 2)
                   if pieces[j] in reach[i] or pieces[i] in reach[j])
    hit = frozenset().union(*reach)
    held = {cell for cells in answer for cell in cells}
    squares = [cell for cell in puzzle.board_cells if cell not in puzzle.blockers and cell not in puzzle.missing]
    if of == "attacked squares":
        return sum(1 for square in squares if square in hit)
    return sum(1 for square in squares if square not in hit and square not in held)


def _check_board_counts(puzzle: Puzzle, answer: PerArmy, occupied: frozenset[Coord] | None) -> None:
    for count in puzzle.board_counts:
        found = board_count(puzzle, answer, count.of, occupied)
        if found < count.least or (count.most is not None and found > count.most):
            raise InvalidPlacement(f"the board has {found} {count.of}, {count.least} to {count.most} allowed")
