/* The Python binding of the simple search (simplecore.c, which explains the search): argument
 * checking, the model's bitsets copied in, solutions out as tuples, and the GIL released while
 * the plain C core runs. Kept thin so that the core builds without Python (the ARM cross test).
 * A Search object refuses to be entered by two threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "interrupt.h"
#include "simplecore.h"

#define MAX_CELLS KC_MAX_CELLS

typedef struct {
    PyObject_HEAD
    int busy;
    int ready;                         /* set last by __init__: a failed init leaves it 0 */
    KcSearch core;
} Search;

/* Copy `count` bitsets from `buffer` into the core's table `*dest`. The core's sets are
 * allocated at the first buffer of the right length (before it, a failed __init__ leaves
 * nothing allocated, and the object may be initialised again). */
static int take_sets(Search *s, PyObject *buffer, int count, uint64_t **dest, const char *what) {
    KcSearch *core = &s->core;
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) return -1;
    size_t need = (size_t)count * core->words * sizeof(uint64_t);
    if ((size_t)view.len != need) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zu bytes, got %zd", what, need, view.len);
        PyBuffer_Release(&view);
        return -1;
    }
    if (!core->allowed && kc_alloc(core, core->ncells, core->nlines, core->ncovers, core->target) < 0) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*dest, view.buf, need);
    PyBuffer_Release(&view);
    if (kc_outside(*dest, count, core->words, core->ncells)) {  /* every bit must name a cell of the board */
        PyErr_Format(PyExc_ValueError, "%s: a set names a cell outside the board", what);
        return -1;
    }
    return 0;
}

static void Search_dealloc(Search *s) {
    kc_free(&s->core);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"ncells", "allowed", "conflicts", "lines", "fixed", "covers", "target", NULL};
    PyObject *allowed, *conflicts, *lines, *fixed, *covers;
    int ncells, target;
    KcSearch *core = &s->core;
    if (s->ready || core->allowed) { PyErr_SetString(PyExc_RuntimeError, "Search is already initialised"); return -1; }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOOOOi", names, &ncells, &allowed,
                                     &conflicts, &lines, &fixed, &covers, &target))
        return -1;
    if (ncells < 1 || ncells > MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "ncells must be 1..%d, got %d", MAX_CELLS, ncells);
        return -1;
    }
    int W = (ncells + 63) / 64;
    Py_ssize_t line_bytes = PyObject_Length(lines), cover_bytes = PyObject_Length(covers);
    if (line_bytes < 0 || cover_bytes < 0) return -1;
    if (line_bytes % (W * 8) || cover_bytes % (W * 8)) {
        PyErr_SetString(PyExc_ValueError, "lines and covers must be whole bitsets");
        return -1;
    }
    core->ncells = ncells; core->words = W;
    core->nlines = (int)(line_bytes / (W * 8));
    core->ncovers = (int)(cover_bytes / (W * 8));
    if (target < 0 || target > ncells || (core->nlines && core->nlines != target)) {
        PyErr_Format(PyExc_ValueError, "target %d does not fit %d cells and %d lines", target, ncells, core->nlines);
        return -1;
    }
    core->target = target;
    if (take_sets(s, allowed, 1, &core->allowed, "allowed") < 0
        || take_sets(s, conflicts, ncells, &core->conflicts, "conflicts") < 0
        || take_sets(s, lines, core->nlines, &core->lines, "lines") < 0
        || take_sets(s, fixed, 1, &core->fixed, "fixed") < 0
        || take_sets(s, covers, core->ncovers, &core->covers, "covers") < 0)
        return -1;
    kc_start(core);
    s->ready = 1;
    return 0;
}

static int enter(Search *s) {
    if (!s->ready) { PyErr_SetString(PyExc_RuntimeError, "Search is not initialised"); return -1; }
    if (s->busy) { PyErr_SetString(PyExc_RuntimeError, "Search is running in another thread"); return -1; }
    s->busy = 1;
    return 0;
}

/* kc_run in slices of POLL_SECONDS without the GIL, running Python's signal handlers between
 * them (interrupt.h says why): the core stays free of Python and resumes where a slice ended.
 * Returns the solutions found, or -1 with the exception set when a handler raised. */
static long long run_polled(KcSearch *core, long long limit, double deadline, int *out) {
    long long found = 0;
    while (1) {
        double slice = now_seconds() + POLL_SECONDS;
        int last = deadline > 0 && deadline <= slice;
        long long more;
        Py_BEGIN_ALLOW_THREADS
        more = kc_run(core, limit ? limit - found : 0, last ? deadline : slice,
                      out ? out + found * core->target : NULL);
        Py_END_ALLOW_THREADS
        found += more;
        if (core->done || (limit && found >= limit) || last) return found;
        if (PyErr_CheckSignals() < 0) return -1;
    }
}

static PyObject *Search_count(Search *s, PyObject *args) {
    double seconds = -1;
    if (!PyArg_ParseTuple(args, "|d", &seconds) || enter(s) < 0) return NULL;
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    long long found = run_polled(&s->core, 0, deadline, NULL);
    s->busy = 0;
    if (found < 0) return NULL;
    return Py_BuildValue("KO", s->core.solutions, s->core.done ? Py_True : Py_False);
}

/* A tuple of ints, or NULL with the exception set (every element checked). */
static PyObject *int_tuple(const int *values, int count) {
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple && i < count; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (!item) { Py_CLEAR(tuple); break; }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *Search_next_batch(Search *s, PyObject *args) {
    long long limit;
    double seconds = -1;
    if (!PyArg_ParseTuple(args, "L|d", &limit, &seconds)) return NULL;
    if (limit < 1 || limit > 1000000) {
        PyErr_SetString(PyExc_ValueError, "batch size must be 1..1000000");
        return NULL;
    }
    if (enter(s) < 0) return NULL;
    int *out = PyMem_Malloc(sizeof(int) * (size_t)limit * (s->core.target ? s->core.target : 1));
    if (!out) { s->busy = 0; return PyErr_NoMemory(); }
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    long long found = run_polled(&s->core, limit, deadline, out);
    s->busy = 0;
    if (found < 0) { PyMem_Free(out); return NULL; }
    PyObject *batch = PyList_New(found);
    for (long long i = 0; batch && i < found; i++) {
        PyObject *cells = int_tuple(out + i * s->core.target, s->core.target);
        if (!cells) { Py_CLEAR(batch); break; }
        PyList_SET_ITEM(batch, i, cells);
    }
    PyMem_Free(out);
    return batch;
}

static PyObject *Search_get_done(Search *s, void *closure) { return PyBool_FromLong(s->core.done); }
static PyObject *Search_get_nodes(Search *s, void *closure) { return PyLong_FromUnsignedLongLong(s->core.nodes); }
static PyObject *Search_get_solutions(Search *s, void *closure) { return PyLong_FromUnsignedLongLong(s->core.solutions); }

static PyMethodDef Search_methods[] = {
    {"count", (PyCFunction)Search_count, METH_VARARGS,
     "count([seconds]) -> (solutions so far, done): run to the end or the time limit."},
    {"next_batch", (PyCFunction)Search_next_batch, METH_VARARGS,
     "next_batch(limit[, seconds]) -> list of tuples of cell indices (chosen cells only)."},
    {NULL}
};

static PyGetSetDef Search_getset[] = {
    {"done", (getter)Search_get_done, NULL, "whether the search space is exhausted", NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "pieces placed so far (search nodes)", NULL},
    {"solutions", (getter)Search_get_solutions, NULL, "solutions found so far", NULL},
    {NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "queens.solvers.native._simple.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A resumable bitset backtracking search over a lowered constraint model.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_simple", "Bitset backtracking search: the suite's ground truth.", -1, NULL, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__simple(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) { Py_DECREF(&SearchType); Py_DECREF(m); return NULL; }
    if (PyModule_AddIntConstant(m, "MAX_CELLS", MAX_CELLS) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
