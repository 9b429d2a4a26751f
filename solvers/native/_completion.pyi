# Types of the exact completion solver (completion.c), for mypy: the C code has no annotations.
MAX_N: int
NO_SOLUTION: int
OUT_OF_TIME: int
SOLVED: int
UNDECIDED: int

def complete(n: int, rows: bytes, cols: bytes, seed: int = ..., seconds: float = ...,
             dead_ends: int = ...) -> tuple[int, bytes, dict[str, int]]: ...
