# Types of the generic bitset search (simple.c), for mypy: the C code has no annotations.
from typing import final

MAX_CELLS: int

@final  # the C type has no Py_TPFLAGS_BASETYPE
class Search:
    solutions: int
    nodes: int
    done: bool
    def __init__(self, ncells: int, allowed: bytes, conflicts: bytes, lines: bytes, fixed: bytes, covers: bytes,
                 target: int) -> None: ...
    def count(self, seconds: float = ..., /) -> tuple[int, bool]: ...
    def next_batch(self, limit: int, seconds: float = ..., /) -> list[tuple[int, ...]]: ...
