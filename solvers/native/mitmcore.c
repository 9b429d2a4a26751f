/* Meet in the middle: n-queens totals Q(n) by joining half-boards instead of walking the tree.
 *
 * A solution splits into its top half (rows 0..t-1, t = ceil(n/2)) and its bottom half (rows
 * t..n-1). The top half uses some set S of t columns, the bottom half exactly the others, so the
 * solutions are grouped by S: for each S, list every top half on S and every bottom half on the
 * complement (each list found by a small backtracking search restricted to its columns), and
 * count the pairs whose diagonals are disjoint. Rows and columns are thus matched exactly by the
 * grouping; only the diagonals are compared, as one 64-bit word per half: the n-1 anti-diagonals
 * and the n-1 diagonals that both halves can reach (2(n-1) <= 62 bits for n <= 32).
 *
 * Comparing every pair is the work, so two things cut it down:
 *  - symmetry: mirroring the board left to right maps top halves on S to top halves on mirror(S),
 *    and for even n turning it upside down maps the solutions grouped under S to those under
 *    its complement; only the smallest set of each orbit is counted, times the orbit's size;
 *  - a sieve: the k diagonal bits that both lists use most are cut out as a bucket number;
 *    a top half in bucket v meets only bottom halves in buckets u with u & v == 0, so whole
 *    buckets of certain conflicts are never compared. Within two buckets the comparison is a
 *    straight loop the compiler vectorises (AVX-512, AVX2 or scalar, chosen at run time).
 *
 * Memory: one worker holds two lists per side, each of at most t! words (the permutations of t
 * columns), which mq_memory_bound() states before any work.
 */
#include "mitmcore.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CUT 12

/* ---- combinations: C(n, k), and the k-sets of n columns in colex order -------------------- */

static uint64_t binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t value = 1;
    for (int i = 1; i <= k; i++) value = value * (uint64_t)(n - k + i) / (uint64_t)i;  /* exact at each step */
    return value;
}

int mq_top_rows(int n) { return (n + 1) / 2; }

uint64_t mq_sets(int n) { return binomial(n, mq_top_rows(n)); }

/* The set of rank `rank` among the k-sets in colex order (the order Gosper's hack walks). */
static uint32_t unrank(uint64_t rank, int n, int k) {
    uint32_t set = 0;
    for (int i = k; i >= 1; i--) {
        int c = i - 1;
        while (c + 1 < n && binomial(c + 1, i) <= rank) c++;
        rank -= binomial(c, i);
        set |= 1u << c;
    }
    return set;
}

/* The next k-set after `set` in colex order (Gosper's hack). */
static uint32_t next_set(uint32_t set) {
    uint32_t low = set & -set, ripple = set + low;
    return ripple | (((set ^ ripple) >> 2) / low);
}

static uint32_t mirror(uint32_t set, int n) {
    uint32_t image = 0;
    for (int c = 0; c < n; c++)
        if (set >> c & 1) image |= 1u << (n - 1 - c);
    return image;
}

/* How many sets S's symmetry orbit holds if S is the orbit's smallest, else 0 (counted elsewhere). */
static unsigned orbit_weight(uint32_t set, int n) {
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    uint32_t images[4] = {set, mirror(set, n), 0, 0};
    int count = 2;
    if (n % 2 == 0) {  /* upside down: the bottom half (on the complement) becomes the top half */
        images[2] = ~set & full;
        images[3] = ~images[1] & full;
        count = 4;
    }
    unsigned distinct = 0;
    for (int i = 0; i < count; i++) {
        if (images[i] < set) return 0;
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= images[j] == images[i];
        distinct += !seen;
    }
    return distinct;
}

/* ---- listing half-boards -------------------------------------------------------------------- */

typedef struct {
    uint64_t *keys;
    size_t len, cap;
    int failed;
} List;

static void push(List *list, uint64_t key) {
    if (list->len == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 1024;
        uint64_t *grown = realloc(list->keys, cap * sizeof *grown);
        if (!grown) { list->failed = 1; return; }
        list->keys = grown;
        list->cap = cap;
    }
    list->keys[list->len++] = key;
}

typedef struct {
    int n, top;          /* board side, rows in the top half */
    int step, last;      /* +1 from row 0 to top-1, or -1 from row n-1 down to top */
    uint64_t window;     /* n-1 low bits */
    List *out;
} Lister;

/* Place a queen in `row` on a column of `free`, then the next row; at the end, list the word of
 * diagonals. `anti` holds bit row+col per queen, `diag` bit col-row+n-1 (both absolute, < 2n-1). */
static void place(const Lister *l, int row, uint32_t free, uint64_t anti, uint64_t diag) {
    uint32_t open = free & ~(uint32_t)(anti >> row) & ~(uint32_t)(diag >> (l->n - 1 - row));
    while (open) {
        uint32_t bit = open & -open;
        open ^= bit;
        uint64_t a = anti | (uint64_t)bit << row, d = diag | (uint64_t)bit << (l->n - 1 - row);
        if (row == l->last) {
            /* the window both halves reach: anti-diagonals top..top+n-2, diagonals n-top..2n-2-top */
            push(l->out, (a >> l->top & l->window) | (d >> (l->n - l->top) & l->window) << (l->n - 1));
        } else {
            place(l, row + l->step, free ^ bit, a, d);
        }
    }
}

static void list_halves(int n, uint32_t columns, int bottom, List *out) {
    int top = mq_top_rows(n);
    Lister l = {n, top, bottom ? -1 : 1, bottom ? top : top - 1, (1ull << (n - 1)) - 1, out};
    out->len = 0;
    place(&l, bottom ? n - 1 : 0, columns, 0, 0);
}

/* ---- the matcher: pairs of words with no common bit ----------------------------------------- */

#define MATCH_BODY                                                              \
    uint64_t count = 0;                                                          \
    for (size_t i = 0; i < na; i++) {                                           \
        uint64_t x = a[i];                                                       \
        for (size_t j = 0; j < nb; j++) count += (x & b[j]) == 0;                \
    }                                                                            \
    return count;

typedef uint64_t (*Matcher)(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

static uint64_t match_scalar(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) { MATCH_BODY }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2")))
static uint64_t match_avx2(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) { MATCH_BODY }

__attribute__((target("avx512f,avx512vl,avx512bw")))
static uint64_t match_avx512(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) { MATCH_BODY }
#define HAVE_X86_MATCHERS 1
#endif

static Matcher chosen;
static const char *chosen_name = "scalar";

static Matcher matcher(void) {
    if (chosen) return chosen;
    Matcher m = match_scalar;
    const char *name = "scalar";
#ifdef HAVE_X86_MATCHERS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
        m = match_avx512; name = "avx512";
    } else if (__builtin_cpu_supports("avx2")) {
        m = match_avx2; name = "avx2";
    }
#endif
    chosen_name = name;  /* a race here writes the same values from every thread */
    chosen = m;
    return m;
}

const char *mq_matcher(void) { matcher(); return chosen_name; }

/* ---- the sieve -------------------------------------------------------------------------------- */

/* The bits both lists use most: the likeliest conflicts, cut out as bucket numbers. */
static int choose_cut(const List *top, const List *bottom, int bits, int cut, int positions[]) {
    uint64_t seen[2][64] = {{0}};
    const List *lists[2] = {top, bottom};
    for (int s = 0; s < 2; s++)  /* a sample is enough to rank the bits; evenly spread over the list */
        for (size_t i = 0, step = lists[s]->len / 512 + 1; i < lists[s]->len; i += step)
            for (uint64_t w = lists[s]->keys[i]; w; w &= w - 1) seen[s][__builtin_ctzll(w)]++;
    double score[64];
    for (int b = 0; b < bits; b++) score[b] = (double)seen[0][b] * (double)seen[1][b];
    for (int k = 0; k < cut; k++) {
        int best = 0;
        for (int b = 1; b < bits; b++) if (score[b] > score[best]) best = b;
        positions[k] = best;
        score[best] = -1;
    }
    return cut;
}

static unsigned bucket_of(uint64_t key, const int positions[], int cut) {
    unsigned v = 0;
    for (int k = 0; k < cut; k++) v |= (unsigned)(key >> positions[k] & 1) << k;
    return v;
}

/* Sort `from` into `into` by bucket (a counting sort); start[v]..start[v+1] is bucket v. */
static void by_bucket(const List *from, uint64_t *into, size_t start[], const int positions[], int cut) {
    size_t buckets = (size_t)1 << cut;
    memset(start, 0, (buckets + 1) * sizeof *start);
    for (size_t i = 0; i < from->len; i++) start[bucket_of(from->keys[i], positions, cut) + 1]++;
    for (size_t v = 0; v < buckets; v++) start[v + 1] += start[v];
    size_t *fill = start + buckets + 1;  /* scratch of `buckets` entries after the offsets */
    memcpy(fill, start, buckets * sizeof *fill);
    for (size_t i = 0; i < from->len; i++) into[fill[bucket_of(from->keys[i], positions, cut)]++] = from->keys[i];
}

typedef struct {
    List top, bottom;            /* as listed */
    List top_sorted, bottom_sorted;
    size_t top_start[2 << MAX_CUT], bottom_start[2 << MAX_CUT];
} Work;

static int reserve(List *list, size_t len) {
    if (list->cap >= len) return 0;
    uint64_t *grown = realloc(list->keys, len * sizeof *grown);
    if (!grown) return -1;
    list->keys = grown;
    list->cap = len;
    return 0;
}

/* The pairs of a top list and a bottom list with disjoint diagonals. */
static int join(Work *w, int bits, Matcher match, uint64_t *pairs, uint64_t *tests) {
    size_t nt = w->top.len, nb = w->bottom.len, smaller = nt < nb ? nt : nb;
    if (!smaller) { *pairs = 0; return 0; }
    int cut = 0;  /* about 64 words per bucket: long enough loops, few empty buckets */
    while (cut < MAX_CUT && (smaller >> (cut + 6)) > 0) cut++;
    int positions[MAX_CUT];
    choose_cut(&w->top, &w->bottom, bits, cut, positions);
    if (reserve(&w->top_sorted, nt) < 0 || reserve(&w->bottom_sorted, nb) < 0) return -1;
    by_bucket(&w->top, w->top_sorted.keys, w->top_start, positions, cut);
    by_bucket(&w->bottom, w->bottom_sorted.keys, w->bottom_start, positions, cut);
    unsigned all = (1u << cut) - 1;
    uint64_t found = 0, compared = 0;
    for (unsigned v = 0; v <= all; v++) {
        size_t a0 = w->top_start[v], na = w->top_start[v + 1] - a0;
        if (!na) continue;
        unsigned others = all & ~v;
        for (unsigned u = others;; u = (u - 1) & others) {  /* every bucket sharing no cut bit */
            size_t b0 = w->bottom_start[u], nbu = w->bottom_start[u + 1] - b0;
            if (nbu) {
                found += match(w->top_sorted.keys + a0, na, w->bottom_sorted.keys + b0, nbu);
                compared += (uint64_t)na * nbu;
            }
            if (!u) break;
        }
    }
    *pairs = found;
    *tests += compared;
    return 0;
}

/* ---- the count -------------------------------------------------------------------------------- */

static void add(MqTotal *sum, uint64_t pairs, unsigned weight, uint64_t scale) {
    unsigned __int128 term = (unsigned __int128)pairs * weight * scale;  /* < 2^106: pairs < 2^40 */
    unsigned __int128 total = ((unsigned __int128)sum->hi << 64 | sum->lo) + term;
    sum->lo = (uint64_t)total;
    sum->hi = (uint64_t)(total >> 64);
}

static uint64_t factorial(int k) {
    uint64_t f = 1;
    for (int i = 2; i <= k; i++) f *= (uint64_t)i;
    return f;
}

uint64_t mq_memory_bound(int n) {
    /* four lists of at most t! words (a set's permutations), and the bucket offsets */
    return 4 * factorial(mq_top_rows(n)) * sizeof(uint64_t) + sizeof(Work);
}

static void release(Work *w) {
    free(w->top.keys); free(w->bottom.keys); free(w->top_sorted.keys); free(w->bottom_sorted.keys);
    free(w);
}

int mq_count(int n, uint64_t first, uint64_t last, uint64_t scale, const volatile char *stop, MqCount *out) {
    memset(out, 0, sizeof *out);
    int top = mq_top_rows(n);
    uint64_t sets = mq_sets(n);
    if (last > sets) last = sets;
    if (first >= last) return 0;
    Work *w = calloc(1, sizeof *w);
    if (!w) return -1;
    Matcher match = matcher();
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    uint32_t set = unrank(first, n, top);
    int status = 0;
    for (uint64_t rank = first; rank < last; rank++, set = rank < last ? next_set(set) : set) {
        if (stop && *stop) { status = 1; break; }
        unsigned weight = orbit_weight(set, n);
        if (!weight) continue;
        list_halves(n, set, 0, &w->top);
        list_halves(n, ~set & full, 1, &w->bottom);
        uint64_t pairs = 0;
        if (w->top.failed || w->bottom.failed || join(w, 2 * (n - 1), match, &pairs, &out->tests) < 0) {
            status = -1;
            break;
        }
        out->sets++;
        out->halves += w->top.len + w->bottom.len;
        add(&out->solutions, pairs, weight, scale);
    }
    release(w);
    return status;
}
