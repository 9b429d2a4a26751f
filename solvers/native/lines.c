/* The Python binding of the line counter (linecore.c, which explains the search): arguments
 * checked and copied in as int32 arrays, solutions out as tuples, the GIL released while the
 * plain C core runs, in slices, so that Ctrl-C and SIGTERM stop it within a beat (`run_polled`).
 * A LineSearch object refuses to be entered by two threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "interrupt.h"
#include "linecore.h"

typedef struct {
    PyObject_HEAD
    int busy;
    int ready;                         /* set last by __init__: a failed init leaves it 0 */
    LcSearch core;
} LineSearch;

/* The int32 values of `buffer` (a whole number of them) into a fresh PyMem array; *count set. */
static int32_t *int32s(PyObject *buffer, Py_ssize_t *count, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) return NULL;
    if (view.len % 4) {
        PyErr_Format(PyExc_ValueError, "%s: not a whole number of int32 values", what);
        PyBuffer_Release(&view);
        return NULL;
    }
    int32_t *values = PyMem_Malloc(view.len ? (size_t)view.len : 1);
    if (!values) { PyBuffer_Release(&view); PyErr_NoMemory(); return NULL; }
    memcpy(values, view.buf, (size_t)view.len);
    *count = view.len / 4;
    PyBuffer_Release(&view);
    return values;
}

static int in_range(const int32_t *values, Py_ssize_t count, int top, const char *what) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (values[i] < 0 || values[i] >= top) {
            PyErr_Format(PyExc_ValueError, "%s: %d is not a variable (0..%d)", what, values[i], top - 1);
            return -1;
        }
    return 0;
}

/* Every line's start within the members: 0 first, never decreasing, the members' count last. */
static int check_starts(const int32_t *start, Py_ssize_t nstart, Py_ssize_t nmembers) {
    if (nstart < 1 || start[0] != 0 || start[nstart - 1] != nmembers) {
        PyErr_SetString(PyExc_ValueError, "line_start must run from 0 to the number of members");
        return -1;
    }
    for (Py_ssize_t j = 1; j < nstart; j++)
        if (start[j] < start[j - 1]) {
            PyErr_SetString(PyExc_ValueError, "line_start must not decrease");
            return -1;
        }
    return 0;
}

/* Fill the core from the checked arrays: the order's variables distinct and not fixed. */
static int fill(LcSearch *core, const int32_t *order, const int32_t *fixed, Py_ssize_t nfixed,
                const int32_t *start, const int32_t *members, const int32_t *lo, const int32_t *hi) {
    for (Py_ssize_t i = 0; i < nfixed; i++) core->fixed[fixed[i]] = 1;
    unsigned char *seen = PyMem_Calloc((size_t)core->nvars, 1);
    if (!seen) { PyErr_NoMemory(); return -1; }
    for (int d = 0; d < core->norder; d++) {
        if (seen[order[d]] || core->fixed[order[d]]) {
            PyMem_Free(seen);
            PyErr_Format(PyExc_ValueError, "order: variable %d is repeated or fixed", order[d]);
            return -1;
        }
        seen[order[d]] = 1;
        core->order[d] = order[d];
    }
    PyMem_Free(seen);
    for (int j = 0; j <= core->nlines; j++) core->line_start[j] = start[j];
    for (int m = 0; m < core->nmembers; m++) core->line_cells[m] = members[m];
    for (int j = 0; j < core->nlines; j++) { core->lo[j] = lo[j]; core->hi[j] = hi[j]; }
    if (lc_start(core) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static void LineSearch_dealloc(LineSearch *s) {
    lc_free(&s->core);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int LineSearch_init(LineSearch *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"nvars", "order", "fixed", "line_start", "line_cells", "lo", "hi", NULL};
    PyObject *order_b, *fixed_b, *start_b, *cells_b, *lo_b, *hi_b;
    int nvars, result = -1;
    if (s->ready || s->core.order) { PyErr_SetString(PyExc_RuntimeError, "LineSearch is already initialised"); return -1; }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOOOOO", names, &nvars, &order_b, &fixed_b, &start_b,
                                     &cells_b, &lo_b, &hi_b))
        return -1;
    if (nvars < 1 || nvars > LC_MAX_VARS) {
        PyErr_Format(PyExc_ValueError, "nvars must be 1..%d, got %d", LC_MAX_VARS, nvars);
        return -1;
    }
    Py_ssize_t norder = 0, nfixed = 0, nstart = 0, nmembers = 0, nlo = 0, nhi = 0;
    int32_t *order = int32s(order_b, &norder, "order"), *fixed = order ? int32s(fixed_b, &nfixed, "fixed") : NULL;
    int32_t *start = fixed ? int32s(start_b, &nstart, "line_start") : NULL;
    int32_t *members = start ? int32s(cells_b, &nmembers, "line_cells") : NULL;
    int32_t *lo = members ? int32s(lo_b, &nlo, "lo") : NULL, *hi = lo ? int32s(hi_b, &nhi, "hi") : NULL;
    if (!hi) goto out;
    if (in_range(order, norder, nvars, "order") < 0 || in_range(fixed, nfixed, nvars, "fixed") < 0
        || in_range(members, nmembers, nvars, "line_cells") < 0 || check_starts(start, nstart, nmembers) < 0)
        goto out;
    if (norder > nvars || nlo != nstart - 1 || nhi != nstart - 1 || nmembers > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "order longer than the variables, or lo and hi not one per line");
        goto out;
    }
    if (lc_alloc(&s->core, nvars, (int)norder, (int)(nstart - 1), (int)nmembers) < 0) { PyErr_NoMemory(); goto out; }
    if (fill(&s->core, order, fixed, nfixed, start, members, lo, hi) < 0) { lc_free(&s->core); goto out; }
    s->ready = 1;
    result = 0;
out:
    PyMem_Free(order); PyMem_Free(fixed); PyMem_Free(start); PyMem_Free(members); PyMem_Free(lo); PyMem_Free(hi);
    return result;
}

static int enter(LineSearch *s) {
    if (!s->ready) { PyErr_SetString(PyExc_RuntimeError, "LineSearch is not initialised"); return -1; }
    if (s->busy) { PyErr_SetString(PyExc_RuntimeError, "LineSearch is running in another thread"); return -1; }
    s->busy = 1;
    return 0;
}

/* lc_run in slices of POLL_SECONDS without the GIL, running Python's signal handlers between
 * them, as simple.c's run_polled does (interrupt.h says why): `queens count two-per-line -n 8`
 * ran on to its end, deaf to Ctrl-C and SIGTERM, and so did a native optimum through this
 * counter. The core stays free of Python and resumes where a slice ended. Returns the
 * solutions found, or -1 with the exception set when a handler raised. */
static long long run_polled(LcSearch *core, long long limit, double deadline, int *out) {
    long long found = 0;
    const size_t slot = (size_t)core->norder + 1;
    while (1) {
        double slice = now_seconds() + POLL_SECONDS;
        int last = deadline > 0 && deadline <= slice;
        long long more;
        Py_BEGIN_ALLOW_THREADS
        more = lc_run(core, limit ? limit - found : 0, last ? deadline : slice, out ? out + found * slot : NULL);
        Py_END_ALLOW_THREADS
        found += more;
        if (core->done || (limit && found >= limit) || last) return found;
        if (PyErr_CheckSignals() < 0) return -1;
    }
}

static PyObject *LineSearch_count(LineSearch *s, PyObject *args) {
    double seconds = -1;
    if (!PyArg_ParseTuple(args, "|d", &seconds) || enter(s) < 0) return NULL;
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    long long found = run_polled(&s->core, 0, deadline, NULL);
    s->busy = 0;
    if (found < 0) return NULL;
    return Py_BuildValue("KO", s->core.solutions, s->core.done ? Py_True : Py_False);
}

/* A solution's variables (up to the -1) as a tuple, or NULL with the exception set. */
static PyObject *solution_tuple(const int *values) {
    int count = 0;
    while (values[count] >= 0) count++;
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple && i < count; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (!item) { Py_CLEAR(tuple); break; }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *LineSearch_next_batch(LineSearch *s, PyObject *args) {
    long long limit;
    double seconds = -1;
    if (!PyArg_ParseTuple(args, "L|d", &limit, &seconds)) return NULL;
    if (limit < 1 || limit > 1000000) {
        PyErr_SetString(PyExc_ValueError, "batch size must be 1..1000000");
        return NULL;
    }
    if (enter(s) < 0) return NULL;
    size_t slot = (size_t)s->core.norder + 1;
    int *out = PyMem_Malloc(sizeof(int) * (size_t)limit * slot);
    if (!out) { s->busy = 0; return PyErr_NoMemory(); }
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    long long found = run_polled(&s->core, limit, deadline, out);
    s->busy = 0;
    if (found < 0) { PyMem_Free(out); return NULL; }
    PyObject *batch = PyList_New(found);
    for (long long i = 0; batch && i < found; i++) {
        PyObject *cells = solution_tuple(out + i * slot);
        if (!cells) { Py_CLEAR(batch); break; }
        PyList_SET_ITEM(batch, i, cells);
    }
    PyMem_Free(out);
    return batch;
}

static PyObject *LineSearch_get_done(LineSearch *s, void *closure) { return PyBool_FromLong(s->core.done); }
static PyObject *LineSearch_get_nodes(LineSearch *s, void *closure) { return PyLong_FromUnsignedLongLong(s->core.nodes); }
static PyObject *LineSearch_get_solutions(LineSearch *s, void *closure) {
    return PyLong_FromUnsignedLongLong(s->core.solutions);
}

static PyMethodDef LineSearch_methods[] = {
    {"count", (PyCFunction)LineSearch_count, METH_VARARGS,
     "count([seconds]) -> (solutions so far, done): run to the end or the time limit."},
    {"next_batch", (PyCFunction)LineSearch_next_batch, METH_VARARGS,
     "next_batch(limit[, seconds]) -> list of tuples: the decided variables that hold a piece."},
    {NULL}
};

static PyGetSetDef LineSearch_getset[] = {
    {"done", (getter)LineSearch_get_done, NULL, "whether the search space is exhausted", NULL},
    {"nodes", (getter)LineSearch_get_nodes, NULL, "decisions tried so far (search nodes)", NULL},
    {"solutions", (getter)LineSearch_get_solutions, NULL, "solutions found so far", NULL},
    {NULL}
};

static PyTypeObject LineSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "queens.solvers.native._lines.LineSearch",
    .tp_basicsize = sizeof(LineSearch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A resumable search over Boolean variables whose lines hold between lo and hi pieces.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)LineSearch_init,
    .tp_dealloc = (destructor)LineSearch_dealloc,
    .tp_methods = LineSearch_methods,
    .tp_getset = LineSearch_getset,
};

static struct PyModuleDef lines_module = {
    PyModuleDef_HEAD_INIT, "_lines", "The line counter: per-line bounds with counters per line.", -1,
    NULL, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__lines(void) {
    if (PyType_Ready(&LineSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&lines_module);
    if (!m) return NULL;
    Py_INCREF(&LineSearchType);
    if (PyModule_AddObject(m, "LineSearch", (PyObject *)&LineSearchType) < 0) {
        Py_DECREF(&LineSearchType); Py_DECREF(m); return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_VARS", LC_MAX_VARS) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
