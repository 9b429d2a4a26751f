/* The line counter: exact counting over the generic constraint model (models/ir.py) when its
 * lines allow more than one piece ("two rooks per row and column", A001499), or carry several
 * armies whose sizes are lines. Plain C with no Python in it (linecore.h); lines.c binds it.
 *
 * Python lowers the model to Boolean variables 0..nvars-1 and lines, each a list of variables
 * holding between lo and hi pieces (covers are lines with lo = 1, the total size a line over
 * every cell). The search decides the variables of `order` one per depth, a piece first, then
 * an empty cell. Fixed variables hold a piece from the start; a variable neither fixed nor in
 * the order stays empty.
 *
 * Two counters per line make every check O(1) per line through the decided variable:
 *   up[j]   = hi - pieces on line j:             a piece decrements it; below 0, too many;
 *   down[j] = pieces + open cells of j - lo:     an empty cell decrements it; below 0, the line
 *                                                can no longer reach its lower bound.
 * A piece never changes down and an empty cell never changes up, so each decision touches one
 * counter per line, and a line fails at the first decision that makes it impossible (the
 * capacity check). When every variable is decided, every line has no open cell left, so
 * down >= 0 says pieces >= lo and up >= 0 says pieces <= hi: the leaf is a solution, exactly.
 *
 * Iterative with an explicit stack, like simplecore.c, so that it can stop after a batch of
 * solutions or at a deadline and resume. tests/test_line_counts.py holds its plain-Python twin.
 *
 * The asserts state the invariants above (the counters restored exactly on the way back, a
 * leaf every line's bounds hold at); they run in the sanitiser builds (make test-asan, make
 * fuzz) and are compiled out of the normal one (setup.py passes -DNDEBUG).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "linecore.h"

#define CLOCK_EVERY 4096               /* look at the clock once per this many nodes */

int lc_alloc(LcSearch *s, int nvars, int norder, int nlines, int nmembers) {
    *s = (LcSearch){0};
    s->nvars = nvars; s->norder = norder; s->nlines = nlines; s->nmembers = nmembers;
    s->order = calloc((size_t)norder + 1, sizeof(int));
    s->fixed = calloc((size_t)nvars + 1, 1);
    s->line_start = calloc((size_t)nlines + 1, sizeof(int));
    s->line_cells = calloc((size_t)nmembers + 1, sizeof(int));
    s->lo = calloc((size_t)nlines + 1, sizeof(int));
    s->hi = calloc((size_t)nlines + 1, sizeof(int));
    s->var_start = calloc((size_t)nvars + 1, sizeof(int));
    s->var_lines = calloc((size_t)nmembers + 1, sizeof(int));
    s->up = calloc((size_t)nlines + 1, sizeof(int));
    s->down = calloc((size_t)nlines + 1, sizeof(int));
    s->tried = calloc((size_t)norder + 1, 1);
    if (s->order && s->fixed && s->line_start && s->line_cells && s->lo && s->hi && s->var_start
        && s->var_lines && s->up && s->down && s->tried)
        return 0;
    lc_free(s);
    return -1;
}

int lc_start(LcSearch *s) {
    /* The lines through each variable: count them, then fill (a counting sort by variable). */
    int *fill = calloc((size_t)s->nvars + 1, sizeof(int));
    if (!fill) return -1;
    for (int m = 0; m < s->nmembers; m++) {
        assert(s->line_cells[m] >= 0 && s->line_cells[m] < s->nvars);   /* checked by the caller */
        s->var_start[s->line_cells[m] + 1]++;
    }
    for (int v = 0; v < s->nvars; v++) s->var_start[v + 1] += s->var_start[v];
    assert(s->var_start[s->nvars] == s->nmembers);
    for (int j = 0; j < s->nlines; j++)
        for (int m = s->line_start[j]; m < s->line_start[j + 1]; m++) {
            int v = s->line_cells[m];
            assert(s->var_start[v] + fill[v] < s->var_start[v + 1]);
            s->var_lines[s->var_start[v] + fill[v]++] = j;
        }
    free(fill);
    /* The counters: pieces are the fixed variables; open cells, the decided ones. A variable
     * that is neither is empty from the start, so it is no open cell. */
    unsigned char *open = calloc((size_t)s->nvars + 1, 1);
    if (!open) return -1;
    for (int d = 0; d < s->norder; d++) open[s->order[d]] = 1;
    for (int j = 0; j < s->nlines; j++) {
        int pieces = 0, cells = 0;
        for (int m = s->line_start[j]; m < s->line_start[j + 1]; m++) {
            pieces += s->fixed[s->line_cells[m]];
            cells += open[s->line_cells[m]];
        }
        s->up[j] = s->hi[j] - pieces;
        s->down[j] = pieces + cells - s->lo[j];
        if (s->up[j] < 0 || s->down[j] < 0) s->infeasible = 1;   /* broken before any choice */
    }
    free(open);
    return 0;
}

void lc_free(LcSearch *s) {
    free(s->order); free(s->fixed); free(s->line_start); free(s->line_cells); free(s->lo); free(s->hi);
    free(s->var_start); free(s->var_lines); free(s->up); free(s->down); free(s->tried);
    *s = (LcSearch){0};
}

/* Decide variable v: a piece (counter up) or an empty cell (counter down). Returns 1, or 0
 * with nothing changed when a line through v cannot take it. */
static int decide(LcSearch *s, int v, int *counter) {
    const int *lines = s->var_lines + s->var_start[v], n = s->var_start[v + 1] - s->var_start[v];
    for (int k = 0; k < n; k++)
        if (--counter[lines[k]] < 0) {
            for (int i = 0; i <= k; i++) counter[lines[i]]++;
            return 0;
        }
    return 1;
}

static void undo(LcSearch *s, int v, int *counter) {
    const int *lines = s->var_lines + s->var_start[v], n = s->var_start[v + 1] - s->var_start[v];
    /* v's decision left every counter it touched at 0 or more, and the decisions after it were
     * undone first (a stack), so each is back to that: one more now */
    for (int k = 0; k < n; k++) {
        counter[lines[k]]++;
        assert(counter[lines[k]] >= 1);
    }
}

#ifndef NDEBUG
/* Whether every line's bounds hold: the leaf test the counters stand for (linecore's header). */
static int bounds_hold(const LcSearch *s) {
    unsigned char piece[LC_MAX_VARS];
    assert(s->nvars <= LC_MAX_VARS);
    memcpy(piece, s->fixed, (size_t)s->nvars);
    for (int d = 0; d < s->norder; d++) piece[s->order[d]] = s->tried[d] == 1;
    for (int j = 0; j < s->nlines; j++) {
        int pieces = 0;
        for (int m = s->line_start[j]; m < s->line_start[j + 1]; m++) pieces += piece[s->line_cells[m]];
        if (pieces < s->lo[j] || pieces > s->hi[j] || s->up[j] < 0 || s->down[j] < 0) return 0;
    }
    return 1;
}
#endif

/* The solution at the leaf: the decided variables that hold a piece, then -1. */
static void write_solution(const LcSearch *s, int *out) {
    int k = 0;
    for (int d = 0; d < s->norder; d++)
        if (s->tried[d] == 1) out[k++] = s->order[d];
    assert(k <= s->norder);              /* the slot holds norder + 1 ints */
    out[k] = -1;
}

/* Step back from depth d (every value tried there): undo the decision of depth d - 1. Returns
 * 0 when the search is over. */
static int back(LcSearch *s) {
    s->tried[s->depth] = 0;
    if (s->depth == 0) { s->done = 1; return 0; }
    int d = --s->depth;
    undo(s, s->order[d], s->tried[d] == 1 ? s->up : s->down);
    return 1;
}

/* linecore.h says what a call does; returns the number of solutions found in it. */
long long lc_run(LcSearch *s, long long max_solutions, double deadline, int *out) {
    long long found = 0;
    const size_t slot = (size_t)s->norder + 1;
    if (s->done) return 0;
    if (s->infeasible) { s->done = 1; return 0; }
    while (1) {
        int d = s->depth;
        assert(d >= 0 && d <= s->norder && s->tried[d] <= 2);
        if (d == s->norder) {          /* every variable decided: a solution (see the header) */
            assert(bounds_hold(s));
            if (out) write_solution(s, out + found * slot);
            found++;
            s->solutions++;
            if (!back(s)) return found;
            if (max_solutions && found == max_solutions) return found;
            continue;
        }
        if (s->tried[d] == 2) {        /* both values tried here */
            if (!back(s)) return found;
            continue;
        }
        s->nodes++;
        if (deadline > 0 && s->nodes % CLOCK_EVERY == 0 && now_seconds() > deadline) {
            s->nodes--;                /* resumed, the same step runs again */
            return found;
        }
        int v = s->order[d], piece = s->tried[d] == 0;
        s->tried[d] = piece ? 1 : 2;
        if (decide(s, v, piece ? s->up : s->down)) {
            s->depth = d + 1;
            s->tried[d + 1] = 0;
        }
    }
}
