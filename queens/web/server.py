"""The explorer's HTTP server: the static page and the JSON API, on the standard library alone.

It binds 127.0.0.1 by default: it is a local teaching tool, not a public service. Requests
are answered by `queens.web.api`; every reply is JSON (or a static file): 200, or 4xx/5xx with
{"error": message}. Static files are shipped inside the package (no build step, no CDN).

Whatever a client does, the server stays up and its log stays free of tracebacks, because
every resource a client can hold is bounded:
- the body: `MAX_BODY` bytes, a declared length that is no number or negative is a 400;
- the time a client may take to send its request: `CLIENT_TIMEOUT` per socket operation and
  `READ_DEADLINE` for the whole request, however slowly the bytes trickle in;
- connections still sending their request: `MAX_READING`; when all are taken, the one that
  has been sending longest (past `STALLED_AFTER`) is closed to make room, so slow or stalled
  clients, however many, never lock out one that sends its request at once;
- requests being answered at once: `MAX_CONNECTIONS`, a slot taken only once the request is
  read; beyond both, a short 503, beyond that a close;
- solving: `queens.web.workers` (a few processes, a hard deadline, 503 when all are busy).
A client that hangs up is not an error: the server simply drops its reply.

Besides the API's calls, the server answers two about a running call that named its job
(`JOB_CALLS`): /api/progress (how far it has got) and /api/cancel (stop it now).

>>> server = make_server(port=0, workers=1)
>>> server.server_address[0]
'127.0.0.1'
>>> server.server_close()
"""

from __future__ import annotations

import contextlib
import io
import json
import mimetypes
import socket
import sys
import threading
import time
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib.resources import files
from typing import Any

from queens.models import BackendUnavailable, QueensError
from queens.web.api import ROUTES, TIME_LIMIT, answer, info
from queens.web.schema import BadRequest, Json, checked, job_of
from queens.web.workers import WORKERS, Busy, SolverPool

MAX_BODY = 64 * 1024
"""Largest request body accepted: a 20 x 20 board with every cell listed fits many times over."""
CLIENT_TIMEOUT = 5.0
"""Seconds a client may stay silent while sending its request (or reading the reply)."""
READ_DEADLINE = 10.0
"""Seconds a client may take to send its whole request: a byte every few seconds (slowloris)
never trips `CLIENT_TIMEOUT`, so the whole request has a deadline too."""
MAX_READING = 64
"""Connections sending their request at once (a well-behaved one takes milliseconds)."""
STALLED_AFTER = 1.0
"""Seconds of sending after which a connection may be closed to admit a new one, when every
reading slot is taken: on loopback a whole request takes well under that."""
LINGER = 1.0
"""Seconds a closing connection reads what its client still sends (`_linger_and_close`)."""
LINGER_BYTES = 1 << 20
"""Bytes read and dropped at most while lingering: a refused request of any size the server
reads at all (a 64 KB request line or header, a body declared over `MAX_BODY`) fits."""
MAX_CONNECTIONS = 32
"""Requests answered at once, once read; most take milliseconds (solving is bounded by the pool)."""
MAX_TURNED_AWAY = 128
"""Connections being told "busy" at once, beyond `MAX_CONNECTIONS`; any more are closed."""
STATIC = files("queens.web") / "static"
Request = socket.socket | tuple[bytes, socket.socket]
"""What `socketserver` hands a server per request: a TCP server's is always the socket."""
PAGES = {"/": "index.html", **{f"/{item.name}": item.name for item in STATIC.iterdir()
                               if item.is_file() and not item.name.startswith(".")}}
"""The page and its files, by path: whatever the package ships in static/, nothing else."""
IN_PROCESS = frozenset({"board"})
"""API calls cheap enough to answer in the connection's thread (the page calls this one on every
click; a puzzle file's board is bounded before it is read, `queens.web.user_file`); the others
are solving and go to the worker pool."""


def _progress(pool: SolverPool, job: str) -> Json:
    """Where a running job stands; `running` false when it has not started or has ended."""
    found = pool.progress(job)
    return {"job": job, "running": found is not None, **(found or {})}


def _cancel(pool: SolverPool, job: str) -> Json:
    """Stop a running job; its own request is answered "cancelled"."""
    stopped = pool.cancel(job)
    return {"job": job, "cancelled": stopped,
            "message": "stopping it" if stopped else f"no job {job!r} is running (it may have just ended)"}


JOB_CALLS = {"progress": _progress, "cancel": _cancel}
"""Calls about a running job, answered from the pool's table in the connection's thread."""
CALLS = (*ROUTES, *JOB_CALLS)


class ExplorerHandler(BaseHTTPRequestHandler):
    server_version = "queens-explorer"
    timeout = CLIENT_TIMEOUT
    server: ExplorerServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Quiet by default: the CLI prints the address once; errors are in the replies."""

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if status is HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", "GET, HEAD, POST")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: HTTPStatus, payload: Mapping[str, object]) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json(status, {"error": message})

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's own refusals (a garbled request line, headers too long, ...) as JSON too."""
        self.close_connection = True
        self.request_version = "HTTP/1.0"  # garbage is read as HTTP/0.9, which has no status line
        self._error(HTTPStatus(code), message or HTTPStatus(code).phrase)

    read_deadline = READ_DEADLINE

    def setup(self) -> None:
        """The base class's streams, with the request read through a deadline."""
        super().setup()
        raw = _DeadlineReader(self.connection, time.monotonic() + self.read_deadline, self.timeout)
        self.rfile = io.BufferedReader(raw)

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if not self._read():
            return
        path = self.path.split("?", 1)[0]
        if path == "/api/info":
            self._json(HTTPStatus.OK, info(self.server.pool.time_limit))
        elif path.removeprefix("/api/") in CALLS:
            self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes a POST with a JSON body")
        elif path in PAGES:
            name = PAGES[path]
            content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
            self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), f"{content_type}; charset=utf-8")
        else:
            self._error(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def do_HEAD(self) -> None:  # noqa: N802 - the name http.server calls
        self.do_GET()  # `_send` leaves the body out

    def parse_request(self) -> bool:
        """The base class's parsing, a 505 for HTTP/0.9 (whose reply would have no status line and
        no headers, so no client could tell an error from a page), and a 405 (not its 501) for a
        method the explorer does not use."""
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":  # `GET /` alone, or said outright: the base class's marker
            self.send_error(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP/0.9 is not spoken here: send HTTP/1.0 or 1.1")
            return False
        if self.command not in ("GET", "HEAD", "POST"):
            self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} is not used here: GET a page, POST to /api/...")
            return False
        return True

    def _body(self) -> bytes | None:
        """The request body, or None after replying with the reason it cannot be read."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self._error(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not chunked")
            return None
        declared = self.headers.get("Content-Length", "0").strip()
        if not declared.isdigit() or not declared.isascii():
            self._error(HTTPStatus.BAD_REQUEST, f"Content-Length must be a number of bytes, got {declared[:40]!r}")
            return None
        if len(declared) > len(str(MAX_BODY)) or int(declared) > MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"request body over {MAX_BODY} bytes")
            return None
        body = self.rfile.read(int(declared))
        if len(body) < int(declared):
            self._error(HTTPStatus.BAD_REQUEST, "the request body ended before its Content-Length")
            return None
        return body

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        path = self.path.split("?", 1)[0]
        route = path.removeprefix("/api/")
        if not path.startswith("/api/") or route not in CALLS:
            self._error(HTTPStatus.NOT_FOUND, f"no API call at {path}; there are {', '.join(CALLS)}")
            return
        body = self._body()
        if body is None or not self._read():
            return
        try:
            request = json.loads(body or b"{}")
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep, a 5000-digit number
            self._error(HTTPStatus.BAD_REQUEST, "the request body is not JSON")
            return
        self._answer(route, request)

    def _read(self) -> bool:
        """The request is read: trade the reading slot for an answering one, or reply 503."""
        if self.server.request_read():
            return True
        self._error(HTTPStatus.SERVICE_UNAVAILABLE, "the explorer is busy; try again in a moment")
        return False

    def _answer(self, route: str, request: Any) -> None:  # JSON as parsed: queens.web.api checks its shape
        pool = self.server.pool
        try:
            if route in JOB_CALLS:
                job = job_of(checked(route, request))
                if job is None:
                    raise BadRequest(f"/api/{route} needs 'job': the name the page gave the call it asks about")
                reply = JOB_CALLS[route](pool, job)
            elif route in IN_PROCESS:
                reply = answer(route, request, pool.time_limit)
            else:
                reply = pool.run(route, request, job_of(checked(route, request)))
        except (Busy, BackendUnavailable) as error:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(error))
        except (BadRequest, QueensError) as error:  # and every rule the puzzle itself enforces
            self._error(HTTPStatus.BAD_REQUEST, str(error))
        except Exception as error:  # a bug: still a message, and the server keeps serving
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {type(error).__name__}: {error}")
        else:
            self._json(HTTPStatus.OK, reply)


class BusyHandler(ExplorerHandler):
    """For a connection beyond `MAX_CONNECTIONS`: read the request, answer 503 at once."""

    timeout = 1.0
    read_deadline = 2.0

    def parse_request(self) -> bool:
        """Read the request (so closing does not reset the connection under the reply), refuse it."""
        if super().parse_request() and (self.command != "POST" or self._body() is not None):
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, "the explorer is busy; try again in a moment")
        return False


class _DeadlineReader(io.RawIOBase):
    """A socket read with a deadline for the whole request: each read waits at most what is left
    of it (and `CLIENT_TIMEOUT`), and past it raises TimeoutError, which ends the connection."""

    def __init__(self, connection: socket.socket, deadline: float, per_read: float | None) -> None:
        self._connection, self._deadline, self._per_read = connection, deadline, per_read or CLIENT_TIMEOUT

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]  # io's buffer protocol
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        self._connection.settimeout(min(self._per_read, left))
        return self._connection.recv_into(buffer)


def _linger_and_close(connection: socket.socket) -> None:
    """End the reply, read and drop what the client is still sending (for at most `LINGER`
    seconds and `LINGER_BYTES`), then close. A request refused before it was read to its end
    (413, 431, 414) leaves bytes unread, and closing a socket with unread input sends a reset
    that can destroy the reply before the client has read it (RFC 9112, section 9.6). Done after
    the connection's slot is given back: a well-behaved client hangs up at once."""
    deadline = time.monotonic() + LINGER
    with contextlib.suppress(OSError):  # the client may be gone already
        connection.shutdown(socket.SHUT_WR)
        drained = 0
        while drained < LINGER_BYTES and (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            chunk = connection.recv(65536)
            if not chunk:
                break
            drained += len(chunk)
    connection.close()


class ExplorerServer(HTTPServer):
    """A thread per connection: up to `MAX_READING` sending their request, up to
    `MAX_CONNECTIONS` being answered, and the solver pool."""

    request_queue_size = 128  # the listen backlog: a burst of connections waits here, briefly
    server_address: tuple[str, int]  # an AF_INET server bound to a host given as text

    def __init__(self, address: tuple[str, int], pool: SolverPool) -> None:
        self.pool = pool  # first: a port already in use fails inside HTTPServer's __init__, which closes
        self._reading = threading.BoundedSemaphore(MAX_READING)
        self._answering = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._turning_away = threading.BoundedSemaphore(MAX_TURNED_AWAY)
        self._readers: dict[socket.socket, float] = {}  # connection -> when it began sending
        self._readers_lock = threading.Lock()
        self._held = threading.local()  # the slot this connection's thread holds
        super().__init__(address, ExplorerHandler)

    def process_request(self, request: Request, client_address: tuple[str, int]) -> None:
        """Handle the connection in a thread of its own, or tell it "busy", or, past both bounds, close it."""
        if isinstance(request, socket.socket) and self._admit(request):
            handler, slot = ExplorerHandler, self._reading
        elif self._turning_away.acquire(blocking=False):
            handler, slot = BusyHandler, self._turning_away
        else:
            self.shutdown_request(request)
            return
        threading.Thread(target=self._handle, args=(request, client_address, handler, slot), daemon=True).start()

    def _admit(self, request: socket.socket) -> bool:
        """A reading slot: a free one, or, when all are taken, the one of the connection that has
        been sending its request longest, if that is past `STALLED_AFTER` (it is closed)."""
        if not self._reading.acquire(blocking=False):
            with self._readers_lock:
                oldest = min(self._readers.items(), key=lambda item: item[1], default=None)
            if oldest is None or time.monotonic() - oldest[1] < STALLED_AFTER:
                return False
            with contextlib.suppress(OSError):  # it may have just finished on its own
                oldest[0].shutdown(socket.SHUT_RDWR)
            if not self._reading.acquire(timeout=1.0):  # its thread sees the close and lets go
                return False
        with self._readers_lock:
            self._readers[request] = time.monotonic()
        return True

    def request_read(self) -> bool:
        """Called by the handler once its request is read: the reading slot is given up for an
        answering slot (waited for: answers are quick, and solving has its own bound); False
        when none came free in time."""
        if getattr(self._held, "slot", None) is not self._reading:
            return True
        with self._readers_lock:
            self._readers.pop(self._held.request, None)
        self._reading.release()
        self._held.slot = None
        if not self._answering.acquire(timeout=CLIENT_TIMEOUT):
            return False
        self._held.slot = self._answering
        return True

    def _handle(self, request: socket.socket, client_address: tuple[str, int], handler: type,
                slot: threading.Semaphore) -> None:
        self._held.slot, self._held.request = slot, request
        try:
            handler(request, client_address, self)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            with self._readers_lock:
                self._readers.pop(request, None)
            if self._held.slot is not None:
                self._held.slot.release()
            _linger_and_close(request)

    def handle_error(self, request: object, client_address: tuple[str, int]) -> None:
        """A client that hangs up or stalls is normal; anything else is one line, never a traceback."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError | TimeoutError):
            print(f"queens explorer: internal error: {type(error).__name__}: {error}", file=sys.stderr)

    def server_close(self) -> None:
        """Release the port, then stop the solver processes."""
        super().server_close()
        self.pool.close()


def make_server(host: str = "127.0.0.1", port: int = 8000, *, workers: int = WORKERS,
                time_limit: float = TIME_LIMIT) -> ExplorerServer:
    """A server ready to `serve_forever()`; port 0 picks a free one (see `server_address`)."""
    pool = SolverPool(workers, time_limit)
    try:
        return ExplorerServer((host, port), pool)
    except OSError:
        pool.close()
        raise
