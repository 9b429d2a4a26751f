"""Nine queens: more queens than rows, with pawns that block lines of attack.

9 queens and 1 pawn on 8 x 8, 10 queens and 2 pawns, ... Either the pawns are given (blockers)
or the solver places them too: then the puzzle is the general one a puzzle file writes (A103330,
models/puzzles/published), an army of pawns among pieces that block, which the strategy `layouts`
answers one pawn layout at a time (`queens.models.layouts`). The lowering cuts every line at the
pawns, and the pigeonhole rule then finds "exactly one queen per segment" by itself when there are
as many segments as queens.
"""

from __future__ import annotations

from collections.abc import Iterable

from queens.models.errors import InvalidBoard
from queens.models.pieces import QUEEN, Cell
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import parse

MAX_FREE_PAWNS = 3
"""Free pawn layouts grow as C(n^2, k); beyond three the family is no longer interactive."""


def NineQueens(n: int, pawns: Iterable[Cell], queens: int | None = None) -> Puzzle:  # noqa: N802
    """Queens (default n + number of pawns) and the given pawns on n x n."""
    placed = frozenset(pawns)
    count = n + len(placed) if queens is None else queens
    return Puzzle(rows=n, cols=n, piece=QUEEN, pieces=count, blockers=placed,
                  title=f"{count} queens and {_pawns(len(placed))} on {n}x{n}")


def FreePawns(n: int, pawns: int, queens: int | None = None) -> Puzzle:  # noqa: N802
    """Queens (default n + pawns) and `pawns` pawns that the solver places as well, read as the
    puzzle file that says it (the A103330 file with its counts), so the two are one puzzle.

    >>> [(army.name, army.least) for army in FreePawns(8, 1).armies]
    [('queens', 9), ('pawn', 1)]
    """
    if n <= 0:
        raise InvalidBoard(f"the board needs a positive number of rows, got {n}")
    if not 0 <= pawns <= MAX_FREE_PAWNS:
        raise InvalidBoard(f"free pawns must be 0..{MAX_FREE_PAWNS}, got {pawns}; fix them with --pawn r,c instead")
    count = n + pawns if queens is None else queens
    return parse({"title": f"{count} queens and {_pawns(pawns)} placed freely on {n}x{n}",
                  "board": {"shape": [n, n]},
                  "army": [{"name": "queens", "count": count}, {"name": "pawn", "piece": "pawn", "count": pawns}],
                  "rules": {"blocking": True, "between": "free"}}).puzzle


def _pawns(k: int) -> str:
    return "1 pawn" if k == 1 else f"{k} pawns"
