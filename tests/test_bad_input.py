"""Bad input, all of it: each row is an input a user may give, the exit code (CLI) or exception
(Python API) it must get, and a fragment of the one-line message, which names the real cause.

CLI rows run in this process through `queens.cli.main` (the same messages and exit codes as
the script, without an interpreter per row); a few run through the real script. No row may
print a traceback: 0 ok, 1 error, 2 usage (including options no backend takes and missing C
extensions), 3 disagreement, 130 interrupted.
"""

from __future__ import annotations

import pytest
from queens.models import (
    AttackingQueens,
    BackendUnavailable,
    Completion,
    InvalidBoard,
    InvalidPlacement,
    MalformedInput,
    NQueens,
    OffBoard,
    Puzzle,
    QueensError,
    Unsupported,
    lower,
    parse_cells,
    parse_vector,
    verify,
)
from queens.models.domination import Domination
from queens.models.errors import BadOption, Refused
from queens.models.families import FamilyOptions, build
from queens.models.ninequeens import FreePawns
from queens.models.pieces_families import Knights
from queens.models.toroidal import Toroidal
from queens.solvers import count, get_backend, solve
from queens.solvers.api import count as search_count
from queens.solvers.api import solve as search_solve
from queens.solvers.backend import Task
from queens.solvers.routing.router import answer
from queens.solvers.routing.split_count import count_split

from tests.cli import error_line, run_cli, run_main

USAGE, ERROR = 2, 1
TWENTY_ONE = "0,3 1,5 2,7 3,9 4,11 5,13 6,15 7,17 8,19 9,1"

CLI = [
    # usage: the command line itself is wrong (exit 2)
    (["count", "nqueens"], USAGE, "Missing option"),
    (["count", "nqueens", "-n", "eight"], USAGE, "must be a whole number, got 'eight'"),
    (["count", "hexqueens", "-n", "8"], USAGE, "hexqueens"),
    (["count", "nqueens", "-n", "8", "-b", "gurobi"], USAGE, "gurobi"),
    (["solve", "nqueens", "-n", "8", "--method", "fastest"], USAGE, "fastest"),
    (["count", "nqueens", "-n", "8", "--method", "construct"], USAGE, "construct"),
    (["solve", "nqueens", "-n", "8", "--time-limit", "-1"], USAGE, "time-limit"),
    (["solve", "nqueens", "-n", "8", "--time-limit", "0"], USAGE, "time-limit"),
    (["solve", "nqueens", "-n", "8", "--time-limit", "soon"], USAGE, "time-limit"),
    (["show", "nqueens", "-n", "500"], USAGE, "draws boards up to"),
    (["show", "nqueens", "-n", "8", "-m", "200"], USAGE, "draws boards up to"),
    (["count", "nqueens", "-n", "8", "-b", "sat", "--viewpoint", "rows"], USAGE, "viewpoint: not an option of sat"),
    (["count", "nqueens", "-n", "8", "-b", "csp", "--viewpoint", "alldifferent"], USAGE, "viewpoint must be one of"),
    (["solve", "nqueens", "-n", "8", "-b", "cpsat", "--encoding", "pairwise"], USAGE, "encoding: not an option"),
    (["solve", "nqueens", "-n", "8", "-b", "sat", "--encoding", "nosuch"], USAGE, "encoding must be one of"),
    (["solve", "nqueens", "-n", "8", "-b", "cpsat", "--viewpoint", "sideways"], USAGE, "viewpoint must be one of"),
    (["count", "nqueens", "-n", "8", "-b", "native", "--viewpoint", "rows"], USAGE, "not an option of native"),
    (["count", "nqueens", "-n", "8", "-b", "all", "--viewpoint", "rows"], USAGE, "--backend all compares"),
    (["count", "nqueens", "-n", "8", "-b", "all", "--method", "split"], USAGE, "--backend all compares"),
    (["count", "nqueens", "-n", "8", "--threads", "0"], USAGE, "--threads"),
    (["count", "nqueens", "-n", "8", "--threads", "two"], USAGE, "--threads"),
    (["count", "nqueens", "-n", "8", "--resume", "--ledger", "typo.sqlite"], USAGE, "there is no ledger typo.sqlite"),
    (["count", "nqueens", "-n", "8", "--threads", "2", "-b", "cpsat"], USAGE, "threads: not an option of cpsat"),
    (["count", "rooks", "-n", "5", "--threads", "2"], USAGE, "needs n queens on a full n x n board"),
    (["count", "nqueens", "-n", "40", "--unique"], USAGE, "at most 400 cells"),
    (["count", "nqueens", "-n", "8", "--dask", "tcp://127.0.0.1:1", "--threads", "2"], USAGE, "--threads sizes"),
    (["count", "nqueens", "-n", "8", "--unique", "--method", "split"], USAGE, "unique: not an option of"),
    (["count", "nqueens", "-n", "16", "--unique", "--method", "quadrant"], USAGE, "counts totals only"),
    (["count", "nqueens", "-n", "8", "--unique", "--ledger", "x.sqlite", "-b", "sat"], USAGE, "not an option of sat"),
    (["count", "nqueens", "-n", "8", "--method", "classes", "-b", "sat"], USAGE, "no strategy counts"),
    (["count", "nqueens", "-n", "8", "--method", "fast"], USAGE, "'fast' is now called 'classes'"),
    (["solve", "nqueens", "-n", "8", "-b", "csp", "--method", "construct"], USAGE, "no strategy solves"),
    (["solve", "nqueens", "-n", "8", "--method", "random", "--viewpoint", "rows"], USAGE, "viewpoint: not an option"),
    (["solve", "nqueens", "-n", "8", "--seed", "x"], USAGE, "--seed"),
    (["solve", "nqueens", "-n", "8", "--format", "xyz"], USAGE, "--format"),
    (["generate", "completion", "-n", "8", "-k", "9"], USAGE, "at most n = 8"),
    (["generate", "completion", "-n", "0", "-k", "1"], USAGE, "-n"),
    (["generate", "completion", "-n", "8", "-k", "-1"], USAGE, "-k"),
    (["generate", "completion", "-n", "8", "-k", "2", "--kind", "weird"], USAGE, "--kind"),
    (["verify"], USAGE, "Missing argument"),
    (["count", "nqueens", "-n", "8", "--pawns", "-1"], USAGE, "--pawns"),
    (["count", "ninequeens", "-n", "8", "--pieces", "-1"], USAGE, "--pieces"),
    (["count", "ninequeens", "-n", "8", "--pawn", "3"], USAGE, "is not a cell"),
    (["count", "ninequeens", "-n", "8", "--pawn", "a,b"], USAGE, "is not a cell"),
    (["solve"], USAGE, "Missing argument"),
    (["frobnicate"], USAGE, "No such command"),
    (["count", "nqueens", "-n", "8", "--bogus"], USAGE, "No such option"),
    (["explain", "nqueens"], USAGE, "Missing option"),
    (["trace", "nqueens", "-n", "x"], USAGE, "must be a whole number, got 'x'"),
    # errors: the request is understood, and cannot be met (exit 1)
    (["count", "nqueens", "-n", "0"], ERROR, "positive number of rows"),
    (["count", "nqueens", "-n", "-4", "-b", "native"], ERROR, "positive number of rows"),
    (["solve", "nqueens", "-n", "0"], ERROR, "positive number of rows"),
    (["count", "nqueens", "-n", "3", "-m", "0"], ERROR, "positive number of columns"),
    (["count", "domination", "-n", "0"], ERROR, "positive number of rows"),
    (["explain", "nqueens", "-n", "0"], ERROR, "positive number of rows"),
    (["trace", "nqueens", "-n", "0"], ERROR, "positive number of rows"),
    (["count", "nqueens", "-n", "1000", "-b", "cpsat"], USAGE, "cpsat counts boards of at most 400 cells"),
    (["count", "nqueens", "-n", "70", "-b", "native"], USAGE, "at most 4,096 cells"),
    (["count", "nqueens", "-n", "5000", "-b", "sat"], USAGE, "sat counts boards of at most"),
    (["count", "nqueens", "-n", "21", "-b", "csp"], USAGE, "at most 400 cells; 21x21 has 441"),
    (["solve", "superqueens", "-n", "70", "-b", "native"], USAGE, "at most 4,096 cells"),
    (["solve", "superqueens", "-n", "2001", "-b", "cpsat"], USAGE, "at most 4,000,000 cells"),
    (["solve", "nqueens", "-n", "1001", "-b", "csp"], USAGE, "at most 1,000,000 cells"),
    (["count", "completion", "-n", "8", "--queens", "0,0 1,1"], ERROR, "attack each other"),
    (["count", "completion", "-n", "8", "--queens", "0,0 2,2"], ERROR, "attack each other"),
    (["show", "completion", "-n", "8", "--queens", "0,0 1,1"], ERROR, "attack each other"),
    (["count", "completion", "-n", "8", "--queens", "0,9"], ERROR, "off the 8x8 board"),
    (["count", "completion", "-n", "8", "--queens", "0,0 0,0"], ERROR, "listed twice"),
    (["count", "completion", "-n", "8"], ERROR, "needs pre-placed queens"),
    (["count", "completion", "-n", "8", "--queens", "0,0", "--vector", "1"], ERROR, "once"),
    (["count", "nqueens", "-n", "8", "--pawns", "1"], USAGE, "--pawns does not apply to nqueens"),
    (["count", "nqueens", "-n", "8", "--queens", "0,0"], USAGE, "--queens does not apply to nqueens"),
    (["count", "rooks", "-n", "8", "-m", "3"], USAGE, "does not apply to rooks"),
    (["count", "toroidal", "-n", "7", "--independent"], USAGE, "--independent does not apply to toroidal"),
    (["count", "knights", "-n", "5", "--pieces", "0", "-b", "native"], ERROR, "--pieces 0 places no knights"),
    (["count", "knights", "-n", "4", "--pieces", "17", "-b", "sat"], ERROR, "do not fit on the 16 open cells"),
    (["solve", "completion", "-n", "8", "--queens", ""], ERROR, "--queens is empty"),
    (["solve", "completion", "-n", "8", "--queens", "missing.txt"], ERROR, "no such file 'missing.txt'"),
    (["solve", "completion", "-n", "8", "--queens", "0;0"], ERROR, "no such file"),
    (["count", "completion", "-n", "8", "--queens", "a,b"], ERROR, "not two whole numbers"),
    (["count", "completion", "-n", "8", "--queens", "1,2,3"], ERROR, "expected a row and a column"),
    (["count", "completion", "-n", "8", "--vector", "1 x"], ERROR, "whole numbers"),
    (["count", "completion", "-n", "8", "--vector", "-1"], ERROR, "vector entries"),
    (["count", "completion", "-n", "4", "--vector", "0 0"], ERROR, "no pre-placed queens"),
    (["count", "ninequeens", "-n", "8", "--pawns", "1", "--pawn", "3,3"], ERROR, "give either"),
    (["count", "ninequeens", "-n", "8", "--pawns", "9"], ERROR, "free pawns must be 0..3"),
    (["count", "ninequeens", "-n", "8", "--pawn", "9,9"], ERROR, "off the 8x8 board"),
    (["solve", "nqueens", "-n", "8", "--out", "/nonexistent/dir/q.txt"], ERROR, "no such folder"),
    (["solve", "superqueens", "-n", "10", "--method", "construct"], USAGE, "needs n queens on a full n x n board"),
    (["solve", "superqueens", "-n", "10", "--method", "complete"], USAGE, "needs n queens on a full n x n board"),
    (["solve", "nqueens", "-n", "8", "-m", "9", "--method", "construct"], USAGE, "needs n queens on a full"),
    (["solve", "completion", "-n", "8", "--queens", "0,0", "--method", "construct"], USAGE, "without pre-placed"),
    (["count", "domination", "-n", "5", "--method", "classes"], USAGE, "needs n queens on a full"),
    (["count", "rooks", "-n", "6", "--method", "split", "-b", "native"], USAGE, "counts without enumerating"),
    (["count", "domination", "-n", "4", "--method", "split", "-b", "sat"], USAGE, "fixed number of pieces only"),
    (["count", "bishops", "-n", "4", "--method", "split", "-b", "sat"], USAGE, "exactly-one lines to split on"),
    (["count", "completion", "-n", "21", "--queens", TWENTY_ONE, "-b", "cpsat"], USAGE, "at most 400 cells"),
    (["verify", "nofile.txt"], ERROR, "no such file"),
    (["count", "nqueens", "-n", "8", "--ledger", "/nonexistent/dir/x.sqlite", "--threads", "1"], ERROR,
     "cannot use /nonexistent/dir/x.sqlite as a ledger"),
]


@pytest.mark.parametrize("args,code,message", CLI, ids=[" ".join(args)[:60] for args, _, _ in CLI])
def test_the_cli_names_the_cause_with_the_right_exit_code(args, code, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_main(*args)
    assert result.returncode == code, result.stderr
    assert message in (result.stderr if code == USAGE else error_line(result))  # click's usage: a few lines
    assert "Traceback" not in result.stderr


def _file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("name,text,args,message", [
    ("empty.txt", "", ["solve", "completion", "-n", "8"], "no pre-placed queens"),
    ("other.txt", "# n=10\n0 0\n", ["solve", "completion", "-n", "8"], "is for n = 10, not 8"),
    ("conflict.txt", "# n=8\n0 1\n5 1\n", ["verify"], "share a column"),
    ("words.txt", "hello world\n", ["verify"], "does not say n"),
])
def test_files_are_checked_before_any_work(name, text, args, message, tmp_path):
    path = _file(tmp_path, name, text)
    result = run_main(*args, *(["--queens", path] if args[0] == "solve" else [path]))
    assert result.returncode == ERROR
    assert message in error_line(result)


@pytest.mark.parametrize("args,code,message", [
    (["count", "nqueens", "-n", "1000", "-b", "cpsat"], USAGE, "counts boards of at most"),
    (["count", "nqueens", "-n", "8", "-b", "csp", "--viewpoint", "alldifferent"], USAGE, "viewpoint"),
    (["count", "nqueens", "-n", "8", "-b", "sat", "--viewpoint", "rows"], USAGE, "viewpoint"),
    (["solve", "completion", "-n", "8", "--queens", "missing.txt"], ERROR, "no such file"),
    (["count", "knights", "-n", "5", "--pieces", "0", "-b", "native"], ERROR, "--pieces 0"),
    (["frobnicate"], USAGE, "No such command"),
])
def test_the_real_script_agrees(args, code, message, tmp_path):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == code
    assert message in error_line(result)


API = [  # the wrong types on purpose (type: ignore): what a caller without a type checker passes
    (lambda: NQueens("8"), InvalidBoard, "must be a whole number, got '8' (str)"),  # type: ignore[arg-type]
    (lambda: NQueens(2.5), InvalidBoard, "(float)"),  # type: ignore[arg-type]
    (lambda: NQueens(True), InvalidBoard, "(bool)"),
    (lambda: NQueens(None), InvalidBoard, "(NoneType)"),  # type: ignore[arg-type]
    (lambda: NQueens(0), InvalidBoard, "positive number of rows, got 0"),
    (lambda: NQueens(-1), InvalidBoard, "positive number of rows"),
    (lambda: Puzzle(rows=4, cols=5, wrap=True, pieces=4), InvalidBoard, "must be square"),
    (lambda: lower(Puzzle(rows=4, cols=4, pieces=17)), InvalidBoard, "do not fit"),  # the router counts 0
    (lambda: Puzzle(rows=4, cols=4), InvalidBoard, "only a domination puzzle"),
    (lambda: Puzzle(rows=4, cols=4, pieces=4, fixed=frozenset({(5, 5)})), OffBoard, "off the 4x4 board"),
    (lambda: Puzzle(rows=4, cols=4, pieces=4, fixed=frozenset({(0, 0)}), blockers=frozenset({(0, 0)})), InvalidBoard,
     "stands on a hole or blocker"),
    (lambda: Puzzle(rows=4, cols=4, pieces=1, fixed=frozenset({(0, 0), (1, 2)})), InvalidBoard, "only 1 allowed"),
    (lambda: Completion(8, [(0, 0), (1, 1)]), AttackingQueens, "attack each other"),
    (lambda: Completion(8, [(0, 0), (0, 0)]), MalformedInput, "listed twice"),
    (lambda: parse_cells("1"), MalformedInput, "expected a row and a column"),
    (lambda: parse_vector("x"), MalformedInput, "whole numbers"),
    (lambda: count(NQueens(8), "gurobi"), QueensError, "unknown backend 'gurobi'"),
    (lambda: count(NQueens(8), "cpsat", viewpoint="x"), BadOption, "viewpoint must be one of"),
    (lambda: count(NQueens(8), "sat", nonsense=1), BadOption, "nonsense: not an option of sat"),  # type: ignore[call-arg]
    (lambda: search_count(NQueens(8), "sat", nonsense=1), BadOption,  # type: ignore[call-arg]
     "does not take these options"),
    (lambda: count(NQueens(1000), "cpsat"), Unsupported, "counts boards of at most 400 cells"),
    (lambda: count_split(NQueens(1000), "cpsat"), Unsupported, "counts boards of at most 400 cells"),
    (lambda: count(NQueens(8), "native", time_limit=0), Unsupported, "time limit must be positive"),
    (lambda: count(NQueens(8), "native", time_limit=-1), Unsupported, "time limit must be positive"),
    (lambda: solve(NQueens(8), "native", time_limit=0), Unsupported, "time limit must be positive"),
    (lambda: search_solve(NQueens(80), "native"), Unsupported, "at most 4,096 cells"),
    (lambda: solve(NQueens(80), "native", method="search"), Refused, "at most 4,096 cells"),
    (lambda: answer(Task.COUNT, NQueens(8), backend="cpsat", method="construct"), BadOption, "no strategy counts"),
    (lambda: answer(Task.COUNT, NQueens(8), method="fast"), BadOption, "method 'fast' is now called 'classes'"),
    (lambda: answer(Task.COUNT, NQueens(1000), backend="sat"), Refused, "sat counts boards of at most"),
    (lambda: answer(Task.SOLVE, Domination(4), method="construct"), Refused, "needs n queens on a full"),
    (lambda: answer(Task.COUNT, NQueens(8), viewpoint="rows", encoding="ladder"), BadOption, "not an option"),
    (lambda: count(Knights(4, 17), "sat"), InvalidBoard, "do not fit"),  # a backend named: lowered, refused
    (lambda: Domination(0), InvalidBoard, "positive number of rows"),
    (lambda: Toroidal(0), InvalidBoard, "positive number of rows"),
    (lambda: FreePawns(8, 4), InvalidBoard, "free pawns must be 0..3"),
    (lambda: FreePawns(0, 1), InvalidBoard, "positive number of rows"),
    (lambda: build("nope", FamilyOptions(4)), QueensError, "unknown family 'nope'"),
    (lambda: build("rooks", FamilyOptions(4, pawns=1, given=frozenset({"pawns"}))), QueensError, "does not apply"),
    (lambda: build("knights", FamilyOptions(4, pieces=0)), MalformedInput, "places no knights"),
    (lambda: build("completion", FamilyOptions(4, queens=" ")), MalformedInput, "--queens is empty"),
    (lambda: verify(NQueens(4), [(0, 0), (1, 1), (2, 2), (3, 3)]), InvalidPlacement, "diagonal"),
    (lambda: verify(NQueens(4), [(0, 1)]), InvalidPlacement, "1 pieces placed, 4 required"),
    (lambda: get_backend("native", counter="fastest"), BadOption, "counter must be one of"),
    (lambda: get_backend("native", counter="fast"), BadOption, "counter 'fast' is now called 'classes'"),
    (lambda: get_backend("native", threads=0), BadOption, "threads must be"),
    (lambda: get_backend("hal"), QueensError, "unknown backend 'hal'"),
]


@pytest.mark.parametrize("call,error,message", API, ids=[f"api-{i}" for i in range(len(API))])
def test_the_python_api_names_the_cause(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)
    assert not isinstance(raised.value, BackendUnavailable) or error is BackendUnavailable


def test_there_are_enough_rows():
    assert len(CLI) + 4 + 6 + len(API) >= 120
