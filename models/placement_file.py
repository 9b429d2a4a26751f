"""Placement files that scale to 10^8 queens: written and read in chunks, never as a board.

A placement is a board side n and queens on it, held as `columns`: the column of each row's
queen, -1 for an empty row (Grigoryan's vector form, 0-indexed). Three formats, each with one
grammar (docs/placement-files.md), and no format guessed from what the numbers look like:
- npy:  that array, int32, as a numpy .npy file (4 bytes a row), known by its magic bytes.
        An (k, 2) array of (row, col) pairs is read too.
- text: a `# n=N` header, then one `row col` (or `row,col`) line per queen: what completion's
        `--queens FILE` reads, so generated instances feed straight into `queens solve`.
- perm: the n columns on one line, separated by spaces (-1 for an empty row), no header.
A text file without a header is pairs when it has several lines of numbers; a single line of
exactly two numbers could be one queen or a 2-board permutation, so it is refused, with both.
Readers hand out (rows, cols) chunks: a memory-mapped .npy, text parsed a block at a time.

>>> import io
>>> out = io.StringIO()
>>> write_placement(out, np.array([1, 3, 0, 2]), "text")
>>> out.getvalue()
'# n=4\\n0 1\\n1 3\\n2 0\\n3 2\\n'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

import numpy as np
from queens.models.errors import InvalidPlacement, MalformedInput
from queens.models.output import is_stdout, opened

FORMATS = ("npy", "text", "perm")
CHUNK = 65535
"""Queens per chunk, written or read: a few MB of temporaries (as Python ints when formatting
text) whatever n is. The verifier checks chunks of this size too (its uint16 position stamps
hold 1..65535), so a chunk read is a chunk checked, never split in two."""
BLOCK = 1 << 22
"""Bytes of text parsed at a time."""
_NPY_MAGIC = b"\x93NUMPY"
_HEADER = re.compile(r"#\s*n\s*=\s*(\d+)\s*")
_HEADER_START = re.compile(r"#\s*n\s*=")
_HEADER_LINE = re.compile(r"^[ \t]*#[ \t]*n[ \t]*=.*$", re.MULTILINE)
_LONE_CR = re.compile(r"\r(?!\n)")
_BOM = b"\xef\xbb\xbf"
_WHOLE_PAIR = re.compile(r"[-+]?\d+ [-+]?\d+")
_COMMENT = re.compile(r"#[^\n]*")

Chunk = tuple[np.ndarray, np.ndarray]


def write_placement(target: Path | TextIO, columns: np.ndarray, fmt: str) -> None:
    """Write `columns` (column of each row, -1 = empty) in `fmt` to a stream, or to the file named
    (`queens.models.output`: "-" is the standard output); text formats stream in chunks."""
    columns = np.asarray(columns)
    if fmt not in FORMATS:
        raise MalformedInput(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt == "npy" and (not isinstance(target, Path) or is_stdout(target)):
        raise MalformedInput("the npy format is binary: it needs a file (--out FILE)")
    if not isinstance(target, Path):
        _write_text(target, columns, fmt)
        return
    with opened(target, binary=fmt == "npy") as stream:  # the file named, never FILE.npy
        if fmt == "npy":
            np.save(stream, columns.astype(np.int32))
        else:
            _write_text(stream, columns, fmt)


def _write_text(stream: IO[str], columns: np.ndarray, fmt: str) -> None:
    if fmt == "text":
        stream.write(f"# n={len(columns)}\n")
    for start in range(0, len(columns), CHUNK):
        part = columns[start:start + CHUNK]
        if fmt == "perm":
            stream.write((" " if start else "") + " ".join(map(str, part.tolist())))
            continue
        rows = np.flatnonzero(part >= 0)
        pairs = np.column_stack((rows + start, part[rows])).ravel().tolist()
        stream.write(("%d %d\n" * len(rows)) % tuple(pairs))
    if fmt == "perm":
        stream.write("\n")


@dataclass(frozen=True)
class PlacementFile:
    """A placement file opened for reading: what it says about n, and its queens in chunks.

    `kind` is "columns" (one entry per row, so rows never repeat) or "pairs".
    """

    path: Path
    kind: str
    n: int | None
    header_line: int = 0
    """The line of the `# n=N` header (0: none); any other `# n=` line is refused."""

    def chunks(self) -> Iterator[Chunk]:
        """(rows, cols) int64 arrays in file order; call again to read from the start."""
        if _is_npy(self.path):
            yield from _npy_chunks(_load_npy(self.path))
        elif self.kind == "columns":
            yield from _column_chunks(self.path)
        else:
            yield from _pair_chunks(self.path, self.header_line)

    def cells(self) -> np.ndarray:
        """All the queens as a (k, 2) array of (row, col), in file order."""
        parts = list(self.chunks())
        if not parts:
            return np.empty((0, 2), np.int64)
        return np.column_stack((np.concatenate([r for r, _ in parts]), np.concatenate([c for _, c in parts])))


def read_placement(path: Path, n: int | None = None) -> PlacementFile:
    """Open `path`: npy by its magic bytes, else text by the grammar of docs/placement-files.md.

    A `# n=N` header declares pairs; without one, several lines of numbers are pairs and a
    single line is a permutation, unless it holds exactly two numbers: one queen (r, c) or the
    columns of a 2x2 board. The caller's board side `n` decides that (a permutation has n
    numbers); without it, or with n = 2, nothing does, and the file is refused.
    """
    if not path.is_file():
        raise MalformedInput(f"cannot read {path}: no such file")
    if _is_npy(path):
        array = _load_npy(path)
        kind = "columns" if array.ndim == 1 else "pairs"
        return PlacementFile(path, kind, len(array) if kind == "columns" else None)
    start = _text_start(path)
    pairs = start.header is not None or start.lines != 1 or start.tokens == 2
    if start.header is None and start.lines == 1 and n in (None, 2) and _WHOLE_PAIR.fullmatch(start.content):
        raise MalformedInput(
            f"{path}:{start.first}: {start.content!r} reads two ways: one queen at row and column, "
            f"or the columns of a 2x2 board; add a '# n=N' line above it for a queen, or give -n")
    if pairs:
        return PlacementFile(path, "pairs", start.header, start.header_line)
    n = sum(len(_numbers(path, line, _text(path, line, block))) for line, block in _blocks(path))
    return PlacementFile(path, "columns", n)


def _is_npy(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            return stream.read(len(_NPY_MAGIC)) == _NPY_MAGIC
    except OSError as error:
        raise MalformedInput(f"cannot read {path}: {error}") from None


def _load_npy(path: Path) -> np.ndarray:
    try:
        array: np.ndarray = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise MalformedInput(f"{path}: not a readable .npy file ({error})") from None
    if array.dtype.kind not in "iu":
        raise MalformedInput(f"{path}: holds {array.dtype}, expected integers")
    if not (array.ndim == 1 or (array.ndim == 2 and array.shape[1] == 2)):
        raise MalformedInput(f"{path}: shape {array.shape}; expected (n,) columns or (k, 2) pairs")
    return array


def _npy_chunks(array: np.ndarray) -> Iterator[Chunk]:
    for start in range(0, len(array), CHUNK):
        part = board_ints(array[start:start + CHUNK])
        if array.ndim == 2:
            yield part[:, 0], part[:, 1]
        else:
            rows = np.flatnonzero(part != -1)
            yield rows + start, part[rows]


def board_ints(values: np.ndarray) -> np.ndarray:
    """`values` as int64, refused when one would not fit: a uint64 2^64 - 1 must not wrap to -1
    (an empty row) and pass as a valid placement; any dtype, any byte order.

    >>> board_ints(np.array([3, 2**64 - 1], np.uint64))
    Traceback (most recent call last):
    ...
    queens.models.errors.InvalidPlacement: value 18446744073709551615 is off every board
    """
    values = np.asarray(values)
    if values.dtype.kind == "u" and values.dtype.itemsize >= 8 and values.size:
        big = values > np.iinfo(np.int64).max
        if big.any():
            raise InvalidPlacement(f"value {values[big].flat[0]} is off every board")
    return values.astype(np.int64, copy=False)


def _blocks(path: Path) -> Iterator[tuple[int, bytes]]:
    """(number of its first line, bytes) pieces that end at a line break, or at a space when a
    single line is longer than a block (a permutation line)."""
    line = 1
    rest = b""
    try:
        with path.open("rb") as stream:
            while data := stream.read(BLOCK):
                data = rest + data
                cut = data.rfind(b"\n") + 1 or max(data.rfind(b" "), data.rfind(b"\t")) + 1
                block, rest = (data[:cut], data[cut:]) if cut else (b"", data)
                if block:
                    yield line, block
                    line += block.count(b"\n")
    except OSError as error:
        raise MalformedInput(f"cannot read {path}: {error}") from None
    if rest:
        yield line, rest


def _decode(path: Path, line: int, block: bytes) -> str:
    """A block as text: UTF-8 (so ASCII), a byte-order mark skipped at the very start of the
    file, CRLF line ends read as LF; a lone CR (old Mac line ends) is refused, since it would
    silently join lines that the writer meant apart."""
    if line == 1 and block.startswith(_BOM):
        block = b" " * len(_BOM) + block[len(_BOM):]  # blanked, so offsets and lines hold
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError as error:
        at = line + block[:error.start].count(b"\n")
        raise MalformedInput(f"cannot read {path}:{at}: not a text placement (nor .npy): "
                             "not UTF-8 text (UTF-16, or binary?)") from None
    if "\r" in text:
        lone = _LONE_CR.search(text)
        if lone:
            at = line + text.count("\n", 0, lone.start())
            raise MalformedInput(f"{path}:{at}: a carriage return without a line feed; "
                                 "save the file with LF (or CRLF) line ends")
    return text


def _text(path: Path, line: int, block: bytes, header_line: int = 0) -> str:
    """A block's text with # comments blanked out (line breaks kept, so line numbers hold) and
    commas read as spaces ('r,c' lines are 'r c' lines). A `# n=` line other than the header
    is refused: a late or second header is not a remark to skip."""
    text = _decode(path, line, block).replace(",", " ")
    if "#" not in text:
        return text
    for match in _HEADER_LINE.finditer(text):
        at = line + text.count("\n", 0, match.start())
        if at != header_line:
            raise MalformedInput(f"{path}:{at}: {match.group(0).strip()!r}: the '# n=N' header comes "
                                 "once, before the first queen")
    return _COMMENT.sub("", text)


@dataclass(frozen=True)
class _TextStart:
    """What decides a text file's format: its header, and its first line of numbers."""

    header: int | None
    header_line: int
    first: int  # line number of the first line of numbers (0: none)
    content: str  # that line, comment removed
    tokens: int  # how many numbers it holds (a permutation's line may span blocks)
    lines: int  # lines of numbers seen, counted up to 2: all the rule needs


def _text_start(path: Path) -> _TextStart:
    """The header (`# n=N` before any numbers), and the first two lines of numbers."""
    header, header_line, first, content, tokens, lines = None, 0, 0, "", 0, 0
    open_line = False  # the first line of numbers goes on into the next block
    for line, block in _blocks(path):
        text = _decode(path, line, block)
        for offset, raw in enumerate(text.split("\n")):
            if offset and open_line:
                open_line = False
            stripped = raw.strip()
            if not lines and stripped.startswith("#"):
                if _header(path, line + offset, stripped, header) != header:
                    header, header_line = _header(path, line + offset, stripped, header), line + offset
                continue
            numbers = _COMMENT.sub("", stripped).replace(",", " ").split()
            if open_line or not numbers:
                tokens += len(numbers) if open_line else 0
                continue
            lines += 1
            if lines == 2:
                return _TextStart(header, header_line, first, content, tokens, lines)
            first, content, tokens, open_line = line + offset, " ".join(numbers[:8]), len(numbers), True
        open_line = open_line and not text.endswith("\n")
    return _TextStart(header, header_line, first, content, tokens, lines)


def _header(path: Path, line: int, comment: str, header: int | None) -> int | None:
    """Read a comment before the numbers: `# n=N` is the header, said once; a comment that
    starts like one but is not (`# n=8x`, `# n=0`) is refused rather than taken as a remark."""
    if not _HEADER_START.match(comment):
        return header
    match = _HEADER.fullmatch(comment)
    if not match or int(match.group(1)) < 1:
        raise MalformedInput(f"{path}:{line}: {comment!r} is not a header '# n=N' (N a whole number >= 1)")
    if header is not None:
        raise MalformedInput(f"{path}:{line}: a second '# n=' header; n is said once")
    return int(match.group(1))


def _numbers(path: Path, line: int, text: str) -> np.ndarray:
    """Every whitespace-separated integer in `text`; a bad token is named with its line."""
    if not text.strip():
        return np.empty(0, np.int64)
    try:
        return np.fromstring(text, dtype=np.int64, sep=" ")
    except ValueError:
        for offset, content in enumerate(text.splitlines()):
            for token in content.split():
                try:
                    int(token)
                except ValueError:
                    raise MalformedInput(f"{path}:{line + offset}: {token!r} is not a whole number") from None
        raise MalformedInput(f"{path}:{line}: unreadable numbers") from None


def _column_chunks(path: Path) -> Iterator[Chunk]:
    row = 0
    for line, block in _blocks(path):
        columns = _numbers(path, line, _text(path, line, block))
        placed = np.flatnonzero(columns != -1)
        yield placed + row, columns[placed]
        row += len(columns)


def _pair_chunks(path: Path, header_line: int) -> Iterator[Chunk]:
    for line, block in _blocks(path):
        text = _text(path, line, block, header_line)
        _check_two_per_line(path, line, text)
        numbers = _numbers(path, line, text)
        yield numbers[0::2], numbers[1::2]


def _check_two_per_line(path: Path, line: int, text: str) -> None:
    """Every line with numbers has exactly two tokens: counted per line, vectorised."""
    raw = np.frombuffer(text.encode("utf-8"), np.uint8)
    if raw.size == 0:
        return
    breaks = raw == 10
    token = ~(breaks | (raw == 32) | (raw == 9) | (raw == 13))
    starts = token.copy()
    starts[1:] &= ~token[:-1]
    per_line = np.bincount(np.cumsum(breaks)[starts], minlength=int(breaks.sum()) + 1)
    bad = np.flatnonzero((per_line != 0) & (per_line != 2))
    if bad.size:
        content = text.splitlines()[bad[0]].strip()
        hint = "; a permutation is one line, without a '# n=N' header" if per_line[bad[0]] > 2 else ""
        raise MalformedInput(f"{path}:{line + bad[0]}: expected a row and a column, got {content!r}{hint}")
