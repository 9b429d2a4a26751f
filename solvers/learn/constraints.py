"""The teaching engine's constraints, each with the rules that propagate it.

Every constraint knows three things (MiniCP's `Constraint`: `post` and `propagate`):

- `holds(dom)`: once all its variables are fixed, whether it is satisfied (what generate-and-
  test and plain backtracking ask);
- `forward(store, var)`: `var` has just been fixed; remove from the other variables the values
  that can no longer be part of a solution (forward checking). For a disequality this is
  everything it can ever remove, so it is also what Gecode does with `q[i] != q[j]`;
- `revise(store)` (two-variable constraints): keep in each variable only the values that still
  have a *support*, a value of the other variable they agree with (one step of AC-3).

`AllDifferent` adds `bounds(store)`: Hall intervals on the values' bounds. Which of these rules
run, and when, is the propagation level's choice (`queens.solvers.learn.propagation`).

The integer viewpoint (q[r] = the column of row r's piece) has `Conflicts` between two rows and
`AllDifferent` over a family of lines; the Boolean viewpoint (x[r,c] = 1 when the cell holds a
piece) has `Count` (between so many and so many ones) and `Clause`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from queens.solvers.learn.domains import Store, each_value, fixed_value, highest, lowest

ZERO, ONE = 0b01, 0b10
"""A Boolean variable's two values as domain bits: {0} is 0b01, {1} is 0b10, {0, 1} is 0b11."""


@dataclass(eq=False)
class Constraint:
    """What every constraint has: a name a student can read ("diagonals q[2] q[5]"), its
    variables (numbers), and a number of its own (`index`, set by the viewpoint) under which the
    search keeps its failure weight (dom/wdeg)."""

    name: str
    variables: tuple[int, ...]
    index: int = field(default=-1, init=False)

    @property
    def binary(self) -> bool:
        """Whether AC-3 revises it (a constraint between two variables)."""
        return False

    def holds(self, dom: Sequence[int]) -> bool:
        raise NotImplementedError

    def forward(self, store: Store, var: int | None) -> bool:
        """Propagate after `var` was fixed (None: when the constraint is posted); False on a
        failure."""
        raise NotImplementedError

    def revise(self, store: Store) -> bool:
        """Arc consistency for a two-variable constraint; n-ary constraints forward check."""
        return self.forward(store, None)

    def holds_when_fixed(self, store: Store, var: int | None) -> bool:
        """Plain backtracking: check the constraint once all its variables are fixed."""
        dom = store.dom
        if any(dom[v] & (dom[v] - 1) for v in self.variables):
            return True
        return self.holds(dom) or store.fail(self)


@dataclass(eq=False)
class Conflicts(Constraint):
    """Two variables x, y whose values may not go together: `forbid_x[a]` is the mask of y's
    values that x = a rules out, `forbid_y[b]` the mask of x's values that y = b rules out
    (the same pairs read both ways). Two rows of n-queens and one family of lines: row 0 in
    column 2 rules out column 2 of row 3 (a column) and columns 5 and -1 (the diagonals; the
    diagonals' constraint holds 5 only, -1 is off the board).

    >>> c = Conflicts("columns q[0] q[1]", (0, 1), [0b01, 0b10], [0b01, 0b10])
    >>> store = Store([0b01, 0b11])       # q[0] = 0, q[1] in {0, 1}
    >>> c.forward(store, 0), store.dom[1]
    (True, 2)
    """

    forbid_x: list[int] = field(default_factory=list)
    forbid_y: list[int] = field(default_factory=list)

    @property
    def binary(self) -> bool:
        return True

    def holds(self, dom: Sequence[int]) -> bool:
        x, y = self.variables
        return not self.forbid_x[highest(dom[x])] & dom[y]

    def forward(self, store: Store, var: int | None) -> bool:
        x, y = self.variables
        if var is None:  # posted: act for the variables fixed already
            return all(self.forward(store, v) for v in (x, y) if store.is_fixed(v))
        dom = store.dom
        if var == x:  # x's one value is its highest bit; what it rules out, y loses
            lost = self.forbid_x[dom[x].bit_length() - 1] & dom[y]
            return not lost or store.narrow(y, ~lost, self)
        lost = self.forbid_y[dom[y].bit_length() - 1] & dom[x]
        return not lost or store.narrow(x, ~lost, self)

    def revise(self, store: Store) -> bool:
        """Each value of x needs a value of y it does not rule out, and the other way round."""
        x, y = self.variables
        return (_supported(store, x, y, self.forbid_x, self)
                and _supported(store, y, x, self.forbid_y, self))


def _supported(store: Store, x: int, y: int, forbid: list[int], by: Constraint) -> bool:
    """Remove from x each value whose every partner in y's domain is forbidden (no support)."""
    dom_y = store.dom[y]
    lost = 0
    for a in each_value(store.dom[x]):
        if not dom_y & ~forbid[a]:
            lost |= 1 << a
    return store.narrow(x, ~lost, by) if lost else True


@dataclass(eq=False)
class AllDifferent(Constraint):
    """No two of the variables on one line of a family: the values `key[i][c]` (the line of
    row i's cell in column c) all different, as MiniZinc's `alldifferent([q[i] + i | i in 1..n])`.
    `monotone` says every key is
    a*r + b*c with b = +1 or -1 and no modulus, so the keys of a domain's bounds are the
    bounds of its keys (what `bounds` needs; a torus's lines are not).

    >>> c = AllDifferent("alldifferent(columns)", (0, 1), [[0, -1], [0, -1]], True)
    >>> store = Store([0b01, 0b11])
    >>> c.forward(store, 0), store.dom[1]
    (True, 2)
    """

    key: list[list[int]] = field(default_factory=list)
    monotone: bool = False
    holders: dict[int, list[tuple[int, int]]] = field(init=False)
    """For each key, the variables that can take it and the bit of the column that does."""

    def __post_init__(self) -> None:
        self.holders = defaultdict(list)
        for var, keys in zip(self.variables, self.key, strict=True):
            for c, k in enumerate(keys):
                self.holders[k].append((var, 1 << c))

    def holds(self, dom: Sequence[int]) -> bool:
        taken = [self.key[i][highest(dom[v])] for i, v in enumerate(self.variables)]
        return len(set(taken)) == len(taken)

    def forward(self, store: Store, var: int | None) -> bool:
        """AllDifferent by value: a fixed variable's line is taken from all the others."""
        if var is None:
            return all(self.forward(store, v) for v in self.variables if store.is_fixed(v))
        dom = store.dom
        taken = self.key[self.variables.index(var)][dom[var].bit_length() - 1]
        for other, bit in self.holders[taken]:
            if other != var and dom[other] & bit and not store.narrow(other, ~bit, self):
                return False
        return True

    def bounds(self, store: Store) -> bool:
        """AllDifferent by bounds: when an interval [lo, hi] of keys holds the spans of as
        many variables as it has integers (a *Hall interval*), those variables use up every
        key in it, so each other variable's bounds move out of it; more variables than
        integers, and the node fails. After the moves the spans are read again, until none
        moves (a plain O(n^2) pass each time: Puget's and Lopez-Ortiz's algorithms are
        faster, not clearer)."""
        moved = True
        while moved:
            moved = False
            spans = [self._span(store, i) for i in range(len(self.variables))]
            for lo, hi, held in _hall_intervals(spans):
                if held > hi - lo + 1:
                    return store.fail(self)
                for i, (low, high) in enumerate(spans):
                    if lo <= low and high <= hi:
                        continue  # one of the interval's own
                    new_low = hi + 1 if lo <= low <= hi else low
                    new_high = lo - 1 if lo <= high <= hi else high
                    if (new_low, new_high) != (low, high):
                        moved = True
                        if not self._keep_within(store, i, new_low, new_high):
                            return False
        return True

    def _span(self, store: Store, i: int) -> tuple[int, int]:
        """The smallest and largest key variable i can still take (its bounds' keys)."""
        keys = self.key[i]
        mask = store.dom[self.variables[i]]
        a, b = keys[lowest(mask)], keys[highest(mask)]
        return (a, b) if a <= b else (b, a)

    def _keep_within(self, store: Store, i: int, low: int, high: int) -> bool:
        """Keep only variable i's columns whose key lies in [low, high]."""
        kept = sum(1 << c for c, k in enumerate(self.key[i]) if low <= k <= high)
        return store.narrow(self.variables[i], kept, self)


def _hall_intervals(spans: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(lo, hi, how many spans lie within [lo, hi]) for every interval holding at least as many
    spans as it has integers: from each span's low end, the spans taken in order of their high
    ends, counted as they come."""
    by_high = sorted(spans, key=lambda span: span[1])
    found = []
    for lo in sorted({low for low, _ in spans}):
        held = 0
        for low, high in by_high:
            if low >= lo:
                held += 1
                if held >= high - lo + 1:
                    found.append((lo, high, held))
    return found


@dataclass(eq=False)
class Count(Constraint):
    """Between `least` and `most` of the Boolean variables are 1: a line of the board, a cover
    (at least one), the number of pieces. Forward checking makes it domain consistent: once
    `most` ones are placed the open variables are 0, once only `least` can still be reached
    they are 1.

    >>> c = Count("rows 0", (0, 1, 2), least=1, most=1)
    >>> store = Store([ONE, 0b11, 0b11])
    >>> c.forward(store, 0), store.dom
    (True, [2, 1, 1])
    """

    least: int = 0
    most: int = 1

    def holds(self, dom: Sequence[int]) -> bool:
        ones = sum(dom[v] == ONE for v in self.variables)
        return self.least <= ones <= self.most

    def forward(self, store: Store, var: int | None) -> bool:
        dom = store.dom
        ones = open_ = 0
        for v in self.variables:
            if dom[v] == ONE:
                ones += 1
            elif dom[v] != ZERO:
                open_ += 1
        if ones > self.most or ones + open_ < self.least:
            return store.fail(self)
        if open_ and ones == self.most:
            return all(store.narrow(v, ZERO, self) for v in self.variables if dom[v] == ZERO | ONE)
        if open_ and ones + open_ == self.least:
            return all(store.narrow(v, ONE, self) for v in self.variables if dom[v] == ZERO | ONE)
        return True


@dataclass(eq=False)
class Clause(Constraint):
    """Some variable of `present` is 1 or some variable of `absent` is 0 (the variables are
    `present + absent`); with one literal left open it is forced true (unit propagation).

    >>> c = Clause("clause 0", (0, 1), present=1)   # x0 or not x1
    >>> store = Store([ZERO, 0b11])
    >>> c.forward(store, 0), store.dom[1]
    (True, 1)
    """

    present: int = 0
    """How many of `variables`, from the first, are the present ones."""

    def _literals(self) -> list[tuple[int, int]]:
        """(variable, the value that satisfies it) for each literal."""
        return [(v, ONE if i < self.present else ZERO) for i, v in enumerate(self.variables)]

    def holds(self, dom: Sequence[int]) -> bool:
        return any(dom[v] == want for v, want in self._literals())

    def forward(self, store: Store, var: int | None) -> bool:
        dom = store.dom
        open_literals = []
        for v, want in self._literals():
            if dom[v] == want:
                return True
            if dom[v] & want:
                open_literals.append((v, want))
        if not open_literals:
            return store.fail(self)
        if len(open_literals) == 1:
            v, want = open_literals[0]
            return store.narrow(v, want, self)
        return True


Test = tuple[int, int]
"""A cell as a viewpoint reads it: (variable, value), the value that puts a piece on the cell
(row r's column c in the integer viewpoint, a cell's 1 in the Boolean one)."""


@dataclass(eq=False)
class LexChain(Constraint):
    """The cells of `firsts` read as a word are lexicographically at least those of `seconds`
    (a piece on a cell, 1, above an empty one, 0): one symmetry's lex-leader chain, so that only
    one solution per symmetry class is searched (`queens.models.symmetry.lex_leader`). The walk
    goes along the pairs decided equal; at the first pair that is not, an empty first cell
    empties the second and a piece on the second puts one on the first (the pair is then equal,
    and the walk goes on), a pair decided the other way fails, and an open pair stops it.

    >>> c = LexChain("chain 0", (0, 1), firsts=((0, 1),), seconds=((1, 1),))   # x0 >= x1
    >>> store = Store([ZERO, 0b11])
    >>> c.forward(store, 0), store.dom[1]
    (True, 1)
    """

    firsts: tuple[Test, ...] = ()
    seconds: tuple[Test, ...] = ()

    def holds(self, dom: Sequence[int]) -> bool:
        for first, second in zip(self.firsts, self.seconds, strict=True):
            a, b = _cell(dom, first), _cell(dom, second)
            if a != b:
                return bool(a)
        return True

    def forward(self, store: Store, var: int | None) -> bool:
        dom = store.dom
        for first, second in zip(self.firsts, self.seconds, strict=True):
            a, b = _cell(dom, first), _cell(dom, second)
            if a == 0 and b == 1:
                return store.fail(self)
            if a == 0 and b is None:  # the second cell must be empty too
                if not store.narrow(second[0], ~(1 << second[1]), self):
                    return False
                b = 0
            elif b == 1 and a is None:  # the first cell must hold a piece too
                if not store.narrow(first[0], 1 << first[1], self):
                    return False
                a = 1
            if a is None or b is None or a != b:
                return True  # an open pair stops the walk; a piece above an empty cell settles the chain
        return True


def _cell(dom: Sequence[int], test: Test) -> int | None:
    """1 when the test's cell holds a piece, 0 when it is empty, None while it is open."""
    var, value = test
    bit = 1 << value
    if not dom[var] & bit:
        return 0
    return 1 if dom[var] == bit else None


def fixed_values(dom: Sequence[int]) -> list[int | None]:
    """Each variable's value, or None where it is not fixed."""
    return [fixed_value(mask) for mask in dom]
