"""Ctrl-C and SIGTERM at any moment: a real `queens` process is signalled while it starts, while
it counts on each path (threads and Dask, for both native counters; the split process pool,
CP-SAT enumeration, the forked child a time limit runs a search in, the pool killed at its
deadline), while a native search or a SAT solver runs in this very process, and while it
writes its output. Each time: exit
130, no traceback, no C++ abort, no leaked semaphore, and no process it started is left
running (found by an environment marker every descendant inherits). The searches in this
process must stop promptly too: they used to run on for minutes, deaf to both signals, or
(CaDiCaL) abort with exit 134 when the signal landed inside the solver, or (the MiniZinc
binary, which this process waits for) block for ever on a pipe nobody read any more, or (one
CP-SAT solve: one question of a minimisation, or a whole optimisation) wait for its end.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import sysconfig
import time
import uuid
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

import pytest
from queens.models import NQueens, lower
from queens.solvers.backends.minizinc import MiniZinc
from queens.solvers.runtime import interrupts

from tests.cli import SCRIPT
from tests.ledger_file import rows
from tests.process_table import MARKER, processes_marked

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table in /proc")

BROKEN = ("Traceback", "terminate called", "leaked semaphore", "Abort", "core dumped")
GIVE_UP = 120.0
"""Seconds to wait for a moment that must come (the test fails, never passes, on giving up)."""
STOPS_WITHIN = 10.0
"""Seconds a search in this process may take to stop (it takes well under one): generous, so that
only a search deaf to the signal, which used to run on for minutes, exceeds it."""
DATA = Path(__file__).parent / "data"


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (0 once it is gone)."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int, marker: str) -> list[int]:
    return [p for p in processes_marked(marker) if p != pid]


def wait_for(condition: Callable[[], bool], process: subprocess.Popen[bytes]) -> None:
    """Poll until `condition` holds; fail if the process ended first or it never comes."""
    give_up = time.monotonic() + GIVE_UP
    while not condition():
        if process.poll() is not None or time.monotonic() > give_up:
            process.kill()
            pytest.fail("the moment to interrupt never came (the process ended or stalled)")
        time.sleep(0.02)  # polling, not a timed assertion


def started(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """At once: the interpreter is starting or still importing."""


def importing(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """Python is up and loading the CLI's imports (click, rich, numpy, OR-Tools: most of a second)."""
    wait_for(lambda: cpu_seconds(process.pid) > 0.15, process)


def counting_natively(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    wait_for(lambda: rows(tmp / "ledger.sqlite") > 0, process)


def pool_starting(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """The split pool's workers are being spawned (importing): where `timeout`'s signals hung it."""
    wait_for(lambda: len(children(process.pid, marker)) >= 2, process)


def pool_counting(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """The split pool's workers have started and are at work (importing, then searching)."""
    wait_for(lambda: sum(cpu_seconds(child) for child in children(process.pid, marker)) > 1, process)


def child_working(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """The forked child that a time limit puts the search in (its own process group) is at work."""
    wait_for(lambda: sum(cpu_seconds(child) for child in children(process.pid, marker)) > 0.5, process)


def enumerating(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """CP-SAT enumerates in this process: past the "counting" line, and computing."""
    assert process.stderr is not None
    while b"counting" not in (line := process.stderr.readline()):
        if not line:
            pytest.fail("the count ended before it began")
    base = cpu_seconds(process.pid)
    wait_for(lambda: cpu_seconds(process.pid) > base + 0.5, process)


def working(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """The command said what it is doing ("solving ...", "counting ...") and computes on."""
    assert process.stderr is not None
    while not (line := process.stderr.readline()).rstrip().endswith(b"..."):
        if not line:
            pytest.fail("the command ended before it began")
    base = cpu_seconds(process.pid)
    wait_for(lambda: cpu_seconds(process.pid) > base + 0.5, process)


def deep_in_work(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """A command that says nothing while it works (`why`) has used 3 s of CPU: its imports take
    one, so it is well into the work."""
    wait_for(lambda: cpu_seconds(process.pid) > 3.0, process)


def answered(process: subprocess.Popen[bytes]) -> None:
    """Past the line that says the answer was found ("optimal: ..."): certifying comes next."""
    assert process.stderr is not None
    while not (line := process.stderr.readline()).startswith(b"optimal"):
        if not line:
            pytest.fail("the command ended before it answered")


def certifying(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """--certify: the answer is in, and the proof's solve (pysat, in this process) is under way."""
    answered(process)
    base = cpu_seconds(process.pid)
    wait_for(lambda: cpu_seconds(process.pid) > base + 0.5, process)


def checking_steps(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """--certify: the trimmed proof's steps are shared by drup's forked workers (a proof of 27,077
    steps on 2 cores), which are at work; the racers that found the answer are gone."""
    answered(process)
    racers = set(children(process.pid, marker))
    wait_for(lambda: sum(cpu_seconds(child) for child in children(process.pid, marker) if child not in racers) > 0.5,
             process)


def writing(process: subprocess.Popen[bytes], marker: str, tmp: Path) -> None:
    """The output has begun (and, unread, fills the pipe)."""
    assert process.stdout is not None
    process.stdout.read(4096)


MINIZINC_MISSING = MiniZinc().supports(lower(NQueens(4)))
DASK_MISSING = pytest.mark.skipif(find_spec("distributed") is None, reason="Dask is an optional extra")
NEEDS = {"dask": DASK_MISSING, "dask, the terminal's Ctrl-C": DASK_MISSING,
         "quadrant dask, the terminal's Ctrl-C": DASK_MISSING,
         "minizinc": pytest.mark.skipif(MINIZINC_MISSING is not None, reason=str(MINIZINC_MISSING))}
MOMENTS = {
    "start-up": (["count", "nqueens", "-n", "8", "-b", "native"], started),
    "imports": (["count", "nqueens", "-n", "8", "-b", "native"], importing),
    "threads": (["count", "nqueens", "-n", "17", "--method", "classes", "--threads", "1", "--ledger",
                 "{tmp}/ledger.sqlite"], counting_natively),
    "quadrant threads": (["count", "nqueens", "-n", "19", "--threads", "1", "--ledger", "{tmp}/ledger.sqlite"],
                         counting_natively),
    "split pool": (["count", "nqueens", "-n", "14", "-b", "cpsat"], pool_counting),
    "cpsat enumeration": (["count", "nqueens", "-n", "11", "-b", "cpsat", "--no-symmetry"], enumerating),
    "solve child": (["solve", "nqueens", "-n", "600", "-b", "csp", "--time-limit", "600"], child_working),
    "count child": (["count", "nqueens", "-n", "11", "-b", "cpsat", "--no-symmetry", "--time-limit", "600"],
                    child_working),
    "split pool with a limit": (["count", "nqueens", "-n", "14", "-b", "sat", "--time-limit", "600", "--progress"],
                                pool_counting),
    "dask": (["count", "nqueens", "-n", "17", "--method", "classes", "--dask", "local", "--threads", "2", "--ledger",
              "{tmp}/ledger.sqlite"], counting_natively),
    "dask, the terminal's Ctrl-C": (["count", "nqueens", "-n", "17", "--method", "classes", "--dask", "local",
                                      "--threads", "2", "--ledger", "{tmp}/ledger.sqlite"], counting_natively),
    "quadrant dask, the terminal's Ctrl-C": (["count", "nqueens", "-n", "19", "--dask", "local", "--threads", "2",
                                               "--ledger", "{tmp}/ledger.sqlite"], counting_natively),
    "split pool, the terminal's Ctrl-C": (["count", "nqueens", "-n", "14", "-b", "cpsat"], pool_counting),
    "split pool, timeout's two signals": (["count", "nqueens", "-n", "19", "-b", "csp"], pool_starting),
    "output": (["trace", "nqueens", "-n", "10"], writing),
    "native search": (["count", "knights", "-n", "8", "--pieces", "16", "-b", "native"], working),
    "native search of a puzzle file": (["solve", "{data}/most-kings.toml", "-n", "10", "-b", "native"], working),
    "line counter": (["count", "two-per-line", "-n", "8"], working),
    "native optimum by the line counter": (["solve", "peaceable", "-n", "6", "-b", "native"], working),
    "certify's proof": (["solve", "domination", "-n", "8", "--certify"], certifying),
    "certify's step workers": (["solve", "domination", "-n", "8", "--certify"], checking_steps),
    "why": (["why", "{data}/why-hitting-sets.toml"], deep_in_work),
    "native local search": (["solve", "nqueens", "-n", "50000000", "--method", "random"], working),
    "sat enumeration": (["count", "nqueens", "-n", "14", "-b", "sat", "--method", "search", "--no-symmetry"],
                        working),
    "sat minimisation": (["solve", "domination", "-n", "12", "-b", "sat"], working),
    "minizinc": (["count", "nqueens", "-n", "16", "-b", "minizinc"], working),
    "cpsat minimisation": (["solve", "domination", "-n", "12", "-b", "cpsat"], working),
    "cpsat optimisation": (["solve", "peaceable", "-n", "10", "-b", "cpsat"], working),
    "mip minimisation, HiGHS": (["solve", "domination", "-n", "12", "-b", "mip"], working),
    "mip minimisation, SCIP": (["solve", "domination", "-n", "12", "-b", "mip", "--solver", "scip"], working),
}
IN_PROCESS = {"native search", "native search of a puzzle file", "native local search", "sat enumeration",
              "sat minimisation", "minizinc", "cpsat minimisation", "cpsat optimisation",
              "mip minimisation, HiGHS", "mip minimisation, SCIP", "line counter",
              "native optimum by the line counter", "certify's proof", "certify's step workers", "why"}
"""The moments whose search runs in the `queens` process itself, without the GIL: they must stop
within STOPS_WITHIN of the signal (HiGHS cannot be halted: the process ends beside it; mip's
minimisation took 38-42 s to stop before; the line counter ran to its end, 30 s and more, and a
native optimum through it for minutes; --certify's proof, solved by pysat on the main thread,
ended "internal error: Caught keyboard interrupt", exit 1, and SIGTERM waited for the solve)."""
TO_THE_GROUP = {"dask, the terminal's Ctrl-C", "quadrant dask, the terminal's Ctrl-C",
                "split pool, the terminal's Ctrl-C", "split pool, timeout's two signals"}
"""The moments signalled as a terminal signals: the whole process group, the workers too (Dask's
each printed a KeyboardInterrupt traceback)."""
TWICE = {"split pool, timeout's two signals"}
"""Signalled as `timeout` signals: the command, then its group. The second signal landed between
the stop and the kill of a worker, which stayed stopped while the command waited for it: `timeout
4 queens count nqueens -n 19 -b csp` (and cpsat) ran on past 60 s in 2 of 3 rounds."""


SLOW = {"certify's step workers"}
"""Moments that take past 12 s to reach (a proof solved and trimmed first): `make test-slow`."""
BOTH_SIGNALS = {"start-up", "imports", *TO_THE_GROUP} - {"quadrant dask, the terminal's Ctrl-C"}
"""Moments where SIGTERM takes another path than SIGINT: before our handlers exist (Python's own
defaults differ), and where other processes get it too (Dask's workers handle SIGTERM
themselves: the group's moments; once for Dask, since the workers' SIGTERM is the same whichever
counter sent them work). Elsewhere, a Dask count signalled alone included, both are raised as
the same KeyboardInterrupt by one handler (`queens.solvers.runtime.interrupts`), so the SIGTERM
copy of those moments runs in `make test-slow` (it doubled this file's 90 s in `make test`)."""


def _marks(name: str, signum: int) -> list[pytest.MarkDecorator]:
    slow = name in SLOW or (signum == signal.SIGTERM and name not in BOTH_SIGNALS)
    return [*([NEEDS[name]] if name in NEEDS else []), *([pytest.mark.slow] if slow else [])]


@pytest.mark.parametrize(("moment", "signum"), [
    pytest.param(name, signum, id=f"{name}-{signum.name}", marks=_marks(name, signum))
    for name in MOMENTS for signum in (signal.SIGINT, signal.SIGTERM)])
def test_an_interruption_is_clean(moment: str, signum: int, tmp_path: Path) -> None:
    args, reach = MOMENTS[moment]
    marker = uuid.uuid4().hex
    env = {**os.environ, MARKER: marker, "COLUMNS": "200"}
    env.pop("QUEENS_DEBUG", None)
    process = subprocess.Popen([str(SCRIPT), *(a.format(tmp=tmp_path, data=DATA) for a in args)], env=env,
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=_as_a_terminal_starts_it)
    try:
        reach(process, marker, tmp_path)
        if moment in TWICE:  # as `timeout` does: the command, then its whole group
            process.send_signal(signum)
        if moment in TO_THE_GROUP:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        signalled = time.monotonic()
        _, stderr = process.communicate(timeout=STOPS_WITHIN if moment in IN_PROCESS else GIVE_UP)
        stopped_after = time.monotonic() - signalled
    finally:
        process.kill()
    text = stderr.decode(errors="replace")
    if moment == "start-up" and _in_interpreter_start_up(text):
        assert process.returncode == 1
        return
    # at start-up the signal may come before Python's handlers exist: killed by it, silently
    allowed = {130, -signum} if moment == "start-up" else {130}
    assert process.returncode in allowed, text
    assert not [word for word in BROKEN if word in text], text
    assert moment not in IN_PROCESS or stopped_after < STOPS_WITHIN
    left = processes_marked(marker)
    give_up = time.monotonic() + GIVE_UP
    while left and time.monotonic() < give_up:  # children killed by the parent may take a moment to go
        time.sleep(0.05)
        left = processes_marked(marker)
    assert left == [], f"left running: {left}"
    if "ledger" in " ".join(args):
        assert rows(tmp_path / "ledger.sqlite") > 0  # what finished is kept


def _as_a_terminal_starts_it() -> None:
    """In the child, before it runs the command: SIGINT and SIGTERM at their default actions, as a
    terminal's foreground job starts. A non-interactive shell starts its background jobs with
    SIGINT ignored (`make test &`, or a CI runner doing so), the suite inherited that, and so did
    the command: a Ctrl-C at start-up, before the command's handlers were in, was ignored and the
    count ran to its end (exit 0, 20 starts in 20 so launched; 1 make test in 9 here)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


def _in_interpreter_start_up(text: str) -> bool:
    """Whether the signal landed while the interpreter was still starting (site's .pth files, the
    editable install's import hook), before any code of ours ran: Python reports that itself, a
    KeyboardInterrupt traceback whose every frame is its own (frozen or the standard library's,
    which the import hook imports: pathlib, re, enum) or site-packages', and exits 1 (1 lone-clone
    run in about 10). Nothing of the command can handle it; anywhere later the contract holds."""
    frames = re.findall(r'^\s*File "([^"]+)"', text, flags=re.MULTILINE)
    python_own = (sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])
    return (text.rstrip().endswith("KeyboardInterrupt") and bool(frames)
            and all(frame.startswith(("<", *python_own)) or "site-packages" in frame for frame in frames))


class _Dropped:
    """An object whose finaliser the signal lands in, as it landed in Dask's Future.__del__."""

    def __del__(self) -> None:
        interrupts.handler(signal.SIGINT, sys._getframe())


def test_a_signal_in_a_finaliser_is_kept_for_the_next_beat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Raised inside __del__, the KeyboardInterrupt would be printed and dropped, and the count
    went on to its end (exit 0): the handler keeps it, and the wait's next check raises it."""
    monkeypatch.setattr(interrupts, "_signalled", False)
    interrupts.check()  # nothing came: nothing raised
    _Dropped()  # collected at once: the handler runs inside its finaliser
    assert interrupts.signalled()
    with pytest.raises(KeyboardInterrupt):
        interrupts.check()


def test_a_signal_elsewhere_is_raised_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interrupts, "_signalled", False)
    with pytest.raises(KeyboardInterrupt):
        interrupts.handler(signal.SIGTERM, sys._getframe())
    assert interrupts.signalled()


MINIZINC_INTERRUPTED = """
import os, signal, threading
from queens import count
from queens.solvers.runtime import interrupts
from queens.models import NQueens
from queens.solvers.backends.minizinc import MiniZinc
interrupts.install()
MiniZinc()  # its solver looked up (and probed: a run of the binary) before the clock starts, once
threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    count(NQueens(16), backend="minizinc")
except KeyboardInterrupt as error:
    frame = error.__traceback__
    while frame.tb_next:
        frame = frame.tb_next
    print(frame.tb_frame.f_code.co_name, os.path.basename(frame.tb_frame.f_code.co_filename))
"""


@pytest.mark.skipif(MINIZINC_MISSING is not None, reason=str(MINIZINC_MISSING))
def test_a_signal_during_minizinc_is_raised_outside_the_event_loop() -> None:
    """The KeyboardInterrupt must come from `interrupts.check` between two slices of the loop,
    never from inside asyncio's machinery (the handler raising in the middle of the loop lost a
    task's wake-up, and closing the loop printed tracebacks: 1 CI run). Before the fix the
    innermost frame was the handler itself, called inside the loop's select."""
    done = subprocess.run([sys.executable, "-c", MINIZINC_INTERRUPTED], capture_output=True, text=True,
                          timeout=GIVE_UP)
    assert done.stdout.split() == ["check", "interrupts.py"], done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr


SECOND_SIGNAL = """
import os, signal, subprocess, sys
from queens.solvers.runtime import interrupts
from queens.solvers.runtime import deadline_child
interrupts.install()
worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
found = deadline_child._descendants
def second_signal(pid):
    os.kill(os.getpid(), signal.SIGTERM)  # timeout's second signal, between the stop and the kill
    return found(pid)
deadline_child._descendants = second_signal
try:
    deadline_child.kill_group(worker.pid)
    print("killed")
    interrupts.check()
except KeyboardInterrupt:
    try:
        with open(f"/proc/{worker.pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:  # killed and reaped
        state = "gone"
    print("raised", {"T": "stopped"}.get(state, state))
    if state == "T":
        os.killpg(worker.pid, signal.SIGKILL)
"""


def test_a_second_signal_between_stop_and_kill_waits_for_the_kill() -> None:
    """`timeout` signals the command and then its group; the second signal landed between the
    stop and the kill of a worker, which stayed stopped while the command waited for it for ever
    (2 runs in 9 of `timeout 4 queens count nqueens -n 19 -b csp`). Here it lands exactly there,
    every time: the kill must run to its end and the signal be raised after it. Before the fix
    this printed "raised stopped"."""
    done = subprocess.run([sys.executable, "-c", SECOND_SIGNAL], capture_output=True, text=True, timeout=GIVE_UP)
    assert done.stdout.split() == ["killed", "raised", "gone"], done.stdout + done.stderr


SIGNAL_IN_SHUTDOWN = """
import os, signal, sys
class Late:  # freed with __main__, after the exit handlers: where Python gives signals their default action
    def __del__(self):
        os.kill(os.getpid(), signal.{signal})
late = Late()
sys.argv = ["queens", "--help"]
from queens.console import main
main()
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_late_in_the_shutdown_leaves_the_exit_code(signum: str) -> None:
    """`timeout`'s second signal can land after the exit handlers, while the interpreter frees its
    modules: Python has given the signal its default action there, and the command died by it
    (exit -2 after printing that it was interrupted: 1 lone-clone run in 3). Here it lands there
    every time: the command's own exit code stays."""
    done = subprocess.run([sys.executable, "-c", SIGNAL_IN_SHUTDOWN.replace("{signal}", signum)],
                          capture_output=True, text=True, timeout=GIVE_UP)
    assert done.returncode == 0 and "Usage: queens" in done.stdout, (done.returncode, done.stderr)


SIGNAL_IN_WAIT = """
import os, signal, threading, time
from concurrent.futures import Future
from queens.solvers.runtime import interrupts
interrupts.install()
low, high = sorted((Future(), Future()), key=id)  # the order `wait` takes their locks in
held = threading.Event()
def worker():
    with high._condition:  # `wait` takes low's lock, then waits for this one
        held.set()
        time.sleep(0.3)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # lands in that wait
        time.sleep(0.3)
    low.set_result(1)
    high.set_result(2)
helper = threading.Thread(target=worker, daemon=True)
helper.start()
held.wait()
try:
    interrupts.waited([low, high], 5)
    print("not-raised")
except KeyboardInterrupt:
    print("raised")
helper.join(2)
print("stuck" if helper.is_alive() else "finished")
"""


def test_a_signal_inside_a_wait_for_futures_leaves_no_lock_held() -> None:
    """`concurrent.futures.wait` takes every future's lock in turn; a KeyboardInterrupt raised
    between two left the first held, and the worker finishing that future (and the count waiting
    for it) hung for ever: `count nqueens -n 17 --method classes --threads 1`, 1 lone-clone run. Here
    the signal lands there every time. Before the fix (a plain `wait`) this printed "raised stuck"."""
    done = subprocess.run([sys.executable, "-c", SIGNAL_IN_WAIT], capture_output=True, text=True, timeout=GIVE_UP)
    assert done.stdout.split() == ["raised", "finished"], done.stdout + done.stderr


SAT_INTERRUPTED = """
import os, signal, threading
from pysat._utils import MainThread
from pysat.examples.genhard import PHP
from pysat.solvers import Solver
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.interruptible import solve_interruptibly
interrupts.install()
print("pysat's own handler" if MainThread.check() else "ours")
threading.Timer(1.0, os.kill, (os.getpid(), signal.{signal})).start()
with Solver(name="glucose4", bootstrap_with=PHP(14).clauses, with_proof=True) as sat:
    try:
        solve_interruptibly(sat)
        print("solved")
    except KeyboardInterrupt:
        print("interrupted")
"""


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_sat_solve_on_the_main_thread_takes_the_signal(signum: str) -> None:
    """pysat, on the main thread, swapped in its own SIGINT handler for a solve and raised its own
    error ("internal error: Caught keyboard interrupt", exit 1, `solve --certify`), and SIGTERM
    waited for the solve's end. With the console's handler installed, pysat leaves SIGINT alone,
    and a solve stops at the signal (the pigeonhole formula PHP(14) takes resolution for ever)."""
    done = subprocess.run([sys.executable, "-c", SAT_INTERRUPTED.replace("{signal}", signum)], capture_output=True,
                          text=True, timeout=GIVE_UP)
    assert done.stdout.split("\n")[:2] == ["ours", "interrupted"], done.stdout + done.stderr
