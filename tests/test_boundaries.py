"""Strict boundaries (issue 37 item 6): every way in checks what it is given and says so in the
package's own words, before any work.

- The Python API (`queens.count`, `solve`, `optimise`, `solutions`, `load`, `family`, `Puzzle`,
  `Army`) raises a `QueensError` or a `TypeError` that names the argument, never a raw
  AttributeError from deep inside; a property test draws calls with odd arguments.
- Numbers are parsed once, with bounds (`queens.models.numbers`): `-n 8_0` is refused, not
  read as 80; an overflowing --queens or --vector is one line; a value given twice (-m and
  -p m=) is refused.
- A puzzle file's expressions and copies are bounded: a parameter squared forty times, or a
  billion copies, is refused at once.
- A question with an answer gets it: more pieces than the board holds is 0 solutions (two
  rooks per line on 1 x 1, OEIS A001499(1)); a colouring's fewest copies is certified; an
  export of a size the puzzle cannot have is refused, not written unsatisfiable.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from queens.models import InvalidBoard, NQueens, QueensError
from queens.models.armies import Army
from queens.models.errors import InvalidNumber
from queens.models.pieces_families import Knights
from queens.models.puzzle_file import SHIPPED
from queens.solvers.options import Options
from queens.solvers.result import Status
from queens.solvers.runtime.extras import missing

import queens
from tests.cli import run_main

EXAMPLES = int(os.environ.get("QUEENS_FUZZ_EXAMPLES", "60"))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: queens.count("nqueens"),  # type: ignore[arg-type]
     "puzzle must be a queens.Puzzle, got str 'nqueens': queens.family('nqueens', n)"),
    (lambda: queens.count(None),  # type: ignore[arg-type]
     "puzzle must be a queens.Puzzle, got NoneType None"),
    (lambda: queens.solve("board.toml"),  # type: ignore[arg-type]
     "queens.load(path) reads a puzzle file"),
    (lambda: queens.optimise(8),  # type: ignore[arg-type]
     "puzzle must be a queens.Puzzle, got int 8"),
    (lambda: queens.solutions([]),  # type: ignore[arg-type]
     "puzzle must be a queens.Puzzle, got list []"),
])
def test_a_puzzle_that_is_no_puzzle_is_a_type_error_naming_it(call: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        call()  # type: ignore[operator]
    assert message in str(raised.value)


@pytest.mark.parametrize(("keywords", "error", "message"), [
    ({"goal": "sometimes"}, InvalidBoard, "goal is 'maximise', 'minimise' or None, got 'sometimes'"),
    ({"name": 3}, InvalidBoard, "name is text, got 3"),
    ({"piece": 3}, InvalidBoard, "a piece is a name"),
    ({"copies": 10**9}, InvalidNumber, "copies of queens must be between 1 and 4096"),
    ({"least": 2.5}, InvalidNumber, "must be a whole number, got 2.5"),
    ({"least": 5, "most": 2}, InvalidNumber, "the most pieces of queens must be between 5"),
    ({"line_cap": 0}, InvalidNumber, "line cap"),
    ({"fixed": "0,0"}, InvalidBoard, "fixed pieces of queens are a list of cells"),
])
def test_an_army_checks_its_keys(keywords: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=None) as raised:
        Army(**keywords)  # type: ignore[arg-type]
    assert message in str(raised.value)


def test_two_armies_of_one_name_are_refused() -> None:
    with pytest.raises(InvalidBoard, match="two armies are named 'white'"):
        queens.Puzzle(shape=(4, 4), armies=(Army("white", count=1), Army("white", count=1)))


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"time_limit": "x"}, InvalidNumber, "time_limit must be a finite number of seconds, got 'x'"),
    ({"time_limit": math.nan}, InvalidNumber, "time_limit must be a finite number"),
    ({"unique": "yes"}, QueensError, "unique must be True or False, got 'yes'"),
    ({"threads": 2**70}, InvalidNumber, "threads must be between 1 and"),
    ({"threads": 0}, InvalidNumber, "threads must be between 1 and"),
    ({"ledger": 3}, QueensError, "ledger must be a path, got 3"),
])
def test_option_values_are_checked_before_any_work(options: dict[str, object], error: type[Exception],
                                                    message: str) -> None:
    with pytest.raises(error) as raised:
        queens.count(NQueens(8), **options)  # type: ignore[arg-type]
    assert message in str(raised.value)


@pytest.mark.parametrize(("args", "code", "message"), [
    (["count", "nqueens", "-n", "8_0"], 2, "must be a whole number, got '8_0'"),
    (["count", "nqueens", "-n", "99999999999999999999"], 2, "must be a board side between 1 and 2147483647"),
    (["count", "completion", "-n", "8", "--queens", "99999999999999999999999,1"], 1, "is not two whole numbers"),
    (["count", "completion", "-n", "8", "--vector", "99999999999999999999999"], 1, "must hold whole numbers"),
    (["count", str(SHIPPED / "rooks.toml"), "-n", "4", "-p", "m=5", "-m", "6"], 2, "-p m="),
    (["count", str(SHIPPED / "rooks.toml"), "-n", "4", "-p", "n=5"], 2, "n is the board size: give it as -n N"),
    (["count", str(SHIPPED / "rooks.toml"), "-p", "m=1", "-p", "m=2"], 2, "m is given twice"),
    (["count", str(SHIPPED / "rooks.toml"), "-n", "4", "-p", "m=99999999999999999999"], 2, "-p m must be between"),
    (["export", "nqueens", "-n", "5", "--format", "dimacs", "--size", "3"], 2, "--size 3: 5-queens places exactly 5"),
])
def test_numbers_are_parsed_once_with_bounds(args: list[str], code: int, message: str) -> None:
    result = run_main(*args)
    assert result.returncode == code and message in result.stderr, result.stderr
    assert "internal error" not in result.stderr


def test_a_value_given_twice_is_refused_even_with_a_family() -> None:
    result = run_main("count", "nqueens", "-n", "4", "-p", "m=5", "-m", "6")
    assert result.returncode == 2 and "-p gives a puzzle file's parameters" in result.stderr


def _squared(times: int) -> str:
    chain = "\n".join(f"a{i + 1} = 'a{i}*a{i}'" for i in range(times))
    return f"[parameters]\na0 = 'n'\n{chain}\n[board]\nshape = ['n', 'n']\n[[army]]\ncount = 'a{times}'\n"


@pytest.mark.parametrize(("text", "message"), [
    (_squared(40), "numbers grow too large"),
    ("[board]\nshape = ['n', 'n']\n[[army]]\ncopies = 1000000000\n", "army.copies': from 1 to 4,096 copies"),
    ("[board]\nshape = ['n', 'n']\nholes = 'r == c'\n[[army]]\ncount = 1\n", "boards of at most 16,777,216 cells"),
])
def test_a_puzzle_file_that_would_hang_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "big.toml"
    path.write_text(text)
    result = run_main("solve", str(path), "-n", "1000000" if "holes" in text else "8")
    assert result.returncode == 1 and message in result.stderr, result.stderr


@pytest.mark.parametrize(("args", "line"), [
    (["count", "two-per-line", "-n", "1"], "Two rooks per line: 0 solutions by python/pigeonhole"),
    (["count", "knights", "-n", "4", "--pieces", "17"], "17 knights on 4x4: 0 solutions by python/pigeonhole"),
    (["solve", "knights", "-n", "2", "--pieces", "5"], "5 knights on 2x2: no solution by python/pigeonhole"),
])
def test_more_pieces_than_room_is_an_answer(args: list[str], line: str) -> None:
    result = run_main(*args)
    assert result.returncode == 0 and result.stdout.startswith(line), (result.stdout, result.stderr)


def test_more_pieces_than_room_in_python() -> None:
    assert queens.count(Knights(4, 17)).count == 0
    assert queens.solve(Knights(4, 17)).status is Status.INFEASIBLE


@pytest.mark.skipif(bool(missing("certify")), reason="needs the certify extra")
def test_a_colouring_is_certified() -> None:
    result = run_main("solve", "colouring", "-n", "5", "--certify")
    assert result.returncode == 0, result.stderr
    assert "certificate: 4 copies has no solution; drup valid" in result.stdout


# -- the API, fuzzed: odd arguments to every entry point; only the documented errors come out --

ODD = [None, "nqueens", "", 3, -1, 0, 2.5, math.nan, math.inf, 2**70, True, [], {}, b"8", "x.toml", (4, 4),
       [[0, 0]], "0,0", object()]
"""Values no entry point means to take (each also where a good one belongs)."""
GOOD_PUZZLES = [NQueens(4), NQueens(6), Knights(3, 2)]
KEYWORDS = sorted([*Options.__optional_keys__, "time_limit", "method", "bogus"])


def _kwargs(good: dict[str, st.SearchStrategy[object]]) -> st.SearchStrategy[dict[str, object]]:
    """A few keywords, each good or odd: `good` gives the good values of some."""
    return st.dictionaries(st.sampled_from(sorted({*good, *KEYWORDS})),
                           st.sampled_from(ODD) | st.one_of(*good.values()), max_size=3)


@st.composite
def api_calls(draw: st.DrawFn) -> tuple[str, tuple[object, ...], dict[str, object]]:
    """An entry point of `queens` and its arguments: a good value or an odd one in each place."""
    puzzle = st.sampled_from(GOOD_PUZZLES) | st.sampled_from(ODD)
    backend: st.SearchStrategy[object] = st.sampled_from([None, "native", "sat", "nope", 3, []])
    name = draw(st.sampled_from(["count", "solve", "optimise", "solutions", "load", "family", "Puzzle", "Army"]))
    if name in ("count", "solve", "optimise", "solutions"):
        return name, (draw(puzzle), draw(backend)), draw(_kwargs({"time_limit": st.just(5)}))
    if name == "load":
        path = st.sampled_from([str(SHIPPED / "nqueens.toml"), str(SHIPPED / "rooks.toml")]) | st.sampled_from(ODD)
        return name, (draw(path), draw(st.sampled_from([4, 5]) | st.sampled_from(ODD))), draw(_kwargs({}))
    if name == "family":
        family = st.sampled_from(["nqueens", "completion", "knights"]) | st.sampled_from(ODD)
        return name, (draw(family), draw(st.sampled_from([4, 5]) | st.sampled_from(ODD))), draw(
            _kwargs({"queens": st.just("0,1"), "pieces": st.just(2)}))
    if name == "Puzzle":
        return name, (), draw(_kwargs({"rows": st.just(4), "cols": st.just(4), "pieces": st.just(4),
                                       "shape": st.just((3, 3)), "armies": st.just((Army(count=2),))}))
    return name, (), draw(_kwargs({"count": st.just(2), "piece": st.just("rook"), "name": st.just("white"),
                                   "goal": st.just("maximise"), "copies": st.just(2)}))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=api_calls())
@example(call=("count", ("nqueens", None), {}))
@example(call=("count", (None, None), {}))
@example(call=("Army", (), {"goal": "sometimes"}))
@example(call=("count", (NQueens(4), None), {"threads": 2**70}))
def test_the_api_raises_only_its_documented_errors(call: tuple[str, tuple[object, ...], dict[str, object]]) -> None:
    """Whatever is given, an entry point answers or raises a QueensError (its documented errors)
    or a TypeError naming what was wrong; never an AttributeError, KeyError, OverflowError..."""
    name, args, kwargs = call
    entry = getattr(queens, name)
    try:
        found = entry(*args, **kwargs)
        if name == "solutions":
            next(iter(found), None)
    except QueensError:
        pass
    except TypeError as error:  # Python's own for a keyword no one takes, or ours: each names the argument
        assert "argument" in str(error) or " must be " in str(error), (call, error)
