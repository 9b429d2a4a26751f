"""Board geometry: the topology, and attacks as the rules state them.

Kept apart from the lowering on purpose: the checker must not reuse the code that builds
the constraints it is checking.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import gcd
from typing import overload

from queens.models.pieces import Cell, Piece

Coord = tuple[int, ...]
"""A cell of a board of any dimension: (row, col) on a 2-D board, (x, y, z) on a cube."""


@dataclass(frozen=True)
class Topology:
    """The board's shape and how its edges join: the one place that decides where a step lands.

    A plane stops at its edges; a torus wraps both axes; a cylinder wraps one (`wrap` holds one
    flag per axis); a cube is a 3-D shape. A 2-D board may also join one wrapped axis with a
    twist (`twist`, one flag per axis): a Möbius strip twists the one axis it wraps, a Klein
    bottle wraps both and twists one. Crossing a twisted edge mirrors the other axis, so the
    direction of travel turns there (see `move`). Lines, the checkers, the trace, the pictures
    and the conflict graph all move through `step`, `move` and `walk`, so a new board shape is
    one change here. Holes are not a matter of topology: a line passes over a cell that holds no
    piece, so the models leave such cells out of their variables instead.

    >>> Topology((4, 4)).step((3, 3), (1, 1)) is None
    True
    >>> Topology((4, 4), wrap=(True, True)).step((3, 3), (1, 1))
    (0, 0)
    >>> list(Topology((3, 3), wrap=(False, True)).walk((0, 1), (0, 1)))
    [(0, 2), (0, 0)]
    >>> Topology((3, 3, 3)).line((1, 1, 1), (1, 1, 1))
    [(0, 0, 0), (1, 1, 1), (2, 2, 2)]
    >>> Topology((3, 3), wrap=(False, True), twist=(False, True)).step((0, 2), (0, 1))
    (2, 0)
    """

    shape: Coord
    wrap: tuple[bool, ...] = ()
    twist: tuple[bool, ...] = ()
    _twisted_axis: int | None = field(init=False, repr=False, compare=False, default=None)
    """The axis whose edges join with a twist, if any: read on every step, so worked out once."""

    def __post_init__(self) -> None:
        if not self.wrap:
            object.__setattr__(self, "wrap", (False,) * len(self.shape))
        if not self.twist:
            object.__setattr__(self, "twist", (False,) * len(self.shape))
        if len(self.wrap) != len(self.shape):
            raise ValueError(f"one wrap flag per axis: shape {self.shape}, wrap {self.wrap}")
        if len(self.twist) != len(self.shape):
            raise ValueError(f"one twist flag per axis: shape {self.shape}, twist {self.twist}")
        if any(self.twist):
            self._check_twist()
            object.__setattr__(self, "_twisted_axis", self.twist.index(True))

    def _check_twist(self) -> None:
        """Refuse the twists that have no well-defined step."""
        if len(self.shape) != 2:
            raise ValueError(f"a twist joins the edges of a 2-D board; shape {self.shape} is not one")
        if all(self.twist):
            raise ValueError("both axes twisted (the projective plane) is not supported: its corners are "
                             "cone points where two corners meet, so a step across a corner has no "
                             "consistent landing cell or direction")
        for axis, (twisted, wraps) in enumerate(zip(self.twist, self.wrap, strict=True)):
            if twisted and not wraps:
                raise ValueError(f"axis {axis} is twisted but does not wrap: a twist is a way of joining "
                                 f"an axis's two edges, so the axis must wrap (wrap {self.wrap})")

    @classmethod
    def of(cls, rows: int, cols: int, toroidal: bool) -> Topology:
        """The plane, or the torus when `toroidal`."""
        return cls((rows, cols), (toroidal, toroidal))

    @property
    def rows(self) -> int:
        return self.shape[0]

    @property
    def cols(self) -> int:
        return self.shape[1]

    @property
    def toroidal(self) -> bool:
        """Every axis wraps, none with a twist (a Klein bottle wraps both axes but is no torus)."""
        return all(self.wrap) and self._twisted_axis is None

    @property
    def keyed(self) -> bool:
        """Whether `line_keys` names lines: on the plane and on a square torus, not on a cylinder,
        a cube or a twisted board (where a diagonal turns into an anti-diagonal at the twist)."""
        return len(self.shape) == 2 and (not any(self.wrap) or (self.toroidal and self.rows == self.cols))

    def contains(self, cell: Coord) -> bool:
        return all(0 <= x < side for x, side in zip(cell, self.shape, strict=True))

    @overload
    def step(self, cell: Cell, vector: Cell) -> Cell | None: ...
    @overload
    def step(self, cell: Coord, vector: Coord) -> Coord | None: ...

    def step(self, cell: Coord, vector: Coord) -> Coord | None:
        """The cell `vector` away from `cell`, across a wrapped edge; None off the board.
        (Across a twisted edge the direction turns too: `move` says how.)"""
        if self._twisted_axis is not None:
            crossed = self._cross(cell, vector, self._twisted_axis)
            return None if crossed is None else crossed[0]
        if len(cell) == 2:  # the plane's case spelt out: a third of the general case's time, and
            rows, cols = self.shape  # lowering a 200 x 200 board takes hundreds of thousands of steps
            r, c = cell[0] + vector[0], cell[1] + vector[1]
            if self.wrap[0]:
                r %= rows
            if self.wrap[1]:
                c %= cols
            return (r, c) if 0 <= r < rows and 0 <= c < cols else None
        moved = tuple((x + d) % side if wraps else x + d
                      for x, d, side, wraps in zip(cell, vector, self.shape, self.wrap, strict=True))
        return moved if self.contains(moved) else None

    def move(self, cell: Coord, direction: Coord) -> tuple[Coord, Coord] | None:
        """The cell one `direction` away from `cell` and the direction to go on with from there;
        None off the board.

        The direction only changes across a twisted edge: the twist mirrors the other axis, so
        the direction's component along that axis changes sign. A line that left the right
        edge of a Möbius strip going down-right comes in at the left edge going up-right. A
        leap that crosses the edge is one move too: it lands where the leap, drawn on two
        copies of the board laid side by side (the second one mirrored), ends.

        >>> moebius = Topology((3, 4), wrap=(False, True), twist=(False, True))
        >>> moebius.move((0, 3), (1, 1))
        ((1, 0), (-1, 1))
        >>> moebius.move((0, 3), (2, 1))
        ((0, 0), (-2, 1))
        >>> Topology((3, 4)).move((0, 3), (1, 1)) is None
        True
        """
        if self._twisted_axis is not None:
            return self._cross(cell, direction, self._twisted_axis)
        moved = self.step(cell, direction)
        return None if moved is None else (moved, direction)

    def _cross(self, cell: Coord, direction: Coord, twisted: int) -> tuple[Coord, Coord] | None:
        """`move` on a 2-D board whose axis `twisted` wraps with a twist.

        The board is one tile of a strip of tiles along the twisted axis, every other tile
        mirrored across the other axis: take the step on the strip, then count the edges
        crossed (`turns`), and an odd count mirrors the cell and the direction.
        """
        other = 1 - twisted
        turns, along = divmod(cell[twisted] + direction[twisted], self.shape[twisted])
        across, heading = cell[other] + direction[other], direction[other]
        if turns % 2:
            across, heading = self.shape[other] - 1 - across, -heading
        if self.wrap[other]:
            across %= self.shape[other]
        elif not 0 <= across < self.shape[other]:
            return None
        if twisted == 1:
            return (across, along), (heading, direction[1])
        return (along, across), (direction[0], heading)

    @overload
    def walk(self, start: Cell, direction: Cell) -> Iterator[Cell]: ...
    @overload
    def walk(self, start: Coord, direction: Coord) -> Iterator[Coord]: ...

    def walk(self, start: Coord, direction: Coord) -> Iterator[Coord]:
        """The cells after `start` along `direction`, to the edge (or once round a closed line).

        On a twisted board the walk carries its direction, which turns at the twist; a closed
        line is done when the walk is back on `start` heading the way it set out. On the way it
        may pass a cell twice, once each way across the twist, and even `start` itself: a
        Klein bottle's diagonal through the middle row of an odd board does.

        >>> list(Topology((3, 3), wrap=(False, True), twist=(False, True)).walk((0, 1), (1, 1)))
        [(1, 2), (0, 0)]
        """
        if self._twisted_axis is not None:
            yield from (cell for cell, _ in self._states(start, direction))
            return
        cell = self.step(start, direction)
        while cell is not None and cell != start:
            yield cell
            cell = self.step(cell, direction)

    def _states(self, start: Coord, direction: Coord) -> Iterator[tuple[Coord, Coord]]:
        """Each cell after `start` with the direction the walk goes on with from it, until the
        edge or until back at (`start`, `direction`)."""
        moved = self.move(start, direction)
        while moved is not None and moved != (start, direction):
            yield moved
            moved = self.move(*moved)

    def _trace(self, start: Coord, direction: Coord) -> tuple[list[tuple[Coord, Coord]], bool]:
        """The whole line through `start` along `direction`, as (cell, direction) states in
        walking order from its first cell (from `start` when closed), and whether it is closed.

        Every move can be undone (a move along the reversed direction), so walking back from
        `start` either reaches an edge, the line's first cell, or comes round to `start`.
        """
        back = tuple(-d for d in direction)
        end = (start, back)
        for state in self._states(start, back):
            end = state
        if self.move(*end) is not None:  # the walk back stopped at `start`: a closed line
            return [(start, direction), *self._states(start, direction)], True
        first = (end[0], tuple(-d for d in end[1]))
        return [first, *self._states(*first)], False

    @overload
    def line(self, start: Cell, direction: Cell) -> list[Cell]: ...
    @overload
    def line(self, start: Coord, direction: Coord) -> list[Coord]: ...

    def line(self, start: Coord, direction: Coord) -> list[Cell] | list[Coord]:
        """The whole line through `start` along `direction`, from its first cell (from `start`
        on a closed line, which has no first cell).

        On a twisted board a line may pass a cell twice (once each way across the twist); it
        lists the cell once, where the walk first reaches it.

        >>> Topology((3, 3)).line((1, 1), (1, 1))
        [(0, 0), (1, 1), (2, 2)]
        >>> Topology((3, 3), wrap=(False, True), twist=(False, True)).line((0, 0), (0, 1))
        [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]
        """
        if self._twisted_axis is not None:
            return list(dict.fromkeys(cell for cell, _ in self._trace(start, direction)[0]))
        back = tuple(-d for d in direction)
        first = start
        while (previous := self.step(first, back)) is not None:
            if previous == start:
                return [start, *self.walk(start, direction)]
            first = previous
        return [first, *self.walk(first, direction)]

    @overload
    def lines(self, direction: Cell, board: Sequence[Cell] = ()) -> Sequence[Sequence[Cell]]: ...
    @overload
    def lines(self, direction: Coord, board: Sequence[Coord] = ()) -> Sequence[Sequence[Coord]]: ...

    def lines(self, direction: Coord,
              board: Sequence[Coord] = ()) -> Sequence[Sequence[Cell]] | Sequence[Sequence[Coord]]:
        """Every line that leaves some cell along `direction`, each once and in order from its
        first cell (as `line`; a closed line from its least cell).

        A line that leaves the board starts on the band of cells one step from an edge that
        does not wrap, so those lines are laid out by arithmetic from their starts (on a large board
        a fraction of the time of a walk cell by cell through `step`:
        experiments/results/design-choices.md); closed
        lines (every moving axis wraps) are found by a scan of the board. On a twisted board every
        line is traced cell by cell, and a line along (1, 1) may turn into one along (1, -1) at
        the twist (`ray_lines` gathers the lines of several rays).

        `board`, every cell in row-major order (as `itertools.product` of the sides), makes the
        open lines of a board without wrapping out of those same objects, picked by their flat
        index: no new tuples (10^6 cells: 4 x 10^6 fewer), each line a slice of `board` (a
        tuple when `board` is one, so a `Line` takes it as it is, without a second copy).

        >>> Topology((2, 3)).lines((1, 1))
        [[(0, 0), (1, 1)], [(0, 1), (1, 2)], [(0, 2)], [(1, 0)]]
        >>> Topology((2, 2), wrap=(True, True)).lines((0, 1))
        [[(0, 0), (0, 1)], [(1, 0), (1, 1)]]
        """
        if self._twisted_axis is not None:
            return self._traced_lines([direction])
        moving = [i for i, d in enumerate(direction) if d]
        if all(self.wrap[i] for i in moving):
            return self._closed_lines(direction)
        bands = [
            itertools.product(*(
                (range(d) if d > 0 else range(side + d, side)) if i == axis else range(side)
                for i, (side, d) in enumerate(zip(self.shape, direction, strict=True))
            ))
            for axis in moving if not self.wrap[axis]
        ]
        starts = sorted({cell for band in bands for cell in band if self.contains(cell)})  # a leap longer than a side
        if board and not any(self.wrap):
            return [self._open_run_of(board, start, direction) for start in starts]
        return [self._open_run(start, direction) for start in starts]

    def _steps(self, start: Coord, direction: Coord) -> int:
        """How many steps from `start` before a non-wrapping axis leaves the board."""
        return min((side - 1 - x) // d if d > 0 else x // -d
                   for x, d, side, wraps in zip(start, direction, self.shape, self.wrap, strict=True)
                   if d and not wraps)

    def _open_run_of(self, board: Sequence[Coord], start: Coord, direction: Coord) -> Sequence[Coord]:
        """The line from `start`, its cells taken from `board` by flat index (no wrapping)."""
        strides = [math.prod(self.shape[i + 1:]) for i in range(len(self.shape))]
        first = sum(x * s for x, s in zip(start, strides, strict=True))
        step = sum(d * s for d, s in zip(direction, strides, strict=True))
        length = self._steps(start, direction) + 1
        if length == 1:  # a leap as long as a side can have a flat step of 0
            return [board[first]]
        stop = first + length * step
        return board[first:stop if stop >= 0 else None:step]  # a slice: copied at C speed

    def _open_run(self, start: Coord, direction: Coord) -> list[Coord]:
        """The line from `start` until a non-wrapping axis leaves the board."""
        length = self._steps(start, direction) + 1
        axes = [itertools.repeat(x, length) if not d
                else [(x + k * d) % side for k in range(length)] if wraps
                else range(x, x + length * d, d)
                for x, d, side, wraps in zip(start, direction, self.shape, self.wrap, strict=True)]
        return list(zip(*axes, strict=False))

    def _closed_lines(self, direction: Coord) -> list[list[Coord]]:
        seen: set[Coord] = set()
        found: list[list[Coord]] = []
        for cell in itertools.product(*(range(side) for side in self.shape)):
            if cell not in seen:
                found.append(self.line(cell, direction))
                seen.update(found[-1])
        return found

    def ray_lines(self, rays: Sequence[Coord]) -> list[list[Coord]]:
        """Every maximal line along any of `rays` (a ray and its opposite make one line), each
        once, in walking order from its first cell (a closed line from its least cell).

        This is what a lowering wants on any board: two cells attack each other along a ray of a
        piece exactly when they share a line of `ray_lines(piece.rays)`. On a twisted board a
        line that sets out along (1, 1) goes on along (1, -1) after the twist, so asking for each
        ray's `lines` apart would give the same cells twice. Lines with the same cells are
        listed once (the first found: lines of `rays[0]` first on an untwisted board, else in
        row-major order of the cells they leave), and on a twisted board a line that passes a
        cell twice lists it once.

        >>> Topology((2, 2), wrap=(True, True)).ray_lines([(1, 1), (1, -1)])  # one set, two rays
        [[(0, 0), (1, 1)], [(0, 1), (1, 0)]]
        >>> Topology((3, 3), wrap=(False, True), twist=(False, True)).ray_lines([(1, 1), (1, -1)])[:2]
        [[(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 2), (0, 1)]]
        """
        if self._twisted_axis is not None:
            return self._traced_lines(rays)
        once: dict[Coord, Coord] = {}  # the first of a ray and its opposite, by their common line
        for ray in rays:
            once.setdefault(_unsigned(ray), ray)
        lines = [list(line) for ray in once.values() for line in self.lines(ray)]
        if any(self.wrap):
            return _distinct(lines)
        # On the plane two lines along different directions share at most one cell (and one
        # along 2r misses every other cell of one along r), so only lines of one cell repeat:
        # no need to hash the 10^6 cells of a 1000 x 1000 board's lines.
        return _distinct(lines, longer_are_distinct=True)

    def _traced_lines(self, rays: Sequence[Coord]) -> list[list[Coord]]:
        """Every line along any of `rays` on a twisted board, traced cell by cell: from each cell
        in row-major order along each ray whose line through it is not yet known (a cell and a
        direction, either way round, name one line); a closed line from its least cell."""
        known: set[tuple[Coord, Coord]] = set()
        found: list[list[Coord]] = []
        for cell in itertools.product(*(range(side) for side in self.shape)):
            for ray in rays:
                if (cell, _unsigned(ray)) in known:
                    continue
                states, closed = self._trace(cell, ray)
                known.update((at, _unsigned(heading)) for at, heading in states)
                cells = [at for at, _ in states]
                if closed:
                    least = cells.index(min(cells))
                    cells = cells[least:] + cells[:least]
                found.append(list(dict.fromkeys(cells)))
        return _distinct(found)

    def line_keys(self, direction: Coord, cells: Sequence[Cell]) -> list[int]:
        """For each of `cells`, an integer that is the same for every cell of one line along
        `direction`: two cells share a line exactly when their keys are equal. All cells in one
        call, because the checker asks it of every solution an enumeration finds.

        For direction (dr, dc) the quantity dc*r - dr*c is invariant along a line of the plane:
        columns (1, 0) give -c, diagonals (1, 1) give r - c, anti-diagonals (1, -1) give -(r + c).
        On a square torus it is taken modulo the side.

        >>> Topology((8, 8)).line_keys((1, 1), [(5, 2), (7, 4), (0, 0)])
        [3, 3, 0]
        """
        dr, dc = direction
        if self.toroidal:
            side = self.rows
            return [(dc * r - dr * c) % side for r, c in cells]
        return [dc * r - dr * c for r, c in cells]


def _unsigned(direction: Coord) -> Coord:
    """One of `direction` and its opposite, the same for both: a line has no way round."""
    return max(direction, tuple(-d for d in direction))


def _distinct(lines: Iterable[list[Coord]], longer_are_distinct: bool = False) -> list[list[Coord]]:
    """`lines` without those whose cells an earlier one already holds, in their order
    (comparing only lines of one cell when the caller knows that longer lines are distinct)."""
    seen: set[frozenset[Coord]] = set()
    kept: list[list[Coord]] = []
    for line in lines:
        if longer_are_distinct and len(line) > 1:
            kept.append(line)
            continue
        cells = frozenset(line)
        if cells not in seen:
            seen.add(cells)
            kept.append(line)
    return kept


def attacks(piece: Piece, a: Cell, b: Cell, *, topology: Topology, pawns: frozenset[Coord]) -> bool:
    """Whether a piece on `a` attacks `b` (pawns block rays; leaps jump over them)."""
    if a == b:
        return False
    for lr, lc in piece.leaps:
        if b in (topology.step(a, (lr, lc)), topology.step(a, (-lr, -lc))):
            return True
    for ray in piece.rays:
        if topology.keyed:
            key_a, key_b = topology.line_keys(ray, (a, b))
            if key_a != key_b:
                continue
        for direction in (ray, (-ray[0], -ray[1])):
            for cell in topology.walk(a, direction):
                if cell == b:
                    return True
                if cell in pawns:
                    break
    return False


_LINE_NAMES: dict[Coord, str] = {(0, 1): "row", (1, 0): "column", (1, 1): "diagonal", (1, -1): "anti-diagonal"}


def first_attack(
    piece: Piece, cells: Iterable[Cell], *, topology: Topology, pawns: frozenset[Coord]
) -> tuple[Cell, Cell, str] | None:
    """The first two cells that attack each other, and how ("share a diagonal"), or None.

    Without pawns this is O(k) for k cells: one hash of each line key per direction, and a set
    lookup per leap. With pawns (small boards only) pairs are tested with `attacks`.
    """
    cells = list(cells)
    if pawns or not topology.keyed:
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                if attacks(piece, a, b, topology=topology, pawns=pawns):
                    return a, b, "attack each other"
        return None
    for direction in piece.rays:
        keys = topology.line_keys(direction, cells)
        if len(set(keys)) == len(keys):
            continue
        seen: dict[int, Cell] = {}
        for cell, key in zip(cells, keys, strict=True):
            if key in seen:
                line = _LINE_NAMES.get(direction, f"line {direction}")
                return seen[key], cell, f"share {'an' if line[0] in 'aeiou' else 'a'} {line}"
            seen[key] = cell
    occupied = set(cells)
    for a in cells:
        for leap in piece.leaps:
            target = topology.step(a, leap)
            if target is not None and target in occupied and target != a:
                return a, target, "attack each other by a leap"
    return None


def torus_is_safe(n: int) -> bool:
    """Pólya (1918): n queens fit on an n x n torus exactly when gcd(n, 6) == 1."""
    return gcd(n, 6) == 1

