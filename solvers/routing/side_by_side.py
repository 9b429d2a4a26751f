"""Every backend's answer to one question, side by side, and what makes the answers comparable.

A fair table of backends says more than who was fastest today: each row carries the backend's
own effort counter, which neither the machine nor its load changes, and what the backend did
about symmetry (a count by one solution per class enumerates far fewer solutions than a count
of every one). Backends report their counters in `Result.stats`, under MiniZinc's names where
a counter means what MiniZinc's does (`nodes`, `failures`) and under the solver's own names
otherwise (CP-SAT's `conflicts` and `branches`, a SAT solver's `conflicts` and `decisions`).
`EFFORT` names those keys once, so `queens count --backend all`, `queens solve --backend all` and
the experiments' reports read any backend's effort, a new one's too, without naming a backend.

>>> effort({"variables": 64, "conflicts": 289, "branches": 1924, "symmetry": "off (asked)"})
{'conflicts': 289, 'branches': 1924}
>>> effort_text({"nodes": 441, "failures": 12})
'nodes 441 · failures 12'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from queens.models import BackendUnavailable, Puzzle, Unsupported
from queens.models.errors import Refused
from queens.solvers.backend import Task
from queens.solvers.options import Options
from queens.solvers.registry import BACKENDS
from queens.solvers.result import Result
from queens.solvers.routing.router import answer

EFFORT: dict[str, str] = {
    "nodes": "search nodes: MiniZinc's name (Gecode's, the native search's, a MIP solver's branch-and-bound nodes)",
    "failures": "failed nodes, dead ends of the search: MiniZinc's name",
    "conflicts": "conflicts analysed (CP-SAT; a CDCL SAT solver such as CaDiCaL)",
    "branches": "branching decisions (CP-SAT's own name)",
    "decisions": "branching decisions (a SAT solver's own name)",
}
"""The effort counters, in the order tables show them: a stats key -> what it counts."""


def effort(stats: Mapping[str, object]) -> dict[str, int]:
    """The effort counters among `stats`, in `EFFORT`'s order (a statistic that is text, or a
    key that is no counter, left out)."""
    return {key: int(value) for key in EFFORT if isinstance(value := stats.get(key), int | float)
            and not isinstance(value, bool)}


def effort_text(stats: Mapping[str, object]) -> str:
    """The effort counters as one short text ('' when the backend reports none)."""
    return " · ".join(f"{key} {value:,}" for key, value in effort(stats).items())


def symmetry_used(stats: Mapping[str, object]) -> str:
    """What an answer did about symmetry, read from its statistics (`queens.solvers.api`: `symmetry`
    says whether a count broke it, or why not; `reduction` names the chains an optimum was
    searched under): "lex-leader", "off", "none to break", or "-" when the answer says nothing
    (one solution of a puzzle without a goal, a counter that does not enumerate).

    >>> symmetry_used({"symmetry": "lex-leader over a group of 8: one solution per class"})
    'lex-leader'
    >>> symmetry_used({"symmetry": "off (under 81 cells the chains cost more than they save)"}), symmetry_used({})
    ('off', '-')
    """
    note = stats.get("reduction") or stats.get("symmetry")
    if not isinstance(note, str):
        return "-"
    for words in ("lex-leader", "off", "none to break"):
        if note.startswith(words):
            return words
    return note


@dataclass(frozen=True)
class Entry:
    """One backend's row: its answer, or why it cannot give one (`reason`, said before any work)."""

    backend: str
    result: Result | None
    reason: str = ""


def each_backend(task: Task, puzzle: Puzzle, *, time_limit: float | None = None, options: Options | None = None,
                 starting: Callable[[str], None] = lambda backend: None) -> list[Entry]:
    """`task` on `puzzle` by every registered backend in turn, each by its own best strategy (the
    router narrowed to it) under the same time limit; `starting(backend)` is called before each."""
    entries = []
    for backend in BACKENDS:
        starting(backend)
        try:
            result = answer(task, puzzle, backend=backend, time_limit=time_limit, **(options or Options()))
        except Refused as refusal:
            entries.append(Entry(backend, None, "; ".join(refusal.reasons)))
        except (Unsupported, BackendUnavailable) as refusal:
            entries.append(Entry(backend, None, str(refusal)))
        else:
            entries.append(Entry(backend, result))
    return entries
