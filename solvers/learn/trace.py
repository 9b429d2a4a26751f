"""The backtracking search replayed as data: every place, conflict, backtrack and solution.

This is a plain-Python search for teaching small boards, not a backend: it reads the same
`ConstraintModel` the backends read and emits one `TraceEvent` per step, which the terminal
animation (`queens trace`), the web explorer and notebooks draw. It replays one army on any
board (a cube, a cylinder, bounds the model writes as lines); events name board cells.

How it searches: when the model has an exactly-one family (the rows of n-queens) it fills
those lines one by one, trying each cell of a line in order; otherwise it picks cells in board
order, as combinations. A cell that shares a line with a placed piece is a *conflict*; when a
line has no cell left the search *backtracks*. A minimising model is searched with 0, 1, 2, ...
pieces until a size has solutions.

>>> from queens.models import NQueens
>>> [e.step for e in trace(NQueens(1))]
['place', 'solution', 'backtrack']
>>> sum(e.step == "solution" for e in trace(NQueens(6)))
4
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from queens.models import ConstraintModel, Line, Puzzle, Unsupported, lower, verify
from queens.models.geometry import Coord
from queens.models.ir import Var

STEPS = ("place", "conflict", "backtrack", "solution", "size")


@dataclass(frozen=True)
class TraceEvent:
    """One step of the search and the state after it.

    - `step`: place | conflict | backtrack | solution | size (a new piece count is tried);
    - `cell`: the board cell placed, tried or removed (None for solution and size);
    - `attacker`: for a conflict, the piece that attacks `cell`;
    - `placement`: the cells of the pieces on the board after the step (fixed ones included),
      sorted (`Puzzle.placement_of([placement])` gives them as the model's variables);
    - `depth`: pieces placed by the search; `nodes`: placements so far; `conflicts`,
      `backtracks` and `solutions`: counters so far; `size`: pieces sought.
    """

    step: str
    cell: Coord | None
    placement: tuple[Coord, ...]
    depth: int
    nodes: int
    conflicts: int
    backtracks: int
    solutions: int
    size: int | None = None
    attacker: Coord | None = None

    def to_json(self) -> dict[str, object]:
        return {"step": self.step, "cell": None if self.cell is None else list(self.cell),
                "attacker": None if self.attacker is None else list(self.attacker),
                "placement": [list(c) for c in self.placement], "depth": self.depth, "nodes": self.nodes,
                "conflicts": self.conflicts, "backtracks": self.backtracks, "solutions": self.solutions,
                "size": self.size}


@dataclass
class _Counters:
    nodes: int = 0
    conflicts: int = 0
    backtracks: int = 0
    solutions: int = 0


@dataclass
class Trace:
    """The search over one puzzle: iterate `events()`; `attacked` marks cells a placement rules
    out, and `neighbours` says which cells share a line with each cell. The search runs over
    the model's variables; `cell_of` names each one's board cell."""

    puzzle: Puzzle
    model: ConstraintModel = field(init=False)
    neighbours: dict[Coord, frozenset[Coord]] = field(init=False)
    cell_of: dict[Var, Coord] = field(init=False)

    def __post_init__(self) -> None:
        refusal = traceable(self.puzzle)
        if refusal:
            raise Unsupported(f"trace: {refusal}")
        self.model = lower(self.puzzle)
        if not self.model.one_per_line or self.model.objective is not None:
            raise Unsupported(f"trace replays a search whose lines each hold at most one piece, of a fixed or "
                              f"fewest number; {self.puzzle.name} has other bounds or a goal over armies")
        if self.model.beyond_lines:  # the replay reads the lines' conflicts and the covers only
            raise Unsupported(f"trace replays a search over lines and covers; {self.puzzle.name} also asks "
                              f"{self.model.beyond_lines}")
        self.cell_of = {var: self.puzzle.per_army([var])[0][0] for var in self.model.cells}  # one army
        self.neighbours = {self.cell_of[var]: frozenset(map(self.cell_of.__getitem__, near))
                           for var, near in self.model.conflicts.items()}

    def attacked(self, placement: Iterable[Coord]) -> frozenset[Coord]:
        """Empty cells that share a line with a placed piece: where no piece may go next."""
        seen: set[Coord] = set()
        for piece in placement:
            seen |= self.neighbours.get(piece, frozenset())
        return frozenset(seen - set(placement))

    def events(self, max_solutions: int | None = None) -> Iterator[TraceEvent]:
        """The steps in order; stops after `max_solutions` solutions when given."""
        model = self.model
        counters = _Counters()
        sizes: Sequence[int]
        if model.minimise:
            sizes = range(len(model.fixed), len(model.cells) + 1)
        else:
            # lower() fixes `size` whenever it does not minimise (see ConstraintModel): an int here
            assert model.size is not None
            sizes = [model.size]
        for size in sizes:
            if model.minimise:
                yield self._event("size", None, tuple(sorted(model.fixed)), 0, counters, size)
            for event in self._search(size, counters):
                yield event
                if event.step == "solution" and max_solutions is not None and counters.solutions >= max_solutions:
                    return
            if counters.solutions:
                return

    def _event(self, step: str, var: Var | None, placement: Sequence[Var], depth: int,
               counters: _Counters, size: int, attacker: Var | None = None) -> TraceEvent:
        def cell(var: Var | None) -> Coord | None:
            return None if var is None else self.cell_of[var]
        return TraceEvent(step, cell(var), tuple(sorted(map(self.cell_of.__getitem__, placement))), depth,
                          counters.nodes, counters.conflicts, counters.backtracks, counters.solutions, size,
                          cell(attacker))

    def _search(self, size: int, counters: _Counters) -> Iterator[TraceEvent]:
        model = self.model
        placed = sorted(model.fixed)
        if any(f.exactly_one for f in model.families):
            yield from self._fill_lines(model.branch_lines, 0, placed, size, counters)
        else:
            yield from self._choose_cells(0, placed, size, counters)

    def _attacker(self, cell: Var, placed: list[Var]) -> Var | None:
        return next((p for p in placed if p in self.model.conflicts[cell]), None)

    def _try(self, cell: Var, placed: list[Var], size: int, counters: _Counters,
             depth: int) -> Iterator[TraceEvent]:
        """Place `cell` if no piece attacks it; the caller goes deeper only after a place."""
        attacker = self._attacker(cell, placed)
        if attacker is not None:
            counters.conflicts += 1
            yield self._event("conflict", cell, placed, depth, counters, size, attacker)
            return
        placed.append(cell)
        counters.nodes += 1
        yield self._event("place", cell, placed, depth + 1, counters, size)

    def _undo(self, cell: Var, placed: list[Var], size: int, counters: _Counters,
              depth: int) -> TraceEvent:
        placed.remove(cell)
        counters.backtracks += 1
        return self._event("backtrack", cell, placed, depth, counters, size)

    def _leaf(self, placed: list[Var], size: int, depth: int, counters: _Counters) -> Iterator[TraceEvent]:
        if len(placed) != size:
            return
        occupied = set(placed)
        if all(occupied.intersection(cover) for cover in self.model.covers):
            # the independent checker sees every solution, as in queens.solvers.api
            verify(self.puzzle if size == self.model.size else self.puzzle.with_pieces(size), placed)
            counters.solutions += 1
            yield self._event("solution", None, placed, depth, counters, size)

    def _fill_lines(self, lines: list[Line], depth: int, placed: list[Var], size: int,
                    counters: _Counters) -> Iterator[TraceEvent]:
        if depth == len(lines):
            yield from self._leaf(placed, size, depth, counters)
            return
        for cell in lines[depth].cells:
            before = len(placed)
            yield from self._try(cell, placed, size, counters, depth)
            if len(placed) > before:
                yield from self._fill_lines(lines, depth + 1, placed, size, counters)
                yield self._undo(cell, placed, size, counters, depth)

    def _choose_cells(self, start: int, placed: list[Var], size: int,
                      counters: _Counters) -> Iterator[TraceEvent]:
        depth = len(placed) - len(self.model.fixed)
        cells = self.model.cells
        if len(placed) == size:
            yield from self._leaf(placed, size, depth, counters)
            return
        needed = size - len(placed)
        for index in range(start, len(cells) - needed + 1):
            cell = cells[index]
            if cell in self.model.fixed:
                continue
            before = len(placed)
            yield from self._try(cell, placed, size, counters, depth)
            if len(placed) > before:
                yield from self._choose_cells(index + 1, placed, size, counters)
                yield self._undo(cell, placed, size, counters, depth)


def traceable(puzzle: Puzzle) -> str | None:
    """Why the step-by-step search cannot replay `puzzle` (read before lowering), or None."""
    if puzzle.copies_open:
        return f"{puzzle.name} is a search over several models (open copies); fix them first"
    if len(puzzle.armies) > 1:
        return f"the replay places the pieces of one army; {puzzle.name} has {len(puzzle.armies)}"
    return None


def trace(puzzle: Puzzle, *, max_solutions: int | None = None) -> Iterator[TraceEvent]:
    """The search on `puzzle` as a stream of events (see the module docstring)."""
    return Trace(puzzle).events(max_solutions)
