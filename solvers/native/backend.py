"""The `native` backend: the C bitset search (simplecore.c, bound by simple.c), fed from the constraint model.

Here the model becomes bitsets over the board's cells (cell (r, c) is bit r*cols + c): each
cell's conflicts (the cells sharing a line with it), the exactly-one lines to branch on, the
fixed pieces and the covers. Nothing here knows which puzzle it is solving.

Counting has a fast path: when the model's structure is the plain queen graph on a full square
board (solvers/native/structure.py), `count` uses the symmetry-class counter on all cores
(classcount.c via solvers/native/counting.py). Every other model the simple search can take keeps
it, and it stays the reference the classes counter is tested against.

The simple search takes a model whose lines hold at most one piece each, with a fixed number of
pieces, and whose lower bounds follow by pigeonhole. Any other model (two per line, several
armies with their sizes as lines, a lower bound the simple search would not see) goes to the line
counter (linecore.c via solvers/native/line_counter.py), which keeps two counters per line and
so enforces every bound exactly.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend, seconds_left
from queens.solvers.native import _lines, _simple
from queens.solvers.native.counting import MAX_N, check_threads, count_classes
from queens.solvers.native.line_counter import line_search
from queens.solvers.native.structure import plain_queens_size
from queens.solvers.options import refuse_renamed
from queens.solvers.runtime.progress import Progress, report

BATCH = 4096
"""Solutions fetched from C per call when enumerating: large enough to amortise the call."""


def simple_search_fits(model: ConstraintModel) -> bool:
    """Whether the simple search answers `model` exactly: at most one piece per line, a fixed
    size with room for the fixed pieces, and each line's lower bound implied by pigeonhole (its
    family's lines exactly one, disjoint, covering every cell, as many as the pieces), since the
    kernel itself only keeps pieces apart and counts them. It places the fixed pieces as given,
    never against each other: two fixed pieces on one line are the line counter's to refuse (the
    simple search counted 1 where there is none, found by tests/test_line_counts.py's random models).

    >>> from queens.models import ROOK, NQueens, Puzzle, lower
    >>> simple_search_fits(lower(NQueens(8))), simple_search_fits(lower(Puzzle(4, 4, ROOK, 8, per_line=2)))
    (True, False)
    """
    if not model.one_per_line or model.size is None or len(model.fixed) > model.size:
        return False
    conflicts = model.conflicts
    if any(conflicts[cell] & model.fixed for cell in model.fixed):
        return False
    cells = set(model.cells)
    for family in model.families:
        if not any(line.at_least for line in family.lines):
            continue
        members = [cell for line in family.lines for cell in line.cells]
        if not (family.exactly_one and len(family.lines) == model.size
                and len(members) == len(set(members)) and set(members) == cells):
            return False
    return True


def _bits(cells: Iterable[object], index: dict[object, int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << index[cell]
    return mask


COUNTERS = ("auto", "classes", "simple")


def _report(done: int, total: int, solutions: int) -> None:
    """The classes counter's progress, to whoever listens (`queens.solvers.runtime.progress`)."""
    report(Progress(solutions=solutions, done=done, total=total))


COVER_CELLS = 144
"""The largest board (in cells) on which native minimises the pieces covering it unasked: 12 x 12
(queen domination: native is ahead of sat at n = 12, behind at n = 13;
experiments/results/design-choices.md)."""


class Native(Backend):
    """Options: `threads` for the classes counter (default: all cores); `counter` 'auto' (the
    classes counter when the model allows it), 'classes' (insist on it) or 'simple' (always the
    simple search)."""

    name = "native"
    settings = (("bitsets", {}),)
    search_options = frozenset({"counter"})  # `threads` sizes the classes counter, its own strategy
    count_limit = _simple.MAX_CELLS
    cell_limit = _simple.MAX_CELLS

    def __init__(self, threads: int | None = None, counter: str = "auto") -> None:
        super().__init__()
        refuse_renamed("counter", counter)
        if counter not in COUNTERS:
            raise Unsupported(f"native: counter must be one of {', '.join(COUNTERS)}, got {counter!r}")
        self.threads = None if threads is None else check_threads(threads)
        self.counter = counter

    def supports(self, model: ConstraintModel) -> str | None:
        """Lines, covers, fixed pieces and a size, with any bounds per line: the simple search
        when it is exact (`simple_search_fits`), else the line counter; an objective it answers
        value by value (`ConstraintModel.at_value`). It has no lex-leader constraints, clauses or
        attack counts."""
        if model.beyond_lines:
            return (f"native: its searches read lines, covers, fixed pieces and sizes only; this model also asks "
                    f"{model.beyond_lines}")
        if model.lex:
            return "native: its searches have no lex-leader constraints (they count without enumerating)"
        asked = model.at_value(model.objective.least) if model.objective else model
        if not simple_search_fits(asked) and asked.width > _simple.MAX_CELLS:
            return f"native: its line counter takes at most {_simple.MAX_CELLS} variables, got {asked.width}"
        return None

    def worth(self, model: ConstraintModel) -> bool:
        """Not for armies kept equal under a goal (peaceable queens): the line counter does not
        propagate between armies, so each value's question is a blind search (peaceable n = 5:
        hundreds of times sat's time); nor for the fewest pieces covering a board past
        COVER_CELLS cells, where sat's bounds on the lines pieces occupy win (queen domination
        n = 13; experiments/results/design-choices.md). Asked by name, it still answers."""
        if model.minimise and model.covers and len(model.cells) > COVER_CELLS:
            return False
        return model.objective is None or len(model.objective.groups) == 1

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._search(model if model.size is not None else model.with_size(len(model.fixed)))

    def _search(self, model: ConstraintModel) -> tuple[_simple.Search | _lines.LineSearch, list[object]]:
        """The search for `model`: the simple search when it fits, else the line counter's."""
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        if not simple_search_fits(model):
            search, numbered, self.stats = line_search(model)
            return search, numbered
        return self._simple_search(model)

    def _simple_search(self, model: ConstraintModel) -> tuple[_simple.Search, list[object]]:
        ncells = model.width
        index = model.index
        if ncells > _simple.MAX_CELLS:
            raise Unsupported(f"native searches boards of at most {_simple.MAX_CELLS} cells, got {ncells}")
        assert model.size is not None  # simple_search_fits
        width = (ncells + 63) // 64 * 8
        conflicts = [0] * ncells
        for cell, others in model.conflicts.items():
            conflicts[index[cell]] = _bits(others, index)
        branch = model.branch_lines
        target = model.size - len(model.fixed)
        if target < 0:
            raise Unsupported("more fixed pieces than the model's size")
        search = _simple.Search(
            ncells=ncells,
            allowed=_bits(model.cells, index).to_bytes(width, "little"),
            conflicts=b"".join(m.to_bytes(width, "little") for m in conflicts),
            lines=b"".join(_bits(line.cells, index).to_bytes(width, "little") for line in branch),
            fixed=_bits(model.fixed, index).to_bytes(width, "little"),
            covers=b"".join(_bits(cover, index).to_bytes(width, "little") for cover in model.covers),
            target=target,
        )
        self.stats = {
            "cells": len(model.cells),
            "conflict pairs": sum(bin(m).count("1") for m in conflicts) // 2,
            "branch lines": len(branch),
            "covers": len(model.covers),
        }
        numbered = model.numbering or [divmod(i, model.cols) for i in range(ncells)]
        return search, list(numbered)

    @staticmethod
    def _seconds_left(deadline: float | None) -> float:
        return seconds_left(deadline, "native: time limit reached before the search started")

    def count(self, model: ConstraintModel, deadline: float | None) -> int:
        refusal = self.supports(model)  # before the classes counter, which reads the outline only
        if refusal:
            raise Unsupported(refusal)
        if self.counter != "simple":
            by_classes = self._count_by_classes(model, deadline)
            if by_classes is not None:
                return by_classes
        search, _ = self._search(model)
        total, done = search.count(self._seconds_left(deadline))
        self.stats["nodes"] = search.nodes
        if not done:
            raise TimeLimit(f"native: stopped after {total} solutions", partial=total)
        return total

    def _count_by_classes(self, model: ConstraintModel, deadline: float | None) -> int | None:
        """The classes counter's total when the model is the plain n-queens board, else None."""
        n = plain_queens_size(model)
        if n is None or not 4 <= n <= MAX_N:
            if self.counter == "classes":
                raise Unsupported("native: the classes counter needs plain n-queens on a full n x n board, 4 <= n <= "
                                  f"{MAX_N}")
            return None
        self.stats = {"counter": "classes (by D4 symmetry class)"}
        classes = count_classes(n, threads=self.threads, deadline=deadline, stats=self.stats, progress=_report)
        self.stats["fundamental"] = classes.fundamental
        return classes.total

    def solutions(self, model: ConstraintModel, deadline: float | None, batch: int = BATCH) -> Iterator[Placement]:
        search, numbered = self._search(model)
        fixed = tuple(model.fixed)
        while not search.done:
            for chosen in search.next_batch(batch, self._seconds_left(deadline)):
                yield fixed + tuple(numbered[i] for i in chosen)
            if not search.done and deadline is not None and time.monotonic() >= deadline:
                raise TimeLimit(f"native: stopped after {search.solutions} solutions", partial=search.solutions)
        self.stats["nodes"] = search.nodes

    def find(self, model: ConstraintModel, deadline: float | None) -> Placement | None:
        return next(iter(self.solutions(model, deadline, batch=1)), None)
