"""A result's optional and mixed-type fields read as the type a test uses them as.

`Result.stats` maps names to an int, a float or a text, and `Result.count` is None when nothing
was counted; a test that compares a number or reads a text says which it expects, and fails
saying so when the value is of another type (rather than with a TypeError further on).

>>> number({"nodes": 12}, "nodes")
12
>>> text({"counter": "classes/vector"}, "counter")
'classes/vector'
"""

from __future__ import annotations

from collections.abc import Mapping

from queens.solvers.result import Result


def number(stats: Mapping[str, int | float | str], key: str) -> int | float:
    """`stats[key]`, which must be a number."""
    value = stats[key]
    assert isinstance(value, int | float), f"stats[{key!r}] is not a number: {value!r}"
    return value


def text(stats: Mapping[str, int | float | str], key: str) -> str:
    """`stats[key]`, which must be a text."""
    value = stats[key]
    assert isinstance(value, str), f"stats[{key!r}] is not a text: {value!r}"
    return value


def counted(result: Result) -> int:
    """The result's count, which must be there."""
    assert result.count is not None, f"nothing counted: {result}"
    return result.count
