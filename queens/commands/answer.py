"""One shape for every command's answer: the JSON of docs/json.md (validated against
docs/queens-output.schema.json by the tests) and the text lines that say who answered and why.

Whichever path answered (a backend's search, split counting, the fast counter, the completion
solver, the construction, the local search, the streaming verifier), the same top-level keys
come out: command, puzzle, backend, method, why, status, solutions, count, lower_bound,
objective, time_s, verified; anything a command adds goes under `details`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from queens.commands.common import describe
from queens.models import Puzzle
from queens.solvers import Result, Status

MAX_JSON_SOLUTION = 1000
"""Solutions of larger boards are written with --out, not listed in the JSON."""


def payload(command: str, target: Puzzle | None, result: Result | None, *, verified: bool,
            **details: object) -> dict[str, Any]:
    """The answer as one JSON object (see the module docstring): each solution as its cells
    (`solutions`) and as cells per army (`armies`), on the puzzle it answers."""
    listed = [] if result is None else [s for s in result.solutions if len(s) <= MAX_JSON_SOLUTION]
    answered = None if result is None else result.answered or target
    per_army = [] if answered is None else [answered.per_army(s) for s in listed]
    return {
        "command": command,
        "puzzle": None if target is None else describe(target),
        "solutions": [[list(cell) for cells in armies for cell in cells] for armies in per_army],
        "armies": [] if answered is None else [
            [{"army": army.name, "cells": [list(cell) for cell in cells]}
             for army, cells in zip(answered.armies, armies, strict=True)] for armies in per_army],
        "backend": None if result is None else result.backend,
        "method": None if result is None else result.method,
        "why": "" if result is None else result.why,
        "status": "ok" if result is None else result.status.value,
        "count": None if result is None else result.count,
        "lower_bound": result is not None and result.status is Status.LIMIT and result.count is not None,
        "objective": None if result is None else result.objective,
        "time_s": 0.0 if result is None else round(result.wall_time, 6),
        "verified": verified,
        "stats": {} if result is None else _plain(result.stats),
        "details": details,
    }


def _plain(stats: Mapping[str, object]) -> dict[str, object]:
    return {str(key): value for key, value in stats.items() if isinstance(value, int | float | str | bool)}


def print_payload(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2))


def answered_by(result: Result) -> str:
    """'native/fast in 0.004 s' : who answered, for the text output."""
    return f"{result.backend}/{result.method} in {result.wall_time:.3f} s"
