/* What the three libFuzzer targets share: an embedded Python interpreter, a reader that turns
 * the fuzzer's bytes into arguments, and the one rule every call must keep.
 *
 * Each target #includes its extension's C file, so the fuzzer instruments the real source and
 * calls the real entry points (argument checks included) with real Python objects, at C speed:
 * a Python-level driver is ~100x slower per input. The rule: a call either returns a value
 * with no exception pending, or returns NULL with an ordinary Python exception set (the
 * "rejection" a caller sees); anything else (a crash, ASan/UBSan report, NULL without an
 * exception, SystemError) aborts, which libFuzzer reports as a finding. */
#ifndef QUEENS_FUZZ_EMBED_H
#define QUEENS_FUZZ_EMBED_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const uint8_t *data; size_t size; } Bytes;

static uint64_t fuzz_take(Bytes *in, int width) {  /* the next `width` bytes, little-endian; 0 when out */
    uint64_t value = 0;
    for (int i = 0; i < width && in->size; i++, in->data++, in->size--) value |= (uint64_t)in->data[0] << (8 * i);
    return value;
}

/* A size: small and sensible most of the time (so the searches behind the checks run), and
 * now and then an arbitrary 32-bit value (so the checks themselves are tried at the edges). */
static long long fuzz_size(Bytes *in, long long small) {
    uint8_t mode = (uint8_t)fuzz_take(in, 1);
    if (mode < 224) return (long long)(fuzz_take(in, 2) % (uint64_t)small) + 1;
    if (mode < 240) return (int32_t)fuzz_take(in, 4);
    return (long long)(mode - 244);  /* -4 .. 11 */
}

static void fuzz_fail(const char *what) {
    fprintf(stderr, "fuzz: %s\n", what);
    if (PyErr_Occurred()) PyErr_Print();
    abort();
}

/* NULL must come with an ordinary exception; a result must not. Clears the exception. */
static void fuzz_expect_clean(PyObject *result) {
    if (result) {
        if (PyErr_Occurred()) fuzz_fail("a result with an exception pending");
        return;
    }
    if (!PyErr_Occurred()) fuzz_fail("NULL without an exception");
    if (!PyErr_ExceptionMatches(PyExc_ValueError) && !PyErr_ExceptionMatches(PyExc_TypeError)
        && !PyErr_ExceptionMatches(PyExc_OverflowError) && !PyErr_ExceptionMatches(PyExc_MemoryError)
        && !PyErr_ExceptionMatches(PyExc_RuntimeError))
        fuzz_fail("an unexpected kind of exception (SystemError: a broken C-API contract)");
    PyErr_Clear();
}

/* Packed int64 coordinates: mostly on a board of side n, now and then anything. */
static PyObject *fuzz_coordinates(Bytes *in, Py_ssize_t count, long long n) {
    PyObject *packed = PyBytes_FromStringAndSize(NULL, count * 8);
    if (!packed) fuzz_fail("out of memory building the input");
    int64_t *out = (int64_t *)PyBytes_AS_STRING(packed);
    for (Py_ssize_t i = 0; i < count; i++) {
        int64_t raw = (int64_t)fuzz_take(in, 2);
        out[i] = (raw & 0x8000) ? (int64_t)fuzz_take(in, 8) : (n > 0 ? raw % n : raw);
    }
    return packed;
}

/* A full board given as the column of every row: no two queens share a column or a diagonal
 * (rows are distinct by construction). O(n) with one flag per line, so big boards stay cheap;
 * it shares no code with the extensions' own bookkeeping. */
static void fuzz_check_queens(const int32_t *column, long long n) {
    uint8_t *seen = calloc((size_t)(5 * n), 1);  /* n columns, 2n diagonals, 2n anti-diagonals */
    if (!seen) fuzz_fail("out of memory checking an answer");
    for (long long r = 0; r < n; r++) {
        long long c = column[r];
        if (c < 0 || c >= n) fuzz_fail("a queen is off the board");
        long long line[3] = {c, n + r - c + n - 1, 3 * n + r + c};
        for (int t = 0; t < 3; t++) {
            if (seen[line[t]]) fuzz_fail("two queens attack each other");
            seen[line[t]] = 1;
        }
    }
    free(seen);
}

/* Every given queen (packed int64 rows and cols) is where the answer has it. */
static void fuzz_check_kept(const int32_t *column, PyObject *rows, PyObject *cols) {
    const int64_t *qr = (const int64_t *)PyBytes_AS_STRING(rows), *qc = (const int64_t *)PyBytes_AS_STRING(cols);
    for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(rows) / 8; i++)
        if (column[qr[i]] != qc[i]) fuzz_fail("a given queen moved");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    setenv("PYTHONMALLOC", "malloc", 1);  /* let ASan see every allocation */
    Py_InitializeEx(0);                   /* 0: keep libFuzzer's signal handlers */
    return 0;
}

#endif
