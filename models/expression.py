"""Expressions in puzzle files: numbers of named parameters, and conditions that pick cells.

A puzzle file writes sizes and counts as `"n"`, `"n*n"`, `"(n + 1) // 2"`, and a set of cells as
a condition on a cell's coordinates, `"r == c or r + c == n - 1"`. A file is data from anywhere,
so its text is read by this hand-written parser and never `eval`ed: whole numbers, parameter
names, `+ - * // %`, unary minus, `abs min max`, comparisons `== != < <= > >=` (which do not
chain), `not and or`, `true false` and parentheses; nothing else.

The text is parsed once into a small tree whose types are checked as it is built (a number is
never a condition, nor a condition a number), and the tree is read by one walk, either at one
point with Python ints (`_Scalars`) or at every cell of a board at once with numpy arrays
(`_Arrays`).

>>> evaluate("2*n - 2", {"n": 8})
14
>>> evaluate("(n + 1) // 2", {"n": 7})
4
>>> sorted(cells_where("r + c == n - 1", (3, 3), {"n": 3}))
[(0, 2), (1, 1), (2, 0)]
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import reduce
from typing import Any

import numpy as np
from queens.models.errors import MalformedInput

MAX_LENGTH = 500
"""Longer text is refused before parsing: a size or a board's region is never a long formula."""
MAX_DEPTH = 24
"""Deeper nesting (parentheses, calls, unary minus, not) is refused, so that no text exhausts
the parser's stack; a formula a person writes nests a handful deep."""
MAX_CELLS = 2**24
"""The largest board a condition is read on (a 4096 x 4096 board): it is read at every cell at
once, as arrays of the board's size, so a 10^6 x 10^6 board asked for a terabyte."""
AXES = {2: ("r", "c"), 3: ("x", "y", "z")}
"""The names of a cell's coordinates, by the board's number of sides."""
FUNCTIONS = ("abs", "min", "max")
RESERVED = ("and", "or", "not", "true", "false", *FUNCTIONS)
"""The language's own words: no parameter can take these names."""
LARGEST = 2**62
"""Every number stays below this in size: over arrays numpy's int64 would wrap silently, and at
one point an unbounded int grows without end (a parameter squared forty times: 2**40 digits)."""

_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_][a-z0-9_]*)|(//|==|!=|<=|>=|[-+*%()<>,]))")
_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_GRAMMAR = ("use whole numbers, names, + - * // %, == != < <= > >=, and or not, true false, "
            "abs min max and parentheses")


def evaluate(text: str | int, names: Mapping[str, int]) -> int:
    """The value of the number `text` (an int passes through) with the parameters `names`;
    MalformedInput on a syntax error, a condition, a division by zero or an unknown name.

    >>> evaluate("max(m, n) * 2 - 1", {"m": 3, "n": 5})
    9
    """
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise MalformedInput(f"expected a whole number or an expression such as 2*n, got {text!r}")
    if isinstance(text, int):
        if abs(text) >= LARGEST:
            raise MalformedInput(f"{_short(text)} is too large a number (at most 2**62)")
        return text
    return int(_value(_parse(text, condition=False), _Scalars(text, _parameters(names, ()))))


def holds(text: str, names: Mapping[str, int]) -> bool:
    """Whether the condition `text` holds at one point, where `names` gives the parameters and
    the cell's coordinates alike: `cells_where` asked about a single cell.

    >>> holds("abs(r - c) <= 1 and not (c > n)", {"r": 4, "c": 3, "n": 8})
    True
    """
    return bool(_value(_parse(text, condition=True), _Scalars(text, _parameters(names, ()))))


def cells_where(text: str, shape: tuple[int, ...], names: Mapping[str, int]) -> frozenset[tuple[int, ...]]:
    """The cells of a board of `shape` where the condition `text` holds. A cell's coordinates
    are `r, c` (row, column) on a 2-D board and `x, y, z` on a cube; `names` gives the other
    parameters, and cannot rename a coordinate.

    The tree is read once over arrays of every coordinate, broadcast (`r` a column, `c` a row),
    so a board of millions of cells takes milliseconds, not a Python loop per cell.

    >>> sorted(cells_where("min(r, c) == 0 and r < 2", (3, 3), {}))
    [(0, 0), (0, 1), (0, 2), (1, 0)]
    >>> sorted(cells_where("x == y and y == z", (2, 2, 2), {}))
    [(0, 0, 0), (1, 1, 1)]
    """
    if len(shape) not in AXES:
        raise MalformedInput(f"a board has 2 or 3 sides, got {shape}")
    if math.prod(shape) > MAX_CELLS:
        raise MalformedInput(f"a condition picks cells on boards of at most {MAX_CELLS:,} cells; this one has "
                             f"{math.prod(shape):,} (list the cells instead)")
    axes = AXES[len(shape)]
    tree = _parse(text, condition=True)
    coordinates = dict(zip(axes, np.indices(shape, dtype=np.int64, sparse=True), strict=True))
    inside = _value(tree, _Arrays(text, {**_parameters(names, axes), **coordinates}, axes))
    found = np.nonzero(np.broadcast_to(inside, shape))
    return frozenset(zip(*(axis.tolist() for axis in found), strict=True))


def _parameters(names: Mapping[str, int], axes: tuple[str, ...]) -> Mapping[str, int]:
    """`names`, once each is known to be writable in an expression and to be no coordinate."""
    for name in names:
        if not _NAME.fullmatch(name) or name in RESERVED:
            raise MalformedInput(f"a parameter cannot be called {name!r}: a name is lower-case letters, digits "
                                 f"and _, and none of {', '.join(RESERVED)}")
        if name in axes:
            raise MalformedInput(f"a parameter cannot be called {name!r}: {', '.join(axes)} name a cell's "
                                 "coordinates in a condition")
    return names


# The tree: one frozen dataclass per kind of node, each keeping its own text to quote.


@dataclass(frozen=True)
class Number:
    value: int
    source: str


@dataclass(frozen=True)
class Name:
    name: str
    source: str


@dataclass(frozen=True)
class Negative:
    operand: Node
    source: str


@dataclass(frozen=True)
class Arithmetic:
    """`first`, then each (operator, operand) in turn from the left: `a - b + c`, `a * b // c`.
    A chain rather than nested pairs, so that a long sum is a shallow tree."""

    first: Node
    rest: tuple[tuple[str, Node], ...]
    source: str


@dataclass(frozen=True)
class Call:
    function: str
    arguments: tuple[Node, ...]
    source: str


@dataclass(frozen=True)
class Truth:
    truth: bool
    source: str


@dataclass(frozen=True)
class Comparison:
    operator: str
    left: Node
    right: Node
    source: str


@dataclass(frozen=True)
class Not:
    operand: Node
    source: str


@dataclass(frozen=True)
class Logic:
    """`and` or `or` over two or more conditions, every one of them read: nothing short-circuits,
    so a division by zero is found at whichever cell it is, one cell or all at once."""

    operator: str
    operands: tuple[Node, ...]
    source: str


Node = Number | Name | Negative | Arithmetic | Call | Truth | Comparison | Not | Logic
_CONDITIONS = (Truth, Comparison, Not, Logic)


def _value(node: Node, space: _Scalars) -> Any:
    """The value of `node` in `space`: an int or a bool at one point, or arrays of them."""
    match node:
        case Number(value=value):
            return space.constant(value, node)
        case Name(name=name):
            return space.lookup(name)
        case Negative(operand=operand):
            return -_value(operand, space)
        case Arithmetic(first=first, rest=rest):
            result = _value(first, space)
            for symbol, operand in rest:
                result = space.arithmetic(symbol, result, _value(operand, space), operand)
            return result
        case Call(function=function, arguments=arguments):
            return space.call(function, [_value(argument, space) for argument in arguments])
        case Truth(truth=truth):
            return truth
        case Comparison(operator=symbol, left=left, right=right):
            return _COMPARE[symbol](_value(left, space), _value(right, space))
        case Not(operand=operand):
            return space.negation(_value(operand, space))
        case Logic(operator=symbol, operands=operands):
            return space.logic(symbol, [_value(operand, space) for operand in operands])


class _Scalars:
    """Values at one point: Python ints and bools, each below `LARGEST` in size (a parameter
    squared forty times would otherwise take the reader hours and gigabytes to write out). `axes`
    names the coordinates that `names` holds as arrays, when it does."""

    def __init__(self, text: str, names: Mapping[str, Any], axes: tuple[str, ...] = ()) -> None:
        self.text, self.names, self.axes = text, names, axes

    def constant(self, value: int, node: Node) -> Any:
        if value >= LARGEST:
            raise MalformedInput(f"{node.source!r} is too large a number (at most 2**62), in {self.text!r}")
        return value

    def lookup(self, name: str) -> Any:
        if name not in self.names:
            raise MalformedInput(self._unknown(name))
        value = self.names[name]
        if _size(value) >= LARGEST:
            raise MalformedInput(f"{name} = {_short(value)} is too large (at most 2**62), in {self.text!r}")
        return value

    def _unknown(self, name: str) -> str:
        if name == "n":
            return f"{self.text!r} uses n, but no n was given (-n N)"
        if any(name in axes for axes in AXES.values()):
            if self.axes:
                return f"{self.text!r} uses {name}, but the cells of this board are ({', '.join(self.axes)})"
            return f"{self.text!r} uses {name}, a cell's coordinate, but no cell was given"
        return f"{self.text!r} uses {name}, but no value was given for {name} (-p {name}=VALUE)"

    def arithmetic(self, symbol: str, left: Any, right: Any, operand: Node) -> Any:
        if symbol in ("//", "%") and _zero_somewhere(right):
            raise MalformedInput(f"division by zero in {self.text!r}: {operand.source!r} is 0")
        grows = {"+": operator.add, "-": operator.add, "*": operator.mul}.get(symbol)
        if grows is not None and grows(_size(left), _size(right)) >= LARGEST:  # before the step: int64 wraps
            raise MalformedInput(f"numbers grow too large in {self.text!r}, at '{symbol} {operand.source}' "
                                 "(beyond 2**62)")
        return _ARITHMETIC[symbol](left, right)

    def call(self, function: str, values: Sequence[Any]) -> Any:
        return abs(values[0]) if function == "abs" else min(values) if function == "min" else max(values)

    def negation(self, value: Any) -> Any:
        return not value

    def logic(self, symbol: str, values: Sequence[Any]) -> Any:
        return all(values) if symbol == "and" else any(values)


class _Arrays(_Scalars):
    """Values at every cell at once: numpy arrays of int64 and bool (plain ints and bools where
    no coordinate enters), within the same bound, checked before each step (int64 wraps silently)."""

    def call(self, function: str, values: Sequence[Any]) -> Any:
        if function == "abs":
            return super().call(function, values)
        return reduce(np.minimum if function == "min" else np.maximum, values)

    def negation(self, value: Any) -> Any:
        return np.logical_not(value)

    def logic(self, symbol: str, values: Sequence[Any]) -> Any:
        return reduce(np.logical_and if symbol == "and" else np.logical_or, values)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 30 else f"{text[:12]}...({len(text)} digits)"


def _size(value: Any) -> int:
    """The largest magnitude in `value`, an int or an array of them."""
    if isinstance(value, np.ndarray):
        return max(-int(value.min()), int(value.max())) if value.size else 0
    return abs(int(value))


def _zero_somewhere(value: Any) -> bool:
    return bool(np.any(value == 0)) if isinstance(value, np.ndarray) else bool(value == 0)


def _parse(text: str, *, condition: bool) -> Node:
    """The tree of `text`, which must be a condition (a number, when not `condition`)."""
    if not isinstance(text, str):
        raise MalformedInput(f"expected an expression as text, got {text!r}")
    if len(text) > MAX_LENGTH:
        raise MalformedInput(f"expression longer than {MAX_LENGTH} characters: {text[:30]!r}...")
    if not text.strip():
        expected = "a condition such as r == c" if condition else "a number such as 8 or 2*n"
        raise MalformedInput(f"empty expression where {expected} was expected")
    parser = _Parser(text)
    tree = parser.disjunction()
    if parser.position < len(parser.tokens):
        raise parser.unexpected(*parser.tokens[parser.position])
    return parser.condition(tree) if condition else parser.number(tree)


def _tokens(text: str) -> list[tuple[str, int]]:
    """Each token of `text` with the offset where it starts."""
    tokens: list[tuple[str, int]] = []
    position, end = 0, len(text.rstrip())
    while position < end:
        match = _TOKEN.match(text, position)
        if match is None:
            stray = len(text) - len(text[position:].lstrip())
            raise MalformedInput(f"cannot read {text[stray:].strip()!r} in {text!r} (at character {stray + 1}): "
                                 f"{_GRAMMAR}")
        group = match.lastindex or 0
        tokens.append((match.group(group), match.start(group)))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent, loosest binding first (Python's order):

        disjunction := conjunction ('or' conjunction)*
        conjunction := negation ('and' negation)*
        negation    := 'not' negation | comparison
        comparison  := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
        sum         := product (('+' | '-') product)*
        product     := unary (('*' | '//' | '%') unary)*
        unary       := '-' unary | atom
        atom        := number | 'true' | 'false' | name | function '(' list ')' | '(' disjunction ')'

    Each node is checked as it is built: arithmetic takes numbers, logic takes conditions.
    """

    def __init__(self, text: str) -> None:
        self.text, self.tokens = text, _tokens(text)
        self.position = self.end = self.depth = 0

    def _peek(self) -> str | None:
        return self.tokens[self.position][0] if self.position < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise MalformedInput(f"{self.text!r} ends too early")
        self.end = self.tokens[self.position][1] + len(token)
        self.position += 1
        return token

    def _start(self) -> int:
        """Where the next token starts, so that a node can quote its own text."""
        return self.tokens[self.position][1] if self.position < len(self.tokens) else len(self.text)

    def _source(self, start: int) -> str:
        return self.text[start:self.end]

    @contextmanager
    def _nested(self) -> Iterator[None]:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise MalformedInput(f"{self.text[:30]!r}... is nested too deeply (more than {MAX_DEPTH} levels)")
        yield
        self.depth -= 1

    def unexpected(self, token: str, start: int) -> MalformedInput:
        return MalformedInput(f"unexpected {token!r} at character {start + 1} of {self.text!r}")

    def number(self, node: Node) -> Node:
        if isinstance(node, _CONDITIONS):
            raise MalformedInput(f"expected a number, got the condition {node.source!r}{self._within(node.source)}")
        return node

    def condition(self, node: Node) -> Node:
        if not isinstance(node, _CONDITIONS):
            raise MalformedInput(f"expected a condition such as r == c, got the number {node.source!r}"
                                 f"{self._within(node.source)}")
        return node

    def _within(self, source: str) -> str:
        """Where `source` stands, unless it is the whole text."""
        return "" if source == self.text.strip() else f" in {self.text!r}"

    def disjunction(self) -> Node:
        return self._logic("or", self.conjunction)

    def conjunction(self) -> Node:
        return self._logic("and", self.negation)

    def _logic(self, word: str, operand: Callable[[], Node]) -> Node:
        start, operands = self._start(), [operand()]
        while self._peek() == word:
            self._take()
            operands.append(operand())
        if len(operands) == 1:
            return operands[0]
        return Logic(word, tuple(map(self.condition, operands)), self._source(start))

    def negation(self) -> Node:
        if self._peek() != "not":
            return self.comparison()
        start = self._start()
        self._take()
        with self._nested():
            operand = self.negation()
        return Not(self.condition(operand), self._source(start))

    def comparison(self) -> Node:
        start, left = self._start(), self.sum()
        if self._peek() not in _COMPARE:
            return left
        symbol, middle = self._take(), self._start()
        right = self.sum()
        if self._peek() in _COMPARE:
            first = self._source(start)
            self._take()
            self.sum()
            raise MalformedInput(f"comparisons do not chain: write '{first} and {self._source(middle)}' "
                                 f"for {self._source(start)!r}")
        return Comparison(symbol, self.number(left), self.number(right), self._source(start))

    def sum(self) -> Node:
        return self._arithmetic(("+", "-"), self.product)

    def product(self) -> Node:
        return self._arithmetic(("*", "//", "%"), self.unary)

    def _arithmetic(self, symbols: tuple[str, ...], operand: Callable[[], Node]) -> Node:
        start, first = self._start(), operand()
        rest = []
        while self._peek() in symbols:
            symbol = self._take()
            rest.append((symbol, self.number(operand())))
        if not rest:
            return first
        return Arithmetic(self.number(first), tuple(rest), self._source(start))

    def unary(self) -> Node:
        if self._peek() != "-":
            return self.atom()
        start = self._start()
        self._take()
        with self._nested():
            operand = self.unary()
        return Negative(self.number(operand), self._source(start))

    def atom(self) -> Node:
        start, token = self._start(), self._take()
        if token == "(":
            with self._nested():
                inner = self.disjunction()
            self._close(start)
            return inner
        if token.isdigit():
            return Number(int(token), token)
        if token in ("true", "false"):
            return Truth(token == "true", token)
        if token in FUNCTIONS:
            return self._call(token, start)
        if _NAME.fullmatch(token) and token not in RESERVED:
            if self._peek() == "(":
                raise MalformedInput(f"{token} is not a function, in {self.text!r}: the functions are "
                                     f"{', '.join(FUNCTIONS)}")
            return Name(token, token)
        raise self.unexpected(token, start)

    def _call(self, function: str, start: int) -> Node:
        if self._peek() != "(":
            raise MalformedInput(f"{function} is a function, in {self.text!r}: write {function}(...)")
        opening = self._start()
        self._take()
        with self._nested():
            arguments = [self.disjunction()]
            while self._peek() == ",":
                self._take()
                arguments.append(self.disjunction())
        self._close(opening)
        source = self._source(start)
        if (len(arguments) == 1) != (function == "abs"):
            wanted = "one number" if function == "abs" else "two numbers or more"
            raise MalformedInput(f"{function} takes {wanted}, got {source!r}{self._within(source)}")
        return Call(function, tuple(map(self.number, arguments)), source)

    def _close(self, opening: int) -> None:
        """Take the ')' that closes the '(' at `opening`."""
        if self._peek() is None:
            raise MalformedInput(f"missing ')' in {self.text!r} for the '(' at character {opening + 1}")
        if self._peek() != ")":
            raise self.unexpected(*self.tokens[self.position])
        self._take()
