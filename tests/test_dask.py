"""The native counters' subproblems on Dask: a LocalCluster of 2 workers gives the threaded total,
for the classes counter's batches and the quadrant counter's ranges, in ledgers shared with threads."""

from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from queens.models import BackendUnavailable
from queens.solvers.native.counting import KERNEL_VERSION, count_classes, subproblems
from queens.solvers.native.distributed import count_classes_on_dask, count_total_on_dask
from queens.solvers.native.quadrant import KERNEL_VERSION as QUADRANT_VERSION
from queens.solvers.native.quadrant import count_total, ranges
from queens.solvers.runtime.ledger import Ledger

from tests.cli import run_cli

needs_dask = pytest.mark.skipif(find_spec("distributed") is None,
                                reason="Dask is an optional extra: pip install -e '.[dask]'")


def test_without_dask_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    with pytest.raises(BackendUnavailable, match=r"pip install -e '\.\[dask\]'"):
        count_classes_on_dask(8, "local")


@needs_dask
def test_a_local_cluster_matches_the_threaded_count(tmp_path: Path, dask_cluster: str) -> None:
    with Ledger(tmp_path / "ledger.sqlite") as ledger:
        on_dask = count_classes_on_dask(13, dask_cluster, ledger=ledger)
        assert on_dask == count_classes(13, threads=2)
        assert len(ledger.finished(13, KERNEL_VERSION)) == len(subproblems(13))
        # the same ledger resumes on threads: nothing left to count, same classes
        assert count_classes(13, ledger=ledger, resume=True) == on_dask


@needs_dask
def test_cli_dask_local(reference) -> None:
    result = run_cli("count", "nqueens", "-n", "11", "--dask", "local", "--threads", "2", "--unique", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["count"] == reference.term("A000170", 11)
    assert payload["details"]["fundamental"] == reference.term("A002562", 11)


@needs_dask
@pytest.mark.parametrize("n", [pytest.param(12, marks=pytest.mark.slow), 13, pytest.param(14, marks=pytest.mark.slow)])
# odd n in make test (the even and odd halves of the meeting differ in the counter, whose threads
# count every n in tests/test_mitm.py; on Dask it is the same call), even n in make test-slow
def test_cli_dask_local_counts_by_meeting_in_the_middle(n: int, reference) -> None:
    result = run_cli("count", "nqueens", "-n", str(n), "--method", "quadrant", "--dask", "local", "--threads", "2",
                     "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert (payload["method"], payload["count"]) == ("quadrant", reference.term("A000170", n))
    assert payload["stats"]["workers"] == "Dask local" and payload["stats"]["subproblems"] == len(ranges(n))


@needs_dask
def test_a_quadrant_ledger_passes_between_threads_and_dask(tmp_path: Path, reference, dask_cluster: str) -> None:
    """Threads count Q(14) and a third of their ranges is kept, as if killed; Dask resumes that
    ledger, counting only the rest; threads then resume the ledger Dask completed, counting nothing."""
    expected = reference.term("A000170", 14)
    with Ledger(tmp_path / "threads.sqlite") as ledger:
        assert count_total(14, threads=2, ledger=ledger) == expected
        kept = dict(list(ledger.finished(14, QUADRANT_VERSION).items())[::3])
    with Ledger(tmp_path / "ledger.sqlite") as ledger:
        ledger.record(14, QUADRANT_VERSION, kept.items())
        stats: dict[str, int | float | str] = {}
        assert count_total_on_dask(14, dask_cluster, ledger=ledger, resume=True, stats=stats) == expected
        assert stats["resumed"] == len(kept) and len(ledger.finished(14, QUADRANT_VERSION)) == len(ranges(14))
        assert count_total(14, threads=1, ledger=ledger, resume=True, stats=stats) == expected
        assert stats["resumed"] == len(ranges(14))


@needs_dask
@pytest.mark.parametrize("address", ["nonsense", "http://example.org", "tcp://"])
def test_a_malformed_scheduler_address_is_a_clear_error(address: str) -> None:
    result = run_cli("count", "nqueens", "-n", "8", "--dask", address)
    assert result.returncode == 1
    assert "scheduler address" in result.stderr and "Traceback" not in result.stderr


@needs_dask
def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    result = run_cli("count", "nqueens", "-n", "8", "--dask", "tcp://127.0.0.1:9", timeout=120,
                     env={"DASK_QUEENS__CONNECT_TIMEOUT": "2s"})  # Dask's own setting; 10 s by default
    assert result.returncode == 1
    assert "cannot reach the Dask scheduler" in result.stderr and "Traceback" not in result.stderr


@needs_dask
def test_two_local_clusters_at_once_take_no_fixed_port(recwarn: pytest.WarningsRecorder) -> None:
    """Each local cluster's scheduler serves HTTP (health, metrics) on a free port of its own and
    draws no dashboard: on Dask's 8787, the second of two clusters started together (two counts,
    a count beside a grid, a user's own dashboard) warned that the port was taken. (Clusters of
    no worker: the scheduler is what is tested.)"""
    from queens.solvers.native.distributed import local_cluster

    with local_cluster(0) as first, local_cluster(0) as second:
        ports = {cluster.scheduler.http_server.port for cluster in (first, second)}
        assert len(ports) == 2 and 8787 not in ports
    assert [str(warning.message) for warning in recwarn if "already in use" in str(warning.message)] == []
