# Types of the local search (localsearch.c), for mypy: the C code has no annotations.
from typing import Any

MAX_N: int
OUT_OF_TIME: int
SOLVED: int
UNSOLVED: int

def search(n: int, columns: Any, rows: bytes = ..., cols: bytes = ..., seed: int = ..., seconds: float = ...,
           max_steps: int = ...) -> tuple[int, dict[str, int]]: ...
