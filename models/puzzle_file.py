"""Puzzle files: a variant written down in TOML, read into the same `Puzzle` a family builds.

The format is documented in docs/puzzle-files.md (and docs/puzzle-file.schema.json). A file is
data from anywhere: every key is checked, every mistake is one `MalformedInput` naming the key
(and, for broken TOML, the line), and sizes and cell sets are expressions of the parameters
(`n`, and any the file declares in `[parameters]`) parsed by `queens.models.expression`, never
evaluated as Python.

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
from itertools import permutations, product
from pathlib import Path
from typing import Any

from queens.models import numbers
from queens.models.armies import MAX_ARMIES, Army, Goal
from queens.models.board_counts import COUNTED, BoardCount
from queens.models.connected import BY, Connected
from queens.models.errors import MalformedInput, QueensError
from queens.models.expression import AXES, LARGEST, RESERVED, cells_where, evaluate
from queens.models.lowering import PER_LINE_DIRECTIONS
from queens.models.pieces import PIECES, Cell, Piece, piece_named
from queens.models.private import SQUARES, Private
from queens.models.puzzle import Puzzle
from queens.models.rules import COVER_KINDS, SYMMETRIES, TARGETS, AttackBound, CoverKind, Region
from queens.models.slopes import SlopeLines

SHIPPED = Path(__file__).parent / "puzzles"
"""The shipped families, each written as a file (models/puzzles/NAME.toml)."""
PUBLISHED = SHIPPED / "published"
"""Published puzzles of the family written as files, each named after its source (an OEIS id)."""
TASKS = ("solve", "enumerate", "count", "optimise")
MAX_FILE_BYTES = 1_000_000
"""A puzzle file is a page of text; anything larger is refused before it is parsed."""

_KEYS: dict[str, set[str]] = {
    "": {"title", "parameters", "board", "army", "rules", "goal"},
    "board": {"shape", "wrap", "holes", "blockers", "missing"},
    "army": {"name", "piece", "count", "fixed", "copies"},
    "rules": {"within", "between", "per_line", "cover", "cover_by", "partition", "blocking", "region", "attacks",
              "lines", "connected", "board_count", "private"},
    "goal": {"task", "unique", "invariant", "maximise", "minimise"},
    "piece": {"rays", "leaps", "oriented", "name"},
    "count": {"min", "max"},
    "per_line": set(PER_LINE_DIRECTIONS),
    "region": {"name", "cells", "army", "at_least", "at_most", "exactly"},
    "attacks": {"army", "of", "at_least", "at_most", "exactly"},
    "lines": {"slopes", "through", "army", "at_least", "at_most", "exactly"},
    "connected": {"army", "by"},
    "board_count": {"of", "at_least", "at_most", "exactly"},
    "private": {"army", "squares"},
}
TAKEN = ("n", *(axis for axes in AXES.values() for axis in axes), *RESERVED)
"""Names a file's parameter cannot have: n (-n N), the coordinates and the expression's words."""
WRAPS = {False: (False, False), True: (True, False), "twisted": (True, True)}
"""An axis's `wrap` in a file, as (wraps, twisted): plain edges, joined edges, or joined with a
twist (a Moebius strip is [false, "twisted"], a Klein bottle [true, "twisted"])."""


@dataclass(frozen=True)
class PuzzleSpec:
    """What a file asks: the puzzle, and the goal (`task`, and `unique`: count classes under the
    symmetries that keep the puzzle)."""

    puzzle: Puzzle
    task: str
    unique: bool


def load(path: str | os.PathLike[str], n: int | None = None, **parameters: int) -> Puzzle:
    """The puzzle a file describes, for the parameter `n` and any others the file declares
    (the Python API: `queens.load(path, n=8, m=5)`): each a whole number, read as the command
    line's -n and -p are (`queens.models.numbers`, bounded as the file's expressions are)."""
    n = None if n is None else numbers.size(n, "n", minimum=None)
    given = {name: numbers.count(value, name, minimum=-LARGEST, maximum=LARGEST) for name, value in parameters.items()}
    return read(path, n, given).puzzle


def read(path: str | os.PathLike[str], n: int | None = None,
         parameters: Mapping[str, int] | None = None) -> PuzzleSpec:
    """The puzzle and goal of a file; MalformedInput naming the key or line of any mistake."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise MalformedInput(f"{path}: {size:,} bytes; a puzzle file holds at most {MAX_FILE_BYTES:,}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedInput(f"cannot read puzzle file {path}: {error}") from None
    return loads(text, n, where=str(path), parameters=parameters)


def loads(text: str, n: int | None = None, *, where: str = "puzzle file",
          parameters: Mapping[str, int] | None = None) -> PuzzleSpec:
    """`read` on the text of a file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:  # its message names the line and column
        raise MalformedInput(f"{where}: not valid TOML: {error}") from None
    return parse(data, n, where=where, parameters=parameters)


def parse(data: dict[str, Any], n: int | None = None, *, where: str = "puzzle file",
          parameters: Mapping[str, int] | None = None) -> PuzzleSpec:
    """`loads` on a parsed document (a dict as tomllib gives it)."""
    try:
        return _Reader(data, n, parameters or {}).spec()
    except QueensError as error:  # the same error (its kind is the exit code), naming the file
        error.args = (f"{where}: {error}",)
        raise error from None


class _Reader:
    """Reads one parsed TOML document, table by table, naming the key of every mistake."""

    def __init__(self, data: dict[str, Any], n: int | None, given: Mapping[str, int]) -> None:
        self.data = data
        self.names = self._parameters(n, given)

    def _parameters(self, n: int | None, given: Mapping[str, int]) -> dict[str, int]:
        """`n`, then the file's [parameters] in order: each the value given (`-p m=5`), else its
        default, an expression of those before it. A value given for a name the file does not
        declare is a mistake (a typo would otherwise be ignored)."""
        declared = _table(self.data, "parameters", known=False)
        names: dict[str, int] = {} if n is None else {"n": n}
        self.names = names  # each default may use the parameters before it
        for name in given:
            if name != "n" and name not in declared:
                raise MalformedInput(f"parameter {name!r} is not one this file declares "
                                     f"([parameters]: {', '.join(declared) or 'none'})")
        for name, default in declared.items():
            if name in TAKEN or not name.isidentifier() or not name.islower():
                raise MalformedInput(f"key 'parameters.{name}': a parameter is a lower-case name "
                                     f"other than {', '.join(TAKEN)}")
            names[name] = given[name] if name in given else self._number(default, f"parameters.{name}")
        return names

    def _number(self, value: object, key: str) -> int:
        if isinstance(value, str) and value in ("maximise", "minimise"):
            raise MalformedInput(f"key '{key}': {value!r} is not a number here")
        if not isinstance(value, int | str) or isinstance(value, bool):
            raise MalformedInput(f"key '{key}': expected a number or an expression of the parameters, got {value!r}")
        try:
            return evaluate(value, self.names)
        except MalformedInput as error:
            raise MalformedInput(f"key '{key}': {error}") from None

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

    def spec(self) -> PuzzleSpec:
        _known(self.data, "")
        board = _table(self.data, "board", required=True)
        rules, goal = _table(self.data, "rules"), _table(self.data, "goal")
        tables = self.data.get("army")
        if not isinstance(tables, list) or not tables or not all(isinstance(a, dict) for a in tables):
            raise MalformedInput("key 'army': give [[army]] tables (each its piece and count)")
        shape = self._sides(board)
        armies = tuple(self._army(table, f"army[{i}]" if len(tables) > 1 else "army", shape, i)
                       for i, table in enumerate(tables))
        if any(army.copies is None for army in armies) and len(armies) > 1:
            raise MalformedInput("key 'army.copies': \"minimise\" or \"maximise\" copies need a single [[army]]")
        total, counted = self._total(goal)
        board_counts = self._board_counts(rules, counted)
        optimises = total or counted or any(army.goal or army.copies is None for army in armies)
        task = _choice(goal, "task", TASKS, "goal.task", "optimise" if optimises else "count")
        within = _choice(rules, "within", ("peaceful", "free"), "rules.within", "peaceful") == "peaceful"
        between = _choice(rules, "between", ("peaceful", "free"), "rules.between", "peaceful") == "peaceful"
        named = {army.name: i for i, army in enumerate(armies)}
        wrap, twist = self._axes_wrap(board, len(shape))
        cover, cover_kind = self._cover(rules)
        puzzle = Puzzle(
            shape=shape, armies=armies, wrap=wrap, twist=twist,
            holes=self._coords(board, "holes", shape), blockers=self._coords(board, "blockers", shape),
            missing=self._coords(board, "missing", shape),
            within=within, between=between, per_line=self._per_line(rules, len(shape)),
            cover=cover, cover_kind=cover_kind, cover_by=_army_named(rules, "cover_by", named, "rules.cover_by"),
            partition=_flag(rules, "partition", "rules.partition"), blocking=_flag(rules, "blocking", "rules.blocking"),
            regions=tuple(self._regions(rules, shape, named)), attack_bounds=tuple(self._attacks(rules, named)),
            invariant=_symmetries(goal), total=total, title=_text(self.data, "title"),
            slope_lines=tuple(self._slope_lines(rules, named)), connected=tuple(_connected(rules, named)),
            board_counts=board_counts, private=tuple(_private(rules, named)))
        return PuzzleSpec(puzzle, task, _flag(goal, "unique", "goal.unique"))

    def _cover(self, rules: Mapping[str, Any]) -> tuple[bool, CoverKind]:
        """`cover = true` (occupied or attacked), or the kind by name: "attacked" is a total cover."""
        value = rules.get("cover", False)
        if isinstance(value, bool):
            return value, "occupied or attacked"
        if value not in COVER_KINDS:
            kinds = ", ".join(map(repr, COVER_KINDS))
            raise MalformedInput(f"key 'rules.cover': expected true, false or one of {kinds}, "
                                 f"got {value!r}")
        return True, value

    def _total(self, goal: Mapping[str, Any]) -> tuple[Goal | None, BoardCount | None]:
        """`maximise = "total"` or `minimise = "total"`: all pieces together; or a board-wide count
        by name (`maximise = "safe squares"`): that count is the goal."""
        asked = [sense for sense in ("maximise", "minimise") if sense in goal]
        if len(asked) > 1:
            raise MalformedInput("key 'goal': maximise or minimise, not both")
        if not asked:
            return None, None
        sense: Goal = "maximise" if asked[0] == "maximise" else "minimise"
        if goal[asked[0]] in COUNTED:
            return None, BoardCount(goal[asked[0]], goal=sense)
        if goal[asked[0]] != "total":
            raise MalformedInput(f"key 'goal.{asked[0]}': expected \"total\" or a board-wide count "
                                 f"({', '.join(COUNTED)}; an army's own size is its count = \"{asked[0]}\"), "
                                 f"got {goal[asked[0]]!r}")
        return sense, None

    def _board_counts(self, rules: Mapping[str, Any], goal: BoardCount | None) -> tuple[BoardCount, ...]:
        """[[rules.board_count]]: bounds on a board-wide count (docs/rules/board-counts.md); the
        goal's count, if any, after them."""
        counts = []
        for i, table in enumerate(_tables(rules, "board_count", "rules.board_count")):
            key = f"rules.board_count[{i}]"
            _known(table, "board_count", key)
            if table.get("of") not in COUNTED:
                raise MalformedInput(f"key '{key}.of': one of {', '.join(COUNTED)}, got {table.get('of')!r}")
            least, most = self._bounds(table, key)
            counts.append(BoardCount(table["of"], least, most))
        return (*counts, *([goal] if goal else []))

    def _bounds(self, table: Mapping[str, Any], key: str) -> tuple[int, int | None]:
        """at_least / at_most, or exactly: whole numbers or expressions of the parameters."""
        if "exactly" in table and ("at_least" in table or "at_most" in table):
            raise MalformedInput(f"key '{key}': exactly, or at_least and at_most, not both")
        most: int | None
        if "exactly" in table:
            least = most = self._number(table["exactly"], f"{key}.exactly")
        else:
            least = self._number(table.get("at_least", 0), f"{key}.at_least")
            most = None if "at_most" not in table else self._number(table["at_most"], f"{key}.at_most")
        if least < 0 or (most is not None and most < least):
            raise MalformedInput(f"key '{key}': expected 0 <= at_least <= at_most, got {least} and {most}")
        return least, most

    def _regions(self, rules: Mapping[str, Any], shape: tuple[int, ...], named: dict[str, int]) -> list[Region]:
        regions = []
        for i, table in enumerate(_tables(rules, "region", "rules.region")):
            key = f"rules.region[{i}]"
            _known(table, "region", key)
            if "cells" not in table:
                raise MalformedInput(f"key '{key}.cells': a region needs its cells "
                                     "(a list, or a condition such as \"r == c\")")
            least, most = self._bounds(table, key)
            regions.append(Region(self._coords(table, "cells", shape, key), least, most,
                                  _army_named(table, "army", named, f"{key}.army"), _text(table, "name")))
        return regions

    def _attacks(self, rules: Mapping[str, Any], named: dict[str, int]) -> list[AttackBound]:
        bounds = []
        for i, table in enumerate(_tables(rules, "attacks", "rules.attacks")):
            key = f"rules.attacks[{i}]"
            _known(table, "attacks", key)
            least, most = self._bounds(table, key)
            of = _choice(table, "of", TARGETS, f"{key}.of", "any")
            bounds.append(AttackBound(least, most, _army_named(table, "army", named, f"{key}.army"),
                                      "own" if of == "own" else "other" if of == "other" else "any"))
        return bounds

    def _slope_lines(self, rules: Mapping[str, Any], named: dict[str, int]) -> list[SlopeLines]:
        """[[rules.lines]]: bounds on every line of every slope (or of the slopes listed)."""
        found = []
        for i, table in enumerate(_tables(rules, "lines", "rules.lines")):
            key = f"rules.lines[{i}]"
            _known(table, "lines", key)
            least, most = self._bounds(table, key)
            slopes = table.get("slopes", "all")
            through = self._number(table.get("through", 2), f"{key}.through")
            if through < 1:
                raise MalformedInput(f"key '{key}.through': lines through at least 1 cell, got {through}")
            found.append(SlopeLines(least, most, None if slopes == "all" else _vectors(slopes, f"{key}.slopes"),
                                    through, _army_named(table, "army", named, f"{key}.army")))
        return found

    def _sides(self, board: Mapping[str, Any]) -> tuple[int, ...]:
        shape = board.get("shape", ["n", "n"])
        if not isinstance(shape, list) or len(shape) not in (2, 3):
            raise MalformedInput("key 'board.shape': expected [rows, cols] (or [x, y, z])")
        sides = tuple(self._number(side, "board.shape") for side in shape)
        if any(side <= 0 for side in sides) or len(sides) == 3 and max(sides) > 64:
            raise MalformedInput(f"key 'board.shape': sides must be positive (and at most 64 on a cube), got {sides}")
        return sides

    def _axes_wrap(self, board: Mapping[str, Any], dimensions: int) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """Per axis: whether it wraps, and whether with a twist (`WRAPS`)."""
        wrap = board.get("wrap", False)
        if isinstance(wrap, bool):
            wrap = [wrap] * dimensions
        if (not isinstance(wrap, list) or len(wrap) != dimensions
                or not all(isinstance(w, bool) or w == "twisted" for w in wrap)):
            raise MalformedInput(f"key 'board.wrap': expected true, false or {dimensions} values, one per axis, "
                                 "each true, false or \"twisted\"")
        if any(wrap) and dimensions == 3:
            raise MalformedInput("key 'board.wrap': a cube does not wrap")
        axes = [WRAPS[w] for w in wrap]
        return tuple(wraps for wraps, _ in axes), tuple(twisted for _, twisted in axes)

    def _army(self, table: Mapping[str, Any], key: str, shape: tuple[int, ...], index: int) -> Army:
        """One [[army]]; unnamed, it is called after its piece (alone) or its place ("army 2")."""
        _known(table, "army", key)
        piece = self._piece_on(table.get("piece", "queen"), f"{key}.piece", shape)
        name = _text(table, "name") or (f"army {index + 1}" if key != "army" else f"{piece.name}s")
        copies = table.get("copies", 1)
        if copies not in ("minimise", "maximise"):
            copies = self._number(copies, f"{key}.copies")
            if not 1 <= copies <= MAX_ARMIES:  # each copy is written out: a billion of them hung the reader
                raise MalformedInput(f"key '{key}.copies': from 1 to {MAX_ARMIES:,} copies, got {copies:,}")
        # docs/puzzle-files.md: n pieces, but a copy's count is any (copies share the board)
        least, most, goal = self._count(table.get("count", "n" if copies == 1 else {}), f"{key}.count")
        return Army(name, piece, least, most, goal, self._coords(table, "fixed", shape, key), copies)

    def _count(self, value: object, key: str) -> tuple[int, int | None, Goal | None]:
        if value in ("maximise", "minimise"):
            return 0, None, "maximise" if value == "maximise" else "minimise"
        if isinstance(value, dict):
            _known(value, "count", key)
            least = self._number(value.get("min", 0), f"{key}.min")
            most = None if "max" not in value else self._number(value["max"], f"{key}.max")
            if least < 0 or (most is not None and most < least):
                raise MalformedInput(f"key '{key}': expected 0 <= min <= max, got {least} and {most}")
            return least, most, None
        exact = self._number(value, key)
        if exact < 0:
            raise MalformedInput(f"key '{key}': a count is not negative, got {exact}")
        return exact, exact, None

    def _piece_on(self, value: object, key: str, shape: tuple[int, ...]) -> Piece:
        if len(shape) == 2:
            return self._piece(value, shape[0] == shape[1])
        if isinstance(value, str):
            found = piece_named(value, len(shape))
            if found is None:
                raise MalformedInput(f"key '{key}': unknown piece {value!r} on a {len(shape)}-D board")
            return found
        if not isinstance(value, dict):
            raise MalformedInput(f"key '{key}': a piece name or a table {{rays, leaps, oriented}}")
        _known(value, "piece", key)
        rays = _space_vectors(value.get("rays", []), f"{key}.rays")
        leaps = _space_vectors(value.get("leaps", []), f"{key}.leaps")
        if not rays and not leaps:
            raise MalformedInput(f"key '{key}': a piece needs at least one ray or leap")
        if not _flag(value, "oriented", f"{key}.oriented"):
            rays, leaps = space_symmetrised(rays), space_symmetrised(leaps)
        return Piece(_text(value, "name") or "piece", rays, leaps)

    def _coords(self, table: Mapping[str, Any], key: str, shape: tuple[int, ...],
                where: str | None = None) -> frozenset[tuple[int, ...]]:
        """A set of cells: listed ([[r, c], ...]) or given by a condition on the coordinates and
        the parameters ("r == c", "c > r", "r + c == n - 1")."""
        value, named = table.get(key, []), f"{where}.{key}" if where else key
        if isinstance(value, str):
            try:
                return cells_where(value, shape, self.names)
            except MalformedInput as error:
                raise MalformedInput(f"key '{named}': {error}") from None
        if not isinstance(value, list) or not all(isinstance(item, list) and len(item) == len(shape) for item in value):
            raise MalformedInput(f"key '{named}': expected a list of cells, {len(shape)} coordinates each, "
                                 f"or a condition such as \"r == c\"")
        cells = frozenset(tuple(self._number(x, named) for x in item) for item in value)
        for cell in sorted(cells):
            if not all(0 <= x < side for x, side in zip(cell, shape, strict=True)):
                raise MalformedInput(f"key '{named}': cell {cell} is off the {'x'.join(map(str, shape))} board")
        return cells

    def _per_line(self, rules: Mapping[str, Any], dimensions: int) -> tuple[tuple[str, int, int], ...]:
        value = rules.get("per_line", {})
        if not isinstance(value, dict):
            raise MalformedInput("key 'rules.per_line': expected a table like { rows = [2, 2] }")
        _known(value, "per_line", "rules.per_line")
        if value and dimensions != 2:
            raise MalformedInput("key 'rules.per_line': per-line bounds are read on 2-D boards")
        bounds = []
        for family, pair in value.items():
            named = f"rules.per_line.{family}"
            if not isinstance(pair, list) or len(pair) != 2:
                raise MalformedInput(f"key '{named}': expected [least, most]")
            least, most = (self._number(x, named) for x in pair)
            if not 0 <= least <= most:
                raise MalformedInput(f"key '{named}': expected 0 <= least <= most, got [{least}, {most}]")
            bounds.append((family, least, most))
        return tuple(bounds)


def _space_vectors(value: object, key: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise MalformedInput(f"key '{key}': expected a list of [dx, dy, dz] triples")
    vectors = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 3 or not all(type(v) is int for v in item)
                or not any(item) or max(map(abs, item)) > 64):
            raise MalformedInput(f"key '{key}': expected non-zero [dx, dy, dz] triples of small numbers, got {item!r}")
        vectors.append(tuple(item))
    return tuple(vectors)


def space_symmetrised(vectors: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """`vectors` and their images under the cube's 48 symmetries (axes permuted, signs flipped),
    one per line.

    >>> space_symmetrised(((0, 0, 1),))
    ((0, 0, 1), (0, 1, 0), (1, 0, 0))
    """
    found: set[tuple[int, ...]] = set()
    for vector in vectors:
        for order in permutations(vector):
            for signs in product((1, -1), repeat=3):
                image = tuple(s * x for s, x in zip(signs, order, strict=True))
                found.add(max(image, tuple(-x for x in image)))
    return tuple(sorted(found))


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


def _tables(table: Mapping[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    """An array of tables ([[rules.region]]): none when absent."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise MalformedInput(f"key '{where}': expected [[{where}]] tables")
    return value


def _connected(rules: Mapping[str, Any], named: dict[str, int]) -> list[Connected]:
    """[[rules.connected]]: an army's pieces (each army's, without `army`) form one group."""
    found = []
    for i, table in enumerate(_tables(rules, "connected", "rules.connected")):
        key = f"rules.connected[{i}]"
        _known(table, "connected", key)
        by = _choice(table, "by", BY, f"{key}.by", "king")
        found.append(Connected(_army_named(table, "army", named, f"{key}.army"), by))
    return found


def _private(rules: Mapping[str, Any], named: dict[str, int]) -> list[Private]:
    """[[rules.private]]: each piece of an army (each army's, without `army`) covers some square,
    or only squares, that no other piece of its army covers."""
    found = []
    for i, table in enumerate(_tables(rules, "private", "rules.private")):
        key = f"rules.private[{i}]"
        _known(table, "private", key)
        squares = _choice(table, "squares", SQUARES, f"{key}.squares", "some")
        found.append(Private(_army_named(table, "army", named, f"{key}.army"), squares))
    return found


def _army_named(table: Mapping[str, Any], key: str, named: dict[str, int], where: str) -> int | None:
    """The number of the army a rule names (None: every army)."""
    if key not in table:
        return None
    if table[key] not in named:
        raise MalformedInput(f"key '{where}': no army is named {table[key]!r}; the armies are {', '.join(named)}")
    return named[table[key]]


def _symmetries(goal: Mapping[str, Any]) -> tuple[str, ...]:
    """[goal] invariant: a symmetry's name, or a list of them, that every solution keeps."""
    value = goal.get("invariant", [])
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(name in SYMMETRIES for name in names):
        raise MalformedInput(f"key 'goal.invariant': expected symmetries by name ({', '.join(SYMMETRIES)}), "
                             f"got {value!r}")
    return tuple(names)


def _known(table: Mapping[str, Any], section: str, where: str | None = None) -> None:
    for key in table:
        if key not in _KEYS[section]:
            prefix = f"{where or section}." if (where or section) else ""
            raise MalformedInput(f"unknown key '{prefix}{key}'; expected one of {', '.join(sorted(_KEYS[section]))}")


def _table(data: Mapping[str, Any], key: str, *, required: bool = False, known: bool = True) -> dict[str, Any]:
    """The table `key` (empty when absent and not required), its keys checked unless any are
    allowed (`known=False`: the names of [parameters])."""
    value = data.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise MalformedInput(f"key '{key}': expected a [{key}] table")
    if known:
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
