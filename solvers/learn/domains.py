"""Domains as bit sets, and the store that changes them and undoes the changes on backtracking.

A *domain* is the set of values a variable may still take. Here it is a Python int used as a
bit set: value v is possible when bit v is set, so {1, 3, 4} is 0b11010. Taking values away is
one `&`, the number of values is `bit_count()`, and a variable is *fixed* when one bit is left.

The `Store` holds every variable's domain. Each change is written on a *trail* first (the
variable and its old domain), so going back to an earlier node of the search is popping the
trail down to the mark taken there (MiniCP's `StateManager`, Gecode's recomputation aside).
The store also lists the variables whose domains changed, each with whether the change fixed
it (`changed`), which propagation reads (`queens.solvers.learn.propagation`), and tells a
`Watcher` (the search tree, the step-by-step trace) what was removed and by which constraint.

>>> store = Store([0b1111, 0b0110])        # x in {0, 1, 2, 3}, y in {1, 2}
>>> mark = store.mark()
>>> store.narrow(0, 0b0100, by=None)       # x = 2
True
>>> values(store.dom[0]), fixed_value(store.dom[0])
([2], 2)
>>> store.undo(mark)
>>> values(store.dom[0])
[0, 1, 2, 3]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from queens.solvers.learn.constraints import Constraint


def values(mask: int) -> list[int]:
    """The values of a domain, smallest first.

    >>> values(0b11010)
    [1, 3, 4]
    """
    return list(each_value(mask))


def each_value(mask: int) -> Iterator[int]:
    """The values of a domain one by one, smallest first, without building a list."""
    while mask:
        low = mask & -mask  # the lowest set bit
        yield low.bit_length() - 1
        mask ^= low


def lowest(mask: int) -> int:
    """The smallest value of a non-empty domain.

    >>> lowest(0b11010)
    1
    """
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The largest value of a non-empty domain.

    >>> highest(0b11010)
    4
    """
    return mask.bit_length() - 1


def fixed_value(mask: int) -> int | None:
    """The value of a domain with one value left, else None.

    >>> fixed_value(0b1000), fixed_value(0b1010)
    (3, None)
    """
    return mask.bit_length() - 1 if mask and not mask & (mask - 1) else None


def up_to(value: int) -> int:
    """The domain {0, 1, ..., value}: what `x <= value` keeps.

    >>> values(up_to(2))
    [0, 1, 2]
    """
    return (1 << (value + 1)) - 1


class Watcher(Protocol):
    """Who is told about each change the search makes (`queens.solvers.learn.steps` writes the
    step-by-step trace from these calls, `queens.solvers.learn.tree` the search tree)."""

    def removed(self, var: int, lost: int, left: int, by: Constraint | None) -> None:
        """`var` lost the values of the mask `lost` and has `left` now, because of `by` (None: a
        decision)."""

    def wiped_out(self, var: int, by: Constraint | None) -> None:
        """`by` left `var` without a value (None: a failure with no single variable to blame,
        a count that can no longer be met)."""


class Store:
    """Every variable's domain, the trail of changes, and the variables changed since
    propagation last looked (`changed`: each with whether the change fixed it, in order).

    `narrow` is the only way a domain changes: it trails the old domain, records the change,
    and returns False when the domain is left empty (a *wipe-out*: the node fails)."""

    def __init__(self, domains: list[int], watcher: Watcher | None = None) -> None:
        self.dom = list(domains)
        self.trail: list[tuple[int, int]] = []
        self.changed: deque[tuple[int, bool]] = deque()
        self.watcher = watcher

    def mark(self) -> int:
        """Where the trail stands now: `undo(mark)` comes back to this state."""
        return len(self.trail)

    def undo(self, mark: int) -> None:
        """Restore every domain to what it was when `mark` was taken."""
        trail, dom = self.trail, self.dom
        while len(trail) > mark:
            var, old = trail.pop()
            dom[var] = old
        self.changed.clear()

    def narrow(self, var: int, mask: int, by: Constraint | None) -> bool:
        """Keep only the values of `mask` in `var`'s domain; False when none is left."""
        old = self.dom[var]
        new = old & mask
        if new == old:
            return True
        self.trail.append((var, old))
        self.dom[var] = new
        if self.watcher is not None:
            self.watcher.removed(var, old & ~new, new, by)
            if not new:
                self.watcher.wiped_out(var, by)
        if not new:
            return False
        self.changed.append((var, not new & (new - 1)))
        return True

    def fail(self, by: Constraint) -> bool:
        """A constraint that cannot hold any more, though no domain is empty (a count short of
        its least): the node fails. Returns False, so a propagator can `return store.fail(self)`."""
        if self.watcher is not None:
            self.watcher.wiped_out(-1, by)
        return False

    def is_fixed(self, var: int) -> bool:
        mask = self.dom[var]
        return not mask & (mask - 1)
