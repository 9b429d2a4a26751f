"""Stopping `queens serve` with Ctrl-C (SIGINT) or SIGTERM, idle or in the middle of a search:
exit 128 + signal, "stopped" and no traceback, no solver process left, the port free again."""

from __future__ import annotations

import json
import signal
import socket
import threading
from pathlib import Path

import pytest

from tests.explorer_server import children, exchange, occupy, serving

SEARCH = json.dumps({"family": "domination", "n": 12, "backend": "csp"}).encode()
QUICK = b'POST /api/count HTTP/1.0\r\nContent-Length: 27\r\n\r\n{"family": "kings", "n": 3}'


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("searching", [False, True], ids=["idle", "searching"])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_stops_cleanly(signum, code, searching):
    with serving("--time-limit", "60", "--workers", "1") as served:
        assert b" 200 OK" in exchange(served.host, served.port, b"GET /api/info HTTP/1.0\r\n\r\n")
        workers = children(served.process.pid, "spawn_main")  # not multiprocessing's tracker: it ends by itself
        search = b"POST /api/complete HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(SEARCH), SEARCH)
        client = threading.Thread(target=occupy, args=(served.host, served.port, search))
        if searching:
            client.start()
            while b"is busy" not in exchange(served.host, served.port, QUICK):
                pass  # poll until the worker is searching
        served.process.send_signal(signum)
        served.process.wait(timeout=60)
        if searching:
            client.join()
    assert served.process.returncode == code
    assert "Traceback" not in served.stderr and served.stderr.strip().endswith("stopped")
    assert not [pid for pid in workers if _alive(pid)]
    with socket.socket() as again:  # the port can be listened on again at once
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind((served.host, served.port))
        again.listen()
