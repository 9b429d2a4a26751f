"""The explorer under load: rounds of 200 requests at once on loopback against `queens serve`
as users run it, a mix of page loads, API calls, malformed requests and clients that hang up
mid-request; and a round of slow clients that never finish their request. Every answer is
JSON (or a page), never a 500; the server's memory (its RSS and its workers', from /proc)
settles rather than grows; it still answers afterwards, stops on Ctrl-C with exit 130, and its
stderr holds no traceback."""

from __future__ import annotations

import json
import signal
import socket
import threading
from collections import Counter
from pathlib import Path

import pytest

from tests.explorer_server import Served, children, exchange, serving

CLIENTS = 200
ROUNDS = 3


def _post(route: str, body: object) -> bytes:
    data = json.dumps(body).encode()
    return b"POST /api/%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (route.encode(), len(data), data)


GOOD = [
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n",
    _post("board", {"family": "nqueens", "n": 20, "queens": [[0, 0], [5, 7]]}),
    _post("complete", {"family": "nqueens", "n": 12, "backend": "native"}),
    _post("complete", {"family": "superqueens", "n": 10, "backend": "cpsat"}),
    _post("count", {"family": "nqueens", "n": 8, "backend": "sat"}),
    _post("count", {"family": "domination", "n": 12, "backend": "csp"}),  # runs into the time limit
    _post("solution", {"family": "nqueens", "n": 8, "index": 40}),
    _post("trace", {"family": "nqueens", "n": 6}),
    _post("why", {"family": "completion", "n": 8, "queens": [[3, 0], [4, 7], [6, 4], [1, 3], [0, 6]]}),
]
MALFORMED = [
    b"POST /api/board HTTP/1.1\r\nContent-Length: -1\r\n\r\n{}",
    b"POST /api/count HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n",
    b"POST /api/board HTTP/1.1\r\nContent-Length: 9\r\n\r\n{not json",
    b"POST /api/board HTTP/1.1\r\nContent-Length: 50000\r\n\r\n" + b"[" * 50_000,
    _post("board", {"family": "chess", "n": 8}),
    _post("count", {"family": "nqueens", "n": 10**9}),
    b"DELETE /api/board HTTP/1.1\r\n\r\n",
    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(100)),
    b"GET /" + b"x" * 70_000 + b" HTTP/1.1\r\n\r\n",
]
HANG_UPS = [
    b"POST /api/count HTTP/1.1\r\nContent-Length: 300\r\n\r\n{\"family\": \"nq",  # body cut short
    b"GET /api/in",  # request line cut short
    _post("count", {"family": "nqueens", "n": 10, "backend": "cpsat"}),  # gone before the answer
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # gone before the page
]


def _client(served: Served, number: int, start: threading.Barrier, outcomes: Counter[str]) -> None:
    """One client: every fifth hangs up, every fourth of the rest is malformed; the answer's status."""
    start.wait()
    if number % 5 == 0:
        with socket.create_connection((served.host, served.port), timeout=60) as connection:
            connection.sendall(HANG_UPS[number // 5 % len(HANG_UPS)])
        outcomes["hung up"] += 1
        return
    request = MALFORMED[number % len(MALFORMED)] if number % 4 == 0 else GOOD[number % len(GOOD)]
    try:
        reply = exchange(served.host, served.port, request)
    except ConnectionError:  # refused at the door, beyond the connections told "busy"
        outcomes["closed"] += 1
        return
    status = reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/1.0 ") else "no status line"
    outcomes[status] += 1


def _rss(pid: int) -> int:
    """Resident memory of a process in kB, from /proc (0 if it has just ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)


def _memory(pid: int) -> tuple[int, int, int]:
    """Resident memory in kB of the server itself and of its children (the solver workers and
    multiprocessing's tracker), and how many children there are."""
    workers = children(pid)
    return _rss(pid), sum(_rss(child) for child in workers), len(workers)


def _round(served: Served) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    start = threading.Barrier(CLIENTS)
    clients = [threading.Thread(target=_client, args=(served, number, start, outcomes)) for number in range(CLIENTS)]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    return outcomes


@pytest.mark.slow
def test_two_hundred_clients_at_once():
    with serving("--time-limit", "2") as served:
        assert b" 200 " in exchange(served.host, served.port, GOOD[4])  # every worker has loaded its solvers
        memory = [_memory(served.process.pid)]
        rounds = []
        for _ in range(ROUNDS):
            rounds.append(_round(served))
            memory.append(_memory(served.process.pid))
        print(f"\n{CLIENTS} clients x {ROUNDS} rounds: {[dict(sorted(r.items())) for r in rounds]}\n"
              f"RSS kB (server, children, number of children) before and after each round: {memory}")
        assert b" 200 " in exchange(served.host, served.port, GOOD[2])
        assert b'"count": 92' in exchange(served.host, served.port, GOOD[6])
        served.process.send_signal(signal.SIGINT)
        assert served.process.wait(timeout=60) == 130
    for outcomes in rounds:
        assert "500" not in outcomes and "no status line" not in outcomes, outcomes
        assert sum(outcomes.values()) == CLIENTS and outcomes["200"] > 0
    (server, _, children), *after = memory
    assert all(rss < server + 50_000 and count <= children for rss, _, count in after), memory
    assert "Traceback" not in served.stderr


SLOW_CLIENTS = 100
"""More than the connections the explorer reads at once (`MAX_READING`) and answers at once."""


def _slow_client(served: Served, started: threading.Barrier, stop: threading.Event, closed: Counter[str]) -> None:
    """A client that sends its request a byte at a time, never finishing it (slowloris)."""
    try:
        with socket.create_connection((served.host, served.port), timeout=30) as connection:
            started.wait()
            connection.sendall(b"POST /api/board HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
            while not stop.wait(0.2):
                connection.sendall(b" ")
                closed["bytes sent"] += 1
    except OSError:  # the server closed it: past its deadline, or to make room
        closed["closed"] += 1
    except threading.BrokenBarrierError:
        closed["never started"] += 1


def test_slow_clients_never_lock_out_a_well_behaved_one():
    """100 clients trickle a request that never ends (before the fix, 32 of them were enough to
    have everyone else told 503 until they hung up); a client that sends its request at once is
    answered, each time, and the server stops cleanly afterwards."""
    with serving("--workers", "1") as served:
        stop, closed = threading.Event(), Counter[str]()
        started = threading.Barrier(SLOW_CLIENTS + 1, timeout=60)
        slow = [threading.Thread(target=_slow_client, args=(served, started, stop, closed), daemon=True)
                for _ in range(SLOW_CLIENTS)]
        for client in slow:
            client.start()
        started.wait()
        while closed["bytes sent"] < 10 * SLOW_CLIENTS and not stop.wait(0.05):  # slow for a while: 2 s
            pass
        try:
            answers = [exchange(served.host, served.port, GOOD[2], timeout=30) for _ in range(5)]
            answers.append(exchange(served.host, served.port, GOOD[3], timeout=30))
        finally:
            stop.set()
            for client in slow:
                client.join(timeout=60)
        served.process.send_signal(signal.SIGINT)
        assert served.process.wait(timeout=60) == 130
    assert all(answer.startswith(b"HTTP/1.0 200 ") for answer in answers), [a[:40] for a in answers]
    assert "Traceback" not in served.stderr
