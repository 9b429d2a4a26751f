"""One call in a forked child process that is killed at its deadline: a time limit no library
call can overrun.

Every backend is given the deadline and mostly honours it, but some of the work cannot be
interrupted: lowering a 1000 x 1000 board, python-constraint2 building and preprocessing its
problem, CP-SAT loading a model of a million variables, CaDiCaL between two looks at the
clock, the MiniZinc binary flattening. Measured before this module (experiments/results/
deadlines-before.md): 1000-queens ran far past a short limit on cpsat, sat, csp and minizinc,
and 37 of 162 cases overran the allowance; with it, none of 189 (deadlines.md). So
`call_until` runs the call in a child: the child keeps its own deadline and reports what it has
(a bound) when it stops in time; if it has not answered `SLACK` seconds after the deadline, it
is killed, with everything it started, and the caller gets `TimeLimit`.

The child is forked, so it starts in milliseconds with everything already imported and built
(design-choices.md: a process holding OR-Tools, pysat and a lowered 200 x 200 model). It runs in
a process group of its own, so Ctrl-C in a terminal reaches the parent alone, which kills the
child's whole group (the MiniZinc binary included) and goes on with the interrupt; on Linux
the child also dies with its parent if the parent is killed outright. A fork copies only the
thread that forks: the child does the call and writes to its pipe, nothing that another thread
of the parent could have held locked. Without `os.fork` (not POSIX) the call runs in this
process, as before; so it does in a daemonic process (a `multiprocessing.Pool` worker) unless
the kernel kills the child with it (Linux), which is all multiprocessing asks of a daemonic
process's children (`queens.solvers.runtime.forking`).

>>> call_until(time.monotonic() + 5, pow, 2, 10)
1024
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, cast

from queens.models import BackendError, TimeLimit
from queens.solvers.runtime import interrupts
from queens.solvers.runtime.forking import may_fork
from queens.solvers.runtime.progress import Progress, beat, listening, report

T = TypeVar("T")
SLACK = 0.2
"""Seconds past the deadline the child gets to stop by itself and report, before it is killed..."""
SLACK_SHARE = 0.04
"""...plus this share of the time it was given (issue 14 allows 10 % + 0.5 s in all)."""
BEAT = 0.5
"""Seconds between two beats to the listeners while the child is quiet (`queens.solvers.runtime.progress`)."""
_PR_SET_PDEATHSIG = 1
_DIES_WITH_PARENT = sys.platform.startswith("linux")
"""Whether a child is killed with its parent here (`die_with_parent`)."""
_killable = False


def call_until(deadline: float | None, function: Callable[..., T], *args: object, nested: bool = False) -> T:
    """`function(*args)`, computed in a forked child that is killed when it has not answered
    by the deadline plus the slack; then this raises TimeLimit, with the solutions the child
    had reported (`queens.solvers.runtime.progress`) as its partial count, and the lower bound it had
    reported as its bound. What the call raises in the
    child is raised here (the same class and message). Called here, in this process, when there
    is no deadline, or when this process is itself killed at the deadline (a forked child, a
    split pool's worker: see `killed_at_deadline`) unless `nested`: a call with a budget of its
    own inside such a process (a proof checker's, inside a search with a time limit); and in a
    process that may not fork (`queens.solvers.runtime.forking`)."""
    kill_at = kill_time(deadline)
    if (kill_at is None or (_killable and not nested) or not hasattr(os, "fork")
            or not may_fork(dies_with_parent=_DIES_WITH_PARENT)):
        return function(*args)
    reading, writing = os.pipe()
    sys.stdout.flush()  # what is buffered here is written once, by this process, not by the child too
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(reading)
        _run_child(writing, function, args)
    os.close(writing)
    _own_group(pid)
    try:
        outcome = _listen(reading, kill_at)
    except BaseException:
        kill_group(pid)
        raise
    finally:
        os.close(reading)
    if isinstance(outcome, Progress):
        kill_group(pid)
        raise TimeLimit("stopped at the time limit (the search could not be interrupted in time)",
                        partial=outcome.solutions, bound=outcome.bound)
    _, status = os.waitpid(pid, 0)
    if outcome == ("crashed",):  # out of memory in C++ (std::bad_alloc), a segfault, ...
        raise BackendError(f"the solver process died without an answer ({_death(status)})")
    return cast(T, _unpack(outcome))


def _death(status: int) -> str:
    """How a child ended, from its wait status."""
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit code {os.WEXITSTATUS(status)}"


def kill_time(deadline: float | None) -> float | None:
    """When a process working to `deadline` is killed: the deadline plus the slack."""
    if deadline is None:
        return None
    return deadline + SLACK + SLACK_SHARE * max(0.0, deadline - time.monotonic())


def killed_at_deadline() -> None:
    """Make this process one that its parent kills at the deadline (a forked child, a split
    pool's worker): its own process group, so that the kill takes what it started too and
    Ctrl-C in a terminal does not reach it; on Linux it dies with its parent; and its own calls
    to `call_until` run here, without a child of their own."""
    global _killable
    _killable = True
    try:
        os.setpgid(0, 0)
    except OSError:  # already a group leader
        pass
    die_with_parent()


def kill_group(pid: int, *, reap: bool = True) -> None:
    """Kill a process made by `killed_at_deadline`, with everything it started; `reap` waits
    for it (not for a pool's worker, which its `multiprocessing.Process` reaps).

    Its process group holds most of that, but not a process that made a group of its own: the
    MiniZinc binary starts its solver so, and fzn-gecode ran on alone for the rest of a
    10-minute limit after Ctrl-C. So the group is stopped first (nothing in it starts anything
    more), its descendants are read from the process table, and all are killed."""
    with interrupts.deferred():  # never stopped and then left: a signal here waits for the kill
        _signal_group(pid, signal.SIGSTOP)
        below = _descendants(pid)
        _signal_group(pid, signal.SIGKILL)
        for other in below:
            try:
                os.kill(other, signal.SIGKILL)
            except OSError:  # gone meanwhile
                pass
        if reap:
            os.waitpid(pid, 0)


def _signal_group(pid: int, signum: int) -> None:
    try:
        os.killpg(pid, signum)
    except OSError:  # its group is gone, or not made yet: the process alone
        try:
            os.kill(pid, signum)
        except OSError:
            pass


def _descendants(pid: int) -> set[int]:
    """The processes below `pid` (Linux: read from /proc; elsewhere none are found)."""
    parent_of = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:  # the field after the command's closing parenthesis: state, then the parent's pid
            parent_of[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
    found: set[int] = set()
    level = {pid}
    while level:
        level = {child for child, parent in parent_of.items() if parent in level} - found
        found |= level
    return found


def _own_group(pid: int) -> None:
    """Put the child in its own process group (the child does too: whichever runs first)."""
    try:
        os.setpgid(pid, pid)
    except OSError:  # the child got there first, or has already exited
        pass


def _run_child(writing: int, function: Callable[..., object], args: tuple[object, ...]) -> None:
    """The child's whole life: compute, sending reports and then the outcome, and exit without
    running the parent's clean-up (atexit handlers, `finally` blocks up the stack, buffered output)."""
    code = 1
    try:
        killed_at_deadline()
        with os.fdopen(writing, "wb", buffering=0) as pipe:
            def send(message: tuple[object, ...]) -> None:
                data = pickle.dumps(message)
                pipe.write(len(data).to_bytes(4, "big") + data)

            with listening(lambda progress: send(("progress", progress)), alone=True):
                try:
                    outcome: tuple[object, ...] = ("value", function(*args))
                except BaseException as error:  # sent to the parent, raised there
                    outcome = ("error", type(error), error.args, vars(error))
            sys.stdout.flush()  # what the call printed (the CLI's announcement), before the answer
            sys.stderr.flush()
            try:
                send(outcome)
            except Exception as error:  # an unpicklable answer or error: a bug, reported as such
                send(("error", BackendError, (f"the answer could not be sent back: {error}",), {}))
        code = 0
    finally:
        os._exit(code)


def die_with_parent() -> None:
    """Linux: the kernel kills this child if its parent dies (SIGKILL gives it no chance); the
    one way every child the suite starts asks it (a deadline's child, a pool's worker, the grid's
    fork server and its runs). A spawned worker whose parent died while it was still starting (a
    second of imports) is past that: it ends here, instead of waiting for work for ever as an
    orphan."""
    if not _DIES_WITH_PARENT:
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    parent = multiprocessing.parent_process()  # not always the process that forked this one (a forkserver's)
    if parent is not None and parent.pid is not None and not _alive(parent.pid):
        os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's (the pid was reused)
        pass
    return True


def _listen(reading: int, kill_at: float) -> tuple[object, ...] | Progress:
    """The child's outcome; its reports meanwhile go to this process's listeners, and a beat
    every `BEAT` seconds. At `kill_at`, or if the child ends without an outcome, the last
    report instead (what the child had)."""
    buffer = b""
    last = Progress()
    while (left := kill_at - time.monotonic()) > 0:
        ready, _, _ = select.select([reading], [], [], min(left, BEAT))
        if not ready:
            beat()
            continue
        chunk = os.read(reading, 1 << 16)
        if not chunk:  # the child ended without an outcome: it crashed
            return ("crashed",)
        buffer += chunk
        while len(buffer) >= 4 and len(buffer) >= 4 + (size := int.from_bytes(buffer[:4], "big")):
            message: tuple[object, ...] = pickle.loads(buffer[4:4 + size])
            buffer = buffer[4 + size:]
            if message[0] != "progress":
                return message
            last = cast(Progress, message[1])
            report(last)
    return last


def _unpack(outcome: tuple[object, ...]) -> object:
    """The value the child computed, or the error it raised, raised here."""
    kind, *rest = outcome
    if kind == "value":
        return rest[0]
    cls, args, state = rest
    kind_of_error = cast(type[BaseException], cls)
    error = kind_of_error.__new__(kind_of_error)  # as pickle does: without __init__, whose arguments vary
    error.args = cast(tuple[object, ...], args)
    error.__dict__.update(cast(dict[str, object], state))
    raise error
