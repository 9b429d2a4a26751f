"""The explorer's solver processes: a small fixed pool, so that a request's time limit is a promise.

Every backend is given the deadline, but one deep in a search may still answer late (measured:
csp counting 12 x 12 domination took 138 s for a 5 s limit). So each solve runs in a worker
process the server can kill: a request waits at most the time limit plus `GRACE`, then the
worker is replaced and the reply says the time ran out. The pool's size is also the bound on
concurrent solving: when every worker is busy a request is refused at once (`Busy`, HTTP 503)
rather than queued behind searches that may take the full time limit.

>>> with SolverPool(size=1, time_limit=5.0) as pool:
...     pool.run("count", {"family": "nqueens", "n": 6})["count"]
4
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext

from queens.models import BackendUnavailable, QueensError
from queens.web.api import BadRequest, answer, warm_up

GRACE = 2.0
"""Seconds past the time limit before a worker is killed: time to report the bound it has."""
STARTUP = 60.0
"""Seconds a new worker may take to import the suite (on a loaded machine) before its first job,
whose time limit starts only once the worker is ready."""
WORKERS = 2
"""Solving requests served at once: one per core of the machine the explorer was built on."""

Job = tuple[str, object, float]
"""What the server sends a worker: (route, request, time limit)."""
Reply = tuple[str, object]
"""What a worker sends back: ("ok", the API's answer) or (a key of `_ERRORS`, the message)."""


class Busy(QueensError):
    """Every worker is solving: the request is refused now (HTTP 503), not queued."""


class Failed(Exception):
    """A worker hit a bug (not a bad request): the reply is HTTP 500 with this message."""


_ERRORS: dict[str, type[Exception]] = {"bad": BadRequest, "unavailable": BackendUnavailable,
                                       "rule": QueensError, "bug": Failed}


def _serve(connection: Connection) -> None:
    """A worker's life: answer (route, request, time limit) jobs until the server hangs up.

    Ctrl-C in the terminal reaches the whole process group; the server decides when workers
    stop, so they ignore SIGINT (and never print a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()
    connection.send(("ready",))  # the imports are done: from now on a job's time limit is its own
    while True:
        try:
            route, request, time_limit = connection.recv()
        except (EOFError, OSError):
            return
        try:
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
            connection.send(reply)
        except OSError:
            return


class _Worker:
    """One solver process and the pipe to it."""

    def __init__(self, context: SpawnContext) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), name="queens-solver", daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self._stop_lock = threading.Lock()
        self._stopped = False

    def ask(self, job: Job, wait: float) -> Reply | None:
        """The worker's reply to `job`, or None if none came within `wait` seconds (or it died)."""
        try:
            if not self.ready:
                if not self.connection.poll(STARTUP):
                    return None
                self.ready = self.connection.recv() == ("ready",)
            self.connection.send(job)
            return self.connection.recv() if self.connection.poll(wait) else None
        except (EOFError, OSError):
            return None

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


class SolverPool:
    """`size` worker processes, started at once so the first request does not pay for imports."""

    def __init__(self, size: int = WORKERS, time_limit: float = 10.0) -> None:
        # spawn, not fork: the server is threaded, and a forked copy of a lock held by another
        # thread would never be released in the child
        self._context = multiprocessing.get_context("spawn")
        self.time_limit = time_limit
        self.size = size
        self._idle = [_Worker(self._context) for _ in range(size)]
        self._running: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    def run(self, route: str, request: object) -> dict[str, object]:
        """Answer one API call in a worker, within the time limit; raise `Busy` if none is free."""
        with self._lock:
            if not self._idle:
                raise Busy(f"the explorer is busy: {self.size} searches are running; try again in a moment")
            worker = self._idle.pop()
            self._running.add(worker)
        reply = worker.ask((route, request, self.time_limit), self.time_limit + GRACE)
        self._give_back(worker, replace=reply is None)
        if reply is None:
            return {"status": "time limit", "solution": [], "exact": False,
                    "message": f"no answer within {self.time_limit:g} s (time limit): the search was stopped"}
        kind, payload = reply
        if kind == "ok" and isinstance(payload, dict):  # the API's answers are JSON objects
            return payload
        raise _ERRORS[kind](payload)

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
