"""What a user gets from `import queens`: every name the five common tasks need (make a puzzle,
solve it, count it, optimise it, draw it), `Army` in the puzzle file's own words, and a `Result`
that draws itself in Jupyter with its optimum named for what the puzzle asks. (The installed
wheel's types, seen by a user's `mypy --strict`, are tests/test_wheel.py's: it builds one.)"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from queens.models.armies import Army
from queens.models.errors import InvalidBoard
from queens.models.puzzle_file import SHIPPED

import queens

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", queens.__all__)
def test_every_name_of_the_user_api_is_there(name):
    assert getattr(queens, name) is not None


def test_import_queens_imports_nothing_heavy_until_asked():
    """The console script imports the package before its signal handlers are in: it must stay light."""
    code = "import sys, queens; print(sorted(m for m in ('numpy', 'ortools', 'pysat', 'rich') if m in sys.modules))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "[]"


def test_the_five_tasks_with_one_import(reference):
    assert queens.count(queens.NQueens(8)).count == reference.term("A000170", 8)
    solved = queens.solve(queens.family("completion", 8, queens="0,0"))
    assert solved.solution is not None
    queens.verify(queens.family("completion", 8, queens="0,0"), solved.solution)  # raises when it is not one
    peaceable = queens.Puzzle(shape=(5, 5), armies=(queens.Army("white", count="maximise"),
                                                    queens.Army("black", count="maximise")), within=False)
    assert queens.optimise(peaceable).objective == reference.term("A250000", 5)
    assert queens.load(SHIPPED / "peaceable.toml", n=5) == queens.family("peaceable", 5)
    assert queens.Board(queens.NQueens(4), solved.solution[:0]).svg().startswith("<svg")


def test_a_family_flag_the_family_does_not_take_is_refused():
    with pytest.raises(queens.QueensError, match="--pawns does not apply to nqueens"):
        queens.family("nqueens", 8, pawns=1)


@pytest.mark.parametrize("keys,fields", [
    ({"count": 5}, {"least": 5, "most": 5, "goal": None}),
    ({"count": "maximise"}, {"least": 0, "most": None, "goal": "maximise"}),
    ({"count": {"min": 1, "max": 3}}, {"least": 1, "most": 3}),
    ({"count": {"max": 2}}, {"least": 0, "most": 2}),
    ({"piece": "rook"}, {"name": "rooks"}),
    ({"copies": "minimise"}, {"copies": None}),
    ({"fixed": [[0, 1], [2, 3]]}, {"fixed": frozenset({(0, 1), (2, 3)})}),
])
def test_army_takes_the_puzzle_files_keys(keys, fields):
    army = Army(**keys)
    assert {name: getattr(army, name) for name in fields} == fields


def test_army_in_python_is_the_army_of_the_file():
    """Each shipped 2-D puzzle file whose [[army]] tables are plain values (no expression of n):
    the same Army from the same keys. (A cube's pieces are `piece_named(name, 3)`: an Army alone
    does not know its board.)"""
    checked = 0
    for path in sorted(SHIPPED.glob("*.toml")):
        tables = tomllib.loads(path.read_text()).get("army", [])
        if not tables or any(isinstance(value, str) and value not in ("maximise", "minimise") and key == "count"
                             for table in tables for key, value in table.items()):
            continue
        loaded = queens.load(path, n=4)
        if loaded.dimensions != 2:
            continue
        named = [Army(**table) if "name" in table else Army(**table, name=loaded.armies[i].name)
                 for i, table in enumerate(tables)]
        assert tuple(named) == loaded.armies, path.name
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("keys,error,message", [
    ({"count": 5, "least": 2}, TypeError, "not both"),
    ({"count": -1}, InvalidBoard, "not negative"),
    ({"count": "most"}, InvalidBoard, "count is a number"),
    ({"count": {"min": 1, "most": 2}}, InvalidBoard, "min and max"),
    ({"piece": "dragon"}, InvalidBoard, "unknown piece 'dragon'"),
])
def test_army_refuses_what_a_file_would(keys, error, message):
    with pytest.raises(error, match=message):
        Army(**keys)


@pytest.mark.parametrize("family,n,label", [
    ("domination", 5, "fewest pieces"),
    ("peaceable", 5, "most pieces per army"),
    ("cube", 3, "most pieces"),
    ("colouring", 5, "fewest copies"),
])
def test_a_result_names_its_optimum_for_what_the_puzzle_asks(family, n, label):
    result = queens.solve(queens.family(family, n))
    assert f"{label} {result.objective}," in result.summary()
    assert f"{label} {result.objective}," in result._repr_html_()


def test_a_result_draws_its_board_with_each_armys_cells_in_jupyter():
    result = queens.optimise(queens.family("peaceable", 5))
    page = result._repr_html_()
    assert page.count("<svg") == 1
    assert result.puzzle is not None and result.solution is not None
    white, black = result.puzzle.per_army(result.solution)
    for name, cells in (("white", white), ("black", black)):
        assert f"{name}: " + " ".join(f"{r},{c}" for r, c in cells) in page
    assert "(0, (" not in page and "0,(0" not in page  # never the model's (army, cell) pairs
    drawn = result._repr_svg_()
    assert drawn is not None and drawn.startswith("<svg")


def test_several_solutions_are_drawn_side_by_side():
    from queens.solvers.routing.router import all_optimal

    result = all_optimal(queens.family("peaceable", 4))
    page = result._repr_html_()
    assert page.count("<svg") == min(len(result.solutions), 4)
    if len(result.solutions) > 4:
        assert f"and {len(result.solutions) - 4:,} more" in page


def test_the_wheel_ships_py_typed():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["queens"]
    assert (REPO / "queens" / "py.typed").is_file()
