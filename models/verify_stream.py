"""O(n) checking of huge placements, chunk by chunk, naming the first conflict.

`queens.models.check.verify` builds Python tuples, fine for thousands of queens; this checker takes
numpy chunks, so 10^8 queens from a file never become Python objects. It is deliberately
written apart from the solvers (numpy here, C there), so a bug cannot hide in shared code.

Each line family (rows, columns, diagonals, anti-diagonals) has a stamp array, one uint16 per
line: 0 while the line is empty, else the position (1..CHUNK) in its chunk of the queen on it.
Per chunk and family, three vectorised passes: read the stamps at the chunk's keys (non-zero:
a queen of an earlier chunk is on that line), write the chunk's positions, read them back (two
queens of the chunk on one line: whichever write won, the other reads back a stranger). No
sort, and 2 bytes per line: 10 n bytes for n queens given as columns, 12 n as pairs.
Only after a conflict does a slow path run, to find the first queen (in order) that meets an
earlier one and name both.

>>> verify_columns(np.array([1, 3, 0, 2]))
4
>>> verify_columns(np.array([0, 1, -1, -1]))
Traceback (most recent call last):
...
queens.models.errors.InvalidPlacement: queens at (0, 0) and (1, 1) share a diagonal
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from queens.models.errors import InvalidBoard, InvalidPlacement, MalformedInput
from queens.models.placement_file import CHUNK, Chunk, board_ints, read_placement

LINES = ("a row", "a column", "a diagonal", "an anti-diagonal")

Chunks = Callable[[], Iterator[Chunk]]


def _keys(n: int, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, ...]:
    return rows, cols, rows - cols + (n - 1), rows + cols


def verify_chunks(n: int, chunks: Chunks, *, rows_distinct: bool = False) -> int:
    """The number of queens that `chunks()` yields; InvalidPlacement at the first conflict.

    `chunks` is called again, from the start, only to find the earlier queen of a conflict.
    `rows_distinct`: the rows cannot repeat (a columns array), so they are not checked.
    """
    if not isinstance(n, int) or n < 1:
        raise InvalidBoard(f"the board needs n >= 1, got {n!r}")
    stamps = [None if rows_distinct else np.zeros(n, np.uint16), np.zeros(n, np.uint16),
              np.zeros(2 * n - 1, np.uint16), np.zeros(2 * n - 1, np.uint16)]
    positions = np.arange(1, CHUNK + 1, dtype=np.uint16)
    done = 0
    for rows, cols in chunks():
        for start in range(0, len(rows), CHUNK):
            r, c = board_ints(rows[start:start + CHUNK]), board_ints(cols[start:start + CHUNK])
            _check_on_board(n, r, c)
            own = positions[:len(r)]
            keys = _keys(n, r, c)
            for family, (stamp, key) in enumerate(zip(stamps, keys, strict=True)):
                if stamp is None:
                    continue
                before = stamp[key]
                stamp[key] = own
                if before.any() or (stamp[key] != own).any():
                    _raise_first_conflict(n, chunks, done, r, c, _taken(stamps, keys, family, before))
            done += len(r)
    return done


def verify_columns(columns: np.ndarray) -> int:
    """Check a column-per-row array (-1 for an empty row); returns the number of queens."""
    columns = np.asarray(columns)
    if columns.ndim != 1 or columns.dtype.kind not in "iu":
        raise MalformedInput(f"columns must be a 1-D integer array, got {columns.dtype} {columns.shape}")

    def chunks() -> Iterator[Chunk]:
        for start in range(0, len(columns), CHUNK):
            part = board_ints(columns[start:start + CHUNK])
            rows = np.flatnonzero(part != -1)
            yield rows + start, part[rows]

    return verify_chunks(len(columns), chunks, rows_distinct=True)


def verify_cells(n: int, rows: np.ndarray, cols: np.ndarray) -> int:
    """Check k queens given as row and column arrays; returns k."""
    rows, cols = np.asarray(rows), np.asarray(cols)
    if (rows.dtype.kind not in "iu" and rows.size) or (cols.dtype.kind not in "iu" and cols.size):
        raise MalformedInput(f"rows and columns must be integer arrays, got {rows.dtype} and {cols.dtype}")
    rows, cols = board_ints(rows), board_ints(cols)
    if rows.shape != cols.shape or rows.ndim != 1:
        raise MalformedInput(f"rows {rows.shape} and columns {cols.shape} must be equal 1-D arrays")
    return verify_chunks(n, lambda: iter([(rows, cols)]))


def verify_file(path: Path, n: int | None = None) -> tuple[int, int]:
    """(n, number of queens) of a placement file (see queens.models.placement_file), checked.

    n comes from the file (a columns array's length, a `# n=N` header) or the caller; when
    both give one they must agree.
    """
    placement = read_placement(path, n)
    if n is not None and placement.n is not None and n != placement.n:
        raise MalformedInput(f"{path} is for n = {placement.n}, not {n}")
    side = n if n is not None else placement.n
    if side is None:
        raise MalformedInput(f"{path} does not say n (no '# n=N' line): give -n")
    return side, verify_chunks(side, placement.chunks, rows_distinct=placement.kind == "columns")


def _check_on_board(n: int, rows: np.ndarray, cols: np.ndarray) -> None:
    off = (rows < 0) | (rows >= n) | (cols < 0) | (cols >= n)
    if off.any():
        i = int(np.argmax(off))
        raise InvalidPlacement(f"queen at ({rows[i]}, {cols[i]}) is off the {n}x{n} board")


def _taken(stamps: list[np.ndarray | None], keys: tuple[np.ndarray, ...], failed: int,
           before: np.ndarray) -> list[np.ndarray | None]:
    """Per family, which queens of the chunk are on a line an earlier chunk holds: none for the
    families that passed, `before` for the failing one, and for the families not yet checked
    their stamps, which this chunk has not touched."""
    taken: list[np.ndarray | None] = []
    for family, stamp in enumerate(stamps):
        if stamp is None:
            taken.append(None)
        elif family < failed:
            taken.append(np.zeros(len(before), bool))
        else:
            taken.append(before if family == failed else stamp[keys[family]])
    return taken


def _raise_first_conflict(n: int, chunks: Chunks, done: int, rows: np.ndarray, cols: np.ndarray,
                          taken: list[np.ndarray | None]) -> None:
    """The slow path: the first queen of this chunk on a line already taken, and who took it.

    taken[family]: for each queen of the chunk, non-zero if an earlier chunk holds its line
    (None: family not checked; families before the failing one were clean).
    """
    keys = _keys(n, rows, cols)
    first: tuple[int, int, int | None] | None = None  # (position, family, earlier position in chunk)
    for family, seen in enumerate(taken):
        key = keys[family]
        if seen is None:
            continue
        order = np.argsort(key, kind="stable")
        repeats = order[1:][key[order][1:] == key[order][:-1]]
        candidates = np.concatenate((np.flatnonzero(seen), repeats))
        if candidates.size == 0:
            continue
        p = int(candidates.min())
        if first is None or p < first[0]:
            inside = np.flatnonzero(key[:p] == key[p])
            first = (p, family, int(inside[0]) if inside.size else None)
    if first is None:  # the fast path never reports without a cause
        raise AssertionError("conflict reported but not found")
    p, family, partner = first
    if partner is not None:
        earlier = (int(rows[partner]), int(cols[partner]))
    else:
        earlier = _earlier_queen(n, chunks, done, family, int(keys[family][p]))
    raise InvalidPlacement(f"queens at {earlier} and ({rows[p]}, {cols[p]}) share {LINES[family]}")


def _earlier_queen(n: int, chunks: Chunks, done: int, family: int, key: int) -> tuple[int, int]:
    """The first of the first `done` queens whose line of `family` is `key` (a second pass)."""
    seen = 0
    for rows, cols in chunks():
        if seen >= done:
            break
        rows, cols = np.asarray(rows[:done - seen], np.int64), np.asarray(cols[:done - seen], np.int64)
        hits = np.flatnonzero(_keys(n, rows, cols)[family] == key)
        if hits.size:
            return int(rows[hits[0]]), int(cols[hits[0]])
        seen += len(rows)
    raise AssertionError("the earlier queen of a conflict vanished")
