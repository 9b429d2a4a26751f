"""Puzzle files: every shipped family written as a file counts exactly as its Python family;
every mistake in a file is one clear error naming the key (or the TOML line); every key left out
means its documented default; the rules mean what the page says (copies' counts, the symmetries
an invariant keeps), checked against brute forces written here."""

from __future__ import annotations

import copy
import itertools
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from queens.models import MalformedInput, QueensError, lower, verify
from queens.models.completion import Completion
from queens.models.domination import Domination
from queens.models.ninequeens import NineQueens
from queens.models.nqueens import NQueens
from queens.models.pieces_families import Bishops, Kings, Knights, Rooks
from queens.models.puzzle_file import _KEYS, SHIPPED, load, loads, parse, read
from queens.models.rules import SYMMETRIES
from queens.models.superqueens import Superqueens
from queens.models.toroidal import Toroidal
from queens.solvers import count, solve

PUZZLES = SHIPPED

AS_PYTHON = {  # file -> the Python family it writes down, and the sizes counted
    "nqueens": (NQueens, range(1, 9)),
    "completion": (lambda n: Completion(n, [(0, 1), (1, 3)]), range(4, 9)),
    "superqueens": (Superqueens, range(1, 11)),
    "toroidal": (Toroidal, range(1, 10)),
    "domination": (Domination, range(1, 6)),
    "ninequeens": (lambda n: NineQueens(n, [(2, 2)]), range(3, 7)),
    "rooks": (Rooks, range(1, 6)),
    "bishops": (Bishops, range(2, 6)),
    "kings": (Kings, range(1, 8)),
    "knights": (Knights, range(1, 6)),
}


WITH_ARMIES = {"peaceable", "colouring", "cube", "cube-squared", "independence", "queens-and-knights", "two-per-line"}
"""Files that need an ArmyPuzzle, answered in tests/test_armies.py."""


def test_every_shipped_file_is_listed_here() -> None:
    assert {path.stem for path in PUZZLES.glob("*.toml")} == set(AS_PYTHON) | WITH_ARMIES


@pytest.mark.parametrize("name", sorted(AS_PYTHON))
def test_a_file_counts_exactly_as_its_family(name: str) -> None:
    family, sizes = AS_PYTHON[name]
    for n in sizes:
        from_file, from_python = load(PUZZLES / f"{name}.toml", n=n), family(n)
        assert lower(from_file).cells == lower(from_python).cells
        assert ({frozenset(line.cells) for line in lower(from_file).lines}
                == {frozenset(line.cells) for line in lower(from_python).lines}), (name, n)
        mine, theirs = count(from_file, "native"), count(from_python, "native")
        assert (mine.count, mine.objective) == (theirs.count, theirs.objective), (name, n)


def test_a_solution_of_a_file_passes_the_checker() -> None:
    puzzle = load(PUZZLES / "kings.toml", n=6)
    result = solve(puzzle, "cpsat")
    assert verify(puzzle, result.solutions[0])


def test_the_goal_is_read() -> None:
    spec = read(PUZZLES / "domination.toml", n=5)
    assert (spec.task, spec.unique, spec.puzzle.pieces) == ("optimise", False, None)


BAD = [  # (file text, what the message names)
    ("[board\nshape = [8, 8]", "line 1"),
    ("", "key 'board'"),
    ("[board]\nshape = [8, 8]", "army"),
    ("[board]\nshape = [8, 8]\n[[army]]\npiece = 'queen'\ncount = 8\ncolour = 'red'", "army.colour"),
    ("[board]\nshape = [8]\n[[army]]\ncount = 8", "board.shape"),
    ("[board]\nshape = ['n', 'n']\n[[army]]\ncount = 'n'", "no n was given"),
    ("[board]\nshape = ['8*', 'n']\n[[army]]\ncount = 8", "ends too early"),
    ("[board]\nshape = ['__import__(\"os\")', 8]\n[[army]]\ncount = 8", "cannot read"),
    ("[board]\nshape = [8, 8]\n[[army]]\npiece = 'dragon'\ncount = 8", "unknown piece 'dragon'"),
    ("[board]\nshape = [8, 8]\n[[army]]\npiece = {rays = [[0, 0]]}\ncount = 8", "army.piece.rays"),
    ("[board]\nshape = [8, 8]\n[[army]]\npiece = {}\ncount = 8", "at least one ray or leap"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[rules]\nwithin = 'angry'", "rules.within"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[goal]\ntask = 'win'", "goal.task"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[goal]\nunique = 'yes'", "goal.unique"),
    ("[board]\nshape = [8, 8]\nwrap = 'yes'\n[[army]]\ncount = 8", "board.wrap"),
    ("[board]\nshape = [8, 8]\nholes = [[1]]\n[[army]]\ncount = 8", "holes"),
    ("[board]\nshape = [8, 8]\nholes = [[9, 9]]\n[[army]]\ncount = 8", "off the 8x8 board"),
    ("[board]\nshape = [0, 8]\n[[army]]\ncount = 8", "sides must be positive"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = '1 // 0'", "division by zero"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\nfixed = [[0, 0], [1, 1]]", "attack each other"),
    ("[board]\nshape = [8, 8]\n[[army]]\nname = 'a'\ncount = 1\n[[army]]\nname = 'a'\ncount = 1",
     "two armies are named 'a'"),  # 99 on 8 x 8 is read: 0 solutions, by counting (test_boundaries.py)
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\ncopies = 1000000000", "army.copies"),
    ("[parameters]\na = 1000000\nb = 'a*a'\ne = 'b*b'\nd = 'e*e'\n[board]\nshape = [8, 8]\n[[army]]\n"
     "count = 'd'", "grow too large"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = true", "army.count"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[[army]]\ncount = 'maximum'", "army[1].count"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = {min = 3, max = 2}", "army.count"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = {least = 3}", "army.count.least"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\ncopies = 0", "army.copies"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncopies = 'minimise'\n[[army]]\ncount = 1", "army.copies"),
    ("[board]\nshape = [4, 4, 4]\nwrap = true\n[[army]]\ncount = 4", "board.wrap"),
    ("[board]\nshape = [4, 4, 4]\n[[army]]\npiece = 'nightrider'\ncount = 4", "army.piece"),
    ("[board]\nshape = [4, 4, 4]\n[[army]]\npiece = {rays = [[1, 0]]}\ncount = 4", "army.piece.rays"),
    ("[board]\nshape = [4, 4, 4]\n[[army]]\nfixed = [[1, 1]]\ncount = 4", "army.fixed"),
    ("[board]\nshape = [4, 4, 4]\nholes = [[1, 1, 9]]\n[[army]]\ncount = 4", "off the 4x4x4 board"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[rules]\nper_line = { rows = [2] }", "rules.per_line.rows"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[rules]\nper_line = { rays = [2, 2] }", "rules.per_line.rays"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[rules]\npartition = 1", "rules.partition"),
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 8\n[rules]\nbetween = 'war'", "rules.between"),
    ("[board]\nshape = [8, 8]\nwrap = [true, 1]\n[[army]]\ncount = 8", "board.wrap"),
    ("title = 3\n[board]\nshape = [8, 8]\n[[army]]\ncount = 8", "title"),
]


@pytest.mark.parametrize("text,named", BAD)
def test_a_mistake_is_one_error_naming_its_key(text: str, named: str) -> None:
    with pytest.raises(QueensError, match=None) as caught:
        loads(text, where="bad.toml")
    assert named in str(caught.value) and str(caught.value).startswith("bad.toml")


def test_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MalformedInput, match="cannot read puzzle file"):
        read(tmp_path / "missing.toml")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(MalformedInput, match="cannot read puzzle file"):
        read(tmp_path / "binary.toml")


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 12), st.text(max_size=8),
                     st.sampled_from(["n", "n*n", "2*n", "minimise", "queen", "knight", "free", "peaceful"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["rays", "leaps", "shape", "count", "piece", "x"]), inner, max_size=3), max_leaves=8)
_DOCUMENTS = st.fixed_dictionaries({}, optional={
    "title": _VALUES,
    "board": st.fixed_dictionaries({}, optional={"shape": _VALUES, "wrap": _VALUES, "holes": _VALUES,
                                                  "blockers": _VALUES}) | _VALUES,
    "army": st.lists(st.fixed_dictionaries({}, optional={"piece": _VALUES, "count": _VALUES, "fixed": _VALUES}),
                     max_size=2) | _VALUES,
    "rules": st.fixed_dictionaries({}, optional={"within": _VALUES, "cover": _VALUES}) | _VALUES,
    "goal": st.fixed_dictionaries({}, optional={"task": _VALUES, "unique": _VALUES}) | _VALUES,
})


@settings(max_examples=400, deadline=None)
@given(_DOCUMENTS, st.one_of(st.none(), st.integers(1, 6)))
def test_any_document_is_a_puzzle_or_one_clear_error(document: dict[str, object], n: int | None) -> None:
    """Fuzzing the reader: whatever the document, a PuzzleSpec or a QueensError, nothing else."""
    try:
        spec = parse(document, n)
    except QueensError as error:
        assert str(error).startswith("puzzle file: ")
    else:
        assert spec.puzzle.rows >= 1 and spec.task in ("solve", "enumerate", "count", "optimise")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_puzzle_or_one_clear_error(text: str) -> None:
    try:
        spec = loads(text, 4, where="fuzz.toml")
    except QueensError as error:
        assert str(error).startswith("fuzz.toml: ")
    else:
        assert spec.puzzle.rows >= 1


# -- every key's default is the documented one (docs/puzzle-files.md, "Every key and its default") --

DOCS = Path(__file__).resolve().parents[1] / "docs" / "puzzle-files.md"
_SECTION_OF = {"piece": "army.piece", "count": "army.count", "per_line": "rules.per_line", "lines": "rules.lines",
               "connected": "rules.connected", "private": "rules.private", "region": "rules.region",
               "attacks": "rules.attacks", "board_count": "rules.board_count"}
"""Where each of the reader's nested tables lives in a file (its `_KEYS` sections)."""


@dataclass(frozen=True)
class Default:
    """One row of the table: the key's dotted path, its default as TOML (None: no value to write,
    "none" in the table), and what else the file needs for the row ("when", a dotted assignment)."""

    key: str
    default: str | None
    when: str | None


def documented_defaults() -> list[Default]:
    """The table's rows, read from the page the users read."""
    text = DOCS.read_text(encoding="utf-8").split("## Every key and its default", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        key, default, when = (cell.strip("`") if cell.startswith("`") else None for cell in cells[:3])
        assert key is not None
        rows.append(Default(key, default, when))
    return rows


def _toml_value(text: str) -> object:
    return tomllib.loads(f"v = {text}")["v"]


def _place(document: dict[str, Any], path: str, value: object) -> None:
    """`document[path] = value`, a dotted path in which an array of tables (army, region,
    attacks) means its first table."""
    *parents, last = path.split(".")
    table: Any = document
    for name in parents:
        if name not in table:
            table[name] = [{}] if name == "army" else {}
        table = table[name]
        if isinstance(table, list):
            table = table[0]
    table[last] = value


def test_the_table_lists_every_key_the_reader_knows() -> None:
    listed = {row.key for row in documented_defaults()}
    for section, keys in _KEYS.items():
        prefix = _SECTION_OF.get(section, section)
        named = {f"{prefix}.{key}" if prefix else key for key in keys} - set(_KEYS)  # [board], [[army]]: tables
        assert named <= listed, section


@pytest.mark.parametrize("row", [row for row in documented_defaults() if row.default is not None],
                         ids=lambda row: f"{row.key}|{row.when or ''}")
def test_a_key_left_out_means_its_documented_default(row: Default) -> None:
    """The file without the key and with it written as its default are the same puzzle and goal."""
    without: dict[str, Any] = {"board": {}, "army": [{}]}
    if row.when:
        path, value = row.when.split(" = ", 1)
        _place(without, path, _toml_value(value))
    written = copy.deepcopy(without)
    _place(written, row.key, _toml_value(row.default or ""))
    assert parse(written, 5) == parse(without, 5)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from([row for row in documented_defaults() if row.default is not None and not row.when
                                and row.key not in ("army.count",)]), max_size=12))
def test_any_set_of_defaults_written_out_is_the_bare_file(rows: set[Default]) -> None:
    """Defaults written out together (drawn sets of the table's rows) read as the file without them."""
    written: dict[str, Any] = {"board": {}, "army": [{}]}
    for row in sorted(rows, key=lambda row: row.key):
        _place(written, row.key, _toml_value(row.default or ""))
    assert parse(written, 6) == parse({"board": {}, "army": [{}]}, 6)


# -- what the rules mean: copies and their counts, and the symmetries an invariant keeps --

def king_colourable(n: int, colours: int) -> bool:
    """Whether the n x n king graph has a proper colouring with `colours` colours: backtracking
    cell by cell (each cell's neighbours above and to the left are coloured), no model involved."""
    board: dict[tuple[int, int], int] = {}
    cells = [(r, c) for r in range(n) for c in range(n)]

    def place(i: int) -> bool:
        if i == len(cells):
            return True
        r, c = cells[i]
        taken = {board.get((r + dr, c + dc)) for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, -1))}
        for colour in range(colours):
            if colour not in taken:
                board[(r, c)] = colour
                if place(i + 1):
                    return True
                del board[(r, c)]
        return False
    return place(0)


@pytest.mark.parametrize("colours", (3, 4))
def test_copies_without_a_count_hold_any_number(colours: int) -> None:
    """Issue 37: "is the 8 x 8 king graph 4-colourable?" answered no (each copy was held to 8
    kings); a copy's count is any, so yes, and 3 colours no (a 2 x 2 block is 4 mutual neighbours),
    as the brute force says."""
    text = (f"[board]\nshape = [8, 8]\n[[army]]\npiece = 'king'\ncopies = {colours}\n"
            "[rules]\nbetween = 'free'\npartition = true\n[goal]\ntask = 'solve'")
    puzzle = loads(text).puzzle
    assert all((army.least, army.most) == (0, None) for army in puzzle.armies)
    found = solve(puzzle)
    assert (found.status.value == "solved") == king_colourable(8, colours) == (colours == 4)


_D4: dict[str, Callable[[int, int, int], tuple[int, int]]] = {
    "identity": lambda n, r, c: (r, c), "rotate 90": lambda n, r, c: (c, n - 1 - r),
    "rotate 180": lambda n, r, c: (n - 1 - r, n - 1 - c), "rotate 270": lambda n, r, c: (n - 1 - c, r),
    "flip rows": lambda n, r, c: (n - 1 - r, c), "flip columns": lambda n, r, c: (r, n - 1 - c),
    "transpose": lambda n, r, c: (c, r), "anti-transpose": lambda n, r, c: (n - 1 - c, n - 1 - r),
}
"""The square's 8 symmetries, written here again (not imported from the models)."""


def _moved(n: int, move: Callable[[int, int, int], tuple[int, int]], cells: frozenset[tuple[int, int]]
           ) -> frozenset[tuple[int, int]]:
    return frozenset(move(n, r, c) for r, c in cells)


def keeping(n: int, invariant: tuple[str, ...]) -> list[str]:
    """The symmetries that map the group H generated by the invariant's symmetries to itself
    (t H t^-1 = H, each compared as a map of the n x n cells): those keep "invariant under H"."""
    board = frozenset((r, c) for r in range(n) for c in range(n))
    as_map = {name: {cell: move(n, *cell) for cell in board} for name, move in _D4.items()}
    generated = {tuple(sorted(as_map["identity"].items()))}
    frontier = [as_map["identity"]]
    while frontier:
        current = frontier.pop()
        for name in invariant:
            step = {cell: as_map[SYMMETRIES[name]][image] for cell, image in current.items()}
            if tuple(sorted(step.items())) not in generated:
                generated.add(tuple(sorted(step.items())))
                frontier.append(step)
    kept = []
    for name, t in as_map.items():
        inverse = {image: cell for cell, image in t.items()}
        conjugates = {tuple(sorted((cell, t[dict(h)[inverse[cell]]]) for cell in board)) for h in generated}
        if conjugates == generated:
            kept.append(name)
    return kept


def brute_classes(n: int, attacks: Callable[[int, int, int, int], bool], invariant: tuple[str, ...]) -> tuple[int, int]:
    """Solutions with one piece per row (a permutation) that no two attack and that every named
    symmetry keeps, and their classes under the symmetries that keep the puzzle (`keeping`)."""
    found = []
    for columns in itertools.permutations(range(n)):
        cells = frozenset(enumerate(columns))
        if any(attacks(*a, *b) for a, b in itertools.combinations(sorted(cells), 2)):
            continue
        if all(_moved(n, _D4[SYMMETRIES[name]], cells) == cells for name in invariant):
            found.append(cells)
    group = keeping(n, invariant)
    classes = {min(tuple(sorted(_moved(n, _D4[name], cells))) for name in group) for cells in found}
    return len(found), len(classes)


def _rook(r: int, c: int, r2: int, c2: int) -> bool:
    return r == r2 or c == c2


def _queen(r: int, c: int, r2: int, c2: int) -> bool:
    return r == r2 or c == c2 or abs(r - r2) == abs(c - c2)


@pytest.mark.parametrize(("piece", "attacks", "n", "invariant"), [
    ("rook", _rook, 8, ("quarter turn",)),  # issue 37: 12 classes counted, 6 by brute force
    ("rook", _rook, 6, ("transpose",)),
    ("rook", _rook, 6, ("half turn",)),
    ("rook", _rook, 5, ("rotate 270",)),
    ("rook", _rook, 7, ("transpose", "anti-transpose")),
    ("queen", _queen, 8, ("half turn",)),
    pytest.param("queen", _queen, 9, ("half turn",), marks=pytest.mark.slow),  # 9! permutations
])
def test_unique_counts_classes_under_every_symmetry_that_keeps_the_invariant(
        piece: str, attacks: Callable[[int, int, int, int], bool], n: int, invariant: tuple[str, ...]) -> None:
    """`[goal] invariant` and `--unique`: the classes are under every board symmetry that maps the
    invariant's group to itself, as a brute force over permutations counts them."""
    text = (f"[board]\nshape = ['n', 'n']\n[[army]]\npiece = '{piece}'\n[goal]\nunique = true\n"
            f"invariant = {list(invariant)!r}")
    puzzle = loads(text.replace("'", '"'), n).puzzle
    found = count(puzzle, unique=True)
    assert (found.count, found.stats["classes"]) == brute_classes(n, attacks, invariant)


def test_doubly_symmetric_superqueens_n_12_are_2_classes() -> None:
    """Issue 37: 4 classes were counted, 2 are published (superqueens a quarter turn keeps)."""
    found = count(replace(load(SHIPPED / "superqueens.toml", n=12), invariant=("quarter turn",)), unique=True)
    assert (found.count, found.stats["classes"]) == (4, 2)
