/* libFuzzer target for _localsearch (localsearch.c): search(n, columns, rows, cols, ...) with
 * fuzzed sizes, output buffers (sometimes the wrong size), pinned queens, seeds and step
 * budgets. A "solved" board is checked: a permutation with no two queens on a diagonal that
 * keeps every pinned queen where it was. */
#include "embed.h"
#include "../solvers/native/localsearch.c"

static void check_board(PyObject *columns, long long n, PyObject *rows, PyObject *cols) {
    fuzz_check_kept((const int32_t *)PyByteArray_AS_STRING(columns), rows, cols);
    fuzz_check_queens((const int32_t *)PyByteArray_AS_STRING(columns), n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Bytes in = {data, size};
    long long n = fuzz_size(&in, 64);
    long long out_len = n > 0 && n <= 256 ? n * 4 : 4;
    uint8_t shape = (uint8_t)fuzz_take(&in, 1);
    if (shape >= 248) out_len += (int)shape - 251;  /* -3 .. +4 bytes: the size check */
    if (out_len < 0) out_len = 0;
    PyObject *columns = shape == 247 ? PyBytes_FromStringAndSize(NULL, out_len)  /* read-only: refused */
                                     : PyByteArray_FromStringAndSize(NULL, out_len);
    if (!columns) fuzz_fail("out of memory building the input");
    Py_ssize_t k = (Py_ssize_t)(fuzz_take(&in, 1) % 8), kc = fuzz_take(&in, 1) < 248 ? k : (Py_ssize_t)(fuzz_take(&in, 1) % 8);
    PyObject *rows = fuzz_coordinates(&in, k, n), *cols = fuzz_coordinates(&in, kc, n);
    unsigned long long seed = fuzz_take(&in, 8), max_steps = 1 + fuzz_take(&in, 1) % 64;
    PyObject *args = Py_BuildValue("(LOOOKdK)", n, columns, rows, cols, seed, 0.002, max_steps);
    if (!args) fuzz_fail("out of memory building the input");
    PyObject *result = search(NULL, args, NULL);
    fuzz_expect_clean(result);
    if (result && PyLong_AsLong(PyTuple_GET_ITEM(result, 0)) == SOLVED) check_board(columns, n, rows, cols);
    Py_XDECREF(result);
    Py_DECREF(args); Py_DECREF(columns); Py_DECREF(rows); Py_DECREF(cols);
    return 0;
}
