"""What every backend returns: one `Result` shape, so backends can be compared line by line."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from enum import Enum

import numpy as np
from queens.models import Placement, Puzzle


class Status(Enum):
    SOLVED = "solved"              # a solution was found
    OPTIMAL = "optimal"            # a solution with provably fewest pieces
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
    """How the backend answered: search, split, fast, complete, construct, random (see
    `queens.solvers.strategies`)."""
    why: str = ""
    """Why the router chose this strategy (empty when it was called directly)."""
    answered: Puzzle | None = field(default=None, compare=False)
    """The puzzle the solutions answer when it is not the one asked: one layout of free
    blockers, or the open copies fixed at the optimum (a colouring's k armies)."""
    columns: np.ndarray | None = field(default=None, compare=False)
    """One queen per row, the column of each (int32): the solution of a board too large to list
    as cells. `solutions` then holds it as cells too when the board is small enough to print."""

    @property
    def solution(self) -> Placement | None:
        return self.solutions[0] if self.solutions else None

    def _repr_html_(self) -> str:
        """How a result shows itself in Jupyter: status, count, time, statistics, first solution.
        (A picture of the board needs the puzzle: `queens.pictures.Board.of(puzzle, result)`.)"""
        rows: list[tuple[str, object]] = [("backend", self.backend), ("status", self.status.value)]
        rows += [(label, value) for label, value in (("count", self.count), ("fewest pieces", self.objective))
                 if value is not None]
        rows.append(("wall time", f"{self.wall_time:.3f} s"))
        rows += [(str(key), value) for key, value in self.stats.items()]
        if self.solution is not None:
            rows.append(("solution", " ".join(f"{r},{c}" for r, c in self.solution)))
        cells = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                        f"<td>{html.escape(str(v))}</td></tr>" for k, v in rows)
        return f"<table>{cells}</table>"

    @property
    def bound(self) -> str:
        """The count as text: exact, or a lower bound when the time limit stopped it.

        >>> Result("sat", Status.LIMIT, count=4012).bound
        '≥ 4,012 (time limit)'
        """
        if self.count is None:
            return "-"
        return f"{self.count:,}" if self.status is not Status.LIMIT else f"≥ {self.count:,} (time limit)"

    def to_json(self) -> dict[str, object]:
        return {
            "backend": self.backend,
            "method": self.method,
            "why": self.why,
            "status": self.status.value,
            "solutions": [[list(cell) for cell in s] for s in self.solutions],
            "count": self.count,
            "objective": self.objective,
            "wall_time": round(self.wall_time, 6),
            "stats": self.stats,
        }
