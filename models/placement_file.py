"""Placement files that scale to 10^8 queens: written and read in chunks, never as a board.

A placement is a board side n and queens on it, held as `columns`: the column of each row's
queen, -1 for an empty row (Grigoryan's vector form, 0-indexed). Three formats:
- npy:  that array, int32, as a numpy .npy file (4 bytes a row). An (k, 2) array of
        (row, col) pairs is read too.
- text: a `# n=N` line, then one `row col` (or `row,col`) line per queen: what completion's
        `--queens FILE` reads, so generated instances feed straight into `queens solve`.
- perm: the n columns on one line, separated by spaces (-1 for an empty row).
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
from typing import TextIO

import numpy as np
from queens.models.errors import MalformedInput

FORMATS = ("npy", "text", "perm")
CHUNK = 65535
"""Queens per chunk, written or read: a few MB of temporaries (as Python ints when formatting
text) whatever n is. The verifier checks chunks of this size too (its uint16 position stamps
hold 1..65535), so a chunk read is a chunk checked, never split in two."""
BLOCK = 1 << 22
"""Bytes of text parsed at a time."""
_NPY_MAGIC = b"\x93NUMPY"
_HEADER = re.compile(r"#\s*n\s*=\s*(\d+)")
_COMMENT = re.compile(r"#[^\n]*")

Chunk = tuple[np.ndarray, np.ndarray]


def write_placement(target: Path | TextIO, columns: np.ndarray, fmt: str) -> None:
    """Write `columns` (column of each row, -1 = empty) in `fmt`; text formats stream in chunks."""
    columns = np.asarray(columns)
    if fmt not in FORMATS:
        raise MalformedInput(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt == "npy":
        if not isinstance(target, Path):
            raise MalformedInput("the npy format needs a file (--out FILE)")
        np.save(target, columns.astype(np.int32))
        return
    if isinstance(target, Path):
        with target.open("w") as stream:
            _write_text(stream, columns, fmt)
    else:
        _write_text(target, columns, fmt)


def _write_text(stream: TextIO, columns: np.ndarray, fmt: str) -> None:
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

    def chunks(self) -> Iterator[Chunk]:
        """(rows, cols) int64 arrays in file order; call again to read from the start."""
        if _is_npy(self.path):
            yield from _npy_chunks(_load_npy(self.path))
        elif self.kind == "columns":
            yield from _column_chunks(self.path)
        else:
            yield from _pair_chunks(self.path)

    def cells(self) -> np.ndarray:
        """All the queens as a (k, 2) array of (row, col), in file order."""
        parts = list(self.chunks())
        if not parts:
            return np.empty((0, 2), np.int64)
        return np.column_stack((np.concatenate([r for r, _ in parts]), np.concatenate([c for _, c in parts])))


def read_placement(path: Path) -> PlacementFile:
    """Open `path`: npy by its magic bytes, else text ('row col' lines, or one line of columns).

    A text file whose first line holds two numbers is pairs; so one queen is `r c`, never a
    2-column permutation (n = 2 has no solution anyway).
    """
    if not path.is_file():
        raise MalformedInput(f"cannot read {path}: no such file")
    if _is_npy(path):
        array = _load_npy(path)
        kind = "columns" if array.ndim == 1 else "pairs"
        return PlacementFile(path, kind, len(array) if kind == "columns" else None)
    header, first = _text_start(path)
    if first is not None and len(first.split()) != 2:
        n = header if header is not None else sum(len(_numbers(path, line, _text(path, line, block)))
                                                  for line, block in _blocks(path))
        return PlacementFile(path, "columns", n)
    return PlacementFile(path, "pairs", header)


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
        part = np.asarray(array[start:start + CHUNK], dtype=np.int64)
        if array.ndim == 2:
            yield part[:, 0], part[:, 1]
        else:
            rows = np.flatnonzero(part != -1)
            yield rows + start, part[rows]


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
    try:
        return block.decode("ascii")
    except UnicodeDecodeError:
        raise MalformedInput(f"cannot read {path}:{line}: not a text placement (nor .npy)") from None


def _text(path: Path, line: int, block: bytes) -> str:
    """A block's text with # comments blanked out (line breaks kept, so line numbers hold) and
    commas read as spaces ('r,c' lines are 'r c' lines)."""
    text = _decode(path, line, block).replace(",", " ")
    return _COMMENT.sub("", text) if "#" in text else text


def _text_start(path: Path) -> tuple[int | None, str | None]:
    """The `# n=N` header if the file has one before its numbers, and the first line of numbers."""
    header = None
    for line, block in _blocks(path):
        for raw in _decode(path, line, block).splitlines():
            content = raw.replace(",", " ").strip()
            if content.startswith("#"):
                match = _HEADER.match(content)
                if match and header is None:
                    header = int(match.group(1))
            elif content:
                return header, content
    return header, None


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


def _pair_chunks(path: Path) -> Iterator[Chunk]:
    for line, block in _blocks(path):
        text = _text(path, line, block)
        _check_two_per_line(path, line, text)
        numbers = _numbers(path, line, text)
        yield numbers[0::2], numbers[1::2]


def _check_two_per_line(path: Path, line: int, text: str) -> None:
    """Every line with numbers has exactly two tokens: counted per line, vectorised."""
    raw = np.frombuffer(text.encode("ascii"), np.uint8)
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
        raise MalformedInput(f"{path}:{line + bad[0]}: expected a row and a column, got {content!r}")
