"""HOW to solve: one module per backend behind one interface, and the verified entry points.

`solve`, `optimise` and `count` route: they pick the strategy the CLI picks (`backend=` and
`method=` narrow it); `solutions` enumerates on the backend given, or the router's choice.

>>> from queens.models import NQueens
>>> from queens.solvers import count
>>> count(NQueens(8), "native").count
92
"""

from queens.solvers.api import solutions
from queens.solvers.backend import Backend
from queens.solvers.registry import BACKENDS, get_backend
from queens.solvers.result import Result, Status
from queens.solvers.router import count, optimise, solve

__all__ = ["BACKENDS", "Backend", "Result", "Status", "count", "get_backend", "optimise", "solutions", "solve"]
