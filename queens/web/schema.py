"""The explorer's requests, key by key: which keys each call reads, and the checks of the keys
that are not a board's (a job's name).

A key that the call does not read is refused with HTTP 400, never ignored: the explorer once
answered `{"family": "domination", "n": 7, "independent": true}` with the plain count, 86, where
the independent count is 8 (issue 37), and a misspelt `"queen"` would have solved an empty
board. The refusal names the key and the keys the call reads, so the fix is in the message.

>>> checked("board", {"family": "nqueens", "n": 8, "independent": True})
Traceback (most recent call last):
...
queens.web.schema.BadRequest: unknown key 'independent' for /api/board; it reads family, file, m, n, pawns, queens
>>> job_of({"job": "count-7"})
'count-7'
"""

from __future__ import annotations

import re
from typing import Any

from queens.models import QueensError

Json = dict[str, Any]
"""A request or a reply: a JSON object."""


class BadRequest(QueensError):
    """The request itself is wrong (missing field, n too large, a key no call reads): HTTP 400
    with the message."""


BOARD = frozenset({"family", "file", "n", "m", "queens", "pawns"})
"""What every call reads: the puzzle (a shipped family, or the text of the user's own puzzle
file) and what the user put on its board."""
SOLVING = BOARD | {"backend", "job"}
"""A call answered by a solver process: the backend asked for, and the job's name, by which the
page asks how far it has got (/api/progress) or stops it (/api/cancel)."""
KEYS: dict[str, frozenset[str]] = {
    "board": BOARD,
    "complete": SOLVING,
    "count": SOLVING,
    "solution": SOLVING | {"index"},
    "trace": BOARD | {"solutions", "job"},
    "why": SOLVING,  # 'backend' is read to be refused with its reason: why? is answered from SAT cores
    "search": BOARD | {"var", "val", "propagate", "all", "seed", "job"},  # the teaching engine's own names
    "ladder": BOARD | {"job"},
    "progress": frozenset({"job"}),
    "cancel": frozenset({"job"}),
}
"""The keys each call reads; any other key is refused."""
JOB = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A job's name: the page makes one up (a random UUID); short, and safe to echo in a message."""


def _shown(value: object) -> str:
    """A client's value in a message: its repr, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def checked(route: str, request: object) -> Json:
    """The request, once it is a JSON object whose keys `route` all reads; else BadRequest."""
    if not isinstance(request, dict):
        raise BadRequest("the request body must be a JSON object")
    unknown = sorted(set(request) - KEYS[route])
    if unknown:
        reads = ", ".join(sorted(KEYS[route]))
        raise BadRequest(f"unknown key {_shown(unknown[0])} for /api/{route}; it reads {reads}")
    return request


def job_of(request: Json) -> str | None:
    """The job's name the request gives (None when it gives none), checked against `JOB`."""
    job = request.get("job")
    if job is None:
        return None
    if not isinstance(job, str) or not JOB.fullmatch(job):
        raise BadRequest(f"'job' must be 1 to 64 letters, digits, '-' or '_', got {_shown(job)}")
    return job
