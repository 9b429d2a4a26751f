"""The CLI's family names, each mapped to the model builder it calls.

The CLI parses options once (`FamilyOptions`) and each family takes what it needs; an option a
family cannot use is an error rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models import NQueens, Puzzle, QueensError


@dataclass(frozen=True)
class FamilyOptions:
    n: int
    m: int | None = None


def _nqueens(options: FamilyOptions) -> Puzzle:
    if options.m is not None:
        raise QueensError("nqueens is square; use -n only")
    return NQueens(options.n)


FAMILIES: dict[str, Callable[[FamilyOptions], Puzzle]] = {
    "nqueens": _nqueens,
}


def build(family: str, options: FamilyOptions) -> Puzzle:
    if family not in FAMILIES:
        raise QueensError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
    return FAMILIES[family](options)
