"""Private squares ([[rules.private]], queens.models.private) against a brute force written here.

The brute force shares no code with models/: a piece's squares are found from coordinates
(a king's within one step, a queen's along her row, column and diagonals, a knight's by its
leaps; when pieces block, a queen's line stops at the first piece), and a set of pieces is
irredundant when each covers a square covered by no other, a packing when no square is covered
twice. The backends that state the rule must reach the brute force's counts (so each placement
is listed once) and optima, and the shipped files OEIS A075692 and A075709 (upper irredundance
of the queen and king graphs) and A248744 (the minimal dominating sets of the rook graph, counted);
the others refuse with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, product
from pathlib import Path

import pytest
from queens.models.armies import Army
from queens.models.check import verify
from queens.models.errors import InvalidBoard, InvalidPlacement, MalformedInput, Refused
from queens.models.private import Private
from queens.models.puzzle import Puzzle
from queens.models.puzzle_file import PUBLISHED, loads, read
from queens.models.rules import CoverKind
from queens.models.symmetry import puzzle_group
from queens.solvers.registry import BACKENDS

import queens
from tests.conftest import Reference

Cell = tuple[int, int]
Covers = Callable[[Cell, frozenset[Cell]], set[Cell]]
"""The squares a piece on a cell covers, the other pieces standing (they matter when pieces block)."""
QUEENS = PUBLISHED / "A075692-upper-irredundance-queens.toml"
KINGS = PUBLISHED / "A075709-upper-irredundance-kings.toml"
ROOKS = PUBLISHED / "A248744-minimal-rook-domination.toml"
STATED_BY = ("cpsat", "sat", "csp")
"""The backends whose counts are checked here (mip optimises only; it answers the files' optima)."""


def _board(rows: int, cols: int) -> list[Cell]:
    return list(product(range(rows), range(cols)))


def _king(rows: int, cols: int) -> Covers:
    return lambda p, _: {(r, c) for r, c in _board(rows, cols) if max(abs(r - p[0]), abs(c - p[1])) <= 1}


def _knight(rows: int, cols: int) -> Covers:
    return lambda p, _: {p} | {(r, c) for r, c in _board(rows, cols) if {abs(r - p[0]), abs(c - p[1])} == {1, 2}}


ROOK = ((0, 1), (0, -1), (1, 0), (-1, 0))
QUEEN = (*ROOK, (1, 1), (1, -1), (-1, 1), (-1, -1))


def _queen(rows: int, cols: int, blocking: bool = False, kind: str = "closed",
           directions: tuple[Cell, ...] = QUEEN) -> Covers:
    """A queen's squares (or a rook's, by its `directions`): "open" leaves her own square out."""
    def covers(p: Cell, pieces: frozenset[Cell]) -> set[Cell]:
        found = {p} if kind == "closed" else set()
        for dr, dc in directions:
            r, c = p[0] + dr, p[1] + dc
            while 0 <= r < rows and 0 <= c < cols:
                found.add((r, c))
                if blocking and (r, c) in pieces:
                    break
                r, c = r + dr, c + dc
        return found
    return covers


def _times(chosen: frozenset[Cell], covers: Covers) -> tuple[dict[Cell, set[Cell]], Counter[Cell]]:
    squares = {p: covers(p, chosen) for p in chosen}
    return squares, Counter(s for found in squares.values() for s in found)


def _irredundant(chosen: frozenset[Cell], covers: Covers) -> bool:
    squares, times = _times(chosen, covers)
    return all(any(times[s] == 1 for s in found) for found in squares.values())


def _packing(chosen: frozenset[Cell], covers: Covers) -> bool:
    return all(n == 1 for n in _times(chosen, covers)[1].values())


def _dominating(chosen: frozenset[Cell], covers: Covers, board: list[Cell]) -> bool:
    return set().union(*(covers(p, chosen) for p in chosen)) >= set(board)


def _irredundant_sets(board: list[Cell], covers: Covers) -> Iterator[frozenset[Cell]]:
    """Every irredundant set, grown a cell at a time in board order: a set with a redundant piece
    has no irredundant superset (adding pieces only takes private squares away)."""
    def grow(chosen: frozenset[Cell], start: int) -> Iterator[frozenset[Cell]]:
        yield chosen
        for i in range(start, len(board)):
            bigger = chosen | {board[i]}
            if _irredundant(bigger, covers):
                yield from grow(bigger, i + 1)
    return grow(frozenset(), 0)


def _file(piece: str, n: int, rules: str = "", squares: str = "some", count: str = '"maximise"') -> Puzzle:
    return loads(f'[board]\nshape = [{n}, {n}]\n[[army]]\npiece = "{piece}"\ncount = {count}\n[rules]\n'
                 f'within = "free"\n{rules}\n[[rules.private]]\nsquares = "{squares}"\n').puzzle


@pytest.mark.parametrize(("path", "sequence", "covers", "sizes"), [
    (QUEENS, "A075692", _queen, (1, 2, 3, 4)),
    (KINGS, "A075709", _king, (1, 2, 3, 4)),
    pytest.param(KINGS, "A075709", _king, (5,), marks=pytest.mark.slow),  # 7 s: csp's proof, the brute force
])
def test_upper_irredundance_reaches_the_brute_force_and_oeis(path: Path, sequence: str,
                                                              covers: Callable[[int, int], Covers],
                                                              sizes: tuple[int, ...], reference: Reference) -> None:
    for n in sizes:
        expected = max(len(s) for s in _irredundant_sets(_board(n, n), covers(n, n)))
        assert expected == reference.term(sequence, n)
        for backend in STATED_BY:
            assert queens.optimise(read(path, n).puzzle, backend).objective == expected, (backend, n)


@pytest.mark.parametrize(("path", "sequence", "n"), [(QUEENS, "A075692", 5), (QUEENS, "A075692", 6),
                                                     (KINGS, "A075709", 6)])
def test_the_files_reach_the_published_terms_beyond_the_brute_force(path: Path, sequence: str, n: int,
                                                                     reference: Reference) -> None:
    assert queens.optimise(read(path, n).puzzle, "sat").objective == reference.term(sequence, n)


@pytest.mark.parametrize(("piece", "n", "k", "covers"), [
    ("king", 3, 3, _king(3, 3)),
    ("queen", 4, 3, _queen(4, 4)),
    ("knight", 4, 4, _knight(4, 4)),
])
def test_each_irredundant_placement_is_counted_once(piece: str, n: int, k: int, covers: Covers) -> None:
    expected = sum(1 for s in combinations(_board(n, n), k) if _irredundant(frozenset(s), covers))
    for backend in STATED_BY:
        assert queens.count(_file(piece, n, count=str(k)), backend).count == expected, backend


@pytest.mark.parametrize(("piece", "n", "covers"), [
    pytest.param("queen", 4, _queen(4, 4), marks=pytest.mark.slow),  # 7 s
    ("king", 4, _king(4, 4))])
def test_upper_domination_is_a_cover_and_private_squares(piece: str, n: int, covers: Covers) -> None:
    """The largest minimal dominating set: dominating, and each piece has a private square."""
    board = _board(n, n)
    expected = max(len(s) for s in _irredundant_sets(board, covers) if _dominating(s, covers, board))
    puzzle = _file(piece, n, rules="cover = true")
    for backend in (*STATED_BY, "mip"):
        assert queens.optimise(puzzle, backend).objective == expected, backend


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_minimal_dominating_sets_of_rooks_are_counted_as_the_brute_force_and_oeis(n: int, reference: Reference) -> None:
    """The A248744 file: every dominating set of rooks none of which is redundant, counted once."""
    board, covers = _board(n, n), _queen(n, n, directions=ROOK)
    expected = sum(1 for s in _irredundant_sets(board, covers) if _dominating(s, covers, board))
    assert expected == reference.term("A248744", n)
    for backend in STATED_BY:
        assert queens.count(read(ROOKS, n).puzzle, backend).count == expected, (backend, n)


@pytest.mark.parametrize(("piece", "shape", "covers"), [
    ("king", (3, 3), _king(3, 3)), ("king", (2, 5), _king(2, 5)),
    pytest.param("knight", (4, 4), _knight(4, 4), marks=pytest.mark.slow),  # 7 s: 2^16 sets by hand
    ("queen", (3, 4), _queen(3, 4)),
])
def test_no_square_covered_twice_is_counted_once(piece: str, shape: Cell, covers: Covers) -> None:
    """"all": packings, and with a cover efficient dominations (every square covered once)."""
    board = _board(*shape)
    sets = [frozenset(s) for k in range(len(board) + 1) for s in combinations(board, k)]
    packings = [s for s in sets if _packing(s, covers)]
    for cover in (False, True):
        puzzle = Puzzle(shape=shape, armies=(Army(piece=piece, least=0),), within=False, cover=cover,
                        private=(Private(squares="all"),))
        expected = sum(1 for s in packings if not cover or _dominating(s, covers, board))
        for backend in STATED_BY:
            assert queens.count(puzzle, backend).count == expected, (backend, cover)


@pytest.mark.parametrize(("piece", "k", "squares", "kind"), [
    ("queen", 4, "some", "occupied or attacked"),  # 53 placements, 18 when pieces do not block
    ("queen", 4, "some", "attacked"),              # 229, and 126
    ("rook", 2, "all", "attacked"),                # 24 (two rooks side by side), and none
])
def test_when_pieces_block_a_line_stops_at_the_first_piece(piece: str, k: int, squares: str, kind: CoverKind) -> None:
    test = _irredundant if squares == "some" else _packing
    covers = _queen(4, 4, blocking=True, kind="closed" if kind == "occupied or attacked" else "open",
                    directions=QUEEN if piece == "queen" else ROOK)
    expected = sum(1 for s in combinations(_board(4, 4), k) if test(frozenset(s), covers))
    puzzle = Puzzle(shape=(4, 4), armies=(Army(piece=piece, least=k, most=k),), within=False, blocking=True,
                    cover_kind=kind, private=(Private(squares=squares),))
    for backend in STATED_BY:
        assert queens.count(puzzle, backend).count == expected, backend


def test_a_total_cover_reads_attacked_squares_only() -> None:
    """cover = "attacked": a piece's squares are those it attacks (open neighbourhoods), so the
    maximum is the upper total domination number of the graph."""
    covers = _queen(3, 3, kind="open")
    board = _board(3, 3)
    expected = max(len(s) for s in _irredundant_sets(board, covers) if _dominating(s, covers, board))
    puzzle = _file("queen", 3, rules='cover = "attacked"')
    for backend in STATED_BY:
        assert queens.optimise(puzzle, backend).objective == expected, backend


def test_backends_without_conditional_counts_refuse_with_the_reason() -> None:
    puzzle = read(KINGS, 4).puzzle
    answered = []
    for backend in BACKENDS:
        try:
            queens.optimise(puzzle, backend, time_limit=60)
        except Refused as refused:
            assert "private squares" in str(refused), backend
            continue
        answered.append(backend)
    assert sorted(answered) == ["cpsat", "csp", "mip", "sat"]


def test_the_checker_finds_a_redundant_piece_and_a_square_covered_twice() -> None:
    some = Puzzle(shape=(4, 4), armies=(Army(piece="king", least=0),), within=False, private=(Private(),))
    assert verify(some, [(0, (0, 0)), (0, (0, 2))])
    with pytest.raises(InvalidPlacement, match="no square that no other covers"):
        verify(some, [(0, (0, 0)), (0, (0, 1)), (0, (1, 0)), (0, (1, 1))])
    every = Puzzle(shape=(4, 4), armies=(Army(piece="king", least=0),), within=False, private=(Private(squares="all"),))
    with pytest.raises(InvalidPlacement, match="covered twice"):
        verify(every, [(0, (0, 0)), (0, (0, 2))])


def _classes(sets: list[frozenset[Cell]], n: int) -> int:
    """How many classes `sets` fall into under the 8 symmetries of the n x n square."""
    def images(cells: frozenset[Cell]) -> Iterator[tuple[Cell, ...]]:
        for turn in range(4):
            for flip in (False, True):
                moved = set(cells)
                for _ in range(turn):
                    moved = {(c, n - 1 - r) for r, c in moved}
                yield tuple(sorted((r, n - 1 - c) for r, c in moved) if flip else sorted(moved))
    return len({min(images(cells)) for cells in sets})


def test_classes_of_irredundant_placements_are_the_brute_force_classes() -> None:
    """The symmetries the rule keeps (all 8 of the square, for kings) count each class once."""
    covers = _king(4, 4)
    sets = [frozenset(s) for s in combinations(_board(4, 4), 3) if _irredundant(frozenset(s), covers)]
    result = queens.count(_file("king", 4, count="3"), "sat", unique=True)
    assert (result.count, result.stats["classes"]) == (len(sets), _classes(sets, 4))


def test_the_rule_keeps_the_square_and_one_army_alone_is_not_swapped() -> None:
    assert len(puzzle_group(read(KINGS, 4).puzzle)) == 8
    kings = [Army(name, piece="king", least=2, most=2) for name in "ab"]
    two = Puzzle(shape=(4, 4), armies=kings, within=False, private=(Private(army=0),))
    assert len(puzzle_group(two)) == 8  # without the rule the armies would also swap: 16


@pytest.mark.parametrize(("text", "message"), [
    ("squares = \"most\"", "rules.private\\[0\\].squares"),
    ("army = \"nobody\"", "no army is named"),
    ("colour = 1", "unknown key"),
])
def test_a_mistake_in_rules_private_is_one_error_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(MalformedInput, match=message):
        loads(f"[board]\nshape = [4, 4]\n[[army]]\npiece = \"king\"\ncount = 4\n[[rules.private]]\n{text}")


def test_a_board_too_large_for_the_counts_is_refused_before_any_work() -> None:
    with pytest.raises(InvalidBoard, match="private squares on 50x50"):
        queens.optimise(read(QUEENS, 50).puzzle, "sat")


def test_private_squares_when_pieces_block_are_read_for_one_army() -> None:
    queens_ = [Army(name, piece="queen", least=1, most=1) for name in "ab"]
    with pytest.raises(InvalidBoard, match="one army"):
        Puzzle(shape=(4, 4), armies=queens_, within=False, blocking=True, private=(Private(),))
    with pytest.raises(InvalidBoard, match="private squares"):
        Puzzle(shape=(3, 3), armies=(Army(piece="king", least=1, most=1),), private=(Private(army=2),))
