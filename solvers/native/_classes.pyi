# Types of the classes counter's binding (classcount.c), for mypy: the C code has no annotations.
from collections.abc import Sequence

AUTOMATIC: tuple[str, ...]
BEST: str
FEATURES: str
SCALAR_BUILD: str
KERNELS: tuple[str, ...]
SUPPORTED: tuple[str, ...]
MAX_N: int
VERSION: int
VECTOR: bool

def subproblems(n: int, depth: int, /) -> list[tuple[int, ...]]: ...
def count(n: int, subproblems: Sequence[tuple[int, ...]], kernel: str = ...,
          stop: object = ...) -> list[tuple[int, int, int, int] | None]: ...
