"""A puzzle file the user pasted into the page or chose from their disk, read as the CLI reads one.

The text arrives in a request (`"file": "..."`) and is parsed by `queens.models.puzzle_file`,
the reader `queens solve FILE` uses, so a mistake gets the same one-line error naming the key or
the line. Two bounds come first, because the board call runs in the server's own thread:
the text's length (`MAX_FILE_CHARS`), and the board's sides, read before anything else of the
file (`sides`): cell sets such as `holes = "r == c"` are evaluated over the whole board, and a
file may ask for a 100,000 x 100,000 one.

>>> spec = read_text('title = "Kings"\\n[board]\\n[[army]]\\npiece = "king"', 5, side=20)
>>> spec.puzzle.shape, spec.task
((5, 5), 'count')
>>> sides(tomllib.loads('[parameters]\\nm = "2*n"\\n[board]\\nshape = ["n", "m"]'), 8)  # read_text refuses 8x16
(8, 16)
"""

from __future__ import annotations

import tomllib
from typing import Any

from queens.models import QueensError
from queens.models.puzzle_file import PuzzleSpec, loads, parse
from queens.web.schema import BadRequest

MAX_FILE_CHARS = 32_000
"""The longest file the page sends: every shipped file is under 2,000 characters, and a request
body (64 KB) holds this much with room for JSON's escapes."""
ASKS_CHARS = 200
"""The longest line `asks` gives: one line under the page's title."""
WHERE = "your puzzle file"
"""How the parser's messages name the file: it has no path on the server."""


def read_text(text: object, n: int, *, side: int) -> PuzzleSpec:
    """The puzzle and goal the text describes, for `n`, on a board no side of which exceeds
    `side`; the parser's one-line error (MalformedInput) for a mistake in the file."""
    if not isinstance(text, str):
        raise BadRequest(f"'file' must be the text of a puzzle file, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise BadRequest(f"{WHERE}: {len(text):,} characters; the explorer reads at most {MAX_FILE_CHARS:,}")
    if not text.strip():
        raise BadRequest(f"{WHERE} is empty: paste a puzzle file (docs/puzzle-files.md) or choose one")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return loads(text, n, where=WHERE)  # raises the parser's own message, with the line
    shape = sides(data, n)
    if shape is not None and max(shape) > side:
        raise BadRequest(f"{WHERE}: the board is {'x'.join(map(str, shape))}; the explorer draws sides up to "
                         f"{side} (the CLI takes larger: queens solve FILE)")
    return parse(data, n, where=WHERE)


def sides(data: dict[str, Any], n: int) -> tuple[int, ...] | None:
    """The board's sides, read by the file reader from the file's [parameters] and `board.shape`
    alone (no cell set is evaluated), or None when these are malformed: the whole file's
    reading then names the mistake."""
    board = data.get("board", {})
    if not isinstance(board, dict):
        return None
    probe: dict[str, Any] = {"board": {"shape": board.get("shape", ["n", "n"])}, "army": [{"count": 0}]}
    if "parameters" in data:
        probe["parameters"] = data["parameters"]
    try:
        return parse(probe, n, where=WHERE).puzzle.shape
    except QueensError:
        return None


def asks(text: str, spec: PuzzleSpec) -> str:
    """What the file asks, in one line: the first sentence of its opening comment (the shipped
    files each open with one), else its goal and its name.

    >>> asks("# Bezzel (1848): n queens, none attacking. More.\\n[[army]]", read_text("[board]\\n[[army]]", 4, side=20))
    'Bezzel (1848): n queens, none attacking.'
    """
    comment = []
    for line in text.lstrip().splitlines():
        if not line.startswith("#"):
            break
        comment.append(line.lstrip("#").strip())
    said = " ".join(part for part in comment if part)
    if said:
        end = said.find(". ")
        said = said if end < 0 else said[:end + 1]
        return said if len(said) <= ASKS_CHARS else said[:ASKS_CHARS - 1] + "…"
    return f"{spec.task} {spec.puzzle.name}, as your file describes it"
