"""Faults in distributed counting, on a real cluster: a `dask scheduler` and two `dask worker`
processes on loopback, started here as subprocesses; for each counter that keeps a ledger
(native/classes's batches of subproblems, native/quadrant's ranges).

- A worker killed with SIGKILL mid-count: the scheduler hands its tasks to the other worker and
  the count ends with the exact total; the ledger holds each subproblem once.
- The client (the `queens` process) killed with SIGKILL mid-count: `--resume` on the same
  cluster reuses what the ledger kept and ends with the exact total.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from queens.solvers.routing.ledgered_count import LedgeredCount
from queens.solvers.routing.strategies import registered

from tests.cli import run_cli, start_cli
from tests.ledger_file import rows

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_spec("distributed") is None, reason="Dask is an optional extra")]

DASK = Path(sys.executable).parent / "dask"
GIVE_UP = 180.0
LEDGERED = {strategy.method: strategy for strategy in registered() if isinstance(strategy, LedgeredCount)}
SIZE = {"classes": 16, "quadrant": 18}
"""A board each counter takes a few seconds over on two workers: the faults land mid-count."""
COUNTERS = [pytest.param(method, SIZE[method], len(strategy.ledgered(SIZE[method])[1]), id=method)
            for method, strategy in LEDGERED.items()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def workers_alive(address: str) -> int:
    """How many workers the scheduler has."""
    from distributed import Client

    with Client(address, timeout="30s") as client:
        return len(client.scheduler_info()["workers"])


@dataclass
class Cluster:
    address: str
    workers: list[subprocess.Popen[bytes]]


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A scheduler and two single-threaded workers without nannies (a killed worker stays dead)."""
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    started = [subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                 "--no-dashboard"], **quiet)]
    try:
        started += [subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--no-nanny",
                                      "--no-dashboard", "--host", "127.0.0.1"], **quiet) for _ in range(2)]
        from distributed import Client

        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=GIVE_UP)
        yield Cluster(address, started[1:])
    finally:
        for process in started:
            process.kill()
            process.wait()


def count_until_rows(address: str, ledger: Path, method: str, n: int) -> subprocess.Popen[Any]:
    """Q(n) by `method` on the cluster, returned running once the ledger holds a finished subproblem."""
    counting = start_cli("count", "nqueens", "-n", str(n), "--method", method, "--dask", address, "--ledger",
                         str(ledger), "--json", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    give_up = time.monotonic() + GIVE_UP
    while rows(ledger) == 0:
        if counting.poll() is not None or time.monotonic() > give_up:
            counting.kill()
            pytest.fail(f"the count ended or stalled before recording anything: {counting.communicate()}")
        time.sleep(0.01)  # polling, not a timed assertion
    return counting


@pytest.mark.parametrize("method,n,subproblems", COUNTERS)
def test_a_worker_killed_mid_count_costs_nothing(method: str, n: int, subproblems: int, cluster: Cluster,
                                                 tmp_path: Path, reference) -> None:
    ledger = tmp_path / "ledger.sqlite"
    counting = count_until_rows(cluster.address, ledger, method, n)
    try:
        assert rows(ledger) < subproblems  # still counting when the worker dies
        cluster.workers[0].send_signal(signal.SIGKILL)
        stdout, stderr = counting.communicate(timeout=GIVE_UP)
    finally:
        counting.kill()
    assert counting.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert (json.loads(stdout)["method"], json.loads(stdout)["count"]) == (method, reference.term("A000170", n))
    assert rows(ledger) == subproblems  # every subproblem once: retries deduplicated
    assert cluster.workers[0].wait(timeout=GIVE_UP) == -signal.SIGKILL and workers_alive(cluster.address) == 1


@pytest.mark.parametrize("method,n,subproblems", COUNTERS)
def test_a_client_killed_mid_count_resumes_to_the_exact_total(method: str, n: int, subproblems: int, cluster: Cluster,
                                                             tmp_path: Path, reference) -> None:
    ledger = tmp_path / "ledger.sqlite"
    counting = count_until_rows(cluster.address, ledger, method, n)
    try:
        counting.send_signal(signal.SIGKILL)
        counting.wait(timeout=GIVE_UP)
    finally:
        counting.kill()
    kept = rows(ledger)
    assert 0 < kept < subproblems
    resumed = run_cli("count", "nqueens", "-n", str(n), "--method", method, "--dask", cluster.address, "--ledger",
                      str(ledger), "--resume", "--json", timeout=GIVE_UP)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept:,} of {subproblems:,} subproblems already counted" in resumed.stderr
    assert json.loads(resumed.stdout)["count"] == reference.term("A000170", n)
    assert rows(ledger) == subproblems
