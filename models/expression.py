"""Integer expressions of the puzzle parameter `n`, parsed by hand and never `eval`ed.

A puzzle file writes sizes and counts as `"n"`, `"n*n"`, `"2*n - 2"`, `"(n + 1) // 2"`: small
arithmetic over whole numbers. A file is data from anywhere, so it is read by this recursive
descent parser (numbers, `n`, `+ - * // %`, parentheses, unary minus) and nothing else.

>>> evaluate("2*n - 2", n=8)
14
>>> evaluate("(n + 1) // 2", n=7)
4
"""

from __future__ import annotations

import re

from queens.models.errors import MalformedInput

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)\b|(//|[-+*%()]))")
MAX_LENGTH = 200
"""Longer text is refused before parsing: a size is never a long formula."""


def evaluate(text: str | int, *, n: int | None) -> int:
    """The value of `text` (an int passes through) with the parameter `n`; MalformedInput on a
    syntax error, a division by zero, or `n` used where no n was given."""
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise MalformedInput(f"expected a whole number or an expression of n, got {text!r}")
    if isinstance(text, int):
        return text
    if len(text) > MAX_LENGTH:
        raise MalformedInput(f"expression longer than {MAX_LENGTH} characters")
    parser = _Parser(_tokens(text), text, n)
    value = parser.sum()
    if parser.position != len(parser.tokens):
        raise MalformedInput(f"unexpected {parser.tokens[parser.position]!r} in {text!r}")
    return value


def _tokens(text: str) -> list[str]:
    tokens, position = [], 0
    while position < len(text.rstrip()):
        match = _TOKEN.match(text, position)
        if match is None:
            raise MalformedInput(f"cannot read {text[position:].strip()!r} in {text!r}: "
                                 "use whole numbers, n, + - * // % and parentheses")
        tokens.append(next(group for group in match.groups() if group is not None))
        position = match.end()
    return tokens


class _Parser:
    """sum := product (('+' | '-') product)*; product := unary (('*' | '//' | '%') unary)*;
    unary := '-' unary | atom; atom := number | 'n' | '(' sum ')'."""

    def __init__(self, tokens: list[str], text: str, n: int | None) -> None:
        self.tokens, self.text, self.n, self.position = tokens, text, n, 0

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise MalformedInput(f"{self.text!r} ends too early")
        self.position += 1
        return token

    def sum(self) -> int:
        value = self.product()
        while self._peek() in ("+", "-"):
            value = value + self.product() if self._take() == "+" else value - self.product()
        return value

    def product(self) -> int:
        value = self.unary()
        while self._peek() in ("*", "//", "%"):
            operator, right = self._take(), self.unary()
            if operator == "*":
                value *= right
            elif right == 0:
                raise MalformedInput(f"division by zero in {self.text!r}")
            else:
                value = value // right if operator == "//" else value % right
        return value

    def unary(self) -> int:
        if self._peek() == "-":
            self._take()
            return -self.unary()
        return self.atom()

    def atom(self) -> int:
        token = self._take()
        if token == "(":
            value = self.sum()
            if self._take() != ")":
                raise MalformedInput(f"missing ')' in {self.text!r}")
            return value
        if token == "n":
            if self.n is None:
                raise MalformedInput(f"{self.text!r} uses n, but no n was given (-n N)")
            return self.n
        if token.isdigit():
            return int(token)
        raise MalformedInput(f"unexpected {token!r} in {self.text!r}")
