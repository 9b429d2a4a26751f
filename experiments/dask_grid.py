"""Run a grid on Dask: `--dask local` (a cluster of this machine's cores) or `--dask ADDRESS`.

Each Dask task is `runner.execute(run)`, so a run still gets its own child process with its
limits on whichever worker takes it; only this process writes to SQLite, as results come back.
Dask is an optional extra (`pip install 'queens[dask]'`); without it this says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from queens.experiments.runner import Executor, Measurement, execute
from queens.experiments.spec import Run
from queens.solvers.native.distributed import NO_DASHBOARD, QUIET_WORKERS
from queens.solvers.runtime.extras import require


def _distributed() -> ModuleType:
    require("dask", "running a grid on Dask")
    import distributed

    return distributed


@contextmanager
def dask_executor(address: str) -> Iterator[Executor]:
    """An executor that sends runs to Dask: a local cluster for "local", else the scheduler at `address`.

    A local cluster has one single-threaded worker per core, so runs on one worker do not
    compete for its core (each run is a child process anyway).
    """
    distributed = _distributed()
    import dask.config

    with dask.config.set(QUIET_WORKERS):  # read by each worker's nanny as it is made
        cluster = distributed.LocalCluster(threads_per_worker=1, processes=True, **NO_DASHBOARD) \
            if address == "local" else None
    client = distributed.Client(cluster if cluster is not None else address)
    try:
        yield _through(client, distributed.as_completed)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _through(client: Any, as_completed: Callable[[Iterable[Any]], Iterator[Any]]) -> Executor:
    """The executor over `client` (a distributed.Client; distributed has no type hints)."""
    def run_all(runs: list[Run]) -> Iterator[tuple[Run, Measurement]]:
        futures = {client.submit(execute, run, key=f"run-{i}-{abs(hash(run.key))}", pure=False): run
                   for i, run in enumerate(runs)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    return run_all
