"""One parser per kind of number: a count, a board size, seconds, a cell.

Every boundary (the CLI's options, the Python API's constructors, the explorer's requests)
reads its numbers through these four, so a value at the edge of its type (NaN, infinity,
2^64 - 1, a float where a whole number belongs, a string, True) is refused here, once, with the
field and the value named, instead of reaching a library call that answers with an
OverflowError, a TypeError or a silently wrong result. Each accepts the forms a caller has:
a Python or numpy number, or the text of one (a command line).

>>> count("16", "--pieces")
16
>>> seconds(2, "--time-limit")
2.0
>>> size(2.5, "n")
Traceback (most recent call last):
...
queens.models.errors.InvalidNumber: n must be a whole number, got 2.5
>>> seconds("nan", "--time-limit")
Traceback (most recent call last):
...
queens.models.errors.InvalidNumber: --time-limit must be a finite number of seconds, got 'nan'
"""

from __future__ import annotations

import math
import operator
import re

from queens.models.errors import InvalidNumber, OffBoard

MAX_COUNT = 2**63 - 1
"""The most a count may be: a C `long long`, what the native counters and numpy hold."""
MAX_SIDE = 2**31 - 1
"""The largest board side: a C `int`; each backend refuses far smaller boards with its reason."""
MAX_SECONDS = 10.0**8
"""About three years: beyond it a limit means "none", and threading's TIMEOUT_MAX is near."""


_DIGITS = re.compile(r"[-+]?[0-9]{1,4000}")
"""A whole number as text: ASCII digits and a sign, no underscores (int("8_0") is 80), and no
more digits than int() takes (4300)."""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object, field: str) -> int:
    """`value` as an int: an int, a numpy integer or the text of one; never a bool or a float."""
    if isinstance(value, bool):
        raise InvalidNumber(f"{field} must be a whole number, got {value!r}")
    if isinstance(value, str):  # digits as written: int() would also take 8_0 (80) and other scripts' digits
        if not _DIGITS.fullmatch(value.strip()):
            raise InvalidNumber(f"{field} must be a whole number, got {_shown(value)}")
        return int(value.strip())
    try:
        return operator.index(value)  # type: ignore[arg-type]  # refused below when it is no integer
    except TypeError:
        raise InvalidNumber(f"{field} must be a whole number, got {_shown(value)}") from None


def count(value: object, field: str, *, minimum: int = 0, maximum: int = MAX_COUNT) -> int:
    """A whole number of things (pieces, solutions, threads, a seed) in [minimum, maximum]."""
    number = _whole(value, field)
    if not minimum <= number <= maximum:
        raise InvalidNumber(f"{field} must be between {minimum} and {maximum}, got {_shown(number)}")
    return number


def size(value: object, field: str, *, minimum: int | None = 1, maximum: int = MAX_SIDE) -> int:
    """A board side (rows, columns, n): a whole number in [minimum, maximum].

    minimum=None leaves a side <= 0 to the board's own check (`Puzzle` raises InvalidBoard,
    "the board needs a positive number of rows"): the family constructors pass it on as given.
    """
    number = _whole(value, field)
    if minimum is None and number <= maximum:
        return number
    if not (minimum or 0) <= number <= maximum:
        raise InvalidNumber(f"{field} must be a board side between {minimum or 1} and {maximum}, got {_shown(number)}")
    return number


def seconds(value: object, field: str, *, minimum: float = 0.0, maximum: float = MAX_SECONDS) -> float:
    """A duration: a finite number in [minimum, maximum]; NaN and infinity are refused."""
    if isinstance(value, bool):
        raise InvalidNumber(f"{field} must be a finite number of seconds, got {value!r}")
    try:
        number = float(value.strip() if isinstance(value, str) else value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise InvalidNumber(f"{field} must be a finite number of seconds, got {_shown(value)}") from None
    if not math.isfinite(number):
        raise InvalidNumber(f"{field} must be a finite number of seconds, got {_shown(value)}")
    if not minimum <= number <= maximum:
        raise InvalidNumber(f"{field} must be between {minimum:g} and {maximum:g} seconds, got {_shown(value)}")
    return number


def cell(value: object, field: str, rows: int | None = None, cols: int | None = None) -> tuple[int, int]:
    """A cell (row, column): a pair of whole numbers, or the text 'r,c'; on the board when its
    size is given (OffBoard names the board).

    >>> cell("3,4", "--pawn", 8, 8)
    (3, 4)
    """
    parts: object = value.split(",") if isinstance(value, str) else value
    if not isinstance(parts, (tuple, list)) or len(parts) != 2:
        raise InvalidNumber(f"{field} must be a cell (row, column), got {_shown(value)}")
    row, col = (_whole(part, f"{field} {_shown(value)}") for part in parts)
    if rows is not None and cols is not None and not (0 <= row < rows and 0 <= col < cols):
        raise OffBoard(f"{field} at {(row, col)} is off the {rows}x{cols} board")
    return row, col
