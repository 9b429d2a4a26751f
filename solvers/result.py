"""What every backend returns: one `Result` shape, so backends can be compared line by line."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from models import Placement


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
