"""Click parameter types for the four kinds of number, over `queens.models.numbers`.

An option declared with one of these reads its value through the same parser the Python API
uses, so `--time-limit nan`, `--threads 18446744073709551615` or `--pieces 2.5` is a usage
error naming the option and the value (exit 2), as it would be from `Puzzle(...)`.

>>> Seconds(minimum=0.1).convert("2", None, None)
2.0
"""

from __future__ import annotations

from collections.abc import Callable

import click

from queens.models import numbers
from queens.models.errors import InvalidNumber, OffBoard


class _Number(click.ParamType[object]):
    """The shared part: call the parser, and turn its error into click's usage error."""

    def parse(self, value: object, field: str) -> object:
        raise NotImplementedError

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        field = param.get_error_hint(ctx).strip("'\"") if param is not None and ctx is not None else "value"
        try:
            return self.parse(value, field)
        except (InvalidNumber, OffBoard) as error:  # click names the option already: not twice
            self.fail(str(error).removeprefix(f"{field} "), param, ctx)


class Count(_Number):
    """A whole number of things in [minimum, maximum]."""

    name = "integer"

    def __init__(self, minimum: int = 0, maximum: int = numbers.MAX_COUNT) -> None:
        self.minimum, self.maximum = minimum, maximum

    def parse(self, value: object, field: str) -> int:
        return numbers.count(value, field, minimum=self.minimum, maximum=self.maximum)


class Size(_Number):
    """A board side in [minimum, maximum]."""

    name = "integer"

    def __init__(self, minimum: int = 1, maximum: int = numbers.MAX_SIDE) -> None:
        self.minimum, self.maximum = minimum, maximum

    def parse(self, value: object, field: str) -> int:
        return numbers.size(value, field, minimum=self.minimum, maximum=self.maximum)


class Seconds(_Number):
    """A finite duration in [minimum, maximum]."""

    name = "seconds"

    def __init__(self, minimum: float = 0.0, maximum: float = numbers.MAX_SECONDS) -> None:
        self.minimum, self.maximum = minimum, maximum

    def parse(self, value: object, field: str) -> float:
        return numbers.seconds(value, field, minimum=self.minimum, maximum=self.maximum)


class CellType(_Number):
    """A cell 'r,c' (its board is checked by the puzzle, which knows it)."""

    name = "row,col"

    def parse(self, value: object, field: str) -> tuple[int, int]:
        return numbers.cell(value, field)


PARSERS: dict[str, Callable[..., _Number]] = {"count": Count, "size": Size, "seconds": Seconds, "cell": CellType}
"""Each kind by name, for the contract fuzzer (which draws values from each type's edges)."""
