"""Puzzle files: a variant written down in TOML, read into the same `Puzzle` a family builds.

The format is documented in docs/puzzle-files.md (and docs/puzzle-file.schema.json). A file is
data from anywhere: every key is checked, every mistake is one `MalformedInput` naming the key
(and, for broken TOML, the line), and sizes are expressions of `n` parsed by
`queens.models.expression`, never evaluated as Python.

>>> spec = loads('''
... title = "Eight queens"
... [board]
... shape = ["n", "n"]
... [[army]]
... piece = "queen"
... count = "n"
... ''', n=8)
>>> spec.puzzle.rows, spec.puzzle.pieces, spec.task
(8, 8, 'count')
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from queens.models.errors import MalformedInput, QueensError
from queens.models.expression import evaluate
from queens.models.pieces import PIECES, Cell, Piece
from queens.models.puzzle import Puzzle

SHIPPED = Path(__file__).parent / "puzzles"
"""The shipped families, each written as a file (models/puzzles/NAME.toml)."""
TASKS = ("solve", "enumerate", "count", "optimise")
MAX_FILE_BYTES = 1_000_000
"""A puzzle file is a page of text; anything larger is refused before it is parsed."""

_KEYS: dict[str, set[str]] = {
    "": {"title", "board", "army", "rules", "goal"},
    "board": {"shape", "wrap", "holes", "blockers"},
    "army": {"name", "piece", "count", "fixed"},
    "rules": {"within", "between", "per_line", "cover", "partition"},
    "goal": {"task", "unique"},
    "piece": {"rays", "leaps", "oriented", "name"},
}


@dataclass(frozen=True)
class PuzzleSpec:
    """What a file asks: the puzzle, and the goal (`task`, and `unique`: count classes under the
    symmetries that keep the puzzle)."""

    puzzle: Puzzle
    task: str
    unique: bool


def load(path: str | os.PathLike[str], n: int | None = None) -> Puzzle:
    """The puzzle a file describes, for the parameter `n` (the Python API: `queens.load`)."""
    return read(path, n).puzzle


def read(path: str | os.PathLike[str], n: int | None = None) -> PuzzleSpec:
    """The puzzle and goal of a file; MalformedInput naming the key or line of any mistake."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise MalformedInput(f"{path}: {size:,} bytes; a puzzle file holds at most {MAX_FILE_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedInput(f"cannot read puzzle file {path}: {error}") from None
    return loads(text, n, where=str(path))


def loads(text: str, n: int | None = None, *, where: str = "puzzle file") -> PuzzleSpec:
    """`read` on the text of a file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:  # its message names the line and column
        raise MalformedInput(f"{where}: not valid TOML: {error}") from None
    return parse(data, n, where=where)


def parse(data: dict[str, Any], n: int | None = None, *, where: str = "puzzle file") -> PuzzleSpec:
    """`loads` on a parsed document (a dict as tomllib gives it)."""
    try:
        return _Reader(data, n).spec()
    except QueensError as error:  # the same error (its kind is the exit code), naming the file
        error.args = (f"{where}: {error}",)
        raise error from None


class _Reader:
    """Reads one parsed TOML document, table by table, naming the key of every mistake."""

    def __init__(self, data: dict[str, Any], n: int | None) -> None:
        self.data, self.n = data, n

    def spec(self) -> PuzzleSpec:
        _known(self.data, "")
        board = _table(self.data, "board", required=True)
        rules = _table(self.data, "rules")
        goal = _table(self.data, "goal")
        armies = self.data.get("army")
        if not isinstance(armies, list) or not armies or not all(isinstance(a, dict) for a in armies):
            raise MalformedInput("key 'army': give one [[army]] table (its piece and count)")
        if len(armies) > 1:
            raise MalformedInput("key 'army': this version reads one army; several armies are not supported yet")
        army = armies[0]
        _known(army, "army")
        rows, cols = self._shape(board)
        count = army.get("count", "n")
        minimise = count == "minimise"
        pieces = None if minimise else self._number(count, "army.count")
        task = _choice(goal, "task", TASKS, "goal.task", "optimise" if minimise else "count")
        return PuzzleSpec(
            Puzzle(rows=rows, cols=cols, piece=self._piece(army.get("piece", "queen"), rows == cols),
                   pieces=pieces, toroidal=self._wrap(board), independent=self._independent(rules),
                   dominating=_flag(rules, "cover", "rules.cover"),
                   forbidden=self._cells(board, "holes", rows, cols), pawns=self._cells(board, "blockers", rows, cols),
                   fixed=self._cells(army, "fixed", rows, cols), title=_text(self.data, "title")),
            task, _flag(goal, "unique", "goal.unique"))

    def _number(self, value: object, key: str) -> int:
        if isinstance(value, str) and value in ("maximise", "minimise"):
            raise MalformedInput(f"key '{key}': {value!r} is not supported here yet")
        if not isinstance(value, int | str) or isinstance(value, bool):
            raise MalformedInput(f"key '{key}': expected a number or an expression of n, got {value!r}")
        try:
            return evaluate(value, n=self.n)
        except MalformedInput as error:
            raise MalformedInput(f"key '{key}': {error}") from None

    def _shape(self, board: Mapping[str, Any]) -> tuple[int, int]:
        shape = board.get("shape", ["n", "n"])
        if not isinstance(shape, list) or len(shape) not in (2, 3):
            raise MalformedInput("key 'board.shape': expected [rows, cols] (or [x, y, z])")
        if len(shape) == 3:
            raise MalformedInput("key 'board.shape': 3-D boards are not supported yet")
        rows, cols = (self._number(side, "board.shape") for side in shape)
        return rows, cols

    def _wrap(self, board: Mapping[str, Any]) -> bool:
        wrap = board.get("wrap", False)
        if isinstance(wrap, list) and len(wrap) == 2 and all(isinstance(w, bool) for w in wrap):
            if wrap[0] != wrap[1]:
                raise MalformedInput("key 'board.wrap': a cylinder (one wrapped axis) is not supported yet")
            return bool(wrap[0])
        if not isinstance(wrap, bool):
            raise MalformedInput("key 'board.wrap': expected true, false or [rows, cols] flags")
        return wrap

    def _independent(self, rules: Mapping[str, Any]) -> bool:
        for key in ("per_line", "partition", "between"):
            if rules.get(key) not in (None, {}, False, "free"):
                raise MalformedInput(f"key 'rules.{key}' is not supported yet")
        return _choice(rules, "within", ("peaceful", "free"), "rules.within", "peaceful") == "peaceful"

    def _piece(self, value: object, square: bool) -> Piece:
        if isinstance(value, str):
            if value not in PIECES:
                raise MalformedInput(f"key 'army.piece': unknown piece {value!r}; choose from "
                                     f"{', '.join(PIECES)}, or give {{rays = [...], leaps = [...]}}")
            return PIECES[value]
        if not isinstance(value, dict):
            raise MalformedInput("key 'army.piece': a piece name or a table {rays, leaps, oriented}")
        _known(value, "piece", "army.piece")
        rays = _vectors(value.get("rays", []), "army.piece.rays")
        leaps = _vectors(value.get("leaps", []), "army.piece.leaps")
        if not rays and not leaps:
            raise MalformedInput("key 'army.piece': a piece needs at least one ray or leap")
        if not _flag(value, "oriented", "army.piece.oriented"):
            rays, leaps = symmetrised(rays, square), symmetrised(leaps, square)
        return Piece(_text(value, "name") or "piece", rays=rays, leaps=leaps)

    def _cells(self, table: Mapping[str, Any], key: str, rows: int, cols: int) -> frozenset[Cell]:
        value = table.get(key, [])
        if not isinstance(value, list):
            raise MalformedInput(f"key '{key}': expected a list of [row, col] pairs")
        cells = set()
        for item in value:
            if (not isinstance(item, list) or len(item) != 2
                    or not all(isinstance(v, int | str) and not isinstance(v, bool) for v in item)):
                raise MalformedInput(f"key '{key}': expected [row, col] pairs, got {item!r}")
            cells.add((self._number(item[0], key), self._number(item[1], key)))
        return frozenset(cells)


def symmetrised(vectors: tuple[Cell, ...], square: bool) -> tuple[Cell, ...]:
    """`vectors` and their images under the board's symmetries (the square's 8, a rectangle's 4),
    one per line (a vector and its opposite are the same line of attack).

    >>> symmetrised(((0, 1),), square=True)
    ((0, 1), (1, 0))
    >>> symmetrised(((1, 2),), square=False)
    ((1, -2), (1, 2))
    """
    images: list[Callable[[int, int], Cell]] = [lambda r, c: (r, c), lambda r, c: (-r, c),
                                                  lambda r, c: (r, -c), lambda r, c: (-r, -c)]
    if square:
        images += [lambda r, c: (c, r), lambda r, c: (-c, r), lambda r, c: (c, -r), lambda r, c: (-c, -r)]
    found: list[Cell] = []
    for vector in vectors:
        for image in images:
            r, c = image(*vector)
            if (r, c) not in found and (-r, -c) not in found:
                found.append((r, c) if (r, c) > (-r, -c) else (-r, -c))
    return tuple(sorted(found))


def _vectors(value: object, key: str) -> tuple[Cell, ...]:
    if not isinstance(value, list):
        raise MalformedInput(f"key '{key}': expected a list of [dr, dc] pairs")
    vectors = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2 or not all(type(v) is int for v in item)
                or item == [0, 0] or max(abs(item[0]), abs(item[1])) > 64):
            raise MalformedInput(f"key '{key}': expected non-zero [dr, dc] pairs of small whole numbers, got {item!r}")
        vectors.append((item[0], item[1]))
    return tuple(vectors)


def _known(table: Mapping[str, Any], section: str, where: str | None = None) -> None:
    for key in table:
        if key not in _KEYS[section]:
            prefix = f"{where or section}." if (where or section) else ""
            raise MalformedInput(f"unknown key '{prefix}{key}'; expected one of {', '.join(sorted(_KEYS[section]))}")


def _table(data: Mapping[str, Any], key: str, *, required: bool = False) -> dict[str, Any]:
    value = data.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise MalformedInput(f"key '{key}': expected a [{key}] table")
    _known(value, key)
    return value


def _flag(table: Mapping[str, Any], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise MalformedInput(f"key '{where}': expected true or false, got {value!r}")
    return value


def _choice(table: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str, default: str) -> str:
    value = table.get(key, default)
    if value not in choices:
        raise MalformedInput(f"key '{where}': expected one of {', '.join(choices)}, got {value!r}")
    return str(value)


def _text(table: Mapping[str, Any], key: str) -> str:
    value = table.get(key, "")
    if not isinstance(value, str):
        raise MalformedInput(f"key '{key}': expected a string")
    return value
