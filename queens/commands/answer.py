"""One shape for every command's answer: the JSON of docs/json.md (validated against
docs/queens-output.schema.json by the tests) and the text lines that say who answered and why.

Whichever path answered (a backend's search, split counting, the classes counter, the completion
solver, the construction, the local search, the streaming verifier), the same top-level keys
come out: command, puzzle, backend, method, why, status, solutions, count, lower_bound,
objective, time_s, verified; anything a command adds goes under `details`.
"""

from __future__ import annotations

import json
from typing import Any

from queens.commands.common import echo
from queens.models import Puzzle
from queens.solvers import Result
from queens.solvers.result import answer_json


def payload(command: str, target: Puzzle | None, result: Result | None, *, verified: bool,
            certificate: Any = None, **details: object) -> dict[str, Any]:
    """The answer as one JSON object: the Python API's own (`Result.to_json`), so a notebook and
    the shell see one shape."""
    return answer_json(command, target, result, verified=verified, certificate=certificate, **details)


def print_payload(data: dict[str, Any]) -> None:
    echo(json.dumps(data, indent=2))


def answered_by(result: Result) -> str:
    """'native/classes in 0.004 s' : who answered, for the text output; an answer the time limit
    stopped says which limit ('cpsat/search, stopped by the 5 s time limit, in 5.2 s')."""
    limit = result.stats.get("time_limit") if result.status.value == "time limit" else None
    stopped = f", stopped by the {limit:g} s time limit," if isinstance(limit, int | float) else ""
    return f"{result.backend}/{result.method}{stopped} in {result.wall_time:.3f} s"
