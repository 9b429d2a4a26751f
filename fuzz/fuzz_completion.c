/* libFuzzer target for _completion (completion.c): complete(n, rows, cols, ...) with fuzzed
 * sizes, pre-placed queens (mostly on the board, now and then anywhere), seeds and budgets.
 * A "solved" answer is checked: a full board of non-attacking queens that keeps the given ones. */
#include "embed.h"
#include "../solvers/native/completion.c"

static void check_completion(PyObject *columns, long long n, PyObject *rows, PyObject *cols) {
    if (!PyBytes_Check(columns) || PyBytes_GET_SIZE(columns) != n * 4) fuzz_fail("solved, but columns has the wrong size");
    fuzz_check_kept((const int32_t *)PyBytes_AS_STRING(columns), rows, cols);
    fuzz_check_queens((const int32_t *)PyBytes_AS_STRING(columns), n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Bytes in = {data, size};
    long long n = fuzz_size(&in, 24);
    /* Boards past 128 rows are valid but cost up to the time limit each (O(n^2) set-up);
     * folded down so that a million inputs stay affordable. The checks at the edges (0,
     * negative, MAX_N + 1, past int) still see raw values. */
    if (n > 128 && n <= MAX_N) n = n % 128 + 1;
    Py_ssize_t k = (Py_ssize_t)(fuzz_take(&in, 1) % 24), kc = fuzz_take(&in, 1) < 248 ? k : (Py_ssize_t)(fuzz_take(&in, 1) % 24);
    PyObject *rows = fuzz_coordinates(&in, k, n), *cols = fuzz_coordinates(&in, kc, n);
    if (fuzz_take(&in, 1) >= 250) {  /* a length that is not whole int64s */
        Py_SETREF(rows, PyBytes_FromStringAndSize(PyBytes_AS_STRING(rows), PyBytes_GET_SIZE(rows) / 2 * 2 + 1));
        if (!rows) fuzz_fail("out of memory building the input");
    }
    unsigned long long seed = fuzz_take(&in, 8), dead_ends = 1 + fuzz_take(&in, 1) % 64;
    double seconds = 0.002;  /* a safety net: the dead-end budget ends nearly every call first */
    PyObject *args = Py_BuildValue("(LOOKdK)", n, rows, cols, seed, seconds, dead_ends);
    if (!args) fuzz_fail("out of memory building the input");
    PyObject *result = complete(NULL, args, NULL);
    fuzz_expect_clean(result);
    if (result && PyLong_AsLong(PyTuple_GET_ITEM(result, 0)) == SOLVED)
        check_completion(PyTuple_GET_ITEM(result, 1), n, rows, cols);
    Py_XDECREF(result);
    Py_DECREF(args); Py_DECREF(rows); Py_DECREF(cols);
    return 0;
}
