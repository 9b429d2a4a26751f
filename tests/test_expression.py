"""The expression reader: values of numbers, cell sets of conditions, a message for each mistake,
and a property test that reads random conditions cell by cell with an evaluator of its own."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import product
from typing import Any

import pytest
from queens.models.errors import MalformedInput
from queens.models.expression import MAX_LENGTH, cells_where, evaluate, holds

Cell = tuple[int, ...]

NUMBERS = [  # (text, parameters, value)
    ("2*n - 2", {"n": 8}, 14),
    ("(n + 1) // 2", {"n": 7}, 4),
    ("m * k_2 + 1", {"m": 3, "k_2": 5}, 16),
    ("-7 // 2", {}, -4),
    ("-7 % 3", {}, 2),
    ("- - 3", {}, 3),
    ("2 * -3", {}, -6),
    ("10 - 2 - 3", {}, 5),
    ("100 // 10 // 5", {}, 2),
    ("1 + 2 * 3 % 4", {}, 3),
    ("abs(3 - n)", {"n": 8}, 5),
    ("min(n, 3, 5) + max(1, n)", {"n": 2}, 4),
    ("999999999999999999 * 4", {}, 3999999999999999996),  # below 2**62: exact
    (12, {}, 12),
]


@pytest.mark.parametrize(("text", "names", "value"), NUMBERS)
def test_numbers(text: str | int, names: dict[str, int], value: int) -> None:
    assert evaluate(text, names) == value


def _board(shape: Cell, inside: Callable[..., bool]) -> frozenset[Cell]:
    return frozenset(cell for cell in product(*map(range, shape)) if inside(*cell))


DIAGONAL = frozenset({(0, 0), (1, 1), (2, 2), (3, 3)})
CONDITIONS = [  # (text, shape, the cells where it holds); n is 4
    ("r == c", (4, 4), DIAGONAL),
    ("r + c == n - 1", (4, 4), frozenset({(0, 3), (1, 2), (2, 1), (3, 0)})),
    ("c > r", (4, 4), _board((4, 4), lambda r, c: c > r)),
    ("r >= 1 and r < 3 and c >= 1 and c < 3", (4, 4), frozenset({(1, 1), (1, 2), (2, 1), (2, 2)})),
    ("r == 0 or c == 0 or r == n - 1 or c == n - 1", (4, 4), _board((4, 4), lambda r, c: {r, c} & {0, 3} != set())),
    ("abs(r - c) <= 1", (4, 4), _board((4, 4), lambda r, c: abs(r - c) <= 1)),
    ("min(r, c) == 0", (4, 4), _board((4, 4), lambda r, c: 0 in (r, c))),
    ("max(r, c, 2) == 2", (4, 4), _board((4, 4), lambda r, c: r <= 2 and c <= 2)),
    ("x == y and y == z", (3, 3, 3), frozenset({(0, 0, 0), (1, 1, 1), (2, 2, 2)})),
    ("z == 1", (2, 3, 4), _board((2, 3, 4), lambda x, y, z: z == 1)),
    ("true", (4, 4), _board((4, 4), lambda r, c: True)),
    ("false", (4, 4), frozenset()),
    ("not (r == c)", (4, 4), _board((4, 4), lambda r, c: r != c)),
    ("not r == c", (4, 4), _board((4, 4), lambda r, c: r != c)),
    ("r == 0 or c == 0 and r == 3", (4, 4), _board((4, 4), lambda r, c: r == 0 or (r, c) == (3, 0))),
    ("(r + c) % 2 == 1", (2, 3), frozenset({(0, 1), (1, 0), (1, 2)})),
    ("r * 0 == 1 or n > 100", (4, 4), frozenset()),
]


@pytest.mark.parametrize(("text", "shape", "cells"), CONDITIONS)
def test_conditions(text: str, shape: Cell, cells: frozenset[Cell]) -> None:
    assert cells_where(text, shape, {"n": 4}) == cells
    axes = ("r", "c") if len(shape) == 2 else ("x", "y", "z")
    for cell in product(*map(range, shape)):
        assert holds(text, {"n": 4, **dict(zip(axes, cell, strict=True))}) == (cell in cells)


def test_a_board_of_millions_of_cells() -> None:
    cells = cells_where("r == c or r + c == n - 1", (2000, 2000), {"n": 2000})
    assert len(cells) == 4000 and (0, 1999) in cells and (1000, 1000) in cells


BAD = [  # (what reads the text: a number, cells of a 4x4 board or of a 3x3x3 cube; text; parameters; message)
    ("number", "n + 1", {}, "uses n, but no n was given (-n N)"),
    ("number", "m + 1", {"n": 8}, "'m + 1' uses m, but no value was given for m (-p m=VALUE)"),
    ("cells", "r < k", {}, "no value was given for k (-p k=VALUE)"),
    ("number", "r + 1", {}, "uses r, a cell's coordinate, but no cell was given"),
    ("cube", "r == 0", {}, "the cells of this board are (x, y, z)"),
    ("cells", "0 <= r < 3", {}, "comparisons do not chain: write '0 <= r and r < 3'"),
    ("cells", "r == c == 1", {}, "do not chain"),
    ("cells", "r + 1", {}, "expected a condition such as r == c, got the number 'r + 1'"),
    ("cells", "r + 1 and c == 0", {}, "got the number 'r + 1' in 'r + 1 and c == 0'"),
    ("cells", "not c", {}, "got the number 'c'"),
    ("cells", "(r == c) + 1 > 0", {}, "expected a number, got the condition 'r == c'"),
    ("cells", "abs(r == c) > 0", {}, "got the condition 'r == c'"),
    ("cells", "(r < 1) == (c < 1)", {}, "got the condition 'r < 1'"),
    ("number", "n == 8", {"n": 8}, "expected a number, got the condition 'n == 8'"),
    ("number", "1 // 0", {}, "division by zero in '1 // 0'"),
    ("cells", "r // (c - 1) == 0", {}, "division by zero in 'r // (c - 1) == 0': 'c - 1' is 0"),
    ("cells", "false and r % (c - c) == 0", {}, "division by zero"),
    ("number", "1 + " * 200 + "1", {}, f"longer than {MAX_LENGTH} characters"),
    ("cells", "(" * 200 + "r == c" + ")" * 200, {}, "nested too deeply"),
    ("number", "-" * 400 + "1", {}, "nested too deeply"),
    ("cells", "not " * 120 + "true", {}, "nested too deeply"),
    ("number", "abs(" * 80 + "1" + ")" * 80, {}, "nested too deeply"),
    ("cells", "r = c", {}, "cannot read '= c' in 'r = c' (at character 3)"),
    ("cells", "r == c;", {}, "cannot read ';'"),
    ("number", "N + 1", {}, "cannot read 'N + 1'"),
    ("number", '__import__("os")', {}, "cannot read"),
    ("number", "", {}, "empty expression where a number such as 8 or 2*n was expected"),
    ("cells", "   ", {}, "empty expression where a condition such as r == c was expected"),
    ("cells", "r == c", {"r": 1}, "a parameter cannot be called 'r'"),
    ("cells", "r == c", {"c": 1}, "a parameter cannot be called 'c'"),
    ("cube", "x == 0", {"z": 1}, "a parameter cannot be called 'z'"),
    ("number", "1", {"max": 1}, "a parameter cannot be called 'max'"),
    ("number", "8*", {}, "'8*' ends too early"),
    ("number", "(1 + 2", {}, "missing ')' in '(1 + 2' for the '(' at character 1"),
    ("number", "(1 + 2))", {}, "unexpected ')' at character 8"),
    ("number", "2n", {"n": 1}, "unexpected 'n' at character 2"),
    ("number", "1, 2", {}, "unexpected ','"),
    ("number", "min(1)", {}, "min takes two numbers or more"),
    ("number", "abs(1, 2)", {}, "abs takes one number"),
    ("number", "abs + 1", {}, "abs is a function"),
    ("number", "sqrt(4)", {}, "sqrt is not a function"),
    ("cells", "r * 99999999999 * 99999999999 > 0", {}, "numbers grow too large"),
    ("cells", "r < 99999999999999999999", {}, "too large a number"),
    ("cells", "r < big", {"big": 2**70}, "too large"),
    ("number", "99999999999999999999 * 10", {}, "too large a number"),  # at one point as over arrays: 2**62
    ("number", "n * n * n * n", {"n": 2**20}, "numbers grow too large"),
    ("number", "n", {"n": 2**70}, "too large"),
]


@pytest.mark.parametrize(("reader", "text", "names", "message"), BAD, ids=[f"{b[0]}:{b[1][:24]}" for b in BAD])
def test_mistakes_are_named(reader: str, text: str, names: dict[str, int], message: str) -> None:
    with pytest.raises(MalformedInput) as raised:
        if reader == "number":
            evaluate(text, names)
        else:
            cells_where(text, (4, 4) if reader == "cells" else (3, 3, 3), names)
    assert message in str(raised.value)


def test_only_text_or_a_whole_number_is_an_expression() -> None:
    with pytest.raises(MalformedInput, match="expected a whole number"):
        evaluate(True, {})
    with pytest.raises(MalformedInput, match="2 or 3 sides"):
        cells_where("true", (4,), {})


# The property test's own language: trees of tuples, printed with as few parentheses as its
# precedence needs (and some to spare), read by `_reference` with plain Python.

Tree = tuple[Any, ...]
_LEVEL = {"or": 1, "and": 2, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}
"""How tightly each operator binds; between them `not` is 3, comparisons 4, unary minus 7, atoms 8."""


def _number(rng: random.Random, names: list[str], depth: int) -> Tree:
    choice = rng.randrange(7 if depth > 0 else 2)
    if choice == 0:
        return ("literal", rng.randrange(6))
    if choice == 1:
        return ("name", rng.choice(names))
    if choice == 2:
        return ("negative", _number(rng, names, depth - 1))
    if choice == 3:
        return ("call", "abs", (_number(rng, names, depth - 1),))
    if choice == 4:
        arguments = tuple(_number(rng, names, depth - 1) for _ in range(rng.randint(2, 3)))
        return ("call", rng.choice(["min", "max"]), arguments)
    symbols = rng.choice([["+", "-"], ["*", "//", "%"]])  # a chain at one level: a - b + c, a * b % c
    steps = []
    for _ in range(rng.randint(1, 3)):
        symbol, operand = rng.choice(symbols), _number(rng, names, depth - 1)
        if symbol in ("//", "%") and rng.random() < 0.7:  # mostly a divisor that is never 0
            operand = ("literal", rng.randint(1, 5))
        steps.append((symbol, operand))
    return ("chain", _number(rng, names, depth - 1), tuple(steps))


def _condition(rng: random.Random, names: list[str], depth: int) -> Tree:
    """Mostly comparisons, so that most conditions pick some cells and leave others."""
    choice = rng.random() if depth > 0 else rng.random() / 2
    if choice < 0.05:
        return ("truth", rng.random() < 0.5)
    if choice < 0.5:
        symbol = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return ("compare", symbol, _number(rng, names, depth), _number(rng, names, depth))
    if choice < 0.6:
        return ("not", _condition(rng, names, depth - 1))
    operands = tuple(_condition(rng, names, depth - 1) for _ in range(rng.randint(2, 3)))
    return (rng.choice(["and", "or"]), operands)


def _text(tree: Tree, rng: random.Random) -> tuple[str, int]:
    """The tree written out, and the level of its outermost operator (8: an atom)."""
    kind = tree[0]

    def operand(child: Tree, least: int) -> str:
        text, level = _text(child, rng)
        return f"({text})" if level < least or rng.random() < 0.1 else text

    def spaced(symbol: str) -> str:
        return rng.choice([symbol, f" {symbol} ", f" {symbol}", f"{symbol}  "])

    if kind == "literal":
        return str(tree[1]), 8
    if kind == "name":
        return tree[1], 8
    if kind == "truth":
        return ("true" if tree[1] else "false"), 8
    if kind == "negative":
        return "-" + operand(tree[1], 7), 7
    if kind == "call":
        return f"{tree[1]}({', '.join(operand(argument, 0) for argument in tree[2])})", 8
    if kind == "compare":
        return operand(tree[2], 5) + spaced(tree[1]) + operand(tree[3], 5), 4
    if kind == "not":
        return "not " + operand(tree[1], 3), 3
    if kind in ("and", "or"):
        return f" {kind} ".join(operand(child, _LEVEL[kind] + 1) for child in tree[1]), _LEVEL[kind]
    level = _LEVEL[tree[2][0][0]]  # a chain: each operand after the first binds tighter
    return operand(tree[1], level) + "".join(spaced(symbol) + operand(child, level + 1)
                                             for symbol, child in tree[2]), level


_APPLY: dict[str, Callable[[int, int], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "//": lambda a, b: a // b,
    "%": lambda a, b: a % b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _reference(tree: Tree, at: dict[str, int]) -> Any:
    """The tree's value at one point, by Python's own ints (ZeroDivisionError on // 0 or % 0).
    Every operand is read, as the module does, so a division by zero is never skipped."""
    kind = tree[0]
    if kind == "literal":
        return tree[1]
    if kind == "name":
        return at[tree[1]]
    if kind == "truth":
        return tree[1]
    if kind == "negative":
        return -_reference(tree[1], at)
    if kind == "call":
        values = [_reference(argument, at) for argument in tree[2]]
        return abs(values[0]) if tree[1] == "abs" else min(values) if tree[1] == "min" else max(values)
    if kind == "not":
        return not _reference(tree[1], at)
    if kind in ("and", "or"):
        values = [_reference(child, at) for child in tree[1]]
        return all(values) if kind == "and" else any(values)
    if kind == "compare":
        return _APPLY[tree[1]](_reference(tree[2], at), _reference(tree[3], at))
    value = _reference(tree[1], at)  # a chain, read from the left
    for symbol, child in tree[2]:
        value = _APPLY[symbol](value, _reference(child, at))
    return value


def test_random_conditions_agree_with_a_cell_by_cell_reading() -> None:
    """`cells_where` reads a tree once over arrays, `holds` at one cell; both must say what
    `_reference` says at each cell, including a division by zero at any one of them."""
    rng = random.Random(20240611)
    outcomes = {"raised": 0, "empty": 0, "some": 0, "full": 0}
    for _ in range(600):
        shape = rng.choice([(rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 3), rng.randint(1, 3), 2)])
        axes = ["r", "c"] if len(shape) == 2 else ["x", "y", "z"]
        names = {"n": rng.randint(0, 6), "m_1": rng.randint(-3, 3)}
        tree = _condition(rng, [*axes, *names], depth=3)
        text = _text(tree, rng)[0]
        expected, divides_by_zero = set(), False
        for cell in product(*map(range, shape)):
            at = {**names, **dict(zip(axes, cell, strict=True))}
            try:
                if _reference(tree, at):
                    expected.add(cell)
                assert holds(text, at) == (cell in expected), (text, at)
            except ZeroDivisionError:
                divides_by_zero = True
                with pytest.raises(MalformedInput, match="division by zero"):
                    holds(text, at)
        if divides_by_zero:
            outcomes["raised"] += 1
            with pytest.raises(MalformedInput, match="division by zero"):
                cells_where(text, shape, names)
            continue
        assert cells_where(text, shape, names) == expected, (text, shape, names)
        full = len(expected) == math.prod(shape)
        outcomes["empty" if not expected else "full" if full else "some"] += 1
    assert min(outcomes.values()) >= 20, outcomes  # each kind of outcome was met, often
