"""The explorer's HTTP server: the static page and the JSON API, on the standard library alone.

It binds 127.0.0.1 by default: it is a local teaching tool, not a public service. Requests
are answered by `queens.web.api`; the replies are JSON with HTTP 200, or 4xx with
{"error": message} for a request that cannot be honoured (bad JSON, unknown family, a board
beyond the limits). Static files are shipped inside the package (no build step, no CDN).

>>> server = make_server(port=0)
>>> server.server_address[0]
'127.0.0.1'
>>> server.server_close()
"""

from __future__ import annotations

import json
import mimetypes
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files

from queens.models import BackendUnavailable, QueensError
from queens.web.api import ROUTES, answer, info

MAX_BODY = 64 * 1024
"""Largest request body accepted: a 16 x 16 board with every cell listed fits many times over."""
STATIC = files("queens.web") / "static"
PAGES = {"/": "index.html", "/index.html": "index.html", "/app.js": "app.js", "/style.css": "style.css"}


class ExplorerHandler(BaseHTTPRequestHandler):
    server_version = "queens-explorer"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Quiet by default: the CLI prints the address once; errors are in the replies."""

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: HTTPStatus, payload: dict) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json(status, {"error": message})

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        path = self.path.split("?", 1)[0]
        if path == "/api/info":
            self._json(HTTPStatus.OK, info())
            return
        name = PAGES.get(path)
        if name is None:
            self._error(HTTPStatus.NOT_FOUND, f"nothing at {path}")
            return
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, (STATIC / name).read_bytes(), f"{content_type}; charset=utf-8")

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        path = self.path.split("?", 1)[0]
        if path.removeprefix("/api/") not in ROUTES:
            self._error(HTTPStatus.NOT_FOUND, f"no API call at {path}; there are {', '.join(ROUTES)}")
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            self._error(HTTPStatus.BAD_REQUEST, "Content-Length is not a number")
            return
        if length > MAX_BODY:
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"request body over {MAX_BODY} bytes")
            return
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            self._error(HTTPStatus.BAD_REQUEST, "the request body is not JSON")
            return
        try:
            reply = answer(path.removeprefix("/api/"), request)
        except BackendUnavailable as error:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(error))
        except QueensError as error:  # BadRequest and every rule the puzzle itself enforces
            self._error(HTTPStatus.BAD_REQUEST, str(error))
        except Exception as error:  # a bug: still a message, and the server keeps serving
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {type(error).__name__}: {error}")
        else:
            self._json(HTTPStatus.OK, reply)


def make_server(host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A server ready to `serve_forever()`; port 0 picks a free one (see `server_address`)."""
    server = ThreadingHTTPServer((host, port), ExplorerHandler)
    server.daemon_threads = True
    return server
