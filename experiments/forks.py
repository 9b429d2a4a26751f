"""The grid's fork server: one process that has imported the solvers, forking a child per run.

A run is a process of its own, so that its address-space cap, its death with the runner and a
kill at its time limit touch nothing else. Started as `python -m queens.experiments.runner`,
each child spent most of its life importing Python, numpy and the package, for runs that mostly
search for a fraction of that (experiments/results/suite-time.md). So the runner starts this
server (`python -m queens.experiments.forks`, through subprocess, which a daemonic Dask worker
may also do); it imports the solvers once and forks a child per run, each as fresh as a new
process but for those imports. The solver library a run needs is still imported by its child,
before its clocks start (`queens.experiments.runner.measure`).

The protocol, one JSON object a line: the runner writes {"run": ..., "out": file, "err": file,
"cwd": its folder, "env": its environment} (the child runs there, with that environment, as a
process started then would); the server answers {"pid": ...} when the child is forked and
{"exit": code} when it has ended (code as subprocess gives it: negative for the signal that
ended it). The child writes its measurement to `out` and everything it printed to `err`. Each
dies with its parent (PR_SET_PDEATHSIG): the runner's death ends the server, the server's ends
the child. A thread has a server of its own: the protocol is one run at a time, a Dask worker
may run one per thread, and PR_SET_PDEATHSIG follows the thread that started the server.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, NoReturn

from queens.experiments.spec import Run


class ServerGone(ChildProcessError):
    """The fork server ended while a run was asked of it."""


class ForkServer:
    """The runner's side: start the server, ask it for a run, wait for the run's end."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "queens.experiments.forks"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._pending = b""

    def alive(self) -> bool:
        return self.process.poll() is None

    def start(self, run: Run, out: Path, err: Path) -> int:
        """Fork a child for `run`; its pid."""
        assert self.process.stdin is not None
        try:
            asked = {"run": run.to_json(), "out": str(out), "err": str(err), "cwd": os.getcwd(),
                     "env": dict(os.environ)}
            self.process.stdin.write(json.dumps(asked).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError as error:
            raise ServerGone("the fork server ended") from error
        answer = self._line(None)
        assert answer is not None
        return int(answer["pid"])

    def wait(self, timeout: float | None) -> int | None:
        """The child's exit code, or None if it still runs after `timeout` seconds."""
        answer = self._line(timeout)
        return None if answer is None else int(answer["exit"])

    def close(self) -> None:
        """End the server (it ends when its input does)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()

    def _line(self, timeout: float | None) -> dict[str, int] | None:
        """The server's next line, read from the pipe itself: a buffered reader could hold the
        next line already while select waits on an empty pipe."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._pending:
            if not select.select([fd], [], [], timeout)[0]:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                raise ServerGone("the fork server ended")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        answer: dict[str, int] = json.loads(line)
        return answer


_MINE = threading.local()
"""Each thread's server (`server_of_this_thread`)."""


def server_of_this_thread() -> ForkServer:
    """This thread's fork server, started (or started again, if it died) on first use, and
    ended when the interpreter exits."""
    server: ForkServer | None = getattr(_MINE, "server", None)
    if server is None or not server.alive():
        server = _MINE.server = ForkServer()
        atexit.register(server.close)
    return server


# --- the server ---------------------------------------------------------------------------------
def serve() -> None:
    """The server's loop: fork a child per line asked, report its pid and then its exit code."""
    from queens.experiments import runner  # noqa: F401  # what every run imports: numpy, the models, the router
    from queens.solvers import count, solve  # noqa: F401
    from queens.solvers.runtime.deadline_child import die_with_parent

    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the runner's to handle; the child's own
    for line in sys.stdin.buffer:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        _say({"pid": pid})
        _, status = os.waitpid(pid, 0)
        _say({"exit": os.waitstatus_to_exitcode(status)})


def _say(answer: dict[str, int]) -> None:
    sys.stdout.buffer.write(json.dumps(answer).encode() + b"\n")
    sys.stdout.buffer.flush()


def _child(request: dict[str, Any]) -> NoReturn:
    """In the forked child: its output into `err`, the run's limits, the run, its measurement
    written to `out`; then out, without the server's exit handlers."""
    from queens.experiments import runner

    code = 1
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(request["cwd"])  # the runner's folder and environment as the run is asked, as a new process's
        os.environ.clear()
        os.environ.update(request["env"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        errors = os.open(request["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(errors, 1)  # the server's stdout is the protocol: a solver's print must not land there
        os.dup2(errors, 2)
        run = Run.from_json(request["run"])
        runner.limit_self(run.memory_limit)
        record = runner.measure(run)
        Path(request["out"]).write_text(json.dumps(record, default=str))
        code = 0
    except BaseException:  # the runner reads the last line of `err` (a memory error's sign among them)
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    serve()
