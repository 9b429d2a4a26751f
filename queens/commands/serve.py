"""`queens serve`: the web explorer on this machine (http://127.0.0.1:8000 by default)."""

from __future__ import annotations

import click

from queens.commands.common import err
from queens.models import QueensError


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default keeps the explorer private to this machine.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
def serve_command(host, port) -> int:
    """Open a board in the browser: place queens, complete, count, step through the search."""
    from queens.web.server import make_server

    try:
        server = make_server(host, port)
    except OSError as error:
        raise QueensError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    bound_host, bound_port = server.server_address[:2]
    err.print(f"queens explorer on http://{bound_host}:{bound_port}/  (Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        err.print("stopped")
    finally:
        server.server_close()
    return 0
