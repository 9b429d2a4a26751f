"""The optional parts of the suite and the pip extra that installs each.

The base install (`pip install queens`) solves, counts, draws SVG and serves the explorer; what
only some users need is an extra (pyproject.toml's optional-dependencies), so that everyone
else does not carry it. Each part asks for its extra here when it is used, and, when the
packages are missing, is refused with one line that says what to install, before any work:

>>> EXTRAS["certify"].modules
('drup', 'dratify')
>>> install_command("plots")
"pip install 'queens[plots]'"
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec

from queens.models.errors import MissingExtra


@dataclass(frozen=True)
class Extra:
    """One extra: the modules it provides (import names) and what needs them."""

    modules: tuple[str, ...]
    used_by: str


EXTRAS: dict[str, Extra] = {
    "certify": Extra(("drup", "dratify"), "--certify (DRUP proofs checked by drup and dratify)"),
    "plots": Extra(("matplotlib",), "the plots of `queens bench report`"),
    "dask": Extra(("distributed",), "--dask (counting on a Dask cluster)"),
    "minizinc": Extra(("minizinc",), "the minizinc backend (with the MiniZinc binary: make minizinc)"),
    "pictures": Extra(("PIL",), "PNG pictures (SVG needs nothing)"),
}
"""Every extra a part of the suite asks for; tests/test_packaging.py checks that pyproject.toml
declares each and that a missing one is refused with its install command."""


def install_command(extra: str) -> str:
    """What a user types to get an extra (in a clone: `pip install -e '.[extra]'`)."""
    return f"pip install 'queens[{extra}]'"


def missing(extra: str) -> tuple[str, ...]:
    """The extra's modules that are not installed (looked up, not imported)."""
    return tuple(module for module in EXTRAS[extra].modules if not _found(module))


def require(extra: str, purpose: str | None = None) -> None:
    """Refuse `purpose` (default: what the extra is for) when the extra's packages are missing."""
    absent = missing(extra)
    if absent:
        raise MissingExtra(f"{purpose or EXTRAS[extra].used_by} needs the {extra} extra ({', '.join(absent)} "
                           f"not installed): {install_command(extra)} (in a clone: pip install -e '.[{extra}]')")


def _found(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except ValueError:  # a module set to None in sys.modules (how a test hides one) has no spec
        return False
