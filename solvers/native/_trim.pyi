# Types of the DRUP trimmer (trim.c, trimcore.c), for mypy: the C code has no annotations.
OK: int
NO_CONFLICT: int

def trim(formula: bytes, lemmas: bytes, /) -> tuple[list[int], list[int], int, bytes]: ...
