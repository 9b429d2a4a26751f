# Types of the meet-in-the-middle counter's binding (mitmcount.c), for mypy: the C code has no annotations.
MIN_N: int
MAX_N: int
VERSION: int
MATCHER: str

def sets(n: int, /) -> int: ...
def memory_bound(n: int, /) -> tuple[int, int]: ...
def count(n: int, first: int, last: int, scale: int = ...,
          stop: object = ...) -> tuple[int, int, int, int] | None: ...
