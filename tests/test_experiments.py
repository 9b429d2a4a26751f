"""Experiments end to end: specs, the runner's limits and resume, the results database, reports,
Dask, and counting by decomposition (solvers/routing/split_count.py) against the OEIS terms."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sqlite3
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from queens.experiments import runner
from queens.experiments.report import flagged
from queens.experiments.runner import execute, run_grid
from queens.experiments.spec import Run, load
from queens.experiments.store import Store
from queens.models import BackendUnavailable, Completion, MalformedInput, NQueens, lower
from queens.models.domination import Domination
from queens.solvers import BACKENDS, Status
from queens.solvers.api import count
from queens.solvers.backend import Task
from queens.solvers.routing.split_count import subproblems

from tests.cli import run_cli, run_main, start_cli
from tests.conftest import REPO, TINY, able
from tests.process_table import MARKER, processes_marked
from tests.typed_results import number

# tiny_db (the tiny spec run once) and tiny_report (its report, rendered once): tests/conftest.py


def _spec(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _small_counts(tmp_path: Path, name: str, repetitions: int) -> Path:
    """A spec of 4 cells per repetition: n-queens counted at n = 5, 6 by csp and sat."""
    return _spec(tmp_path, f"""
name = "{name}"
repetitions = {repetitions}
time_limit = 30
[[grid]]
task = "count"
families = ["nqueens"]
sizes = [5, 6]
backends = ["csp", "sat"]
""")


# --- the grid, end to end ----------------------------------------------------------------------
def test_tiny_spec_runs_end_to_end_into_sqlite(tiny_db: Path, reference) -> None:
    spec = load(TINY)
    store = Store(tiny_db)
    rows = store.rows("tiny")
    assert {row.key for row in rows} == {run.key for run in spec.runs}
    assert all(row.status == "ok" for row in rows)
    for row in rows:
        if row.task == "count":
            assert row.answer == row.expected == reference.term("A000170", row.n)
        assert row.wall is not None and row.cpu is not None and row.peak_mib is not None and row.peak_mib > 0
        cpus = row.machine["cpus"]
        assert row.versions["python-sat"] and cpus is not None and cpus >= 1
    sat_sizes = [row for row in rows if row.backend == "sat" and row.task == "count" and row.method == "search"]
    assert all(row.variables and row.clauses for row in sat_sizes)
    assert store.truth("minimise", "domination", 4) == (True, reference.term("A075458", 4))


def test_runs_asked_from_several_threads_at_once_each_get_their_own_answer(reference) -> None:
    """A Dask worker may run a run per thread: each thread has its fork server, and every run
    comes back with its own count."""
    runs = [Run("threads", "count", "nqueens", n, "sat") for n in (5, 6, 7, 8)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        records = list(pool.map(execute, runs))
    assert [(record["status"], record["answer"]) for record in records] == \
        [("ok", reference.term("A000170", run.n)) for run in runs]


def test_a_run_over_its_time_limit_is_a_timeout(reference) -> None:
    run = Run("limits", "count", "nqueens", 15, "csp", time_limit=0.5)  # minutes of work: cannot finish
    record = execute(run)
    assert record["status"] == "timeout"
    assert record["answer"] < reference.term("A000170", 15)  # counted before the limit: a lower bound


def test_a_child_still_alive_after_its_limit_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "GRACE", 0.0)  # kill at the limit itself: before the solver can stop
    record = execute(Run("limits", "count", "nqueens", 15, "csp", time_limit=0.5))
    assert (record["status"], record["outcome"]) == ("timeout", "killed")


def test_a_run_over_its_memory_limit_is_a_memout() -> None:
    run = Run("limits", "solve", "nqueens", 200, "sat", (("encoding", "pairwise"),), time_limit=60,
              memory_limit=200)
    assert execute(run)["status"] == "memout"


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table in /proc")
def test_a_killed_runner_leaves_no_process_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL to the runner in the middle of a long run (minutes of csp search, a 600 s limit):
    its fork server dies with it, and the run's child with the server, at once."""
    spec_path = _spec(tmp_path, 'name = "long"\ntime_limit = 600\n[[grid]]\ntask = "count"\nfamilies = ["nqueens"]\n'
                      'sizes = [15]\nbackends = ["csp"]\n')
    marker = str(tmp_path)
    monkeypatch.setenv(MARKER, marker)
    process = start_cli("bench", "run", str(spec_path), "--db", str(tmp_path / "r.sqlite"),
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    give_up = time.monotonic() + 120
    while len(processes_marked(marker)) < 3 and time.monotonic() < give_up:  # the runner, its server, the run's child
        time.sleep(0.05)
    assert len(processes_marked(marker)) >= 3, "the run never started"
    process.kill()
    process.wait(timeout=60)
    give_up = time.monotonic() + 60
    while (left := processes_marked(marker)) and time.monotonic() < give_up:  # polling, not a timed assertion
        time.sleep(0.05)
    assert left == [], f"left running after the runner was killed: {left}"


def test_killing_the_runner_and_running_again_repeats_no_finished_run(tmp_path: Path) -> None:
    spec_path = _small_counts(tmp_path, "resume", repetitions=2)  # 8 runs, each in a process of its own
    db = tmp_path / "results.sqlite"
    process = start_cli("bench", "run", str(spec_path), "--db", str(db),
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if line.startswith("[2/"):  # two runs stored: kill the runner in the middle of the grid
            process.kill()
            break
    process.wait(timeout=60)
    process.stderr.close()
    store = Store(db)
    before = {row.key: row.finished for row in store.rows()}
    total = len(load(spec_path).runs)
    assert 2 <= len(before) < total
    lines: list[str] = []
    run_grid(load(spec_path), store, progress=lines.append)
    assert lines[0].startswith(f"resume: {len(before)} of {total} runs already stored")
    after = {row.key: row.finished for row in store.rows()}
    assert len(after) == total
    assert all(after[key] == finished for key, finished in before.items())  # not run again
    assert len(lines) == 1 + total - len(before)


# --- reports and flagging ----------------------------------------------------------------------
FIGURES = {"count": ("time-count-nqueens", "cactus-count", "size-count-nqueens"),
           "solve": ("time-solve-nqueens", "cactus-solve", "size-solve-nqueens"),
           "minimise": ("time-minimise-domination", "cactus-minimise", "size-minimise-domination")}
"""The figures of the tiny spec's report, by task."""


def _drawn(report: Path, stems: tuple[str, ...]) -> None:
    """Each figure named in the report, and written beside it as PNG and SVG."""
    text = report.read_text()
    for stem in stems:
        assert f"({stem}.png)" in text
        for suffix in ("png", "svg"):
            assert (report.parent / f"{stem}.{suffix}").stat().st_size > 1000


def test_a_report_is_written_from_stored_results(tiny_report: Path, tiny_db: Path, tmp_path: Path) -> None:
    text = tiny_report.read_text()
    assert "## count: nqueens" in text and "| configuration | symmetry | n = 5 | n = 6 |" in text
    assert "machine:" in text and "ortools" in text
    assert "agrees (" in text
    assert "![" not in text and not list(tiny_report.parent.glob("*.png"))  # the tables alone, as asked
    result = run_main("bench", "report", "--db", str(tiny_db), "--out", str(tmp_path), "--no-plots")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "report.md").read_text() == text and not list(tmp_path.glob("*.png"))


@pytest.mark.slow
def test_the_tiny_specs_report_draws_every_figure(tiny_db: Path, tmp_path: Path) -> None:
    """Every task's figures (a count's are drawn in make test by the command's own report)."""
    from queens.experiments.report import write

    _drawn(write(Store(tiny_db), tmp_path), tuple(stem for stems in FIGURES.values() for stem in stems))


def test_symmetry_off_and_on_count_the_same_and_the_report_says_which_each_row_used(tiny_db: Path, tiny_report: Path,
                                                                                     reference) -> None:
    rows = [row for row in Store(tiny_db).rows("tiny") if row.task == "count" and row.symmetry is not None]
    pairs: dict[tuple[str, int], dict[bool, int | None]] = {}
    for row in rows:
        pairs.setdefault((row.configuration.replace(f" symmetry={'on' if row.symmetry else 'off'}", ""), row.n),
                         {})[bool(row.symmetry)] = row.answer
        assert row.symmetry_used == ("lex-leader" if row.symmetry else "off"), row.stats
        if row.symmetry:  # one solution per class enumerated: fewer than the count whenever a class has two
            assert row.answer is not None and number(row.stats, "enumerated") < row.answer
    assert len(pairs) == 6  # sat x 2 encodings and csp, n = 5 and 6
    for (_, n), answers in pairs.items():
        assert answers == {False: reference.term("A000170", n), True: reference.term("A000170", n)}
    text = tiny_report.read_text()
    for configuration in ("csp", "sat encoding=pairwise", "sat encoding=seqcounter"):
        assert f"| {configuration} symmetry=off | off |" in text
        assert f"| {configuration} symmetry=on | lex-leader |" in text


def test_the_report_has_each_backends_own_effort_counters(tiny_db: Path, tiny_report: Path) -> None:
    rows = Store(tiny_db).rows("tiny")
    text = tiny_report.read_text()
    effort = text.split("Effort (each backend's own counters, median):", 1)[1]
    for row in rows:
        if row.backend == "sat" and row.task == "count" and row.method == "search" and row.n == 6:
            line = next(line for line in effort.splitlines() if line.startswith(f"| {row.configuration} |"))
            assert f"conflicts {row.stats['conflicts']:,} · decisions {row.stats['decisions']:,}" in line
    solving = text.split("## solve: nqueens", 1)[1]
    cpsat = next(row for row in rows if row.backend == "cpsat")
    assert f"| cpsat | conflicts {cpsat.stats['conflicts']:,} · branches {cpsat.stats['branches']:,} |" in solving
    assert "No effort counter reported by: native random." in solving


def test_local_search_is_a_cell_of_the_grid(tiny_db: Path) -> None:
    walk = next(row for row in Store(tiny_db).rows("tiny") if row.method == "random")
    assert (walk.backend, walk.task, walk.status, walk.answer, walk.expected) == ("native", "solve", "ok", 1, 1)
    assert walk.configuration == "native random"


def test_an_older_results_file_is_refused_in_one_line(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE runs (key TEXT PRIMARY KEY, split INTEGER NOT NULL)")
    db.close()
    with pytest.raises(MalformedInput, match="older queens"):
        Store(old)


def test_a_stored_count_that_differs_from_ground_truth_is_flagged(tiny_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "results.sqlite"
    db.write_bytes(tiny_db.read_bytes())
    with sqlite3.connect(db) as kept:  # the counts alone: the command below draws every task's plots
        kept.execute("DELETE FROM runs WHERE task != 'count'")
    store = Store(db)
    right = next(row for row in store.rows() if row.task == "count" and row.n == 6)
    assert right.expected is not None
    assert flagged(store.rows()) == []
    wrong = dataclasses.asdict(right) | {"key": right.key + " (a wrong answer)", "answer": right.expected + 1}
    del wrong["finished"]
    store.add(wrong)
    marked = flagged(store.rows())
    assert [(row.answer, row.expected) for row in marked] == [(right.expected + 1, right.expected)]
    store.close()
    assert run_cli("bench", "report", "--db", str(db), "--out", str(tmp_path / "cli")).returncode == 3
    text = (tmp_path / "cli" / "report.md").read_text()  # one report, as the command writes it
    assert f"answered {right.expected + 1}, native says {right.expected}" in text and "· ✗" in text
    _drawn(tmp_path / "cli" / "report.md", FIGURES["count"])


def test_a_run_stored_under_a_renamed_method_is_read_under_the_new_name(tiny_db: Path, tmp_path: Path) -> None:
    """The classes counter was `fast`: a results file stored before the rename reads, and a grid
    run into it again skips the run (its key under the new name is a finished key)."""
    db = tmp_path / "results.sqlite"
    db.write_bytes(tiny_db.read_bytes())
    store = Store(db)
    row = next(row for row in store.rows() if row.task == "count")
    old = Run("old", "count", "nqueens", 8, "native", method="fast")
    stored = dataclasses.asdict(row) | {"key": old.key, "spec": "old", "backend": "native", "method": "fast",
                                        "configuration": "native fast"}
    del stored["finished"]
    store.add(stored)
    assert dataclasses.replace(old, method="classes").key in store.finished_keys()
    renamed = store.rows("old")
    assert [(r.method, r.configuration) for r in renamed] == [("classes", "native classes")]
    store.close()


# --- specs ---------------------------------------------------------------------------------------
GOOD_GRID = '[[grid]]\ntask = "count"\nfamilies = ["nqueens"]\nsizes = [4]\nbackends = ["sat"]\n'


@pytest.mark.parametrize("text, words", [
    ("name = [", "not valid TOML"),
    ('name = "x"\n', "[[grid]]"),
    ("colour = 1\n" + GOOD_GRID, "unknown key 'colour'"),
    (GOOD_GRID.replace('"sat"', '"gurobi"'), "unknown backend 'gurobi'"),
    (GOOD_GRID.replace('"nqueens"', '"nqeens"'), "unknown family 'nqeens'"),
    (GOOD_GRID.replace("[4]", "[0]"), "'sizes'"),
    (GOOD_GRID + '[grid.options.sat]\nencoding = ["nope"]\n', "options.sat"),
    (GOOD_GRID + '[grid.options.cpsat]\nviewpoint = ["boolean"]\n', "options.cpsat"),
    (GOOD_GRID + 'methods = ["random"]\n', "no strategy counts with backend sat method random"),
    (GOOD_GRID + "processes = [2]\n", "'processes' applies to the split method only"),
    (GOOD_GRID.replace('"sat"', '"native"') + "symmetry = [false, true]\n", "key 'symmetry': symmetry"),
    (GOOD_GRID.replace('"count"', '"solve"') + "symmetry = [true]\n", "'symmetry' applies to counting"),
    (GOOD_GRID + "symmetry = [1]\n", "'symmetry' must hold bool values"),
    (GOOD_GRID.replace('"count"', '"minimise"'), "fixed number of pieces"),
    ("time_limit = -1\n" + GOOD_GRID, "'time_limit' must be positive"),
])
def test_a_malformed_spec_names_the_file_and_the_key(tmp_path: Path, text: str, words: str) -> None:
    path = _spec(tmp_path, text, "broken.toml")
    with pytest.raises(MalformedInput) as error:
        load(path)
    assert str(path) in str(error.value) and words in str(error.value)


def test_the_cli_reports_a_malformed_spec_in_one_line(tmp_path: Path) -> None:
    result = run_cli("bench", "run", str(_spec(tmp_path, "colour = 1\n" + GOOD_GRID)), "--db",
                     str(tmp_path / "r.sqlite"))
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "unknown key 'colour'" in result.stderr
    missing = run_cli("bench", "report", "--db", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 1 and "no results database" in missing.stderr


def test_the_default_spec_is_valid() -> None:
    spec = load(REPO / "experiments" / "specs" / "default.toml")
    assert spec.runs and {run.task for run in spec.runs} == {"solve", "count", "minimise"}


# --- Dask ----------------------------------------------------------------------------------------
@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="the dask extra is not installed")
def test_the_grid_runs_on_a_local_dask_cluster(tmp_path: Path, dask_cluster: str) -> None:
    """A grid of a few cells, each on a Dask worker (the tiny spec itself, 15 cells, is run once
    for the whole session by the `tiny_db` fixture)."""
    from queens.experiments.dask_grid import dask_executor

    spec = load(_small_counts(tmp_path, "on-dask", repetitions=1))
    store = Store(tmp_path / "results.sqlite")
    with dask_executor(dask_cluster) as executor:
        tally = run_grid(spec, store, executor)
    assert tally == {"ok": len(spec.runs)} and len(spec.runs) == 4
    assert sorted((row.n, row.answer) for row in store.rows()) == [(5, 10), (5, 10), (6, 4), (6, 4)]


@pytest.mark.skipif(importlib.util.find_spec("distributed") is not None, reason="the dask extra is installed")
def test_without_dask_the_runner_says_what_to_install() -> None:
    from queens.experiments.dask_grid import dask_executor

    with pytest.raises(BackendUnavailable, match="dask"):
        with dask_executor("local"):
            pass


# --- counting by decomposition ------------------------------------------------------------------
@pytest.mark.parametrize("n", range(1, 9))
@pytest.mark.parametrize("backend", able(BACKENDS, Task.COUNT))
def test_split_counts_equal_oeis(backend: str, n: int, reference) -> None:
    """A test per size: on minizinc, a MiniZinc call per subproblem, the eight sizes took 6-11 s
    in one test beside the other workers."""
    result = count(NQueens(n), backend, split=True, processes=1)
    assert (result.status, result.count) == (Status.COMPLETE, reference.term("A000170", n))


def test_split_in_parallel_processes_counts_q9(reference) -> None:
    result = count(NQueens(9), "sat", split=True, processes=2)
    assert result.count == reference.term("A000170", 9)
    assert result.stats["processes"] == 2 and number(result.stats, "subproblems") > 1


def test_the_left_right_flip_halves_the_first_row() -> None:
    parts = subproblems(lower(NQueens(8)), lines=1)
    assert [(sorted(p.fixed), p.weight) for p in parts] == [([(0, c)], 2) for c in range(4)]


def test_an_off_centre_queen_breaks_the_symmetry_and_the_count_stays_right() -> None:
    puzzle = Completion(8, [(3, 1)])
    assert all(part.weight == 1 for part in subproblems(lower(puzzle)))
    assert count(puzzle, "sat", split=True, processes=1).count == count(puzzle, "native").count


def test_a_minimising_puzzle_is_not_split(reference) -> None:
    assert len(subproblems(lower(Domination(4)))) == 1
    assert count(Domination(4), "sat", split=True, processes=1).count == reference.term("A002564", 4)


BENCHES = sorted(path.stem for path in (REPO / "experiments").glob("bench_*.py"))


@pytest.mark.parametrize("module", BENCHES)
def test_a_bench_says_its_options_and_refuses_an_unknown_one(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` prints the usage and runs nothing; an option it does not know is refused (exit 2)
    before any measuring: `bench_backends --help` used to run the whole bench. Each bench's
    `main(argv)`, as `python -m` runs it, in this process (a process each took 0.4 s)."""
    main = importlib.import_module(f"queens.experiments.{module}").main
    with pytest.raises(SystemExit) as shown:
        main(["--help"])
    out, _ = capsys.readouterr()
    assert shown.value.code == 0 and out.startswith("usage:")
    with pytest.raises(SystemExit) as refused:
        main(["--no-such-option"])
    out, err = capsys.readouterr()
    assert refused.value.code == 2 and "unrecognized arguments: --no-such-option" in err
    assert out == ""
