"""The one interface every backend implements.

A backend reads a `ConstraintModel` (never a puzzle's name) and offers three things:
`find` (one solution, or None when none exists), `solutions` (a lazy generator), and
optionally `count` (when it can count faster than by enumerating). Minimisation has one
generic method here, raising the piece count until a solution appears (the iterative
cardinality bound); a backend with a real optimiser overrides `minimise`.
Time limits are deadlines on `time.monotonic()`; on reaching one a backend raises `TimeLimit`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import ClassVar

from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported


def deadline_after(time_limit: float | None) -> float | None:
    """The `time.monotonic()` instant a search must stop at (None: no limit).

    >>> deadline_after(None) is None
    True
    """
    if time_limit is not None and time_limit <= 0:
        raise Unsupported(f"the time limit must be positive, got {time_limit}")
    return None if time_limit is None else time.monotonic() + time_limit


def seconds_left(deadline: float | None, message: str) -> float:
    """Seconds until `deadline`, or -1.0 when there is none (what the C kernels take);
    raises TimeLimit(message) once it has passed."""
    if deadline is None:
        return -1.0
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeLimit(message)
    return left


class Backend(ABC):
    name: ClassVar[str]
    count_limit: ClassVar[int] = 400
    """Most cells this backend will try to count on: past 20 x 20 a count by enumeration is absurd."""

    def __init__(self) -> None:
        self.stats: dict[str, int | float | str] = {}

    @abstractmethod
    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """One solution, or None if there is none; raises TimeLimit at the deadline."""

    @abstractmethod
    def solutions(self, model: ConstraintModel, deadline: float | None) -> Iterator[Placement]:
        """Every solution once, lazily; raises TimeLimit at the deadline."""

    def supports(self, model: ConstraintModel) -> str | None:
        """None when this backend can answer `model`, else the reason it cannot (shown to the user)."""
        return None

    def count(self, model: ConstraintModel, deadline: float | None) -> int | None:
        """The number of solutions if this backend counts without enumerating, else None."""
        return None

    def model_size(self, model: ConstraintModel) -> dict[str, int]:
        """How big this backend's own model of `model` is (variables, constraints, clauses, ...),
        built for real, never estimated: what `queens explain` shows a learner."""
        self._build_for_size(model)
        return {key: int(value) for key, value in self.stats.items()
                if isinstance(value, int | float) and not isinstance(value, bool)}

    @abstractmethod
    def _build_for_size(self, model: ConstraintModel) -> None:
        """Build this backend's model of `model`, leaving its size in `self.stats`."""

    def minimise(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        """A solution with the fewest pieces: try k = 0, 1, 2, ... pieces until one is found."""
        for size in range(len(model.fixed), len(model.cells) + 1):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimit(f"{self.name}: no solution with at most {size - 1} pieces yet")
            found = self.find(model.with_size(size), deadline)
            if found is not None:
                return found
        return None
