/* The fast n-queens counter: every solution of the plain n x n board, grouped by symmetry.
 *
 * Why it is fast: it visits (about) one solution of each symmetry class instead of all eight,
 * the scheme of Takaken's 2003 counter, and it runs 16 searches at once in AVX-512 lanes.
 *
 * Which solution of a class is counted. Order boards by their rows' columns, lexicographically;
 * each class is counted once, at its smallest board S. Row 0 of S holds the queen closest to a
 * corner, so either
 *   - the corner branch: a queen at (0, 0). Such a class never has rotational symmetry (a turn
 *     would need a queen in a second corner, which (0, 0) attacks), so it has 8 boards, two of
 *     them with a queen at (0, 0): S and its transpose. S is the one whose row-1 queen (column
 *     b1) is left of its column-1 queen, i.e. rows < b1 keep out of column 1;
 *   - the branch b1 = the column of row 0 (1 <= b1 < n-1-b1 = b2): no queen on the border is
 *     nearer a corner than b1. So rows < b1 keep out of columns 0 and n-1, both side columns
 *     are taken by the end of row b2, and the last row's queen is in columns b1..b2. A
 *     reflection of such a board starts further from the corner, so is larger; a rotation may
 *     tie, and at the leaf `classify` compares S with its three rotations: if one is smaller S
 *     is not counted, if a quarter (half) turn gives S back its class has 2 (4) boards, else 8.
 * Hence total = 2*C2 + 4*C4 + 8*C8 and fundamental = C2 + C4 + C8 (n >= 2).
 *
 * Board: row y, column c is bit c. A search state is the columns taken (c) and the two
 * diagonal masks (l moves one column up per row, r one column down); a row may use
 * `allowed(row) & ~(c | l | r)`.
 *
 * The work is split into subproblems: the rows 0..depth-1 placed (a prefix, in lexicographic
 * order; its columns are its key in the ledger). Each subproblem's counts are reported
 * separately, so a caller can store them as they finish. Internally a subproblem is cut into
 * smaller tasks (a few rows deeper) so that the 16 lanes stay busy.
 *
 * Two interchangeable searches count a task: `scalar_task` (an iterative depth-first search
 * with an explicit stack, any CPU) and `run_vector` (AVX-512 lanes, used when the CPU has them).
 * The tests compare both with each other, with the simple kernel (kernel.c) and with the
 * plain-Python twin of this scheme in tests/plain_reference.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_N 30                /* the lanes keep two carry bits above the board in 32 bits */
#define VERSION 1               /* bump when the subproblems or their counts change meaning */
#define MAX_SUBPROBLEMS 10000000
#define MAX_SPLIT 8             /* deeper splits: too many subproblems, and slow to list */

typedef unsigned long long u64;
typedef struct { u64 c2, c4, c8, nodes; } Classes;   /* nodes: queens placed on the way */

/* A prefix: the columns of rows 0..depth-1. */
typedef struct { int depth; uint8_t col[MAX_N]; } Prefix;

/* What a prefix's first rows imply for the rest of the search (see the header). */
typedef struct {
    int n, b1, b2;              /* b2 = -1 in the corner branch: no row-b2 rule there */
    uint32_t mask, excl, last;  /* board; columns rows < b1 avoid; columns the last row avoids */
    uint32_t need[4];           /* row b2, by which side columns are taken: columns it may use */
} Branch;

static void branch_of(const Prefix *p, int n, Branch *b) {
    b->n = n;
    b->mask = (1u << n) - 1;
    b->last = 0;
    if (p->col[0] == 0) {       /* corner branch */
        b->b1 = p->col[1];
        b->b2 = -1;
        b->excl = 2;
    } else {
        b->b1 = p->col[0];
        b->b2 = n - 1 - b->b1;
        b->excl = 1u | 1u << (n - 1);
        for (int i = 0; i < b->b1; i++) b->last |= 1u << i | 1u << (n - 1 - i);
    }
    /* index: bit 0 = column 0 taken, bit 1 = column n-1 taken */
    b->need[0] = 0;             /* neither side taken: row b2 cannot take both, dead end */
    b->need[1] = 1u << (n - 1);
    b->need[2] = 1u;
    b->need[3] = b->mask;
}

static inline int sides(uint32_t cols, int n) { return (cols & 1) | (cols >> (n - 1) & 1) << 1; }

/* Columns row y may use by the branch's rules, given the columns taken by rows < y. */
static inline uint32_t allowed(const Branch *b, int y, uint32_t cols) {
    uint32_t a = b->mask;
    if (y < b->b1) a &= ~b->excl;
    if (y == b->b2) a &= b->need[sides(cols, b->n)];
    if (y == b->n - 1) a &= ~b->last;
    return a;
}

static int compare_rows(const int *image, const int *q, int n) {
    for (int r = 0; r < n; r++)
        if (image[r] != q[r]) return image[r] < q[r] ? -1 : 1;
    return 0;
}

/* A branch-b1 leaf q (q[r] = column of row r): 0 if a rotation of it is smaller (it is not its
 * class's representative), else the size of its class: 2, 4 or 8. */
static int classify(const int *q, int n) {
    int inverse[MAX_N], image[MAX_N];
    for (int r = 0; r < n; r++) inverse[q[r]] = r;
    for (int r = 0; r < n; r++) image[r] = n - 1 - inverse[r];        /* quarter turn */
    int order = compare_rows(image, q, n);
    if (order <= 0) return order < 0 ? 0 : 2;
    for (int r = 0; r < n; r++) image[r] = n - 1 - q[n - 1 - r];      /* half turn */
    order = compare_rows(image, q, n);
    if (order <= 0) return order < 0 ? 0 : 4;
    for (int r = 0; r < n; r++) image[r] = inverse[n - 1 - r];        /* three quarters */
    return compare_rows(image, q, n) < 0 ? 0 : 8;
}

static inline void tally(Classes *k, int size) {
    k->c2 += size == 2;
    k->c4 += size == 4;
    k->c8 += size == 8;
}

/* A branch-b1 leaf can tie with a rotation only if that rotation brings a border queen at
 * distance b1 from a corner into row 0: row b2 at column 0 (quarter turn), the last row at
 * column b2 (half turn) or row b1 at column n-1 (three quarters). Usually none holds. */
static inline int plainly_asymmetric(uint32_t row_b1, uint32_t row_b2, uint32_t row_last, const Branch *b) {
    return !(row_b2 & 1) && row_last != 1u << b->b2 && !(row_b1 >> (b->n - 1) & 1);
}

/* ---- prefixes --------------------------------------------------------------------------- */

/* The masks after placing the prefix's rows; 0 if two of its queens attack each other. */
static int prefix_state(const Prefix *p, uint32_t mask, uint32_t *c, uint32_t *l, uint32_t *r) {
    *c = *l = *r = 0;
    for (int y = 0; y < p->depth; y++) {
        uint32_t bit = 1u << p->col[y];
        if ((*c | *l | *r) & bit) return 0;
        *c |= bit;
        *l = (*l | bit) << 1 & mask;
        *r = (*r | bit) >> 1;
    }
    return 1;
}

/* Whether `p` is a prefix the search can start from: a placement obeying its branch's rules. */
static int prefix_valid(const Prefix *p, int n) {
    if (p->depth < 2 || p->depth > n - 2) return 0;
    for (int y = 0; y < p->depth; y++)
        if (p->col[y] >= n) return 0;
    if (p->col[0] == 0 ? p->col[1] < 2 || p->col[1] > n - 2 : p->col[0] >= n - 1 - p->col[0]) return 0;
    uint32_t c, l, r;
    if (!prefix_state(p, (1u << n) - 1, &c, &l, &r)) return 0;
    Branch b;
    branch_of(p, n, &b);
    uint32_t cols = 1u << p->col[0];
    for (int y = 1; y < p->depth; y++) {
        if (!(p->col[0] == 0 && y == 1) && !(allowed(&b, y, cols) >> p->col[y] & 1)) return 0;
        cols |= 1u << p->col[y];
    }
    return 1;
}

/* Enumerates the extensions of a valid prefix to `target` rows that obey its branch's rules,
 * in lexicographic order, with an explicit stack. */
typedef struct {
    int n, from, target, y, live;
    Branch b;
    Prefix p;
    uint32_t avail[MAX_N + 1], c[MAX_N + 1], l[MAX_N + 1], r[MAX_N + 1];
} Walker;

static void walker_start(Walker *w, const Prefix *p, int n, int target) {
    w->n = n;
    w->p = *p;
    w->from = w->y = p->depth;
    w->target = target;
    w->live = 1;
    branch_of(p, n, &w->b);
    prefix_state(p, w->b.mask, &w->c[w->y], &w->l[w->y], &w->r[w->y]);
    w->avail[w->y] = allowed(&w->b, w->y, w->c[w->y]) & ~(w->c[w->y] | w->l[w->y] | w->r[w->y]);
}

static int walker_next(Walker *w, Prefix *out) {
    if (!w->live) return 0;
    if (w->from == w->target) {          /* nothing to extend: the prefix itself, once */
        w->live = 0;
        *out = w->p;
        return 1;
    }
    for (;;) {
        int y = w->y;
        if (!w->avail[y]) {
            if (y == w->from) { w->live = 0; return 0; }
            w->y--;
            continue;
        }
        uint32_t bit = w->avail[y] & -w->avail[y];
        w->avail[y] ^= bit;
        w->p.col[y] = (uint8_t)__builtin_ctz(bit);
        uint32_t c = w->c[y] | bit, l = (w->l[y] | bit) << 1 & w->b.mask, r = (w->r[y] | bit) >> 1;
        if (y + 1 == w->target) {
            *out = w->p;
            out->depth = w->target;
            return 1;
        }
        w->y = y + 1;
        w->c[y + 1] = c;
        w->l[y + 1] = l;
        w->r[y + 1] = r;
        w->avail[y + 1] = allowed(&w->b, y + 1, c) & ~(c | l | r);
    }
}

/* Every subproblem of depth `depth`: row 0 in a corner (then row 1 at 2..n-2) or at b1 < b2.
 * Fills `out` up to `cap` and stops counting past `cap` (so asking never takes forever). */
static Py_ssize_t all_prefixes(int n, int depth, Prefix *out, Py_ssize_t cap) {
    Py_ssize_t count = 0;
    for (int c0 = 0; c0 < n - 1 - c0 || c0 == 0; c0++) {
        for (int c1 = 2; c1 <= (c0 == 0 ? n - 2 : 2); c1++) {
            Prefix start = {.depth = c0 == 0 ? 2 : 1};
            start.col[0] = (uint8_t)c0;
            start.col[1] = (uint8_t)c1;
            Walker w;
            walker_start(&w, &start, n, depth);
            Prefix p;
            while (walker_next(&w, &p)) {
                if (count == cap) return cap + 1;
                if (out) out[count] = p;
                count++;
            }
        }
    }
    return count;
}

/* ---- the scalar search ------------------------------------------------------------------- */

/* Count the leaves under a task (a valid prefix), adding them to `out`. */
static void scalar_task(const Prefix *t, int n, Classes *out) {
    Branch b;
    branch_of(t, n, &b);
    uint32_t rows[MAX_N];        /* the rules that do not depend on the columns taken */
    for (int y = 0; y < n; y++) rows[y] = allowed(&b, y, b.mask);
    int q[MAX_N];
    for (int y = 0; y < t->depth; y++) q[y] = t->col[y];
    const int corner = b.b2 < 0, last = n - 1;
    struct { uint32_t avail, c, l, r; int y; } stack[MAX_N];
    int sp = 0, y = t->depth;
    uint32_t c, l, r;
    prefix_state(t, b.mask, &c, &l, &r);
    uint32_t avail = allowed(&b, y, c) & ~(c | l | r);
    u64 nodes = 0, asymmetric = 0;
    for (;;) {
        if (!avail) {
            if (!sp) break;
            sp--;
            avail = stack[sp].avail; c = stack[sp].c; l = stack[sp].l; r = stack[sp].r; y = stack[sp].y;
            continue;
        }
        uint32_t bit = avail & -avail;
        avail ^= bit;
        nodes++;
        q[y] = __builtin_ctz(bit);
        uint32_t nc = c | bit, nl = (l | bit) << 1 & b.mask, nr = (r | bit) >> 1;
        uint32_t next = rows[y + 1] & ~(nc | nl | nr);
        if (y + 1 == b.b2) next &= b.need[sides(nc, n)];
        if (!next) continue;
        if (y + 1 == last) {    /* one column is left and the last row may take it: a leaf */
            nodes++;
            q[last] = __builtin_ctz(next);
            if (corner || plainly_asymmetric(1u << q[b.b1], 1u << q[b.b2], next, &b)) asymmetric++;
            else tally(out, classify(q, n));
            continue;
        }
        if (avail) {            /* come back to the siblings later; a finished row needs no entry */
            stack[sp].avail = avail; stack[sp].c = c; stack[sp].l = l; stack[sp].r = r; stack[sp].y = y;
            sp++;
        }
        c = nc; l = nl; r = nr; avail = next; y++;
    }
    out->nodes += nodes;
    out->c8 += asymmetric;
}

/* ---- work: subproblems cut into tasks, with per-subproblem accounting -------------------- */

typedef struct {
    int n, task_depth;
    const Prefix *subs;
    Py_ssize_t nsubs, current;   /* the subproblem being cut into tasks */
    Walker walker;
    Classes *counts;             /* per subproblem */
    Py_ssize_t *pending;         /* tasks handed out and not yet finished, per subproblem */
    char *cut;                   /* all tasks of the subproblem handed out */
    const volatile char *stop;   /* set by another thread to ask for an early return */
} Work;

static int stop_requested(const Work *w) {
    return w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED);
}

/* The next task and its subproblem; 0 when all are handed out. */
static int next_task(Work *w, Prefix *task, Py_ssize_t *sub) {
    while (w->current < w->nsubs) {
        if (walker_next(&w->walker, task)) {
            *sub = w->current;
            w->pending[w->current]++;
            return 1;
        }
        w->cut[w->current] = 1;
        w->current++;
        if (w->current < w->nsubs) walker_start(&w->walker, &w->subs[w->current], w->n, w->task_depth);
    }
    return 0;
}

static int sub_finished(const Work *w, Py_ssize_t sub) { return w->cut[sub] && w->pending[sub] == 0; }

static void run_scalar(Work *w) {
    Prefix task;
    Py_ssize_t sub;
    while (!stop_requested(w) && next_task(w, &task, &sub)) {
        scalar_task(&task, w->n, &w->counts[sub]);
        w->pending[sub]--;
    }
}

/* ---- the vector search: 16 depth-first searches in the lanes of AVX-512 registers ---------
 *
 * Each lane holds one search: its row y, the masks c, l, r and the candidates a left in row y.
 * One step moves every lane by one node: a lane with candidates takes the lowest one and goes
 * down (or, if the child has no candidate, just drops it); a lane without goes back up. Going
 * back needs no stack of masks: the parent's masks are the child's with the chosen bit taken
 * out, which needs only the chosen bit and the two bits that fell off the edges of l and r
 * (kept in bits 30 and 31 of the lane's record for that row, `path`). The parent's remaining
 * candidates are its allowed columns above the chosen bit. The record of the row above is
 * kept in a register (`up`) and the one above that is fetched a step early, so that going up
 * never waits for memory. A lane whose child would be the last row has found a leaf,
 * classified in plain C (about one step in ten). Lanes that finish their task get a new one
 * every ROUND steps. Why lanes: a depth-first search is a chain of dependent, unpredictable
 * branches; 16 searches side by side turn them into masks, ~3x faster here than one search. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LANES 16
#define ROUND 64
#define COLUMN_BITS 0x3fffffffu
#define VECTOR_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,bmi,bmi2,popcnt")))

typedef struct {                 /* the lanes in memory, between rounds */
    uint32_t c[LANES], l[LANES], r[LANES], a[LANES], y[LANES], up[LANES];
    uint32_t b1[LANES], b2[LANES], excl[LANES], last[LANES];
    Py_ssize_t sub[LANES];       /* the subproblem of each lane's task; -1 when idle */
    u64 nodes[LANES];            /* queens placed by each lane's task so far */
    uint32_t path[MAX_N * LANES];
} Lanes;

/* Give idle lanes a task; returns how many lanes are busy. */
static int refill(Lanes *s, Work *w, int depth) {
    int busy = 0;
    for (int i = 0; i < LANES; i++) {
        if ((int)s->y[i] < depth) {
            if (s->sub[i] >= 0) {
                w->counts[s->sub[i]].nodes += s->nodes[i];
                w->pending[s->sub[i]]--;
                s->sub[i] = -1;
            }
            s->nodes[i] = 0;
            s->y[i] = depth - 1;        /* idle lanes sink one row a step; lift them back */
            Prefix t;
            if (!stop_requested(w) && next_task(w, &t, &s->sub[i])) {
                Branch b;
                branch_of(&t, w->n, &b);
                prefix_state(&t, b.mask, &s->c[i], &s->l[i], &s->r[i]);
                for (int y = 0; y < depth; y++) s->path[y * LANES + i] = 1u << t.col[y];
                s->y[i] = depth;
                s->b1[i] = b.b1;
                s->b2[i] = b.b2 < 0 ? 99 : b.b2;    /* 99: a row that never comes */
                s->excl[i] = b.excl;
                s->last[i] = b.last;
                s->a[i] = allowed(&b, depth, s->c[i]) & ~(s->c[i] | s->l[i] | s->r[i]);
            }
        }
        busy += (int)s->y[i] >= depth;
    }
    return busy;
}

typedef struct { __m512i mask, one, lane, last_row, depth, column_bits, side, top; int n; } Constants;
typedef struct { __m512i c, l, r, a, y, up, b1, b2, excl, last; } State;   /* up: the record of row y-1 */

/* allowed() for every lane; row b2 as Branch.need: a free side column must be taken now, and
 * two free side columns cannot both be (then nothing is allowed) */
VECTOR_TARGET static inline __m512i allowed_lanes(const Constants *k, const State *s, __m512i y, __m512i cols) {
    __m512i a = _mm512_mask_andnot_epi32(k->mask, _mm512_cmplt_epi32_mask(y, s->b1), s->excl, k->mask);
    __mmask16 b2 = _mm512_cmpeq_epi32_mask(y, s->b2);
    __m512i free = _mm512_andnot_si512(cols, k->side);
    a = _mm512_mask_and_epi32(a, _mm512_mask_test_epi32_mask(b2, free, free), a, free);
    a = _mm512_maskz_mov_epi32(~_mm512_mask_cmpeq_epi32_mask(b2, free, k->side), a);
    return _mm512_mask_andnot_epi32(a, _mm512_cmpeq_epi32_mask(y, k->last_row), s->last, a);
}

/* The leaves found by the lanes in `leaves` this step (row n-2 at `bit`, row n-1 at `final`). */
VECTOR_TARGET static void count_leaves(const Lanes *s, Work *w, __mmask16 leaves, __m512i bit, __m512i final) {
    const int n = w->n;
    uint32_t bits[LANES], finals[LANES];
    _mm512_storeu_si512(bits, bit);
    _mm512_storeu_si512(finals, final);
    while (leaves) {
        int i = __builtin_ctz(leaves);
        leaves &= leaves - 1;
        Classes *out = &w->counts[s->sub[i]];
        if (s->b2[i] == 99) { out->c8++; continue; }
        Branch b = {.n = n, .b1 = (int)s->b1[i], .b2 = (int)s->b2[i]};
        uint32_t row_b1 = b.b1 == n - 2 ? bits[i] : s->path[b.b1 * LANES + i];
        uint32_t row_b2 = b.b2 == n - 2 ? bits[i] : s->path[b.b2 * LANES + i];
        if (plainly_asymmetric(row_b1, row_b2, finals[i], &b)) { out->c8++; continue; }
        int q[MAX_N];
        for (int y = 0; y < n - 2; y++) q[y] = __builtin_ctz(s->path[y * LANES + i] & COLUMN_BITS);
        q[n - 2] = __builtin_ctz(bits[i]);
        q[n - 1] = __builtin_ctz(finals[i]);
        tally(out, classify(q, n));
    }
}

VECTOR_TARGET static void run_vector(Work *w) {
    const int n = w->n, depth = w->task_depth;
    const uint32_t mask = (1u << n) - 1;
    Lanes *s = PyMem_RawCalloc(1, sizeof(Lanes));   /* idle lanes: no candidates (a = 0) */
    if (!s) { run_scalar(w); return; }      /* no memory for the lanes: same counts, slower */
    for (int i = 0; i < LANES; i++) { s->y[i] = depth - 1; s->sub[i] = -1; s->nodes[i] = 0; }
    const Constants k = {
        .mask = _mm512_set1_epi32(mask), .one = _mm512_set1_epi32(1),
        .lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        .last_row = _mm512_set1_epi32(n - 1), .depth = _mm512_set1_epi32(depth),
        .column_bits = _mm512_set1_epi32(COLUMN_BITS),
        .side = _mm512_set1_epi32(1u | 1u << (n - 1)),
        .top = _mm512_set1_epi32(1u << (n - 1)), .n = n,
    };
    const __m512i zero = _mm512_setzero_si512();
    while (refill(s, w, depth)) {
        State v = {
            .c = _mm512_loadu_si512(s->c), .l = _mm512_loadu_si512(s->l), .r = _mm512_loadu_si512(s->r),
            .a = _mm512_loadu_si512(s->a), .y = _mm512_loadu_si512(s->y), .up = _mm512_loadu_si512(s->up),
            .b1 = _mm512_loadu_si512(s->b1),
            .b2 = _mm512_loadu_si512(s->b2), .excl = _mm512_loadu_si512(s->excl), .last = _mm512_loadu_si512(s->last),
        };
        __m512i placed = zero;   /* queens placed this round, per lane: the lanes' `nodes` */
        for (int step = 0; step < ROUND; step++) {
            __mmask16 down = _mm512_test_epi32_mask(v.a, v.a);
            __mmask16 up = ~down;        /* idle lanes too: they sink below the task depth, harmlessly */
            /* down: take the lowest candidate */
            __m512i bit = _mm512_and_si512(v.a, _mm512_sub_epi32(zero, v.a));
            __m512i cb = _mm512_or_si512(v.c, bit), lb = _mm512_or_si512(v.l, bit), rb = _mm512_or_si512(v.r, bit);
            __m512i nl = _mm512_and_si512(_mm512_slli_epi32(lb, 1), k.mask), nr = _mm512_srli_epi32(rb, 1);
            __m512i y1 = _mm512_add_epi32(v.y, k.one);
            __m512i next = _mm512_andnot_si512(_mm512_or_si512(cb, _mm512_or_si512(nl, nr)), allowed_lanes(&k, &v, y1, cb));
            __mmask16 alive = _mm512_mask_test_epi32_mask(down, next, next);
            __mmask16 leaves = alive & _mm512_cmpeq_epi32_mask(y1, k.last_row);
            __mmask16 go = alive & ~leaves;
            placed = _mm512_mask_add_epi32(placed, down, placed, k.one);
            if (leaves) {
                placed = _mm512_mask_add_epi32(placed, leaves, placed, k.one);   /* the last row's queen */
                count_leaves(s, w, leaves, bit, next);
            }
            __m512i record = _mm512_or_si512(bit, _mm512_or_si512(_mm512_slli_epi32(rb, 31),
                                                                 _mm512_slli_epi32(_mm512_srli_epi32(lb, n - 1), 30)));
            _mm512_mask_i32scatter_epi32(s->path, go, _mm512_add_epi32(_mm512_slli_epi32(v.y, 4), k.lane), record, 4);
            /* up: rebuild the parent from the record of its row, kept in a register; fetch the
             * record of the row above it now, for the next step up (off the critical path) */
            __m512i y0 = _mm512_sub_epi32(v.y, k.one), y00 = _mm512_sub_epi32(y0, k.one);
            __mmask16 back = up & _mm512_cmpge_epi32_mask(y0, k.depth);
            __m512i rec = v.up;
            __m512i grand = _mm512_mask_i32gather_epi32(zero, back & _mm512_cmpge_epi32_mask(y00, k.depth),
                                                        _mm512_add_epi32(_mm512_slli_epi32(y00, 4), k.lane), s->path, 4);
            __m512i pbit = _mm512_and_si512(rec, k.column_bits);
            __m512i pc = _mm512_xor_si512(v.c, pbit);
            __m512i pl = _mm512_xor_si512(_mm512_or_si512(_mm512_srli_epi32(v.l, 1),
                _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(rec, _mm512_set1_epi32(1u << 30)), k.top)), pbit);
            __m512i pr = _mm512_xor_si512(_mm512_or_si512(_mm512_slli_epi32(v.r, 1), _mm512_srli_epi32(rec, 31)), pbit);
            __m512i pa = _mm512_and_si512(
                _mm512_andnot_si512(_mm512_or_si512(pc, _mm512_or_si512(pl, pr)), allowed_lanes(&k, &v, y0, pc)),
                _mm512_sub_epi32(zero, _mm512_slli_epi32(pbit, 1)));          /* candidates above the bit */
            /* merge: go down, drop the candidate, or go up (past the task's root: idle) */
            v.a = _mm512_mask_xor_epi32(v.a, down & ~go, v.a, bit);
            v.a = _mm512_mask_mov_epi32(v.a, go, next);
            v.c = _mm512_mask_mov_epi32(v.c, go, cb);
            v.l = _mm512_mask_mov_epi32(v.l, go, nl);
            v.r = _mm512_mask_mov_epi32(v.r, go, nr);
            v.y = _mm512_mask_add_epi32(v.y, go, v.y, k.one);
            v.up = _mm512_mask_mov_epi32(v.up, go, record);
            v.up = _mm512_mask_mov_epi32(v.up, back, grand);
            v.a = _mm512_mask_mov_epi32(v.a, back, pa);
            v.c = _mm512_mask_mov_epi32(v.c, back, pc);
            v.l = _mm512_mask_mov_epi32(v.l, back, pl);
            v.r = _mm512_mask_mov_epi32(v.r, back, pr);
            v.y = _mm512_mask_sub_epi32(v.y, up, v.y, k.one);
        }
        _mm512_storeu_si512(s->c, v.c);
        _mm512_storeu_si512(s->l, v.l);
        _mm512_storeu_si512(s->r, v.r);
        _mm512_storeu_si512(s->a, v.a);
        _mm512_storeu_si512(s->y, v.y);
        _mm512_storeu_si512(s->up, v.up);
        uint32_t round_nodes[LANES];
        _mm512_storeu_si512(round_nodes, placed);
        for (int i = 0; i < LANES; i++) s->nodes[i] += round_nodes[i];
    }
    /* stopped early: the lanes' unfinished tasks keep their subproblems pending */
    PyMem_RawFree(s);
}

static int vector_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}
#else
static int vector_available(void) { return 0; }
static void run_vector(Work *w) { run_scalar(w); }
#endif

/* ---- Python interface --------------------------------------------------------------------- */

static int check_n(int n) {
    if (n < 4 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be 4..%d (smaller boards have no subproblems), got %d", MAX_N, n);
        return -1;
    }
    return 0;
}

/* The task depth: deep enough that a task is small (lanes stay busy to the end), shallow
 * enough that cutting costs little next to counting. */
static int task_depth(int n, int depth) {
    int d = n - 10 > depth ? n - 10 : depth;
    return d > n - 2 ? n - 2 : d;
}

static PyObject *py_subproblems(PyObject *self, PyObject *args) {
    int n, depth;
    if (!PyArg_ParseTuple(args, "ii", &n, &depth) || check_n(n) < 0) return NULL;
    int deepest = n - 2 < MAX_SPLIT ? n - 2 : MAX_SPLIT;
    if (depth < 2 || depth > deepest) {
        PyErr_Format(PyExc_ValueError, "depth must be 2..%d for n = %d, got %d", deepest, n, depth);
        return NULL;
    }
    Py_ssize_t count = all_prefixes(n, depth, NULL, MAX_SUBPROBLEMS);
    if (count > MAX_SUBPROBLEMS) {
        PyErr_Format(PyExc_ValueError, "depth %d gives more than %d subproblems for n = %d", depth, MAX_SUBPROBLEMS, n);
        return NULL;
    }
    Prefix *all = PyMem_Malloc(sizeof(Prefix) * (size_t)(count ? count : 1));
    if (!all) return PyErr_NoMemory();
    all_prefixes(n, depth, all, count);
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
        if (!prefix_valid(&(*out)[i], n)) {
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

static PyObject *py_count(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "subproblems", "kernel", "stop", NULL};
    int n;
    PyObject *keys, *stop = Py_None;
    const char *kernel = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO|sO", names, &n, &keys, &kernel, &stop) || check_n(n) < 0)
        return NULL;
    int vector;
    if (!strcmp(kernel, "auto")) vector = vector_available();
    else if (!strcmp(kernel, "scalar")) vector = 0;
    else if (!strcmp(kernel, "vector")) {
        if (!vector_available()) {
            PyErr_SetString(PyExc_ValueError, "the vector kernel needs a CPU with AVX-512");
            return NULL;
        }
        vector = 1;
    } else {
        PyErr_Format(PyExc_ValueError, "kernel must be 'auto', 'vector' or 'scalar', got '%s'", kernel);
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
    Prefix *subs = NULL;
    Py_ssize_t count = read_prefixes(keys, n, &subs);
    if (count < 0) { if (flag.obj) PyBuffer_Release(&flag); return NULL; }
    Work w = {.n = n, .subs = subs, .nsubs = count, .stop = flag.obj ? (const volatile char *)flag.buf : NULL};
    w.counts = PyMem_Calloc((size_t)(count ? count : 1), sizeof(Classes));
    w.pending = PyMem_Calloc((size_t)(count ? count : 1), sizeof(Py_ssize_t));
    w.cut = PyMem_Calloc((size_t)(count ? count : 1), 1);
    PyObject *result = NULL;
    if (!w.counts || !w.pending || !w.cut) { PyErr_NoMemory(); goto done; }
    if (count) {
        w.task_depth = task_depth(n, subs[0].depth);
        walker_start(&w.walker, &subs[0], n, w.task_depth);
    }
    Py_BEGIN_ALLOW_THREADS
    if (vector) run_vector(&w);
    else run_scalar(&w);
    Py_END_ALLOW_THREADS
    result = PyList_New(count);
    for (Py_ssize_t i = 0; result && i < count; i++) {
        PyObject *item = sub_finished(&w, i)
            ? Py_BuildValue("(KKKK)", w.counts[i].c2, w.counts[i].c4, w.counts[i].c8, w.counts[i].nodes)
            : Py_NewRef(Py_None);
        if (!item) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, item);
    }
done:
    PyMem_Free(w.counts);
    PyMem_Free(w.pending);
    PyMem_Free(w.cut);
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
     "kernel: 'auto' (vector when the CPU has AVX-512), 'vector' or 'scalar'. Runs without the GIL."},
    {NULL}
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_fast",
    .m_doc = "The fast n-queens counter by symmetry classes (see fastcount.c).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__fast(void) {
    PyObject *m = PyModule_Create(&fast_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 || PyModule_AddIntConstant(m, "VERSION", VERSION) < 0
        || PyModule_AddObjectRef(m, "VECTOR", vector_available() ? Py_True : Py_False) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
