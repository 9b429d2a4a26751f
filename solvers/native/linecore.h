/* The line counter's plain C core: a search over Boolean variables whose lines carry bounds
 * (between lo and hi pieces on each line), with counters per line instead of bitsets. No
 * Python, so it builds alone; lines.c is its thin binding. linecore.c explains the search;
 * this header is what a caller needs:
 *   1. lc_alloc(s, nvars, norder, nlines, nmembers): every array zeroed;
 *   2. fill order, fixed, the lines (line_start, line_cells, lo, hi);
 *   3. lc_start(s): the counters and the variables' lines (0, or -1 when memory ran out);
 *   4. lc_run(s, ...) as often as wanted (it resumes where it stopped); lc_free(s) at the end. */
#ifndef QUEENS_LINECORE_H
#define QUEENS_LINECORE_H

#include <stdint.h>

#define LC_MAX_VARS 4096               /* what the native backend counts at all (simplecore.h) */

typedef struct {
    int nvars, norder, nlines, nmembers, done;
    /* the model: the variables decided, in order (every other variable is 0 or fixed to 1) */
    int *order;
    unsigned char *fixed;              /* fixed[v]: v holds a piece before the search starts */
    int *line_start, *line_cells;      /* line j's variables: line_cells[line_start[j] .. line_start[j+1]) */
    int *lo, *hi;                      /* line j holds between lo[j] and hi[j] pieces */
    /* derived by lc_start: the lines through each variable, the same way round */
    int *var_start, *var_lines;
    /* the counters: up[j] more pieces line j may take, down[j] more of its open cells may stay empty */
    int *up, *down;
    /* the explicit stack: per depth, 0 nothing tried yet, 1 a piece placed, 2 left empty */
    unsigned char *tried;
    int depth, infeasible;
    unsigned long long nodes, solutions;
} LcSearch;

/* Allocate every array, zeroed; norder variables are decided, nmembers is the lines' total
 * length. Returns 0, or -1 when memory ran out (then nothing is left allocated, s is zeroed). */
int lc_alloc(LcSearch *s, int nvars, int norder, int nlines, int nmembers);

/* After the model is filled (checked by the caller: every index in range, lo <= hi is not
 * needed): the lines through each variable and the counters. Returns 0 or -1 (memory). */
int lc_start(LcSearch *s);

/* Run until `max_solutions` more solutions were found (0 = no limit), the search ends
 * (s->done), or the monotonic clock passes `deadline` (seconds; <= 0: none). A found solution
 * goes to `out` when it is not NULL: its decided variables holding a piece, ascending in the
 * order, then -1 (norder + 1 ints per solution). Returns the number found in this call. */
long long lc_run(LcSearch *s, long long max_solutions, double deadline, int *out);

/* Free every array and zero s (which may be zeroed and never allocated). */
void lc_free(LcSearch *s);

#endif
