"""Puzzle files: every shipped family written as a file counts exactly as its Python family;
every mistake in a file is one clear error naming the key (or the TOML line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from queens.models import MalformedInput, QueensError, lower, verify
from queens.models.completion import Completion
from queens.models.domination import Domination
from queens.models.ninequeens import NineQueens
from queens.models.nqueens import NQueens
from queens.models.pieces_families import Bishops, Kings, Knights, Rooks
from queens.models.puzzle_file import SHIPPED, load, loads, parse, read
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
    ("[board]\nshape = [8, 8]\n[[army]]\ncount = 99", "do not fit"),
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
def test_any_document_is_a_puzzle_or_one_clear_error(document: dict, n: int | None) -> None:
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
