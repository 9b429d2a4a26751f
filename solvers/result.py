"""What every backend returns: one `Result` shape, so backends can be compared line by line."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from queens.models import Placement, Puzzle

if TYPE_CHECKING:  # the certificates import this module
    from queens.solvers.proofs.certificate import Certificate


class Status(Enum):
    SOLVED = "solved"              # a solution was found
    OPTIMAL = "optimal"            # a solution whose optimum is proved (fewest or most pieces, fewest copies)
    INFEASIBLE = "no solution"     # proved: no solution exists
    COMPLETE = "complete"          # counting finished: the count is exact
    LIMIT = "time limit"           # stopped at the time limit: a count is only a lower bound


@dataclass(frozen=True)
class Result:
    """The outcome of one solve or count.

    `stats` holds whatever the backend reports (variables, clauses, constraints, conflicts,
    nodes, ...) under plain string keys, so tables and the experiments database can show them.
    """

    backend: str
    status: Status
    solutions: tuple[Placement, ...] = ()
    count: int | None = None
    objective: int | None = None
    wall_time: float = 0.0
    stats: dict[str, int | float | str] = field(default_factory=dict)
    method: str = "search"
    """How the backend answered: search, split, classes, complete, construct, random (see
    `queens.solvers.routing.strategies`)."""
    why: str = ""
    """Why the router chose this strategy (empty when it was called directly)."""
    puzzle: Puzzle | None = field(default=None, compare=False)
    """The puzzle asked (set by the router): what `to_json` describes."""
    answered: Puzzle | None = field(default=None, compare=False)
    """The puzzle the solutions answer when it is not the one asked: one layout of free
    blockers, or the open copies fixed at the optimum (a colouring's k armies). A result draws
    itself in Jupyter on it (or on `puzzle`)."""
    certificate: Certificate | None = field(default=None, compare=False)
    """With `certify=True` (the API) or --certify: the proof of a "no" or an optimum."""
    columns: np.ndarray | None = field(default=None, compare=False)
    """One queen per row, the column of each (int32): the solution of a board too large to list
    as cells. `solutions` then holds it as cells too when the board is small enough to print."""

    @property
    def solution(self) -> Placement | None:
        return self.solutions[0] if self.solutions else None

    @property
    def bound(self) -> str:
        """The count as text: exact, or a lower bound when the time limit stopped it.

        >>> Result("sat", Status.LIMIT, count=4012).bound
        '≥ 4,012 (time limit)'
        """
        if self.count is None:
            return "-"
        return f"{self.count:,}" if self.status is not Status.LIMIT else f"≥ {self.count:,} (time limit)"

    def to_json(self, puzzle: Puzzle | None = None, *, command: str = "solve", verified: bool | None = None,
                **details: object) -> dict[str, Any]:
        """The answer as the documented JSON object (docs/json.md, docs/queens-output.schema.json),
        the same every CLI command prints with --json: each solution as its cells and as cells per
        army, on the puzzle it answers (`answered`, else `puzzle`). `verified` defaults to whether
        a solution or an exact count came back (each was checked before it got here)."""
        if verified is None:
            verified = bool(self.solutions) or self.status is Status.COMPLETE
        certificate = None if self.certificate is None else self.certificate.to_json()
        return answer_json(command, puzzle or self.puzzle, self, verified=verified, certificate=certificate,
                           **details)

    def _repr_svg_(self) -> str | None:
        """The first solution drawn, for a notebook that shows SVG (`_repr_html_` shows more)."""
        drawn = self.answered or self.puzzle
        if drawn is None or self.solution is None or not _drawable(drawn):
            return None
        from queens.models.drawing import Board  # lazy, as python-chess draws: no cost until shown

        return Board(drawn, self.solution).svg()

    def _repr_html_(self) -> str:
        """How a result shows itself in Jupyter: a line saying what was answered and by whom, its
        board(s) with the armies in their colours (the first `NOTEBOOK_BOARDS` solutions), each
        army's cells, and the statistics folded away."""
        from queens.models.drawing import Board, army_colour

        drawn = self.answered or self.puzzle
        parts = [f"<p><b>{html.escape(self.summary())}</b></p>"]
        if drawn is not None and self.solutions:
            shown = self.solutions[:NOTEBOOK_BOARDS]
            if _drawable(drawn):
                size = 360 if len(shown) == 1 else 220
                parts.append('<div style="display:flex;gap:12px;flex-wrap:wrap">'
                             + "".join(Board(drawn, s, size=size).svg() for s in shown) + "</div>")
            parts += [_cells_html(drawn, s, army_colour) for s in shown]
            if len(self.solutions) > len(shown):
                parts.append(f"<p>and {len(self.solutions) - len(shown):,} more</p>")
        if self.stats:
            rows = "".join(f"<tr><th style='text-align:left'>{html.escape(str(key))}</th>"
                           f"<td>{html.escape(str(value))}</td></tr>" for key, value in self.stats.items())
            parts.append(f"<details><summary>statistics</summary><table>{rows}</table></details>")
        return "\n".join(parts)

    def summary(self) -> str:
        """One line: the puzzle, the status, the count or the optimum (named for what the goal
        asks: fewest pieces, most pieces per army, fewest copies), who answered and in how long.

        >>> from queens.models import NQueens
        >>> Result("native", Status.COMPLETE, count=92, method="classes", puzzle=NQueens(8)).summary()
        '8-queens: complete, 92 solutions, by native/classes in 0.000 s'
        """
        parts = [self.status.value]
        if self.count is not None:
            noun = "optimal placements" if self.objective is not None else "solutions"
            parts.append(f"{self.bound} {noun}")
        if self.objective is not None:
            parts.append(f"{objective_label(self.puzzle or self.answered)} {self.objective}")
        named = "" if self.puzzle is None else f"{self.puzzle.name}: "
        return f"{named}{', '.join(parts)}, by {self.backend}/{self.method} in {self.wall_time:.3f} s"


NOTEBOOK_BOARDS = 4
"""Solutions a result draws in a notebook (every optimal placement of a small board can be many)."""


def _drawable(puzzle: Puzzle) -> bool:
    from queens.models.drawing import MAX_DRAWN, Canvas

    canvas = Canvas.of(puzzle)
    return max(canvas.rows, canvas.cols) <= MAX_DRAWN


def _cells_html(puzzle: Puzzle, solution: Placement, colour: Callable[[Puzzle, int], str]) -> str:
    """Each army's cells, after a swatch of its colour: 'white: 0,1 0,3', never the model's raw
    (army, cell) pairs."""
    lines = []
    for index, (army, cells) in enumerate(zip(puzzle.armies, puzzle.per_army(solution), strict=True)):
        swatch = (f'<span style="display:inline-block;width:0.8em;height:0.8em;border:1px solid #888;'
                  f'background:{colour(puzzle, index)}"></span> ')
        label = "cells" if len(puzzle.armies) == 1 else army.name
        listed = " ".join(",".join(map(str, cell)) for cell in cells)
        lines.append(f"{swatch}{html.escape(label)}: {html.escape(listed)}")
    return "<p style='font-family:monospace'>" + "<br>".join(lines) + "</p>"


def objective_label(puzzle: Puzzle | None) -> str:
    """What an optimum counts, read from the puzzle's goal: "fewest pieces" (domination), "most
    pieces" (a cube), "most pieces per army" (peaceable armies, kept equal), "fewest copies" (a
    colouring), "most pieces in all" / "fewest pieces in all" (a goal on the total).

    >>> from queens.models.armies import Army
    >>> objective_label(Puzzle(shape=(4, 4), armies=(Army("w", count="maximise"), Army("b", count="maximise"))))
    'most pieces per army'
    """
    if puzzle is None:
        return "optimum"
    if puzzle.copies_open:
        return "most copies" if puzzle.copies_goal == "maximise" else "fewest copies"
    if (counted := puzzle.board_goal) is not None:
        return f"{'most' if counted.goal == 'maximise' else 'fewest'} {counted.of}"
    goal = puzzle.total or puzzle.goal
    if goal is None:
        return "optimum"
    most = "most" if goal == "maximise" else "fewest"
    if puzzle.total is not None:
        return f"{most} pieces in all"
    return f"{most} pieces per army" if sum(army.goal is not None for army in puzzle.armies) > 1 else f"{most} pieces"


@cache
def suite_version() -> str:
    """The installed distribution's version (pyproject.toml's, the one place it is written): what
    `queens --version`, `queens info`, `queens.__version__` and every JSON answer say. A copy of
    the tree run from PYTHONPATH alone, with no distribution installed, says "unknown".
    importlib.metadata is imported here, not with the module: it brings email and zipfile,
    which a worker process that only counts would load for nothing."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("queens")
    except PackageNotFoundError:
        return "unknown"


MAX_JSON_SOLUTION = 1000
"""Solutions of larger boards are written with --out, not listed in the JSON."""


def answer_json(command: str, puzzle: Puzzle | None, result: Result | None, *, verified: bool,
                certificate: Any = None, **details: object) -> dict[str, Any]:
    """One answer as the documented JSON object: `result` None for a command that answers with
    its details alone (explain)."""
    listed = [] if result is None else [s for s in result.solutions if len(s) <= MAX_JSON_SOLUTION]
    answered = None if result is None else result.answered or puzzle
    per_army = [] if answered is None else [answered.per_army(s) for s in listed]
    return {
        "command": command,
        "version": suite_version(),
        "puzzle": None if puzzle is None else puzzle.to_json(),
        "backend": None if result is None else result.backend,
        "method": None if result is None else result.method,
        "why": "" if result is None else result.why,
        "status": "ok" if result is None else result.status.value,
        "solutions": [[list(cell) for cells in armies for cell in cells] for armies in per_army],
        "armies": [] if answered is None else [
            [{"army": army.name, "cells": [list(cell) for cell in cells]}
             for army, cells in zip(answered.armies, armies, strict=True)] for armies in per_army],
        "count": None if result is None else result.count,
        "lower_bound": result is not None and result.status is Status.LIMIT and result.count is not None,
        "objective": None if result is None else result.objective,
        "time_s": 0.0 if result is None else round(result.wall_time, 6),
        "verified": verified,
        "certificate": None if certificate is None else dict(certificate),
        "stats": {} if result is None else _plain(result.stats),
        "details": details,
    }


def _plain(stats: Mapping[str, object]) -> dict[str, object]:
    return {str(key): value for key, value in stats.items() if isinstance(value, int | float | str | bool)}
