"""Completion: n-queens with some queens already placed (Gent, Jefferson & Nightingale 2017).

Deciding whether a partial placement extends to a full solution is NP-complete; the model is
still just n-queens with fixed cells. Pre-placed queens off the board or attacking each
other are rejected by `Puzzle` with an error naming the offending cell or pair.

Three input forms: cells as "r,c r,c" (0-indexed), a file with one "row col" pair per line
(read by `queens.models.placement_file.read_placement`), and Grigoryan's vector form Q(i) = j
(1-indexed, 0 = empty row).

>>> sorted(Completion(4, parse_cells("0,1 1,3")).fixed)
[(0, 1), (1, 3)]
>>> parse_vector("0 4 1 0")
((1, 3), (2, 0))
"""

from __future__ import annotations

from collections.abc import Iterable

from queens.models import numbers
from queens.models.errors import InvalidNumber, MalformedInput
from queens.models.pieces import QUEEN, Cell
from queens.models.puzzle import Puzzle


def Completion(n: int, queens: Iterable[Cell]) -> Puzzle:  # noqa: N802 - a model name
    """n-queens on n x n with `queens` already placed: each a pair of whole numbers on the board,
    checked here (a float or a string is refused, never compared as a cell)."""
    n = numbers.size(n, "n", minimum=None)
    cells = tuple(numbers.cell(queen, "pre-placed queen", n, n) for queen in queens)
    if len(set(cells)) != len(cells):
        raise MalformedInput("a pre-placed queen is listed twice")
    return Puzzle(rows=n, cols=n, piece=QUEEN, pieces=n, fixed=frozenset(cells),
                  title=f"{n}-queens completion of {len(cells)}")


def _pair(tokens: list[str], where: str) -> Cell:
    if len(tokens) != 2:
        raise MalformedInput(f"{where}: expected a row and a column, got {' '.join(tokens)!r}")
    try:  # bounded as a board side is (a larger coordinate is on no board); off this board is Puzzle's to say
        row, col = (numbers.count(token, "a coordinate", minimum=-numbers.MAX_SIDE, maximum=numbers.MAX_SIDE)
                    for token in tokens)
    except InvalidNumber:
        raise MalformedInput(f"{where}: {' '.join(tokens)!r} is not two whole numbers (a row and a column, each "
                             f"at most {numbers.MAX_SIDE})") from None
    return row, col


def _quoted(text: str) -> str:
    """`text` quoted for a message, cut short when long."""
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


def parse_cells(text: str) -> tuple[Cell, ...]:
    """'r,c r,c ...' (0-indexed) into cells."""
    return tuple(_pair(token.split(","), f"queen {token!r}") for token in text.split())


def parse_vector(text: str) -> tuple[Cell, ...]:
    """Grigoryan's vector form: entry i (1-indexed row) is the 1-indexed column, 0 if empty."""
    try:  # bounded as a board side is: a larger column could not be on any board
        values = [numbers.count(v, "a vector entry", maximum=numbers.MAX_SIDE) for v in text.replace(",", " ").split()]
    except InvalidNumber as error:
        raise MalformedInput(f"the vector {_quoted(text)} must hold whole numbers: vector entries are columns "
                             f"1..n or 0 for an empty row ({error})") from None
    return tuple((i, v - 1) for i, v in enumerate(values) if v)
