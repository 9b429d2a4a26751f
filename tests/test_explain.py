"""`queens explain`: the model's constraint groups and the sizes each backend really builds."""

from __future__ import annotations

import json
from math import comb
from typing import Any

import pytest
from queens.models import NQueens, lower
from queens.models.domination import Domination
from queens.models.families import FAMILIES, FamilyOptions, build

from queens.explain import compile_sizes, describe_model, explain
from tests.cli import run_main


def _diagonal_pairs(n: int) -> int:
    """Pairs of cells on one diagonal of an n x n board, one direction."""
    return sum(comb(length, 2) for length in [*range(1, n), n, *range(n - 1, 0, -1)])


def test_eight_queens_groups_and_reasons():
    description = describe_model(NQueens(8))
    counts = {g.name: g.count for g in description.groups}
    assert counts == {"rows": 8, "columns": 8, "diagonals": 13, "anti-diagonals": 13, "size": 0}
    assert description.constraint_count == 42
    assert description.variable_count == 64
    assert any("pigeonhole" in reason for reason in description.reasons)
    formulas = {g.name: g.formula for g in description.groups}
    assert formulas["diagonals"] == "Σ{ x[r,c] : r - c = k } ≤ 1"
    assert formulas["anti-diagonals"] == "Σ{ x[r,c] : r + c = k } ≤ 1"


def test_backend_sizes_are_read_from_the_built_models():
    n = 8
    sizes = {(c.backend, c.setting): c.sizes for c in explain(NQueens(n)).compiled}
    assert sizes[("cpsat", "boolean")] == {"variables": 64, "constraints": 42}
    # pairwise: each exactly-one line is one clause plus its pairs; at-most-one lines only pairs
    pairwise = 2 * n * (1 + comb(n, 2)) + 2 * _diagonal_pairs(n)
    assert sizes[("sat", "pairwise")] == {"variables": 64, "auxiliary": 0, "clauses": pairwise}
    assert sizes[("sat", "seqcounter")]["auxiliary"] > 0
    assert sizes[("csp", "rows")]["variables"] == n
    assert sizes[("native", "bitsets")]["branch lines"] == n


def test_a_backend_that_cannot_take_the_model_says_why():
    compiled = {(c.backend, c.setting): c for c in explain(Domination(4)).compiled}
    assert compiled[("cpsat", "alldifferent")].note.startswith("not applicable")
    assert compiled[("cpsat", "boolean")].sizes["constraints"] == 16  # one cover per square


def test_large_boards_are_described_but_not_compiled():
    (only,) = compile_sizes(lower(NQueens(40)))
    assert only.sizes == {} and "not built" in only.note
    assert describe_model(NQueens(40)).constraint_count == 40 + 40 + 2 * 77


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_is_explained(family):
    per_family: dict[str, dict[str, Any]] = {"completion": {"queens": "0,0", "given": frozenset({"queens"})},
                                             "ninequeens": {"pawn": ((2, 2),), "given": frozenset({"pawn"})}}
    options = per_family.get(family, {})
    target = build(family, FamilyOptions(n=5, **options))
    text = explain(target).text()
    assert "Variables" in text and "What each backend compiles it to" in text


def test_cli_explain_text_and_json():
    result = run_main("explain", "nqueens", "-n", "6")
    assert result.returncode == 0, result.stderr
    assert "anti-diagonals" in result.stdout and "seqcounter" in result.stdout
    payload = json.loads(run_main("explain", "toroidal", "-n", "5", "--json").stdout)
    assert {g["name"] for g in payload["details"]["groups"]} >= {"rows", "columns", "diagonals", "anti-diagonals"}
    assert any("mod 5" in g["formula"] for g in payload["details"]["groups"])


def test_cli_explain_shows_free_pawns_as_one_model_counted_by_layouts():
    """Free pawns are an army of their own in one model; the router counts it layout by layout."""
    result = run_main("explain", "ninequeens", "-n", "5")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "1: pawn (pawn)" in result.stdout and "count     native/layouts" in result.stdout
