"""The explorer's bounds, against `queens serve` as users run it: a request's time limit is
kept (what is known is answered as a bound), and when every worker is searching, more
searches are refused at once with 503 while the page's cheap calls are still answered."""

from __future__ import annotations

import json
import signal
import socket
import struct
import threading
from typing import Any

from tests.cli import run_cli
from tests.explorer_server import Served, exchange, occupy, serving

SLOW = {"family": "domination", "n": 12, "backend": "csp"}
"""A search that outlasts any time limit here (csp has no fast path for it)."""
STUCK_WHY = {"family": "ninequeens", "n": 20, "pawns": [[0, 0], [0, 19], [19, 0], [19, 19]]}
"""24 queens on 20 x 20 and pawns that split no line: why? must refute a pigeonhole, which takes a
SAT solver seconds (measured: 1.2 s at 14 x 14, over 3 s at 20 x 20)."""


def _request(route: str, body: dict[str, Any]) -> bytes:
    data = json.dumps(body).encode()
    return b"POST /api/%s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (route.encode(), len(data), data)


def _post(served: Served, route: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    reply = exchange(served.host, served.port, _request(route, body))
    head, _, payload = reply.partition(b"\r\n\r\n")
    answer: dict[str, Any] = json.loads(payload)
    return int(head.split()[1]), answer


def test_time_limit_gives_a_bound_and_the_server_goes_on():
    with serving("--time-limit", "1") as served:
        assert served.host == "127.0.0.1"
        # 12 kings, one per row and column (A002464(12) = 63,779,034 solutions): no enumeration ends in 1 s
        status, reply = _post(served, "count", {"family": "kings", "n": 12, "backend": "cpsat"})
        assert status == 200 and reply["status"] == "time limit" and not reply["exact"]
        assert reply["message"].startswith(f"≥ {reply['count']:,} solutions (time limit: 1 s)")
        status, reply = _post(served, "count", SLOW)  # kept to the limit, by the backend or by the server
        assert status == 200 and reply["status"] == "time limit" and "time limit" in reply["message"]
        status, reply = _post(served, "why", STUCK_WHY)  # why? too: stopped, answered, not an error
        assert status == 200 and reply["status"] == "time limit" and "time limit" in reply["message"]
        status, reply = _post(served, "count", {"family": "nqueens", "n": 6})
        assert status == 200 and reply["count"] == 4 and reply["exact"]
    assert "Traceback" not in served.stderr


def test_busy_workers_refuse_at_once_and_the_board_still_answers():
    with serving("--time-limit", "20", "--workers", "1") as served:
        slow = threading.Thread(target=occupy, args=(served.host, served.port, _request("complete", SLOW)))
        slow.start()
        refused = None
        while slow.is_alive() and refused is None:  # poll until the slow search holds the worker
            status, reply = _post(served, "count", {"family": "nqueens", "n": 5})
            refused = reply if status == 503 else None
        assert refused and "busy" in refused["error"]
        status, reply = _post(served, "board", {"family": "nqueens", "n": 5, "queens": [[0, 0]]})
        assert status == 200 and [0, 4] in reply["attacked"]
        served.process.terminate()
        slow.join()
    assert "Traceback" not in served.stderr


def test_listens_on_this_machine_only():
    result = run_cli("serve", "--host", "0.0.0.0", timeout=60)
    assert result.returncode == 2 and "this machine only" in result.stderr and "Traceback" not in result.stderr


def _hang_up(served: Served, request: bytes) -> None:
    """Send a request and reset the connection at once (SO_LINGER 0): the reply meets a closed socket."""
    with socket.create_connection((served.host, served.port), timeout=60) as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.sendall(request)


def test_clients_that_hang_up_leave_no_traceback():
    with serving() as served:
        for request in (b"GET / HTTP/1.1\r\n\r\n", b"GET /app.js HTTP/1.1\r\n\r\n", _request("board", {"n": 3}),
                        _request("count", {"family": "nqueens", "n": 8}), b"POST /api/board HTTP/1.1\r\n",
                        b"POST /api/count HTTP/1.1\r\nContent-Length: 50\r\n\r\n{"):
            _hang_up(served, request)
        status, reply = _post(served, "count", {"family": "nqueens", "n": 8})
        assert status == 200 and reply["count"] == 92
        served.process.send_signal(signal.SIGINT)
        assert served.process.wait(timeout=60) == 130
    assert "Traceback" not in served.stderr and "Error" not in served.stderr
