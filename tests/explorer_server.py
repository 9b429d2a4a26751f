"""The explorer's real server on an ephemeral loopback port: in a thread (`running_explorer`, for
the HTTP and browser tests) or as the `queens serve` command a user runs (`serving`, for the
load and signal tests), plus a raw HTTP exchange for requests no well-behaved client sends."""

from __future__ import annotations

import re
import selectors
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

from queens.web.server import make_server
from tests.cli import start_cli

STARTUP = 60.0
"""Seconds `queens serve` may take to print its address on a loaded machine."""


class ExplorerOptions(TypedDict, total=False):
    """make_server's keywords a test may set."""

    workers: int
    time_limit: float


@contextmanager
def running_explorer(**options: Unpack[ExplorerOptions]) -> Iterator[str]:
    """Serve in a background thread; yield the base URL (http://127.0.0.1:PORT); stop on exit."""
    server = make_server(port=0, **options)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class Served:
    """A running `queens serve`: its process, address, the line it printed at start and, once
    it has ended, everything else it printed on stderr."""

    process: subprocess.Popen[str]
    host: str
    port: int
    banner: str
    stderr: str = ""


@contextmanager
def serving(*args: str) -> Iterator[Served]:
    """`queens serve --port 0 ARGS` as a subprocess, once it prints its address; killed on exit
    if the test has not stopped it."""
    process = start_cli("serve", "--port", "0", *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner = _first_line(process)
        found = re.search(r"http://([\d.]+):(\d+)/", banner)
        assert found, f"queens serve printed no address: {banner!r}"
        served = Served(process, found.group(1), int(found.group(2)), banner)
        yield served
    finally:
        if process.poll() is None:
            process.kill()
        stderr = process.communicate(timeout=STARTUP)[1]
    served.stderr = stderr


def _first_line(process: subprocess.Popen[str]) -> str:
    """The server's first line on stderr, waiting for it at most `STARTUP` seconds."""
    assert process.stderr is not None  # started with stderr=PIPE
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        if not selector.select(STARTUP):
            raise AssertionError(f"queens serve printed nothing in {STARTUP:g} s")
    return process.stderr.readline()


def exchange(host: str, port: int, data: bytes, timeout: float = 60.0) -> bytes:
    """Send raw bytes and say that is all (so a short body is seen as short, not awaited), then
    read the reply to the end (the explorer closes each connection)."""
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    return reply


def children(pid: int, running: str = "") -> set[int]:
    """Processes whose parent is `pid` (and whose command line holds `running`), from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid and \
                    running.encode() in (stat.parent / "cmdline").read_bytes():
                found.add(int(stat.parent.name))
        except OSError:  # the process ended while we looked
            continue
    return found


def occupy(host: str, port: int, request: bytes) -> None:
    """Send a long search, again whenever the server is busy (with the test's own polling), until
    a worker takes it; the connection may end with the server, which is no error here."""
    try:
        while b"is busy" in exchange(host, port, request):
            pass
    except OSError:
        pass
