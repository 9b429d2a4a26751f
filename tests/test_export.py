"""Exports read back by other tools count the same solutions as the native counter.

DIMACS is loaded with pysat and enumerated (blocking on the cell variables only, so the
auxiliary variables of an encoding never make one solution count twice); OPB is read by a
twenty-line reader into CP-SAT; MiniZinc is run when the `minizinc` tool is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from ortools.sat.python import cp_model
from pysat.formula import CNF
from pysat.solvers import Solver
from queens.models import NQueens, Puzzle, QueensError, Unsupported, lower
from queens.models.domination import Domination
from queens.models.ninequeens import NineQueens
from queens.models.pieces import KNIGHT
from queens.models.toroidal import Toroidal
from queens.solvers import count
from queens.solvers.formats.board_numbering import variable
from queens.solvers.formats.cnf import ENCODINGS
from queens.solvers.formats.dimacs import dimacs
from queens.solvers.formats.minizinc import minizinc
from queens.solvers.formats.opb import opb

from tests.cli import run_cli


def _count_dimacs(text: str, cells: int) -> int:
    formula = CNF(from_string=text)
    total = 0
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        while solver.solve():
            chosen = [v for v in solver.get_model() if 0 < v <= cells]
            solver.add_clause([-v for v in chosen] + [v for v in range(1, cells + 1) if v not in chosen])
            total += 1
    return total


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_dimacs_counts_six_queens_in_every_encoding(encoding, reference):
    assert _count_dimacs(dimacs(NQueens(6), encoding), 36) == reference.term("A000170", 6)


PUZZLES = [
    pytest.param(Toroidal(5), id="toroidal-5"),
    pytest.param(NineQueens(5, [(2, 2)]), id="pawn"),
    pytest.param(Puzzle(rows=3, cols=4, pieces=3), id="rectangular"),
    pytest.param(Puzzle(rows=4, cols=4, piece=KNIGHT, pieces=6), id="knights"),
    pytest.param(Puzzle(rows=6, cols=6, pieces=6, fixed=frozenset({(0, 1)})), id="completion"),
    pytest.param(Puzzle(rows=4, cols=4, pieces=3, holes=frozenset({(0, 0), (1, 2)})), id="forbidden"),
]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_dimacs_counts_every_shape(puzzle):
    expected = count(puzzle, "native").count
    assert _count_dimacs(dimacs(puzzle, "seqcounter"), puzzle.rows * puzzle.cols) == expected


def test_dimacs_numbers_cells_row_by_row_with_auxiliaries_after():
    text = dimacs(NQueens(4), "seqcounter")
    assert "c cell (r, c) is variable r*4 + c + 1" in text
    assert "c row 1: 5 6 7 8" in text
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    assert int(header.split()[2]) > 16
    assert re.search(r"variables 17\.\.\d+ are auxiliary", text)
    # the known solution, given as cell literals, satisfies the formula
    solution = [(0, 1), (1, 3), (2, 0), (3, 2)]
    with Solver(name="cadical195", bootstrap_with=CNF(from_string=text).clauses) as solver:
        literals = [variable_ if (r, c) in solution else -variable_
                    for r in range(4) for c in range(4) for variable_ in [r * 4 + c + 1]]
        assert solver.solve(assumptions=literals)
    assert variable(lower(NQueens(4)), (3, 3)) == 16


def test_dimacs_of_domination_needs_a_size(reference):
    with pytest.raises(Unsupported, match="--size"):
        dimacs(Domination(4))
    size = reference.term("A075458", 4)
    assert _count_dimacs(dimacs(Domination(4), size=size), 16) == reference.term("A002564", 4)


def test_unknown_encoding_is_refused():
    with pytest.raises(QueensError, match="encoding"):
        dimacs(NQueens(4), "magic")


def _count_opb(text: str) -> tuple[int, int | None]:
    """(number of solutions, optimum): a minimal OPB reader feeding CP-SAT."""
    model = cp_model.CpModel()
    variables: dict[str, cp_model.IntVar] = {}
    objective = None
    for line in text.splitlines():
        if line.startswith("*") or not line.strip():
            continue
        body = line.rstrip(" ;")
        terms = re.findall(r"([+-]\d+) (x\d+)", body)
        for _, name in terms:
            if name not in variables:
                variables[name] = model.new_bool_var(name)
        expr = sum(int(k) * variables[name] for k, name in terms)
        if body.startswith("min:"):
            objective = expr
            continue
        operator, bound = re.search(r"(>=|=) (-?\d+)$", body).groups()
        model.add(expr >= int(bound) if operator == ">=" else expr == int(bound))
    solver = cp_model.CpSolver()
    best = None
    if objective is not None:
        model.minimize(objective)
        solver.solve(model)
        best = int(solver.objective_value)
        model.clear_objective()
        model.add(objective == best)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found = []

    class Counter(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(1)
    solver.solve(model, Counter())
    return len(found), best


def test_opb_counts_like_native(reference):
    assert _count_opb(opb(NQueens(6))) == (reference.term("A000170", 6), None)
    assert _count_opb(opb(Toroidal(5))) == (reference.term("A051906", 5), None)
    assert _count_opb(opb(Domination(4))) == (reference.term("A002564", 4), reference.term("A075458", 4))


def test_opb_header_and_relations():
    text = opb(NQueens(4))
    assert text.splitlines()[0] == "* #variable= 16 #constraint= 18"
    assert "<=" not in text  # at most one is written as -x1 -x2 ... >= -1


def test_minizinc_writes_the_row_viewpoint_where_every_row_holds_one_piece():
    model, data = minizinc(NQueens(4))  # q[r], one alldifferent per keyed family: columns and both diagonals
    assert "alldifferent" in model and "satisfy;" in model and "rows = 4;" in data and "nkeys = 3;" in data
    assert "nlines = 0;" in data  # every line is in a keyed family
    model, data = minizinc(Domination(4))  # no row holds exactly one: the generic Boolean model
    assert "solve minimize sum(x);" in model and "array[CELL] of var bool: x" in model and "nlines = 0;" in data


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="the minizinc tool is not installed")
def test_minizinc_solves_the_export(tmp_path, reference):
    for name, puzzle in (("q", NQueens(6)), ("d", Domination(4))):
        model, data = minizinc(puzzle)
        (tmp_path / f"{name}.mzn").write_text(model)
        (tmp_path / f"{name}.dzn").write_text(data)
    run = subprocess.run(["minizinc", "-a", str(tmp_path / "q.mzn"), str(tmp_path / "q.dzn")],
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.count("----------") == reference.term("A000170", 6)
    run = subprocess.run(["minizinc", str(tmp_path / "d.mzn"), str(tmp_path / "d.dzn")],
                         capture_output=True, text=True, timeout=60)
    board = run.stdout.split("----------")[0]
    assert board.count("Q") == reference.term("A075458", 4)


def test_cli_export_writes_files(tmp_path):
    result = run_cli("export", "nqueens", "-n", "5", "--format", "mzn", "-o", str(tmp_path / "five.mzn"))
    assert result.returncode == 0, result.stderr
    assert "satisfy;" in (tmp_path / "five.mzn").read_text()
    assert "rows = 5;" in (tmp_path / "five.dzn").read_text()
    result = run_cli("export", "nqueens", "-n", "5", "--format", "dimacs", "--encoding", "pairwise")
    assert result.returncode == 0 and "p cnf 25 " in result.stdout


def test_cli_export_errors_are_one_line():
    result = run_cli("export", "domination", "-n", "4", "--format", "dimacs")
    assert result.returncode == 1
    assert result.stderr.strip().startswith("error:") and "--size" in result.stderr
    result = run_cli("export", "nqueens", "-n", "4", "--format", "opb", "--encoding", "pairwise")
    assert result.returncode == 2 and "Traceback" not in result.stderr
