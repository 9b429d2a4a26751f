"""The native backend: a C bitset search, the suite's ground truth (see kernel.c)."""

from solvers.native.backend import Native

__all__ = ["Native"]
