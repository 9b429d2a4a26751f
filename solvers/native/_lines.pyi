# Types of the line counter (lines.c, linecore.c), for mypy: the C code has no annotations.
from typing import final

MAX_VARS: int

@final  # the C type has no Py_TPFLAGS_BASETYPE
class LineSearch:
    solutions: int
    nodes: int
    done: bool
    def __init__(self, nvars: int, order: bytes, fixed: bytes, line_start: bytes, line_cells: bytes, lo: bytes,
                 hi: bytes) -> None: ...
    def count(self, seconds: float = ..., /) -> tuple[int, bool]: ...
    def next_batch(self, limit: int, seconds: float = ..., /) -> list[tuple[int, ...]]: ...
