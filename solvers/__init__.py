"""HOW to solve: one module per backend behind one interface, and the verified entry points.

>>> from models import NQueens
>>> from solvers import count
>>> count(NQueens(8), "native").count
92
"""

from solvers.api import count, solutions, solve
from solvers.backend import Backend
from solvers.registry import BACKENDS, get_backend
from solvers.result import Result, Status

__all__ = ["BACKENDS", "Backend", "Result", "Status", "count", "get_backend", "solutions", "solve"]
