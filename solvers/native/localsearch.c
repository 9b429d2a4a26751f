/* A random n-queens solution by conflict-minimising local search, for boards of millions.
 *
 * The board is a permutation (perm[r] = the column of row r), so rows and columns never
 * clash and only diagonals can. Sosic & Gu's QS4 (1991), in two phases:
 *   1. place the rows in order, each on a random column still unused (a swap in the
 *      permutation), retrying up to PLACE_TRIES times for one whose two diagonals are empty;
 *      most rows find one, so only the last few thousand of 10^7 are left in conflict;
 *   2. repair: for a queen still under attack, swap its column with a random row's when that
 *      lowers the number of conflicts (min-conflicts, Minton et al. 1992), until none is left.
 * Pre-placed queens (a completion) are pinned: they count on their diagonals and are never
 * moved; only the free rows trade their columns. Phase 2 has a step budget, because a
 * tightly constrained completion may have no solution at all (the exact search decides).
 *
 * Memory is what makes 10^7 fast. A diagonal is either empty, holds one queen, or is crowded:
 * one bit per diagonal says "occupied" (2 x 2n bits: 5 MB for n = 10^7, so it stays in the
 * cache), and the few crowded diagonals keep their extra queens in a small hash table. With
 * the caller's int32 column array that is 45 MB for n = 10^7. The random column each step
 * reads is still a cache miss, so the random draws are made early and their memory prefetched.
 * Line ids: diagonal of (r, c) is r - c + n - 1, anti-diagonal (2n - 1) + r + c. No GIL.
 *
 * The asserts state the bookkeeping's invariants (a line id is on the board, the conflicts
 * never go below 0, a swap that does not help leaves them as they were, the table of crowded
 * lines keeps room, "solved" is a permutation with no diagonal shared); they run in the
 * sanitiser builds (make test-asan, make fuzz) and are compiled out of the normal one (setup.py
 * passes -DNDEBUG).
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

#define MAX_N 1000000000             /* 4n line ids must fit an int64 and a column an int32 */
#define AHEAD 8                      /* random draws made this early, to prefetch their memory */
#define PLACE_TRIES 32               /* phase 1: random columns tried per row before giving up */
#define REPAIR_TRIES 64              /* phase 2: partners tried per attacked queen per step */
#define STALL 1024                   /* phase 2: steps in a row without a swap before giving up */
#define CLOCK_EVERY 4096
#define EMPTY (-1)

enum { SOLVED = 1, UNSOLVED = 0, OUT_OF_TIME = -1, OUT_OF_MEMORY = -2 };

typedef struct {           /* crowded lines: queens beyond the first, by line id (linear probing) */
    int64_t *ids;
    int32_t *more;
    int64_t mask, size;
    int shift;             /* 64 - log2(capacity), for multiplicative hashing */
} Crowded;

typedef struct {
    int64_t n, m;          /* board side; number of movable rows */
    int32_t *perm;         /* column of every row (the caller's buffer) */
    int32_t *movable;      /* the movable rows, or NULL when all are (no pinned queens) */
    uint64_t *occupied;    /* one bit per line id */
    Crowded crowded;
    int64_t conflicts;     /* queens beyond the first, summed over all lines */
    uint64_t rng;
    unsigned long long steps, swaps;
    Poll *poll;            /* Ctrl-C: looked at with the clock (interrupt.h) */
} Board;

static uint32_t draw32(uint64_t *state) {  /* the generator's high half: its best bits */
    return (uint32_t)(next_random(state) >> 32);
}

static int64_t scaled(uint32_t draw, int64_t bound) {  /* a 32-bit draw onto [0, bound) */
    assert(bound > 0);
    return (int64_t)(((uint64_t)draw * (uint64_t)bound) >> 32);
}


static inline int64_t row_at(const Board *b, int64_t i) { return b->movable ? b->movable[i] : i; }
static inline int64_t diag_id(const Board *b, int64_t r, int64_t c) { return r - c + b->n - 1; }
static inline int64_t anti_id(const Board *b, int64_t r, int64_t c) { return 2 * b->n - 1 + r + c; }
static inline int occupied(const Board *b, int64_t id) {
    assert(id >= 0 && id < 4 * b->n);
    return b->occupied[id >> 6] >> (id & 63) & 1;
}

/* ---- crowded lines ------------------------------------------------------------------------ */

static int64_t home(const Crowded *h, int64_t id) {
    return (int64_t)(((uint64_t)id * 0x9E3779B97F4A7C15ULL) >> h->shift);
}

static int64_t find(const Crowded *h, int64_t id) {  /* the slot holding id, or the empty one */
    int64_t i = home(h, id);
    while (h->ids[i] != EMPTY && h->ids[i] != id) i = (i + 1) & h->mask;
    return i;
}

static int crowded_init(Crowded *h, int bits) {
    int64_t cap = (int64_t)1 << bits;
    h->ids = malloc((size_t)cap * sizeof(int64_t));
    h->more = malloc((size_t)cap * sizeof(int32_t));
    if (!h->ids || !h->more) { free(h->ids); free(h->more); return 0; }
    memset(h->ids, 0xff, (size_t)cap * sizeof(int64_t));
    h->mask = cap - 1; h->size = 0; h->shift = 64 - bits;
    return 1;
}

/* Keep the table at most half full with room for `extra` more entries (grows by rehashing),
 * so that no insertion can fail in the middle of a move. */
static int reserve(Crowded *h, int64_t extra) {
    if (2 * (h->size + extra) <= h->mask + 1) return 1;
    Crowded bigger;
    if (!crowded_init(&bigger, 64 - h->shift + 1)) return 0;
    for (int64_t i = 0; i <= h->mask; i++)
        if (h->ids[i] != EMPTY) {
            int64_t j = find(&bigger, h->ids[i]);
            bigger.ids[j] = h->ids[i]; bigger.more[j] = h->more[i]; bigger.size++;
        }
    free(h->ids); free(h->more);
    *h = bigger;
    return reserve(h, extra);
}

/* Remove slot i, shifting later entries of its probe run back (no tombstones). */
static void remove_slot(Crowded *h, int64_t i) {
    for (int64_t j = (i + 1) & h->mask; h->ids[j] != EMPTY; j = (j + 1) & h->mask) {
        int64_t k = home(h, h->ids[j]);
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);  /* k in (i, j] cyclically */
        if (stays) continue;
        h->ids[i] = h->ids[j]; h->more[i] = h->more[j];
        i = j;
    }
    h->ids[i] = EMPTY;
    h->size--;
}

/* ---- the board ---------------------------------------------------------------------------- */

static int queens_on(const Board *b, int64_t id) {
    if (!occupied(b, id)) return 0;
    int64_t i = find(&b->crowded, id);
    return b->crowded.ids[i] == id ? 1 + b->crowded.more[i] : 1;
}

static void put(Board *b, int64_t id) {  /* the caller reserved room in the table */
    if (!occupied(b, id)) { b->occupied[id >> 6] |= 1ULL << (id & 63); return; }
    Crowded *h = &b->crowded;
    int64_t i = find(h, id);
    if (h->ids[i] == id) h->more[i]++;
    else { h->ids[i] = id; h->more[i] = 1; h->size++; }
    assert(2 * h->size <= h->mask + 1);   /* reserve() kept room: the probe runs stay short */
    b->conflicts++;
}

static void lift(Board *b, int64_t id) {
    Crowded *h = &b->crowded;
    int64_t i = find(h, id);
    if (h->ids[i] != id) { b->occupied[id >> 6] &= ~(1ULL << (id & 63)); return; }
    if (--h->more[i] == 0) remove_slot(h, i);
    b->conflicts--;
    assert(b->conflicts >= 0);
}

static void add(Board *b, int64_t r, int64_t c) { put(b, diag_id(b, r, c)); put(b, anti_id(b, r, c)); }
static void take(Board *b, int64_t r, int64_t c) { lift(b, diag_id(b, r, c)); lift(b, anti_id(b, r, c)); }

static int attacked(const Board *b, int64_t r) {
    int64_t c = b->perm[r];
    return queens_on(b, diag_id(b, r, c)) > 1 || queens_on(b, anti_id(b, r, c)) > 1;
}

/* The rows under attack, to pick from: a queen leaves the list once it is found at peace. */
typedef struct { int64_t *rows, size, cap; } Hot;

static int push(Hot *hot, int64_t r) {
    if (hot->size == hot->cap) {
        int64_t cap = hot->cap ? hot->cap * 2 : 1024;
        int64_t *grown = realloc(hot->rows, (size_t)cap * sizeof(int64_t));
        if (!grown) return 0;
        hot->rows = grown; hot->cap = cap;
    }
    hot->rows[hot->size++] = r;
    return 1;
}

/* ---- phase 1 ------------------------------------------------------------------------------ */

/* Position i's draw picks the row whose column is taken: one of positions i..m-1. A draw's
 * slot moves by at most one position per row placed before it is used, so prefetching with
 * the current i warms the right cache line or its neighbour. */
static int64_t slot_for(const Board *b, int64_t i, uint32_t draw) { return row_at(b, i + scaled(draw, b->m - i)); }

/* Rows left under attack go to `hot`: each crowded line then has one of its queens listed.
 * The draws live in a local ring (and the generator state in a local), which tells the
 * compiler that the board's stores cannot change them. */
static int place_rows(Board *b, Hot *hot) {
    uint64_t rng = b->rng;
    uint32_t ahead[AHEAD];
    for (int q = 0; q < AHEAD; q++) ahead[q] = draw32(&rng);
    unsigned t = 0;
    for (int64_t i = 0; i < b->m; i++) {
        int64_t r = row_at(b, i), s = r;
        int peaceful = 0;
        if ((i & 0xFFFF) == 0 && poll_interrupted(b->poll)) return 0;  /* 10^8 rows take seconds */
        for (int tries = 0; tries < PLACE_TRIES && !peaceful; tries++, t++) {
            uint32_t now = ahead[t % AHEAD];
            ahead[t % AHEAD] = draw32(&rng);
            __builtin_prefetch(&b->perm[slot_for(b, i, ahead[t % AHEAD])]);
            s = slot_for(b, i, now);
            int64_t c = b->perm[s];
            peaceful = !occupied(b, diag_id(b, r, c)) && !occupied(b, anti_id(b, r, c));
        }
        int32_t c = b->perm[s];
        b->perm[s] = b->perm[r];
        b->perm[r] = c;
        if (!reserve(&b->crowded, 2) || (!peaceful && !push(hot, r))) return 0;
        add(b, r, c);
    }
    b->rng = rng;
    return 1;
}

/* ---- phase 2 ------------------------------------------------------------------------------ */

/* Swap the columns of rows r and s if that lowers the conflicts; returns whether it did.
 * The move is made and undone if it does not help, which handles every way the four old and
 * four new lines can coincide without a case analysis. */
static int try_swap(Board *b, int64_t r, int64_t s) {
    int64_t cr = b->perm[r], cs = b->perm[s], before = b->conflicts;
    take(b, r, cr); take(b, s, cs);
    add(b, r, cs); add(b, s, cr);
    if (b->conflicts < before) {
        b->perm[r] = (int32_t)cs; b->perm[s] = (int32_t)cr;
        return 1;
    }
    take(b, r, cs); take(b, s, cr);
    add(b, r, cr); add(b, s, cs);
    assert(b->conflicts == before);      /* undone exactly */
    return 0;
}

/* Every attacked movable row: the fallback when the list runs dry while conflicts remain (a
 * swap can leave two bystanders on a diagonal that neither of them was listed for; rare). */
static int rescan(Board *b, Hot *hot) {
    hot->size = 0;
    for (int64_t i = 0; i < b->m; i++)
        if (attacked(b, row_at(b, i)) && !push(hot, row_at(b, i))) return 0;
    return 1;
}

/* Phase 2: pick an attacked queen, swap with the first of REPAIR_TRIES random rows that
 * lowers the conflicts; until none is left, `max_steps` steps (0: no limit), STALL steps in a
 * row without a swap (a local minimum: the caller restarts with another seed), or the deadline. */
static int repair(Board *b, Hot *hot, unsigned long long max_steps, double deadline) {
    int outcome = SOLVED;
    unsigned long long last_swap = 0;
    uint32_t ahead[AHEAD];
    unsigned t = 0;
    for (int q = 0; q < AHEAD; q++) ahead[q] = draw32(&b->rng);
    if (!reserve(&b->crowded, 8)) return OUT_OF_MEMORY;
    while (b->conflicts > 0) {
        if (b->m < 2 || (max_steps && b->steps >= max_steps) || b->steps - last_swap > STALL) {
            outcome = UNSOLVED; break;
        }
        if (++b->steps % CLOCK_EVERY == 0
            && ((deadline > 0 && now_seconds() > deadline) || poll_interrupted(b->poll))) {
            outcome = OUT_OF_TIME; break;
        }
        if (hot->size == 0) {
            if (!rescan(b, hot)) { outcome = OUT_OF_MEMORY; break; }
            if (hot->size == 0) { outcome = UNSOLVED; break; }  /* only pinned queens clash */
        }
        int64_t h = scaled(draw32(&b->rng), hot->size), r = hot->rows[h];
        if (!attacked(b, r)) { hot->rows[h] = hot->rows[--hot->size]; continue; }
        for (int tries = 0; tries < REPAIR_TRIES; tries++, t++) {
            uint32_t now = ahead[t % AHEAD];
            ahead[t % AHEAD] = draw32(&b->rng);
            __builtin_prefetch(&b->perm[row_at(b, scaled(ahead[t % AHEAD], b->m))]);
            int64_t s = row_at(b, scaled(now, b->m));
            if (s == r || !try_swap(b, r, s)) continue;
            b->swaps++;
            last_swap = b->steps;
            if (!reserve(&b->crowded, 8) || (attacked(b, s) && !push(hot, s))) outcome = OUT_OF_MEMORY;
            break;
        }
        if (outcome == OUT_OF_MEMORY) break;
    }
    return outcome;
}

/* ---- Python interface ---------------------------------------------------------------------- */

/* Pin the given queens (refusing any off the board or attacking another) and deal the free
 * columns to the free rows in order. Returns 0 with a Python error set on failure. */
static int load(Board *b, const int64_t *qr, const int64_t *qc, int64_t k) {
    const int64_t n = b->n;
    b->occupied = calloc((size_t)((4 * n + 63) / 64), sizeof(uint64_t));
    if (!b->occupied || !crowded_init(&b->crowded, 10)) { PyErr_NoMemory(); return 0; }
    if (k == 0) {
        for (int64_t r = 0; r < n; r++) b->perm[r] = (int32_t)r;
        b->m = n;
        return 1;
    }
    uint8_t *row_used = calloc((size_t)n, 1), *col_used = calloc((size_t)n, 1);
    b->movable = malloc((size_t)(n - k > 0 ? n - k : 1) * sizeof(int32_t));
    int ok = row_used && col_used && b->movable;
    if (!ok) PyErr_NoMemory();
    for (int64_t i = 0; ok && i < k; i++) {
        int64_t r = qr[i], c = qc[i];
        if (r < 0 || r >= n || c < 0 || c >= n) {
            PyErr_Format(PyExc_ValueError, "queen (%lld, %lld) is off the %lldx%lld board",
                         (long long)r, (long long)c, (long long)n, (long long)n);
            ok = 0; break;
        }
        const char *clash = row_used[r] ? "a row" : col_used[c] ? "a column"
                            : occupied(b, diag_id(b, r, c)) ? "a diagonal"
                            : occupied(b, anti_id(b, r, c)) ? "an anti-diagonal" : NULL;
        if (clash) {
            PyErr_Format(PyExc_ValueError, "queen (%lld, %lld) shares %s with another",
                         (long long)r, (long long)c, clash);
            ok = 0; break;
        }
        row_used[r] = col_used[c] = 1;
        add(b, r, c);
        b->perm[r] = (int32_t)c;
    }
    if (ok) {
        int64_t free_col = 0;
        for (int64_t r = 0; r < n; r++) {
            if (row_used[r]) continue;
            while (col_used[free_col]) free_col++;
            b->perm[r] = (int32_t)free_col++;
            b->movable[b->m++] = (int32_t)r;
        }
    }
    free(row_used); free(col_used);
    return ok;
}

#ifndef NDEBUG
/* Whether perm is a solution, by the board's own rule (every column once, no diagonal
 * shared), independent of the bits and the table the search keeps. */
static int is_solution(const Board *b) {
    unsigned char *seen = calloc(5 * (size_t)b->n, 1);   /* columns, diagonals, anti-diagonals */
    if (!seen) return 1;                                  /* no memory to check: nothing said */
    int ok = 1;
    for (int64_t r = 0; ok && r < b->n; r++) {
        int64_t c = b->perm[r], d = b->n + diag_id(b, r, c), a = b->n + anti_id(b, r, c);
        if (c < 0 || c >= b->n || seen[c] || seen[d] || seen[a]) ok = 0;
        else seen[c] = seen[d] = seen[a] = 1;
    }
    free(seen);
    return ok;
}
#endif

static PyObject *search(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "columns", "rows", "cols", "seed", "seconds", "max_steps", NULL};
    long long n;
    Py_buffer out = {0}, rows = {0}, cols = {0};
    unsigned long long seed = 0, max_steps = 0;
    double seconds = -1;
    const char *empty = "";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Lw*|y*y*KdK", names, &n, &out, &rows, &cols,
                                     &seed, &seconds, &max_steps))
        return NULL;
    PyObject *result = NULL;
    Board b;
    memset(&b, 0, sizeof b);
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 1..%d, got %lld", MAX_N, n);
        goto done;
    }
    if (out.len != (Py_ssize_t)(n * (long long)sizeof(int32_t))) {
        PyErr_Format(PyExc_ValueError, "columns must hold %lld int32 values", n);
        goto done;
    }
    if (rows.len % 8 || cols.len % 8 || rows.len != cols.len) {
        PyErr_SetString(PyExc_ValueError, "rows and cols must be packed int64 of equal length");
        goto done;
    }
    int64_t k = rows.len / 8;
    if (k > n) {
        PyErr_Format(PyExc_ValueError, "%lld queens do not fit on a %lldx%lld board", (long long)k, n, n);
        goto done;
    }
    b.n = n;
    b.perm = out.buf;
    if (!load(&b, k ? rows.buf : (const void *)empty, k ? cols.buf : (const void *)empty, k)) goto done;
    b.rng = seeded(seed);
    int outcome;
    double deadline = seconds > 0 ? now_seconds() + seconds : -1;
    Poll poll;
    b.poll = &poll;
    poll_begin(&poll);
    Hot hot = {NULL, 0, 0};
    outcome = place_rows(&b, &hot) ? repair(&b, &hot, max_steps, deadline) : OUT_OF_MEMORY;
    assert(outcome != SOLVED || is_solution(&b));
    free(hot.rows);
    if (poll_end(&poll) < 0) goto done;   /* interrupted: the KeyboardInterrupt is set */
    if (outcome == OUT_OF_MEMORY) { PyErr_NoMemory(); goto done; }
    result = Py_BuildValue("(i{s:L,s:K,s:K})", outcome, "free rows", (long long)b.m,
                           "repair steps", b.steps, "swaps", b.swaps);
done:
    free(b.occupied); free(b.crowded.ids); free(b.crowded.more); free(b.movable);
    if (out.obj) PyBuffer_Release(&out);
    if (rows.obj) PyBuffer_Release(&rows);
    if (cols.obj) PyBuffer_Release(&cols);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(n, columns, rows=b'', cols=b'', seed=0, seconds=-1, max_steps=0) -> (outcome, stats)\n\n"
     "Fills `columns` (a writable buffer of n int32) with the column of every row. rows, cols:\n"
     "pinned queens as packed int64. outcome: 1 solved, 0 not within max_steps, -1 out of time."},
    {NULL}
};

static struct PyModuleDef localsearch_module = {
    PyModuleDef_HEAD_INIT, "_localsearch", "QS4 local search for n-queens (see localsearch.c).", -1,
    methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__localsearch(void) {
    PyObject *m = PyModule_Create(&localsearch_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 || PyModule_AddIntConstant(m, "SOLVED", SOLVED) < 0
        || PyModule_AddIntConstant(m, "UNSOLVED", UNSOLVED) < 0
        || PyModule_AddIntConstant(m, "OUT_OF_TIME", OUT_OF_TIME) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
