"""The one puzzle a teaching command works on, from what the family flags describe."""

from __future__ import annotations

from queens.models import Puzzle, QueensError
from queens.models.alternatives import Alternatives
from queens.models.families import Target


def one_puzzle(target: Target, command: str) -> Puzzle:
    """`target` itself; free pawns (many layouts) are refused with the way to fix one layout."""
    if isinstance(target, Alternatives):
        raise QueensError(f"{command} works on one board: fix the pawns with --pawn r,c "
                          f"instead of --pawns ({target.name} has {target.layouts:,} layouts)")
    return target
