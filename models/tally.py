"""Tallies: how many of some conditions on the placement hold, bounded or optimised (the IR's form
of a board-wide count, `queens.models.board_counts`).

A *term* holds when any of its `Conjunction`s does, and a conjunction when all of its `present`
variables hold a piece and none of its `absent` ones does. A board-wide count is a tally of
terms, one per thing it counts:

- an attacked square: one conjunction per piece that could attack it (that piece, and, when
  pieces block, none on the cells between);
- a safe square: the same terms and the square's own pieces, counted by those that do *not* hold
  (`complement`);
- an attacking pair of cells: both hold a piece (and none stands between them, when pieces block).

A backend posts a literal per conjunction and per term and a linear bound on the terms' sum; an
objective over a tally (`queens.models.ir.Objective.tally`) maximises or minimises that sum.

>>> pair = Tally("attacking pairs", ((Conjunction(((0, (0, 0)), (0, (0, 1)))),),), most=0)
>>> pair.value({(0, (0, 0)), (0, (0, 1))}), pair.held_bounds
(1, (0, 0))
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

Var = Any
"""A model variable's key (`queens.models.ir.Var`)."""


@dataclass(frozen=True)
class Conjunction:
    """Every variable of `present` holds a piece and none of `absent` does."""

    present: tuple[Var, ...]
    absent: tuple[Var, ...] = ()

    def holds(self, placed: Collection[Var]) -> bool:
        return all(v in placed for v in self.present) and not any(v in placed for v in self.absent)


Term = tuple[Conjunction, ...]
"""A condition that holds when any of its conjunctions holds (none: it never holds)."""


@dataclass(frozen=True)
class Tally:
    """Between `least` and `most` (None: no bound) of the `terms` hold, or, with `complement`,
    do not hold: the count a rule names (`name`), e.g. "attacking pairs"."""

    name: str
    terms: tuple[Term, ...]
    least: int = 0
    most: int | None = None
    complement: bool = False

    @property
    def top(self) -> int:
        """The largest value the count can take: every term counted."""
        return len(self.terms)

    @property
    def held_bounds(self) -> tuple[int, int]:
        """The bounds as bounds on the number of terms that hold (what a backend posts): a
        complement's value v is len(terms) - held.

        >>> Tally("safe squares", ((), (), ()), least=1, complement=True).held_bounds
        (0, 2)
        """
        most = self.top if self.most is None else min(self.most, self.top)
        if self.complement:
            return max(0, self.top - most), self.top - self.least
        return self.least, most

    @property
    def binding(self) -> bool:
        """Whether the bounds exclude any value at all (else the tally asks nothing)."""
        return self.least > 0 or (self.most is not None and self.most < self.top)

    def value(self, placed: Collection[Var]) -> int:
        """The count for a placement (its variables that hold a piece)."""
        held = sum(1 for term in self.terms if any(c.holds(placed) for c in term))
        return self.top - held if self.complement else held

    def at(self, value: int) -> Tally:
        """This count fixed at `value` (an objective's question for one value)."""
        return Tally(self.name, self.terms, value, value, self.complement)

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(dict.fromkeys(v for term in self.terms for c in term for v in (*c.present, *c.absent)))
