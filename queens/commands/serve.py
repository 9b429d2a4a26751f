"""`queens serve`: the web explorer on this machine (http://127.0.0.1:8000 by default).

Ctrl-C (SIGINT) or SIGTERM stops it cleanly: the port is released, the solver processes are
stopped, no traceback; the exit code is 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).
"""

from __future__ import annotations

import ipaddress
import signal
import threading

import click

from queens.commands.common import command, err
from queens.commands.number_options import Count, Seconds
from queens.models import QueensError
from queens.web.api import TIME_LIMIT
from queens.web.workers import WORKERS


def _loopback(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """The explorer is a teaching tool with no authentication: it serves this machine only."""
    try:
        if value == "localhost" or ipaddress.IPv4Address(value).is_loopback:
            return value
    except ValueError:
        pass
    raise click.BadParameter(f"{value!r}: the explorer listens on this machine only (127.0.0.1)")


@command("serve", examples=(
    "queens serve                             # http://127.0.0.1:8000/",
    "queens serve --port 0 --workers 4        # any free port, four searches at once",
))
@click.option("--host", default="127.0.0.1", show_default=True, callback=_loopback,
              help="Loopback address to bind (127.x.x.x): the explorer is private to this machine.")
@click.option("--port", type=Count(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--time-limit", type=Seconds(0.1, 600), default=TIME_LIMIT, show_default=True,
              help="Seconds one request may spend solving; a count cut short is shown as a lower bound.")
@click.option("--workers", type=Count(1, 16), default=WORKERS, show_default=True,
              help="Searches run at once (each in its own process); more requests get 503 'busy'.")
def serve_command(host: str, port: int, time_limit: float, workers: int) -> int:
    """Open a board in the browser: place queens, complete, count, step through the search."""
    from queens.web.server import make_server

    try:
        server = make_server(host, port, workers=workers, time_limit=time_limit)
    except OSError as error:
        raise QueensError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    bound_host, bound_port = server.server_address[:2]
    stopped_by: list[int] = []

    def stop(signum: int, frame: object) -> None:
        """Ask the serving loop to end, from a thread of its own: an exception raised here could
        land anywhere in the main thread, even inside a lock that would then never be released."""
        if not stopped_by:
            stopped_by.append(signum)
            threading.Thread(target=server.shutdown, name="stop", daemon=True).start()

    # Ctrl-C stops the explorer even when it was started with SIGINT ignored (`queens serve &`)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    err.print(f"queens explorer on http://{bound_host}:{bound_port}/  (Ctrl-C stops it)")
    try:
        server.serve_forever()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the clean-up short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        server.server_close()
    err.print("stopped")
    return 128 + stopped_by[0] if stopped_by else 0
