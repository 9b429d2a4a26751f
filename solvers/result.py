"""What every backend returns: one `Result` shape, so backends can be compared line by line."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from enum import Enum

from queens.models import Placement


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

    @property
    def solution(self) -> Placement | None:
        return self.solutions[0] if self.solutions else None

    def _repr_html_(self) -> str:
        """How a result shows itself in Jupyter: status, count, time, statistics, first solution.
        (A picture of the board needs the puzzle: `queens.pictures.Board.of(puzzle, result)`.)"""
        rows = [("backend", self.backend), ("status", self.status.value)]
        rows += [(label, value) for label, value in (("count", self.count), ("fewest pieces", self.objective))
                 if value is not None]
        rows.append(("wall time", f"{self.wall_time:.3f} s"))
        rows += [(str(key), value) for key, value in self.stats.items()]
        if self.solution is not None:
            rows.append(("solution", " ".join(f"{r},{c}" for r, c in self.solution)))
        cells = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                        f"<td>{html.escape(str(v))}</td></tr>" for k, v in rows)
        return f"<table>{cells}</table>"

    def to_json(self) -> dict:
        return {
            "backend": self.backend,
            "status": self.status.value,
            "solutions": [[list(cell) for cell in s] for s in self.solutions],
            "count": self.count,
            "objective": self.objective,
            "wall_time": round(self.wall_time, 6),
            "stats": self.stats,
        }
