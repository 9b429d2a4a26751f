"""The ledger: finished subproblems of long counts, kept on disk so that no work is lost.

A count of Q(20) runs for many minutes, Q(23) for days; it can be stopped by Ctrl-C, kill -9 or
a power cut. Each subproblem's counts are written here as soon as they are known, and a resumed
count skips the subproblems already recorded. The file is one SQLite database in WAL mode with
`synchronous=FULL`: a committed row survives a crash of the process or of the machine.

A row is keyed by (n, subproblem, kernel version): the version names the counter and its way of
splitting the search, so rows from an older counter are never mixed into a newer count. A
counter renamed since (`RENAMED`) is read under its new name: an older ledger still resumes.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as scratch, Ledger(pathlib.Path(scratch) / "l.sqlite") as ledger:
...     ledger.record(8, "classes-1", [("0-2", (0, 0, 1))])
...     ledger.finished(8, "classes-1")
{'0-2': (0, 0, 1)}
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from queens.models import QueensError

Classes = tuple[int, int, int]
"""(C2, C4, C8): how many classes of 2, 4 and 8 solutions a subproblem holds."""

RENAMED = {"fast": "classes"}
"""Counters renamed since their rows were first stored (`queens.solvers.options.RENAMED`, which
this layer may not import): a row stored as 'fast-1' is read as 'classes-1'."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS subproblems (
    n INTEGER NOT NULL,
    key TEXT NOT NULL,
    version TEXT NOT NULL,
    c2 INTEGER NOT NULL,
    c4 INTEGER NOT NULL,
    c8 INTEGER NOT NULL,
    recorded_at REAL NOT NULL,
    PRIMARY KEY (n, key, version)
)
"""


class Ledger:
    """Finished subproblems in one SQLite file; opened once, used from one thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as error:
            raise QueensError(f"cannot use {self.path} as a ledger: {error}") from None

    def finished(self, n: int, version: str) -> dict[str, Classes]:
        """The subproblems of Q(n) already counted by this kernel version, with their counts."""
        names = _stored_as(version)
        marks = ", ".join("?" * len(names))
        rows = self._query(f"SELECT key, c2, c4, c8 FROM subproblems WHERE n = ? AND version IN ({marks})", (n, *names))
        return {key: (c2, c4, c8) for key, c2, c4, c8 in rows}

    def holdings(self) -> dict[tuple[int, str], int]:
        """How many subproblems the ledger holds per (n, kernel version): what a resume can use."""
        rows = self._query("SELECT n, version, count(*) FROM subproblems GROUP BY n, version", ())
        held: dict[tuple[int, str], int] = {}
        for n, version, count in rows:
            held[n, current(version)] = held.get((n, current(version)), 0) + count
        return held

    def record(self, n: int, version: str, results: Iterable[tuple[str, Classes]]) -> None:
        """Store finished subproblems durably, in one transaction (replacing older rows)."""
        now = time.time()
        rows = [(n, key, version, *classes, now) for key, classes in results]
        if not rows:
            return
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT OR REPLACE INTO subproblems VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as error:
            raise QueensError(f"cannot write to the ledger {self.path}: {error}") from None

    def _query(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        # sqlite3 gives rows as Any (typeshed): the columns' types are the schema's, not Python's
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise QueensError(f"cannot read the ledger {self.path}: {error}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def current(version: str) -> str:
    """A stored version under its counter's present name (`RENAMED`).

    >>> current("fast-1"), current("classes-1"), current("quadrant-2")
    ('classes-1', 'classes-1', 'quadrant-2')
    """
    counter, dash, rest = version.partition("-")
    return RENAMED.get(counter, counter) + dash + rest


def _stored_as(version: str) -> tuple[str, ...]:
    """Every name rows of `version` may be stored under: its own, and its counter's old names."""
    counter, dash, rest = version.partition("-")
    return (version, *(old + dash + rest for old, new in RENAMED.items() if new == counter))
