/* The suite's ground truth: a plain bitset backtracking search over the generic constraint
 * model (models/ir.py), small enough to read in one sitting. Plain C with no Python in it
 * (simplecore.h); the binding simple.c checks the arguments and releases the GIL around it.
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
 * plain_reference.py in the tests is its plain-Python twin.
 *
 * The asserts state the search's invariants (a choice is a cell of the board that is still
 * open, the stack stays within its depth); they run in the sanitiser builds (make test-asan,
 * make fuzz) and are compiled out of the normal one (setup.py passes -DNDEBUG).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "simplecore.h"

#define CLOCK_EVERY 4096               /* look at the clock once per this many nodes */

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
static void load_candidates(KcSearch *s, int d) {
    assert(d >= 0 && d <= s->target && (!s->nlines || d < s->nlines));   /* target + 1 rows; depth 0 of target 0 too */
    uint64_t *avail = kc_row(s->avail, s->words, d), *cand = kc_row(s->cand, s->words, d);
    for (int w = 0; w < s->words; w++)
        cand[w] = s->nlines ? avail[w] & kc_row(s->lines, s->words, d)[w] : avail[w];
}

/* Covers hold when each contains a fixed piece or a chosen one. */
static int covers_hold(KcSearch *s) {
    uint64_t placed[KC_MAX_WORDS];
    memcpy(placed, s->fixed, sizeof(uint64_t) * s->words);
    for (int d = 0; d < s->target; d++) {
        assert(s->chosen[d] >= 0 && s->chosen[d] < s->ncells);
        placed[s->chosen[d] / 64] |= 1ULL << (s->chosen[d] % 64);
    }
    for (int j = 0; j < s->ncovers; j++)
        if (!intersects(placed, kc_row(s->covers, s->words, j), s->words)) return 0;
    return 1;
}

int kc_alloc(KcSearch *s, int ncells, int nlines, int ncovers, int target) {
    int W = (ncells + 63) / 64;
    s->ncells = ncells; s->words = W; s->nlines = nlines; s->ncovers = ncovers; s->target = target;
    s->allowed = calloc(W, sizeof(uint64_t));
    s->conflicts = calloc((size_t)ncells * W, sizeof(uint64_t));
    s->lines = calloc(nlines ? (size_t)nlines * W : 1, sizeof(uint64_t));
    s->fixed = calloc(W, sizeof(uint64_t));
    s->covers = calloc(ncovers ? (size_t)ncovers * W : 1, sizeof(uint64_t));
    s->avail = calloc((size_t)(target + 1) * W, sizeof(uint64_t));
    s->cand = calloc((size_t)(target + 1) * W, sizeof(uint64_t));
    s->chosen = calloc((size_t)target + 1, sizeof(int));
    if (s->allowed && s->conflicts && s->lines && s->fixed && s->covers && s->avail && s->cand && s->chosen)
        return 0;
    kc_free(s);
    return -1;
}

int kc_outside(const uint64_t *sets, int count, int words, int ncells) {
    int spare = words * 64 - ncells;
    if (spare <= 0) return 0;
    uint64_t outside = ~0ULL << (64 - spare);
    for (int i = 0; i < count; i++)
        if (sets[(size_t)i * words + words - 1] & outside) return 1;
    return 0;
}

void kc_start(KcSearch *s) {
    const int W = s->words;
    for (int w = 0; w < W; w++) s->avail[w] = s->allowed[w] & ~s->fixed[w];
    for (int i = 0; i < s->ncells; i++)
        if (s->fixed[i / 64] >> (i % 64) & 1)
            for (int w = 0; w < W; w++) s->avail[w] &= ~kc_row(s->conflicts, W, i)[w];
    load_candidates(s, 0);
}

void kc_free(KcSearch *s) {
    free(s->allowed); free(s->conflicts); free(s->lines); free(s->fixed); free(s->covers);
    free(s->avail); free(s->cand); free(s->chosen);
    *s = (KcSearch){0};
}

/* simplecore.h says what a call does; returns the number of solutions found in it. */
long long kc_run(KcSearch *s, long long max_solutions, double deadline, int *out) {
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
        uint64_t *cand = kc_row(s->cand, W, d);
        int x = lowest_bit(cand, W);
        if (x < 0) {                   /* no candidate left here: backtrack */
            if (d == 0) { s->done = 1; return found; }
            s->depth--;
            continue;
        }
        /* a candidate is a cell of the board, open at this depth: allowed, not fixed, and (with
         * lines) on line d; the caller's kc_outside keeps every set within the board */
        assert(x < s->ncells && (s->allowed[x / 64] >> (x % 64) & 1) && !(s->fixed[x / 64] >> (x % 64) & 1));
        assert((kc_row(s->avail, W, d)[x / 64] >> (x % 64) & 1)
               && (!s->nlines || (kc_row(s->lines, W, d)[x / 64] >> (x % 64) & 1)));
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
        assert(d + 1 < s->target);         /* the stack holds target + 1 rows: room for depth d + 1 */
        /* Without lines the next choices come after x (cand now holds exactly those). */
        uint64_t *from = s->nlines ? kc_row(s->avail, W, d) : cand;
        uint64_t *next = kc_row(s->avail, W, d + 1), *conflict = kc_row(s->conflicts, W, x);
        for (int w = 0; w < W; w++) next[w] = from[w] & ~conflict[w];
        next[x / 64] &= ~(1ULL << (x % 64));
        if (!s->nlines && popcount(next, W) < s->target - d - 1) continue;  /* too few cells left */
        s->depth = d + 1;
        load_candidates(s, d + 1);
    }
}

