/* The classes counter: every solution of the plain n x n board, grouped by symmetry.
 *
 * Why it is fast: it visits (about) one solution of each symmetry class instead of all eight,
 * the scheme of Takaken's 2003 counter, and it runs many searches at once in SIMD lanes.
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
 * order). Each subproblem's counts are reported separately, so a caller can store them as they
 * finish. Internally a subproblem is cut into smaller tasks (a few rows deeper) so that the
 * lanes stay busy to the end.
 *
 * The kernels count tasks, all with the same results (classes and nodes): `run_scalar` (one
 * depth-first search, any CPU), the lanes of lanes.h (GCC vector extensions: one source for
 * SSE2, AVX2 and NEON) and of lanes_avx512.h (AVX-512 intrinsics). Each SIMD kernel is compiled
 * for its own target in this one binary; fq_best_kernel asks the CPU at run time which it may
 * use, so the build itself needs no -march flag and runs on any CPU of its architecture.
 *
 * The asserts state what the scheme relies on (a leaf is a permutation, a class has 2, 4 or 8
 * boards, the search's stack stays on the board, every task handed out is accounted for); they
 * run in the sanitiser builds (make test-asan, make fuzz) and the drivers of make test-cross,
 * and are compiled out of the normal one (setup.py passes -DNDEBUG).
 */
#include "classcore.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N FQ_MAX_N
typedef fq_u64 u64;
typedef FqClasses Classes;
typedef FqPrefix Prefix;

/* What a prefix's first rows imply for the rest of the search (see the header). */
typedef struct {
    int n, b1, b2;              /* b2 = -1 in the corner branch: no row-b2 rule there */
    uint32_t mask, excl, last;  /* board; columns rows < b1 avoid; columns the last row avoids */
    uint32_t need[4];           /* row b2, by which side columns are taken: columns it may use */
} Branch;

static void branch_of(const Prefix *p, int n, Branch *b) {
    assert(n >= 4 && n <= MAX_N && p->depth >= 1 && p->col[0] < n);
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
#ifndef NDEBUG
    uint32_t columns = 0;                /* a leaf has one queen per column: q is a permutation */
    for (int r = 0; r < n; r++) {
        assert(q[r] >= 0 && q[r] < n && !(columns >> q[r] & 1));
        columns |= 1u << q[r];
    }
#endif
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
    assert(size == 0 || size == 2 || size == 4 || size == 8);
    k->c2 += size == 2;
    k->c4 += size == 4;
    k->c8 += size == 8;
}

/* A branch-b1 leaf can tie with a rotation only if that rotation brings a border queen at
 * distance b1 from a corner into row 0: row b2 at column 0 (quarter turn), the last row at
 * column b2 (half turn) or row b1 at column n-1 (three quarters). Usually none holds. */
static inline int plainly_asymmetric(uint32_t row_b1, uint32_t row_b2, uint32_t row_last, int b2, int n) {
    return !(row_b2 & 1) && row_last != 1u << b2 && !(row_b1 >> (n - 1) & 1);
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

int fq_prefix_valid(const Prefix *p, int n) {
    if (n < 4 || n > MAX_N || p->depth < 2 || p->depth > n - 2) return 0;
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
        assert(y >= w->from && y < w->target && y < w->n);
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

/* Row 0 in a corner (then row 1 at 2..n-2) or at b1 < b2; stops counting past `cap` (so
 * asking never takes forever). */
long fq_subproblems(int n, int depth, Prefix *out, long cap) {
    long count = 0;
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

/* ---- work: subproblems cut into tasks, with per-subproblem accounting -------------------- */

typedef struct {
    int n, task_depth;
    const Prefix *subs;
    long nsubs, current;         /* the subproblem being cut into tasks */
    Walker walker;
    Classes *counts;             /* per subproblem */
    long *pending;               /* tasks handed out and not yet finished, per subproblem */
    char *cut;                   /* all tasks of the subproblem handed out */
    const volatile char *stop;   /* set by another thread to ask for an early return */
} Work;

static int stop_requested(const Work *w) {
    return w->stop && __atomic_load_n(w->stop, __ATOMIC_RELAXED);
}

/* The next task and its subproblem; 0 when all are handed out. */
static int next_task(Work *w, Prefix *task, long *sub) {
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

/* ---- what every SIMD kernel shares: the lanes between rounds ----------------------------- */

#define MAX_LANES 16
#define ROUND 64                 /* steps between refills of idle lanes */
#define COLUMN_BITS 0x3fffffffu  /* a path record: the row's column bit; bits 30, 31: carries */
#define PATH_STRIDE (MAX_N + 1)  /* a lane's rows, then a spare slot for writes that go nowhere */

typedef struct {                 /* the lanes in memory, between rounds */
    uint32_t c[MAX_LANES], l[MAX_LANES], r[MAX_LANES], a[MAX_LANES], y[MAX_LANES], up[MAX_LANES];
    uint32_t b1[MAX_LANES], b2[MAX_LANES], excl[MAX_LANES], last[MAX_LANES];
    long sub[MAX_LANES];         /* the subproblem of each lane's task; -1 when idle */
    u64 nodes[MAX_LANES];        /* queens placed by each lane's task so far */
    uint32_t path[MAX_LANES * PATH_STRIDE];   /* row y of lane i at y * ystride + i * lstride */
} Lanes;

/* Give idle lanes (those that went up past their task's root) a task; returns how many lanes
 * are busy. */
static int refill(Lanes *s, Work *w, int lanes, int depth, int ystride, int lstride) {
    int busy = 0;
    for (int i = 0; i < lanes; i++) {
        if ((int)s->y[i] < depth) {
            if (s->sub[i] >= 0) {
                assert(s->sub[i] < w->nsubs && w->pending[s->sub[i]] > 0);
                w->counts[s->sub[i]].nodes += s->nodes[i];
                w->pending[s->sub[i]]--;
                s->sub[i] = -1;
            }
            s->nodes[i] = 0;
            s->y[i] = (uint32_t)(depth - 1);     /* idle lanes sink one row a step; lift them back */
            Prefix t;
            if (!stop_requested(w) && next_task(w, &t, &s->sub[i])) {
                Branch b;
                branch_of(&t, w->n, &b);
                prefix_state(&t, b.mask, &s->c[i], &s->l[i], &s->r[i]);
                for (int y = 0; y < depth; y++) s->path[y * ystride + i * lstride] = 1u << t.col[y];
                s->y[i] = (uint32_t)depth;
                s->b1[i] = (uint32_t)b.b1;
                s->b2[i] = b.b2 < 0 ? 99 : (uint32_t)b.b2;    /* 99: a row that never comes */
                s->excl[i] = b.excl;
                s->last[i] = b.last;
                s->a[i] = allowed(&b, depth, s->c[i]) & ~(s->c[i] | s->l[i] | s->r[i]);
            }
        }
        busy += (int)s->y[i] >= depth;
    }
    return busy;
}

/* Row y of a lane whose rows 0..n-3 are in `path` (ystride apart), row n-2 at `bit` and row
 * n-1 at `final`. */
static inline uint32_t lane_row(const uint32_t *path, int ystride, int y, int n, uint32_t bit, uint32_t final) {
    return y == n - 1 ? final : y == n - 2 ? bit : path[y * ystride] & COLUMN_BITS;
}

/* A leaf found by a lane. Corner-branch leaves (b2 == 99) are asymmetric. */
static void lane_leaf(Classes *out, int n, uint32_t b1, uint32_t b2, const uint32_t *path, int ystride,
                      uint32_t bit, uint32_t final) {
    if (b2 == 99 || plainly_asymmetric(lane_row(path, ystride, (int)b1, n, bit, final),
                                       lane_row(path, ystride, (int)b2, n, bit, final), final, (int)b2, n)) {
        out->c8++;
        return;
    }
    int q[MAX_N];
    for (int y = 0; y < n; y++) q[y] = __builtin_ctz(lane_row(path, ystride, y, n, bit, final));
    tally(out, classify(q, n));
}

/* ---- the scalar search ------------------------------------------------------------------- */

/* Count the leaves under a task (a valid prefix), adding them to `out`.
 *
 * A depth-first search pays mostly for the CPU's wrong guesses at its branches and for the
 * work on the path from one queen to the next, so the loop keeps both short:
 *   - one hard-to-guess branch per queen placed: does the next row keep a column? The next
 *     row's free columns before this row's queen (`p`) are worked out once per row, on the way
 *     down, so a queen costs only `p` less the three columns it attacks there;
 *   - a row is saved on the way down only when it has siblings left, so a row that runs out
 *     goes back to the nearest saved row in one step (and a task with no saved row is done);
 *   - row b2's rule is applied once, on entering row b2 (a row it leaves empty runs out at
 *     once, having placed no queen, so the nodes are the lanes' nodes all the same); the
 *     corner branch, which has no such rule and no leaf to classify, has its own copy of the
 *     loop (`corner` is a constant at each call);
 *   - the last row is entered like any other (its rule leaves one column at most, and no row
 *     comes after it), so the test for a leaf is made only at the dead ends.
 * The diagonal masks are not cut to the board (the row rules are). */
static inline __attribute__((always_inline)) void scalar_search(const Prefix *t, int n, Classes *out,
                                                                const Branch *branch, const int corner) {
    const Branch b = *branch;
    uint32_t rows[MAX_N + 1];    /* the rules that do not depend on the columns taken; none past the last row */
    for (int y = 0; y < n; y++) rows[y] = allowed(&b, y, b.mask);
    rows[n] = 0;
    uint32_t row[MAX_N];         /* each row's queen, as a bit: columns are needed only at the leaves */
    for (int y = 0; y < t->depth; y++) row[y] = 1u << t->col[y];
    const long last = n - 1, b2 = corner ? -1 : b.b2;
    uint32_t save_avail[MAX_N], save_c[MAX_N], save_l[MAX_N], save_r[MAX_N], save_p[MAX_N];
    long save_y[MAX_N];
    long sp = 0, y = t->depth;
    uint32_t c, l, r;
    prefix_state(t, b.mask, &c, &l, &r);
    uint32_t avail = allowed(&b, (int)y, c) & ~(c | l | r);
    uint32_t p = rows[y + 1] & ~(c | l << 1 | r >> 1);
    u64 nodes = 0, asymmetric = 0;
    if (!avail) return;
    for (;;) {
        uint32_t bit = avail & -avail;
        avail &= avail - 1;
        nodes++;
        uint32_t next = p & ~(bit * 7 >> 1);     /* bit and its two neighbours */
        if (next) {             /* down, saving this row if it has siblings left */
            assert(y + 1 < n && sp < n);   /* `next` is empty past the last row (rows[n] = 0) */
            row[y] = bit;
            save_avail[sp] = avail; save_c[sp] = c; save_l[sp] = l; save_r[sp] = r; save_p[sp] = p; save_y[sp] = y;
            sp += avail != 0;
            c |= bit; l = (l | bit) << 1; r = (r | bit) >> 1; y++;
            p = rows[y + 1] & ~(c | l << 1 | r >> 1);
            avail = next;
            if (!corner && __builtin_expect(y == b2, 0)) {
                avail &= b.need[sides(c, n)];
                if (!avail) goto row_out;
            }
            continue;
        }
        if (__builtin_expect(y == last, 0)) {      /* a queen in the last row: a leaf */
            if (corner || plainly_asymmetric(row[b.b1], row[b2], bit, (int)b2, n)) asymmetric++;
            else {
                int q[MAX_N];
                row[last] = bit;
                for (int i = 0; i < n; i++) q[i] = __builtin_ctz(row[i]);
                tally(out, classify(q, n));
            }
        }
        if (avail) continue;
    row_out:                    /* take up the nearest saved row; none left: the task is done */
        if (!sp) break;
        sp--;
        avail = save_avail[sp]; c = save_c[sp]; l = save_l[sp]; r = save_r[sp]; p = save_p[sp]; y = save_y[sp];
    }
    out->nodes += nodes;
    out->c8 += asymmetric;
}

/* The scalar kernel is compiled twice on x86-64: for any CPU, and with BMI1 and BMI2 (blsi,
 * blsr, andn, shlx: a shorter loop), which run_scalar takes when the CPU has them. */
#define SCALAR_TASK(name, target)                                                          \
    target static void name(const Prefix *t, int n, Classes *out) {                        \
        Branch b;                                                                          \
        branch_of(t, n, &b);                                                               \
        if (b.b2 < 0) scalar_search(t, n, out, &b, 1);                                     \
        else scalar_search(t, n, out, &b, 0);                                              \
    }
SCALAR_TASK(scalar_task, )
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
SCALAR_TASK(scalar_task_bmi, __attribute__((target("bmi,bmi2"))))
#endif

typedef void ScalarTask(const Prefix *t, int n, Classes *out);

static int run_scalar(Work *w, ScalarTask *task_fn) {
    Prefix task;
    long sub;
    while (!stop_requested(w) && next_task(w, &task, &sub)) {
        assert(task.depth == w->task_depth && sub >= 0 && sub < w->nsubs);
        task_fn(&task, w->n, &w->counts[sub]);
        w->pending[sub]--;
        assert(w->pending[sub] >= 0);
    }
    return 0;
}

/* ---- the SIMD kernels: one source, compiled once per target ------------------------------ */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LANES_FN run_sse2
#define LANES_ANY(m) _mm_movemask_ps((__m128)(m))
#define LANE_COUNT 4
#define LANES_TARGET __attribute__((target("sse2")))
#include "lanes.h"
#define LANES_FN run_avx2
#define LANES_ANY(m) _mm256_movemask_ps((__m256)(m))
#define LANE_COUNT 8
#define LANES_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#include "lanes.h"
#include "lanes_avx512.h"
#define HAVE_X86 1
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#include <arm_neon.h>
#define LANES_FN run_neon
#define LANES_ANY(m) vmaxvq_u32((uint32x4_t)(m))
#define LANE_COUNT 4
#define LANES_TARGET
#include "lanes.h"
#define HAVE_NEON 1
#endif

/* ---- the dispatcher ------------------------------------------------------------------------ */

const char *const fq_kernel_names[FQ_KERNELS] = {"scalar", "sse2", "neon", "avx2", "avx512"};

#ifdef HAVE_X86
static int cpu_has(const char *feature) {
    __builtin_cpu_init();
    /* __builtin_cpu_supports wants a string literal: one branch per feature we ask about */
    if (!strcmp(feature, "sse2")) return __builtin_cpu_supports("sse2");
    if (!strcmp(feature, "popcnt")) return __builtin_cpu_supports("popcnt");
    if (!strcmp(feature, "avx2")) return __builtin_cpu_supports("avx2");
    if (!strcmp(feature, "bmi")) return __builtin_cpu_supports("bmi");
    if (!strcmp(feature, "bmi2")) return __builtin_cpu_supports("bmi2");
    if (!strcmp(feature, "avx512f")) return __builtin_cpu_supports("avx512f");
    if (!strcmp(feature, "avx512bw")) return __builtin_cpu_supports("avx512bw");
    if (!strcmp(feature, "avx512vl")) return __builtin_cpu_supports("avx512vl");
    if (!strcmp(feature, "avx512dq")) return __builtin_cpu_supports("avx512dq");
    return 0;
}

static const char *const FEATURES[] = {"sse2", "popcnt", "bmi", "bmi2", "avx2",
                                       "avx512f", "avx512bw", "avx512vl", "avx512dq", NULL};

/* The features each kernel's target attribute lets the compiler use. */
static const char *const NEEDS[FQ_KERNELS][8] = {
    [FQ_SSE2] = {"sse2", NULL},
    [FQ_AVX2] = {"avx2", "bmi", "bmi2", "popcnt", NULL},
    [FQ_AVX512] = {"avx512f", "avx512bw", "avx512vl", "avx512dq", "bmi", "bmi2", "popcnt", NULL},
};

int fq_kernel_supported(FqKernel k) {
    if (k == FQ_SCALAR) return 1;
    if (k == FQ_NEON || k < 0 || k >= FQ_KERNELS) return 0;
    for (const char *const *f = NEEDS[k]; *f; f++)
        if (!cpu_has(*f)) return 0;
    return 1;
}

const char *fq_cpu_features(void) {
    static char seen[128];
    if (!seen[0]) {
        char buf[128] = "";
        for (const char *const *f = FEATURES; *f; f++)
            if (cpu_has(*f)) { strcat(buf, buf[0] ? " " : ""); strcat(buf, *f); }
        memcpy(seen, buf, sizeof buf);      /* racing threads write the same bytes */
    }
    return seen;
}

/* The scalar kernel's build for this CPU. */
static ScalarTask *best_scalar(void) { return cpu_has("bmi") && cpu_has("bmi2") ? scalar_task_bmi : scalar_task; }

const char *fq_scalar_build(void) { return best_scalar() == scalar_task ? "baseline" : "bmi1+bmi2"; }
#elif defined(HAVE_NEON)
int fq_kernel_supported(FqKernel k) { return k == FQ_SCALAR || k == FQ_NEON; }   /* AArch64 always has NEON */
const char *fq_cpu_features(void) { return "asimd"; }
#else
int fq_kernel_supported(FqKernel k) { return k == FQ_SCALAR; }
const char *fq_cpu_features(void) { return ""; }
#endif
#ifndef HAVE_X86
static ScalarTask *best_scalar(void) { return scalar_task; }
const char *fq_scalar_build(void) { return "baseline"; }
#endif

int fq_kernel_compiled(FqKernel k) {
#ifdef HAVE_X86
    return k == FQ_SCALAR || k == FQ_SSE2 || k == FQ_AVX2 || k == FQ_AVX512;
#elif defined(HAVE_NEON)
    return k == FQ_SCALAR || k == FQ_NEON;
#else
    return k == FQ_SCALAR;
#endif
}

int fq_kernel_automatic(FqKernel k) { return k != FQ_SSE2 && k != FQ_NEON; }

FqKernel fq_best_kernel(void) {
    for (int k = FQ_KERNELS - 1; k > FQ_SCALAR; k--)
        if (fq_kernel_automatic((FqKernel)k) && fq_kernel_supported((FqKernel)k)) return (FqKernel)k;
    return FQ_SCALAR;
}

int fq_kernel_index(const char *name) {
    for (int k = 0; k < FQ_KERNELS; k++)
        if (!strcmp(name, fq_kernel_names[k])) return k;
    return -1;
}

static int run_kernel(Work *w, FqKernel k) {
    switch (k) {
#ifdef HAVE_X86
    case FQ_SSE2: return run_sse2(w);
    case FQ_AVX2: return run_avx2(w);
    case FQ_AVX512: return run_avx512(w);
#endif
#ifdef HAVE_NEON
    case FQ_NEON: return run_neon(w);
#endif
    case FQ_SCALAR_BASELINE: return run_scalar(w, scalar_task);
    default: return run_scalar(w, best_scalar());
    }
}

/* The task depth: deep enough that a task is small (lanes stay busy to the end), shallow
 * enough that cutting costs little next to counting. */
static int task_depth(int n, int depth) {
    int d = n - 10 > depth ? n - 10 : depth;
    return d > n - 2 ? n - 2 : d;
}

int fq_count(int n, const Prefix *subs, long nsubs, FqKernel k, const volatile char *stop,
             Classes *counts, char *finished) {
    if (!nsubs) return 0;
#ifndef NDEBUG
    for (long i = 0; i < nsubs; i++)     /* the header's promise: one depth, every one valid */
        assert(subs[i].depth == subs[0].depth && fq_prefix_valid(&subs[i], n));
#endif
    Work w = {.n = n, .subs = subs, .nsubs = nsubs, .counts = counts, .cut = finished, .stop = stop};
    w.pending = calloc((size_t)nsubs, sizeof(long));
    if (!w.pending) return -1;
    w.task_depth = task_depth(n, subs[0].depth);
    walker_start(&w.walker, &subs[0], n, w.task_depth);
    int status = fq_kernel_supported(k) || k == FQ_SCALAR_BASELINE ? run_kernel(&w, k) : run_scalar(&w, best_scalar());
    for (long i = 0; i < nsubs; i++) {
        assert(w.pending[i] >= 0);
        finished[i] = w.cut[i] && w.pending[i] == 0;
    }
    free(w.pending);
    return status;
}
