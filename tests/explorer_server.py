"""The explorer's real server on an ephemeral loopback port, for the HTTP and browser tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from queens.web.server import make_server


@contextmanager
def running_explorer() -> Iterator[str]:
    """Serve in a background thread; yield the base URL (http://127.0.0.1:PORT); stop on exit."""
    server = make_server(port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
