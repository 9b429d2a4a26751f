"""Plain-Python twins of the C searches, written for reading rather than speed.

- `count_model`: simplecore.c's search over the generic model (sets instead of bitsets, the same
  branching: one cell of each exactly-one line of the first such family, or cells in increasing
  order when there is none; covers checked at the leaf).
- `count_queens`: queens on a board with blocked cells and pre-placed queens, from first
  principles (two queens attack when they share a row, a column or a diagonal), independent of
  the lowering.
- `classes_by_prefix`: classcount.c's scheme: every solution's class is counted once, at its
  lexicographically smallest board, and filed under that board's first rows (the subproblem).
- `trim_proof`: trimcore.c's backward trimming of a DRUP refutation, step for step (the same
  watch lists in the same order, so the same core and the same lemmas).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from itertools import combinations

from queens.models import ConstraintModel
from queens.solvers.native import _classes

Cell = tuple[int, int]


KERNELS = ["scalar", "vector"] if _classes.VECTOR else ["scalar"]
"""The classes counter's kernels on this machine, each checked against this twin."""

def count_model(model: ConstraintModel) -> int:
    """The number of solutions of `model`, by simplecore.c's search."""
    conflicts: dict[Cell, set[Cell]] = defaultdict(set)
    for line in model.lines:
        for cell in line.cells:
            conflicts[cell] |= set(line.cells) - {cell}
    fixed = set(model.fixed)
    start = set(model.cells) - fixed
    for cell in fixed:
        start -= conflicts[cell]
    primary = next((family for family in model.families if family.exactly_one), None)
    branch = [] if primary is None else [set(line.cells) for line in primary.lines if not fixed & set(line.cells)]
    assert model.size is not None, "simplecore.c counts placements of a fixed size"
    target = model.size - len(fixed)

    def covered(chosen: list[Cell]) -> bool:
        placed = fixed | set(chosen)
        return all(placed & set(cover) for cover in model.covers)

    def search(open_cells: set[Cell], chosen: list[Cell]) -> int:
        depth = len(chosen)
        if depth == target:
            return int(covered(chosen))
        candidates = open_cells & branch[depth] if branch else open_cells
        total = 0
        for cell in sorted(candidates):
            rest = open_cells - conflicts[cell] - {cell}
            if not branch:
                rest = {other for other in rest if other > cell}
            total += search(rest, [*chosen, cell])
        return total

    return search(start, [])


def attack(a: Cell, b: Cell) -> bool:
    """Queens on a and b attack each other."""
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def count_queens(n: int, blocked: frozenset[Cell] = frozenset(), fixed: frozenset[Cell] = frozenset()) -> int:
    """n non-attacking queens on an n x n board, none on `blocked`, including every queen of `fixed`."""
    if any(attack(a, b) for a, b in combinations(fixed, 2)):
        return 0
    by_row = {r: c for r, c in fixed}

    def place(row: int, queens: list[Cell]) -> int:
        if row == n:
            return 1
        columns = [by_row[row]] if row in by_row else range(n)
        return sum(place(row + 1, [*queens, (row, c)]) for c in columns
                   if (row, c) not in blocked and not any(attack((row, c), q) for q in queens))

    return place(0, [])


@cache
def solutions(n: int) -> tuple[tuple[int, ...], ...]:
    """Every n-queens solution as the column of each row."""
    found = []

    def place(columns: tuple[int, ...]) -> None:
        row = len(columns)
        if row == n:
            found.append(columns)
            return
        for c in range(n):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(columns)):
                place((*columns, c))

    place(())
    return tuple(found)


def images(board: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The 8 images of a board (row -> column) under the symmetries of the square."""
    n = len(board)
    cells = [(r, c) for r, c in enumerate(board)]
    result = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                image = [0] * n
                for r, c in cells:
                    if transpose:
                        r, c = c, r
                    image[n - 1 - r if flip_rows else r] = n - 1 - c if flip_columns else c
                result.append(tuple(image))
    return result


@cache
def classes_by_prefix(n: int, depth: int) -> dict[tuple[int, ...], tuple[int, int, int]]:
    """(C2, C4, C8) of each subproblem (the first `depth` columns of a class's smallest board)."""
    counts: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    for board in solutions(n):
        variants = images(board)
        if board != min(variants):
            continue
        size = 8 // variants.count(board)
        counts[board[:depth]][{2: 0, 4: 1, 8: 2}[size]] += 1
    return {prefix: (c[0], c[1], c[2]) for prefix, c in counts.items()}


def fixed_by(board: tuple[int, ...], turns: int) -> bool:
    """Whether turning the board by `turns` quarter turns gives it back."""
    n = len(board)
    cells = {(r, c) for r, c in enumerate(board)}
    turned = cells
    for _ in range(turns):
        turned = {(c, n - 1 - r) for r, c in turned}
    return turned == cells


OK, NO_CONFLICT = -1, -2
"""trim_proof's outcomes besides a lemma's index, as trimcore.h's TR_OK and TR_NO_CONFLICT."""


class _Trimmer:
    """trimcore.c's state and steps, in Python: values per literal, a trail with each variable's
    reason, watch lists per literal, clauses below `limit` active, `used` the marks."""

    def __init__(self, clauses: list[list[int]]) -> None:
        self.clauses = clauses
        self.tautology = [any(-lit in clause for lit in clause) for clause in clauses]
        self.value: dict[int, int] = defaultdict(int)  # literal -> 1 true, -1 false, 0 unassigned
        self.reason: dict[int, int] = {}
        self.justified: set[int] = set()
        self.trail: list[int] = []
        self.head = self.limit = 0
        self.watches: dict[int, list[int]] = defaultdict(list)
        self.used = [0] * len(clauses)
        self.hints: list[tuple[int, int | None, int | None, list[int]]] = []  # as trimcore.h lays them out
        self.position: dict[int, int] = {}
        self.unit_needed: set[int] = set()

    def assign(self, lit: int, why: int) -> None:
        self.value[lit], self.value[-lit] = 1, -1
        self.reason[abs(lit)] = why
        self.position[abs(lit)] = len(self.trail)
        self.trail.append(lit)

    def cut(self, length: int) -> None:
        for lit in self.trail[length:]:
            self.value[lit] = self.value[-lit] = 0
            self.reason[abs(lit)] = -1
            self.justified.discard(abs(lit))
        del self.trail[length:]
        self.head = length

    def visit(self, false: int, core: int) -> int:
        """The watches of `false` over the marked clauses (core 1) or the others (core 0)."""
        watching = self.watches[false]
        kept: list[int] = []
        for i, c in enumerate(watching):
            if c >= self.limit:
                continue
            lits = self.clauses[c]
            if self.used[c] != core:
                kept.append(c)
                continue
            if lits[0] == false:
                lits[0], lits[1] = lits[1], false
            if self.value[lits[0]] == 1:
                kept.append(c)
                continue
            other = next((k for k in range(2, len(lits)) if self.value[lits[k]] != -1), None)
            if other is not None:
                lits[1], lits[other] = lits[other], false
                self.watches[lits[1]].append(c)
                continue
            kept.append(c)
            if self.value[lits[0]] == -1:
                watching[:] = kept + watching[i + 1:]
                return c
            self.assign(lits[0], c)
        watching[:] = kept
        return -1

    def propagate(self) -> int:
        core_head = self.head
        while True:
            while core_head < len(self.trail):
                core_head += 1
                found = self.visit(-self.trail[core_head - 1], 1)
                if found != -1:
                    self.head = len(self.trail)
                    return found
            if self.head == len(self.trail):
                return -1
            self.head += 1
            found = self.visit(-self.trail[self.head - 1], 0)
            if found != -1:
                self.head = len(self.trail)
                return found

    def add(self, c: int) -> int:
        if self.tautology[c]:
            return -1
        lits = self.clauses[c]
        lits.sort(key=lambda lit: self.value[lit] == -1)  # stable: the literals not false first
        free = sum(self.value[lit] != -1 for lit in lits)
        if len(lits) >= 2:
            self.watches[lits[0]].append(c)
            self.watches[lits[1]].append(c)
        if free == 0:
            return c
        if free == 1 and self.value[lits[0]] == 0:
            self.assign(lits[0], c)
        return -1

    def analyse(self, lits: list[int], top: int) -> None:
        stack: list[int] = []

        def push(lit: int) -> None:
            if abs(lit) not in self.justified:
                self.justified.add(abs(lit))
                stack.append(abs(lit))
        for lit in lits:
            push(lit)
        while stack:
            why = self.reason.get(stack.pop(), -1)
            if why >= 0:
                self.used[why] = 1
                for lit in self.clauses[why]:
                    push(lit)
        for lit in self.trail[top:]:
            self.justified.discard(abs(lit))

    def hint(self, step: int, first: int, lits: list[int], top: int) -> None:
        """trimcore.c's hint(): clause `first` (or none: -1) and every reason behind `lits`,
        down to the literals set before the check (trail places below `top`), named as units."""
        self.open_step()
        if first >= 0:
            self.hint_clause(first)
        stack: list[int] = []
        seen_vars: set[int] = set()
        for lit in lits:
            if abs(lit) not in seen_vars:
                seen_vars.add(abs(lit))
                stack.append(abs(lit))
        while stack:
            v = stack.pop()
            why = self.reason.get(v, -1)
            if self.position[v] < top:
                self.name_unit(v, why)
                continue
            if why < 0 or why in self.seen_clauses:
                continue
            self.hint_clause(why)
            for lit in self.clauses[why]:
                if abs(lit) not in seen_vars:
                    seen_vars.add(abs(lit))
                    stack.append(abs(lit))
        self.hints.append((step, None, None, self.step_hints))

    def open_step(self) -> None:
        self.step_hints: list[int] = []
        self.seen_clauses: set[int] = set()

    def hint_clause(self, c: int) -> None:
        if c not in self.seen_clauses:
            self.seen_clauses.add(c)
            self.step_hints.append(c)

    def name_unit(self, v: int, why: int) -> None:
        """trimcore.c's name_unit(): a unit reason clause itself, else the unit of v."""
        if why >= 0 and len(self.clauses[why]) == 1:
            self.hint_clause(why)
        else:
            self.unit_needed.add(v)
            self.step_hints.append(len(self.clauses) + v)

    def units(self, trail: list[int], reason: dict[int, int], before: list[int]) -> None:
        """trimcore.c's units(): the hints of the units named, last to first on the forward trail."""
        j = len(before)
        for p in reversed(range(len(trail))):
            while j > 0 and before[j - 1] > p:
                j -= 1
            lit = trail[p]
            if abs(lit) not in self.unit_needed:
                continue
            why = reason[abs(lit)]
            self.open_step()
            self.hint_clause(why)
            for other in self.clauses[why]:
                if abs(other) != abs(lit):
                    self.name_unit(abs(other), reason[abs(other)])
            self.hints.append((-1 - p, lit, j, self.step_hints))

    def forward(self, nformula: int) -> tuple[int, list[int]]:
        """trimcore.c's forward(): the conflict (-1 if none) and the trail's length before each
        lemma added; with no conflict, the last length is that before an unjustified empty clause."""
        conflict, self.limit = -1, nformula
        for c in range(nformula):
            if not self.clauses[c] and not self.tautology[c]:
                conflict = c
                break
            if len(self.clauses[c]) >= 2 and not self.tautology[c]:
                self.watches[self.clauses[c][0]].append(c)
                self.watches[self.clauses[c][1]].append(c)
        for c in range(nformula):
            if conflict < 0 and len(self.clauses[c]) == 1:
                lit = self.clauses[c][0]
                if self.value[lit] == -1:
                    conflict = c
                elif self.value[lit] == 0:
                    self.assign(lit, c)
        if conflict < 0:
            conflict = self.propagate()
        before: list[int] = []
        while conflict == -1 and nformula + len(before) < len(self.clauses):
            c = nformula + len(before)
            before.append(len(self.trail))
            if not self.clauses[c]:
                break
            self.limit = c + 1
            conflict = self.add(c)
            if conflict == -1:
                conflict = self.propagate()
        return conflict, before

    def check(self, c: int, step: int) -> bool:
        """Lemma c (number `step` among the lemmas) by reverse unit propagation against the active
        clauses, marking what it uses, and giving it as the lemma's hints."""
        top, true = len(self.trail), None
        for lit in self.clauses[c]:
            if self.value[lit] == 1:
                true = lit
                break
            if self.value[lit] == 0:
                self.assign(-lit, -1)
        found = -1
        if true is not None:  # a literal already true: its reasons suffice
            self.analyse([true], top)
            self.hint(step, -1, [true], top)
        else:
            found = self.propagate()
            if found != -1:
                self.used[found] = 1
                self.analyse(self.clauses[found], top)
                self.hint(step, found, self.clauses[found], top)
        self.cut(top)
        return true is not None or found != -1


def trim_proof(formula: list[list[int]], lemmas: list[list[int]]
               ) -> tuple[list[int], list[int], int, list[tuple[int, int | None, int | None, list[int]]]]:
    """trimcore.c's tr_run: (formula clauses used, lemmas used, outcome, hints), the outcome OK,
    the index of a lemma that does not follow, or NO_CONFLICT; the hints in the order the C core
    gives them (the empty clause's, as lemma number len(lemmas), then the lemmas last to first,
    then the units): (lemma, None, None, hints) or (-1 - trail place, literal, lemmas before, hints)."""
    nformula = len(formula)
    t = _Trimmer([list(dict.fromkeys(clause)) for clause in [*formula, *lemmas]])
    conflict, before = t.forward(nformula)
    outcome = OK
    if conflict == -1:
        outcome = len(before) - 1 if before and not t.clauses[nformula + len(before) - 1] else NO_CONFLICT
        before = []
    else:
        t.used[conflict] = 1
        t.analyse(t.clauses[conflict], len(t.trail))
        t.hint(len(lemmas), conflict, t.clauses[conflict], len(t.trail))
    trail, reason = list(t.trail), dict(t.reason)
    for j in reversed(range(len(before))):
        t.cut(before[j])
        t.limit = nformula + j
        if t.used[nformula + j] and not t.check(nformula + j, j):
            outcome = j
            break
    if outcome == OK:
        t.units(trail, reason, before)
    used = [c for c, mark in enumerate(t.used) if mark]
    return [c for c in used if c < nformula], [c - nformula for c in used if c >= nformula], outcome, t.hints
