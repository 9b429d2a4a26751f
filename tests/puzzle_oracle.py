"""A brute-force reading of a `Puzzle`: every placement of its pieces, kept when it keeps every
rule, each rule written again here from its one-sentence statement.

It shares no code with the lowering (`queens.models.lowering`), the checker
(`queens.models.check`) or the board geometry (`queens.models.geometry`): it reads the puzzle's
fields and walks the board with its own step, so what the lowering compiles and what the checker
accepts can both be compared with what the rules say. Small boards only (about 20 open cells, a
few armies): it tries every cell empty or holding one army's piece.

The search goes cell by cell. Each rule is a `Rule`: the cells it reads and a test that answers
"can this still hold, whatever the undecided cells become?". A rule is asked again whenever one
of its cells is decided, so the last time it is asked it sees every cell it reads: a placement
the search completes keeps every rule exactly, and a branch is cut only when some rule can no
longer hold. That is all the pruning there is; `broken_rule` reads the same rules on one whole
placement, without a search, and names the one it breaks.

>>> from queens.models import Puzzle
>>> count(Puzzle(rows=4, cols=4, pieces=4))
2
>>> broken_rule(Puzzle(rows=4, cols=4, pieces=4), frozenset({(0, (0, 0)), (0, (1, 1))}))
'the piece on (0, 0)'
>>> count(Puzzle(rows=3, cols=3, pieces=None, cover=True)), optimum(Puzzle(rows=3, cols=3, pieces=None, cover=True))
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product

from queens.models.armies import Army
from queens.models.puzzle import Puzzle

Cell = tuple[int, ...]
Vector = tuple[int, ...]
Placement = frozenset[tuple[int, Cell]]
"""(army number, cell) for every piece on the board."""

EMPTY = -1
"""A cell's content when it holds no piece; a piece is its army's number; None: not decided yet."""
Content = dict[Cell, int | None]

MAX_OPEN_CELLS = 40
"""More open cells than this would take the search minutes or hours."""


# -- the board's edges ------------------------------------------------------------------------


@dataclass(frozen=True)
class Surface:
    """How the board's edges join, read from `wrap` and `twist` alone: a plane, a cylinder or a
    torus, a Moebius strip (one twisted wrapped axis) or a Klein bottle (one twisted and one
    plain wrapped axis).

    >>> moebius = Surface((3, 3), (False, True), (False, True))
    >>> moebius.step((0, 2), (1, 1))
    ((1, 0), (-1, 1))
    >>> moebius.half_line((0, 0), (0, 1), blockers=frozenset())
    [(0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]
    """

    shape: tuple[int, ...]
    wrap: tuple[bool, ...]
    twist: tuple[bool, ...]

    def step(self, cell: Cell, vector: Vector) -> tuple[Cell, Vector] | None:
        """Where a move by `vector` from `cell` lands, and the vector it goes on with (None: off
        the board). Read on the unrolled board: add the vector, then bring each wrapped axis back
        by whole laps; every lap round a twisted axis mirrors the other axis, the position and
        the move's component along it (stepping right off (r, cols-1) by (dr, 1) lands on
        (rows-1-(r+dr), 0), going (-dr, 1))."""
        moved = [x + d for x, d in zip(cell, vector, strict=True)]
        going = list(vector)
        for axis, side in enumerate(self.shape):
            if not self.wrap[axis]:
                continue
            laps, moved[axis] = divmod(moved[axis], side)
            if self.twist[axis] and laps % 2:
                other = 1 - axis  # only a 2-D board twists
                moved[other] = self.shape[other] - 1 - moved[other]
                going[other] = -going[other]
        if not all(0 <= x < side for x, side in zip(moved, self.shape, strict=True)):
            return None
        return tuple(moved), tuple(going)

    def half_line(self, start: Cell, vector: Vector, blockers: frozenset[Cell]) -> list[Cell]:
        """The cells a slide from `start` along `vector` passes, in order, until the board's edge,
        a blocker, or its return to `start` heading the way it set out (a wrapped line is a loop;
        a twisted loop may cross `start` heading another way and go on). `start` itself is left
        out: the piece has left it. A step can be undone, so the walk cannot loop without
        passing its first state again; the bound only guards against a mistake here."""
        cells: list[Cell] = []
        state = self.step(start, vector)
        for _ in range(4 * len(self.cells) + 1):
            if state is None or state == (start, vector) or state[0] in blockers:
                return cells
            if state[0] != start:
                cells.append(state[0])
            state = self.step(*state)
        raise AssertionError(f"the slide from {start} along {vector} does not end")

    @property
    def cells(self) -> list[Cell]:
        return list(product(*(range(side) for side in self.shape)))


def _negated(vector: Vector) -> Vector:
    return tuple(-d for d in vector)


# -- what one piece reaches -------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """What a piece of one army on one cell reaches: its slides' half-lines (cut at blockers) and
    the cells its leaps land on (a leap jumps: nothing stops it)."""

    slides: tuple[tuple[Cell, ...], ...]
    leaps: tuple[Cell, ...]

    @property
    def squares(self) -> frozenset[Cell]:
        """Every square it attacks when no piece is in the way (what a cover reads)."""
        return frozenset(self.leaps).union(*self.slides)

    def paths(self, leaps_only: bool) -> list[tuple[Cell, ...]]:
        """Half-lines and leaps alike as paths; a leap is a path of one cell."""
        return [(cell,) for cell in self.leaps] + ([] if leaps_only else list(self.slides))


def _reach(surface: Surface, army: Army, cell: Cell, blockers: frozenset[Cell]) -> Reach:
    slides = tuple(tuple(surface.half_line(cell, sign, blockers))
                   for ray in army.piece.rays for sign in (ray, _negated(ray)))
    landed = (surface.step(cell, sign) for leap in army.piece.leaps for sign in (leap, _negated(leap)))
    leaps = tuple(dict.fromkeys(state[0] for state in landed if state is not None and state[0] != cell))
    return Reach(slides, leaps)


def pieces_hit(paths: list[tuple[Cell, ...]], content: Content, blocking: bool) -> tuple[set[Cell], set[Cell]]:
    """The cells holding pieces the paths attack for sure, and those they may yet attack (an
    undecided cell, or a piece that an undecided cell may yet hide). When pieces block, only the
    first piece along a path is attacked; otherwise every piece on it."""
    sure: set[Cell] = set()
    maybe: set[Cell] = set()
    for path in paths:
        hidden = False  # an undecided cell stands before: it may hold the first piece
        for cell in path:
            held = content.get(cell, EMPTY)
            if held is None:
                maybe.add(cell)
                hidden = True
            elif held != EMPTY:
                (maybe if hidden and blocking else sure).add(cell)
                if blocking:
                    break
    return sure, maybe - sure


# -- the rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One rule on some cells: `holds(content)` is False when it is broken whatever the
    undecided cells become (True while it may still hold, and exactly when it holds once every
    cell of `cells` is decided)."""

    name: str
    cells: frozenset[Cell]
    holds: Callable[[Content], bool]


def _counted(name: str, cells: frozenset[Cell], armies: set[int], least: int, most: int | None) -> Rule:
    """Between `least` and `most` (None: any number) pieces of `armies` on `cells`."""
    def holds(content: Content) -> bool:
        held = sum(1 for cell in cells if content[cell] in armies)
        undecided = sum(1 for cell in cells if content[cell] is None)
        return held + undecided >= least and (most is None or held <= most)
    return Rule(name, cells, holds)


class Reading:
    """The puzzle as this oracle reads it: its open cells, what each may hold, and its rules."""

    def __init__(self, puzzle: Puzzle) -> None:
        if puzzle.copies_open:
            raise ValueError("the oracle reads puzzles whose copies are fixed")
        self.puzzle = puzzle
        self.surface = Surface(puzzle.shape, puzzle.wrap, puzzle.twist)
        closed = puzzle.holes | puzzle.blockers | puzzle.missing
        self.open = [cell for cell in self.surface.cells if cell not in closed]
        if len(self.open) > MAX_OPEN_CELLS:
            raise ValueError(f"{len(self.open)} open cells: too many for a brute force")
        self.armies = range(len(puzzle.armies))
        self.reach = {(a, cell): _reach(self.surface, army, cell, puzzle.blockers)
                      for a, army in enumerate(puzzle.armies) for cell in self.surface.cells}
        self.rules = [*self._piece_rules(), *self._count_rules(), *self._cover_rules(), *self._invariant_rules()]

    def choices(self, cell: Cell) -> list[int]:
        """What a cell may hold: the army whose piece is placed there, else empty or any army."""
        placed = [a for a, army in enumerate(self.puzzle.armies) if cell in army.fixed]
        return placed if placed else [EMPTY, *self.armies]

    # within, between and bounds on attacks: what each piece sees
    def _piece_rules(self) -> Iterator[Rule]:
        for cell in self.open:
            read = {cell}.union(*(self.reach[a, cell].squares for a in self.armies))
            yield Rule(f"the piece on {cell}", frozenset(read) & set(self.open), self._piece_holds(cell))

    def _piece_holds(self, cell: Cell) -> Callable[[Content], bool]:
        puzzle = self.puzzle

        def holds(content: Content) -> bool:
            a = content[cell]
            if a is None or a == EMPTY:
                return True
            reach = self.reach[a, cell]
            if puzzle.within:  # a line may hold `line_cap` pieces of one army: above 1, only leaps attack
                own, _ = pieces_hit(reach.paths(puzzle.armies[a].line_cap > 1), content, puzzle.blocking)
                if any(content[other] == a for other in own):
                    return False
            sure, _ = pieces_hit(reach.paths(False), content, puzzle.blocking)
            if puzzle.between and any(content[other] != a for other in sure):
                return False
            return self._attacks_bounded(a, reach, content)

        return holds

    def _attacks_bounded(self, a: int, reach: Reach, content: Content) -> bool:
        """Every bound on attacks that counts army `a`: the pieces it attacks, each once."""
        sure, maybe = pieces_hit(reach.paths(False), content, self.puzzle.blocking)
        for bound in self.puzzle.attack_bounds:
            if bound.army not in (None, a):
                continue
            targets = {"any": set(self.armies), "own": {a}, "other": set(self.armies) - {a}}[bound.of]
            hit = sum(1 for other in sure if content[other] in targets)
            may = sum(1 for other in maybe if content[other] is None or content[other] in targets)
            if (bound.most is not None and hit > bound.most) or hit + may < bound.least:
                return False
        return True

    # sizes, regions, lines, a partition: how many pieces on a set of cells
    def _count_rules(self) -> Iterator[Rule]:
        puzzle, cells, every = self.puzzle, frozenset(self.open), set(self.armies)
        for a, army in enumerate(puzzle.armies):
            yield _counted(f"the size of {army.name}", cells, {a}, army.least, army.most)
            if army.line_cap > 1 and puzzle.within:
                for line in self._lines(army.piece.rays):
                    yield _counted(f"a line of {army.name}", line & cells, {a}, 0, army.line_cap)
        for region in puzzle.regions:
            armies = every if region.army is None else {region.army}
            yield _counted(f"region {region.name}", region.cells & cells, armies, region.least, region.most)
        for family, least, most in puzzle.per_line:
            for line in self._lines(_FAMILIES[family]):
                yield _counted(f"a line of {family}", line & cells, every, least, most)
        if puzzle.partition:
            yield from (_counted(f"the cell {cell}", frozenset({cell}), every, 1, 1) for cell in cells)

    def _lines(self, directions: tuple[Vector, ...]) -> set[frozenset[Cell]]:
        """Every line along `directions`: the cells a slide passes both ways from a square that
        holds no blocker, itself included, cut at blockers (holes and missing squares are on it)."""
        blockers = self.puzzle.blockers
        return {frozenset([start, *self.surface.half_line(start, d, blockers),
                           *self.surface.half_line(start, _negated(d), blockers)])
                for start in self.surface.cells if start not in blockers for d in directions}

    # covers: every square without a blocker, not missing, is occupied or attacked
    def _cover_rules(self) -> Iterator[Rule]:
        puzzle = self.puzzle
        if not puzzle.cover:
            return
        assert not puzzle.blocking, "a cover is read with pieces that do not block (the puzzle refuses both)"
        covering = self.armies if puzzle.cover_by is None else (puzzle.cover_by,)
        occupying = puzzle.cover_kind == "occupied or attacked"
        for square in self.surface.cells:
            if square in puzzle.blockers | puzzle.missing:
                continue
            by = [(cell, a) for cell in self.open for a in covering
                  if square in self.reach[a, cell].squares or (occupying and cell == square)]
            yield Rule(f"the square {square}", frozenset(cell for cell, _ in by), _covered(by))

    # invariant: every army's cells map onto themselves
    def _invariant_rules(self) -> Iterator[Rule]:
        opened = set(self.open)
        for name in self.puzzle.invariant:
            image = _symmetry(name, self.puzzle.rows, self.puzzle.cols)
            for cell in self.open:
                pair = {cell, image(cell)}
                yield Rule(f"the {name} of {cell}", frozenset(pair & opened), _alike(cell, image(cell)))


def _covered(by: list[tuple[Cell, int]]) -> Callable[[Content], bool]:
    """Some piece of the list's (cell, army) stands there, or may yet."""
    def holds(content: Content) -> bool:
        return any(content[cell] in (a, None) for cell, a in by)
    return holds


def _alike(cell: Cell, image: Cell) -> Callable[[Content], bool]:
    """A cell and its image hold the same (a closed square holds nothing)."""
    def holds(content: Content) -> bool:
        mine, theirs = content.get(cell, EMPTY), content.get(image, EMPTY)
        return mine is None or theirs is None or mine == theirs
    return holds


_FAMILIES: dict[str, tuple[Vector, ...]] = {"rows": ((0, 1),), "cols": ((1, 0),), "diagonals": ((1, 1), (1, -1))}
"""The line families `per_line` names, by their directions (on a 2-D board)."""

_ROTATE_90: Callable[[int, int, int, int], Cell] = lambda r, c, n, m: (c, n - r)  # noqa: E731
_ROTATE_180: Callable[[int, int, int, int], Cell] = lambda r, c, n, m: (n - r, m - c)  # noqa: E731
SYMMETRIES: dict[str, Callable[[int, int, int, int], Cell]] = {
    "rotate 90": _ROTATE_90, "quarter turn": _ROTATE_90, "rotate 180": _ROTATE_180, "half turn": _ROTATE_180,
    "rotate 270": lambda r, c, n, m: (m - c, r), "flip rows": lambda r, c, n, m: (n - r, c),
    "flip columns": lambda r, c, n, m: (r, m - c), "transpose": lambda r, c, n, m: (c, r),
    "anti-transpose": lambda r, c, n, m: (m - c, n - r),
}
"""Each name a puzzle may give a symmetry, as the map of (r, c) on a board whose last row is n
and last column m: a quarter turn takes (r, c) to (c, n - r)."""


def _symmetry(name: str, rows: int, cols: int) -> Callable[[Cell], Cell]:
    image = SYMMETRIES[name]
    return lambda cell: image(cell[0], cell[1], rows - 1, cols - 1)


# -- the search -------------------------------------------------------------------------------


def _value(puzzle: Puzzle, placement: Placement) -> int | None:
    """What a goal measures: all pieces (`total`), or the equal size of the armies with a goal
    (None: they hold different numbers, not an answer)."""
    if puzzle.total is not None:
        return len(placement)
    sizes = {sum(1 for a, _ in placement if a == goal) for goal, army in enumerate(puzzle.armies) if army.goal}
    return sizes.pop() if len(sizes) == 1 else None


def _search(reading: Reading) -> Iterator[Placement]:
    """Every placement that keeps every rule, goal aside, by deciding the open cells in order."""
    index: dict[Cell, list[Rule]] = {cell: [] for cell in reading.open}
    for rule in reading.rules:
        for cell in rule.cells:
            index[cell].append(rule)
    content: Content = dict.fromkeys(reading.open)

    def decide(i: int) -> Iterator[Placement]:
        if i == len(reading.open):
            yield frozenset((a, cell) for cell, a in content.items() if a is not None and a != EMPTY)
            return
        cell = reading.open[i]
        for held in reading.choices(cell):
            content[cell] = held
            if all(rule.holds(content) for rule in index[cell]):
                yield from decide(i + 1)
        content[cell] = None

    if all(rule.holds(content) for rule in reading.rules):  # a rule may read no open cell at all
        yield from decide(0)


def solutions(puzzle: Puzzle) -> set[Placement]:
    """Every placement that keeps the rules and the armies' sizes; with a goal, those whose
    armies with a goal hold equal numbers, whatever that number (the goal's value aside)."""
    found = set(_search(Reading(puzzle)))
    if puzzle.goal is None:
        return found
    return {placement for placement in found if _value(puzzle, placement) is not None}


def _goal(puzzle: Puzzle) -> str | None:
    return puzzle.total or puzzle.goal


def placements(puzzle: Puzzle) -> set[Placement]:
    """The answers: every solution, or with a goal, every solution of the best value."""
    found = solutions(puzzle)
    best = optimum(puzzle, found) if _goal(puzzle) else None
    return found if best is None else {p for p in found if _value(puzzle, p) == best}


def count(puzzle: Puzzle) -> int:
    """How many answers the puzzle has (with a goal, how many reach its best value)."""
    return len(placements(puzzle))


def optimum(puzzle: Puzzle, found: set[Placement] | None = None) -> int | None:
    """The goal's best value: the equal size of the armies with a goal, or the total, maximised
    or minimised (None: no solution). `found`: the puzzle's solutions, if already known."""
    sense = _goal(puzzle)
    if sense is None:
        raise ValueError(f"{puzzle.name} has no goal")
    found = solutions(puzzle) if found is None else found
    values = [value for p in found if (value := _value(puzzle, p)) is not None]
    if not values:
        return None
    return max(values) if sense == "maximise" else min(values)


def broken_rule(puzzle: Puzzle, placement: Placement) -> str | None:
    """The first rule `placement` breaks, by name (None: it keeps them all, the goal's value
    aside): the rules of the search read on one whole placement, so a test can check that the
    search's pruning lost no answer, and a disagreement can say what the oracle holds against
    a placement."""
    reading = Reading(puzzle)
    content: Content = dict.fromkeys(reading.open, EMPTY)
    for a, cell in sorted(placement):
        if content.get(cell) != EMPTY:
            return f"one piece on each open cell ({cell})"
        content[cell] = a
    misplaced = [cell for cell in reading.open if content[cell] not in reading.choices(cell)]
    if misplaced:
        return f"the piece placed on {misplaced[0]}"
    if _goal(puzzle) and _value(puzzle, placement) is None:
        return "equal numbers in the armies with a goal"
    return next((rule.name for rule in reading.rules if not rule.holds(content)), None)


def has_solution(puzzle: Puzzle) -> bool:
    """Whether some placement keeps every rule and the armies' sizes (a goal's value aside): the
    search stops at the first one, so a puzzle with many solutions is answered at once."""
    return next(_search(Reading(puzzle)), None) is not None
