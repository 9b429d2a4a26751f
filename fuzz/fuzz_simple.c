/* libFuzzer target for _simple (simple.c, and its core simplecore.c): Search(...) with fuzzed
 * bitsets and sizes, then next_batch and count under a tiny time limit. Every solution is
 * checked against the input: its cells are allowed, distinct from and not in conflict with
 * each other or a fixed piece. */
#include "embed.h"
#include "../solvers/native/simple.c"
#include "../solvers/native/simplecore.c"

/* A bytes object of `sets` bitsets of `words` words, its length now and then off by a few;
 * bits past the board's `ncells` cells are cleared unless `bias` asks to test that check. */
static PyObject *take_sets_bytes(Bytes *in, long long sets, int words, long long ncells, uint8_t bias) {
    long long length = sets * words * 8;
    if (bias >= 250) length += (int)bias - 252;  /* -2 .. +3 bytes: the length checks */
    if (length < 0 || length > 1 << 20) length = 0;
    PyObject *packed = PyBytes_FromStringAndSize(NULL, length);
    if (!packed) fuzz_fail("out of memory building the input");
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(packed);
    for (long long i = 0; i < length; i++) out[i] = (uint8_t)fuzz_take(in, 1);
    if (bias < 240 && length == sets * words * 8 && ncells > 0 && ncells % 64)
        for (long long j = 0; j < sets; j++) ((uint64_t *)out)[(j + 1) * words - 1] &= ~(~0ULL << (ncells % 64));
    return packed;
}

static int bit(PyObject *sets, int words, int set, int cell) {
    const uint64_t *base = (const uint64_t *)PyBytes_AS_STRING(sets);
    return base[(size_t)set * words + cell / 64] >> (cell % 64) & 1;
}

/* The cells of one solution: on the board, allowed, not fixed, pairwise free of conflicts. */
static void check_solution(PyObject *cells, int ncells, int words, PyObject *allowed, PyObject *conflicts,
                           PyObject *fixed) {
    Py_ssize_t k = PyTuple_GET_SIZE(cells);
    for (Py_ssize_t i = 0; i < k; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(cells, i));
        if (x < 0 || x >= ncells || !bit(allowed, words, 0, (int)x) || bit(fixed, words, 0, (int)x))
            fuzz_fail("a solution names a cell that is off the board, not allowed or fixed");
        for (int f = 0; f < ncells; f++)
            if (bit(fixed, words, 0, f) && bit(conflicts, words, f, (int)x)) fuzz_fail("a solution attacks a fixed piece");
        for (Py_ssize_t j = 0; j < i; j++) {
            long y = PyLong_AsLong(PyTuple_GET_ITEM(cells, j));
            if (y == x || bit(conflicts, words, (int)y, (int)x)) fuzz_fail("two pieces of a solution conflict");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready && PyType_Ready(&SearchType) < 0) fuzz_fail("PyType_Ready");
    ready = 1;
    Bytes in = {data, size};
    long long ncells = fuzz_size(&in, 150);
    int words = ncells >= 1 && ncells <= MAX_CELLS ? (int)((ncells + 63) / 64) : 1 + (int)fuzz_take(&in, 1) % 3;
    long long target = fuzz_size(&in, 10) - 1, ncovers = fuzz_take(&in, 1) % 4;
    long long nlines = fuzz_take(&in, 1) % 2 && target >= 0 && target < 10 ? target : (long long)fuzz_take(&in, 1) % 10;
    uint8_t bias = (uint8_t)fuzz_take(&in, 1);
    PyObject *allowed = take_sets_bytes(&in, 1, words, ncells, bias);
    PyObject *conflicts = take_sets_bytes(&in, ncells > 0 && ncells <= 512 ? ncells : 1, words, ncells, bias ^ 1);
    PyObject *lines = take_sets_bytes(&in, nlines, words, ncells, bias ^ 2);
    PyObject *fixed = take_sets_bytes(&in, 1, words, ncells, bias ^ 3);
    PyObject *covers = take_sets_bytes(&in, ncovers, words, ncells, bias ^ 4);
    PyObject *search = PyObject_CallFunction((PyObject *)&SearchType, "LOOOOOL", ncells, allowed, conflicts,
                                             lines, fixed, covers, target);
    fuzz_expect_clean(search);
    if (search) {
        double seconds = 0.002;
        PyObject *batch = PyObject_CallMethod(search, "next_batch", "Ld", (long long)fuzz_size(&in, 4) - 1, seconds);
        fuzz_expect_clean(batch);
        for (Py_ssize_t i = 0; batch && i < PyList_GET_SIZE(batch); i++)
            check_solution(PyList_GET_ITEM(batch, i), (int)ncells, words, allowed, conflicts, fixed);
        Py_XDECREF(batch);
        PyObject *counted = PyObject_CallMethod(search, "count", "d", seconds);
        fuzz_expect_clean(counted);
        Py_XDECREF(counted);
        /* a second __init__ on a live object must be refused, not leak or reset it */
        PyObject *args = Py_BuildValue("(LOOOOOL)", ncells, allowed, conflicts, lines, fixed, covers, target);
        if (Py_TYPE(search)->tp_init(search, args, NULL) == 0) fuzz_fail("a second __init__ was accepted");
        fuzz_expect_clean(NULL);
        Py_DECREF(args);
        Py_DECREF(search);
    }
    Py_DECREF(allowed); Py_DECREF(conflicts); Py_DECREF(lines); Py_DECREF(fixed); Py_DECREF(covers);
    return 0;
}
