"""Completion instances: which queens to pre-place, chosen at random but reproducibly (seeded).

Two generators, for two questions:
- `planted`: keep k queens of a full solution. Always solvable, so it measures speed, and a
  "no" on it is a bug. The full solution comes from a solver (queens.solvers.random_solution), since
  models never solve anything; this module only chooses which queens to keep.
- `random_placement`: Gent, Jefferson & Nightingale's generator ("Complexity of n-Queens
  Completion", JAIR 2017): pick a random free row and a random free column; keep the queen if
  both its diagonals are free too; repeat until k queens stand. Such instances may have no
  completion: the share that have one drops from almost all to almost none around
  k = n - 2 sqrt(n) (the transition; experiments/bench_large.py measures it).

>>> planted([1, 3, 0, 2], 2, seed=0)
((1, 3), (3, 2))
>>> len(random_placement(8, 5, seed=1))
5
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from queens.models.errors import InvalidBoard
from queens.models.pieces import Cell

REJECTION_TRIES = 64
"""Failed random draws in a row before listing the safe cells: the same distribution, no hang."""


def _check_size(n: int, k: int) -> None:
    if n < 1:
        raise InvalidBoard(f"the board needs n >= 1, got {n}")
    if not 0 <= k <= n:
        raise InvalidBoard(f"k must be 0..{n} queens on a {n}x{n} board, got {k}")


def planted(solution: Sequence[int], k: int, seed: int) -> tuple[Cell, ...]:
    """k queens of `solution` (column of each row), the rows chosen uniformly; sorted by row."""
    n = len(solution)
    _check_size(n, k)
    rows = sorted(random.Random(seed).sample(range(n), k))
    return tuple((r, int(solution[r])) for r in rows)


def random_placement(n: int, k: int, seed: int) -> tuple[Cell, ...]:
    """k mutually non-attacking queens by Gent, Jefferson & Nightingale's rejection sampling.

    Each queen is uniform over the safe cells (free row, free column, both diagonals free). After
    REJECTION_TRIES misses in a row the safe cells are listed and one is drawn from the list,
    which is the same distribution; when none is left, k was too large for this seed.
    """
    _check_size(n, k)
    rng = random.Random(seed)
    free_rows, free_cols = list(range(n)), list(range(n))
    diagonals: set[int] = set()
    anti_diagonals: set[int] = set()
    queens: list[Cell] = []
    misses = 0
    while len(queens) < k:
        i, j = rng.randrange(len(free_rows)), rng.randrange(len(free_cols))
        if misses >= REJECTION_TRIES:
            safe = [(a, b) for a, r in enumerate(free_rows) for b, c in enumerate(free_cols)
                    if r - c not in diagonals and r + c not in anti_diagonals]
            if not safe:
                raise InvalidBoard(f"after {len(queens)} queens no free cell of the {n}x{n} board is safe; "
                                   f"k = {k} is too many for seed {seed}")
            i, j = rng.choice(safe)
        r, c = free_rows[i], free_cols[j]
        if r - c in diagonals or r + c in anti_diagonals:
            misses += 1
            continue
        misses = 0
        queens.append((r, c))
        diagonals.add(r - c)
        anti_diagonals.add(r + c)
        free_rows[i] = free_rows[-1]
        free_rows.pop()
        free_cols[j] = free_cols[-1]
        free_cols.pop()
    return tuple(sorted(queens))
