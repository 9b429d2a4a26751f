"""The explorer's contract, fuzzed: whole HTTP requests drawn from the routes the server declares.

The HTTP half of the contract fuzzer (`test_contract_fuzz` is the CLI's). Hypothesis draws a
method, a path, a protocol version, headers and a body, and sends the bytes to a real
`queens serve` on a loopback port. The paths are the server's own tables (`PAGES`, the API's
`ROUTES`, so a new route is fuzzed without editing this file) and odd ones (unknown, path
traversal, 70,000 bytes long); the headers give a Content-Length that is right, missing, short,
long, negative, huge or no number, and odd Content-Types; a body is either a JSON object whose
fields (`FIELDS`) take values at their edges (0, -1, each limit and one past it, 2^64 - 1, NaN,
infinity, a wrong type) or raw bytes (not UTF-8, nested 100,000 deep, a 60 KB string, over
`MAX_BODY`). Whatever is drawn, the contract holds:

- the reply is well-formed HTTP/1.x: a status line, headers, and a body of its Content-Length;
- the status is one of `STATUSES`, never 500;
- every reply but a static page is a JSON object, and every 4xx and 5xx is {"error": message}
  with a message (one shape; `queens.web.server`);
- it arrives within `BOUND` seconds (the server's time limit is 1 s);
- any placement a 200 reply calls solved or optimal passes the independent checker
  (`queens.models.verify`) on the puzzle the request describes, the placed queens included;
- the server still answers afterwards (GET /api/info), and never prints an internal error.

A short run is part of `make test`; `make fuzz-http` runs many (QUEENS_FUZZ_EXAMPLES, the
variable `make fuzz-cli` reads) and, with `--hypothesis-show-statistics`, counts each route and
each status as an event. Requests that once broke the contract are kept as explicit examples.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from queens.models import verify
from queens.models.drawing import Canvas

from queens.web.api import MAX_SIDE, MAX_SOLUTION_INDEX, ROUTES, _Board, catalogue
from queens.web.schema import KEYS
from queens.web.server import JOB_CALLS, MAX_BODY, PAGES
from tests.explorer_server import Served, exchange, serving

EXAMPLES = int(os.environ.get("QUEENS_FUZZ_EXAMPLES", "40"))
BOUND = 30.0
"""Seconds a reply may take: the server's time limit (1 s) and its grace, with room for a loaded machine."""
STATUSES = {200, 400, 404, 405, 411, 413, 414, 431, 503, 505}
"""What the explorer answers, each explained in docs/json.md ("The explorer's HTTP replies"). Never 500."""

FAMILIES, BACKENDS = catalogue()
GETS = [*PAGES, "/api/info"]
POSTS = [f"/api/{route}" for route in (*ROUTES, *JOB_CALLS)]
"""Every call the server takes: the solver calls and the job calls (progress, cancel)."""
ODD_PATHS = ["/nothing", "/api/", "/api/nothing", "/api/info/", "/api", "/static/../../etc/passwd",
             "/../pyproject.toml", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/index.html/..", "/app.js?x=1",
             "/api/count?family=nqueens&n=8", "*", "http://127.0.0.1/api/info", "/%00", "/\u00e9",
             "/" + "a" * 5_000, "/" + "a" * 70_000, "/a b"]
METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT", "BREW", "get", ""]
VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "", "FOO/1.1", "HTTP/1.1 x"]
CONTENT_TYPES = [None, "application/json", "text/plain", "application/json; charset=latin-1",
                 "multipart/form-data; boundary=x", "\x00\xff"]

NUMBERS = [-1, 0, 1, 2.5, 2**63, 2**64 - 1, 10**30, float("nan"), float("inf"), 1e400, "8", True, None, [4]]
"""Edges any whole-number field is tried at, beside its own bounds."""
CELLS = [[0, 0], [1, 2], [2, 4], [3, 1], [0, 5], [4, 4]]
BAD_CELLS = [[-1, 0], [MAX_SIDE, 0], [0, 2**64 - 1], [0], [0, 0, 0], ["0", 0], [True, 0], [0.5, 1], [float("nan"), 0],
             "0,0", None]


def _whole(low: int, high: int) -> list[object]:
    """A whole-number field's edges: its bounds and one past them, and the `NUMBERS` edges."""
    return [low - 1, low, high, high + 1, *NUMBERS]


def _cells(count: int) -> st.SearchStrategy[object]:
    return st.lists(st.sampled_from(CELLS), max_size=count)


def _bad_cells(count: int) -> st.SearchStrategy[object]:
    return (st.lists(st.sampled_from([*CELLS, *BAD_CELLS]), min_size=1, max_size=count)
            | st.sampled_from(["0,0", {"0": 0}, None, [[0, 0]] * (MAX_SIDE**2 + 1), [[1, 2], [1, 2]]]))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=12)
"""Any JSON value at all: a field's edge of last resort, and a whole body."""

FIELDS: dict[str, tuple[st.SearchStrategy[object], st.SearchStrategy[object]]] = {
    "family": (st.sampled_from(list(FAMILIES)), st.sampled_from(["chess", "", "NQUEENS", 8, None, ["nqueens"]])),
    "n": (st.sampled_from([1, 2, 3, 4, 5, 6, 8]), st.sampled_from(_whole(1, MAX_SIDE))),
    "m": (st.sampled_from([None, None, None, 3, 5]), st.sampled_from(_whole(1, MAX_SIDE))),  # null: square
    "queens": (_cells(3), _bad_cells(4)),
    "pawns": (_cells(2), _bad_cells(2)),
    "backend": (st.sampled_from(BACKENDS), st.sampled_from(["magic", "", "NATIVE", 3, ["native"], None])),
    "index": (st.sampled_from([0, 1, 3]), st.sampled_from(_whole(0, MAX_SOLUTION_INDEX))),
    "solutions": (st.sampled_from([0, 1, 2]), st.sampled_from(_whole(0, MAX_SOLUTION_INDEX))),
    "job": (st.sampled_from(["fuzz-1", "fuzz_2"]), st.sampled_from(["", "a" * 65, "../x", "a b", 3, None])),
    "file": (st.sampled_from(['[board]\nshape = ["n", "n"]\n[[army]]\npiece = "king"\ncount = "maximise"\n']),
             st.sampled_from(["", "[board", "[board]\nshape = ['n', 'n']\n[[army]]\ncopies = 1000000000\n", 3])),
    "var": (st.sampled_from(["input_order", "first_fail"]), st.sampled_from(["nope", "", 3])),
    "val": (st.sampled_from(["indomain_min", "indomain_max"]), st.sampled_from(["nope", "", 3])),
    "propagate": (st.sampled_from(["forward", "ac3"]), st.sampled_from(["nope", "", 3])),
    "all": (st.booleans(), st.sampled_from(["yes", 1, None])),
    "seed": (st.sampled_from([0, 1]), st.sampled_from(_whole(0, 2**64 - 1))),
}
"""Every field an API call reads (`queens.web.schema.KEYS`): (ordinary values, values at its
edges). A request to a call draws from the fields that call reads, and now and then one it
does not (`UNKNOWN`), which the schema refuses (400)."""
UNKNOWN = st.sampled_from(["independent", "x", "N", "index", "backend", ""])
"""Keys some call does not read: the explorer once ignored them ({"independent": true} counted
the plain domination)."""
assert set().union(*KEYS.values()) <= set(FIELDS), "a key the schema reads is not fuzzed: add it to FIELDS"
NEEDED = ("family", "n")
"""The fields every call needs: given in most requests, so that most reach the solvers."""

RAW_BODIES = [b"", b"{", b"\xff\xfe{}", b'{"family": "nqueens", "n": 4, "x": "\xc3\x28"}', b"[" * 1_000,
              b"[" * 100_000, b'{"family": "nqueens", "n": 4, "x": "' + b"a" * 60_000 + b'"}',
              b'{"family": "nqueens", "n": ' + b"9" * 5_000 + b"}", b'{"n": 4, "n": 5, "family": "nqueens"}',
              '{"family": "nqueens", "n": 4}'.encode("utf-16"), b'\xef\xbb\xbf{"family": "nqueens", "n": 4}',
              b'{"family": "nqueens", "n": 4}\x00', b"null", b'"nqueens"', b"[1, 2]", b"NaN", b" " * (MAX_BODY + 1)]
"""Bodies no JSON encoder writes: broken, not UTF-8, too deep, too long, the wrong JSON type."""


@st.composite
def bodies(draw: st.DrawFn, route: str | None = None) -> bytes:
    """Mostly a JSON object of ordinary values for the fields `route` reads (`KEYS`; all of them
    for a path that is no call) with one or two fields at an edge (one edge at a time is how a
    refusal is tested, and leaves many requests good enough to solve); sometimes a key the call
    does not read; sometimes a field every call needs left out; sometimes any JSON value at all,
    or raw bytes."""
    kind = draw(st.integers(0, 15))
    if kind < 2:
        return draw(st.sampled_from(RAW_BODIES))
    if kind == 2:
        return json.dumps(draw(JSON)).encode()
    read = sorted(KEYS.get(route or "", FIELDS))
    ordinary = {key: FIELDS[key][0] for key in read}
    request = draw(st.fixed_dictionaries({key: ordinary[key] for key in NEEDED if key in ordinary},
                                         optional={k: v for k, v in ordinary.items() if k not in NEEDED}))
    for key in draw(st.lists(st.sampled_from(read), max_size=2, unique=True)):
        request[key] = draw(FIELDS[key][1] | JSON)
    if draw(st.integers(0, 7)) == 0:
        request[draw(UNKNOWN)] = draw(JSON)
    if draw(st.integers(0, 7)) == 0 and set(NEEDED) & set(request):
        del request[draw(st.sampled_from(sorted(set(NEEDED) & set(request))))]
    return json.dumps(request).encode()  # NaN and Infinity as Python writes them: JSON that the server reads


@st.composite
def requests(draw: st.DrawFn) -> bytes:
    """A whole HTTP request: request line, headers and body, each drawn from its edges."""
    method = draw(st.sampled_from([*["GET", "POST", "POST"] * 24, *METHODS]))
    usual = POSTS if method == "POST" else GETS
    path = draw(st.sampled_from([*usual * 24, *GETS, *POSTS, *ODD_PATHS]))
    version = draw(st.sampled_from([*VERSIONS[:2] * 24, *VERSIONS]))
    body = draw(bodies(path.removeprefix("/api/"))) if method != "GET" or draw(st.integers(0, 7)) == 0 else b""
    event(f"route: {method} {path[:40]}")
    length = draw(st.sampled_from([*[len(body)] * 40, None, 0, len(body) - 1, len(body) + 10, -1, "abc", "1e3",
                                   MAX_BODY + 1, "9" * 30, f" {len(body)} ", "\u00b3"]))
    headers = [b"Host: 127.0.0.1"] if draw(st.integers(0, 7)) else []
    if length is not None:
        headers.append(f"Content-Length: {length}".encode())
    content_type = draw(st.sampled_from(CONTENT_TYPES))
    if content_type is not None:
        headers.append(f"Content-Type: {content_type}".encode("latin-1"))
    headers.extend(draw(st.sampled_from([*[[]] * 24, [b"Transfer-Encoding: chunked"], [b"X-\xff: \x00"],
                                         [b"no colon"], [b"Connection: keep-alive"], [b"X-A: b"] * 101,
                                         [b"X-A: " + b"b" * 70_000]])))
    line = " ".join(part for part in (method, path, version) if part)
    return b"\r\n".join([line.encode("utf-8"), *headers, b"", body])


def _parsed(reply: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of a reply, asserting that it is well-formed HTTP/1.x."""
    head, separator, body = reply.partition(b"\r\n\r\n")
    assert separator, f"no end of headers in {reply[:200]!r}"
    status_line, *lines = head.decode("latin-1").split("\r\n")
    found = re.fullmatch(r"HTTP/1\.[01] (\d{3}) .*", status_line)
    assert found, f"no status line: {status_line[:200]!r}"
    headers = {}
    for line in lines:
        name, colon, value = line.partition(":")
        assert colon, f"a header line without a colon: {line!r}"
        headers[name.strip().lower()] = value.strip()
    return int(found.group(1)), headers, body


def _placement(request: dict[str, Any], reply: dict[str, Any]) -> None:
    """The reply's placement, read back from the page's canvas onto the puzzle the request
    describes, passes the independent checker (every army, the queens placed, the pawns the
    solver placed, a colouring's copies)."""
    board = _Board(request)
    puzzle = board.puzzle()
    if puzzle.copies_open:  # a colouring is answered on its fewest copies, the reply's objective
        puzzle = puzzle.with_copies(reply["objective"])
    canvas = Canvas.of(puzzle)
    cell_at = {canvas.position(cell): cell for cell in puzzle.board_cells}
    squares = {tuple(square) for square in reply["solution"]}
    assert set(board.queens) <= squares, (board.queens, reply["solution"])
    drawn = [a for a, army in enumerate(puzzle.armies) if not (army.piece.attacks_nothing and board.pawns_first)]
    armies: list[list[tuple[int, ...]]] = [[] for _ in puzzle.armies]
    for square, army in zip(reply["solution"], reply["armies"], strict=True):
        armies[drawn[army]].append(cell_at[tuple(square)])
    placed = {tuple(square) for square in reply["pawns"]} - {canvas.position(c) for c in puzzle.blockers}
    for army in (a for a in range(len(puzzle.armies)) if a not in drawn):
        armies[army] += [cell_at[square] for square in placed]
    verify(puzzle, puzzle.placement_of(armies))


def _sent_json(request: bytes) -> object:
    """The JSON object the request carried (its body cut at its Content-Length, as the server reads it)."""
    head, _, body = request.partition(b"\r\n\r\n")
    declared = re.search(rb"\r\nContent-Length: *(\d+) *\r\n", head + b"\r\n")  # spaces around: allowed
    return json.loads(body[: int(declared.group(1)) if declared else 0] or b"{}")


def _check(served: Served, request: bytes) -> None:
    reply = exchange(served.host, served.port, request, timeout=BOUND)
    status, headers, body = _parsed(reply)
    event(f"status: {status}")
    assert status in STATUSES, (status, body[:500])
    is_head = request.startswith(b"HEAD ")
    assert int(headers["content-length"]) == len(body) or (is_head and not body), (headers, len(body))
    if headers["content-type"] != "application/json":
        assert status == 200 and request.split(b" ")[1].split(b"?")[0].decode() in PAGES, (headers, request[:200])
        return
    if is_head:
        return
    payload = json.loads(body)
    assert isinstance(payload, dict), payload
    if status >= 400:
        assert set(payload) == {"error"} and isinstance(payload["error"], str) and payload["error"], payload
        assert "internal error" not in payload["error"], payload
        return
    route = request.split(b" ")[1].decode("utf-8", "replace").removeprefix("/api/")
    if request.startswith(b"POST ") and route in KEYS:  # the schema: a key the call does not read is refused
        sent = _sent_json(request)
        assert not isinstance(sent, dict) or set(sent) <= KEYS[route], (route, sent, payload)
    if "status" in payload:
        event(f"answer: {payload['status']}")
    if payload.get("status") in ("solved", "optimal") and payload.get("solution"):
        sent = _sent_json(request)
        assert isinstance(sent, dict), sent  # the server answered it: an object
        _placement(sent, payload)


def _still_serving(served: Served) -> None:
    status, _, body = _parsed(exchange(served.host, served.port, b"GET /api/info HTTP/1.0\r\n\r\n", timeout=BOUND))
    assert status == 200 and b'"families"' in body, (status, body[:300])


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """One `queens serve` for the whole run, with a short time limit; its stderr, once stopped,
    holds no internal error."""
    with serving("--time-limit", "1", "--workers", "2") as running:
        _still_serving(running)
        yield running
    assert "internal error" not in running.stderr and "Traceback" not in running.stderr, running.stderr[-2000:]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])
@given(request=requests())
@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # a 70 KB request, shown only if it fails
# the fuzzer's own misreading of a Content-Length with spaces around it
@example(request=b'POST /api/complete HTTP/1.1\r\nContent-Length:  29 \r\n\r\n{"family": "nqueens", "n": 1}')
@example(request=b"GET / HTTP/0.9\r\n\r\n")  # found by this fuzzer: a page with no status line (now 505)
@example(request=b"GET /api/info\r\n\r\n")  # the same, as HTTP/0.9's own request line
@example(request=b"DELETE / HTTP/1.1\r\nX-A: " + b"b" * 70_000 + b"\r\n\r\n")  # found: a reset, not its 431
@example(request=b"POST /api/board HTTP/1.1\r\nContent-Length: 65537\r\n\r\n" + b" " * 65_537)  # the same, 413
@example(request=b'POST /api/count HTTP/1.1\r\nContent-Length: 53\r\n\r\n'  # issue 37: counted 86, the plain count
                 b'{"family": "domination", "n": 7, "independent": true}')
@example(request=b'POST /api/progress HTTP/1.1\r\nContent-Length: 18\r\n\r\n{"job": "nothing"}')
@example(request=b'POST /api/cancel HTTP/1.1\r\nContent-Length: 10\r\n\r\n{"job": 3}')
def test_every_request_keeps_the_contract(request: bytes, served: Served) -> None:
    _check(served, request)
    _still_serving(served)

