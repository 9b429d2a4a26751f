/* Meet in the middle: n-queens totals Q(n) by joining half-boards instead of walking the tree.
 *
 * A solution splits into its top half (rows 0..h-1, h = floor(n/2)) and its bottom half (the
 * last h rows); an odd board has a middle row between them, whose queen (on column x) is fixed
 * first. The top half uses some set S of h columns, the bottom half exactly the others (but x),
 * so the solutions are grouped by unit (x, S): for each, list every top half on S and every
 * bottom half on the rest that the middle queen does not attack, and count the pairs whose
 * diagonals are disjoint. Rows and columns are matched exactly by the grouping; only diagonals
 * are compared, as one 64-bit word per half: the n-1 anti-diagonals and the n-1 diagonals that
 * both halves can reach (2(n-1) <= 62 bits for n <= 32).
 *
 * Comparing pairs is the work, so three things cut it down:
 *  - symmetry: mirroring the board left to right maps unit (x, S) to (n-1-x, mirror(S)), and
 *    turning it upside down maps the solutions of (x, S) to those of (x, the bottom's columns);
 *    only the smallest unit of each orbit is counted, times the orbit's size (up to 4);
 *  - a half is not searched row by row for each S: it is joined from two blocks of rows placed
 *    once per n (the tables), as the final join does (on the portable path a whole run of lower
 *    placements at a time, through their masks per bit: pair_lacking);
 *  - a sieve: k diagonal bits that both lists use most (two runs) are cut out as a bucket number;
 *    a top half in bucket v meets only bottom halves in buckets u with u & v == 0, so whole
 *    buckets of certain conflicts are never compared. Within two buckets the comparison is
 *    sliced: one list's buckets transposed into bit planes, so that 128, 256 or 512 pairs (as
 *    wide as the CPU's vectors: SSE2 or NEON, AVX2, AVX-512, chosen at run time) take a handful
 *    of vector ANDs (join_sliced, mitmslice.h); words too wide to slice (n > 23) meet word by word.
 *
 * Memory: one worker holds two lists per side, each of at most h! words (the permutations of h
 * columns); the tables at most n!/(n-k)! placements per block of k rows: mq_memory_bound() and
 * mq_tables_bound() state both before any work.
 *
 * The asserts state what the scheme relies on (a unit's sets have the right sizes and split
 * the columns, an orbit has 1, 2 or 4 units, the tables' offsets add up, a pairer writes
 * within the room it was given, a term fits the 128-bit sum); they run in the sanitiser builds
 * (make fuzz's Python driver) and the driver of make test-cross, and are compiled out of the
 * normal one (setup.py passes -DNDEBUG).
 */
#include "mitmcore.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#define MAX_CUT 12
#ifndef BUCKET_SHIFT
#define BUCKET_SHIFT 5   /* about 2^5 words per bucket of the shorter list (measured: 4-5 best at n = 17, 18) */
#endif

/* ---- combinations: C(n, k), and the k-sets of n columns in colex order -------------------- */

static uint64_t binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t value = 1;
    for (int i = 1; i <= k; i++) value = value * (uint64_t)(n - k + i) / (uint64_t)i;  /* exact at each step */
    return value;
}

int mq_top_rows(int n) { return n / 2; }

/* Units: the top half's column sets, times the middle queen's columns on an odd board. */
uint64_t mq_sets(int n) { return binomial(n, n / 2) * (n % 2 ? (uint64_t)(n - n / 2) : 1); }

/* The set of rank `rank` among the k-sets in colex order (the order Gosper's hack walks). */
static uint64_t binomials[MQ_MAX_N + 1][MQ_MAX_N + 1];  /* filled by mq_prepare */

static uint32_t unrank(uint64_t rank, int n, int k) {
    assert(k >= 0 && k <= n && rank < binomials[n][k]);
    uint32_t set = 0;
    for (int i = k; i >= 1; i--) {
        int c = i - 1;
        while (c + 1 < n && binomials[c + 1][i] <= rank) c++;
        rank -= binomials[c][i];
        set |= 1u << c;
    }
    assert(__builtin_popcount(set) == k && rank == 0);
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

/* A unit: the middle queen's column (-1 on an even board) and the top half's columns. */
typedef struct {
    int middle;
    uint32_t set;
} Unit;

/* Unit `rank`: the top half's set is the h-set of rank rank / (n - h) (odd boards; every rank
 * on even ones), the middle queen's column the (rank % (n - h))-th column outside it, so the
 * units of one top set come together and share its list of top halves. */
static Unit unit_of(uint64_t rank, int n) {
    int h = n / 2;
    assert(rank < mq_sets(n));
    if (n % 2 == 0) return (Unit){-1, unrank(rank, n, h)};
    uint32_t set = unrank(rank / (uint64_t)(n - h), n, h), outside = ~set;
    for (uint64_t skip = rank % (uint64_t)(n - h); skip; skip--) outside &= outside - 1;
    return (Unit){__builtin_ctz(outside), set};
}

static uint64_t unit_order(Unit u) { return (uint64_t)(uint32_t)(u.middle + 1) << 32 | u.set; }

/* How many units the orbit of u holds if u is its smallest, else 0 (counted elsewhere). */
static unsigned orbit_weight(Unit u, int n) {
    uint32_t rest = (n == 32 ? 0xffffffffu : (1u << n) - 1) & ~(u.middle >= 0 ? 1u << u.middle : 0);
    int flipped = u.middle >= 0 ? n - 1 - u.middle : -1;
    /* itself, mirrored, upside down (the bottom's columns on top), and both */
    Unit images[4] = {u, {flipped, mirror(u.set, n)}, {u.middle, rest & ~u.set}, {flipped, mirror(rest & ~u.set, n)}};
    unsigned distinct = 0;
    for (int i = 0; i < 4; i++) {
        if (unit_order(images[i]) < unit_order(u)) return 0;
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= unit_order(images[j]) == unit_order(images[i]);
        distinct += !seen;
    }
    assert(distinct == 1 || distinct == 2 || distinct == 4);   /* an orbit of a group of order 4 */
    return distinct;
}

/* ---- the matchers: pairs of words with no common bit ---------------------------------------- */

/* Whole words against whole words: only for words too wide for the sliced join (n > 23), see
 * join. Four top words against eight bottom words at a time, the counts kept in eight lanes until
 * the end: the compiler turns the lane loop into vector tests and adds, one load of bottom words
 * serving four top words. */
#define MATCH_BODY                                                                  \
    uint64_t lanes[4][8] = {{0}}, count = 0;                                        \
    size_t wide = nb & ~(size_t)7, i = 0;                                           \
    for (; i + 3 < na; i += 4) {                                                    \
        uint64_t x0 = a[i], x1 = a[i + 1], x2 = a[i + 2], x3 = a[i + 3];            \
        for (size_t j = 0; j < wide; j += 8)                                        \
            for (int l = 0; l < 8; l++) {                                           \
                uint64_t y = b[j + l];                                              \
                lanes[0][l] += (x0 & y) == 0;                                       \
                lanes[1][l] += (x1 & y) == 0;                                       \
                lanes[2][l] += (x2 & y) == 0;                                       \
                lanes[3][l] += (x3 & y) == 0;                                       \
            }                                                                       \
        for (size_t j = wide; j < nb; j++)                                          \
            count += ((x0 & b[j]) == 0) + ((x1 & b[j]) == 0) + ((x2 & b[j]) == 0) + ((x3 & b[j]) == 0); \
    }                                                                               \
    for (; i < na; i++)                                                             \
        for (size_t j = 0; j < nb; j++) count += (a[i] & b[j]) == 0;                \
    for (int l = 0; l < 8; l++) count += lanes[0][l] + lanes[1][l] + lanes[2][l] + lanes[3][l]; \
    return count;

typedef uint64_t (*Matcher)(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

static uint64_t match_scalar(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) { MATCH_BODY }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2")))
static uint64_t match_avx2(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) { MATCH_BODY }

/* AVX-512 by hand: per eight bottom words, one test (vptestnmq) and one masked add per top
 * word, four top words per load. The buckets are padded (4 top words, 8 bottom words). */
__attribute__((target("avx512f,avx512vl,avx512bw")))
static uint64_t match_avx512(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
    __m512i one = _mm512_set1_epi64(1), sum0 = _mm512_setzero_si512(), sum1 = sum0, sum2 = sum0, sum3 = sum0;
    for (size_t i = 0; i < na; i += 4) {
        __m512i x0 = _mm512_set1_epi64((long long)a[i]), x1 = _mm512_set1_epi64((long long)a[i + 1]);
        __m512i x2 = _mm512_set1_epi64((long long)a[i + 2]), x3 = _mm512_set1_epi64((long long)a[i + 3]);
        for (size_t j = 0; j < nb; j += 8) {
            __m512i y = _mm512_loadu_si512((const void *)(b + j));
            sum0 = _mm512_mask_add_epi64(sum0, _mm512_testn_epi64_mask(x0, y), sum0, one);
            sum1 = _mm512_mask_add_epi64(sum1, _mm512_testn_epi64_mask(x1, y), sum1, one);
            sum2 = _mm512_mask_add_epi64(sum2, _mm512_testn_epi64_mask(x2, y), sum2, one);
            sum3 = _mm512_mask_add_epi64(sum3, _mm512_testn_epi64_mask(x3, y), sum3, one);
        }
    }
    __m512i sum = _mm512_add_epi64(_mm512_add_epi64(sum0, sum1), _mm512_add_epi64(sum2, sum3));
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}
#define HAVE_X86_MATCHERS 1

#endif

/* The pairs of a half's two blocks, when a half-board is listed (list_half): the upper
 * placements u0..u1 against the lower ones on the set of rank `rank`, each compatible pair's word
 * (and, when `mids`, its word against the middle row) appended, their number returned. */
typedef struct Block Block;
typedef size_t (*Pairer)(uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle,
                         const Block *low, uint64_t rank);

/* Of `len` words, those whose words against the middle row (`mids`) meet not `middle`, into
 * `keys`: an odd board's top halves for one column of the middle queen (top_halves). */
typedef size_t (*Filter)(uint64_t *keys, const uint64_t *words, const uint64_t *mids, size_t len, uint64_t middle);

/* The sliced join's inner work at one vector width, and its sort's first pass (mitmslice.h). */
typedef struct Chunks Chunks;
typedef uint64_t (*Slicer)(void *tables, const uint32_t *words, size_t len, size_t real, const Chunks *chunks,
                           const uint16_t (*at)[4], const size_t start[], unsigned others);
typedef struct Cut Cut;
typedef void (*Narrower)(const uint64_t *keys, size_t len, const Cut *cut, uint16_t *tags, uint32_t *words);

enum { WIDTHS = 3 };  /* the sliced join's slices: 128 << k words, k < WIDTHS */

/* What one kind of CPU runs, chosen once at run time: path() (after the pieces). */
typedef struct {
    const char *name;         /* "scalar", "avx2" or "avx512" (QUEENS_MITM_MATCHER's names) */
    Matcher match;            /* the join of whole words, when they are too wide to slice (n > 23) */
    Pairer pair;              /* the listing's (pair_lacking: the portable one, with tables of its own) */
    Filter filter;            /* and the middle queen's filter of top halves (odd boards) */
    Slicer slice[WIDTHS];     /* the sliced join's, at 128, 256 and 512 bits */
    unsigned weight[WIDTHS];  /* and the cost of one slice at each (slice_width) */
    int widths;               /* how many of them the path has */
    Narrower narrow;          /* the sliced join's sort's first pass */
    int sliced_shift;         /* about 2^sliced_shift words per bucket of the sliced list */
} Path;

static const Path *path(void);

const char *mq_matcher(void) { return path()->name; }

/* ---- listing half-boards -------------------------------------------------------------------- */

typedef struct {
    uint64_t *keys;
    size_t len, cap;
} List;

static int reserve(List *list, size_t len) {
    if (list->cap >= len) return 0;
    uint64_t *grown = realloc(list->keys, len * sizeof *grown);
    if (!grown) return -1;
    list->keys = grown;
    list->cap = len;
    return 0;
}

/* Room for `need` words, grown to twice that so that appends stay amortised. */
static int ensure(List *list, size_t need) { return list->cap >= need ? 0 : reserve(list, 2 * need); }

/* A half-board is listed from two blocks of rows, each placed once for the whole count (the
 * tables): the block above its split row and the block below, each grouped by the columns it
 * uses. A half on the columns S is then every pair (upper placement on X, lower placement on
 * S \ X) whose diagonals are disjoint, for every X in S of the upper block's size: tested as
 * one word against one word, as in the final join, instead of searching S row by row again. */

struct Block {
    uint64_t *check, *key;  /* per placement: the word against the other block, its part of the half's word */
    uint64_t *mid;          /* its word against the middle row (odd boards) */
    size_t *start;          /* placements on the set of colex rank r: start[r] .. start[r+1] */
    /* the portable pairer's (pair_lacking), else NULL: */
    uint64_t *lacking;      /* lower block: per set, per 64 placements, per window bit: those without it */
    size_t *lacking_at;     /* where the set of rank r starts in `lacking` */
    size_t group;           /* the masks per 64 placements: 2(n-1) + 1 */
    uint64_t *have;         /* upper block: per placement, the bits of its check word, a byte each */
    int queens;
};

typedef struct {
    Block upper, lower;
} Half;

struct MqTables {
    int n, h, join;         /* the halves' rows, the bottom half's first row (h, or h + 1 after a middle row) */
    Half half[2];           /* the top half (rows 0..h-1) and the bottom half (rows join..n-1) */
};

static void fill_binomials(void) {
    for (int m = 0; m <= MQ_MAX_N; m++)
        for (int k = 0; k <= m; k++) binomials[m][k] = binomial(m, k);
}

/* The colex rank of a set among the sets of its size. */
static uint64_t rank_of(uint32_t set) {
    uint64_t rank = 0;
    for (int i = 1; set; i++, set &= set - 1) rank += binomials[__builtin_ctz(set)][i];
    return rank;
}

/* The diagonals of a placement, as one word: the n-1 anti-diagonals from `anti_from` and the
 * n-1 diagonals from `diag_from`, the window that both sides of a row split can reach. `anti`
 * holds bit row+col per queen, `diag` bit col-row+n-1 (absolute, < 2n-1). */
static uint64_t window(int n, uint64_t anti, uint64_t diag, int anti_from, int diag_from) {
    uint64_t w = (1ull << (n - 1)) - 1;
    return (anti >> anti_from & w) | (diag >> diag_from & w) << (n - 1);
}

typedef struct {
    uint32_t columns;
    uint64_t anti, diag;
} Placement;

typedef struct {
    Placement *all;
    size_t len, cap;
    int failed;
} Placements;

static void place(int n, int row, int last, uint32_t columns, uint64_t anti, uint64_t diag, Placements *out) {
    assert(row >= 0 && row <= last && last < n);
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    uint32_t open = full & ~columns & ~(uint32_t)(anti >> row) & ~(uint32_t)(diag >> (n - 1 - row));
    while (open) {
        uint32_t bit = open & -open;
        open ^= bit;
        uint64_t a = anti | (uint64_t)bit << row, d = diag | (uint64_t)bit << (n - 1 - row);
        if (row < last) { place(n, row + 1, last, columns | bit, a, d, out); continue; }
        if (out->len == out->cap) {
            size_t cap = out->cap ? 2 * out->cap : 4096;
            Placement *grown = realloc(out->all, cap * sizeof *grown);
            if (!grown) { out->failed = 1; return; }
            out->all = grown;
            out->cap = cap;
        }
        out->all[out->len++] = (Placement){columns | bit, a, d};
    }
}

/* The portable pairer's tables (see pair_lacking). A lower block's check words transposed per
 * set: the set of rank r with k placements holds ceil(k / 64) groups of 2(n-1) + 1 masks, mask b
 * of group g having bit j set when placement 64g + j lacks window bit b; mask 2(n-1) has every
 * placement. An upper block's check bits, listed: `have_words` words per placement, a bit number
 * per byte, padded with 2(n-1), the mask that removes none (two diagonals per queen: 2 bits). */
static size_t have_words(int queens) { return (2 * (size_t)queens + 7) / 8; }

static int transpose_block(Block *b, int n) {
    int bits = 2 * (n - 1);
    uint64_t sets = binomials[n][b->queens];
    b->group = (size_t)bits + 1;
    b->lacking_at = malloc((sets + 1) * sizeof *b->lacking_at);
    if (!b->lacking_at) return -1;
    b->lacking_at[0] = 0;
    for (uint64_t r = 0; r < sets; r++)
        b->lacking_at[r + 1] = b->lacking_at[r] + (b->start[r + 1] - b->start[r] + 63) / 64 * b->group;
    b->lacking = calloc(b->lacking_at[sets] ? b->lacking_at[sets] : 1, sizeof *b->lacking);
    if (!b->lacking) return -1;
    for (uint64_t r = 0; r < sets; r++) {
        size_t first = b->start[r], k = b->start[r + 1] - first;
        uint64_t *lacking = b->lacking + b->lacking_at[r];
        for (size_t j = 0; j < k; j++) {
            uint64_t *group = lacking + j / 64 * b->group;
            for (int bit = 0; bit <= bits; bit++)
                if (bit == bits || !(b->check[first + j] >> bit & 1)) group[bit] |= 1ull << j % 64;
        }
    }
    return 0;
}

static int list_bits(Block *b, int n) {
    size_t placements = b->start[binomials[n][b->queens]], per = have_words(b->queens);
    b->have = malloc((placements ? placements : 1) * per * sizeof *b->have);
    if (!b->have) return -1;
    for (size_t i = 0; i < placements; i++) {
        uint8_t bits[16];  /* 8 queens at most (n <= 32) */
        size_t t = 0;
        for (uint64_t c = b->check[i]; c; c &= c - 1) bits[t++] = (uint8_t)__builtin_ctzll(c);
        while (t < 8 * per) bits[t++] = (uint8_t)(2 * (n - 1));
        for (size_t g = 0; g < per; g++) {
            uint64_t packed = 0;
            for (int e = 0; e < 8; e++) packed |= (uint64_t)bits[8 * g + (size_t)e] << 8 * e;
            b->have[i * per + g] = packed;
        }
    }
    return 0;
}

/* Every placement of rows first..last-1, grouped by columns, with its words: the window at
 * `split` (against the other block of its half), at `join` (against the other half) and at
 * `mid` (against the middle row's queen). */
static int build_block(Block *b, int n, int first, int last, int split, int join, int mid) {
    Placements found = {0};
    place(n, first, last - 1, 0, 0, 0, &found);
    int queens = last - first;
    uint64_t sets = binomials[n][queens];
    b->queens = queens;
    b->start = calloc(sets + 2, sizeof *b->start);
    b->check = malloc((found.len ? found.len : 1) * sizeof *b->check);
    b->key = malloc((found.len ? found.len : 1) * sizeof *b->key);
    b->mid = malloc((found.len ? found.len : 1) * sizeof *b->mid);
    if (found.failed || !b->start || !b->check || !b->key || !b->mid) { free(found.all); return -1; }
    for (size_t i = 0; i < found.len; i++) b->start[rank_of(found.all[i].columns) + 2]++;
    for (uint64_t r = 0; r < sets; r++) b->start[r + 2] += b->start[r + 1];
    assert(b->start[sets + 1] == found.len);
    for (size_t i = 0; i < found.len; i++) {  /* start[r+1] is the fill point of rank r, then its end */
        const Placement *p = &found.all[i];
        assert(__builtin_popcount(p->columns) == queens);
        size_t at = b->start[rank_of(p->columns) + 1]++;
        b->check[at] = window(n, p->anti, p->diag, split, n - split);
        b->key[at] = window(n, p->anti, p->diag, join, n - join);
        b->mid[at] = window(n, p->anti, p->diag, mid, n - mid);
    }
    assert(b->start[sets] == found.len);   /* every placement filed under its set's rank */
    free(found.all);
    return 0;
}

static uint64_t block_bytes(const Block *b, int n) {
    uint64_t sets = binomials[n][b->queens], placements = b->start[sets];
    uint64_t bytes = placements * 3 * sizeof(uint64_t) + (sets + 2) * sizeof(size_t);
    if (b->lacking) bytes += b->lacking_at[sets] * sizeof(uint64_t) + (sets + 1) * sizeof(size_t);
    if (b->have) bytes += placements * have_words(b->queens) * sizeof(uint64_t);
    return bytes;
}

static void free_block(Block *b) {
    free(b->check); free(b->key); free(b->mid); free(b->start); free(b->lacking); free(b->lacking_at); free(b->have);
}

/* The bytes one block may take: a placement per sequence of distinct columns (n!/(n-k)!), and
 * the portable pairer's tables: a lower block's groups of masks (per set, one per 64 placements
 * started), an upper block's listed bits. */
static uint64_t block_bound(int n, int queens, int lower) {
    uint64_t placements = 1, sets = binomial(n, queens);
    for (int i = 0; i < queens; i++) placements *= (uint64_t)(n - i);
    uint64_t bytes = placements * 3 * sizeof(uint64_t) + (sets + 2) * sizeof(size_t);
    if (lower)
        return bytes + (placements / 64 + sets) * (2 * (uint64_t)n - 1) * sizeof(uint64_t) + (sets + 1) * sizeof(size_t);
    return bytes + placements * have_words(queens) * sizeof(uint64_t);
}

/* Rows of each half's upper block: half of the half, rounded down. */
static int upper_rows(int rows) { return rows / 2; }

uint64_t mq_tables_bound(int n) {
    int h = mq_top_rows(n);
    return 2 * (block_bound(n, upper_rows(h), 0) + block_bound(n, h - upper_rows(h), 1));
}

uint64_t mq_tables_bytes(const MqTables *t) {
    uint64_t bytes = sizeof *t;
    for (int h = 0; h < 2; h++) bytes += block_bytes(&t->half[h].upper, t->n) + block_bytes(&t->half[h].lower, t->n);
    return bytes;
}

void mq_release(MqTables *t) {
    if (!t) return;
    for (int h = 0; h < 2; h++) { free_block(&t->half[h].upper); free_block(&t->half[h].lower); }
    free(t);
}

static size_t pair_lacking(uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle,
                           const Block *low, uint64_t rank);  /* with the other pairers, below */

MqTables *mq_prepare(int n) {
    if (n < MQ_MIN_N || n > MQ_MAX_N) return NULL;
    if (!binomials[1][1]) fill_binomials();  /* the same values from every thread that races here */
    MqTables *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n = n;
    t->h = mq_top_rows(n);
    t->join = n - t->h;
    int rows[2][2] = {{0, t->h}, {t->join, n}}, mid[2] = {t->h, t->h + 1};  /* the middle row's own windows */
    int portable = path()->pair == pair_lacking;  /* the portable pairer's tables, only for it */
    for (int h = 0; h < 2; h++) {
        int first = rows[h][0], last = rows[h][1], split = first + upper_rows(last - first);
        if (build_block(&t->half[h].upper, n, first, split, split, t->join, mid[h]) < 0
            || build_block(&t->half[h].lower, n, split, last, split, t->join, mid[h]) < 0
            || (portable && (transpose_block(&t->half[h].lower, n) < 0 || list_bits(&t->half[h].upper, n) < 0))) {
            mq_release(t);
            return NULL;
        }
    }
    return t;
}

/* One upper placement against a run of lower ones: append key | lk[j] (and mid | lm[j] when
 * `mids`) for every j whose check word meets neither `check` nor, through lm, `middle`. Plain C:
 * the AVX2 pairer's tail, and the portable path's filter. */
static size_t pair_scalar(uint64_t *keys, uint64_t *mids, uint64_t key, uint64_t mid, uint64_t check,
                          uint64_t middle, const uint64_t *lc, const uint64_t *lk, const uint64_t *lm, size_t nl) {
    size_t len = 0;
    for (size_t j = 0; j < nl; j++) {  /* branch-free: write always, keep when compatible */
        keys[len] = key | lk[j];
        if (mids) mids[len] = mid | lm[j];
        len += ((check & lc[j]) | (middle & lm[j])) == 0;
    }
    return len;
}

/* A filter through a pairer: an empty upper part (words 0) meets nothing, the middle queen decides. */
static size_t filter_scalar(uint64_t *keys, const uint64_t *words, const uint64_t *mids, size_t len, uint64_t middle) {
    return pair_scalar(keys, NULL, 0, 0, 0, middle, mids, words, mids, len);
}

/* A pairer from one of one upper placement (pair_scalar's kind): every upper placement in turn,
 * inlined into each vector pairer so that a run of them costs one call (at Q(18) the listing
 * took 5-7 % longer with a call and a request for room per upper placement). */
static inline __attribute__((always_inline)) size_t
pair_each(size_t (*one)(uint64_t *, uint64_t *, uint64_t, uint64_t, uint64_t, uint64_t, const uint64_t *,
                        const uint64_t *, const uint64_t *, size_t),
          uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle, const Block *low,
          uint64_t rank) {
    size_t l0 = low->start[rank], nl = low->start[rank + 1] - l0, len = 0;
    const uint64_t *lc = low->check + l0, *lk = low->key + l0, *lm = low->mid + l0;
    for (size_t i = u0; i < u1; i++) {
        if (middle & up->mid[i]) continue;  /* the middle queen attacks the upper placement */
        len += one(keys + len, mids ? mids + len : NULL, up->key[i], up->mid[i], up->check[i], middle, lc, lk, lm, nl);
    }
    return len;
}

#ifdef HAVE_X86_MATCHERS
/* AVX-512: eight lower placements per step, the compatible ones compressed into place (the
 * caller leaves 8 words of room past the run). */
__attribute__((target("avx512f,avx512vl,avx512bw")))
static inline size_t pair_one_avx512(uint64_t *keys, uint64_t *mids, uint64_t key, uint64_t mid, uint64_t check,
                                     uint64_t middle, const uint64_t *lc, const uint64_t *lk, const uint64_t *lm,
                                     size_t nl) {
    __m512i vkey = _mm512_set1_epi64((long long)key), vmid = _mm512_set1_epi64((long long)mid);
    __m512i vcheck = _mm512_set1_epi64((long long)check), vmiddle = _mm512_set1_epi64((long long)middle);
    size_t len = 0;
    for (size_t j = 0; j < nl; j += 8) {
        __mmask8 in = nl - j >= 8 ? 0xff : (__mmask8)((1u << (nl - j)) - 1);
        __m512i m = _mm512_maskz_loadu_epi64(in, lm + j);
        __mmask8 keep = _mm512_mask_testn_epi64_mask(in, vcheck, _mm512_maskz_loadu_epi64(in, lc + j));
        keep = _mm512_mask_testn_epi64_mask(keep, vmiddle, m);
        /* compressed in a register, stored whole (a compressing store is microcode on some CPUs):
         * the words past the kept ones are overwritten next, or lie in the list's spare room */
        _mm512_storeu_si512((void *)(keys + len),
                            _mm512_maskz_compress_epi64(keep, _mm512_or_si512(vkey, _mm512_maskz_loadu_epi64(in, lk + j))));
        if (mids) _mm512_storeu_si512((void *)(mids + len), _mm512_maskz_compress_epi64(keep, _mm512_or_si512(vmid, m)));
        len += (size_t)__builtin_popcount(keep);
    }
    return len;
}

__attribute__((target("avx512f,avx512vl,avx512bw")))
static size_t pair_avx512(uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle,
                          const Block *low, uint64_t rank) {
    return pair_each(pair_one_avx512, keys, mids, up, u0, u1, middle, low, rank);
}

__attribute__((target("avx512f,avx512vl,avx512bw")))
static size_t filter_avx512(uint64_t *keys, const uint64_t *words, const uint64_t *mids, size_t len, uint64_t middle) {
    return pair_one_avx512(keys, NULL, 0, 0, 0, middle, mids, words, mids, len);
}

/* AVX2: four lower placements per step, the compatible ones moved to the front by a
 * permutation looked up by their mask (AVX2 has no compress), the vector stored whole. */
static const int32_t left_pack[16][8] = {  /* per 4-bit mask: the 32-bit lanes of its 64-bit lanes, first */
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0}, {2, 3, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 0, 0, 0, 0},
    {4, 5, 0, 0, 0, 0, 0, 0}, {0, 1, 4, 5, 0, 0, 0, 0}, {2, 3, 4, 5, 0, 0, 0, 0}, {0, 1, 2, 3, 4, 5, 0, 0},
    {6, 7, 0, 0, 0, 0, 0, 0}, {0, 1, 6, 7, 0, 0, 0, 0}, {2, 3, 6, 7, 0, 0, 0, 0}, {0, 1, 2, 3, 6, 7, 0, 0},
    {4, 5, 6, 7, 0, 0, 0, 0}, {0, 1, 4, 5, 6, 7, 0, 0}, {2, 3, 4, 5, 6, 7, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 7},
};

__attribute__((target("avx2")))
static inline size_t pair_one_avx2(uint64_t *keys, uint64_t *mids, uint64_t key, uint64_t mid, uint64_t check,
                                   uint64_t middle, const uint64_t *lc, const uint64_t *lk, const uint64_t *lm,
                                   size_t nl) {
    __m256i vkey = _mm256_set1_epi64x((long long)key), vmid = _mm256_set1_epi64x((long long)mid);
    __m256i vcheck = _mm256_set1_epi64x((long long)check), vmiddle = _mm256_set1_epi64x((long long)middle);
    __m256i zero = _mm256_setzero_si256();
    size_t len = 0, j = 0;
    for (; j + 4 <= nl; j += 4) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(lm + j));
        __m256i meets = _mm256_or_si256(_mm256_and_si256(vcheck, _mm256_loadu_si256((const __m256i *)(lc + j))),
                                        _mm256_and_si256(vmiddle, m));
        unsigned keep = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(meets, zero)));
        __m256i order = _mm256_loadu_si256((const __m256i *)left_pack[keep]);
        __m256i k = _mm256_or_si256(vkey, _mm256_loadu_si256((const __m256i *)(lk + j)));
        _mm256_storeu_si256((__m256i *)(keys + len), _mm256_permutevar8x32_epi32(k, order));
        if (mids) _mm256_storeu_si256((__m256i *)(mids + len), _mm256_permutevar8x32_epi32(_mm256_or_si256(vmid, m), order));
        len += (size_t)__builtin_popcount(keep);
    }
    return len + pair_scalar(keys + len, mids ? mids + len : NULL, key, mid, check, middle, lc + j, lk + j, lm + j,
                             nl - j);
}

__attribute__((target("avx2")))
static size_t pair_avx2(uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle,
                        const Block *low, uint64_t rank) {
    return pair_each(pair_one_avx2, keys, mids, up, u0, u1, middle, low, rank);
}

__attribute__((target("avx2")))
static size_t filter_avx2(uint64_t *keys, const uint64_t *words, const uint64_t *mids, size_t len, uint64_t middle) {
    return pair_one_avx2(keys, NULL, 0, 0, 0, middle, mids, words, mids, len);
}
#endif

enum { MOST_LOWERS = 40320 };  /* a lower block's placements on one set: 8! at most (n <= 32: 8 rows) */

/* The AND of the masks of eight bits, one per byte of `have`. */
static inline uint64_t lacking8(const uint64_t *lacking, uint64_t have) {
    return lacking[have & 255] & lacking[have >> 8 & 255] & lacking[have >> 16 & 255] & lacking[have >> 24 & 255]
         & lacking[have >> 32 & 255] & lacking[have >> 40 & 255] & lacking[have >> 48 & 255] & lacking[have >> 56];
}

/* The portable pairer: the upper placements u0..u1 against the lower ones on the set of rank
 * `rank`, 64 lowers at a time: those an upper placement meets nowhere are the ones the middle
 * queen leaves that survive an AND with the lacking mask of each bit of its check word, and
 * only they are read and written. At Q(18) an upper placement meets a run of 38 lowers in 8
 * ANDs and keeps 4 of them, where testing each lower took 400 instructions. The first four kept
 * are written without a branch (the room is there: every pair of the pick has room): looping
 * over the kept alone mispredicted its end about once per upper placement, and at Q(17), runs
 * of 12 lowers, listed slower than testing each lower (listing alone: 34 % slower); this way
 * the listing takes 3 % less time at Q(17) and 36 % less at Q(18). */
static size_t pair_lacking(uint64_t *keys, uint64_t *mids, const Block *up, size_t u0, size_t u1, uint64_t middle,
                           const Block *low, uint64_t rank) {
    size_t l0 = low->start[rank], nl = low->start[rank + 1] - l0, words = (nl + 63) / 64, len = 0;
    const uint64_t *lk = low->key + l0, *lm = low->mid + l0;
    uint64_t open[(MOST_LOWERS + 63) / 64];  /* the lowers the middle queen leaves */
    for (size_t w = 0; w < words; w++) open[w] = w + 1 < words ? ~0ull : ~0ull >> (64 * words - nl);
    if (middle)
        for (size_t j = 0; j < nl; j++) open[j / 64] &= ~((uint64_t)!!(middle & lm[j]) << j % 64);
    size_t per = have_words(up->queens);  /* 1 or 2: 16 bits for 8 queens */
    for (size_t i = u0; i < u1; i++) {
        if (middle & up->mid[i]) continue;  /* the middle queen attacks the upper placement */
        const uint64_t *lacking = low->lacking + low->lacking_at[rank];
        for (size_t w = 0; w < words; w++, lacking += low->group) {
            uint64_t kept = open[w] & lacking8(lacking, up->have[i * per]);
            if (per > 1) kept &= lacking8(lacking, up->have[i * per + 1]);
            size_t lowers = nl - 64 * w < 64 ? nl - 64 * w : 64;
            uint64_t last = 1ull << (lowers - 1);  /* a real lower to read when fewer than 4 are kept */
            for (int e = 0; e < 4; e++) {  /* branch-free: write always, keep the kept */
                size_t j = 64 * w + (size_t)__builtin_ctzll(kept | last);
                keys[len] = up->key[i] | lk[j];
                if (mids) mids[len] = up->mid[i] | lm[j];
                len += kept != 0;
                kept &= kept - 1;
            }
            for (; kept; kept &= kept - 1) {
                size_t j = 64 * w + (size_t)__builtin_ctzll(kept);
                keys[len] = up->key[i] | lk[j];
                if (mids) mids[len] = up->mid[i] | lm[j];
                len++;
            }
        }
    }
    return len;
}

/* Every half-board on the columns `set` that the middle queen (its word `middle`, 0 if none)
 * does not attack: the compatible pairs of its blocks' placements. */
static int list_half(const Half *h, uint32_t set, uint64_t middle, List *out, List *mids) {
    int positions[32], count = 0;
    for (uint32_t s = set; s; s &= s - 1) positions[count++] = __builtin_ctz(s);
    int k = h->upper.queens;
    assert(count == h->upper.queens + h->lower.queens);   /* the set is the half's columns */
    Pairer pair = path()->pair;
    out->len = 0;
    for (uint32_t pick = (1u << k) - 1; pick < (1u << count); pick = next_set(pick)) {
        uint32_t upper = 0;
        for (uint32_t p = pick; p; p &= p - 1) upper |= 1u << positions[__builtin_ctz(p)];
        uint64_t ru = rank_of(upper), rl = rank_of(set ^ upper);
        size_t u0 = h->upper.start[ru], u1 = h->upper.start[ru + 1];
        size_t nl = h->lower.start[rl + 1] - h->lower.start[rl];
        if (u0 == u1 || !nl) continue;
        /* room for every pair (and the pairers' spare 8): permutations of the set distinct from
         * those kept, h! in all */
        size_t need = out->len + (u1 - u0) * nl + 8;
        if (ensure(out, need) < 0 || (mids && ensure(mids, need) < 0)) return -1;
        size_t added = pair(out->keys + out->len, mids ? mids->keys + out->len : NULL, &h->upper, u0, u1, middle,
                            &h->lower, rl);
        assert(added <= (u1 - u0) * nl);   /* within the room reserved above */
        out->len += added;
    }
    return 0;
}

/* ---- the sieve -------------------------------------------------------------------------------- */

/* Where the sieve cuts: two runs of adjacent window bits (one may be empty), placed where both
 * lists use their bits most (the likeliest conflicts), so that a word's bucket number and its
 * narrow word (the other bits, packed) are a few shifts and masks on any CPU. The best single
 * bits cluster, so two runs hold most of them: at Q(18) the runs compared 8 % fewer pairs than
 * the best bits one by one, which needed a table lookup per byte of the word (or BMI2's pext,
 * microcode on some CPUs) to gather. */
struct Cut {
    int width;                       /* cut bits: a bucket number has this many */
    int low_shift, high_shift;       /* bucket = (w >> low_shift & low_mask) | (w >> high_shift & high_mask) */
    uint64_t low_mask, high_mask;
    uint64_t below, between, above;  /* the rest = (w & below) | (w >> len0 & between) | (w >> width & above) */
    int len0;
};

static inline unsigned bucket_of(uint64_t w, const Cut *c) {
    return (unsigned)((w >> c->low_shift & c->low_mask) | (w >> c->high_shift & c->high_mask));
}

static inline uint64_t rest_of(uint64_t w, const Cut *c) {
    return (w & c->below) | (w >> c->len0 & c->between) | (w >> c->width & c->above);
}

/* `count` bits from bit `from` (none when count <= 0). */
static uint64_t bits_from(int from, int count) {
    return count <= 0 ? 0 : (count >= 64 ? ~0ull : (1ull << count) - 1) << from;
}

/* The two runs of `cut` bits in all, within the `bits` bits of the window, that the lists use
 * most: the score of a bit is how often a sample of each list uses it, multiplied. */
static void choose_cut(const List *top, const List *bottom, int bits, int cut, Cut *c) {
    uint32_t seen[2][64] = {{0}};
    const List *lists[2] = {top, bottom};
    for (int s = 0; s < 2; s++)  /* a sample is enough to rank the bits; spread over the list */
        for (size_t i = 0, step = lists[s]->len / 64 + 1; i < lists[s]->len; i += step)
            for (uint64_t w = lists[s]->keys[i]; w; w &= w - 1) seen[s][__builtin_ctzll(w)]++;
    uint64_t sum[65] = {0};  /* sum[b]: the scores of bits below b */
    for (int b = 0; b < bits; b++) sum[b + 1] = sum[b] + (uint64_t)seen[0][b] * seen[1][b] + 1;  /* +1: every bit counts */
    int at0 = 0, at1 = bits, len0 = 0;
    uint64_t best = 0;
    for (int l0 = 0; l0 <= cut; l0++) {
        int l1 = cut - l0, low_at = 0;
        uint64_t low = 0;  /* the best low run of l0 bits ending at or below `edge`, then the high run from there */
        for (int edge = l0; edge + l1 <= bits; edge++) {
            if (sum[edge] - sum[edge - l0] >= low) {
                low = sum[edge] - sum[edge - l0];
                low_at = edge - l0;
            }
            if (low + sum[edge + l1] - sum[edge] > best) {
                best = low + sum[edge + l1] - sum[edge];
                at0 = low_at, at1 = edge, len0 = l0;
            }
        }
    }
    int len1 = cut - len0;
    c->width = cut;
    c->len0 = len0;
    c->low_shift = at0;
    c->low_mask = bits_from(0, len0);
    c->high_shift = at1 - len0;
    c->high_mask = bits_from(len0, len1);
    c->below = bits_from(0, at0);
    c->between = bits_from(at0, at1 - at0 - len0);
    c->above = bits_from(at1 - len0, bits - at1 - len1);
}

/* Sort `from` into `into` by bucket (a counting sort); start[v]..start[v+1] is bucket v, each
 * padded to a multiple of `pad` words with ~0, a word that meets every half (no half is 0: the
 * row next to the boundary always has a diagonal in the window), so the matcher has no tails.
 * `tags` keeps each word's bucket between the two passes. */
static void by_bucket(const List *from, uint64_t *into, uint16_t *tags, size_t start[], const Cut *c, size_t pad) {
    size_t buckets = (size_t)1 << c->width;
    memset(start, 0, (buckets + 1) * sizeof *start);
    for (size_t i = 0; i < from->len; i++) start[(tags[i] = (uint16_t)bucket_of(from->keys[i], c)) + 1]++;
    for (size_t v = 0; v < buckets; v++) start[v + 1] = start[v] + (start[v + 1] + pad - 1) / pad * pad;
    size_t *fill = start + buckets + 1;  /* scratch of `buckets` entries after the offsets */
    memcpy(fill, start, buckets * sizeof *fill);
    for (size_t i = 0; i < from->len; i++) into[fill[tags[i]]++] = from->keys[i];
    for (size_t v = 0; v < buckets; v++)
        for (size_t i = fill[v]; i < start[v + 1]; i++) into[i] = ~0ull;
}

/* ---- the sliced join ------------------------------------------------------------------------- */

/* Word against word, a pair took about an instruction, even 8 or 16 to a vector (a load, an
 * and, a compare or test, an add per vector of pairs). Sliced, the buckets of one list are cut into slices
 * of 128, 256 or 512 words, one per bit of a vector, each transposed into one vector per bit of
 * the words, and a word of the other list meets a whole slice in four table loads and ANDs
 * (mitmslice.h). At Q(18), 19 instructions per 128 pairs where the 4-lane matcher took 170. */

/* Chunk c of a facing word: `width[c]` bits from bit `from[c]`, its table's entry number. */
struct Chunks {
    int from[4], width[4];
};

enum { CHUNK_ENTRIES = 257 };  /* a chunk's table: 256 entries (chunk 0's next one: the zero entry) */

/* A carry-save adder: low + a + b = 2 * high + low, bitwise (on vectors of any width). */
#define CSA(high, low, a, b)                        \
    do {                                            \
        __typeof__(low) a_ = (a), u_ = (low) ^ a_;  \
        high = ((low) & a_) | (u_ & (b));           \
        low = u_ ^ (b);                             \
    } while (0)

/* Every width a path's vectors hold, each compiled for the path's target (a narrow slice in
 * AVX2's or AVX-512's encoding, with their registers): a bucket is sliced at the width that
 * suits its length (slice_width). The portable path: 128 bits in the compiler's portable
 * vectors, SSE2 on any x86-64, NEON on ARM. */
#define SLICE_BITS 128
#define SLICE_FN slice_128
#define SLICE_TARGET
#define SLICE_NARROW
#include "mitmslice.h"

#ifdef HAVE_X86_MATCHERS
#define AVX2_TARGET __attribute__((target("avx2")))
#define AVX512_TARGET __attribute__((target("avx512f,avx512vl,avx512bw")))
#define SLICE_BITS 128
#define SLICE_FN slice_128_avx2
#define SLICE_TARGET AVX2_TARGET
#include "mitmslice.h"
#define SLICE_BITS 256
#define SLICE_FN slice_256_avx2
#define SLICE_TARGET AVX2_TARGET
#define SLICE_NARROW
#include "mitmslice.h"

#define SLICE_BITS 128
#define SLICE_FN slice_128_avx512
#define SLICE_TARGET AVX512_TARGET
#include "mitmslice.h"
#define SLICE_BITS 256
#define SLICE_FN slice_256_avx512
#define SLICE_TARGET AVX512_TARGET
#include "mitmslice.h"
#define SLICE_BITS 512
#define SLICE_FN slice_512_avx512
#define SLICE_TARGET AVX512_TARGET
#define SLICE_NARROW
#include "mitmslice.h"
enum { MOST_SLICE = 512 };  /* the widest slice's words */
#else
enum { MOST_SLICE = 128 };
#endif

/* The width (k: 128 << k words) to slice a bucket of `len` words at, of a path's `widths`: the
 * fewest slices, each costing `weight[k]` (a wider vector's table takes longer to build and its
 * instructions may run slower); a tie goes to the narrower. */
static int slice_width(size_t len, int widths, const unsigned weight[WIDTHS]) {
    int best = 0;
    size_t best_cost = SIZE_MAX;
    for (int k = 0; k < widths; k++) {
        size_t words = (size_t)128 << k, cost = (len + words - 1) / words * weight[k];
        if (cost < best_cost) best = k, best_cost = cost;
    }
    return best;
}

/* The sliced join's sort: bucket by the cut bits, and keep only the other window bits, packed
 * into 32 bits; each bucket is padded with zeros (the sliced join knows its pads by where they
 * are, the real words of bucket v ending at ends[v]) to a whole slice of the width it is sliced
 * at when `widths` is given (the sliced list: slice_width, written to widths[v]), else to a
 * multiple of 8 words (the facing list: the count's groups of 8). The first pass (the path's
 * `narrow`: vectors) leaves each word's bucket and narrow word in `tags` and `words`; in one pass
 * with the counts the compiler kept it scalar, and the sort took 1.8 times as long at Q(18) on
 * the AVX-512 path, 1.25 times on the others. */
static void by_bucket32(const List *from, const Path *p, uint32_t *into, uint16_t *tags, uint32_t *words,
                        size_t start[], size_t ends[], const Cut *c, uint8_t *widths) {
    size_t buckets = (size_t)1 << c->width, len = from->len, half = len / 2;
    p->narrow(from->keys, len, c, tags, words);
    /* Two streams, the list's two halves, each with its own counts and fill points: neighbours in a
     * list often share a bucket, and one stream waited on its own last increment at every word. */
    size_t *first = start + buckets + 1, *second = first + buckets;  /* scratch after the offsets */
    memset(first, 0, 2 * buckets * sizeof *first);
    for (size_t i = 0; i < half; i++) {
        first[tags[i]]++;
        second[tags[half + i]]++;
    }
    if (len % 2) second[tags[len - 1]]++;
    start[0] = 0;
    for (size_t v = 0; v < buckets; v++) {  /* counts become fill points */
        size_t here = first[v] + second[v];
        first[v] = start[v];
        second[v] = start[v] + here - second[v];
        size_t pad = 8;
        if (widths) {
            widths[v] = (uint8_t)slice_width(here, p->widths, p->weight);
            pad = (size_t)128 << widths[v];
        }
        start[v + 1] = start[v] + (here + pad - 1) / pad * pad;
    }
    for (size_t i = 0; i < half; i++) {
        into[first[tags[i]]++] = words[i];
        into[second[tags[half + i]]++] = words[half + i];
    }
    if (len % 2) into[second[tags[len - 1]]++] = words[len - 1];
    for (size_t v = 0; v < buckets; v++) {  /* the second stream ends each bucket */
        ends[v] = second[v];
        for (size_t i = second[v]; i < start[v + 1]; i++) into[i] = 0;
    }
}

typedef struct {
    List top, bottom;            /* as listed */
    List top_all, top_mid;       /* odd boards: every top half on the set, and its words against the middle row */
    uint32_t listed;             /* the set top_all holds (0: none yet) */
    List top_sorted, bottom_sorted;
    size_t top_start[(3 << MAX_CUT) + 1], bottom_start[(3 << MAX_CUT) + 1];  /* offsets, then the sort's scratch */
    size_t top_end[1 << MAX_CUT], bottom_end[1 << MAX_CUT];  /* the sliced join's: where a bucket's pads start */
    Cut cut;
    uint16_t *tags;              /* bucket numbers, as long as the longer list */
    uint32_t *words;             /* the sliced join's words before the sort, as long */
    size_t tag_cap;
    uint32_t *top32, *bottom32;  /* the sliced join's sorted words */
    size_t narrow_cap;
    uint16_t (*offsets)[4];      /* the sliced join's facing words as table offsets */
    uint8_t widths[1 << MAX_CUT];  /* the sliced join's width per bucket (k: 128 << k words) */
    size_t offsets_cap;
    /* the sliced join's tables of one slice, from the first address in here aligned to a vector */
    unsigned char tables[(4 * CHUNK_ENTRIES + 1) * (MOST_SLICE / 8)];
} Work;

/* The join on narrow words (the window less the cut bits), sliced: the longer list is cut into
 * slices, the shorter one faces them (measured at Q(18): slicing the shorter, which builds half
 * the tables but allows fewer cut bits, ran 12 % more instructions). A sliced pad counts nowhere
 * (the tables leave it out), a facing pad reads the zero entry: both known by where they are,
 * so a narrow word has all 32 bits (30 before, with two marking the pads: at Q(19) that forced 6
 * cut bits instead of 4, 64 buckets of about 70 words, each in a slice of its own). */
static int join_sliced(Work *w, const Path *p, int rest, uint64_t *pairs, uint64_t *tests) {
    int top_sliced = w->top.len > w->bottom.len;
    const List *sliced = top_sliced ? &w->top : &w->bottom, *facing = top_sliced ? &w->bottom : &w->top;
    size_t need = sliced->len + ((size_t)128 << (p->widths - 1) << w->cut.width);
    if (w->narrow_cap < need) {
        uint32_t *top = realloc(w->top32, need * sizeof *top);
        if (top) w->top32 = top;
        uint32_t *bottom = top ? realloc(w->bottom32, need * sizeof *bottom) : NULL;
        if (!bottom) return -1;
        w->bottom32 = bottom;
        w->narrow_cap = need;
    }
    if (w->offsets_cap < need) {
        uint16_t (*grown)[4] = realloc(w->offsets, need * sizeof *grown);
        if (!grown) return -1;
        w->offsets = grown;
        w->offsets_cap = need;
    }
    uint32_t *slice_words = w->top32, *face_words = w->bottom32;
    size_t *slice_start = w->top_start, *face_start = w->bottom_start;
    size_t *slice_end = w->top_end, *face_end = w->bottom_end;
    by_bucket32(sliced, p, slice_words, w->tags, w->words, slice_start, slice_end, &w->cut, w->widths);
    by_bucket32(facing, p, face_words, w->tags, w->words, face_start, face_end, &w->cut, NULL);
    Chunks chunks;
    for (int c = 0, from = 0; c < 4; from += chunks.width[c++]) {
        chunks.from[c] = from;
        chunks.width[c] = (rest + 3 - c) / 4;
    }
    unsigned all = (1u << w->cut.width) - 1;
    int f1 = chunks.from[1], f2 = chunks.from[2], f3 = chunks.from[3];
    uint32_t m0 = (1u << chunks.width[0]) - 1, m1 = (1u << chunks.width[1]) - 1;
    uint32_t m2 = (1u << chunks.width[2]) - 1, m3 = (1u << chunks.width[3]) - 1;
    uint32_t entry = 128 / 8;  /* bytes of a 128-bit entry (a wider slice scales them) */
    for (unsigned v = 0; v <= all; v++)
        for (size_t i = face_start[v]; i < face_start[v + 1]; i++) {
            uint32_t x = face_words[i];
            w->offsets[i][0] = (uint16_t)((i < face_end[v] ? x & m0 : 256) * entry);  /* a pad: the zero entry */
            w->offsets[i][1] = (uint16_t)((x >> f1 & m1) * entry);
            w->offsets[i][2] = (uint16_t)((x >> f2 & m2) * entry);
            w->offsets[i][3] = (uint16_t)((x >> f3 & m3) * entry);
        }
    uintptr_t align = MOST_SLICE / 8;
    void *tables = (void *)(((uintptr_t)w->tables + align - 1) & ~(align - 1));
    uint64_t found = 0, compared = 0;
    for (unsigned u = 0; u <= all; u++) {
        size_t b0 = slice_start[u], b1 = slice_start[u + 1];
        if (b0 == b1) continue;
        unsigned others = all & ~u;
        size_t faced = 0;  /* the facing words that may meet bucket u */
        for (unsigned v = others;; v = (v - 1) & others) {
            faced += face_start[v + 1] - face_start[v];
            if (!v) break;
        }
        if (!faced) continue;
        found += p->slice[w->widths[u]](tables, slice_words + b0, b1 - b0, slice_end[u] - b0, &chunks, w->offsets,
                                        face_start, others);
        compared += (uint64_t)faced * (b1 - b0);
    }
    *pairs = found;
    *tests += compared;
    return 0;
}

/* ---- the paths --------------------------------------------------------------------------------- */

/* The sliced shifts as measured at Q(18) (one thread): 128 bits 7-9 alike (at n = 16 too), 256
 * bits 8 and 9 alike (26.95e9 and 26.92e9 instructions, and Q(17) 12.35e9 and 12.33e9), 512 bits
 * 9 and 10 alike, 8 slower (2.71 against 2.45 s). The weights of a slice per width: a 512-bit
 * slice's tables (64 KiB) leave the first-level cache, so a bucket takes one only when it needs
 * more than one slice of 256 bits (and one of 256 bits when one of 128 is too short). With every
 * bucket at the path's widest (before per-bucket widths), odd boards' buckets (Q(19): 64 of about
 * 70 words, the cut forced by the 30-bit words) filled an eighth of a 512-bit slice: Q(19) on
 * AVX-512 took 62.0 s against 42.6 s now (one thread, fresh processes in turns, 2026-11-28; AVX2
 * 44.5 against 42.4 s). The vector pairers list faster than pair_lacking when their
 * instructions are there (at Q(18), AVX-512 12-23 % less time listing, AVX2 12 %). */
static const Path paths[] = {
    {"scalar", match_scalar, pair_lacking, filter_scalar, {slice_128}, {1}, 1, slice_128_narrow, 8},
#ifdef HAVE_X86_MATCHERS
    {"avx2", match_avx2, pair_avx2, filter_avx2, {slice_128_avx2, slice_256_avx2}, {10, 11}, 2, slice_256_avx2_narrow,
     8},
    {"avx512", match_avx512, pair_avx512, filter_avx512, {slice_128_avx512, slice_256_avx512, slice_512_avx512},
     {10, 11, 16}, 3, slice_512_avx512_narrow, 9},
#endif
};

static const Path *chosen;

/* The best path this CPU runs, or the one QUEENS_MITM_MATCHER names (scalar, avx2, avx512: how
 * the tests check every path on one machine; a name this CPU cannot run is ignored). */
static const Path *path(void) {
    if (chosen) return chosen;
    const Path *best = &paths[0];
#ifdef HAVE_X86_MATCHERS
    const char *asked = getenv("QUEENS_MITM_MATCHER");
    __builtin_cpu_init();
    int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
              && __builtin_cpu_supports("avx512bw");
    int avx2 = __builtin_cpu_supports("avx2");
    if (asked && !strcmp(asked, "scalar")) avx512 = avx2 = 0;
    if (asked && !strcmp(asked, "avx2")) avx512 = 0;
    if (avx512) best = &paths[2];
    else if (avx2) best = &paths[1];
#endif
    chosen = best;  /* a race here writes the same value from every thread */
    return best;
}

/* ---- the join ---------------------------------------------------------------------------------- */

/* The pairs of a top list and a bottom list with disjoint diagonals. */
static int join(Work *w, int bits, uint64_t *pairs, uint64_t *tests) {
    size_t nt = w->top.len, nb = w->bottom.len, smaller = nt < nb ? nt : nb, longer = nt > nb ? nt : nb;
    if (!smaller) { *pairs = 0; return 0; }
    const Path *p = path();
    int narrow = bits - 32 <= MAX_CUT;  /* n <= 23: the sliced join, on words of 32 bits at most */
    /* sliced, about 2^sliced_shift words per bucket of the sliced list (full slices); else about
     * 2^BUCKET_SHIFT words per bucket of the shorter list: long enough loops, few empty buckets */
    size_t per = narrow ? longer >> p->sliced_shift : smaller >> BUCKET_SHIFT;
    int cut = 0;
    while (cut < MAX_CUT && (per >> cut) > 0) cut++;
    if (narrow && bits - cut > 32) cut = bits - 32;
    choose_cut(&w->top, &w->bottom, bits, cut, &w->cut);
    if (w->tag_cap < longer) {
        uint16_t *grown = realloc(w->tags, 2 * longer * sizeof *grown);
        if (grown) w->tags = grown;
        uint32_t *words = grown ? realloc(w->words, 2 * longer * sizeof *words) : NULL;
        if (!words) return -1;
        w->words = words;
        w->tag_cap = 2 * longer;
    }
    if (narrow) return join_sliced(w, p, bits - cut, pairs, tests);
    /* wider: `match` over every pair of a top bucket and a bottom bucket that share no cut bit */
    size_t padding = (size_t)16 << cut;  /* at most 15 pad words per bucket */
    if (reserve(&w->top_sorted, nt + padding) < 0 || reserve(&w->bottom_sorted, nb + padding) < 0) return -1;
    by_bucket(&w->top, w->top_sorted.keys, w->tags, w->top_start, &w->cut, 4);
    by_bucket(&w->bottom, w->bottom_sorted.keys, w->tags, w->bottom_start, &w->cut, 8);
    unsigned all = (1u << w->cut.width) - 1;
    uint64_t found = 0, compared = 0;
    for (unsigned v = 0; v <= all; v++) {
        size_t a0 = w->top_start[v], na = w->top_start[v + 1] - a0;
        if (!na) continue;
        unsigned others = all & ~v;
        for (unsigned u = others;; u = (u - 1) & others) {  /* every bucket sharing no cut bit */
            size_t b0 = w->bottom_start[u], nbu = w->bottom_start[u + 1] - b0;
            if (nbu) {
                found += p->match(w->top_sorted.keys + a0, na, w->bottom_sorted.keys + b0, nbu);
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
    assert(pairs < 1ull << 40 && weight <= 4);
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
    /* per worker, with `most` = h! (a set's permutations): four lists grown to twice their need
     * (top, bottom, and on odd boards every top half of the set and its middle words), two
     * sorted lists and two narrow ones with their pads (a slice's in the sliced join), the
     * sliced join's table offsets, the bucket numbers and narrow words before the sort, the
     * offsets and the slice tables (Work) */
    uint64_t most = factorial(mq_top_rows(n)), pads = (uint64_t)16 << MAX_CUT, slice_pads = (uint64_t)MOST_SLICE << MAX_CUT;
    return 4 * 2 * (most + 8) * sizeof(uint64_t) + 2 * (most + pads) * sizeof(uint64_t)
         + 2 * (most + slice_pads) * sizeof(uint32_t) + (most + slice_pads) * 4 * sizeof(uint16_t)
         + 2 * most * (sizeof(uint16_t) + sizeof(uint32_t)) + sizeof(Work);
}

static uint64_t work_bytes(const Work *w) {
    const List *lists[] = {&w->top, &w->bottom, &w->top_all, &w->top_mid, &w->top_sorted, &w->bottom_sorted};
    uint64_t bytes = sizeof *w + w->tag_cap * (sizeof *w->tags + sizeof *w->words) + 2 * w->narrow_cap * sizeof(uint32_t)
                   + w->offsets_cap * sizeof *w->offsets;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) bytes += lists[i]->cap * sizeof(uint64_t);
    return bytes;
}

static void release(Work *w) {
    free(w->top.keys); free(w->bottom.keys); free(w->top_sorted.keys); free(w->bottom_sorted.keys);
    free(w->top_all.keys); free(w->top_mid.keys); free(w->tags); free(w->words); free(w->top32); free(w->bottom32);
    free(w->offsets);
    free(w);
}

/* The middle queen's word against one half, whose window starts at row `split`. */
static uint64_t middle_word(int n, int x, int split) {
    int row = n / 2;
    return window(n, 1ull << (row + x), 1ull << (x - row + n - 1), split, n - split);
}

/* The top halves of a unit: listed once per set on an odd board (consecutive units share it),
 * then filtered by the middle queen's word. */
static int top_halves(const MqTables *t, Work *w, uint32_t set, uint64_t middle) {
    if (!middle) return list_half(&t->half[0], set, 0, &w->top, NULL);
    if (w->listed != set) {
        if (list_half(&t->half[0], set, 0, &w->top_all, &w->top_mid) < 0) return -1;
        w->listed = set;
    }
    if (ensure(&w->top, w->top_all.len + 8) < 0) return -1;
    w->top.len = path()->filter(w->top.keys, w->top_all.keys, w->top_mid.keys, w->top_all.len, middle);
    return 0;
}

int mq_count(const MqTables *t, uint64_t first, uint64_t last, uint64_t scale, const volatile char *stop,
             MqCount *out) {
    memset(out, 0, sizeof *out);
    int n = t->n;
    uint64_t units = mq_sets(n);
    if (last > units) last = units;
    if (first >= last) return 0;
    Work *w = calloc(1, sizeof *w);
    if (!w) return -1;
    uint32_t full = n == 32 ? 0xffffffffu : (1u << n) - 1;
    int status = 0;
    for (uint64_t rank = first; rank < last; rank++) {
        if (stop && *stop) { status = 1; break; }
        Unit u = unit_of(rank, n);
        unsigned weight = orbit_weight(u, n);
        if (!weight) continue;
        uint32_t rest = full & ~u.set & ~(u.middle >= 0 ? 1u << u.middle : 0);
        assert(__builtin_popcount(u.set) == t->h && __builtin_popcount(rest) == t->h
               && (u.middle < 0 || !(u.set >> u.middle & 1)));
        uint64_t above = u.middle >= 0 ? middle_word(n, u.middle, t->h) : 0;
        uint64_t below = u.middle >= 0 ? middle_word(n, u.middle, t->h + 1) : 0;
        uint64_t pairs = 0;
        if (top_halves(t, w, u.set, above) < 0 || list_half(&t->half[1], rest, below, &w->bottom, NULL) < 0
            || join(w, 2 * (n - 1), &pairs, &out->tests) < 0) {
            status = -1;
            break;
        }
        out->units++;
        out->halves += w->top.len + w->bottom.len;
        add(&out->solutions, pairs, weight, scale);
    }
    out->bytes = work_bytes(w);
    release(w);
    return status;
}
