/* libFuzzer target for _lines (lines.c, and its core linecore.c): LineSearch(...) with fuzzed
 * variables, decision orders (now and then repeated, fixed or off the range), fixed pieces,
 * lines and bounds (lo above hi, negative, past the line's length), as int32 buffers whose
 * lengths are now and then off by a few bytes; then next_batch and count under a tiny time
 * limit. Every solution is checked against the input: its variables are in the order, named
 * once, and every line holds between lo and hi pieces (the fixed ones with them). When the
 * count ends and the order is short, the total is checked against a brute force over every
 * subset of the ordered variables, which shares no code with the counters. */
#include "embed.h"
#include "../solvers/native/lines.c"
#include "../solvers/native/linecore.c"

#define MOST_VARS 24                   /* the sensible sizes: searches that finish */
#define MOST_LINES 10
#define BRUTE_ORDER 14                 /* 2^14 subsets at most for the brute force */

typedef struct {                       /* the input as drawn (the buffers hold the same values) */
    int nvars, norder, nfixed, nlines, nmembers;
    int32_t order[MOST_VARS], fixed[MOST_VARS], start[MOST_LINES + 1], members[MOST_LINES * MOST_VARS];
    int32_t lo[MOST_LINES], hi[MOST_LINES];
} Drawn;

/* An int32 buffer of `values`, its length now and then off by a few bytes (the binding's checks). */
static PyObject *int32_bytes(const int32_t *values, int count, uint8_t bias) {
    long long length = 4LL * count;
    if (bias >= 250) length += (int)bias - 252;  /* -2 .. +3 bytes */
    if (length < 0) length = 0;
    PyObject *packed = PyBytes_FromStringAndSize(NULL, length);
    if (!packed) fuzz_fail("out of memory building the input");
    memcpy(PyBytes_AS_STRING(packed), values, (size_t)(length < 4LL * count ? length : 4LL * count));
    if (length > 4LL * count) memset(PyBytes_AS_STRING(packed) + 4LL * count, 0, (size_t)(length - 4LL * count));
    return packed;
}

/* A value that is mostly a variable (0..nvars-1), now and then anything. */
static int32_t some_variable(Bytes *in, int nvars) {
    uint8_t mode = (uint8_t)fuzz_take(in, 1);
    if (mode < 248 && nvars > 0) return (int32_t)(fuzz_take(in, 1) % (uint64_t)nvars);
    return (int32_t)fuzz_take(in, 4);
}

/* The model: mostly valid (distinct order, not fixed, lines of variables, bounds near the
 * lines' lengths), so the searches behind the checks run; now and then broken at one place. */
static void draw(Bytes *in, Drawn *m) {
    long long nvars = fuzz_size(in, MOST_VARS);
    m->nvars = (int)nvars;                       /* now and then out of range: refused */
    int room = nvars >= 1 && nvars <= MOST_VARS ? (int)nvars : MOST_VARS;
    unsigned char used[MOST_VARS] = {0};
    m->nfixed = (int)(fuzz_take(in, 1) % 4);
    if (m->nfixed > room) m->nfixed = room;
    for (int i = 0; i < m->nfixed; i++) {
        m->fixed[i] = some_variable(in, room);
        if (m->fixed[i] >= 0 && m->fixed[i] < room) used[m->fixed[i]] = 1;
    }
    m->norder = 0;
    int wanted = (int)(fuzz_take(in, 1) % (uint64_t)(room + 1));
    for (int v = (int)(fuzz_take(in, 1) % (uint64_t)room), k = 0; k < room && m->norder < wanted; k++, v = (v + 1) % room)
        if (!used[v]) m->order[m->norder++] = v;
    if (m->norder && fuzz_take(in, 1) >= 250) m->order[fuzz_take(in, 1) % (uint64_t)m->norder] = some_variable(in, room);
    m->nlines = (int)(fuzz_take(in, 1) % (MOST_LINES + 1));
    m->nmembers = 0;
    m->start[0] = 0;
    for (int j = 0; j < m->nlines; j++) {
        int length = (int)(fuzz_take(in, 1) % 6);
        for (int k = 0; k < length; k++) m->members[m->nmembers++] = some_variable(in, room);
        m->start[j + 1] = m->nmembers;
        m->lo[j] = (int32_t)(fuzz_take(in, 1) % 5) - 1;           /* -1 .. 3 */
        m->hi[j] = m->lo[j] + (int32_t)(fuzz_take(in, 1) % 4) - 1; /* may be below lo */
    }
    if (m->nlines && fuzz_take(in, 1) >= 252) m->start[fuzz_take(in, 1) % (uint64_t)(m->nlines + 1)] += 3;
}

/* Whether a line of the model holds between lo and hi pieces, with `piece[v]` the board. */
static int lines_hold(const Drawn *m, const unsigned char *piece) {
    for (int j = 0; j < m->nlines; j++) {
        int count = 0;
        for (int k = m->start[j]; k < m->start[j + 1]; k++) count += piece[m->members[k]];
        if (count < m->lo[j] || count > m->hi[j]) return 0;
    }
    return 1;
}

/* A board of the accepted model's variables, the fixed ones holding a piece (the binding took
 * every value as below nvars, which may be past MOST_VARS when drawn as "anything"). */
static unsigned char *fixed_board(const Drawn *m) {
    unsigned char *piece = calloc((size_t)m->nvars, 1);
    if (!piece) fuzz_fail("out of memory checking an answer");
    for (int i = 0; i < m->nfixed; i++) piece[m->fixed[i]] = 1;
    return piece;
}

/* One solution: variables of the order, each once, and with the fixed ones every line's bounds hold. */
static void check_solution(PyObject *cells, const Drawn *m) {
    unsigned char *piece = fixed_board(m);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cells); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(cells, i));
        int in_order = 0;
        for (int d = 0; d < m->norder; d++) in_order |= m->order[d] == v;
        if (!in_order || piece[v]) fuzz_fail("a solution names a variable outside the order, or twice");
        piece[v] = 1;
    }
    if (!lines_hold(m, piece)) fuzz_fail("a solution breaks a line's bounds");
    free(piece);
}

/* The solutions by brute force: every subset of the ordered variables (never fixed: the binding
 * refuses that), with the fixed ones. */
static unsigned long long brute_force(const Drawn *m) {
    unsigned long long count = 0;
    unsigned char *piece = fixed_board(m);
    for (unsigned long subset = 0; subset < 1ul << m->norder; subset++) {
        for (int d = 0; d < m->norder; d++) piece[m->order[d]] = subset >> d & 1;
        count += lines_hold(m, piece);
    }
    free(piece);
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready && PyType_Ready(&LineSearchType) < 0) fuzz_fail("PyType_Ready");
    ready = 1;
    Bytes in = {data, size};
    Drawn m;
    draw(&in, &m);
    uint8_t bias = (uint8_t)fuzz_take(&in, 1);
    PyObject *order = int32_bytes(m.order, m.norder, bias), *fixed = int32_bytes(m.fixed, m.nfixed, bias ^ 1);
    PyObject *start = int32_bytes(m.start, m.nlines + 1, bias ^ 2), *members = int32_bytes(m.members, m.nmembers, bias ^ 3);
    PyObject *lo = int32_bytes(m.lo, m.nlines, bias ^ 4), *hi = int32_bytes(m.hi, m.nlines, bias ^ 5);
    PyObject *search = PyObject_CallFunction((PyObject *)&LineSearchType, "iOOOOOO", m.nvars, order, fixed, start,
                                             members, lo, hi);
    fuzz_expect_clean(search);
    if (search) {  /* accepted: the buffers were whole and every value in range, as drawn */
        double seconds = 0.002;
        PyObject *batch = PyObject_CallMethod(search, "next_batch", "Ld", (long long)fuzz_size(&in, 8) - 1, seconds);
        fuzz_expect_clean(batch);
        for (Py_ssize_t i = 0; batch && i < PyList_GET_SIZE(batch); i++) check_solution(PyList_GET_ITEM(batch, i), &m);
        Py_XDECREF(batch);
        PyObject *counted = PyObject_CallMethod(search, "count", "d", seconds);
        fuzz_expect_clean(counted);
        if (counted && PyTuple_GET_ITEM(counted, 1) == Py_True && m.norder <= BRUTE_ORDER
            && PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(counted, 0)) != brute_force(&m))
            fuzz_fail("the count differs from the brute force");
        Py_XDECREF(counted);
        /* a second __init__ on a live object must be refused, not leak or reset it */
        PyObject *args = Py_BuildValue("(iOOOOOO)", m.nvars, order, fixed, start, members, lo, hi);
        if (Py_TYPE(search)->tp_init(search, args, NULL) == 0) fuzz_fail("a second __init__ was accepted");
        fuzz_expect_clean(NULL);
        Py_DECREF(args);
        Py_DECREF(search);
    }
    Py_DECREF(order); Py_DECREF(fixed); Py_DECREF(start); Py_DECREF(members); Py_DECREF(lo); Py_DECREF(hi);
    return 0;
}
