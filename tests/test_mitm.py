"""The meet-in-the-middle counter (mitmcore.c, solvers/native/quadrant.py) against ground truth:
A000170 from tests/data/sequences.json and the backtracking counter (classcore.c), which share no
code with it; its 128-bit sums, memory bound, ledger and resume; and the router's choice, which
keeps it for a ledger, a resume and Dask, and leaves --unique (the classes) to native/classes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from queens.models import NQueens, Unsupported
from queens.models.errors import BadOption
from queens.solvers.backend import Task
from queens.solvers.native import _mitm
from queens.solvers.native.counting import count_classes
from queens.solvers.native.quadrant import KERNEL_VERSION, check_size, count_total, memory_limit, ranges
from queens.solvers.options import Options
from queens.solvers.routing.router import answer, route
from queens.solvers.routing.strategy import Subject
from queens.solvers.runtime.ledger import Ledger


@pytest.mark.parametrize("n", [*range(1, 17), pytest.param(17, marks=pytest.mark.slow)])  # 17: 7 s
def test_totals_match_oeis_and_the_backtracking_counter(n: int, reference) -> None:
    total = count_total(n)
    assert total == reference.term("A000170", n)
    assert total == count_classes(n).total


@pytest.mark.slow
@pytest.mark.parametrize("n", [18, 19])
def test_larger_totals_match_oeis(n: int, reference) -> None:
    assert count_total(n) == reference.term("A000170", n)


def test_threads_do_not_change_the_total(reference) -> None:
    assert count_total(13, threads=1) == count_total(13, threads=2) == reference.term("A000170", 13)


@pytest.mark.parametrize(("n", "scale"), [(10, 1 << 62), (12, (1 << 64) - 1), (14, 3 << 62)])
def test_sums_past_two_to_the_64_are_exact(n: int, scale: int, reference) -> None:
    """A test-only scale multiplies every subtotal, forcing the C sums past 2^63 and 2^64."""
    expected = reference.term("A000170", n) * scale
    assert expected >= 1 << 64
    assert count_total(n, scale=scale) == expected
    solutions, *_ = _mitm.count(n, 0, _mitm.sets(n), scale) or (0,)
    assert solutions == expected


def test_the_memory_bound_is_refused_before_any_work() -> None:
    reason = check_size(24, limit=4 << 30)
    assert reason is not None and "60.9 GiB" in reason and "limit of 4.0 GiB" in reason
    with pytest.raises(Unsupported, match="GiB"):
        count_total(32)  # past any machine's memory: 16! half-boards per set
    assert check_size(16) is None


@pytest.mark.skipif(not Path("/proc/meminfo").exists(), reason="reads the machine's memory from /proc/meminfo")
def test_the_memory_limit_is_half_the_machine() -> None:
    """Read from /proc/meminfo here, from sysconf there: within a page of each other."""
    total_kib = int(next(line for line in Path("/proc/meminfo").read_text().splitlines()
                         if line.startswith("MemTotal:")).split()[1])
    assert abs(memory_limit() - total_kib * 1024 // 2) <= 1 << 20


def test_ranges_cover_every_column_set_once() -> None:
    for n in (4, 9, 16):
        parts = ranges(n)
        assert parts[0][0] == 0 and parts[-1][1] == _mitm.sets(n)
        assert all(a[1] == b[0] for a, b in zip(parts, parts[1:], strict=False))


def test_a_resumed_count_skips_what_the_ledger_holds(tmp_path, reference) -> None:
    path = tmp_path / "ledger.sqlite"
    with Ledger(path) as ledger:
        assert count_total(12, ledger=ledger) == reference.term("A000170", 12)
        held = ledger.finished(12, KERNEL_VERSION)
        assert len(held) == len(ranges(12))
        kept = dict(list(held.items())[::2])  # as if the count had been killed half way
    partial = tmp_path / "partial.sqlite"
    with Ledger(partial) as ledger:
        ledger.record(12, KERNEL_VERSION, kept.items())
        stats: dict[str, int | float | str] = {}
        assert count_total(12, ledger=ledger, resume=True, stats=stats) == reference.term("A000170", 12)
        assert stats["resumed"] == len(kept)


def test_a_stopped_range_reports_nothing() -> None:
    assert _mitm.count(12, 0, _mitm.sets(12), 1, bytearray(b"\x01")) is None


@pytest.mark.parametrize(("call", "error"), [
    (lambda: _mitm.count(3, 0, 1), ValueError),
    (lambda: _mitm.count(12, 5, 4), ValueError),
    (lambda: _mitm.count(12, 0, 10**9), ValueError),
    (lambda: _mitm.count(12, 0, 1, 0), ValueError),
    (lambda: _mitm.sets(40), ValueError),
])
def test_the_extension_rejects_bad_arguments(call, error) -> None:
    with pytest.raises(error):
        call()


def test_the_router_counts_large_boards_by_meeting_in_the_middle(reference) -> None:
    assert route(Task.COUNT, Subject(NQueens(16))).strategy.name == "native/quadrant"
    assert route(Task.COUNT, Subject(NQueens(15))).strategy.name == "native/classes"  # below the crossover
    found = answer(Task.COUNT, NQueens(16))
    assert (found.count, found.backend, found.method) == (reference.term("A000170", 16), "native", "quadrant")


def test_the_router_keeps_it_for_ledgers_resumes_and_dask_but_not_classes(tmp_path) -> None:
    ledger = tmp_path / "ledger.sqlite"
    Ledger(ledger).close()
    subject = Subject(NQueens(16))
    kept: list[Options] = [{"ledger": str(ledger)}, {"ledger": str(ledger), "resume": True}, {"dask": "local"},
                           {"dask": "tcp://127.0.0.1:8786"}, {"threads": 1}]
    for options in kept:
        assert route(Task.COUNT, subject, options=options).strategy.name == "native/quadrant", options
    assert route(Task.COUNT, subject, options={"unique": True, "ledger": str(ledger)}).strategy.name == "native/classes"
    with pytest.raises(BadOption, match=r"native/quadrant: counts totals only; .*\(--unique\) are native/classes's"):
        route(Task.COUNT, subject, method="quadrant", options={"unique": True})


@pytest.mark.parametrize("matcher", ["scalar", "avx2", "avx512"])
def test_every_matcher_counts_alike(matcher: str, reference) -> None:
    """QUEENS_MITM_MATCHER forces a matcher (one this CPU lacks falls back to what it runs):
    each path is checked in a fresh interpreter, since the choice is made once per process.
    Each joins sliced at its own width (128, 256, 512 bits), cutting 2 of n = 17's 32 diagonal
    bits at least; scalar lists through its own pairer (pair_lacking), the others in vectors."""
    code = ("from queens.solvers.native import _mitm; "
            "print(_mitm.MATCHER, *(_mitm.count(n, 0, _mitm.sets(n))[0] for n in (15, 16, 17)))")
    env = {**os.environ, "QUEENS_MITM_MATCHER": matcher}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout.split()
    assert out[0] in {"scalar", "avx2", "avx512"} and (out[0] == matcher or matcher != "scalar")
    assert [int(v) for v in out[1:]] == [reference.term("A000170", n) for n in (15, 16, 17)]
