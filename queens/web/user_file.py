"""A puzzle file the user pasted into the page or chose from their disk, read as the CLI reads one.

The text arrives in a request (`"file": "..."`) and is parsed by `queens.models.puzzle_file`,
the reader `queens solve FILE` uses, so a mistake gets the same one-line error naming the key or
the line. The board call runs in the server's own thread, and a short file can ask for a lot:
a 100,000 x 100,000 board (cell sets such as `holes = "r == c"` are evaluated over all of it),
a parameter squared forty times (n^(2^40), a number no machine holds), a billion copies of an
army (each written out). So the text's length is bounded (`MAX_FILE_CHARS`), the board's sides
are read before anything else of the file (`sides`), and the whole reading runs in a forked
child with a deadline (`READ_SECONDS`) and a memory bound (`READ_MEMORY`): whatever the file
asks, the server answers in seconds with one line.

>>> spec = read_text('title = "Kings"\\n[board]\\n[[army]]\\npiece = "king"', 5, side=20)
>>> spec.puzzle.shape, spec.task
((5, 5), 'count')
>>> sides(tomllib.loads('[parameters]\\nm = "2*n"\\n[board]\\nshape = ["n", "m"]'), 8)  # read_text refuses 8x16
(8, 16)
"""

from __future__ import annotations

import os
import time
import tomllib
from typing import Any

from queens.models import QueensError, TimeLimit
from queens.models.puzzle_file import PuzzleSpec, loads, parse
from queens.solvers.runtime.deadline_child import call_until
from queens.web.schema import BadRequest

MAX_FILE_CHARS = 32_000
"""The longest file the page sends: every shipped file is under 2,000 characters, and a request
body (64 KB) holds this much with room for JSON's escapes."""
READ_SECONDS = 5.0
"""Seconds reading one file may take (the shipped files take milliseconds; a custom piece with
1,500 leap vectors on 20 x 20 takes seconds on a loaded machine: experiments/results/design-choices.md)."""
READ_MEMORY = 512 * 2**20
"""Bytes of memory reading one file may take beyond what the server holds."""
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
        return call_until(time.monotonic() + READ_SECONDS, _read, text, n, side)
    except TimeLimit:
        raise BadRequest(f"{WHERE}: not read within {READ_SECONDS:g} s (a number too large to compute, "
                         "or too many copies or cells?)") from None
    except MemoryError:
        raise BadRequest(f"{WHERE}: reading it needs over {READ_MEMORY >> 20} MB (a number too large, "
                         "or too many copies?)") from None


def _read(text: str, n: int, side: int) -> PuzzleSpec:
    """`read_text`'s reading, in the child: the sides first, then the whole file."""
    _bound_memory()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return loads(text, n, where=WHERE)  # raises the parser's own message, with the line
    shape = sides(data, n)
    if shape is not None and max(shape) > side:
        raise BadRequest(f"{WHERE}: the board is {'x'.join(map(str, shape))}; the explorer draws sides up to "
                         f"{side} (the CLI takes larger: queens solve FILE)")
    return parse(data, n, where=WHERE)


def _bound_memory() -> None:
    """Let this process (the reading child) allocate at most `READ_MEMORY` bytes beyond what it
    holds now: past that an allocation fails (MemoryError) instead of taking the machine's
    memory. Linux: the data segment's limit, which counts the heap and private mappings."""
    try:
        import resource

        with open("/proc/self/statm") as statm:
            data_pages = int(statm.read().split()[5])
        limit = data_pages * os.sysconf("SC_PAGE_SIZE") + READ_MEMORY
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, OSError, ValueError, IndexError):  # not Linux: the deadline still holds
        return


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
