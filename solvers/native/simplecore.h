/* The simple search's plain C core: a bitset backtracking search over the generic constraint
 * model, no Python, so it builds alone (the ARM cross test, solvers/native/tests/simpledriver.c)
 * and under the thin binding simple.c. simplecore.c explains the search; this header is what a
 * caller needs:
 *   1. kc_alloc(s, ncells, nlines, ncovers, target): every set zeroed;
 *   2. fill allowed, conflicts, lines, fixed and covers (kc_row names set i of a table);
 *   3. kc_start(s): the open cells at depth 0;
 *   4. kc_run(s, ...) as often as wanted (it resumes where it stopped); kc_free(s) at the end. */
#ifndef QUEENS_KERNELCORE_H
#define QUEENS_KERNELCORE_H

#include <stddef.h>
#include <stdint.h>

#define KC_MAX_CELLS 4096              /* 64 x 64 boards: beyond that nobody counts by search */
#define KC_MAX_WORDS (KC_MAX_CELLS / 64)

/* The board's cells are bits 0..ncells-1 in bitsets of `words` 64-bit words. */
typedef struct {
    int ncells, words, nlines, ncovers, target, done;
    uint64_t *allowed, *conflicts, *lines, *fixed, *covers;
    /* the explicit stack: per depth, the cells still open and the candidates left to try */
    uint64_t *avail, *cand;
    int *chosen;
    int depth;
    unsigned long long nodes, solutions;
} KcSearch;

/* Set i of a table of bitsets of `words` words. */
static inline uint64_t *kc_row(uint64_t *base, int words, int i) { return base + (size_t)i * words; }

/* Size s for the arguments (checked by the caller: 1 <= ncells <= KC_MAX_CELLS, 0 <= target
 * <= ncells, nlines 0 or target) and allocate every set, zeroed. Returns 0, or -1 when memory
 * ran out (then nothing is left allocated and s is zeroed). */
int kc_alloc(KcSearch *s, int ncells, int nlines, int ncovers, int target);

/* Whether one of `count` sets of `words` words has a bit at or past cell `ncells`. */
int kc_outside(const uint64_t *sets, int count, int words, int ncells);

/* After the sets are filled: the start, allowed cells neither fixed nor attacked by a fixed piece. */
void kc_start(KcSearch *s);

/* Run until `max_solutions` more solutions were found (0 = no limit), the search ends
 * (s->done), or the monotonic clock passes `deadline` (seconds; <= 0: none). Found solutions
 * go to `out` (target cells each) when it is not NULL. Returns the number found in this call. */
long long kc_run(KcSearch *s, long long max_solutions, double deadline, int *out);

/* Free every set and zero s (which may be zeroed and never allocated). */
void kc_free(KcSearch *s);

#endif
