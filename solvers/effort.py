"""Which statistics measure a search's effort: the counters a fair comparison sets side by side.

Wall time says how long a backend took on this machine today; its own effort counter says how
much work its search did, which neither the load nor the machine changes. Backends report
their counters in `Result.stats`, under MiniZinc's names where a counter means what MiniZinc's
does (`nodes`, `failures`) and under the solver's own names otherwise (CP-SAT's `conflicts` and
`branches`, a SAT solver's `conflicts` and `decisions`). This table names those keys once, so the
CLI's side-by-side tables and the experiments' reports read any backend's effort, a new one's
too, without naming a backend.

>>> effort({"variables": 64, "conflicts": 289, "branches": 1924, "symmetry": "off (asked)"})
{'conflicts': 289, 'branches': 1924}
>>> effort_text({"nodes": 441, "failures": 12})
'nodes 441 · failures 12'
"""

from __future__ import annotations

from collections.abc import Mapping

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
