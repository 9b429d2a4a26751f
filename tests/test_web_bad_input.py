"""Bad HTTP requests, one table: each gets its status and a message naming the real cause, as
JSON, and the server keeps serving. Drawn requests, random JSON among them, are the contract
fuzzer's (`test_http_fuzz`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from queens.web.api import MAX_SIDE, MAX_WHY_GIVENS
from queens.web.server import MAX_BODY
from queens.web.user_file import MAX_FILE_CHARS
from tests.explorer_server import exchange, running_explorer


def post(route: str, body: object) -> bytes:
    data = json.dumps(body).encode()
    return b"POST /api/%s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (route.encode(), len(data), data)


def raw_post(route: str, body: bytes, length: int | str | None = None) -> bytes:
    declared = len(body) if length is None else length
    head = f"POST /api/{route} HTTP/1.1\r\nHost: x\r\nContent-Length: {declared}\r\n\r\n"
    return head.encode("latin-1") + body


def method(verb: str, path: str = "/") -> bytes:
    return f"{verb} {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()


Q4 = {"family": "nqueens", "n": 4}
PAWNS_80 = [[r, c] for r in range(4) for c in range(20)]
KINGS = 'title = "kings"\n[board]\nshape = ["n", "n"]\n[[army]]\npiece = "king"\ncount = "n"\n'
"""A user's puzzle file: n kings, none adjacent (no rule on lines)."""
F4 = {"file": KINGS, "n": 4}
BAD = [
    # (what, request bytes, expected status, fragment of the error or message)
    ("unknown page", method("GET", "/nothing"), 404, "nothing at /nothing"),
    ("path outside the package", method("GET", "/../pyproject.toml"), 404, "nothing at"),
    ("GET on an API call", method("GET", "/api/count"), 405, "takes a POST"),
    ("PUT", method("PUT", "/api/board"), 405, "PUT is not used"),
    ("DELETE", method("DELETE", "/"), 405, "DELETE is not used"),
    ("PATCH", method("PATCH", "/api/count"), 405, "PATCH is not used"),
    ("OPTIONS", method("OPTIONS", "/"), 405, "OPTIONS is not used"),
    ("made-up method", method("BREW", "/"), 405, "BREW is not used"),
    ("POST to the page", post("", Q4).replace(b"/api/", b"/", 1), 404, "no API call at /"),
    ("POST to an unknown call", post("nothing", Q4), 404, "no API call at /api/nothing"),
    ("POST to info", post("info", Q4), 404, "no API call at /api/info"),
    ("garbage request line", b"GARBAGE\r\n\r\n", 400, "Bad request syntax"),
    ("TLS handshake on plain HTTP", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(64)), 400,
     "Bad request"),
    ("HTTP/3.0", b"GET / HTTP/3.0\r\n\r\n", 505, "Invalid HTTP version (3.0)"),
    ("HTTP/0.9 (a reply without a status line)", b"GET /\r\n\r\n", 505, "HTTP/0.9 is not spoken here"),
    ("a URL of 70,000 bytes", method("GET", "/" + "a" * 70_000), 414, "Too Long"),
    ("101 headers", b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 101 + b"\r\n", 431, "Too many headers"),
    ("a header of 70,000 bytes", b"GET / HTTP/1.1\r\nX-A: " + b"b" * 70_000 + b"\r\n\r\n", 431, "Line too long"),
    ("negative Content-Length", raw_post("board", b"{}", -5), 400, "must be a number of bytes, got '-5'"),
    ("Content-Length not a number", raw_post("board", b"{}", "abc"), 400, "Content-Length must be a number"),
    ("Content-Length in exponent form", raw_post("board", b"{}", "1e3"), 400, "Content-Length must be a number"),
    ("Content-Length in superscript digits", raw_post("board", b"{}", "\u00b3"), 400,
     "Content-Length must be a number"),
    ("Content-Length of 14 digits", raw_post("board", b"{}", 10**13), 413, f"over {MAX_BODY} bytes"),
    ("Content-Length of 5,000 digits", raw_post("board", b"{}", "9" * 5000), 413, f"over {MAX_BODY} bytes"),
    ("body over the limit", raw_post("board", b"", MAX_BODY + 1), 413, f"over {MAX_BODY} bytes"),
    ("chunked body", b"POST /api/board HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 411,
     "Content-Length, not chunked"),
    ("body shorter than declared", raw_post("board", b'{"family"', 100), 400, "ended before its Content-Length"),
    ("not JSON", raw_post("board", b"{not json"), 400, "not JSON"),
    ("not UTF-8", raw_post("board", b"\xff\xfe{}"), 400, "not JSON"),
    ("JSON nested 50,000 deep", raw_post("board", b"[" * 50_000), 400, "not JSON"),
    ("a number of 5,000 digits", raw_post("board", b'{"family": "nqueens", "n": ' + b"9" * 5000 + b"}"), 400,
     "not JSON"),
    ("a JSON list", post("board", [1, 2]), 400, "must be a JSON object"),
    ("a JSON string", post("count", "nqueens"), 400, "must be a JSON object"),
    ("JSON null", post("complete", None), 400, "must be a JSON object"),
    ("empty body", raw_post("board", b""), 400, "unknown family None"),
    ("unknown family", post("board", {"family": "chess", "n": 8}), 400, "unknown family 'chess'"),
    ("family as a number", post("board", {"family": 8, "n": 8}), 400, "unknown family 8"),
    ("family as a list", post("count", {"family": ["nqueens"], "n": 8}), 400, "unknown family ['nqueens']"),
    ("n missing", post("board", {"family": "nqueens"}), 400, "'n' must be a whole number, got None"),
    ("n as text", post("board", {"family": "nqueens", "n": "8"}), 400, "'n' must be a whole number, got '8'"),
    ("n as a float", post("complete", {"family": "nqueens", "n": 8.0}), 400, "whole number, got 8.0"),
    ("n as a boolean", post("board", {"family": "nqueens", "n": True}), 400, "whole number, got True"),
    ("n = 0", post("board", {"family": "nqueens", "n": 0}), 400, f"between 1 and {MAX_SIDE}, got 0"),
    ("n < 0", post("count", {"family": "kings", "n": -3}), 400, f"between 1 and {MAX_SIDE}, got -3"),
    ("n one over the limit", post("board", {"family": "nqueens", "n": MAX_SIDE + 1}), 400, f"between 1 and {MAX_SIDE}"),
    ("n = 10^30", post("complete", {"family": "nqueens", "n": 10**30}), 400, f"between 1 and {MAX_SIDE}"),
    ("n = 1e308", post("board", {"family": "nqueens", "n": 1e308}), 400, "whole number"),
    ("m on a square family", post("board", {"family": "superqueens", "n": 8, "m": 5}), 400, "superqueens is square"),
    ("m as text", post("board", {"family": "nqueens", "n": 8, "m": "x"}), 400, "'m' must be a whole number"),
    ("queens as text", post("board", {**Q4, "queens": "0,0"}), 400, "'queens' must be a list of [row, col] pairs"),
    ("a queen with one coordinate", post("board", {**Q4, "queens": [[0]]}), 400, "pairs, got [0]"),
    ("a queen with a text coordinate", post("board", {**Q4, "queens": [[0, "a"]]}), 400, "pairs, got [0, 'a']"),
    ("a queen with a boolean coordinate", post("board", {**Q4, "queens": [[True, 0]]}), 400, "pairs, got [True, 0]"),
    ("a queen off the board", post("board", {**Q4, "queens": [[9, 9]]}), 400, "queen at (9, 9) is off the 4x4 board"),
    ("a queen at a negative row", post("complete", {**Q4, "queens": [[-1, 0]]}), 400, "off the 4x4 board"),
    ("a queen listed twice", post("board", {**Q4, "queens": [[0, 0], [0, 0]]}), 400, "listed twice"),
    ("more queens than cells", post("board", {**Q4, "queens": [[0, 0]] * 17}), 400, "list of [row, col] pairs"),
    ("pawns on n-queens", post("complete", {"family": "nqueens", "n": 8, "pawns": [[2, 2]]}), 400, "has no pawns"),
    ("a pawn under a queen", post("board", {"family": "ninequeens", "n": 8, "pawns": [[2, 2]], "queens": [[2, 2]]}),
     400, "share a square"),
    ("a pawn off the board", post("board", {"family": "ninequeens", "n": 8, "pawns": [[8, 8]]}), 400,
     "pawn at (8, 8) is off the 8x8 board"),
    ("unknown backend", post("complete", {**Q4, "backend": "magic"}), 400, "unknown backend 'magic'"),
    ("backend as a number", post("count", {**Q4, "backend": 3}), 400, "unknown backend 3"),
    ("backend as a list", post("solution", {**Q4, "backend": ["native"]}), 400, "unknown backend ['native']"),
    # keys no call reads (issue 37): refused, named, with the keys the call reads
    ("a flag the explorer has no key for", post("count", {"family": "domination", "n": 7, "independent": True}), 400,
     "unknown key 'independent' for /api/count; it reads backend, family, file, job, m, n, pawns, queens"),
    ("a misspelt key", post("complete", {**Q4, "queen": [[0, 1]]}), 400, "unknown key 'queen' for /api/complete"),
    ("a key of another call", post("count", {**Q4, "index": 3}), 400, "unknown key 'index' for /api/count"),
    ("a backend for the board", post("board", {**Q4, "backend": "native"}), 400,
     "unknown key 'backend' for /api/board"),
    ("a key of 60,000 characters", post("board", {**Q4, "k" * 60_000: 1}), 400, "unknown key 'kkkkkkkkk"),
    # the user's own puzzle file: the file reader's one-line errors, and the explorer's bounds
    ("a file that is not TOML", post("board", {"file": "[board\nshape = 1", "n": 4}), 400,
     "your puzzle file: not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 7)"),
    ("a file with an unknown piece", post("count", {"file": KINGS.replace("king", "kong"), "n": 4}), 400,
     "your puzzle file: key 'army.piece': unknown piece 'kong'"),
    ("a file with an unknown key", post("board", {"file": KINGS + "colour = 1\n", "n": 4}), 400,
     "your puzzle file: unknown key 'army.colour'"),
    ("a file with no army", post("board", {"file": "[board]\nshape = [4, 4]\n", "n": 4}), 400,
     "your puzzle file: key 'army'"),
    ("a file's board over the explorer's side", post("board", {"file": '[board]\nshape = [5000, 5000]\nholes = "r == c"'
                                                                  '\n[[army]]', "n": 4}), 400,
     f"the board is 5000x5000; the explorer draws sides up to {MAX_SIDE}"),
    ("a file's board made large by a parameter", post("board", {"file": '[parameters]\nk = "n*n*n"\n[board]\n'
                                                                     'shape = ["k", "k"]\n[[army]]', "n": 20}), 400,
     "the board is 8000x8000"),
    ("a file over the explorer's length", post("board", {"file": "#" * (MAX_FILE_CHARS + 1), "n": 4}), 400,
     f"{MAX_FILE_CHARS + 1:,} characters; the explorer reads at most {MAX_FILE_CHARS:,}"),
    ("an empty file", post("board", {"file": " \n", "n": 4}), 400, "your puzzle file is empty"),
    ("a file as a number", post("board", {"file": 3, "n": 4}), 400, "'file' must be the text of a puzzle file"),
    ("a file and a family", post("board", {**F4, "family": "nqueens"}), 400, "'family' is for the shipped families"),
    ("a file and pawns", post("complete", {**F4, "pawns": [[0, 0]]}), 400, "leave 'pawns' out"),
    ("a file without n", post("board", {"file": KINGS}), 400, "'n' must be a whole number, got None"),
    ("a piece off a file's board", post("board", {**F4, "queens": [[4, 0]]}), 400, "queen at (4, 0) is off the 4x4"),
    # a job's name, and the calls about a running job
    ("a job named by a number", post("count", {**Q4, "job": 7}), 400, "'job' must be 1 to 64 letters"),
    ("a job with a slash", post("count", {**Q4, "job": "../x"}), 400, "'job' must be 1 to 64 letters"),
    ("a job on the board call", post("board", {**Q4, "job": "j1"}), 400, "unknown key 'job' for /api/board"),
    ("progress without a job", post("progress", {}), 400, "/api/progress needs 'job'"),
    ("cancel with a board", post("cancel", {**Q4, "job": "j1"}), 400, "unknown key 'family' for /api/cancel"),
    ("GET on progress", method("GET", "/api/progress"), 405, "takes a POST"),
    ("trace beyond its cells", post("trace", {"family": "nqueens", "n": 11}), 400, "at most 100 cells"),
    ("negative solution index", post("solution", {**Q4, "index": -1}), 400, "'index' must be between 0 and"),
    ("solution index as text", post("solution", {**Q4, "index": "1"}), 400, "'index' must be a whole number"),
    ("solution index too large", post("solution", {**Q4, "index": 10**6}), 400, "'index' must be between 0 and"),
    ("negative trace length", post("trace", {**Q4, "solutions": -1}), 400, "'solutions' must be between 0 and"),
    ("why asked of a backend", post("why", {**Q4, "queens": [[0, 1]], "backend": "native"}), 400,
     "leave 'backend' out"),
    ("why of a board without givens", post("why", {"family": "domination", "n": 3}), 400, "no givens"),
    ("why of a completion without queens", post("why", {"family": "completion", "n": 8}), 400, "place some pieces"),
    ("why among too many givens", post("why", {"family": "ninequeens", "n": 20, "pawns": PAWNS_80}), 400,
     f"at most {MAX_WHY_GIVENS} givens; this board has 81"),  # 80 pawns and the count
    ("why with a queen off the board", post("why", {**Q4, "queens": [[4, 0]]}), 400, "off the 4x4 board"),
    # inputs that are answers, not errors: a board without a solution says why
    ("n = 2 has no solution", post("complete", {"family": "nqueens", "n": 2}), 200, "no solution"),
    ("queens that attack each other", post("complete", {"family": "nqueens", "n": 4, "queens": [[0, 0], [1, 1]]}),
     200, "attack each other"),
    ("a torus without a solution", post("complete", {"family": "toroidal", "n": 6}), 200, "Pólya"),
    ("past the last solution", post("solution", {**Q4, "index": 2}), 200, "no solution number 3: there are 2"),
    ("why of a board with a solution", post("why", {**Q4, "queens": [[0, 1]]}), 200, "has a solution"),
    ("why of a board whose count has no solution", post("why", {"family": "nqueens", "n": 3}), 200,
     "This one of its 1 givens has none by itself"),
    ("why of queens that attack each other", post("why", {**Q4, "queens": [[0, 0], [1, 1]]}), 200,
     "queen at 0,0 and queen at 1,1 attack each other"),
    ("cancel of a job that is not running", post("cancel", {"job": "gone"}), 200,
     "no job 'gone' is running (it may have just ended)"),
    ("a file's puzzle, counted", post("count", F4), 200, "solutions, counted by"),
]


@pytest.fixture(scope="module")
def address() -> Iterator[tuple[str, int]]:
    with running_explorer(time_limit=2.0) as url:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        yield parts.hostname, parts.port


def _reply(data: bytes) -> tuple[int, dict[str, Any]]:
    """Status and JSON payload of a raw HTTP reply; it must be JSON, whatever the request."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert "content-type: application/json" in (line.lower() for line in lines), data[:300]
    payload: dict[str, Any] = json.loads(body)
    return int(lines[0].split()[1]), payload


def test_the_table_is_long_enough():
    assert len(BAD) >= 40 and len({what for what, *_ in BAD}) == len(BAD)


@pytest.mark.parametrize(("what", "request_bytes", "status", "fragment"), BAD, ids=[row[0] for row in BAD])
def test_bad_request(address: tuple[str, int], what, request_bytes, status, fragment):
    got, payload = _reply(exchange(*address, request_bytes))
    text = payload.get("error") if got >= 400 else payload.get("message")
    assert got == status and text is not None and fragment in text, payload


SQUARED = "[parameters]\n" + "".join(f'p{i} = "p{i - 1}*p{i - 1}"\n' if i else 'p0 = "n"\n' for i in range(40))
COSTLY_FILES = {
    "a parameter squared forty times (n^(2^40))": SQUARED + "[board]\n[[army]]\ncount = \"p39\"\n",
    "a billion copies of an army": "[board]\n[[army]]\ncopies = 1000000000\n",
}
"""Short files that ask for more than any machine has: refused at once by the reader's own bounds
(numbers below 2**62, at most 4,096 copies: issue 37), and, behind them, read in a child with a
deadline and a memory bound (`queens.web.user_file`); answered with one line while the server
stays up."""
REFUSALS = ("not read within", "needs over", "grow too large", "copies")


@pytest.mark.parametrize("text", COSTLY_FILES.values(), ids=list(COSTLY_FILES))
def test_a_file_that_asks_too_much_is_refused_in_seconds(address: tuple[str, int], text):
    got, payload = _reply(exchange(*address, post("board", {"file": text, "n": 4})))
    assert got == 400 and payload["error"].startswith("your puzzle file: "), payload
    assert any(refusal in payload["error"] for refusal in REFUSALS), payload
    got, payload = _reply(exchange(*address, post("board", F4)))
    assert got == 200 and payload["name"] == "kings"


PUZZLES = Path(__file__).resolve().parents[1] / "models" / "puzzles"
SHIPPED = sorted(path.read_text() for path in PUZZLES.glob("*.toml"))
"""The shipped puzzle files: cut anywhere, they make files that are nearly right."""


@st.composite
def damaged_files(draw: st.DrawFn) -> str:
    """A shipped file with a piece cut out of it or text put into it, or any text at all."""
    if draw(st.integers(0, 3)) == 0:
        return draw(st.text(max_size=200))
    text = draw(st.sampled_from(SHIPPED))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 30)))
    return text[:start] + draw(st.sampled_from(["", "=", "[", "]", '"', "n", "-1", "0", "\n", "{", "x"])) + text[end:]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged_files(), route=st.sampled_from(["board", "board", "count"]))
def test_any_file_text_gets_an_answer_or_one_line_naming_the_mistake(address: tuple[str, int], text, route):
    got, payload = _reply(exchange(*address, post(route, {"file": text, "n": 4})))
    assert got in (200, 400), payload
    if got == 400:
        assert payload["error"] and "\n" not in payload["error"] and "internal error" not in payload["error"], payload
