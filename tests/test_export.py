"""Exports read back by other tools count the same solutions as the native counter.

DIMACS is loaded with pysat and enumerated (blocking on the cell variables only, so the
auxiliary variables of an encoding never make one solution count twice); OPB is read by a
twenty-line reader into CP-SAT; CP-SAT's protobuf text is parsed by protobuf and solved by
CP-SAT; MiniZinc is run when the `minizinc` tool is installed (Gecode through MiniZinc is the
independent oracle for the textbook model: it shares no code with models/).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from google.protobuf import text_format
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model
from pysat.formula import CNF
from pysat.solvers import Solver
from queens.models import NQueens, Puzzle, QueensError, Unsupported, lower
from queens.models.armies import Army
from queens.models.domination import Domination
from queens.models.errors import BadOption
from queens.models.families import FamilyOptions, build, of_size
from queens.models.ninequeens import NineQueens
from queens.models.pieces import KNIGHT, PIECES_ON
from queens.models.toroidal import Toroidal
from queens.solvers import count
from queens.solvers.formats.board_numbering import variable
from queens.solvers.formats.cnf import ENCODINGS
from queens.solvers.formats.dimacs import dimacs
from queens.solvers.formats.minizinc import HANDBOOK, Search, minizinc
from queens.solvers.formats.opb import opb

from tests.cli import run_main
from tests.conftest import Reference

MINIZINC = pytest.mark.skipif(shutil.which("minizinc") is None, reason="the minizinc tool is not installed")
DATA = Path(__file__).resolve().parent / "data"


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
    assert "c   5  6  7  8" in text  # the numbering drawn as the board
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


def _clause_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("c")]


def test_the_annotated_dimacs_of_four_queens_names_each_constraint_and_keeps_its_clauses():
    """Each group of clauses is headed by the constraint it says; the clause lines are the ones
    the export wrote before it had comments (tests/data/four-queens-pairwise.cnf)."""
    text = dimacs(NQueens(4), "pairwise")
    assert _clause_lines(text) == _clause_lines((DATA / "four-queens-pairwise.cnf").read_text())
    body = text.splitlines()[text.splitlines().index("p cnf 16 84") + 1:]
    comments = [line for line in body if line.startswith("c ")]
    assert body[0] == "c row 0: exactly one of x1 x2 x3 x4 (pairwise)"
    assert "c column 3: exactly one of x4 x8 x12 x16 (pairwise)" in comments
    assert "c diagonal r - c = 0: at most one of x1 x6 x11 x16 (pairwise)" in comments
    assert "c anti-diagonal r + c = 1: at most one of x2 x5 (pairwise)" in comments
    assert len(comments) == 4 + 4 + 5 + 5  # rows, columns, both diagonals (their lines of two cells or more)


def test_each_group_of_clauses_says_its_line_alone():
    """Cut out of the formula, the clauses under "row 0" (or any line's comment) allow exactly the
    placements the line's bound does on its own cells: the groups slice the formula where the
    constraints begin and end, auxiliary variables included, in every encoding."""
    for encoding in ENCODINGS:
        text = dimacs(NQueens(5), encoding)
        groups: dict[str, list[list[int]]] = {}
        for line in text.splitlines():
            if line.startswith("c ") and ": " in line and "(" in line:
                name, said = line[2:].split(": ", 1)
                groups[name] = []
            elif groups and not line.startswith(("c", "p")):
                groups[name].append([int(x) for x in line.split()[:-1]])
        for name, clauses in groups.items():
            cells = sorted({abs(x) for clause in clauses for x in clause if abs(x) <= 25})
            expected = len(cells) if name.startswith(("row", "column")) else len(cells) + 1  # exactly / at most one
            assert _projections(clauses, cells) == expected, (encoding, name)


def _projections(clauses: list[list[int]], cells: list[int]) -> int:
    """How many assignments of `cells` some model of `clauses` has."""
    found = 0
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            solver.add_clause([-v if v in model else v for v in cells])
            found += 1
    return found


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
        constraint = re.search(r"(>=|=) (-?\d+)$", body)
        assert constraint, body
        operator, bound = constraint.groups()
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


def test_minizinc_writes_the_textbook_model_of_eight_queens():
    """The handbook's n-queens: n variables in 1..n, three alldifferent, its search; at most 15
    lines with the data."""
    model, data = minizinc(NQueens(8))
    assert "array[1..n] of var 1..n: q;" in model
    assert [line.split("  %")[0] for line in model.splitlines() if line.startswith("constraint")] == [
        "constraint alldifferent(q);", "constraint alldifferent(i in 1..n)(q[i] - i);",
        "constraint alldifferent(i in 1..n)(q[i] + i);"]
    assert "solve :: int_search(q, first_fail, indomain_min) satisfy;" in model
    assert data == "n = 8;\n"
    assert len(model.splitlines()) + len(data.splitlines()) <= 15


def test_minizinc_writes_the_generic_model_only_where_the_puzzle_needs_it():
    model, data = minizinc(Domination(4))  # no row holds exactly one: the generic Boolean model
    assert "solve minimize sum(x);" in model and "array[CELL] of var bool: x" in model and "nlines = 0;" in data
    model, _ = minizinc(NineQueens(5, [(2, 2)]))  # a pawn cuts the rows: Boolean too
    assert "array[CELL] of var bool: x" in model
    for puzzle in (Toroidal(5), of_size("superqueens", 6), of_size("kings", 5), HOLES, GIVEN):
        assert "array[1..n] of var 1..n: q;" in minizinc(puzzle)[0], puzzle.name


HOLES = Puzzle(rows=6, cols=6, pieces=6, holes=frozenset({(0, 0), (2, 3), (2, 4)}))
GIVEN = Puzzle(rows=6, cols=6, pieces=6, fixed=frozenset({(0, 1)}))


def test_holes_and_givens_are_domain_restrictions():
    assert "constraint q[1] = 2;  % a piece placed" in minizinc(GIVEN)[0]
    model = minizinc(HOLES)[0]
    assert "constraint q[1] != 1;  % a hole" in model and "constraint not (q[3] in {4, 5});  % holes" in model


def test_the_search_annotation_is_an_option():
    assert "solve :: int_search(q, dom_w_deg, indomain_split) satisfy;" in minizinc(
        NQueens(8), search=Search("dom_w_deg", "indomain_split"))[0]
    assert "solve :: bool_search(x, input_order, indomain_max) minimize sum(x);" in minizinc(
        Domination(4), search=Search("input_order", "indomain_max"))[0]
    assert 'include "gecode.mzn"' in minizinc(NQueens(8), search=Search("random", "indomain_min"))[0]
    with pytest.raises(BadOption, match="wider than 0..1"):  # no middle value in 0..1
        minizinc(Domination(4), search=Search("first_fail", "indomain_median"))
    with pytest.raises(BadOption, match="first_fail"):
        Search("first_failure", "indomain_min")
    assert Search.of(None, "indomain_max", HANDBOOK) == Search("first_fail", "indomain_max")


def _gecode(tmp_path: Path, model: str, data: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "m.mzn").write_text(model)
    (tmp_path / "m.dzn").write_text(data)
    return subprocess.run(["minizinc", "--solver", "gecode", *args, str(tmp_path / "m.mzn"), str(tmp_path / "m.dzn")],
                          capture_output=True, text=True, timeout=120, check=True)


@MINIZINC
def test_gecode_counts_a000170_on_the_textbook_export(tmp_path, reference):
    for n in range(1, 11):
        run = _gecode(tmp_path, *minizinc(NQueens(n)), "--all-solutions")
        assert run.stdout.count("----------") == reference.term("A000170", n), n


@MINIZINC
@pytest.mark.parametrize("puzzle", [pytest.param(Toroidal(5), id="toroidal-5"), pytest.param(HOLES, id="holes"),
                                    pytest.param(GIVEN, id="given"), pytest.param(Puzzle(rows=4, cols=6, pieces=4),
                                                                                  id="rectangular"),
                                    pytest.param(of_size("superqueens", 10), id="superqueens-10"),
                                    pytest.param(of_size("kings", 6), id="kings-6")])
def test_the_textbook_export_holds_the_native_count(tmp_path, puzzle):
    run = _gecode(tmp_path, *minizinc(puzzle), "--all-solutions")
    assert run.stdout.count("----------") == count(puzzle, "native").count


@MINIZINC
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
    result = run_main("export", "nqueens", "-n", "5", "--format", "mzn", "-o", str(tmp_path / "five.mzn"))
    assert result.returncode == 0, result.stderr
    assert "satisfy;" in (tmp_path / "five.mzn").read_text()
    assert (tmp_path / "five.dzn").read_text() == "n = 5;\n"
    result = run_main("export", "nqueens", "-n", "5", "--format", "dimacs", "--encoding", "pairwise")
    assert result.returncode == 0 and "p cnf 25 " in result.stdout


def test_cli_export_errors_are_one_line():
    result = run_main("export", "domination", "-n", "4", "--format", "dimacs")
    assert result.returncode == 1
    assert result.stderr.strip().startswith("error:") and "--size" in result.stderr
    result = run_main("export", "nqueens", "-n", "4", "--format", "opb", "--encoding", "pairwise")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    for args in (["--format", "opb", "--var", "first_fail"], ["--format", "mzn", "--viewpoint", "boolean"],
                 ["--format", "cpsat", "--viewpoint", "rows"], ["--format", "mzn", "--var", "first_failure"]):
        result = run_main("export", "nqueens", "-n", "4", *args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, args
    result = run_main("export", "domination", "-n", "4", "--format", "mzn", "--val", "indomain_median")
    assert result.returncode == 2 and "wider than 0..1" in result.stderr
    result = run_main("export", "domination", "-n", "4", "--format", "cpsat", "--viewpoint", "alldifferent",
                     "--size", "2")
    assert result.returncode == 1 and "alldifferent viewpoint" in result.stderr


def test_cli_export_annotates_the_search():
    result = run_main("export", "nqueens", "-n", "8", "--format", "mzn", "--var", "input_order", "--val",
                     "indomain_median")
    assert result.returncode == 0, result.stderr
    assert "solve :: int_search(q, input_order, indomain_median) satisfy;" in result.stdout


def _count_cpsat(text: str) -> int:
    """The solutions of a CpModelProto read back from its protobuf text (by protobuf's own parser,
    then by OR-Tools'), enumerated by CP-SAT."""
    assert text_format.Parse(text, cp_model_pb2.CpModelProto()).variables
    model = cp_model.CpModel()
    model.proto.parse_text_format(text)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found = []

    class Counter(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(1)
    solver.solve(model, Counter())
    return len(found)


@pytest.mark.parametrize("viewpoint", ["boolean", "alldifferent"])
def test_the_cpsat_export_is_the_backends_model_and_counts_like_oeis(viewpoint, reference):
    result = run_main("export", "nqueens", "-n", "8", "--format", "cpsat", "--viewpoint", viewpoint)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# 8-queens") and (viewpoint != "alldifferent" or "all_diff" in result.stdout)
    assert _count_cpsat(result.stdout) == reference.term("A000170", 8)


def test_the_cpsat_export_of_a_minimising_puzzle_needs_a_size(reference):
    result = run_main("export", "domination", "-n", "4", "--format", "cpsat")
    assert result.returncode == 1 and "--size" in result.stderr
    size = reference.term("A075458", 4)
    result = run_main("export", "domination", "-n", "4", "--format", "cpsat", "--size", str(size))
    assert _count_cpsat(result.stdout) == reference.term("A002564", 4)


ARMIES = [
    pytest.param(Puzzle(shape=(5, 5), armies=(Army("queens", least=5, most=5),), wrap=(False, True)), id="cylinder"),
    pytest.param(build("two-per-line", FamilyOptions(3)), id="two-per-line"),
    pytest.param(Puzzle(shape=(3, 3, 3), armies=(Army("queens", PIECES_ON[3]["queen"], least=4, most=4),)), id="cube"),
    pytest.param(Puzzle(shape=(4, 4), armies=(Army("white", least=2, most=2), Army("black", least=2, most=2)),
                        within=False), id="two-armies"),
]


@pytest.mark.parametrize("puzzle", ARMIES)
def test_puzzles_with_armies_export_their_solutions(puzzle: Puzzle) -> None:
    """The model's variables numbered army by army (the header says which is which): DIMACS and
    OPB read back count what the router counts."""
    expected = count(puzzle).count
    text = dimacs(puzzle, "seqcounter")
    assert "army 0, cells (" in text
    assert _count_dimacs(text, lower(puzzle).width) == expected
    assert _count_opb(opb(puzzle)) == (expected, None)


def test_a_goal_over_armies_goes_to_opb_or_asks_for_a_size(reference: Reference) -> None:
    peaceable = build("peaceable", FamilyOptions(4))
    with pytest.raises(Unsupported, match="--size"):
        dimacs(peaceable)
    with pytest.raises(Unsupported, match="--size"):
        minizinc(peaceable)
    optima, best = _count_opb(opb(peaceable))  # maximise the first army: minimise its negation
    assert best == -reference.term("A250000", 4) and optima == count(peaceable).count
    two_each = Puzzle(shape=(4, 4), armies=(Army("white", least=2, most=2), Army("black", least=2, most=2)),
                      within=False)
    assert _count_dimacs(dimacs(peaceable, size=2), 32) == count(two_each).count


def test_open_copies_export_only_their_conflict_graph() -> None:
    result = run_main("export", "colouring", "-n", "4", "--format", "opb")
    assert result.returncode == 2 and "dimacs-col" in result.stderr and "Traceback" not in result.stderr
