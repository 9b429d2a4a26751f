"""The fast counter's subproblems on a Dask cluster: a local one, or one running elsewhere.

`address="local"` starts a LocalCluster on this machine (one single-threaded worker process per
core); `"tcp://host:8786"` connects to a running scheduler, e.g. one started on Slurm with
dask-jobqueue (see the README). The workers run the same C counter on the same subproblems as
the threaded count, and the results come back here, so the same ledger records them: a count
can be resumed with threads after a cluster run, and the other way round.

Dask is an optional extra (`pip install -e '.[dask]'`); without it this raises
BackendUnavailable. Workers need this package installed at the same version.

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
from contextlib import ExitStack

from queens.models import BackendUnavailable, QueensError, Unsupported
from queens.solvers.native.counting import Progress, Stats, SymmetryClasses, run_subproblems
from queens.solvers.native.ledger import Ledger
from queens.solvers.threads import default_threads

ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx)://[^\s/:]+(:\d+)?$")


def _quiet_cancellations() -> None:
    """Stopping a count with tasks in flight (Ctrl-C, a time limit) cancels their futures, and
    tornado logs each cancelled callback with a traceback: expected then, so silenced. Silenced
    from the start, since the count cancels its futures itself before it lets an interrupt go on
    (it raced with a silencing at shutdown: 1 run in 4 printed a traceback); a task that fails
    for real still reaches the count, as its future's exception."""
    logging.getLogger("tornado.application").setLevel(logging.CRITICAL)


def count_classes_on_dask(n: int, address: str, *, workers: int | None = None, ledger: Ledger | None = None,
                          resume: bool = False, progress: Progress | None = None, deadline: float | None = None,
                          kernel: str = "auto", stats: Stats | None = None) -> SymmetryClasses:
    """Q(n) by symmetry class on Dask: `address` is "local" or a scheduler such as tcp://host:8786.

    `workers` sizes a local cluster (default: all cores); a remote cluster has the workers it has.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BackendUnavailable("Dask is not installed; install the extra: pip install -e '.[dask]'") from None
    if address != "local" and not ADDRESS.match(address):
        raise Unsupported(f"--dask takes 'local' or a scheduler address like tcp://host:8786, got {address!r}")
    with ExitStack() as stack:
        if address == "local":
            cluster = stack.enter_context(LocalCluster(  # type: ignore[no-untyped-call]  # distributed: no hints
                n_workers=workers or default_threads(), threads_per_worker=1, processes=True,
                # CRITICAL: a worker that loses its scheduler while the count is stopped logs the
                # heartbeat's traceback at ERROR; a task's real failure reaches the count as an exception
                dashboard_address=None, silence_logs=logging.CRITICAL,
                preload=["queens.solvers.native.dask_worker"]))  # the workers ignore a terminal's Ctrl-C
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]  # distributed: no hints
        else:
            try:
                client = stack.enter_context(Client(address, timeout="10s"))  # type: ignore[no-untyped-call]  # distributed: no hints
            except (OSError, TimeoutError) as error:
                raise QueensError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        _quiet_cancellations()
        count = len(client.scheduler_info().get("workers", {})) or 1
        return run_subproblems(n, client.get_executor(), workers=count, ledger=ledger, resume=resume,
                               progress=progress, deadline=deadline, kernel=kernel, stop=None, stats=stats)
