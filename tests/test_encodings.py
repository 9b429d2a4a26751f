"""Every CNF encoding the sat backend offers gives the same counts, against OEIS terms.

pysat's own test enumerates models for every encoding and asserts one count; here each of the
sat backend's encodings (and Minicard's native cardinality constraints) counts several
families whose counts OEIS knows.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import queens.solvers.backends.sat as sat_module
from queens.models import ConstraintModel, lower
from queens.models.domination import Domination
from queens.models.families import of_size
from queens.solvers import Status
from queens.solvers.api import count, solve
from queens.solvers.backends.sat import NATIVE
from queens.solvers.formats.cnf import ENCODINGS, cnf, occupancy_clauses
from queens.solvers.formats.dimacs import dimacs, line_sections

import tests.test_docs as docs
from tests import schemas
from tests.cli import run_main
from tests.typed_results import number

DOCS = Path(__file__).resolve().parents[1] / "docs"

CASES = [("nqueens", 6, "A000170"), ("kings", 5, "A002464"), ("toroidal", 5, "A051906"),
         ("superqueens", 10, "A051223")]


@pytest.mark.parametrize("encoding", [*ENCODINGS, NATIVE])
@pytest.mark.parametrize("family,n,sequence", CASES)
def test_every_encoding_counts_like_oeis(encoding, family, n, sequence, reference):
    result = count(of_size(family, n), "sat", encoding=encoding, split=False)
    assert result.status is Status.COMPLETE
    assert result.count == reference.term(sequence, n)


@pytest.mark.parametrize("encoding", [*ENCODINGS, NATIVE])
def test_every_encoding_finds_the_minimum_dominating_sets(encoding, reference):
    """Domination adds covers (clauses) and a size constraint to each encoding's lines."""
    result = count(of_size("domination", 4), "sat", encoding=encoding)
    assert (result.objective, result.count) == (reference.term("A075458", 4), reference.term("A002564", 4))


def test_a_minimised_model_gives_the_lines_whose_occupation_a_bound_counts():
    """`ConstraintModel.occupancy`: per direction of the queen, disjoint runs of the board, none
    of a lone cell; k pieces occupy at most k of each (what sat adds to "at most k pieces")."""
    model = lower(Domination(6))
    assert [len(family) for family in model.occupancy] == [6, 6, 9, 9]
    for family in model.occupancy:
        cells = [cell for group in family for cell in group]
        assert len(cells) == len(set(cells)) and set(cells) <= set(model.cells)
        assert min(map(len, family)) >= 2


@pytest.mark.slow
def test_the_minimiser_proves_domination_numbers_12_and_13(reference):
    """About 40 and 30 s on the 2-core machine: the occupancy bounds make the proof of "at most
    6 queens" on 13 x 13 a matter of seconds (without them: no answer in 60 s)."""
    for n in (12, 13):
        result = solve(of_size("domination", n), "sat")
        assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A075458", n))


def test_the_minimiser_bounds_the_occupied_lines_from_11_x_11(reference, monkeypatch):
    """From `OCCUPANCY_FROM_CELLS` cells the minimiser adds the occupancy bounds (about 1 s for
    n = 11 on 2 cores, 3-4 s without); below, none."""
    bounded = []

    def recorded(model: ConstraintModel, var: np.ndarray, top: int) -> tuple[list[list[int]], int, list[list[int]]]:
        bounded.append(len(model.cells))
        return occupancy_clauses(model, var, top)
    monkeypatch.setattr(sat_module, "occupancy_clauses", recorded)
    for n in (10, 11):
        result = solve(of_size("domination", n), "sat")
        assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A075458", n))
    assert bounded == [121] and sat_module.OCCUPANCY_FROM_CELLS == 121


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", NATIVE])
def test_the_incremental_minimiser_proves_the_domination_numbers(encoding, reference):
    """sat's minimiser (one solver, "at most k" as an assumption, lex-leader over the symmetry
    group) reaches A075458 for n = 1..8: the symmetry breaking keeps an optimum of every size."""
    for n in range(1, 9):
        result = solve(of_size("domination", n), "sat", encoding=encoding)
        assert (result.status, result.objective) == (Status.OPTIMAL, reference.term("A075458", n))


def test_the_encodings_page_runs(tmp_path, monkeypatch):
    """docs/encodings.md: every size, count and effort figure it prints is its code's output today."""
    docs.test_tutorial_runs(DOCS / "encodings.md", tmp_path, monkeypatch)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_the_groups_slice_the_formula_the_backend_solves(encoding):
    """The named groups are metadata: in order, their clauses are exactly `cnf`'s formula (the one
    the sat backend solves and the certificates read), each clause in one group."""
    model = lower(of_size("superqueens", 6))
    formula, _ = cnf(model, encoding)
    groups = line_sections(of_size("superqueens", 6), encoding)
    assert [clause for group in groups for clause in group.clauses] == formula.clauses  # plain board: same numbers
    assert len({group.name for group in groups}) == len(groups)


def test_explain_prints_one_lines_clauses_as_the_export_writes_them():
    result = run_main("explain", "nqueens", "-n", "5", "--encoding", "ladder", "--line", "column 2")
    assert result.returncode == 0, result.stderr
    shown = result.stdout.strip().splitlines()
    assert shown[0].startswith("c column 2: exactly one of x3 x8 x13 x18 x23 (ladder; auxiliary x")
    exported = dimacs(of_size("nqueens", 5), "ladder").splitlines()
    start = exported.index(shown[0])
    assert exported[start:start + len(shown)] == shown and exported[start + len(shown)].startswith("c ")


def test_explain_lists_the_groups_and_refuses_an_unknown_line():
    result = run_main("explain", "nqueens", "-n", "4", "--encoding", "pairwise")
    assert result.stdout.splitlines()[0] == "c row 0: exactly one of x1 x2 x3 x4 (pairwise): 7 clauses"
    result = run_main("explain", "nqueens", "-n", "4", "--line", "rows")  # a family: each of its lines
    assert sum(line.startswith("c row ") for line in result.stdout.splitlines()) == 4
    result = run_main("explain", "nqueens", "-n", "4", "--line", "row 9")
    assert result.returncode == 2 and result.stderr.startswith("error: no line named 'row 9'")
    result = run_main("explain", "nqueens", "-n", "4", "--encoding", "magic")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_explain_line_json_has_the_one_shape():
    result = run_main("explain", "nqueens", "-n", "4", "--encoding", "pairwise", "--line", "row 0", "--json")
    answer = json.loads(result.stdout)
    schemas.validate(answer)
    assert answer["details"]["groups"] == [{"name": "row 0", "comment": "row 0: exactly one of x1 x2 x3 x4 (pairwise)",
                                            "clauses": [[1, 2, 3, 4], [-1, -2], [-1, -3], [-1, -4], [-2, -3],
                                                        [-2, -4], [-3, -4]]}]


def test_symmetry_breaking_variables_are_counted_apart(reference):
    """With lex-leader chains the sat backend's formula holds their "equal so far" variables too;
    its statistics count them apart, so the model's own size is the one explain prints."""
    broken = count(of_size("nqueens", 8), "sat", encoding="pairwise", split=False, symmetry=True)
    plain = count(of_size("nqueens", 8), "sat", encoding="pairwise", split=False, symmetry=False)
    assert broken.count == plain.count == reference.term("A000170", 8)
    assert (number(broken.stats, "variables") - number(broken.stats, "lex-leader variables")
            == plain.stats["variables"] == 64)
    assert number(broken.stats, "clauses") - number(broken.stats, "lex-leader clauses") == plain.stats["clauses"]
    assert "lex-leader variables" not in plain.stats


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_encoding_leaves_pysats_process_wide_variable_pool_alone(encoding):
    """pysat's `CNF.extend` marks the formula's variables taken in one pool per process, an
    interval more per formula, the list sorted again on every call: a process that encodes for
    long (an explorer's solver process, a test worker) encoded slower with each formula it had
    encoded. Our variables are numbered by the encoder, so the pool must stay as it was. (It is
    pysat's private attribute: the one place this upstream behaviour can be seen.)"""
    from pysat.formula import Formula

    def taken() -> list[list[int]]:
        pool = Formula._vpool.get(Formula._context)
        return [list(interval) for interval in pool._occupied] if pool is not None else []

    before = taken()
    for family, n, _ in CASES:
        cnf(lower(of_size(family, n)), encoding)
    assert taken() == before


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_formula_says_its_largest_variable(encoding):
    """The encoder fills the formula's clauses and `nv` itself (`_add_clauses`): `nv` is the
    largest variable of its clauses, as pysat's own `append` would leave it, the count a solver
    and a DIMACS header are given."""
    for family, n, _ in CASES:
        formula, _ = cnf(lower(of_size(family, n)), encoding)
        assert formula.nv == max(abs(literal) for clause in formula.clauses for literal in clause) > 0
        assert all(type(clause) is list for clause in formula.clauses)  # copies, not the encoder's tuples
