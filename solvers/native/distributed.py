"""The native counters' subproblems on a Dask cluster: a local one, or one running elsewhere.

`address="local"` starts a LocalCluster on this machine (one single-threaded worker process per
core); `"tcp://host:8786"` connects to a running scheduler, e.g. one started on Slurm with
dask-jobqueue (see docs/counting.md). The workers run the same C counter on the same subproblems as
the threaded count (the classes counter's batches, the quadrant counter's ranges), and the results
come back here, so the same ledger records them: a count can be resumed with threads after a
cluster run, and the other way round.

Dask is an optional extra (`pip install 'queens[dask]'`); without it this raises
MissingExtra. Workers need this package installed at the same version.

A cluster on Slurm, with dask-jobqueue (`pip install dask-jobqueue`), in a Python session that
stays open on the login node:

    from dask_jobqueue import SLURMCluster
    cluster = SLURMCluster(cores=32, processes=32, memory="16GB", walltime="24:00:00")
    cluster.scale(jobs=8)               # 8 nodes, 32 single-threaded workers each
    print(cluster.scheduler_address)    # e.g. tcp://10.1.2.3:8786

then `queens count nqueens -n 23 --dask tcp://10.1.2.3:8786 --ledger q23.sqlite` from any
machine that reaches the scheduler (add --resume to continue after an interruption).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from typing import Any

from queens.models import QueensError, Unsupported
from queens.solvers.native.counting import Progress, Stats, SymmetryClasses, run_subproblems
from queens.solvers.native.quadrant import count_ranges, refuse_size
from queens.solvers.runtime.cores import default_threads
from queens.solvers.runtime.extras import require
from queens.solvers.runtime.ledger import Ledger

ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx)://[^\s/:]+(:\d+)?$")


def _quiet_stops() -> None:
    """Stopping a count with tasks in flight (Ctrl-C, a time limit) cancels their futures, and
    tornado logs each cancelled callback with a traceback: expected then, so silenced. Silenced
    from the start, since the count cancels its futures itself before it lets an interrupt go on
    (it raced with a silencing at shutdown: 1 run in 4 printed a traceback); a task that fails
    for real still reaches the count, as its future's exception. So is a local cluster's
    scheduler, which runs in this process: closed after the client, it could log at CRITICAL,
    with a traceback, that it could not tell the closed client of results its workers took with
    them ("Closed comm ... while trying to write [lost-data ...]": once in ten make test runs,
    on a terminal's Ctrl-C)."""
    logging.getLogger("tornado.application").setLevel(logging.CRITICAL)
    logging.getLogger("distributed.scheduler").setLevel(logging.CRITICAL + 1)


def local_workers(address: str, workers: int | None) -> int | None:
    """The worker processes a count starts on this machine: `workers` (default: all cores) for
    a LocalCluster, None for a remote cluster, which has the workers it has."""
    return (workers or default_threads()) if address == "local" else None


QUIET_WORKERS = {"distributed.worker.profile.enabled": False}
"""Dask settings for the workers of the clusters started here: their statistical profiler off. It
samples each worker's stack a hundred times a second for the dashboard, which these clusters do
not start (what it cost an idle two-worker cluster: experiments/results/suite-time.md)."""

NO_DASHBOARD: dict[str, Any] = {"dashboard_address": ":0", "scheduler_kwargs": {"dashboard": False}}
"""LocalCluster's keywords for the clusters started here: no dashboard, and the scheduler's HTTP
server (health, metrics) on any free port. Given no address, it took Dask's 8787, and a second
cluster started meanwhile (two counts, or a count beside a grid) warned "Port 8787 is already in
use", as would a user's own dashboard beside a count."""


def local_cluster(workers: int | None) -> Any:
    """A LocalCluster as `--dask local` starts it: `workers` single-threaded worker processes
    (distributed has no type hints, hence Any)."""
    import dask.config
    from distributed import LocalCluster

    with dask.config.set(QUIET_WORKERS):  # read by each worker's nanny as it is made
        return LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True,
            # CRITICAL: a worker that loses its scheduler while the count is stopped logs the
            # heartbeat's traceback at ERROR; a task's real failure reaches the count as an exception
            silence_logs=logging.CRITICAL, **NO_DASHBOARD,
            preload=["queens.solvers.native.dask_worker"])  # the workers ignore a terminal's Ctrl-C


CONNECT_TIMEOUT = "queens.connect-timeout"
"""How long a count waits for a remote scheduler (default 10 s), a Dask setting: Dask reads it from
its YAML files or from the environment (DASK_QUEENS__CONNECT_TIMEOUT=2s), as it reads its own."""


@contextmanager
def cluster(address: str, workers: int | None = None) -> Iterator[tuple[Executor, int]]:
    """A concurrent.futures executor on Dask and how many workers it has, for one count: a
    LocalCluster of `workers` processes started (and closed after) for "local", else the
    scheduler at `address` (tcp://host:8786), refused before any connection when malformed."""
    if address != "local" and not ADDRESS.match(address):  # before Dask is imported
        raise Unsupported(f"--dask takes 'local' or a scheduler address like tcp://host:8786, got {address!r}")
    require("dask", "--dask")
    import dask.config
    from distributed import Client
    with ExitStack() as stack:
        if address == "local":
            local = stack.enter_context(local_cluster(local_workers(address, workers)))
            client = stack.enter_context(Client(local))  # type: ignore[no-untyped-call]  # distributed: no hints
        else:
            try:
                client = stack.enter_context(Client(  # type: ignore[no-untyped-call]  # distributed: no hints
                    address, timeout=dask.config.get(CONNECT_TIMEOUT, default="10s")))
            except (OSError, TimeoutError) as error:
                raise QueensError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        _quiet_stops()
        yield client.get_executor(), len(client.scheduler_info().get("workers", {})) or 1


def count_classes_on_dask(n: int, address: str, *, workers: int | None = None, ledger: Ledger | None = None,
                          resume: bool = False, progress: Progress | None = None, deadline: float | None = None,
                          kernel: str = "auto", stats: Stats | None = None) -> SymmetryClasses:
    """Q(n) by symmetry class on Dask: `address` is "local" or a scheduler such as tcp://host:8786.

    `workers` sizes a local cluster (default: all cores); a remote cluster has the workers it has.
    """
    with cluster(address, workers) as (executor, count):
        return run_subproblems(n, executor, workers=count, ledger=ledger, resume=resume,
                               progress=progress, deadline=deadline, kernel=kernel, stop=None, stats=stats)


def count_total_on_dask(n: int, address: str, *, workers: int | None = None, ledger: Ledger | None = None,
                        resume: bool = False, progress: Progress | None = None, deadline: float | None = None,
                        stats: Stats | None = None) -> int:
    """Q(n) by the quadrant counter on Dask (`address`, `workers` as for count_classes_on_dask),
    its ranges recorded in the same ledger rows as a threaded count's. Every worker process
    builds its own tables, so the memory bound is checked per process before the cluster starts."""
    refuse_size(n, threads=1, processes=local_workers(address, workers) or 1)
    with cluster(address, workers) as (executor, _):
        return count_ranges(n, executor, ledger=ledger, resume=resume, progress=progress, deadline=deadline,
                            stats=stats, stop=None)
