"""The ladder's node counts (docs/ladder.md) against a brute force written here: a two-way
branching search over n-queens with its own generate-and-test, backtracking, forward checking
and AC-3, and the native search's placements counted as consistent partial boards. Nothing
here is shared with the teaching engine or models/."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import pytest
from queens.models import NQueens
from queens.solvers.api import count
from queens.solvers.learn import search

Domains = list[frozenset[int]]
Propagate = Callable[[Domains], Domains | None]


def attack(r1: int, c1: int, r2: int, c2: int) -> bool:
    return c1 == c2 or abs(c1 - c2) == abs(r1 - r2)


def fixed(domains: Domains) -> dict[int, int]:
    return {r: next(iter(d)) for r, d in enumerate(domains) if len(d) == 1}


def generate(domains: Domains) -> Domains | None:
    return domains


def backtrack(domains: Domains) -> Domains | None:
    placed = fixed(domains)
    clash = any(attack(r1, c1, r2, c2) for (r1, c1), (r2, c2) in product(placed.items(), repeat=2) if r1 < r2)
    return None if clash else domains


def forward(domains: Domains) -> Domains | None:
    domains = list(domains)
    done: set[int] = set()
    while True:
        placed = {r: c for r, c in fixed(domains).items() if r not in done}
        if not placed:
            return domains
        for r, c in placed.items():
            done.add(r)
            for other in range(len(domains)):
                if other != r:
                    domains[other] = frozenset(v for v in domains[other] if not attack(r, c, other, v))
                    if not domains[other]:
                        return None


def arc(domains: Domains) -> Domains | None:
    domains = list(domains)
    changed = True
    while changed:
        changed = False
        for x in range(len(domains)):
            for y in range(len(domains)):
                if x != y:
                    kept = frozenset(a for a in domains[x] if any(not attack(x, a, y, b) for b in domains[y]))
                    if kept != domains[x]:
                        domains[x], changed = kept, True
                        if not kept:
                            return None
    return domains


def two_way(n: int, propagate: Propagate) -> tuple[int, int]:
    """(nodes, solutions): every node counted, the root too; the first open row, its smallest
    value, q[r] = v then q[r] != v."""
    nodes = solutions = 0

    def visit(domains: Domains) -> None:
        nonlocal nodes, solutions
        nodes += 1
        after = propagate(domains)
        if after is None:
            return
        open_rows = [r for r, d in enumerate(after) if len(d) > 1]
        if not open_rows:
            placed = fixed(after)
            if not any(attack(r1, c1, r2, c2) for (r1, c1), (r2, c2) in product(placed.items(), repeat=2) if r1 < r2):
                solutions += 1
            return
        r = open_rows[0]
        v = min(after[r])
        visit([frozenset({v}) if i == r else d for i, d in enumerate(after)])
        visit([d - {v} if i == r else d for i, d in enumerate(after)])

    visit([frozenset(range(n))] * n)
    return nodes, solutions


def placements(n: int) -> int:
    """Partial boards, queens on the first k rows (k = 1..n) none attacking another."""
    total = 0
    layer: list[tuple[int, ...]] = [()]
    for _ in range(n):
        layer = [rows + (c,) for rows in layer for c in range(n)
                 if not any(attack(r, q, len(rows), c) for r, q in enumerate(rows))]
        total += len(layer)
    return total


RUNGS = {"generate": generate, "none": backtrack, "forward": forward, "arc": arc}


@pytest.mark.parametrize("level", list(RUNGS))
@pytest.mark.parametrize("n", [4, 5, 6])
def test_each_rung_counts_the_brute_forces_nodes(level: str, n: int) -> None:
    result = search(NQueens(n), propagate=level, all=True).result
    assert (result.stats["nodes"], result.count) == two_way(n, RUNGS[level])


@pytest.mark.parametrize("n", [4, 6, 8])
def test_the_native_search_places_the_consistent_partial_boards(n: int) -> None:
    native = count(NQueens(n), "native", counter="simple", symmetry=False, split=False)
    assert native.stats["nodes"] == placements(n)


def test_the_ladder_tutorials_counts() -> None:
    assert [two_way(6, RUNGS[level])[0] for level in RUNGS] == [93_311, 1_491, 79, 41]
    assert placements(6) == 152
