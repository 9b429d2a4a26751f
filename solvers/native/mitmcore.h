/* The meet-in-the-middle n-queens counter's plain C core (mitmcore.c explains the scheme).
 * No Python here: the binding is mitmcount.c, and solvers/native/tests/mitmdriver.c runs the
 * core alone (how `make test-cross` checks it on AArch64 under qemu). */
#ifndef QUEENS_MITMCORE_H
#define QUEENS_MITMCORE_H

#include <stddef.h>
#include <stdint.h>

#define MQ_MIN_N 4
#define MQ_MAX_N 32      /* a half-board's diagonal window is 2(n-1) bits: one 64-bit word */
#define MQ_VERSION 1     /* bump when the split into column sets or the count changes */

/* A sum of solutions: 128 bits, since Q(29) and beyond pass 2^63 (and the test scale passes 2^64). */
typedef struct {
    uint64_t lo, hi;
} MqTotal;

typedef struct {
    MqTotal solutions;   /* sum over the range of weight * scale * (compatible half pairs) */
    uint64_t units;      /* canonical units counted (the others are their images) */
    uint64_t halves;     /* half-board placements listed */
    uint64_t tests;      /* pairs of halves compared word against word (after the sieve) */
    uint64_t bytes;      /* the most this worker held (its lists only grow: their final size) */
} MqCount;

/* Rows in each half: floor(n / 2) (an odd board's middle row lies between them). */
int mq_top_rows(int n);

/* Units of work: the top half's column sets, C(n, h) in colex order, each with every column the
 * middle row's queen can take on an odd board (n - h of them). Work is split by ranges of their
 * ranks, [first, last). */
uint64_t mq_sets(int n);

/* The bytes one worker may hold at most for board n, and the bytes the shared tables may take
 * (the bounds checked before any work). */
uint64_t mq_memory_bound(int n);
uint64_t mq_tables_bound(int n);

/* The blocks of rows every half-board is made of, placed once per n and shared read-only by
 * every worker; NULL when memory ran out or n is out of range. */
typedef struct MqTables MqTables;
MqTables *mq_prepare(int n);
void mq_release(MqTables *tables);
uint64_t mq_tables_bytes(const MqTables *tables);  /* what they hold (below mq_tables_bound) */

/* Count the solutions of the units of rank in [first, last): each
 * canonical unit's compatible pairs times the size of its symmetry orbit times `scale` (1; the
 * tests pass a large scale to force the 128-bit sums past 2^64). Returns 0, -1 when memory ran
 * out, 1 when a nonzero first byte of *stop stopped it early (`out` then holds a partial sum). */
int mq_count(const MqTables *tables, uint64_t first, uint64_t last, uint64_t scale, const volatile char *stop,
             MqCount *out);

/* Which matcher the CPU runs ("avx512", "avx2" or "scalar"): chosen at run time. */
const char *mq_matcher(void);

#endif
