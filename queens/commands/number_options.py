"""Click parameter types for the four kinds of number, over `queens.models.numbers`.

An option declared with one of these reads its value through the same parser the Python API
uses, so `--time-limit nan`, `--threads 18446744073709551615` or `--pieces 2.5` is a usage
error naming the option and the value (exit 2), as it would be from `Puzzle(...)`.

>>> Seconds(minimum=0.1).convert("2", None, None)
2.0
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import click

from queens.models import numbers
from queens.models.errors import InvalidNumber, OffBoard


class Number(click.ParamType[object]):
    """One kind of number: `parse(value, field)` is its parser with the option's bounds bound."""

    def __init__(self, name: str, parse: Callable[[object, str], object]) -> None:
        self.name, self._parse = name, parse

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        field = param.get_error_hint(ctx).strip("'\"") if param is not None and ctx is not None else "value"
        try:
            return self._parse(value, field)
        except (InvalidNumber, OffBoard) as error:  # click names the option already: not twice
            self.fail(str(error).removeprefix(f"{field} "), param, ctx)


def Count(minimum: int = 0, maximum: int = numbers.MAX_COUNT) -> Number:  # noqa: N802 - reads as a type
    """A whole number of things in [minimum, maximum]."""
    return Number("integer", partial(numbers.count, minimum=minimum, maximum=maximum))


def Size(minimum: int | None = 1, maximum: int = numbers.MAX_SIDE) -> Number:  # noqa: N802
    """A board side in [minimum, maximum] (minimum None: a side <= 0 left to the board, which names it)."""
    return Number("integer", partial(numbers.size, minimum=minimum, maximum=maximum))


def Seconds(minimum: float = 0.0, maximum: float = numbers.MAX_SECONDS) -> Number:  # noqa: N802
    """A finite duration in [minimum, maximum]."""
    return Number("seconds", partial(numbers.seconds, minimum=minimum, maximum=maximum))


def Cell() -> Number:  # noqa: N802
    """A cell 'r,c' (its board is checked by the puzzle, which knows it)."""
    return Number("row,col", numbers.cell)
