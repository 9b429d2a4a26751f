/* The Python binding of the meet-in-the-middle counter: argument checking, the 128-bit sum as
 * a Python int, and the GIL released while the plain C core (mitmcore.c, which explains the
 * scheme) counts. Kept thin so that the core builds without Python (the ARM cross test). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "mitmcore.h"

static int check_n(int n) {
    if (n < MQ_MIN_N || n > MQ_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be %d..%d, got %d", MQ_MIN_N, MQ_MAX_N, n);
        return -1;
    }
    return 0;
}

/* Units of work: the top half's column sets (with the middle row's queen on odd boards). */
static PyObject *py_sets(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n) || check_n(n) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(mq_sets(n));
}

static MqTables *take_tables(int n);
static void give_back(MqTables *tables);

/* The bytes the shared tables of n hold (building them if needed). */
static PyObject *py_tables_bytes(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n) || check_n(n) < 0) return NULL;
    MqTables *tables = take_tables(n);
    if (!tables) return PyErr_NoMemory();
    uint64_t bytes = mq_tables_bytes(tables);
    give_back(tables);
    return PyLong_FromUnsignedLongLong(bytes);
}

static PyObject *py_memory_bound(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n) || check_n(n) < 0) return NULL;
    return Py_BuildValue("(KK)", (unsigned long long)mq_memory_bound(n), (unsigned long long)mq_tables_bound(n));
}

/* The tables of the last n counted, shared by every thread counting it (read-only): built and
 * swapped only while holding the GIL, and freed only when no count uses them. */
static struct {
    int n, users;
    MqTables *tables;
} shared;

static MqTables *take_tables(int n) {
    if (shared.tables && shared.n == n) { shared.users++; return shared.tables; }
    MqTables *tables = mq_prepare(n);  /* milliseconds: under the GIL, so built once */
    if (!tables) return NULL;
    if (!shared.users) {
        mq_release(shared.tables);
        shared.tables = tables;
        shared.n = n;
        shared.users = 1;
    }
    return tables;
}

static void give_back(MqTables *tables) {
    if (tables == shared.tables) shared.users--;
    else mq_release(tables);
}

/* hi * 2^64 + lo as a Python int. */
static PyObject *wide(MqTotal total) {
    PyObject *hi = PyLong_FromUnsignedLongLong(total.hi), *lo = PyLong_FromUnsignedLongLong(total.lo);
    PyObject *shift = PyLong_FromLong(64), *high = NULL, *sum = NULL;
    if (hi && lo && shift && (high = PyNumber_Lshift(hi, shift))) sum = PyNumber_Or(high, lo);
    Py_XDECREF(hi); Py_XDECREF(lo); Py_XDECREF(shift); Py_XDECREF(high);
    return sum;
}

static PyObject *py_count(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "first", "last", "scale", "stop", NULL};
    int n;
    unsigned long long first, last, scale = 1;
    PyObject *stop = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iKK|KO", names, &n, &first, &last, &scale, &stop)
        || check_n(n) < 0)
        return NULL;
    if (first > last || last > mq_sets(n) || scale == 0) {
        PyErr_Format(PyExc_ValueError, "need 0 <= first <= last <= %llu (the units of n = %d) and scale >= 1",
                     (unsigned long long)mq_sets(n), n);
        return NULL;
    }
    Py_buffer flag = {0};
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &flag, PyBUF_SIMPLE) < 0) return NULL;
        if (flag.len < 1) {
            PyBuffer_Release(&flag);
            PyErr_SetString(PyExc_ValueError, "stop must be a buffer of at least one byte (a bytearray)");
            return NULL;
        }
    }
    MqCount counted;
    int status = -1;
    MqTables *tables = take_tables(n);
    if (tables) {
        Py_BEGIN_ALLOW_THREADS
        status = mq_count(tables, first, last, scale, flag.obj ? (const volatile char *)flag.buf : NULL, &counted);
        Py_END_ALLOW_THREADS
        give_back(tables);
    }
    if (flag.obj) PyBuffer_Release(&flag);
    if (status < 0) return PyErr_NoMemory();
    if (status > 0) Py_RETURN_NONE;
    PyObject *total = wide(counted.solutions);
    if (!total) return NULL;
    return Py_BuildValue("(NKKKK)", total, (unsigned long long)counted.units, (unsigned long long)counted.halves,
                         (unsigned long long)counted.tests, (unsigned long long)counted.bytes);
}

static PyMethodDef methods[] = {
    {"sets", py_sets, METH_VARARGS, "sets(n) -> how many units of work Q(n) has (column sets of the top half, times the middle queen's\n"
     "columns on odd boards): ranks 0..sets-1."},
    {"memory_bound", py_memory_bound, METH_VARARGS,
     "memory_bound(n) -> (bytes one worker may hold, bytes the shared tables may hold), at most."},
    {"tables_bytes", py_tables_bytes, METH_VARARGS, "tables_bytes(n) -> the bytes the shared tables of n hold."},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_VARARGS | METH_KEYWORDS,
     "count(n, first, last, scale=1, stop=None) -> (solutions, units, halves, pairs compared, bytes held) for the units\n"
     "(top-half column sets, with the middle queen on odd boards) of rank first..last-1, or None when a nonzero first byte of `stop` stopped it. `scale`\n"
     "multiplies every subtotal (tests: force the 128-bit sums past 2^64). Runs without the GIL."},
    {NULL}
};

static struct PyModuleDef mitm_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_mitm",
    .m_doc = "The meet-in-the-middle n-queens counter (see mitmcore.c).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__mitm(void) {
    PyObject *m = PyModule_Create(&mitm_module);
    if (m && (PyModule_AddIntConstant(m, "MIN_N", MQ_MIN_N) < 0 || PyModule_AddIntConstant(m, "MAX_N", MQ_MAX_N) < 0
              || PyModule_AddIntConstant(m, "VERSION", MQ_VERSION) < 0
              || PyModule_AddStringConstant(m, "MATCHER", mq_matcher()) < 0))
        Py_CLEAR(m);
    return m;
}
