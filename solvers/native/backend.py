"""The `native` backend: the C bitset search (kernelcore.c, bound by kernel.c), fed from the constraint model.

Here the model becomes bitsets over the board's cells (cell (r, c) is bit r*cols + c): each
cell's conflicts (the cells sharing a line with it), the exactly-one lines to branch on, the
fixed pieces and the covers. Nothing here knows which puzzle it is solving.

Counting has a fast path: when the model's structure is the plain queen graph on a full square
board (solvers/native/structure.py), `count` uses the symmetry-class counter on all cores
(fastcount.c via solvers/native/counting.py). Every other model keeps the simple kernel, which
stays the reference the fast counter is tested against.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from queens.models import ConstraintModel, Placement, TimeLimit, Unsupported
from queens.solvers.backend import Backend, seconds_left
from queens.solvers.native import _kernel
from queens.solvers.native.counting import MAX_N, check_threads, count_classes
from queens.solvers.native.structure import plain_queens_size
from queens.solvers.progress import Progress, report

BATCH = 4096
"""Solutions fetched from C per call when enumerating: large enough to amortise the call."""


def _bits(cells: Iterable[object], index: dict[object, int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << index[cell]
    return mask


COUNTERS = ("auto", "fast", "simple")


def _report(done: int, total: int, solutions: int) -> None:
    """The fast counter's progress, to whoever listens (`queens.solvers.progress`)."""
    report(Progress(solutions=solutions, done=done, total=total))


class Native(Backend):
    """Options: `threads` for the fast counter (default: all cores); `counter` 'auto' (fast when
    the model allows it), 'fast' (insist on it) or 'simple' (always the simple kernel)."""

    name = "native"
    settings = (("bitsets", {}),)
    count_limit = _kernel.MAX_CELLS
    cell_limit = _kernel.MAX_CELLS

    def __init__(self, threads: int | None = None, counter: str = "auto") -> None:
        super().__init__()
        if counter not in COUNTERS:
            raise Unsupported(f"native: counter must be one of {', '.join(COUNTERS)}, got {counter!r}")
        self.threads = None if threads is None else check_threads(threads)
        self.counter = counter

    def supports(self, model: ConstraintModel) -> str | None:
        """The kernel keeps at most one piece per line (a conflict bitset per cell) and one
        total size; an objective it answers value by value (`ConstraintModel.at_value`)."""
        asked = model.at_value(model.objective.least) if model.objective else model
        if not asked.one_per_line:
            return "native: its kernel keeps at most one piece per line and counts pieces in all, not per army"
        if model.lex:
            return "native: its kernel has no lex-leader constraints (it counts without enumerating)"
        return None

    def _build_for_size(self, model: ConstraintModel) -> None:
        self._search(model if model.size is not None else model.with_size(len(model.fixed)))

    def _search(self, model: ConstraintModel) -> tuple[_kernel.Search, list[object]]:
        refusal = self.supports(model)
        if refusal:
            raise Unsupported(refusal)
        ncells = model.width
        index = model.index
        if ncells > _kernel.MAX_CELLS:
            raise Unsupported(f"native searches boards of at most {_kernel.MAX_CELLS} cells, got {ncells}")
        if model.size is None:
            raise Unsupported("native needs a fixed number of pieces (minimise goes through with_size)")
        width = (ncells + 63) // 64 * 8
        conflicts = [0] * ncells
        for cell, others in model.conflicts.items():
            conflicts[index[cell]] = _bits(others, index)
        branch = model.branch_lines
        target = model.size - len(model.fixed)
        if target < 0:
            raise Unsupported("more fixed pieces than the model's size")
        search = _kernel.Search(
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
        if self.counter != "simple":
            fast = self._fast_count(model, deadline)
            if fast is not None:
                return fast
        search, _ = self._search(model)
        total, done = search.count(self._seconds_left(deadline))
        self.stats["nodes"] = search.nodes
        if not done:
            raise TimeLimit(f"native: stopped after {total} solutions", partial=total)
        return total

    def _fast_count(self, model: ConstraintModel, deadline: float | None) -> int | None:
        """The fast counter's total when the model is the plain n-queens board, else None."""
        n = plain_queens_size(model)
        if n is None or not 4 <= n <= MAX_N:
            if self.counter == "fast":
                raise Unsupported("native: the fast counter needs plain n-queens on a full n x n board, 4 <= n <= "
                                  f"{MAX_N}")
            return None
        self.stats = {"counter": "fast (symmetry classes)"}
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
