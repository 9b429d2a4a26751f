"""Viewpoints as models a reader can print (`queens explain --viewpoint`), written down by the code
that builds them: cpsat's integer viewpoint is the textbook model (n variables, three
AllDifferent, no cell Booleans unless the puzzle needs them), and what it counts agrees with
OEIS and with brute forces written here, which share no code with models/.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable

import pytest
from google.protobuf import text_format
from ortools.sat import cp_model_pb2
from queens.models import NQueens, Puzzle, lower
from queens.models.families import FAMILIES, FamilyOptions, build
from queens.solvers import Status, count, get_backend
from queens.solvers.backends.cpsat import CpSat
from queens.solvers.viewpoint import Describes, Viewpoint, viewpoint_settings, viewpoints

from tests import schemas
from tests.cli import error_line, run_main
from tests.conftest import Reference

SETTINGS = viewpoint_settings()
"""Every (backend, viewpoint, options) the registry's backends declare."""


def _only(shown: Iterable[Viewpoint], backend: str) -> Viewpoint:
    (found,) = [v for v in shown if v.backend == backend]
    return found


def _proto(puzzle: Puzzle) -> cp_model_pb2.CpModelProto:
    """The CP-SAT model the cpsat backend builds in its integer viewpoint, read back as protobuf."""
    engine = get_backend("cpsat", viewpoint="alldifferent")
    assert isinstance(engine, CpSat)
    read: cp_model_pb2.CpModelProto = text_format.Parse(str(engine.proto(lower(puzzle))), cp_model_pb2.CpModelProto())
    return read


def _permutations(n: int, *, torus: bool = False, given: dict[int, int] | None = None,
                  holes: frozenset[tuple[int, int]] = frozenset()) -> int:
    """Brute force: q a permutation of 0..n-1 (one queen a row and a column), no two on a diagonal
    (q[r] - r and q[r] + r all different, modulo n on a torus), the given rows' columns kept and
    no queen on a hole."""
    given = given or {}
    found = 0
    for q in itertools.permutations(range(n)):
        if any(q[r] != c for r, c in given.items()) or any((r, q[r]) in holes for r in range(n)):
            continue
        down = [q[r] - r for r in range(n)]
        up = [q[r] + r for r in range(n)]
        if torus:
            down, up = [d % n for d in down], [u % n for u in up]
        if len(set(down)) == n and len(set(up)) == n:
            found += 1
    return found


# --- what is printed ----------------------------------------------------------------------

def test_eight_queens_integer_viewpoint_is_the_textbook_model() -> None:
    shown = viewpoints(lower(NQueens(8)), "alldifferent")
    cpsat = _only(shown, "cpsat")
    assert (cpsat.variable_count, cpsat.constraint_count) == (8, 3)
    assert [g.formula for g in cpsat.variables] == ["q[0..7] ∈ 0..7"]
    assert [(g.formula, g.note) for g in cpsat.constraints] == [
        ("AllDifferent(q[r])", "columns"), ("AllDifferent(q[r] - r)", "diagonals"),
        ("AllDifferent(q[r] + r)", "anti-diagonals")]
    assert cpsat.text().splitlines()[0] == "cpsat alldifferent: 8 variables, 3 constraints"


def test_eight_queens_other_viewpoints() -> None:
    shown = viewpoints(lower(NQueens(8)))
    sizes = {(v.backend, v.name): (v.variable_count, v.constraint_count) for v in shown}
    assert sizes == {("cpsat", "boolean"): (64, 42), ("cpsat", "alldifferent"): (8, 3),
                     ("csp", "rows"): (8, 1), ("csp", "boolean"): (64, 42)}
    rows = _only(viewpoints(lower(NQueens(8)), "rows"), "csp")
    assert rows.constraints[0].formula == "KeyedLines(q[r], q[r] - r, q[r] + r)"
    boolean = _only(viewpoints(lower(NQueens(8)), "boolean"), "cpsat")
    assert [(g.formula, g.count) for g in boolean.constraints] == [
        ("ExactlyOne(x[r,c] : r = k)", 8), ("ExactlyOne(x[r,c] : c = k)", 8),
        ("AtMostOne(x[r,c] : r - c = k)", 13), ("AtMostOne(x[r,c] : r + c = k)", 13)]


def test_toroidal_viewpoint_takes_its_keys_modulo_n() -> None:
    shown = viewpoints(lower(build("toroidal", FamilyOptions(5))))
    cpsat = _only([v for v in shown if v.name == "alldifferent"], "cpsat")
    assert (cpsat.variable_count, cpsat.constraint_count) == (5, 3)  # no variable for the remainders
    assert [g.formula for g in cpsat.constraints] == [
        "AllDifferent(q[r])", "AllDifferent(q[r] - r + s : s ∈ {0, 5})", "AllDifferent(q[r] + r + s : s ∈ {0, 5})"]
    assert "AllDifferent((q[r] - r) mod 5)" in cpsat.constraints[1].note
    rows = _only([v for v in shown if v.name == "rows"], "csp")
    assert rows.constraints[0].formula == "KeyedLines(q[r] mod 5, (q[r] - r) mod 5, (q[r] + r) mod 5)"
    diagonals = [c.all_diff for c in _proto(build("toroidal", FamilyOptions(5))).constraints][1]
    assert sorted(e.offset for e in diagonals.exprs) == sorted(-r + s for r in range(5) for s in (0, 5))


def test_a_completion_is_its_domains() -> None:
    """Given queens restrict their rows' domains: no Boolean, no extra constraint."""
    puzzle = build("completion", FamilyOptions(8, queens="0,1 2,4"))
    cpsat = _only(viewpoints(lower(puzzle), "alldifferent"), "cpsat")
    assert (cpsat.variable_count, cpsat.constraint_count) == (8, 3)
    assert [(g.formula, g.count) for g in cpsat.variables] == [
        ("q[0] ∈ {1}", 1), ("q[1] ∈ 0..7", 1), ("q[2] ∈ {4}", 1), ("q[3..7] ∈ 0..7", 5)]
    domains = [list(v.domain) for v in _proto(puzzle).variables]
    assert domains == [[1, 1], [0, 7], [4, 4], *[[0, 7]] * 5]
    assert [g.formula for g in _only(viewpoints(lower(puzzle), "rows"), "csp").variables] == [
        "q[0] ∈ {1}", "q[1] ∈ 0..7", "q[2] ∈ {4}", "q[3..7] ∈ 0..7"]


def test_a_hole_is_a_missing_column() -> None:
    puzzle = Puzzle(rows=6, cols=6, pieces=6, holes=frozenset({(0, 0), (3, 2)}))
    cpsat = _only(viewpoints(lower(puzzle), "alldifferent"), "cpsat")
    assert [g.formula for g in cpsat.variables] == ["q[0] ∈ 1..5", "q[1..2] ∈ 0..5", "q[3] ∈ {0, 1, 3, 4, 5}",
                                                    "q[4..5] ∈ 0..5"]
    assert cpsat.constraint_count == 3


@pytest.mark.parametrize("n", [4, 8, 12])
def test_the_integer_proto_has_n_variables_and_three_alldifferent(n: int) -> None:
    proto = _proto(NQueens(n))
    assert [list(v.domain) for v in proto.variables] == [[0, n - 1]] * n
    assert [c.WhichOneof("constraint") for c in proto.constraints] == ["all_diff"] * 3
    offsets = [sorted(e.offset for e in c.all_diff.exprs) for c in proto.constraints]
    assert offsets == [[0] * n, sorted(-r for r in range(n)), list(range(n))]


def test_only_what_the_keys_cannot_say_goes_through_cell_booleans() -> None:
    """Superqueens' knight leaps have no key: the integer viewpoint channels one Boolean per cell."""
    cpsat = _only(viewpoints(lower(build("superqueens", FamilyOptions(6))), "alldifferent"), "cpsat")
    formulas = [g.formula for g in cpsat.constraints]
    assert formulas[:3] == ["AllDifferent(q[r])", "AllDifferent(q[r] - r)", "AllDifferent(q[r] + r)"]
    assert "x[r,c] ⇔ q[r] = c" in formulas and "AtMostOne(x[a], x[b])" in formulas
    assert cpsat.variable_count == 6 + 36
    assert "superqueen leaps" in cpsat.variables[1].note


def _small(family: str) -> Puzzle:
    options = {"completion": FamilyOptions(5, queens="0,0", given=frozenset({"queens"})),
               "ninequeens": FamilyOptions(5, pawn=((2, 2),), given=frozenset({"pawn"}))}.get(family, FamilyOptions(4))
    return build(family, options)


PLAIN = [family for family in sorted(FAMILIES) if _small(family).cells_are_variables]
"""The families of one army (those of several are explained as one model of armies)."""


@pytest.mark.parametrize("family", PLAIN)
@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"{s[0]}-{s[1]}")
def test_the_printed_counts_are_the_built_models(family: str, setting: tuple[str, str, dict[str, str]]) -> None:
    """One source of truth: each group is counted on the model as it is posted, so the totals are
    the backend's own sizes (CP-SAT's proto, python-constraint2's problem)."""
    puzzle = _small(family)
    backend, name, constructor = setting
    model = lower(puzzle)
    engine = get_backend(backend, **constructor)
    if engine.supports(model):
        assert _only(viewpoints(model, name, backend), backend).refusal
        return
    assert isinstance(engine, Describes)
    shown = engine.describe(model)
    assert (shown.variable_count, shown.constraint_count) == (engine.stats["variables"], engine.stats["constraints"])


# --- what is counted ----------------------------------------------------------------------

@pytest.mark.parametrize("symmetry", [False, True])
@pytest.mark.parametrize("n", range(1, 11))
def test_integer_viewpoint_counts_match_oeis(n: int, symmetry: bool, reference: Reference) -> None:
    result = count(NQueens(n), "cpsat", viewpoint="alldifferent", symmetry=symmetry, method="search")
    assert result.status is Status.COMPLETE
    assert result.count == reference.term("A000170", n)
    if not symmetry:
        assert result.stats["variables"] == n  # the row variables alone: no cell Booleans


@pytest.mark.parametrize("symmetry", [False, True])
@pytest.mark.parametrize("n", range(1, 12))
def test_toroidal_counts_match_oeis(n: int, symmetry: bool, reference: Reference) -> None:
    result = count(build("toroidal", FamilyOptions(n)), "cpsat", viewpoint="alldifferent", symmetry=symmetry,
                   method="search")
    assert result.count == reference.term("A051906", n)
    if n <= 7:
        assert result.count == _permutations(n, torus=True)


@pytest.mark.parametrize("n,queens", [(6, "0,1"), (7, "0,0 1,2"), (8, "0,0"), (8, "3,3 4,6"), (8, "0,0 2,5")])
@pytest.mark.parametrize("symmetry", [False, True])
def test_completion_counts_match_a_brute_force(n: int, queens: str, symmetry: bool) -> None:
    given = {int(r): int(c) for r, c in (cell.split(",") for cell in queens.split())}
    puzzle = build("completion", FamilyOptions(n, queens=queens))
    result = count(puzzle, "cpsat", viewpoint="alldifferent", symmetry=symmetry, method="search")
    assert result.count == _permutations(n, given=given)


def test_holes_count_as_a_brute_force() -> None:
    holes = frozenset({(0, 0), (3, 2), (5, 5)})
    puzzle = Puzzle(rows=7, cols=7, pieces=7, holes=holes)
    assert count(puzzle, "cpsat", viewpoint="alldifferent", method="search").count == _permutations(7, holes=holes)


@pytest.mark.parametrize("n", range(1, 9))
def test_superqueens_through_the_channel(n: int, reference: Reference) -> None:
    puzzle = build("superqueens", FamilyOptions(n))
    for symmetry in (False, True):
        assert count(puzzle, "cpsat", viewpoint="alldifferent", symmetry=symmetry).count == reference.term("A051223", n)


# --- the command line ---------------------------------------------------------------------

def test_cli_prints_one_viewpoint_or_every_one() -> None:
    one = run_main("explain", "nqueens", "-n", "8", "--viewpoint", "alldifferent")
    assert one.returncode == 0, one.stderr
    assert one.stdout.splitlines()[0] == "cpsat alldifferent: 8 variables, 3 constraints"
    assert "AllDifferent(q[r] + r)" in one.stdout and "x[r,c]" not in one.stdout
    every = run_main("explain", "nqueens", "-n", "8", "--viewpoint")
    assert [line.split(":")[0] for line in every.stdout.splitlines() if line and not line.startswith(" ")] == [
        f"{backend} {name}" for backend, name, _ in SETTINGS]


def test_cli_viewpoint_json_fits_the_schema() -> None:
    result = run_main("explain", "toroidal", "-n", "5", "--viewpoint", "rows", "--json")
    data = json.loads(result.stdout)
    schemas.validate(data)
    (rows,) = data["details"]["viewpoints"]
    assert (rows["backend"], rows["viewpoint"]) == ("csp", "rows")
    assert (rows["variable_count"], rows["constraint_count"]) == (5, 1)


@pytest.mark.parametrize("args,words", [
    (["--viewpoint", "sideways"], "--viewpoint must be one of alldifferent, boolean, rows"),
    (["--viewpoint", "rows", "--backend", "native"], "native has no viewpoints"),
    (["--viewpoint", "--symmetry"], "one at a time"),
])
def test_cli_refuses_a_viewpoint_it_cannot_show(args: list[str], words: str) -> None:
    result = run_main("explain", "nqueens", "-n", "6", *args)
    assert result.returncode == 2
    assert words in error_line(result)
