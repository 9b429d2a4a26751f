"""The explorer's solver processes: a small fixed pool, so that a request's time limit is a promise.

Every backend is given the deadline, but one deep in a search may still answer late (measured:
csp counting 12 x 12 domination ran many times past its limit, experiments/results/design-choices.md).
So each solve runs in a worker process the server can kill: a request waits at most the time
limit plus `GRACE`, then the worker is replaced and the reply says the time ran out. The pool's
size is also the bound on concurrent solving: when every worker is busy a request is refused at
once (`Busy`, HTTP 503) rather than queued behind searches that may take the full time limit.

A request may name its job: while it runs, the worker forwards the solvers' progress reports
(`queens.solvers.runtime.progress`: the strategy chosen, subproblems done, solutions so far),
which `progress(job)` gives the page, and `cancel(job)` kills the worker, so the request is
answered at once ("cancelled", with the solutions found so far) and the worker replaced.

>>> with SolverPool(size=1, time_limit=5.0) as pool:
...     pool.run("count", {"family": "nqueens", "n": 6})["count"]
4
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext

from queens.models import BackendUnavailable, QueensError
from queens.solvers.api import Chosen
from queens.solvers.runtime.progress import Progress, listening
from queens.web.api import answer, warm_up
from queens.web.schema import BadRequest

GRACE = 2.0
"""Seconds past the time limit before a worker is killed: time to report the bound it has."""
STARTUP = 60.0
"""Seconds a new worker may take to import the suite (on a loaded machine) before its first job,
whose time limit starts only once the worker is ready."""
WORKERS = 2
"""Solving requests served at once: one per core of the machine the explorer was built on."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress reports a worker forwards (the page asks a few times a second)."""
WARM = "queens.web.warm"
"""The module the fork server imports before it forks any worker (`_fork_server`)."""

Job = tuple[str, object, float]
"""What the server sends a worker: (route, request, time limit)."""
Reply = tuple[str, object]
"""What a worker sends back: ("ok", the API's answer) or (a key of `_ERRORS`, the message);
before it, any number of ("progress", `reported(...)`)."""
Heard = Callable[[dict[str, object]], None]


class Busy(QueensError):
    """Every worker is solving: the request is refused now (HTTP 503), not queued."""


class Failed(Exception):
    """A worker hit a bug (not a bad request): the reply is HTTP 500 with this message."""


_ERRORS: dict[str, type[Exception]] = {"bad": BadRequest, "unavailable": BackendUnavailable,
                                       "rule": QueensError, "bug": Failed}


def reported(progress: Progress) -> dict[str, object]:
    """A progress report as JSON: the strategy the router chose, or what is known of the run.

    >>> reported(Progress(solutions=92, done=3, total=8))
    {'solutions': 92, 'done': 3, 'total': 8}
    """
    if isinstance(progress, Chosen):
        return {"strategy": f"{progress.backend}/{progress.method}"}
    return {key: value for key in ("solutions", "done", "total", "bound")
            if (value := getattr(progress, key)) is not None}


def _forwarder(connection: Connection, sending: threading.Lock) -> Callable[[Progress], None]:
    """A listener that sends the reports to the server: the chosen strategy at once, the others
    at most every `PROGRESS_EVERY` seconds. `sending` is held for each message, since a solver
    may report from a thread of its own while the reply is sent."""
    next_at = 0.0

    def forward(progress: Progress) -> None:
        nonlocal next_at
        now = time.monotonic()
        if isinstance(progress, Chosen) or now >= next_at:
            next_at = now + PROGRESS_EVERY
            with sending, contextlib.suppress(OSError):  # the server is gone: the next recv says so
                connection.send(("progress", reported(progress)))
    return forward


def _fork_server() -> ForkServerContext:
    """multiprocessing's fork server, which imports `WARM` first: every worker is forked from a
    process that has loaded each backend's library and made each backend once, instead of
    spawned to do it all again, a second of a worker's start (a worker replaced after a cancel
    or a time limit was that far from its next request: experiments/results/start-up.md). The
    explorer is threaded, so it forks nothing itself (a lock another thread held would stay held
    in the child): the server is a process of its own with one thread. It is the process's one
    fork server, and its workers have the environment it started with (each one the folder the
    pool is in when it starts it); one started before without `WARM` forks workers that warm
    up themselves."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WARM])
    return context


def _serve(connection: Connection) -> None:
    """A worker's life: answer (route, request, time limit) jobs until the server hangs up.

    Ctrl-C in the terminal reaches the whole process group; the server decides when workers
    stop, so they ignore SIGINT (and never print a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sending = threading.Lock()
    warm_up()  # at once where the fork server was warm, the whole warm-up where it was not
    connection.send(("ready",))  # the imports are done: from now on a job's time limit is its own
    while True:
        try:
            route, request, time_limit = connection.recv()
        except (EOFError, OSError):
            return
        try:
            with listening(_forwarder(connection, sending)):
                reply: Reply = ("ok", answer(route, request, time_limit))
        except BadRequest as error:
            reply = ("bad", str(error))
        except BackendUnavailable as error:
            reply = ("unavailable", str(error))
        except QueensError as error:  # a rule the puzzle itself enforces: still the client's input
            reply = ("rule", str(error))
        except Exception as error:  # a bug: reported, and the worker keeps serving
            reply = ("bug", f"internal error: {type(error).__name__}: {error}")
        try:
            with sending:
                connection.send(reply)
        except OSError:
            return


class _Worker:
    """One solver process and the pipe to it."""

    def __init__(self, context: ForkServerContext) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), name="queens-solver", daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self._stop_lock = threading.Lock()
        self._stopped = False

    def ask(self, job: Job, wait: float, heard: Heard | None = None) -> Reply | None:
        """The worker's reply to `job`, or None if none came within `wait` seconds (or it died,
        or was killed by `cancel`); each progress report on the way is handed to `heard`."""
        try:
            if not self.ready:
                if not self.connection.poll(STARTUP):
                    return None
                self.ready = self.connection.recv() == ("ready",)
            self.connection.send(job)
            end = time.monotonic() + wait
            while (left := end - time.monotonic()) > 0 and self.connection.poll(left):
                message = self.connection.recv()
                if message[0] != "progress":
                    return message  # type: ignore[no-any-return]  # a Reply, as `_serve` sends it
                if heard is not None:
                    heard(message[1])
            return None
        except (EOFError, OSError):
            return None

    def cancel(self) -> None:
        """Kill the process, and only that: the thread waiting in `ask` sees the pipe close and
        hands the worker back to be replaced (closing the pipe under it here could have its
        poll wait on a descriptor number the server has reused)."""
        self.process.kill()

    def stop(self) -> None:
        """Kill the process and close the pipe, once: the pool's close (main thread) and a request
        whose worker died (its own thread) may both ask at the same moment, and a pipe closed
        twice at once fails with EBADF."""
        with self._stop_lock:
            if self._stopped:
                return
            self._stopped = True
        self.process.kill()
        self.process.join()
        self.connection.close()


@dataclass
class _Running:
    """A named job while it runs: its worker, when it began, what it last reported."""

    worker: _Worker
    started: float = field(default_factory=time.monotonic)
    strategy: str = ""
    latest: dict[str, object] = field(default_factory=dict)
    cancelled: bool = False


class SolverPool:
    """`size` worker processes, started at once so the first request does not pay for imports."""

    def __init__(self, size: int = WORKERS, time_limit: float = 10.0) -> None:
        self._context = _fork_server()
        self.time_limit = time_limit
        self.size = size
        self._idle = [_Worker(self._context) for _ in range(size)]
        self._running: set[_Worker] = set()
        self._jobs: dict[str, _Running] = {}
        self._lock = threading.Lock()
        self._closed = False

    def run(self, route: str, request: object, job: str | None = None) -> dict[str, object]:
        """Answer one API call in a worker, within the time limit; raise `Busy` if none is free.
        A named `job` can be followed (`progress`) and stopped (`cancel`) while it runs."""
        with self._lock:
            if job is not None and job in self._jobs:
                raise BadRequest(f"job {job!r} is already running: name each call afresh")
            if not self._idle:
                raise Busy(f"the explorer is busy: {self.size} searches are running; try again in a moment")
            worker = self._idle.pop()
            self._running.add(worker)
            running = None
            if job is not None:
                running = self._jobs[job] = _Running(worker)
        reply = worker.ask((route, request, self.time_limit), self.time_limit + GRACE,
                           None if running is None else partial(self._heard, running))
        with self._lock:
            if job is not None:
                self._jobs.pop(job, None)
        cancelled = running is not None and running.cancelled
        self._give_back(worker, replace=reply is None or cancelled)  # a cancelled worker may be dying
        if reply is None and running is not None and cancelled:
            return _cancelled(running)
        if reply is None:
            return {"status": "time limit", "solution": [], "exact": False,
                    "message": f"no answer within {self.time_limit:g} s (time limit): the search was stopped"}
        kind, payload = reply
        if kind == "ok" and isinstance(payload, dict):  # the API's answers are JSON objects
            return payload
        raise _ERRORS[kind](payload)

    def _heard(self, running: _Running, report: dict[str, object]) -> None:
        with self._lock:
            if "strategy" in report:
                running.strategy = str(report["strategy"])
            else:
                running.latest = report

    def progress(self, job: str) -> dict[str, object] | None:
        """Where the named job stands (`reported`, the strategy and the seconds it has run), or
        None when no job of that name is running (not yet, or no longer)."""
        with self._lock:
            running = self._jobs.get(job)
            if running is None:
                return None
            return {**running.latest, "strategy": running.strategy,
                    "elapsed": round(time.monotonic() - running.started, 2)}

    def cancel(self, job: str) -> bool:
        """Stop the named job now: its worker is killed (and replaced) and its request answered
        "cancelled". False when no job of that name is running (it may have just ended)."""
        with self._lock:
            running = self._jobs.get(job)
            if running is None:
                return False
            running.cancelled = True
        running.worker.cancel()
        return True

    def _give_back(self, worker: _Worker, replace: bool) -> None:
        """Return a worker to the pool; one that overran (or died) is killed and replaced."""
        if replace:
            worker.stop()
        with self._lock:
            self._running.discard(worker)
            if self._closed:
                worker.stop()
                return
            self._idle.append(_Worker(self._context) if replace else worker)

    def close(self) -> None:
        """Stop every worker, busy ones too: their requests are answered "no answer" (time limit)."""
        with self._lock:
            self._closed = True
            workers, self._idle = [*self._idle, *self._running], []
        for worker in workers:
            worker.stop()

    def __enter__(self) -> SolverPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cancelled(running: _Running) -> dict[str, object]:
    """The answer to a request whose job the user cancelled: what it had found by then."""
    seconds = time.monotonic() - running.started
    found = running.latest.get("solutions")
    by = f" by {running.strategy}" if running.strategy else ""
    so_far = f"; {found:,} solutions found by then (a lower bound)" if isinstance(found, int) else ""
    return {"status": "cancelled", "solution": [], "exact": False, "count": found if isinstance(found, int) else None,
            "message": f"cancelled after {seconds:.1f} s{by}{so_far}"}
