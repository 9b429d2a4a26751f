"""Shared fixtures: the OEIS ground truth in tests/data/sequences.json, each term with its source
(the real CLI: tests/cli.py), and the set-ups that take seconds, shared by the tests that need
them: the tiny experiment spec's results and their report, built once per test session however
many xdist workers ask (`built_once`), and a local Dask cluster, one per worker at most."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from queens.solvers import get_backend
from queens.solvers.backend import Task

if TYPE_CHECKING:
    from xdist.remote import Producer  # type: ignore[import-untyped]  # pytest-xdist: no py.typed
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "data" / "sequences.json"
TINY = REPO / "experiments" / "specs" / "tiny.toml"


class Reference:
    """OEIS terms by sequence id, indexed the way the sequence is (its offset respected)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def term(self, sequence: str, n: int) -> int:
        entry = self._data[sequence]
        term: int = entry["terms"][n - entry["offset"]]
        return term

    def known(self, sequence: str) -> range:
        entry = self._data[sequence]
        return range(entry["offset"], entry["offset"] + len(entry["terms"]))


@pytest.fixture(scope="session")
def reference() -> Reference:
    if not REFERENCE.is_file():
        pytest.fail(f"ground truth missing: {REFERENCE}")
    return Reference(json.loads(REFERENCE.read_text()))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--backend", action="append", default=[], metavar="NAME",
                     help="run the backend grid and contract tests on this backend only (repeatable), "
                          "as CPMpy's `pytest --solver NAME`; tests that name no backend still run")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With --backend NAME, leave out every test parametrised with another registered backend."""
    chosen = set(config.getoption("--backend"))
    if not chosen:
        return
    from queens.solvers.registry import BACKENDS

    unknown = chosen - set(BACKENDS)
    if unknown:
        raise pytest.UsageError(f"--backend {', '.join(sorted(unknown))}: not registered; choose from "
                                f"{', '.join(BACKENDS)}")
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        named = {value for value in params.values() if isinstance(value, str) and value in BACKENDS}
        (dropped if named and not named & chosen else kept).append(item)
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)


KEPT_TOGETHER = frozenset({
    "tests/browser",  # headless Chromium and an explorer, the package's (its conftest)
    "tests/test_web.py", "tests/test_web_bad_input.py", "tests/test_web_search.py",  # an explorer each
    "tests/test_dask.py", "tests/test_experiments.py",  # a local Dask cluster (`dask_cluster`)
    "tests/test_main_job.py",  # the main job's small rows on every backend
})
"""The modules whose module-scoped fixtures start servers, browsers or clusters, and the package
whose package-scoped ones do: each runs on one xdist worker, so that its set-up is made once.
Spread test by test (xdist's --dist load), each worker that ran one of the module's tests made
its own: three explorers for test_web.py, each spawning its solver processes. Every module as
one unit (--dist loadfile) saved as much but waited on the largest modules at the end
(experiments/results/suite-time.md). tests/test_worker_units.py checks that every module with
such a fixture is listed."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LoadScopeScheduling | None:
    """Under --dist load (make test's): every test its own unit of work, as load spreads them,
    but the modules of `KEPT_TOGETHER` one unit each, given out first as the largest (xdist's
    --dist loadgroup would do this with marks, but it does not group on pytest 9.2: pytest-xdist
    issue 1386). Another --dist asked for is left as it is."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling  # only under xdist, which calls this hook

    class Scheduling(LoadScopeScheduling):  # type: ignore[misc]  # untyped base
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return next((unit for unit in KEPT_TOGETHER if module == unit or module.startswith(unit + "/")), nodeid)

    return Scheduling(config, log)


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[str]:
    """A local Dask cluster as `--dask local` starts it on two cores (two single-threaded worker
    processes), for the tests that count on Dask in-process: its scheduler's address. The CLI's
    own `--dask local` is run end to end by tests/test_dask.py and tests/test_interrupt.py.
    One per module, not per session: a session-long cluster lived on, idle, in each xdist worker
    that started one (idle, its workers' profiler alone took 5.4 CPU-seconds a minute; it is off
    now, `queens.solvers.native.distributed.QUIET_WORKERS`)."""
    pytest.importorskip("distributed", reason="Dask is an optional extra: pip install -e '.[dask]'")
    from queens.solvers.native.distributed import local_cluster

    with local_cluster(2) as cluster:
        address: str = cluster.scheduler_address
        yield address


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """The folder `name` that `build(folder)` fills, once per test session: under xdist the
    first worker to ask builds it in the session's own temporary folder, which all its workers
    share, holding a lock while it does; the others wait on the lock and read what it built
    (pytest-xdist's recipe: its --dist loadgroup would send the tests to one worker instead, but
    it does not group on pytest 9.2, pytest-xdist issue 1386)."""
    root = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        root = root.parent  # popen-gwN's parent: this session's, not another session's
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed half-way
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


def _run_tiny_spec(folder: Path) -> None:
    from queens.experiments.runner import run_grid
    from queens.experiments.spec import load
    from queens.experiments.store import Store

    store = Store(folder / "results.sqlite")
    run_grid(load(TINY), store)
    store.close()


@pytest.fixture(scope="session")
def tiny_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny spec (experiments/specs/tiny.toml), run once into a fresh database, read only."""
    return built_once(tmp_path_factory, "tiny-spec", _run_tiny_spec) / "results.sqlite"


@pytest.fixture(scope="session")
def tiny_report(tiny_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of the tiny spec's results, its tables (report.md without plots), written once.
    The plots are drawn by tests/test_experiments.py: a count's by the command's own report
    (`test_a_stored_count_that_differs_from_ground_truth_is_flagged`), every figure of the tiny
    spec by a slow test (18 images: the slowest set-up make test had, experiments/results/suite-time.md)."""
    from queens.experiments.report import write
    from queens.experiments.store import Store

    return built_once(tmp_path_factory, "tiny-report",
                      lambda folder: write(Store(tiny_db), folder, plots=False)) / "report.md"


def able(backends: Iterable[str], task: Task) -> list[str]:
    """The backends among `backends` that do `task` at all: a backend that never counts or lists
    solutions (mip) refuses it in `limits` before any work, and a counting test reads that
    refusal here, never a backend's name."""
    return [name for name in backends if get_backend(name).limits(1, 1, task) is None]
