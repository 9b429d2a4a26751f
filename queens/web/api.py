"""The explorer's JSON API, as plain functions from a request dict to a response dict.

Kept apart from the HTTP glue (`queens.web.server`) so that each rule is easy to read and test:
every request names a family (or carries the text of the user's own puzzle file,
`queens.web.user_file`), a board size and what is on the board (the queens the user placed, and
pawns for nine queens), and no key its call does not read (`queens.web.schema`); the limits
below keep one request small and short. Every
solve and count is given the time limit (`queens.solvers` turns it into a deadline); when time
runs out the reply says what is known as a bound ("≥ 4,012 solutions (time limit: 10 s)").
A request the server cannot honour raises `BadRequest` (HTTP 400 with the message); a puzzle
without a solution is not an error but an answer, with a message saying why.

>>> answer("board", {"family": "nqueens", "n": 4, "queens": [[0, 0], [1, 1]]})["conflicts"]
[[[0, 0], [1, 1]]]
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from itertools import combinations

from queens.models import AttackingQueens, Cell, Piece, Placement, Puzzle, QueensError, TimeLimit
from queens.models.check import attacked
from queens.models.drawing import ARMY_FILLS, Canvas, army_colour, attacked_cells
from queens.models.families import FAMILIES, FamilyOptions, build, reason_for_none
from queens.models.geometry import Coord
from queens.models.givens import Given, givens_of
from queens.models.layouts import layout_form
from queens.solvers import BACKENDS, Result, Status, solutions
from queens.solvers.backend import Task
from queens.solvers.learn.trace import Trace, traceable
from queens.solvers.proofs.why import HasSolution, attacking_pair, in_words, why_not_puzzle
from queens.solvers.registry import preload
from queens.solvers.routing.router import answer as routed
from queens.solvers.routing.router import route, task_of
from queens.solvers.routing.strategy import Subject
from queens.web.schema import BadRequest, Json, checked
from queens.web.search_view import Settings, choices, ladder, search_view
from queens.web.user_file import MAX_FILE_CHARS, asks, read_text

MAX_SIDE = 20
"""Largest board side the explorer draws (20 x 20 still fits a laptop screen with its result)."""
MAX_TRACE_CELLS = 100
"""The step-by-step search is replayed for boards up to 10 x 10."""
MAX_TRACE_EVENTS = 20_000
"""Events sent for one trace: the player's tape, cut here with `truncated`."""
MAX_SOLUTION_INDEX = 10_000
MAX_WHY_GIVENS = 60
"""Givens searched for the fewest with no solution: a placed piece costs one SAT call, but each
pawn or hole rebuilds the model (measured: 60 pawns on 20 x 20 in well under the time limit)."""
TIME_LIMIT = 10.0
"""Seconds any one request may spend solving, unless the server is started with another."""

AUTO = "auto"
"""The backend choice that lets the router pick (the default)."""


def catalogue() -> tuple[dict[str, frozenset[str]], tuple[str, ...]]:
    """The families (each with the options it accepts) and the backends the explorer offers.

    The one place the web reads the CLI's family table and the backend registry, so pointing
    the explorer at another registry is a change here only.

    >>> families, backends = catalogue()
    >>> "pawn" in families["ninequeens"] and "native" in backends
    True
    """
    return {name: family.accepts for name, family in FAMILIES.items()}, (AUTO, *BACKENDS)


def info(time_limit: float = TIME_LIMIT) -> Json:
    """What the page needs to draw its controls: families (what each asks, in one line, and
    whether it takes pawns), backends, limits. Counting has no limit of its own: the router
    answers within the time limit, or says how far it got."""
    families, backends = catalogue()
    return {
        "families": [{"name": name, "pawns": "pawn" in accepts, "description": FAMILIES[name].description}
                     for name, accepts in families.items()],
        "backends": list(backends),
        "limits": {"side": MAX_SIDE, "trace_cells": MAX_TRACE_CELLS, "trace_events": MAX_TRACE_EVENTS,
                   "time_limit": time_limit, "file_chars": MAX_FILE_CHARS},
        "search": choices(),
    }


def _integer(request: Json, key: str, low: int, high: int, default: int | None = None) -> int:
    value = request.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f"'{key}' must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise BadRequest(f"'{key}' must be between {low} and {high}, got {value}")
    return value


def _cells(request: Json, key: str, rows: int, cols: int) -> tuple[Cell, ...]:
    raw = request.get(key, [])
    if not isinstance(raw, list) or len(raw) > rows * cols:
        raise BadRequest(f"'{key}' must be a list of [row, col] pairs")
    cells = []
    for item in raw:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            raise BadRequest(f"'{key}' must be a list of [row, col] pairs, got {item!r}")
        if not (0 <= item[0] < rows and 0 <= item[1] < cols):
            raise BadRequest(f"{key[:-1]} at {tuple(item)} is off the {rows}x{cols} board")
        cells.append((item[0], item[1]))
    if len(set(cells)) != len(cells):
        raise BadRequest(f"a cell is listed twice in '{key}'")
    return tuple(cells)


class _Board:
    """A request's board: the family's puzzle (with the pawns), or the puzzle of the user's own
    file, and the queens the user placed."""

    def __init__(self, request: Json) -> None:
        if not isinstance(request, dict):
            raise BadRequest("the request body must be a JSON object")
        self.family: str | None = None
        self.missing = ""
        self._given: tuple[Cell, ...] = ()  # a family's queens read as its option (completion)
        self._pawns: tuple[Cell, ...] = ()
        if "file" in request:
            self._read_file(request)
        else:
            self._build_family(request)
        self.canvas = Canvas.of(self.target)
        self.queens: tuple[Coord, ...] = self._given or self._clicked(request)
        if set(self._pawns) & set(self.queens):
            raise BadRequest("a queen and a pawn share a square")
        if self.queens and (refusal := placeable(self.target)):
            raise BadRequest(refusal)
        form, _ = layout_form(self.target)
        self.pawns_first = form is not None and form.free > 0
        self._drawn = self.target if form is None else form.base

    def _build_family(self, request: Json) -> None:
        """The shipped family the request names, with its options and the user's pieces."""
        families, _ = catalogue()
        family = request.get("family")
        if not isinstance(family, str) or family not in families:
            raise BadRequest(f"unknown family {family!r}; choose from {', '.join(families)}")
        accepts = families[family]
        n = _integer(request, "n", 1, MAX_SIDE)
        m = None if request.get("m") in (None, n) else _integer(request, "m", 1, MAX_SIDE)
        if m is not None and "m" not in accepts:
            raise BadRequest(f"{family} is square: leave 'm' out")
        self.rows, self.cols = n, m or n
        if "queens" in accepts:
            self._given = _cells(request, "queens", self.rows, self.cols)
        pawns = self._pawns = _cells(request, "pawns", self.rows, self.cols)
        if pawns and "pawn" not in accepts:
            raise BadRequest(f"{family} has no pawns")
        queens = " ".join(f"{r},{c}" for r, c in self._given) if "queens" in accepts else None
        given = ({"m"} if m else set()) | ({"pawn"} if pawns else set()) | ({"queens"} & accepts)
        options = FamilyOptions(n=n, m=m, pawn=pawns, queens=queens, given=frozenset(given))
        self.family = family
        self.options = options
        self.asks = FAMILIES[family].description
        try:
            self.target: Puzzle = build(family, options)
        except QueensError as error:  # a family that needs the user's pieces first (completion)
            if not ("queens" in accepts and not self._given):
                raise
            self.missing = f"{family}: place some pieces first ({error})"
            self.target = Puzzle(rows=self.rows, cols=self.cols, pieces=0, title=family)

    def _read_file(self, request: Json) -> None:
        """The puzzle of the user's own file (for `n`), and the user's pieces on it: a file says
        its own board, pawns and armies, so the family's keys are refused beside it."""
        for key in ("family", "m", "pawns"):
            if key in request:
                raise BadRequest(f"'{key}' is for the shipped families: a puzzle file says its own board, "
                                 f"pawns and armies (leave '{key}' out)")
        n = _integer(request, "n", 1, MAX_SIDE)
        spec = read_text(request["file"], n, side=MAX_SIDE)
        self.target = spec.puzzle
        self.asks = asks(request["file"], spec)
        canvas = Canvas.of(spec.puzzle)
        self.rows, self.cols = canvas.rows, canvas.cols
        self.options = FamilyOptions(n=n)

    def _clicked(self, request: Json) -> tuple[Coord, ...]:
        """The board cells of the squares the user placed queens on (a cube's layers side by
        side on the canvas)."""
        squares = _cells(request, "queens", self.canvas.rows, self.canvas.cols)
        cells = [self.canvas.cell(square) for square in squares]
        gap = next((square for square, cell in zip(squares, cells, strict=True) if cell is None), None)
        if gap is not None:
            raise BadRequest(f"queen at {gap} is between the cube's layers, not on a cell")
        return tuple(cell for cell in cells if cell is not None)

    def drawn(self) -> Puzzle:
        """The puzzle to draw: pawns the solver places are left off (`layout_form`'s base), so
        that nine queens shows an empty board before its pawns are placed by the solver or by hand."""
        return self._drawn

    def puzzle(self) -> Puzzle:
        """The puzzle with the user's queens fixed (raises AttackingQueens if two attack)."""
        if self.missing:
            raise BadRequest(self.missing)
        if not self.queens:
            return self.target
        return self.target.with_fixed(self.queens)

    def cells(self, placement: Placement, puzzle: Puzzle | None = None) -> tuple[list[list[int]], list[int],
                                                                                list[list[int]]]:
        """A placement as canvas squares (a cube's layers side by side), each piece's army, and
        the pawns: the puzzle's blockers and the pieces of an army that attacks nothing, drawn as
        pawns (the solver's pawns of nine queens), the other armies numbered in order as drawn."""
        answered = puzzle or self.target
        squares, armies, pawns = [], [], set(answered.blockers)
        drawn = 0
        for army, cells in zip(answered.armies, answered.per_army(placement), strict=True):
            if army.piece.attacks_nothing and self.pawns_first:
                pawns.update(cells)
                continue
            for cell in cells:
                squares.append(list(self.canvas.position(cell)))
                armies.append(drawn)
            drawn += 1
        return squares, armies, _pairs(frozenset(self.canvas.position(c) for c in pawns))

    def why_none(self) -> str:
        reason = reason_for_none(self.family, self.options) if self.family else None
        if self.queens:
            return "no solution: the queens on the board cannot be completed"
        return f"no solution: {reason}" if reason else "no solution exists for this board"


def _backend(request: Json) -> str | None:
    """The backend asked for, or None for the router's choice ("auto", the default)."""
    _, backends = catalogue()
    backend = request.get("backend", AUTO)
    if not isinstance(backend, str) or backend not in backends:
        raise BadRequest(f"unknown backend {backend!r}; choose from {', '.join(backends)}")
    return None if backend == AUTO else backend


def _pairs(cells: Iterable[Coord]) -> list[list[int]]:
    return [list(cell) for cell in sorted(cells)]


def placeable(puzzle: Puzzle) -> str | None:
    """Why pieces cannot be placed by hand on `puzzle`, or None: a click places a piece of its
    one army, on any board (a cube's layers side by side)."""
    if puzzle.copies_open:
        return f"{puzzle.name}: every cell holds a piece of one of its copies; ask the solver instead"
    if len(puzzle.armies) > 1:
        return (f"{puzzle.name}: pieces are placed by hand on puzzles with one army, this one has "
                f"{len(puzzle.armies)}; ask the solver instead")
    return None


def board(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """The board as the user set it: attacked squares and attacking pairs, for live highlighting.
    Any puzzle draws on one canvas (a cube as its layers side by side, `gaps` between them,
    `layer` its third side, 0 on a 2-D board); `armies` names each army, its piece and its colour
    (`palette`, cycled, is the drawing's: an army beyond those listed, a colouring's copy, takes
    the next); `asks` is what the puzzle asks, in one line; `pawns_first` says the solver places
    pawns too; `placeable` whether the user may place pieces (a puzzle with one army)."""
    b = _Board(request)
    puzzle = b.drawn()
    position = b.canvas.position
    hand = placeable(puzzle) is None
    conflicts = []
    if hand and puzzle.within:
        army = puzzle.armies[0]
        piece = army.piece if army.line_cap == 1 else Piece(army.piece.name, leaps=army.piece.leaps)
        occupied = frozenset(b.queens) if puzzle.blocking else None
        conflicts = [[list(position(a)), list(position(c))] for a, c in combinations(sorted(b.queens), 2)
                     if c in attacked(puzzle, piece, a, occupied)]
    on_board = {position(cell) for cell in puzzle.board_cells}
    gaps = [(r, c) for r in range(b.canvas.rows) for c in range(b.canvas.cols) if (r, c) not in on_board]
    shaded = attacked_cells(puzzle, puzzle.placement_of([b.queens])) if hand else frozenset()
    return {"name": puzzle.name, "rows": b.canvas.rows, "cols": b.canvas.cols, "piece": puzzle.piece.name,
            "armies": [{"name": army.name, "piece": army.piece.name, "colour": army_colour(puzzle, a)}
                       for a, army in enumerate(puzzle.armies)],
            "palette": list(ARMY_FILLS), "asks": b.asks, "layer": b.canvas.layer,
            "pieces": puzzle.pieces, "queens": _pairs(map(position, b.queens)),
            "pawns": _pairs(frozenset(position(c) for c in puzzle.blockers)),
            "blocked": _pairs(frozenset(position(c) for c in puzzle.holes)), "gaps": _pairs(gaps),
            "attacked": _pairs(map(position, shaded)), "conflicts": conflicts, "pawns_first": b.pawns_first,
            "placeable": hand}


def _attacking(error: AttackingQueens) -> Json:
    return {"status": "no solution", "solution": [], "message": f"{error}: no completion exists"}


def _answered(b: _Board, task: Task, puzzle: Puzzle, backend: str | None, time_limit: float) -> Result:
    """The router's answer narrowed to `backend`, in this process: a split's process pool would
    outlive the worker the server kills at the deadline, so a split is asked as a search."""
    try:
        choice = route(task, Subject(puzzle), backend)
        method = "search" if choice.strategy.method == "split" else None
        return routed(task, puzzle, backend=backend, method=method, time_limit=time_limit)
    except (AttackingQueens, BadRequest):
        raise
    except QueensError as error:
        raise BadRequest(str(error)) from None


def complete(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """One answer that keeps the user's queens (the optimum, for a puzzle with a goal), or a
    message saying there is none."""
    b, backend = _Board(request), _backend(request)
    try:
        puzzle = b.puzzle()
    except AttackingQueens as error:
        return _attacking(error)
    result = _answered(b, task_of(puzzle), puzzle, backend, time_limit)
    squares, armies, pawns = b.cells(result.solution or (), result.answered or puzzle)
    reply = {"status": result.status.value, "backend": result.backend, "method": result.method,
             "time": round(result.wall_time, 4), "solution": squares, "armies": armies, "pawns": pawns,
             "objective": result.objective}
    if result.status is Status.INFEASIBLE:
        reply["message"] = b.why_none()
    elif result.status is Status.LIMIT:
        reply["message"] = f"no answer proved within {time_limit:g} s (time limit)"
    else:
        optimum = "" if result.objective is None else f" (optimum {result.objective})"
        reply["message"] = (f"{result.status.value}{optimum} by {result.backend}/{result.method} "
                            f"in {result.wall_time:.3f} s")
    return reply


def count_request(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """How many solutions keep the user's queens (all solutions when the board is empty).

    Any board: the router picks the counter as the CLI does (16-queens by the native
    meet-in-the-middle counter), and the time limit stops what would take longer, with the
    solutions found so far as a bound. Counted in this process (split=False): the server runs
    each request in a worker it may have to kill at the deadline, and a worker's own process
    pool would outlive it."""
    b, backend = _Board(request), _backend(request)
    try:
        puzzle = b.puzzle()
    except AttackingQueens as error:
        return {**_attacking(error), "count": 0}
    result = _answered(b, Task.COUNT, puzzle, backend, time_limit)
    reply = {"status": result.status.value, "backend": result.backend, "method": result.method,
             "count": result.count, "exact": result.status is Status.COMPLETE, "time": round(result.wall_time, 4)}
    if result.status is Status.LIMIT:
        reply["message"] = (f"≥ {result.count or 0:,} solutions (time limit: {time_limit:g} s), "
                            f"counting by {result.backend}/{result.method}")
    elif result.count == 0:
        reply["message"] = b.why_none()
    else:
        reply["message"] = (f"{result.count:,} solutions, counted by {result.backend}/{result.method} "
                            f"in {result.wall_time:.3f} s")
    return reply


def solution(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """The solution number `index` (0-based) of the board, in the backend's order."""
    b, backend = _Board(request), _backend(request)
    index = _integer(request, "index", 0, MAX_SOLUTION_INDEX, default=0)
    try:
        puzzle = b.puzzle()
    except AttackingQueens as error:
        return _attacking(error)
    refusal = Subject(puzzle).modelled
    if refusal:
        raise BadRequest(f"solutions are listed one model at a time; here {refusal}")
    if backend is None:
        try:
            backend = route(Task.ENUMERATE, Subject(puzzle), None, "search").strategy.backend
        except QueensError as error:
            raise BadRequest(str(error)) from None
    start = time.perf_counter()
    found = None
    try:
        for number, placement in enumerate(solutions(puzzle, backend, time_limit=time_limit)):
            if number == index:
                found = placement
                break
    except TimeLimit:
        return {"status": "time limit", "solution": [], "index": index,
                "message": f"solution {index + 1} not reached within {time_limit:g} s (time limit)"}
    elapsed = time.perf_counter() - start
    if found is None:
        message = b.why_none() if index == 0 else f"no solution number {index + 1}: there are {index}"
        return {"status": "no solution", "solution": [], "index": index, "message": message}
    squares, armies, pawns = b.cells(found, puzzle)
    return {"status": "solved", "solution": squares, "armies": armies, "pawns": pawns, "index": index,
            "backend": backend,
            "time": round(elapsed, 4), "message": f"solution {index + 1} by {backend} in {elapsed:.3f} s"}


def trace_request(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """The search replayed as events, plus which cells share a line with each cell; cut short
    at `MAX_TRACE_EVENTS` events or at the time limit, whichever comes first."""
    b = _Board(request)
    cells = b.target.cells
    if cells > MAX_TRACE_CELLS:
        raise BadRequest(f"the search is replayed for at most {MAX_TRACE_CELLS} cells; this board has {cells}")
    try:
        puzzle = b.puzzle()
    except AttackingQueens as error:
        return {**_attacking(error), "events": [], "neighbours": {}}
    refusal = traceable(puzzle)
    if refusal:
        raise BadRequest(f"the search is not replayed here: {refusal}")
    try:
        trace = Trace(puzzle)
    except QueensError as error:
        raise BadRequest(str(error)) from None
    if not trace.model.cells:
        raise BadRequest("the board has no free cell")
    events: list[Json] = []
    wanted = _integer(request, "solutions", 0, MAX_SOLUTION_INDEX, default=1)
    deadline = time.monotonic() + time_limit
    truncated = False
    for event in trace.events(max_solutions=wanted or None):
        truncated = len(events) == MAX_TRACE_EVENTS or time.monotonic() > deadline
        if truncated:
            break
        events.append(_on_canvas(b.canvas, event.to_json()))
    solved = bool(events) and events[-1]["solutions"] > 0
    message = (f"{len(events):,} steps" + (" (cut short)" if truncated else "")
               + ("" if solved or truncated else f"; {b.why_none()}"))
    return {"events": events, "truncated": truncated, "message": message,
            "neighbours": {"{},{}".format(*b.canvas.position(cell)): _pairs(map(b.canvas.position, near))
                           for cell, near in trace.neighbours.items()}}


def _on_canvas(canvas: Canvas, event: Json) -> Json:
    """A trace event's cells as the page's canvas squares (a cube's layers side by side)."""
    def square(cell: list[int] | None) -> list[int] | None:
        return None if cell is None else list(canvas.position(tuple(cell)))
    return {**event, "cell": square(event["cell"]), "attacker": square(event["attacker"]),
            "placement": [square(cell) for cell in event["placement"]]}


def why_request(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """Why the board has no solution: the fewest of its givens (the queens placed, the pawns, the
    board's holes, the family's count) that have none by themselves, found and checked as `queens why` does it
    (`why_not_puzzle`), each given's square to draw and the lines the command prints. A board
    that has a solution is an answer saying so, not an error."""
    b = _Board(request)
    if _backend(request) is not None:
        raise BadRequest("why? is answered from a SAT solver's cores, as `queens why` is: leave 'backend' out")
    try:
        puzzle = b.puzzle()
    except AttackingQueens as clash:
        pair, line = attacking_pair(clash)
        return _why_reply(b, "no solution", pair, [line])
    givens = len(givens_of(puzzle))
    if givens > MAX_WHY_GIVENS:
        raise BadRequest(f"why? looks among at most {MAX_WHY_GIVENS} givens; this board has {givens}")
    try:
        found = why_not_puzzle(puzzle, time_limit)
    except HasSolution as solved:
        return _why_reply(b, "solved", (), [f"{puzzle.name}: {solved}"])
    except TimeLimit as stopped:
        return _why_reply(b, "time limit", (), [f"{stopped} ({time_limit:g} s)"])
    seconds = found.seconds + found.check_seconds
    return {**_why_reply(b, "no solution", found.subset, in_words(puzzle, found)),
            "time": round(seconds, 4), "calls": found.calls, "fewest": found.fewest, "bound": found.bound}


def _why_reply(b: _Board, status: str, subset: Iterable[Given], lines: list[str]) -> Json:
    """`lines` as `queens why` prints them (the first is the message) and each given of the
    subset with its square on the page's canvas (None for a stated rule, such as the count: it is
    listed, not ringed)."""
    return {"status": status, "message": lines[0], "lines": lines,
            "subset": [{"kind": g.kind, "cell": None if g.cell is None else list(b.canvas.position(g.cell)),
                        "name": g.name} for g in subset]}


def _searched(b: _Board) -> Puzzle:
    """The puzzle the search view and the ladder search: the board with the user's queens."""
    try:
        return b.puzzle()
    except AttackingQueens as error:
        raise BadRequest(f"{error}: the search starts from pieces that do not attack each other") from None


def search_request(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """The teaching engine's search of the board (its givens included) with MiniZinc's orders and
    a propagation level: the tree, each node's domains, the steps (`queens.web.search_view`)."""
    b = _Board(request)
    settings = Settings.of(request)
    return search_view(_searched(b), b.canvas, settings, time_limit)


def ladder_request(request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """The ladder for the board: the nodes of each rung, generate and test to the native search."""
    b = _Board(request)
    return ladder(_searched(b), time_limit)


def warm_up() -> None:
    """Load every backend's solver library now, and make each backend once: importing OR-Tools
    alone takes seconds on a busy machine, MiniZinc looks its solver up, and a request's time
    limit is for searching, not importing. One 4 x 4 board, answered by the router, loads the
    path every request takes. A first request on a backend is then as fast as the next; solving
    the board on every backend as well cost each worker more than all this
    (experiments/results/suite-time.md). A backend that is not installed says so when a request
    asks for it."""
    _, backends = catalogue()
    complete({"family": "nqueens", "n": 4, "backend": AUTO})
    for backend in backends:
        preload(backend)


ROUTES = {"board": board, "complete": complete, "count": count_request, "solution": solution,
          "trace": trace_request, "why": why_request, "search": search_request, "ladder": ladder_request}


def answer(route: str, request: Json, time_limit: float = TIME_LIMIT) -> Json:
    """Dispatch one API call; unknown routes, keys the call does not read and bad requests raise
    `BadRequest`."""
    if route not in ROUTES:
        raise BadRequest(f"no API call named {route!r}; there are {', '.join(ROUTES)}")
    return ROUTES[route](checked(route, request), time_limit)
