/* Exact n-queens completion: extend k pre-placed queens to n, or prove that no extension exists.
 *
 * Only the free rows and free columns matter (m = n - k of each); a cell of that reduced board
 * is *safe* while its row, column, diagonal and anti-diagonal hold no queen. The search keeps,
 * for every line (row, column, diagonal, anti-diagonal), the number of safe cells it still has:
 *   - placing a queen walks its four lines once and decrements the counts of the cells it
 *     makes unsafe (propagation over rows, columns and both diagonals), and undoing walks them
 *     back in reverse order, so each cell is counted exactly once;
 *   - a free row or column whose count drops to 0 can never be filled: a dead end (the cheap
 *     Hall-type check; a count of 1 is a forced move, taken first because of the next rule);
 *   - it branches on the free row *or column* with the fewest safe cells (minimum risk, as in
 *     Grigoryan 2020), trying its cells in order of least damage: the fewest safe cells left
 *     on the cell's two diagonals, i.e. the choice that closes the fewest other options;
 *   - ties are broken at random and every run has a budget of dead ends; a run that uses it
 *     up restarts with a new random order and a larger budget (so heavy tails are cut off).
 * Every run is a complete depth-first search: each free row (column) must hold exactly one
 * queen, so trying all of its safe cells covers every completion. A run that exhausts its
 * tree within budget has therefore *proved* that there is no completion: "no" is never a
 * guess, unlike the bounded backtracking of the heuristic it replaces.
 *
 * Cost: O(n + m^2) to set up, O(m) per placed queen and per undo.
 * Cell (r, c) is on diagonal r - c + n - 1 and anti-diagonal r + c.
 * The search runs without the GIL; all its state lives in one call.
 *
 * The asserts state the invariants above (a queen goes on a safe cell, no line's count goes
 * below 0, undoing restores the free lists, a solution is a permutation with no two queens on a
 * diagonal); they run in the sanitiser builds (make test-asan, make fuzz) and are compiled out of
 * the normal one (setup.py passes -DNDEBUG).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "interrupt.h"

#define MAX_N (1 << 20)              /* the candidate packing below keeps a coordinate in 20 bits */
#define CLOCK_EVERY 256               /* look at the clock once per this many nodes */
#define FIRST_BUDGET 64               /* dead ends allowed in the first run */

enum { SOLVED = 1, NO_SOLUTION = 0, OUT_OF_TIME = -1, OUT_OF_MEMORY = -2, RESTART = 2, UNDECIDED = 3 };

typedef struct {
    int line;          /* the row (or column, if by_col) branched on */
    int by_col;
    int64_t first;     /* its candidates: cand[first .. first+count); the running total */
    int count;         /* along the path grows like m^2/2, past INT_MAX for m ~ 65k rows */
    int next;          /* candidates before `next` were tried (sorted into place lazily) */
    int r, c;          /* the queen placed now, r = -1 if none */
} Frame;

typedef struct {
    int n, m;
    int *col_of;                          /* column of row r's queen, -1 if none */
    uint8_t *row_used, *col_used, *diag_used, *anti_used;
    int *rcnt, *ccnt, *dcnt, *acnt;       /* safe cells left on each line */
    int *rows, *rpos, nrows;              /* free rows, dense, with each one's position */
    int *cols, *cpos, ncols;
    Frame *frames;
    uint64_t *cand;                       /* (damage << 40) | (random << 20) | coordinate */
    size_t cand_size;
    uint64_t rng;
    unsigned long long nodes, fails, restarts;
    Poll *poll;                           /* Ctrl-C: looked at with the clock (interrupt.h) */
} State;



/* Free lists with O(1) removal: the dropped element goes just past the end, so undoing drops
 * in reverse order brings each back into the list (maybe elsewhere in it: it is a set). */
static void drop(int *list, int *pos, int *size, int x) {
    int p = pos[x], last = list[--*size];
    list[p] = last; pos[last] = p;
    list[*size] = x; pos[x] = *size;
}
static void restore(int *size) { ++*size; }  /* x is still stored just past the end */

/* Place a queen on (r, c); returns 0 if some free row or column is left without a safe cell.
 * The four walks always run to the end so that `unplace` can mirror them exactly. */
static int place(State *s, int r, int c) {
    const int n = s->n, off = r - c, d = r - c + n - 1, a = r + c;
    int alive = 1;
    assert(r >= 0 && r < n && c >= 0 && c < n);
    assert(!s->row_used[r] && !s->col_used[c] && !s->diag_used[d] && !s->anti_used[a]);   /* a safe cell */
    drop(s->rows, s->rpos, &s->nrows, r);
    drop(s->cols, s->cpos, &s->ncols, c);
    s->row_used[r] = s->col_used[c] = 1;
    s->col_of[r] = c;
    for (int i = 0; i < s->ncols; i++) {            /* row r */
        int x = s->cols[i], dx = r - x + n - 1, ax = r + x;
        if (s->diag_used[dx] || s->anti_used[ax]) continue;
        if (--s->ccnt[x] == 0) alive = 0;
        s->dcnt[dx]--; s->acnt[ax]--;
    }
    for (int i = 0; i < s->nrows; i++) {            /* column c */
        int y = s->rows[i], dy = y - c + n - 1, ay = y + c;
        if (s->diag_used[dy] || s->anti_used[ay]) continue;
        if (--s->rcnt[y] == 0) alive = 0;
        s->dcnt[dy]--; s->acnt[ay]--;
    }
    s->diag_used[d] = 1;
    for (int i = 0; i < s->nrows; i++) {            /* diagonal through (r, c) */
        int y = s->rows[i], x = y - off;
        if (x < 0 || x >= n || s->col_used[x] || s->anti_used[y + x]) continue;
        if (--s->rcnt[y] == 0) alive = 0;
        if (--s->ccnt[x] == 0) alive = 0;
        s->acnt[y + x]--;
    }
    s->anti_used[a] = 1;
    for (int i = 0; i < s->nrows; i++) {            /* anti-diagonal through (r, c) */
        int y = s->rows[i], x = a - y;
        if (x < 0 || x >= n || s->col_used[x] || s->diag_used[y - x + n - 1]) continue;
        if (--s->rcnt[y] == 0) alive = 0;
        if (--s->ccnt[x] == 0) alive = 0;
        s->dcnt[y - x + n - 1]--;
    }
    return alive;
}

/* `place` backwards: the same four walks in reverse order, incrementing. */
static void unplace(State *s, int r, int c) {
    const int n = s->n, off = r - c, d = r - c + n - 1, a = r + c;
    assert(s->col_of[r] == c && s->diag_used[d] && s->anti_used[a]);   /* the last queen placed */
    s->anti_used[a] = 0;
    for (int i = 0; i < s->nrows; i++) {
        int y = s->rows[i], x = a - y;
        if (x < 0 || x >= n || s->col_used[x] || s->diag_used[y - x + n - 1]) continue;
        s->rcnt[y]++; s->ccnt[x]++; s->dcnt[y - x + n - 1]++;
    }
    s->diag_used[d] = 0;
    for (int i = 0; i < s->nrows; i++) {
        int y = s->rows[i], x = y - off;
        if (x < 0 || x >= n || s->col_used[x] || s->anti_used[y + x]) continue;
        s->rcnt[y]++; s->ccnt[x]++; s->acnt[y + x]++;
    }
    for (int i = 0; i < s->nrows; i++) {
        int y = s->rows[i], dy = y - c + n - 1, ay = y + c;
        if (s->diag_used[dy] || s->anti_used[ay]) continue;
        s->rcnt[y]++; s->dcnt[dy]++; s->acnt[ay]++;
    }
    for (int i = 0; i < s->ncols; i++) {
        int x = s->cols[i], dx = r - x + n - 1, ax = r + x;
        if (s->diag_used[dx] || s->anti_used[ax]) continue;
        s->ccnt[x]++; s->dcnt[dx]++; s->acnt[ax]++;
    }
    s->col_of[r] = -1;
    s->row_used[r] = s->col_used[c] = 0;
    restore(&s->ncols);
    restore(&s->nrows);
    assert(s->rows[s->rpos[r]] == r && s->cols[s->cpos[c]] == c && s->rpos[r] < s->nrows && s->cpos[c] < s->ncols);
}

#ifndef NDEBUG
/* Whether col_of is a solution: a permutation with at most one queen per diagonal (the board's
 * own check, independent of the counts the search keeps). */
static int is_solution(const State *s) {
    const int n = s->n;
    unsigned char *seen = calloc(5 * (size_t)n, 1);   /* columns, diagonals, anti-diagonals */
    if (!seen) return 1;                               /* no memory to check: nothing said */
    int ok = 1;
    for (int r = 0; ok && r < n; r++) {
        int c = s->col_of[r];
        if (c < 0 || c >= n || seen[c] || seen[n + r - c + n - 1] || seen[3 * (size_t)n - 1 + r + c]) ok = 0;
        else seen[c] = seen[n + r - c + n - 1] = seen[3 * (size_t)n - 1 + r + c] = 1;
    }
    free(seen);
    return ok;
}
#endif

/* ---- the search --------------------------------------------------------------------------- */


/* Minimum risk: the free row or column with the fewest safe cells, scanned from a random
 * start so that ties fall differently in every run. A count of 0 or 1 ends the scan early. */
static void choose_line(State *s, Frame *f) {
    int best = -1, total = s->nrows + s->ncols;
    int start = (int)(next_random(&s->rng) % (uint64_t)total);
    for (int k = 0; k < total; k++) {
        int i = start + k < total ? start + k : start + k - total;
        int by_col = i >= s->nrows, x = by_col ? s->cols[i - s->nrows] : s->rows[i];
        int count = by_col ? s->ccnt[x] : s->rcnt[x];
        if (best < 0 || count < best) {
            best = count; f->line = x; f->by_col = by_col;
            if (count <= 1) break;
        }
    }
}

/* The safe cells of the frame's line, each keyed by its damage with random low bits to break
 * ties. Damage is the number of safe cells left on the cell's two diagonals: the options a
 * queen there takes from other rows and columns. (Counting its column's or row's cells too
 * made loose boards thrash: 10^5 dead ends on n = 1000, k = 100 instead of 300, measured.)
 * Returns 0 when out of memory. */
static int collect(State *s, Frame *f) {
    const int n = s->n;
    const int *other = f->by_col ? s->rows : s->cols;  /* the line's cells: one per free row (column) */
    int size = f->by_col ? s->nrows : s->ncols, count = 0;
    if ((size_t)f->first + (size_t)size > s->cand_size) {
        size_t want = 2 * ((size_t)f->first + (size_t)size);
        uint64_t *grown = realloc(s->cand, want * sizeof(uint64_t));
        if (!grown) return 0;
        s->cand = grown; s->cand_size = want;
    }
    uint64_t *out = s->cand + f->first;
    for (int i = 0; i < size; i++) {
        int x = other[i], r = f->by_col ? x : f->line, c = f->by_col ? f->line : x;
        int d = r - c + n - 1, a = r + c;
        if (s->diag_used[d] || s->anti_used[a]) continue;
        uint64_t damage = (uint64_t)(s->dcnt[d] + s->acnt[a]);
        out[count++] = damage << 40 | (next_random(&s->rng) >> 44) << 20 | (uint64_t)x;
    }
    f->count = count;
    f->next = 0;
    f->r = -1;
    return 1;
}

/* Minimum damage: move the least-damaging untried candidate to position `next` and return its
 * coordinate. A selection step rather than a sort, because usually only the first is tried. */
static int take_next(State *s, Frame *f) {
    uint64_t *cand = s->cand + f->first;
    assert(f->next < f->count);
    int best = f->next;
    for (int i = f->next + 1; i < f->count; i++)
        if (cand[i] < cand[best]) best = i;
    uint64_t chosen = cand[best];
    cand[best] = cand[f->next];
    cand[f->next++] = chosen;
    return (int)(chosen & 0xFFFFF);
}

static void unwind(State *s, int depth) {
    for (int d = depth; d >= 0; d--)
        if (s->frames[d].r >= 0) { unplace(s, s->frames[d].r, s->frames[d].c); s->frames[d].r = -1; }
}

/* One depth-first run: SOLVED, NO_SOLUTION (its tree is exhausted: a proof), RESTART (more
 * than `budget` dead ends), OUT_OF_TIME or OUT_OF_MEMORY. The board is clean after all but
 * SOLVED, which leaves the completion in col_of. */
static int run(State *s, unsigned long long budget, double deadline) {
    unsigned long long fails = 0;
    int depth = 0;
    if (s->nrows == 0) return SOLVED;
    s->frames[0].first = 0;
    choose_line(s, &s->frames[0]);
    if (!collect(s, &s->frames[0])) return OUT_OF_MEMORY;
    while (1) {
        Frame *f = &s->frames[depth];
        if (f->r >= 0) { unplace(s, f->r, f->c); f->r = -1; }
        if (f->next == f->count) {            /* every cell of this line failed: backtrack */
            if (depth == 0) return NO_SOLUTION;
            depth--;
            continue;
        }
        int x = take_next(s, f);
        s->nodes++;
        if (s->nodes % CLOCK_EVERY == 0
            && ((deadline > 0 && now_seconds() > deadline) || poll_interrupted(s->poll))) {
            unwind(s, depth);
            return OUT_OF_TIME;
        }
        f->r = f->by_col ? x : f->line;
        f->c = f->by_col ? f->line : x;
        if (!place(s, f->r, f->c)) {          /* a free row or column lost its last safe cell */
            s->fails++;
            if (++fails > budget) { unwind(s, depth); return RESTART; }
            continue;
        }
        if (s->nrows == 0) {
            assert(is_solution(s));
            return SOLVED;
        }
        Frame *child = &s->frames[++depth];
        child->first = f->first + f->count;
        choose_line(s, child);
        if (!collect(s, child)) { unwind(s, depth); return OUT_OF_MEMORY; }
    }
}

/* Runs with growing budgets until one of them ends; each is complete, so the loop is too.
 * With `dead_ends` > 0 it gives up (UNDECIDED) after that many dead ends in all, so that the
 * caller can interleave another method and come back with a larger allowance. */
static int search(State *s, double deadline, unsigned long long dead_ends) {
    unsigned long long budget = FIRST_BUDGET;
    while (1) {
        unsigned long long left = dead_ends ? dead_ends - s->fails : budget;
        int outcome = run(s, budget < left ? budget : left, deadline);
        if (outcome != RESTART) return outcome;
        if (dead_ends && s->fails >= dead_ends) return UNDECIDED;
        s->restarts++;
        budget += budget / 2;
    }
}

/* Count the safe cells of every line: O(m^2) over the free rows and columns. Returns 0 when
 * the deadline passes first. The clock is read after every CLOCK_CELLS cells rather than
 * every so many rows: a row of a million cells takes milliseconds, and 64 of them overran a
 * 10 ms limit 65-fold (found by the fuzzer, fuzz/fuzz_completion.c). */
#define CLOCK_CELLS (1 << 16)
static int count_safe_cells(State *s, double deadline) {
    const int n = s->n;
    long long cells = 0;
    for (int i = 0; i < s->nrows; i++) {
        int y = s->rows[i];
        cells += s->ncols;
        if (cells >= CLOCK_CELLS) {
            cells = 0;
            if ((deadline > 0 && now_seconds() > deadline) || poll_interrupted(s->poll)) return 0;
        }
        for (int j = 0; j < s->ncols; j++) {
            int x = s->cols[j], d = y - x + n - 1, a = y + x;
            if (s->diag_used[d] || s->anti_used[a]) continue;
            s->rcnt[y]++; s->ccnt[x]++; s->dcnt[d]++; s->acnt[a]++;
        }
    }
    return 1;
}

static void free_state(State *s) {
    free(s->col_of); free(s->row_used); free(s->col_used); free(s->diag_used); free(s->anti_used);
    free(s->rcnt); free(s->ccnt); free(s->dcnt); free(s->acnt);
    free(s->rows); free(s->rpos); free(s->cols); free(s->cpos);
    free(s->frames); free(s->cand);
}

/* ---- Python interface ---------------------------------------------------------------------- */

static const char *LINE_NAMES[4] = {"a row", "a column", "a diagonal", "an anti-diagonal"};

/* Allocate the board and place the given queens, refusing queens off the board or attacking
 * each other with a ValueError that names them. */
static int load(State *s, int n, const int64_t *qr, const int64_t *qc, Py_ssize_t k) {
    size_t N = (size_t)n, D = 2 * N - 1;
    s->n = n;
    s->col_of = malloc(N * sizeof(int));
    s->row_used = calloc(N, 1); s->col_used = calloc(N, 1);
    s->diag_used = calloc(D, 1); s->anti_used = calloc(D, 1);
    s->rcnt = calloc(N, sizeof(int)); s->ccnt = calloc(N, sizeof(int));
    s->dcnt = calloc(D, sizeof(int)); s->acnt = calloc(D, sizeof(int));
    s->rows = malloc(N * sizeof(int)); s->rpos = malloc(N * sizeof(int));
    s->cols = malloc(N * sizeof(int)); s->cpos = malloc(N * sizeof(int));
    s->frames = malloc((N + 1) * sizeof(Frame));
    int *owner[4] = {malloc(N * sizeof(int)), malloc(N * sizeof(int)),
                     malloc(D * sizeof(int)), malloc(D * sizeof(int))};
    int ok = s->col_of && s->row_used && s->col_used && s->diag_used && s->anti_used && s->rcnt
             && s->ccnt && s->dcnt && s->acnt && s->rows && s->rpos && s->cols && s->cpos
             && s->frames && owner[0] && owner[1] && owner[2] && owner[3];
    if (!ok) PyErr_NoMemory();
    for (int t = 0; ok && t < 4; t++) memset(owner[t], 0xff, (t < 2 ? N : D) * sizeof(int));
    for (Py_ssize_t i = 0; ok && i < k; i++) {
        int64_t r = qr[i], c = qc[i];
        if (r < 0 || r >= n || c < 0 || c >= n) {
            PyErr_Format(PyExc_ValueError, "queen (%lld, %lld) is off the %dx%d board",
                         (long long)r, (long long)c, n, n);
            ok = 0; break;
        }
        int64_t key[4] = {r, c, r - c + n - 1, r + c};
        for (int t = 0; t < 4; t++) {
            int j = owner[t][key[t]];
            if (j >= 0) {
                PyErr_Format(PyExc_ValueError, "queens (%lld, %lld) and (%lld, %lld) share %s",
                             (long long)qr[j], (long long)qc[j], (long long)r, (long long)c, LINE_NAMES[t]);
                ok = 0; break;
            }
            owner[t][key[t]] = (int)i;
        }
        if (!ok) break;
        s->col_of[r] = (int)c;
        s->row_used[r] = s->col_used[c] = s->diag_used[key[2]] = s->anti_used[key[3]] = 1;
    }
    for (int t = 0; t < 4; t++) free(owner[t]);
    if (!ok) return 0;
    s->nrows = s->ncols = 0;
    for (int x = 0; x < n; x++) {
        if (!s->row_used[x]) { s->col_of[x] = -1; s->rpos[x] = s->nrows; s->rows[s->nrows++] = x; }
        if (!s->col_used[x]) { s->cpos[x] = s->ncols; s->cols[s->ncols++] = x; }
    }
    s->m = s->nrows;
    return 1;
}

static int read_coordinates(Py_buffer *view, const char *what, Py_ssize_t *k) {
    if (view->len % (Py_ssize_t)sizeof(int64_t)) {
        PyErr_Format(PyExc_ValueError, "%s must be packed 64-bit integers", what);
        return 0;
    }
    *k = view->len / (Py_ssize_t)sizeof(int64_t);
    return 1;
}

static PyObject *complete(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "rows", "cols", "seed", "seconds", "dead_ends", NULL};
    int n;
    Py_buffer rows_view, cols_view;
    unsigned long long seed = 0, dead_ends = 0;
    double seconds = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*y*|KdK", names, &n, &rows_view, &cols_view,
                                     &seed, &seconds, &dead_ends))
        return NULL;
    PyObject *result = NULL;
    State s;
    memset(&s, 0, sizeof s);
    Py_ssize_t k = 0, kc = 0;
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 1..%d, got %d", MAX_N, n);
        goto done;
    }
    if (!read_coordinates(&rows_view, "rows", &k) || !read_coordinates(&cols_view, "cols", &kc)) goto done;
    if (k != kc) {
        PyErr_Format(PyExc_ValueError, "%zd rows but %zd columns", k, kc);
        goto done;
    }
    if (k > n) {
        PyErr_Format(PyExc_ValueError, "%zd queens do not fit on a %dx%d board", k, n, n);
        goto done;
    }
    if (!load(&s, n, rows_view.buf, cols_view.buf, k)) goto done;
    s.rng = seeded(seed);
    int outcome;
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    Poll poll;
    s.poll = &poll;
    poll_begin(&poll);
    outcome = count_safe_cells(&s, deadline) ? search(&s, deadline, dead_ends) : OUT_OF_TIME;
    if (poll_end(&poll) < 0) goto done;   /* interrupted: the KeyboardInterrupt is set */
    if (outcome == OUT_OF_MEMORY) { PyErr_NoMemory(); goto done; }
    PyObject *columns;
    if (outcome == SOLVED) {
        columns = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t));
        if (!columns) goto done;
        int32_t *out = (int32_t *)PyBytes_AS_STRING(columns);
        for (int r = 0; r < n; r++) out[r] = s.col_of[r];
    } else {
        columns = Py_NewRef(Py_None);
    }
    result = Py_BuildValue("(iN{s:i,s:K,s:K,s:K})", outcome, columns, "free rows", s.m,
                           "nodes", s.nodes, "dead ends", s.fails, "restarts", s.restarts);
done:
    free_state(&s);
    PyBuffer_Release(&rows_view);
    PyBuffer_Release(&cols_view);
    return result;
}

static PyMethodDef methods[] = {
    {"complete", (PyCFunction)(void (*)(void))complete, METH_VARARGS | METH_KEYWORDS,
     "complete(n, rows, cols, seed=0, seconds=-1, dead_ends=0) -> (outcome, columns, stats)\n\n"
     "rows, cols: the pre-placed queens as packed int64. outcome: 1 solved (columns holds the\n"
     "column of every row as packed int32), 0 proved unsolvable, -1 out of time, 3 undecided\n"
     "after `dead_ends` dead ends (0: no limit)."},
    {NULL}
};

static struct PyModuleDef completion_module = {
    PyModuleDef_HEAD_INIT, "_completion", "Exact n-queens completion (see completion.c).", -1, methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__completion(void) {
    PyObject *m = PyModule_Create(&completion_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 || PyModule_AddIntConstant(m, "SOLVED", SOLVED) < 0
        || PyModule_AddIntConstant(m, "NO_SOLUTION", NO_SOLUTION) < 0
        || PyModule_AddIntConstant(m, "OUT_OF_TIME", OUT_OF_TIME) < 0
        || PyModule_AddIntConstant(m, "UNDECIDED", UNDECIDED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
