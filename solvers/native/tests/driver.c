/* A test driver for the classes counter's plain C core (classcore.c), with no Python: it builds
 * with any C compiler for any target, which is how `make test-cross` checks the NEON and scalar
 * kernels on AArch64 under qemu-aarch64 (simpledriver.c does the same for the simple search's
 * core, with blocked cells).
 *
 *   driver check [N]          every kernel this CPU runs and the scalar kernel's baseline build
 *                             ("baseline"), n = 1..N (default 12): all solutions
 *                             against this file's own plain brute force, the D4 classes against
 *                             the OEIS terms written below; exit 1 on any difference
 *   driver count N [KERNEL]   Q(N) with one kernel (default: the best), and the seconds taken
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../classcore.h"

/* OEIS A002562, n = 1..16: the n-queens solutions up to rotation and reflection. */
static const unsigned long long A002562[] = {1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
                                             1846955};

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

/* The classes counter's classes for n (the 1x1 board's lone queen is a class of its own, and
 * boards of 2 and 3 have no solution: the core starts at n = 4, as the Python driver does). */
static int classes(int n, FqKernel k, FqClasses *sum) {
    memset(sum, 0, sizeof *sum);
    if (n < 4) { sum->c8 = 0; return n == 1 ? 1 : 0; }
    int depth = n < 8 ? 2 : 3;
    long count = fq_subproblems(n, depth, NULL, 1L << 30);
    FqPrefix *subs = malloc(sizeof *subs * (size_t)count);
    FqClasses *counts = calloc((size_t)count, sizeof *counts);
    char *finished = calloc((size_t)count, 1);
    if (!subs || !counts || !finished || (fq_subproblems(n, depth, subs, count), fq_count(n, subs, count, k, NULL, counts, finished)) < 0) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (long i = 0; i < count; i++) {
        if (!finished[i]) { fprintf(stderr, "subproblem %ld unfinished\n", i); exit(2); }
        sum->c2 += counts[i].c2; sum->c4 += counts[i].c4; sum->c8 += counts[i].c8; sum->nodes += counts[i].nodes;
    }
    free(subs); free(counts); free(finished);
    return 0;
}

static int check(int largest) {
    int failures = 0;
    printf("classes counter (classcore.c): each kernel this CPU runs, plain n queens\n");
    printf("CPU features: %s\n", fq_cpu_features()[0] ? fq_cpu_features() : "(none asked)");
    printf("%-8s %3s %12s %12s %10s %10s  %s\n", "kernel", "n", "solutions", "brute force", "D4 unique", "A002562", "");
    for (int k = 0; k <= FQ_KERNELS; k++) {     /* FQ_KERNELS: the scalar kernel's baseline build */
        if (k < FQ_KERNELS && !fq_kernel_supported((FqKernel)k)) continue;
        const char *name = k < FQ_KERNELS ? fq_kernel_names[k] : "baseline";
        for (int n = 1; n <= largest; n++) {
            FqClasses sum;
            int lone = classes(n, (FqKernel)k, &sum);
            unsigned long long total = lone + 2 * sum.c2 + 4 * sum.c4 + 8 * sum.c8;
            unsigned long long unique = lone + sum.c2 + sum.c4 + sum.c8;
            unsigned long long expected = brute(n, 0, 0, 0, 0);
            int ok = total == expected && unique == A002562[n - 1];
            failures += !ok;
            printf("%-8s %3d %12llu %12llu %10llu %10llu  %s\n", name, n, total, expected, unique,
                   A002562[n - 1], ok ? "ok" : "DIFFERENT");
        }
    }
    printf(failures ? "%d differences\n" : "all equal\n", failures);
    return failures ? 1 : 0;
}

static int count(int n, const char *name) {
    int k = name ? fq_kernel_index(name) : (int)fq_best_kernel();
    if (k < 0 || !fq_kernel_supported((FqKernel)k)) { fprintf(stderr, "kernel %s: not on this CPU\n", name); return 2; }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    FqClasses sum;
    int lone = classes(n, (FqKernel)k, &sum);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%llu %s %.3f s, %llu nodes\n", lone + 2 * sum.c2 + 4 * sum.c4 + 8 * sum.c8, fq_kernel_names[k],
           (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9, sum.nodes);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "check")) {
        int largest = argc > 2 ? atoi(argv[2]) : 12;
        if (largest < 1 || largest > 16) { fprintf(stderr, "check: N must be 1..16\n"); return 2; }
        return check(largest);
    }
    if (argc >= 3 && !strcmp(argv[1], "count")) {
        int n = atoi(argv[2]);
        if (n < 1 || n > FQ_MAX_N) { fprintf(stderr, "count: N must be 1..%d\n", FQ_MAX_N); return 2; }
        return count(n, argc > 3 ? argv[3] : NULL);
    }
    fprintf(stderr, "usage: driver check [N] | driver count N [scalar|sse2|avx2|avx512|neon]\n");
    return 2;
}
