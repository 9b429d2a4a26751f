"""The native backend's C kernels and their drivers; the backend class is in `backend.py`.

Importing this package loads no kernel, so importing one (e.g. `_localsearch`) does not load the
others, and a missing or broken build breaks only what needs it. `QUEENS_NO_NATIVE=1` makes the
loader refuse the extensions as if they had not been built: how the tests check that the rest
of the suite degrades instead of breaking.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec

from queens.models import NativeMissing

REBUILD = "build them with `make install` (or `pip install -e .`)"


class _Refuse(MetaPathFinder):
    """Refuses this package's C extensions (the modules named `_...`)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name.startswith(__name__ + "._"):
            raise ImportError(f"{name} refused: QUEENS_NO_NATIVE is set")
        return None


if os.environ.get("QUEENS_NO_NATIVE") and not any(isinstance(f, _Refuse) for f in sys.meta_path):
    sys.meta_path.insert(0, _Refuse())


def missing(extension: str = "_simple") -> str | None:
    """Why the C extension `extension` cannot be used (with how to rebuild it), or None when it loads.

    >>> missing("_simple") is None or "make install" in missing("_simple")
    True
    """
    try:
        import_module(f"{__name__}.{extension}")
    except ImportError as error:
        return f"the C extensions are not available ({error}); {REBUILD}"
    return None


def require(extension: str = "_simple") -> None:
    """Raise `NativeMissing` (exit 2 in the CLI) when `extension` cannot be loaded."""
    reason = missing(extension)
    if reason is not None:
        raise NativeMissing(reason)
