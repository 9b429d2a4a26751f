"""Which kernel of the classes counter runs, and why.

The classes counter (classcore.c) is compiled once per instruction set into one portable binary:
`scalar` everywhere, `sse2`, `avx2` and `avx512` on x86-64, `neon` on AArch64; `scalar` itself
has two builds on x86-64, the baseline one and one with BMI1 and BMI2, and runs the one the CPU
has (`SCALAR_BUILD`). At import it asks the CPU which it may run and picks the best (`auto`).
`QUEENS_KERNEL=<name>` forces one, so each can be tested and benchmarked on one machine; a name
the CPU cannot run is refused with one clear error, never a silent fallback.

>>> choose_kernel("scalar").name
'scalar'
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from queens.models import BackendUnavailable
from queens.solvers.native import _classes

ENVIRONMENT = "QUEENS_KERNEL"
"""The environment variable that forces a kernel."""

NAMES = ("scalar", "sse2", "avx2", "avx512", "neon")
"""Every kernel any build has; `_classes.KERNELS` are this build's, `_classes.SUPPORTED` this CPU's."""


class KernelUnavailable(BackendUnavailable):
    """A kernel was asked for that this build or this CPU cannot run (a usage error: exit 2)."""

    exit_code = 2


@dataclass(frozen=True)
class KernelChoice:
    """The kernel that counts, how it was chosen (`auto`, the environment, or a caller), and what
    the CPU offered."""

    name: str
    chosen_by: str
    features: tuple[str, ...]
    compiled: tuple[str, ...]
    supported: tuple[str, ...]
    scalar_build: str
    """The scalar kernel's build this CPU runs: 'bmi1+bmi2' (x86-64 with BMI1 and BMI2) or 'baseline'."""

    @property
    def forced(self) -> bool:
        return self.chosen_by != "auto"

    @property
    def reason(self) -> str:
        """One line: why this kernel runs."""
        if self.chosen_by == "auto":
            passed = [name for name in self.supported if name not in _classes.AUTOMATIC]
            over = f"; {', '.join(passed)} only when forced (slower than the scalar kernel)" if passed else ""
            return f"auto: the best of {', '.join(n for n in self.supported if n in _classes.AUTOMATIC)}{over}"
        return f"forced by {self.chosen_by}"


def choose_kernel(requested: str = "auto") -> KernelChoice:
    """The kernel for `requested`: a name forces it; `auto` reads QUEENS_KERNEL, else the best.

    Raises KernelUnavailable for a name no build knows or one this CPU (or build) cannot run.
    """
    chosen_by = "the caller"
    if requested == "auto":
        requested, chosen_by = os.environ.get(ENVIRONMENT, "").strip() or "auto", f"{ENVIRONMENT}"
    if requested == "auto":
        return _choice(_classes.BEST, "auto")
    if requested not in NAMES:
        raise KernelUnavailable(f"unknown kernel {requested!r} ({chosen_by}): choose one of {', '.join(NAMES)}")
    if requested not in _classes.SUPPORTED:
        where = "this build" if requested not in _classes.KERNELS else "this CPU"
        raise KernelUnavailable(f"the {requested} kernel ({chosen_by}) cannot run on {where}; it runs "
                                f"{', '.join(_classes.SUPPORTED)} (CPU features: {_classes.FEATURES or 'none asked'})")
    return _choice(requested, chosen_by)


def _choice(name: str, chosen_by: str) -> KernelChoice:
    return KernelChoice(name=name, chosen_by=chosen_by, features=tuple(_classes.FEATURES.split()),
                        compiled=tuple(_classes.KERNELS), supported=tuple(_classes.SUPPORTED),
                        scalar_build=_classes.SCALAR_BUILD)
