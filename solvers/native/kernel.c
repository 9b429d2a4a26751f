/* The suite's ground truth: a plain bitset backtracking search over the generic constraint
 * model (models/ir.py), small enough to read in one sitting.
 *
 * The board's cells are bits 0..ncells-1 (cell (r, c) is bit r*cols + c) in bitsets of
 * `words` 64-bit words. Python lowers the model to:
 *   allowed      cells that may hold a piece;
 *   conflicts[i] the cells that share an at-most-one/exactly-one line with cell i;
 *   lines[j]     the exactly-one lines we branch on, one per depth ("one queen per row");
 *   fixed        pieces that are already placed;
 *   covers[j]    sets that must each contain a piece (domination), checked at the leaf;
 *   target       how many pieces the search places besides the fixed ones.
 * With lines, depth d chooses the piece of line d. Without lines, depth d chooses any cell
 * after the previous choice (so each set of cells is generated once, in increasing order).
 *
 * The search is iterative with an explicit stack so that it can stop after a batch of
 * solutions (a Python generator pulls them lazily) or at a deadline, and resume later.
 * It runs without the GIL; a Search object refuses to be entered by two threads at once.
 * plain_reference.py in the tests is its plain-Python twin.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common.h"

#define MAX_CELLS 4096                 /* 64 x 64 boards: beyond that nobody counts by search */
#define MAX_WORDS (MAX_CELLS / 64)
#define CLOCK_EVERY 4096               /* look at the clock once per this many nodes */

typedef struct {
    PyObject_HEAD
    int ncells, words, nlines, ncovers, target, busy, done;
    int ready;                         /* set last by __init__: a failed init leaves it 0 */
    uint64_t *allowed, *conflicts, *lines, *fixed, *covers;
    /* the explicit stack: per depth, the cells still open and the candidates left to try */
    uint64_t *avail, *cand;
    int *chosen;
    int depth;
    unsigned long long nodes, solutions;
} Search;

static inline uint64_t *row_of(uint64_t *base, int words, int i) { return base + (size_t)i * words; }

static int lowest_bit(const uint64_t *set, int words) {
    for (int w = 0; w < words; w++)
        if (set[w]) return w * 64 + __builtin_ctzll(set[w]);
    return -1;
}

static int popcount(const uint64_t *set, int words) {
    int n = 0;
    for (int w = 0; w < words; w++) n += __builtin_popcountll(set[w]);
    return n;
}

static int intersects(const uint64_t *a, const uint64_t *b, int words) {
    for (int w = 0; w < words; w++)
        if (a[w] & b[w]) return 1;
    return 0;
}

/* Candidates at depth d: the open cells of line d, or every open cell without lines. */
static void load_candidates(Search *s, int d) {
    uint64_t *avail = row_of(s->avail, s->words, d), *cand = row_of(s->cand, s->words, d);
    for (int w = 0; w < s->words; w++)
        cand[w] = s->nlines ? avail[w] & row_of(s->lines, s->words, d)[w] : avail[w];
}

/* Covers hold when each contains a fixed piece or a chosen one. */
static int covers_hold(Search *s) {
    uint64_t placed[MAX_WORDS];
    memcpy(placed, s->fixed, sizeof(uint64_t) * s->words);
    for (int d = 0; d < s->target; d++) placed[s->chosen[d] / 64] |= 1ULL << (s->chosen[d] % 64);
    for (int j = 0; j < s->ncovers; j++)
        if (!intersects(placed, row_of(s->covers, s->words, j), s->words)) return 0;
    return 1;
}


/* Run until `max_solutions` more solutions were found (0 = no limit), the search ends, or
 * the deadline passes. Found solutions go to `out` (target cells each) when it is not NULL.
 * Returns the number found in this call. */
static long long run(Search *s, long long max_solutions, double deadline, int *out) {
    long long found = 0;
    const int W = s->words;
    if (s->done) return 0;
    if (s->target == 0) {              /* nothing to choose: the fixed pieces are the answer */
        s->done = 1;
        if (covers_hold(s)) { s->solutions++; return 1; }
        return 0;
    }
    while (1) {
        int d = s->depth;
        uint64_t *cand = row_of(s->cand, W, d);
        int x = lowest_bit(cand, W);
        if (x < 0) {                   /* no candidate left here: backtrack */
            if (d == 0) { s->done = 1; return found; }
            s->depth--;
            continue;
        }
        cand[x / 64] &= ~(1ULL << (x % 64));
        s->chosen[d] = x;
        s->nodes++;
        if (deadline > 0 && s->nodes % CLOCK_EVERY == 0 && now_seconds() > deadline) {
            cand[x / 64] |= 1ULL << (x % 64);   /* undo, so a resumed search tries x again */
            return found;
        }
        if (d + 1 == s->target) {      /* a leaf: all pieces placed */
            if (s->ncovers == 0 || covers_hold(s)) {
                if (out) memcpy(out + found * s->target, s->chosen, sizeof(int) * s->target);
                found++;
                s->solutions++;
                if (max_solutions && found == max_solutions) return found;
            }
            continue;
        }
        /* Without lines the next choices come after x (cand now holds exactly those). */
        uint64_t *from = s->nlines ? row_of(s->avail, W, d) : cand;
        uint64_t *next = row_of(s->avail, W, d + 1), *conflict = row_of(s->conflicts, W, x);
        for (int w = 0; w < W; w++) next[w] = from[w] & ~conflict[w];
        next[x / 64] &= ~(1ULL << (x % 64));
        if (!s->nlines && popcount(next, W) < s->target - d - 1) continue;  /* too few cells left */
        s->depth = d + 1;
        load_candidates(s, d + 1);
    }
}

/* ---- Python interface ------------------------------------------------------------------ */

static int take_sets(PyObject *buffer, int count, int words, int ncells, uint64_t **dest, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(buffer, &view, PyBUF_SIMPLE) < 0) return -1;
    size_t need = (size_t)count * words * sizeof(uint64_t);
    if ((size_t)view.len != need) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zu bytes, got %zd", what, need, view.len);
        PyBuffer_Release(&view);
        return -1;
    }
    *dest = PyMem_Calloc(count ? (size_t)count * words : 1, sizeof(uint64_t));
    if (!*dest) { PyBuffer_Release(&view); PyErr_NoMemory(); return -1; }
    memcpy(*dest, view.buf, need);
    PyBuffer_Release(&view);
    /* every bit must name a cell of the board */
    int spare = words * 64 - ncells;
    if (spare > 0) {
        uint64_t outside = ~0ULL << (64 - spare);
        for (int i = 0; i < count; i++)
            if (row_of(*dest, words, i)[words - 1] & outside) {
                PyErr_Format(PyExc_ValueError, "%s: a set names a cell outside the board", what);
                return -1;
            }
    }
    return 0;
}

static void Search_dealloc(Search *s) {
    PyMem_Free(s->allowed); PyMem_Free(s->conflicts); PyMem_Free(s->lines);
    PyMem_Free(s->fixed); PyMem_Free(s->covers); PyMem_Free(s->avail);
    PyMem_Free(s->cand); PyMem_Free(s->chosen);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"ncells", "allowed", "conflicts", "lines", "fixed", "covers", "target", NULL};
    PyObject *allowed, *conflicts, *lines, *fixed, *covers;
    int ncells, target;
    if (s->ready || s->allowed) { PyErr_SetString(PyExc_RuntimeError, "Search is already initialised"); return -1; }
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
    s->ncells = ncells; s->words = W;
    s->nlines = (int)(line_bytes / (W * 8));
    s->ncovers = (int)(cover_bytes / (W * 8));
    if (target < 0 || target > ncells || (s->nlines && s->nlines != target)) {
        PyErr_Format(PyExc_ValueError, "target %d does not fit %d cells and %d lines", target, ncells, s->nlines);
        return -1;
    }
    s->target = target;
    if (take_sets(allowed, 1, W, ncells, &s->allowed, "allowed") < 0
        || take_sets(conflicts, ncells, W, ncells, &s->conflicts, "conflicts") < 0
        || take_sets(lines, s->nlines, W, ncells, &s->lines, "lines") < 0
        || take_sets(fixed, 1, W, ncells, &s->fixed, "fixed") < 0
        || take_sets(covers, s->ncovers, W, ncells, &s->covers, "covers") < 0)
        return -1;
    s->avail = PyMem_Calloc((size_t)(target + 1) * W, sizeof(uint64_t));
    s->cand = PyMem_Calloc((size_t)(target + 1) * W, sizeof(uint64_t));
    s->chosen = PyMem_Calloc((size_t)target + 1, sizeof(int));
    if (!s->avail || !s->cand || !s->chosen) { PyErr_NoMemory(); return -1; }
    /* Start: allowed cells that are neither fixed nor attacked by a fixed piece. */
    for (int w = 0; w < W; w++) s->avail[w] = s->allowed[w] & ~s->fixed[w];
    for (int i = 0; i < ncells; i++)
        if (s->fixed[i / 64] >> (i % 64) & 1)
            for (int w = 0; w < W; w++) s->avail[w] &= ~row_of(s->conflicts, W, i)[w];
    load_candidates(s, 0);
    s->ready = 1;
    return 0;
}

static int enter(Search *s) {
    if (!s->ready) { PyErr_SetString(PyExc_RuntimeError, "Search is not initialised"); return -1; }
    if (s->busy) { PyErr_SetString(PyExc_RuntimeError, "Search is running in another thread"); return -1; }
    s->busy = 1;
    return 0;
}

static PyObject *Search_count(Search *s, PyObject *args) {
    double seconds = -1;
    if (!PyArg_ParseTuple(args, "|d", &seconds) || enter(s) < 0) return NULL;
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    Py_BEGIN_ALLOW_THREADS
    run(s, 0, deadline, NULL);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    return Py_BuildValue("KO", s->solutions, s->done ? Py_True : Py_False);
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
    int *out = PyMem_Malloc(sizeof(int) * (size_t)limit * (s->target ? s->target : 1));
    if (!out) { s->busy = 0; return PyErr_NoMemory(); }
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    long long found;
    Py_BEGIN_ALLOW_THREADS
    found = run(s, limit, deadline, out);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    PyObject *batch = PyList_New(found);
    for (long long i = 0; batch && i < found; i++) {
        PyObject *cells = int_tuple(out + i * s->target, s->target);
        if (!cells) { Py_CLEAR(batch); break; }
        PyList_SET_ITEM(batch, i, cells);
    }
    PyMem_Free(out);
    return batch;
}

static PyObject *Search_get_done(Search *s, void *closure) { return PyBool_FromLong(s->done); }
static PyObject *Search_get_nodes(Search *s, void *closure) { return PyLong_FromUnsignedLongLong(s->nodes); }
static PyObject *Search_get_solutions(Search *s, void *closure) { return PyLong_FromUnsignedLongLong(s->solutions); }

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
    .tp_name = "solvers.native._kernel.Search",
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
    PyModuleDef_HEAD_INIT, "_kernel", "Bitset backtracking search: the suite's ground truth.", -1, NULL, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) { Py_DECREF(&SearchType); Py_DECREF(m); return NULL; }
    if (PyModule_AddIntConstant(m, "MAX_CELLS", MAX_CELLS) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
