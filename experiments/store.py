"""The results database (SQLite): one row per finished run, one per ground truth, one per spec.

A run's row holds everything needed to trust and redo it: the spec and run parameters, the
outcome (status, answer, the ground truth it was checked against), wall and CPU time, peak
memory, the model's size (variables, clauses, constraints), the solver's own statistics, the
library versions and the machine. A row is written only when its run has finished, in one
transaction, so an interrupted grid leaves no half-written row: resuming skips exactly the
keys stored here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypedDict

from queens.models import MalformedInput
from queens.solvers.options import RENAMED
from queens.solvers.routing.side_by_side import symmetry_used

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    spec TEXT NOT NULL, task TEXT NOT NULL, family TEXT NOT NULL, n INTEGER NOT NULL,
    backend TEXT NOT NULL, configuration TEXT NOT NULL, options TEXT NOT NULL,
    method TEXT NOT NULL, processes INTEGER, symmetry INTEGER, repetition INTEGER NOT NULL,
    time_limit REAL NOT NULL, memory_limit INTEGER NOT NULL,
    status TEXT NOT NULL, outcome TEXT, answer INTEGER, expected INTEGER,
    wall REAL, cpu REAL, peak_mib REAL,
    variables INTEGER, clauses INTEGER, constraints INTEGER,
    stats TEXT NOT NULL, error TEXT, versions TEXT NOT NULL, machine TEXT NOT NULL,
    finished TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS truths (
    task TEXT NOT NULL, family TEXT NOT NULL, n INTEGER NOT NULL, answer INTEGER, note TEXT,
    PRIMARY KEY (task, family, n)
);
CREATE TABLE IF NOT EXISTS specs (name TEXT PRIMARY KEY, path TEXT NOT NULL, text TEXT NOT NULL,
                                  stored TEXT NOT NULL);
"""


Machine = TypedDict("Machine", {"system": str, "python": str, "cpus": int | None, "usable cpus": int,
                                 "load average": list[float], "cpu": str, "memory GiB": float}, total=False)
"""What a run was measured on (`queens.experiments.runner.machine`); a key the machine cannot tell is left out."""


@dataclass(frozen=True)
class Row:
    """A stored run, as the report and the checks read it.

    `symmetry` is what the spec asked (None: the backend's own choice), `symmetry_used` what the
    run did. `status` is ok (the solver answered: a count, a solution, or "no solution"), timeout or
    memout (it hit the run's limit: killed, or it stopped itself) or error (it failed; the
    message is kept).
    """

    key: str
    spec: str
    task: str
    family: str
    n: int
    backend: str
    configuration: str
    options: dict[str, bool | int | float | str]
    method: str
    processes: int | None
    symmetry: bool | None
    repetition: int
    time_limit: float
    memory_limit: int
    status: str
    outcome: str | None
    answer: int | None
    expected: int | None
    wall: float | None
    cpu: float | None
    peak_mib: float | None
    variables: int | None
    clauses: int | None
    constraints: int | None
    stats: dict[str, int | float | str]
    error: str | None
    versions: dict[str, str]
    machine: Machine
    finished: str

    @property
    def disagrees(self) -> bool:
        """The answer differs from the ground truth: a wrong count, optimum or feasibility."""
        return disagrees(self.status, self.answer, self.expected)

    @property
    def symmetry_used(self) -> str:
        """Whether the run broke symmetry, in the words of the answer's own statistics."""
        return symmetry_used(self.stats)


def disagrees(status: str, answer: int | None, expected: int | None) -> bool:
    """Whether a finished run's answer contradicts the ground truth (unknown truth: no verdict).

    >>> disagrees("ok", 92, 92), disagrees("ok", 91, 92), disagrees("timeout", 40, 92), disagrees("ok", 5, None)
    (False, True, False, False)
    """
    return status == "ok" and answer is not None and expected is not None and answer != expected


_JSON_FIELDS = ("options", "stats", "versions", "machine")
_LAYOUT = "method"
"""A column the runs table has had since runs were stored with their method: an older file lacks it."""


class Store:
    """The results file. Opening it creates the tables; every write is its own transaction."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30)
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}
        except sqlite3.DatabaseError as error:
            raise MalformedInput(f"{self.path}: not a results database ({error})") from None
        if _LAYOUT not in columns:
            self._db.close()
            raise MalformedInput(f"{self.path}: results stored by an older queens (runs without a method and "
                                 "symmetry): run the spec into a new --db")
        self._db.row_factory = sqlite3.Row

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._db:
            yield self._db

    def save_spec(self, name: str, path: str, text: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO specs VALUES (?, ?, ?, ?)", (name, path, text, _now()))

    def finished_keys(self) -> set[str]:
        """The keys of the stored runs, a renamed method (`RENAMED`) under its new name: a grid
        stored before the rename resumes where it stopped."""
        return {_renamed(key, method)[0] for key, method in self._db.execute("SELECT key, method FROM runs")}

    def add(self, record: Mapping[str, object]) -> None:
        """Store one finished run (`record` has every column but `finished`)."""
        values = {**record, "finished": _now()}
        for name in _JSON_FIELDS:
            values[name] = json.dumps(values[name], sort_keys=True)
        columns = ", ".join(values)
        marks = ", ".join(f":{name}" for name in values)
        with self._transaction() as db:
            db.execute(f"INSERT INTO runs ({columns}) VALUES ({marks})", values)

    def truth(self, task: str, family: str, n: int) -> tuple[bool, int | None]:
        """(known?, value): whether the ground truth was computed, and what it is (None: unknown)."""
        row = self._db.execute("SELECT answer FROM truths WHERE task = ? AND family = ? AND n = ?",
                               (task, family, n)).fetchone()
        return (False, None) if row is None else (True, row[0])

    def set_truth(self, task: str, family: str, n: int, answer: int | None, note: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO truths VALUES (?, ?, ?, ?, ?)", (task, family, n, answer, note))

    def rows(self, spec: str | None = None) -> list[Row]:
        query = "SELECT * FROM runs"
        args: tuple[str, ...] = ()
        if spec is not None:
            query, args = query + " WHERE spec = ?", (spec,)
        rows = []
        for raw in self._db.execute(query + " ORDER BY task, family, n, configuration, repetition", args):
            data = dict(raw)
            for name in _JSON_FIELDS:
                data[name] = json.loads(data[name])
            data["symmetry"] = None if data["symmetry"] is None else bool(data["symmetry"])
            data["key"], data["method"], data["configuration"] = _renamed(data["key"], data["method"],
                                                                         data["configuration"])
            rows.append(Row(**data))
        return rows


def _renamed(key: str, method: str, configuration: str = "") -> tuple[str, str, str]:
    """A stored run's key, method and configuration with a method renamed since (`RENAMED`)
    under its new name; any other run's as stored. The key is `Run.key`'s list, the method at 6.

    >>> _renamed('["s", "count", "nqueens", 8, "native", [], "fast"]', "fast", "native fast")
    ('["s", "count", "nqueens", 8, "native", [], "classes"]', 'classes', 'native classes')
    """
    if method not in RENAMED:
        return key, method, configuration
    fields = json.loads(key)
    fields[6] = RENAMED[method]
    words = [RENAMED[method] if word == method else word for word in configuration.split(" ")]
    return json.dumps(fields), RENAMED[method], " ".join(words)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
