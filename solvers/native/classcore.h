/* The classes counter's plain C core (n-queens by D4 symmetry class): no Python, so it builds
 * alone (the ARM cross test, solvers/native/tests/driver.c) and under the thin binding
 * classcount.c. classcore.c explains the scheme; this header is what a caller needs. */
#ifndef QUEENS_CLASSCORE_H
#define QUEENS_CLASSCORE_H

#include <stddef.h>
#include <stdint.h>

#define FQ_MAX_N 30             /* the lanes keep two carry bits above the board in 32 bits */
#define FQ_VERSION 1            /* bump when the subproblems or their counts change meaning */

typedef unsigned long long fq_u64;
typedef struct { fq_u64 c2, c4, c8, nodes; } FqClasses;  /* nodes: queens placed on the way */

/* A subproblem: the columns of rows 0..depth-1. */
typedef struct { int depth; uint8_t col[FQ_MAX_N]; } FqPrefix;

/* The kernels, in order of preference (best last); see fq_kernel_automatic for the two that
 * 'auto' passes over. */
typedef enum { FQ_SCALAR, FQ_SSE2, FQ_NEON, FQ_AVX2, FQ_AVX512, FQ_KERNELS } FqKernel;

/* Not a kernel of its own: the scalar kernel in its baseline build, whatever the CPU has, so
 * that tests check that build too on a CPU where `scalar` runs another (fq_scalar_build). */
#define FQ_SCALAR_BASELINE ((FqKernel)FQ_KERNELS)

extern const char *const fq_kernel_names[FQ_KERNELS];

/* Whether kernel k is in this binary (x86-64: scalar, sse2, avx2, avx512; AArch64: scalar, neon). */
int fq_kernel_compiled(FqKernel k);

/* Whether kernel k is in this binary and the CPU can run it. */
int fq_kernel_supported(FqKernel k);

/* Which build of the scalar kernel this CPU runs: "bmi1+bmi2" (x86-64 with BMI1 and BMI2) or
 * "baseline" (any CPU of the architecture). */
const char *fq_scalar_build(void);

/* The best kernel the CPU can run: what 'auto' means. */
/* Whether 'auto' may take kernel k: every kernel but the 4-lane ones (sse2, neon), which the
 * scalar kernel outruns (bench_native, 2026-11-24, AMD EPYC, Q(16): scalar 0.37x classic.c,
 * sse2 0.45x). NEON has not been timed on AArch64 hardware (qemu checks its counts, not its
 * speed); it shares sse2's source, so it is passed over too. Both stay forceable. */
int fq_kernel_automatic(FqKernel k);

FqKernel fq_best_kernel(void);

/* The kernel named `name`, or -1 for a name no build knows. */
int fq_kernel_index(const char *name);

/* The CPU features the dispatcher looks at, as "name name ..." of those present. */
const char *fq_cpu_features(void);

/* Every subproblem of `depth` rows for n, in order; fills `out` (if not NULL) up to `cap` and
 * returns how many there are, or cap + 1 when there are more than `cap`. */
long fq_subproblems(int n, int depth, FqPrefix *out, long cap);

/* Whether `p` is a subproblem the search can start from (2 <= depth <= n-2, canonical). */
int fq_prefix_valid(const FqPrefix *p, int n);

/* Count the subproblems `subs` (all of one depth, all valid) with kernel k (or
 * FQ_SCALAR_BASELINE), adding each one's classes to counts[i] and setting finished[i] when it
 * is counted to the end. A nonzero byte at `stop` (may be NULL) makes the count return early,
 * leaving some unfinished. Returns 0, or
 * -1 when memory ran out (nothing counted). Thread-safe: callers may run several at once.
 * Ask fq_kernel_supported first: a kernel the CPU lacks is not run (it would stop the process
 * on an illegal instruction); the scalar kernel counts instead. */
int fq_count(int n, const FqPrefix *subs, long nsubs, FqKernel k, const volatile char *stop,
             FqClasses *counts, char *finished);

#endif
