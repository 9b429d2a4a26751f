"""A call that cannot be interrupted is killed at its deadline (queens.solvers.runtime.deadline_child),
and so is a split pool's worker (queens.solvers.runtime.process_pool): what they reported is kept as a
bound, what they raise is raised here, and nothing they started is left running.

The functions below never finish by themselves (they sleep in C, where no clock is read), so
reaching the end of a test shows the kill happened; nothing here measures how long it took.
"""

from __future__ import annotations

import faulthandler
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

import pytest
from queens.models import AttackingQueens, BackendError, TimeLimit
from queens.solvers import Status
from queens.solvers.api import with_deadline
from queens.solvers.runtime.deadline_child import call_until
from queens.solvers.runtime.process_pool import run_in_processes
from queens.solvers.runtime.progress import Progress, listening, report

FOREVER = 3600.0


def _sleep_after_reporting(solutions: int | None, bound: int | None = None) -> NoReturn:
    """Stands in for a Result-returning search that is killed before it answers."""
    report(Progress(solutions=solutions, bound=bound))
    time.sleep(FOREVER)
    raise AssertionError(f"not killed within {FOREVER:g} s")


def _raise_attacking() -> None:
    raise AttackingQueens((0, 0), (1, 1))


def _start_grandchild(pid_file: Path, own_group: bool) -> None:
    """Start a process that sleeps for ever, in this process's group or (as the MiniZinc binary
    starts its solver) in a group of its own, out of reach of a kill to this one's."""
    grandchild = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({FOREVER})"],
                                  process_group=0 if own_group else None)
    pid_file.write_text(str(grandchild.pid))
    time.sleep(FOREVER)


def _alive(pid: int) -> bool:
    """Running (not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_call_past_its_deadline_is_killed_and_keeps_what_it_reported() -> None:
    seen: list[Progress] = []
    with listening(seen.append), pytest.raises(TimeLimit) as stopped:
        call_until(time.monotonic() + 2.0, _sleep_after_reporting, 41)
    assert stopped.value.partial == 41
    assert Progress(solutions=41) in seen  # the child's report reached this process's listeners


def test_a_minimisation_killed_past_its_deadline_keeps_its_lower_bound() -> None:
    """A minimiser reports each k it starts on (every smaller k refuted); killed while it could
    not stop (CaDiCaL on a loaded machine: CI saw a 3 s limit end without a bound), the answer
    still carries the bound."""
    result = with_deadline(time.monotonic() + 1.0, "sat", _sleep_after_reporting, None, 5)
    assert result.status is Status.LIMIT and result.solutions == ()
    assert result.stats["bound"] == 5
    assert "could not be interrupted" in str(result.stats["stopped"])


def test_the_call_answers_here_with_its_value_or_its_error() -> None:
    assert call_until(time.monotonic() + 30, sorted, [3, 1, 2]) == [1, 2, 3]
    with pytest.raises(AttackingQueens) as raised:
        call_until(time.monotonic() + 30, _raise_attacking)
    assert (raised.value.first, raised.value.second) == ((0, 0), (1, 1))
    assert "attack each other" in str(raised.value)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")
@pytest.mark.parametrize("own_group", [False, True], ids=["in its group", "in a group of its own"])
def test_what_the_child_started_is_killed_with_it(tmp_path: Path, own_group: bool) -> None:
    pid_file = tmp_path / "grandchild"
    with pytest.raises(TimeLimit):
        call_until(time.monotonic() + 2.0, _start_grandchild, pid_file, own_group)
    pid = int(pid_file.read_text())
    give_up = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < give_up:  # the kernel may take a moment to reap it
        time.sleep(0.05)
    assert not _alive(pid)


def test_a_pool_worker_past_the_deadline_is_killed_and_the_others_kept() -> None:
    finished: list[int] = []
    results = run_in_processes(_sleep_or_square, [(3,), (-1,), (4,)], workers=3,
                               deadline=time.monotonic() + 6.0, finished=lambda i, _: finished.append(i))
    assert results == [9, None, 16]
    assert sorted(finished) == [0, 2]


def _sleep_or_square(x: int) -> int:
    if x < 0:
        time.sleep(FOREVER)
    return x * x


def test_no_deadline_no_child() -> None:
    assert call_until(None, os.getpid) == os.getpid()


def _abort_quietly() -> None:
    """os.abort with pytest's fault handler off in the child: the parent says how it died."""
    faulthandler.disable()
    os.abort()


def test_a_child_that_dies_is_an_error_that_says_how() -> None:
    with pytest.raises(BackendError, match="SIGABRT"):
        call_until(time.monotonic() + 30, _abort_quietly)
