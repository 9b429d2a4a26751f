/* A test driver for the meet-in-the-middle counter's plain C core (mitmcore.c), with no Python:
 * it builds with any C compiler for any target, which is how `make test-cross` checks the core
 * (and its scalar matcher) on AArch64 under qemu-aarch64.
 *
 *   mitmdriver check [N]    n = 4..N (default 12) against this file's own brute force, and one
 *                           count with a scale of 2^62 against the brute force's total * 2^62
 *                           (the 128-bit sums); exit 1 on any difference
 *   mitmdriver count N      Q(N), the matcher, the pairs compared and the seconds taken
 *   mitmdriver count N A B  the same for the units of rank A..B-1 only (a part of Q(N)): how a
 *                           change is timed in turns on a sample of a large board's work
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../mitmcore.h"

/* Every solution, one row at a time, no symmetry: shares nothing with the core but the idea. */
static unsigned long long brute(int n, int row, unsigned cols, unsigned l, unsigned r) {
    if (row == n) return 1;
    unsigned long long total = 0;
    for (int c = 0; c < n; c++) {
        unsigned bit = 1u << c;
        if ((cols | l | r) & bit) continue;
        total += brute(n, row + 1, cols | bit, (l | bit) << 1, (r | bit) >> 1);
    }
    return total;
}

static MqCount part(int n, uint64_t first, uint64_t last, unsigned long long scale) {
    MqCount counted;
    MqTables *tables = mq_prepare(n);
    int status = tables ? mq_count(tables, first, last, scale, NULL, &counted) : -1;
    mq_release(tables);
    if (status != 0) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return counted;
}

static MqCount whole(int n, unsigned long long scale) { return part(n, 0, mq_sets(n), scale); }

static int check(int largest) {
    int failures = 0;
    printf("meet-in-the-middle counter (mitmcore.c), matcher %s\n", mq_matcher());
    for (int n = MQ_MIN_N; n <= largest; n++) {
        unsigned long long expected = brute(n, 0, 0, 0, 0);
        MqCount got = whole(n, 1);
        int ok = got.solutions.hi == 0 && got.solutions.lo == expected;
        printf("n=%2d  Q=%llu  brute=%llu  %s\n", n, (unsigned long long)got.solutions.lo, expected, ok ? "ok" : "DIFFERENT");
        failures += !ok;
    }
    /* 2^62 * Q(n): past 2^64 for n >= 8, so the high word must carry exactly Q(n) >> 2 */
    int n = largest < 10 ? largest : 10;
    unsigned long long q = brute(n, 0, 0, 0, 0);
    MqCount big = whole(n, 1ull << 62);
    int ok = big.solutions.lo == q << 62 && big.solutions.hi == q >> 2;
    printf("n=%2d  scale 2^62: hi=%llu lo=%llu  %s\n", n, (unsigned long long)big.solutions.hi,
           (unsigned long long)big.solutions.lo, ok ? "ok" : "DIFFERENT");
    failures += !ok;
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && argv[1][0] == 'c' && argv[1][1] == 'h') return check(argc > 2 ? atoi(argv[2]) : 12);
    if ((argc == 3 || argc == 5) && argv[1][0] == 'c') {
        int n = atoi(argv[2]);
        if (n < MQ_MIN_N || n > MQ_MAX_N) { fprintf(stderr, "n must be %d..%d\n", MQ_MIN_N, MQ_MAX_N); return 2; }
        uint64_t first = argc == 5 ? strtoull(argv[3], NULL, 10) : 0, last = argc == 5 ? strtoull(argv[4], NULL, 10) : mq_sets(n);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        MqCount got = part(n, first, last, 1);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        unsigned __int128 total = (unsigned __int128)got.solutions.hi << 64 | got.solutions.lo;
        printf("Q(%d) = %llu%s  matcher %s  units %llu  halves %llu  pairs compared %llu  %.3f s\n", n,
               (unsigned long long)total, got.solutions.hi ? " (+ high word)" : "", mq_matcher(),
               (unsigned long long)got.units, (unsigned long long)got.halves, (unsigned long long)got.tests, seconds);
        return 0;
    }
    fprintf(stderr, "usage: %s check [N] | count N [FIRST LAST]\n", argv[0]);
    return 2;
}
