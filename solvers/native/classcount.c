/* The Python binding of the classes counter (n-queens by D4 symmetry class): argument checking,
 * lists in and out, and the GIL released while the plain C core (classcore.c, which explains the
 * scheme) counts.
 * Kept thin so that the core builds without Python (the ARM cross test). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "classcore.h"

#define MAX_N FQ_MAX_N
#define MAX_SUBPROBLEMS 10000000
#define MAX_SPLIT 8             /* deeper splits: too many subproblems, and slow to list */

typedef FqPrefix Prefix;

/* ---- Python interface --------------------------------------------------------------------- */

static int check_n(int n) {
    if (n < 4 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 4..%d (smaller boards have no subproblems), got %d", MAX_N, n);
        return -1;
    }
    return 0;
}

static PyObject *py_subproblems(PyObject *self, PyObject *args) {
    int n, depth;
    if (!PyArg_ParseTuple(args, "ii", &n, &depth) || check_n(n) < 0) return NULL;
    int deepest = n - 2 < MAX_SPLIT ? n - 2 : MAX_SPLIT;
    if (depth < 2 || depth > deepest) {
        PyErr_Format(PyExc_ValueError, "depth must be 2..%d for n = %d, got %d", deepest, n, depth);
        return NULL;
    }
    Py_ssize_t count = fq_subproblems(n, depth, NULL, MAX_SUBPROBLEMS);
    if (count > MAX_SUBPROBLEMS) {
        PyErr_Format(PyExc_ValueError, "depth %d gives more than %d subproblems for n = %d", depth, MAX_SUBPROBLEMS, n);
        return NULL;
    }
    Prefix *all = PyMem_Malloc(sizeof(Prefix) * (size_t)(count ? count : 1));
    if (!all) return PyErr_NoMemory();
    fq_subproblems(n, depth, all, count);
    PyObject *list = PyList_New(count);
    for (Py_ssize_t i = 0; list && i < count; i++) {
        PyObject *key = PyTuple_New(depth);
        if (!key) { Py_CLEAR(list); break; }
        for (int y = 0; key && y < depth; y++) {
            PyObject *column = PyLong_FromLong(all[i].col[y]);
            if (!column) Py_CLEAR(key); else PyTuple_SET_ITEM(key, y, column);
        }
        if (!key) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, key);
    }
    PyMem_Free(all);
    return list;
}

/* Read the subproblems (a sequence of equal-length sequences of columns) into `out`. */
static Py_ssize_t read_prefixes(PyObject *keys, int n, Prefix **out) {
    PyObject *seq = PySequence_Fast(keys, "subproblems must be a sequence of column tuples");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAX_SUBPROBLEMS) {
        PyErr_Format(PyExc_ValueError, "at most %d subproblems per call, got %zd", MAX_SUBPROBLEMS, count);
        Py_DECREF(seq);
        return -1;
    }
    *out = PyMem_Calloc((size_t)(count ? count : 1), sizeof(Prefix));
    if (!*out) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    int depth = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *cols = PySequence_Fast(PySequence_Fast_ITEMS(seq)[i], "a subproblem must be a sequence of columns");
        if (!cols) goto fail;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(cols);
        if (depth < 0) depth = (int)(len < MAX_N ? len : MAX_N);
        if (len != depth || len < 2 || len > n - 2) {
            PyErr_Format(PyExc_ValueError, "subproblem %zd: expected %d columns (2..%d, the same for all), got %zd",
                         i, depth, n - 2, len);
            Py_DECREF(cols);
            goto fail;
        }
        (*out)[i].depth = depth;
        for (Py_ssize_t y = 0; y < len; y++) {
            long v = PyLong_AsLong(PySequence_Fast_ITEMS(cols)[y]);
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(cols); goto fail; }
            if (v < 0 || v >= n) {
                PyErr_Format(PyExc_ValueError, "subproblem %zd: column %ld is off the %dx%d board", i, v, n, n);
                Py_DECREF(cols);
                goto fail;
            }
            (*out)[i].col[y] = (uint8_t)v;
        }
        Py_DECREF(cols);
        if (!fq_prefix_valid(&(*out)[i], n)) {
            PyErr_Format(PyExc_ValueError, "subproblem %zd is not a canonical prefix for n = %d "
                         "(queens attack, or it breaks its branch's symmetry rules)", i, n);
            goto fail;
        }
    }
    Py_DECREF(seq);
    return count;
fail:
    Py_DECREF(seq);
    PyMem_Free(*out);
    *out = NULL;
    return -1;
}

/* The kernel a caller names: 'auto' (the best this CPU runs), a kernel's name, 'vector'
 * (the AVX-512 lanes, the name this module used before there were several) or
 * 'scalar-baseline' (the scalar kernel's baseline build, for tests); -1 with an exception when
 * this binary or this CPU cannot run it. */
static int kernel_of(const char *name) {
    if (!strcmp(name, "auto")) return fq_best_kernel();
    if (!strcmp(name, "scalar-baseline")) return FQ_SCALAR_BASELINE;
    int k = fq_kernel_index(strcmp(name, "vector") ? name : "avx512");
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "kernel must be 'auto' or one of scalar, sse2, avx2, avx512, neon; got '%s'",
                     name);
        return -1;
    }
    if (!fq_kernel_supported((FqKernel)k)) {
        PyErr_Format(PyExc_ValueError, "the %s kernel needs a CPU with %s (this one has: %s)", fq_kernel_names[k],
                     k == FQ_AVX512 ? "AVX-512" : k == FQ_AVX2 ? "AVX2" : k == FQ_NEON ? "NEON (AArch64)" : "SSE2",
                     fq_cpu_features());
        return -1;
    }
    return k;
}

static PyObject *class_counts(const FqClasses *counts, const char *finished, Py_ssize_t count) {
    PyObject *result = PyList_New(count);
    for (Py_ssize_t i = 0; result && i < count; i++) {
        PyObject *item = finished[i]
            ? Py_BuildValue("(KKKK)", counts[i].c2, counts[i].c4, counts[i].c8, counts[i].nodes)
            : Py_NewRef(Py_None);
        if (!item) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, item);
    }
    return result;
}

static PyObject *py_count(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "subproblems", "kernel", "stop", NULL};
    int n;
    PyObject *keys, *stop = Py_None;
    const char *name = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO|sO", names, &n, &keys, &name, &stop) || check_n(n) < 0)
        return NULL;
    int kernel = kernel_of(name);
    if (kernel < 0) return NULL;
    Py_buffer flag = {0};
    if (stop != Py_None) {
        if (PyObject_GetBuffer(stop, &flag, PyBUF_SIMPLE) < 0) return NULL;
        if (flag.len < 1) {
            PyBuffer_Release(&flag);
            PyErr_SetString(PyExc_ValueError, "stop must be a buffer of at least one byte (a bytearray)");
            return NULL;
        }
    }
    Prefix *subs = NULL;
    Py_ssize_t count = read_prefixes(keys, n, &subs);
    if (count < 0) { if (flag.obj) PyBuffer_Release(&flag); return NULL; }
    FqClasses *counts = PyMem_Calloc((size_t)(count ? count : 1), sizeof(FqClasses));
    char *finished = PyMem_Calloc((size_t)(count ? count : 1), 1);
    PyObject *result = NULL;
    int status = -1;
    if (counts && finished) {
        Py_BEGIN_ALLOW_THREADS
        status = fq_count(n, subs, count, (FqKernel)kernel, flag.obj ? (const volatile char *)flag.buf : NULL,
                          counts, finished);
        Py_END_ALLOW_THREADS
    }
    if (status < 0) PyErr_NoMemory();
    else result = class_counts(counts, finished, count);
    PyMem_Free(counts);
    PyMem_Free(finished);
    PyMem_Free(subs);
    if (flag.obj) PyBuffer_Release(&flag);
    return result;
}

static PyMethodDef methods[] = {
    {"subproblems", py_subproblems, METH_VARARGS,
     "subproblems(n, depth) -> list of column tuples: the canonical prefixes of `depth` rows, in order."},
    {"count", (PyCFunction)(void (*)(void))py_count, METH_VARARGS | METH_KEYWORDS,
     "count(n, subproblems, kernel='auto', stop=None) -> per subproblem (C2, C4, C8, nodes), or None if it was\n"
     "stopped before finishing (a nonzero first byte of the `stop` buffer stops the count early).\n"
     "kernel: 'auto' (the best this CPU runs), a name in KERNELS (SUPPORTED: this CPU's) or 'scalar-baseline'\n"
     "(the scalar kernel's baseline build, whatever SCALAR_BUILD is). Runs without the GIL."},
    {NULL}
};

static struct PyModuleDef classes_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_classes",
    .m_doc = "The classes counter: n-queens solutions by D4 symmetry class (see classcore.c).",
    .m_size = -1,
    .m_methods = methods,
};

/* A tuple of the names of the kernels for which `keep` holds. */
static PyObject *kernel_names(int (*keep)(FqKernel)) {
    PyObject *names = PyTuple_New(0);
    for (int k = 0; names && k < FQ_KERNELS; k++) {
        if (!keep((FqKernel)k)) continue;
        PyObject *name = PyUnicode_FromString(fq_kernel_names[k]);
        if (!name || _PyTuple_Resize(&names, PyTuple_GET_SIZE(names) + 1) < 0) { Py_XDECREF(name); Py_CLEAR(names); break; }
        PyTuple_SET_ITEM(names, PyTuple_GET_SIZE(names) - 1, name);
    }
    return names;
}

/* Module constants: MAX_N, VERSION; KERNELS (in this binary), SUPPORTED (this CPU runs them),
 * AUTOMATIC (the kernels 'auto' may take), BEST (what 'auto' runs), FEATURES (the CPU features the dispatcher saw), SCALAR_BUILD (the
 * scalar kernel's build this CPU runs), VECTOR (AVX-512). */
static int add_constants(PyObject *m) {
    PyObject *compiled = kernel_names(fq_kernel_compiled), *supported = kernel_names(fq_kernel_supported);
    PyObject *automatic = kernel_names(fq_kernel_automatic);
    int failed = PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 || PyModule_AddIntConstant(m, "VERSION", FQ_VERSION) < 0
        || PyModule_AddObjectRef(m, "KERNELS", compiled) < 0 || PyModule_AddObjectRef(m, "SUPPORTED", supported) < 0
        || PyModule_AddObjectRef(m, "AUTOMATIC", automatic) < 0
        || PyModule_AddStringConstant(m, "BEST", fq_kernel_names[fq_best_kernel()]) < 0
        || PyModule_AddStringConstant(m, "FEATURES", fq_cpu_features()) < 0
        || PyModule_AddStringConstant(m, "SCALAR_BUILD", fq_scalar_build()) < 0
        || PyModule_AddObjectRef(m, "VECTOR", fq_kernel_supported(FQ_AVX512) ? Py_True : Py_False) < 0;
    Py_XDECREF(compiled);
    Py_XDECREF(supported);
    Py_XDECREF(automatic);
    return failed ? -1 : 0;
}

PyMODINIT_FUNC PyInit__classes(void) {
    PyObject *m = PyModule_Create(&classes_module);
    if (m && add_constants(m) < 0) Py_CLEAR(m);
    return m;
}
