"""Random calls into the built C extensions, the way Python code reaches them.

The libFuzzer targets (fuzz_*.c) drive the C cores of _simple, _completion, _localsearch and
_lines a million times each at C speed. This driver covers what they cannot: the entry points as
*imported* from the compiled modules, with arguments of every Python type (None, floats, str,
huge ints, read-only and writable buffers, nested sequences), including the classes counter
_classes, the meet-in-the-middle counter _mitm and the trimmer _trim, which have no libFuzzer
target (their cores' asserts run here). Run it on extensions built with ASan+UBSan
(`make fuzz` does): a memory error aborts the process. The rule checked for every call: it
returns, or it raises an ordinary exception (never SystemError, never a crash).

    python fuzz/fuzz_extensions.py 100000          # calls per extension, seed 0
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from queens.solvers.native import _completion, _classes, _lines, _localsearch, _mitm, _simple, _trim

REJECTIONS = (ValueError, TypeError, OverflowError, MemoryError, RuntimeError, BufferError)
EDGE_INTS = [0, 1, 2, 3, 4, -1, -2, 7, 8, 27, 28, 31, 32, 63, 64, 65, 4096, 4097, 2**20, 2**20 + 1,
             2**31 - 1, 2**31, -(2**31), 2**63 - 1, 2**63, 2**64, -(2**63), 10**9, 10**9 + 1]


def anything(rng: random.Random, depth: int = 0) -> object:
    """A value of a random type: what a careless caller might pass anywhere."""
    kind = rng.randrange(12 if depth < 2 else 9)
    if kind < 3:
        return rng.choice(EDGE_INTS) if kind else rng.randrange(-5, 40)
    makers: list[Callable[[], object]] = [
        lambda: None, lambda: rng.choice([0.0, -1.0, 1e-9, 0.5, float("nan"), float("inf"), 1e300]),
        lambda: "auto" if rng.random() < 0.5 else rng.choice(["", "vector", "scalar", "x\0", "é"]),
        lambda: rng.randbytes(rng.choice([0, 1, 7, 8, 16, 24, 64])),
        lambda: bytearray(rng.randbytes(rng.choice([0, 1, 4, 8, 32]))),
        lambda: memoryview(rng.randbytes(8)),
        lambda: [anything(rng, depth + 1) for _ in range(rng.randrange(4))],
        lambda: tuple(anything(rng, depth + 1) for _ in range(rng.randrange(4))),
        lambda: {1: 2},
    ]
    return makers[kind - 3]()


def packed(rng: random.Random, n: int, count: int) -> bytes:
    """count int64 coordinates, mostly on a board of side n."""
    values = [rng.randrange(max(n, 1)) if rng.random() < 0.9 else rng.choice(EDGE_INTS) for _ in range(count)]
    return b"".join(v.to_bytes(8, "little", signed=True) for v in
                    (max(-(2**63), min(2**63 - 1, v)) for v in values))


def maybe(rng: random.Random, sensible: object) -> object:
    """Mostly the sensible argument, now and then anything at all."""
    return sensible if rng.random() < 0.85 else anything(rng)


def classes_call(rng: random.Random) -> None:
    n = maybe(rng, rng.randrange(1, 16))
    if rng.random() < 0.3:
        _classes.subproblems(n, maybe(rng, rng.randrange(1, 7)))
        return
    good_n = isinstance(n, int) and 4 <= n <= 14
    keys = _classes.subproblems(n, 2) if good_n else [(0, 2)]
    keys = [list(k) for k in rng.sample(keys, min(len(keys), rng.randrange(4)))]
    if keys and rng.random() < 0.3:
        keys[rng.randrange(len(keys))][rng.randrange(len(keys[0]))] = anything(rng)
    # past n = 10 a count takes milliseconds under ASan: those run with the stop flag raised
    stop = bytearray(b"\1") if not good_n or n > 10 else maybe(rng, bytearray(1))
    _classes.count(n, maybe(rng, keys), kernel=maybe(rng, rng.choice(["auto", "scalar", "vector"])), stop=stop)


def simple_call(rng: random.Random) -> None:
    ncells = maybe(rng, rng.randrange(1, 100))
    cells = ncells if isinstance(ncells, int) and 0 < ncells <= 200 else 1
    words = (cells + 63) // 64

    def bitsets(count: int) -> object:
        return maybe(rng, b"".join(rng.getrandbits(cells).to_bytes(8 * words, "little") for _ in range(count)))

    target = maybe(rng, rng.randrange(0, 5))
    lines = rng.choice([0, target if isinstance(target, int) and 0 <= target < 9 else 0, rng.randrange(4)])
    search = _simple.Search(ncells, bitsets(1), bitsets(cells), bitsets(lines), bitsets(1), bitsets(rng.randrange(3)),
                            target)
    search.next_batch(maybe(rng, rng.randrange(1, 5)), maybe(rng, 0.001))
    search.count(maybe(rng, 0.001))


def completion_call(rng: random.Random) -> None:
    n = maybe(rng, rng.randrange(1, 30))
    size = n if isinstance(n, int) and 0 < n < 10**6 else 8
    k = rng.randrange(5)
    _completion.complete(n, maybe(rng, packed(rng, size, k)), maybe(rng, packed(rng, size, k)),
                         seed=maybe(rng, rng.randrange(2**64)), seconds=maybe(rng, 0.002),
                         dead_ends=maybe(rng, rng.randrange(1, 50)))


def localsearch_call(rng: random.Random) -> None:
    n = maybe(rng, rng.randrange(1, 60))
    size = n if isinstance(n, int) and 0 < n < 10**4 else 8
    k = rng.randrange(4)
    _localsearch.search(n, maybe(rng, bytearray(4 * size)), maybe(rng, packed(rng, size, k)),
                        maybe(rng, packed(rng, size, k)), seed=maybe(rng, rng.randrange(2**64)),
                        seconds=maybe(rng, 0.002), max_steps=maybe(rng, rng.randrange(1, 64)))


def int32s(rng: random.Random, values: list[int]) -> object:
    """values as int32 bytes, mostly; now and then a byte short or anything at all."""
    data = b"".join(max(-(2**31), min(2**31 - 1, v)).to_bytes(4, "little", signed=True) for v in values)
    return maybe(rng, data[:-1] if data and rng.random() < 0.05 else data)


def lines_call(rng: random.Random) -> None:
    nvars = maybe(rng, rng.randrange(1, 20))
    room = nvars if isinstance(nvars, int) and 0 < nvars <= 20 else 8
    order = rng.sample(range(room), rng.randrange(room + 1))
    fixed = [v for v in range(room) if v not in order and rng.random() < 0.2]
    lines = [[rng.randrange(room) for _ in range(rng.randrange(5))] for _ in range(rng.randrange(6))]
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    lows = [rng.randrange(-1, 3) for _ in lines]
    search = _lines.LineSearch(nvars, int32s(rng, order), int32s(rng, fixed), int32s(rng, starts),
                               int32s(rng, [v for line in lines for v in line]), int32s(rng, lows),
                               int32s(rng, [low + rng.randrange(-1, 3) for low in lows]))
    search.next_batch(maybe(rng, rng.randrange(1, 5)), maybe(rng, 0.001))
    search.count(maybe(rng, 0.001))


def mitm_call(rng: random.Random) -> None:
    """n stays small: the binding builds the tables of any n up to MAX_N before it counts, and
    the caller (`queens.solvers.native.quadrant`) refuses a board whose tables would not fit
    (n = 32's take tens of gigabytes)."""
    n = rng.randrange(3, 12)
    sets = _mitm.sets(n) if n >= _mitm.MIN_N else 4
    first = rng.randrange(sets + 1)
    _mitm.count(n, maybe(rng, first), maybe(rng, rng.randrange(first, sets + 1)),
                maybe(rng, rng.choice([1, 2, 2**62])), stop=maybe(rng, bytearray(1)))


def trim_call(rng: random.Random) -> None:
    nvars = rng.randrange(1, 6)
    clauses = [[rng.choice([-1, 1]) * rng.randrange(1, nvars + 1) for _ in range(rng.randrange(4))]
               for _ in range(rng.randrange(12))]
    lemmas = [[rng.choice([-1, 1]) * rng.randrange(1, nvars + 1) for _ in range(rng.randrange(3))]
              for _ in range(rng.randrange(6))] + [[]]
    _trim.trim(int32s(rng, [v for c in clauses for v in (*c, 0)]), int32s(rng, [v for c in lemmas for v in (*c, 0)]))


TARGETS: dict[str, Callable[[random.Random], None]] = {
    "_classes": classes_call, "_simple": simple_call, "_completion": completion_call, "_localsearch": localsearch_call,
    "_lines": lines_call, "_mitm": mitm_call, "_trim": trim_call}


def fuzz(name: str, calls: int, seed: int = 0) -> tuple[int, int]:
    """`calls` random calls into one extension: (returned, rejected). Raises on a broken rule."""
    rng = random.Random(seed)
    returned = rejected = 0
    for _ in range(calls):
        try:
            TARGETS[name](rng)
            returned += 1
        except SystemError:
            raise
        except REJECTIONS:
            rejected += 1
    return returned, rejected


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    print(f"extensions from {_classes.__file__.rsplit('/', 1)[0]}", flush=True)
    for name in sys.argv[2:] or TARGETS:
        start = time.perf_counter()
        returned, rejected = fuzz(name, calls)
        print(f"{name}: {calls:,} calls, {returned:,} returned, {rejected:,} rejected with an exception, "
              f"0 crashes ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
