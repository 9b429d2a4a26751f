/* The Python binding of the DRUP trimmer (trimcore.c, which explains the method): the formula's
 * clauses and the proof's lemmas come in as int32 buffers of DIMACS literals, each clause ended
 * by 0; what the refutation needs goes out as two lists of indices, and the hints of each
 * lemma's check as int32 (trimcore.h says how they are laid out). The GIL is released while
 * the plain C core runs, and taken back at most every POLL_SECONDS to run Python's signal
 * handlers (interrupt.h): the walk over a long proof takes seconds to minutes (a `--certify`
 * of queen domination n = 8), and Ctrl-C or SIGTERM stops it within a beat.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#include "interrupt.h"
#include "trimcore.h"

#define MAX_VAR (1 << 28)              /* 2v + 1 must fit an int, with room to spare */

/* The clauses in `view` (int32 literals, each clause ended by 0): their count, their literals'
 * count and the largest variable; -1 with an exception when they are not such a list. */
static int measure(const Py_buffer *view, const char *what, int *clauses, int *lits, int *nvars) {
    const int32_t *values = view->buf;
    Py_ssize_t count = view->len / 4;
    if (view->len % 4 || (count && values[count - 1] != 0)) {
        PyErr_Format(PyExc_ValueError, "%s: int32 literals, every clause ended by 0", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (values[i] == 0) { (*clauses)++; continue; }
        if (values[i] > MAX_VAR || values[i] < -MAX_VAR) {
            PyErr_Format(PyExc_ValueError, "%s: literal %d is out of range", what, values[i]);
            return -1;
        }
        if (*lits == INT32_MAX - 1 || *clauses == INT32_MAX - 1) {
            PyErr_Format(PyExc_ValueError, "%s: too many literals", what);
            return -1;
        }
        (*lits)++;
        if (abs(values[i]) > *nvars) *nvars = abs(values[i]);
    }
    return 0;
}

/* Copy the clauses of `view` into the core from clause `c` and literal `at` on. */
static void fill(TrProof *t, const Py_buffer *view, int *c, int *at) {
    const int32_t *values = view->buf;
    for (Py_ssize_t i = 0; i < view->len / 4; i++) {
        if (values[i] == 0) t->start[++*c] = *at;
        else t->lits[(*at)++] = values[i];
    }
}

static PyObject *indices(const unsigned char *used, int from, int to) {
    PyObject *list = PyList_New(0);
    for (int c = from; list && c < to; c++) {
        if (!used[c]) continue;
        PyObject *index = PyLong_FromLong(c - from);
        if (!index || PyList_Append(list, index) < 0) Py_CLEAR(list);
        Py_XDECREF(index);
    }
    return list;
}

/* The core's stop check: Python's signal handlers, at most every POLL_SECONDS (a Poll). */
static int interrupted(void *poll) { return poll_interrupted(poll); }

static PyObject *trim(PyObject *module, PyObject *args) {
    Py_buffer formula, lemmas;
    if (!PyArg_ParseTuple(args, "y*y*", &formula, &lemmas)) return NULL;
    PyObject *answer = NULL;
    int nformula = 0, nclauses = 0, nlits = 0, nvars = 0, c = 0, at = 0, result;
    TrProof t;
    if (measure(&formula, "formula", &nformula, &nlits, &nvars) < 0) goto out;
    nclauses = nformula;
    if (measure(&lemmas, "lemmas", &nclauses, &nlits, &nvars) < 0) goto out;
    if (tr_alloc(&t, nvars, nclauses, nlits) < 0) { PyErr_NoMemory(); goto out; }
    fill(&t, &formula, &c, &at);
    fill(&t, &lemmas, &c, &at);
    Poll poll;
    StopCheck stop = {interrupted, &poll};
    t.stop = &stop;
    poll_begin(&poll);
    result = tr_run(&t, nformula);
    if (poll_end(&poll) < 0) {
        /* interrupted (result TR_STOPPED): the KeyboardInterrupt is set, nothing to return */
    } else if (result == TR_NO_MEMORY) PyErr_NoMemory();
    else {
        PyObject *core = indices(t.used, 0, nformula), *kept = core ? indices(t.used, nformula, nclauses) : NULL;
        const char *hints = t.hints.items ? (const char *)t.hints.items : "";  /* none: b"", not None */
        if (kept) answer = Py_BuildValue("NNiy#", core, kept, result, hints,
                                         (Py_ssize_t)t.hints.size * (Py_ssize_t)sizeof(int));
        else Py_XDECREF(core);
    }
    tr_free(&t);
out:
    PyBuffer_Release(&formula);
    PyBuffer_Release(&lemmas);
    return answer;
}

static PyMethodDef trim_methods[] = {
    {"trim", trim, METH_VARARGS,
     "trim(formula, lemmas) -> (formula clauses used, lemmas used, outcome, hints): outcome OK, or the index of "
     "a lemma that does not follow, or NO_CONFLICT; hints as int32 (trimcore.h). Both arguments are int32 "
     "literals, every clause ended by 0."},
    {NULL}
};

static struct PyModuleDef trim_module = {
    PyModuleDef_HEAD_INIT, "_trim", "Backward trimming of DRUP refutations.", -1, trim_methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__trim(void) {
    PyObject *m = PyModule_Create(&trim_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "OK", TR_OK) < 0 || PyModule_AddIntConstant(m, "NO_CONFLICT", TR_NO_CONFLICT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
