"""HOW to solve: one module per backend behind one interface, and the verified entry points.

`solve`, `optimise` and `count` route: they pick the strategy the CLI picks (`backend=` and
`method=` narrow it); `solutions` enumerates on the backend given, or the router's choice.

>>> from queens.models import NQueens
>>> from queens.solvers import count
>>> count(NQueens(8), "native").count
92
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from queens.solvers.api import solutions
    from queens.solvers.backend import Backend
    from queens.solvers.registry import BACKENDS, get_backend
    from queens.solvers.result import Result, Status
    from queens.solvers.routing.router import count, optimise, solve

__all__ = ["BACKENDS", "Backend", "Result", "Status", "count", "get_backend", "optimise", "solutions", "solve"]

_HOME = {"solutions": "api", "Backend": "backend", "BACKENDS": "registry", "get_backend": "registry",
         "Result": "result", "Status": "result",
         "count": "routing.router", "optimise": "routing.router", "solve": "routing.router"}
"""Where each entry point lives: imported when first asked for, so that importing one module of
this package (the construction, a native search) does not import the router and every strategy
(measured before a 10^7-queens construction: experiments/results/design-choices.md)."""


def __getattr__(name: str) -> Any:
    """An entry point, from its module (PEP 562: called only for names not yet bound here)."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
