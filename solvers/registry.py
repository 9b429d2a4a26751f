"""Backends by name, imported lazily: a missing solver package is a message, not a crash."""

from __future__ import annotations

from importlib import import_module

from queens.models import BackendUnavailable, QueensError, Unsupported
from queens.models.errors import BadOption
from queens.solvers.backend import Backend
from queens.solvers.native import REBUILD
from queens.solvers.runtime import interrupts

BACKENDS: dict[str, tuple[str, str, str]] = {
    # name: (module, class, what to install when the import fails)
    "native": ("queens.solvers.native.backend", "Native", REBUILD),
    "cpsat": ("queens.solvers.backends.cpsat", "CpSat", "pip install ortools"),
    "sat": ("queens.solvers.backends.sat", "Sat", "pip install python-sat"),
    "csp": ("queens.solvers.backends.csp", "Csp", "pip install python-constraint2"),
    "minizinc": ("queens.solvers.backends.minizinc", "MiniZinc",
                 "pip install 'queens[minizinc]' and the MiniZinc binary (make minizinc)"),
    "mip": ("queens.solvers.backends.mip", "Mip", "pip install ortools (SCIP and HiGHS come with it)"),
    "teaching": ("queens.solvers.learn.teaching", "Teaching", "nothing: it is plain Python (solvers/learn/)"),
}


def preload(name: str) -> None:
    """Make backend `name` here once, if it can be, before a forked child runs it: the child then
    shares its import and what its constructor looks up once per process, instead of paying
    them on every time-limited call and losing them with its exit (CP-SAT's import was most of a
    small puzzle's time in a bench that called the API repeatedly, and the minizinc backend's
    look-up of its solver a third of one 200-queens solution: experiments/results/design-choices.md).
    A backend that cannot be made is left to the child to report."""
    if name in BACKENDS:
        try:
            get_backend(name)
        except QueensError:
            pass


def get_backend(name: str, **options: object) -> Backend:
    """A fresh backend instance; `options` are the backend's own (encoding, viewpoint, ...)."""
    if not isinstance(name, str) or name not in BACKENDS:  # a list is no name (and no key: unhashable)
        raise QueensError(f"unknown backend {name!r}; choose from {', '.join(BACKENDS)}")
    module_name, class_name, remedy = BACKENDS[name]
    try:
        module = import_module(module_name)
    except ImportError as error:
        interrupts.check()  # Ctrl-C inside an extension's initialisation comes back as ImportError
        raise BackendUnavailable(f"backend {name!r} is not available ({error}); {remedy}") from None
    backend_class: type[Backend] = getattr(module, class_name)
    try:
        return backend_class(**options)
    except TypeError as error:
        raise BadOption(f"backend {name!r} does not take these options: {error}") from None
    except Unsupported as error:  # a value the backend does not know: a usage error like the above
        raise BadOption(str(error)) from None
