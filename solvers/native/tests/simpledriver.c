/* A test driver for the simple search's plain C core (simplecore.c), with no Python: it builds
 * with any C compiler for any target, which is how `make test-cross` checks the core on
 * AArch64 under qemu-aarch64 (driver.c does the same for the classes counter).
 *
 *   simpledriver [N]   n = 1..N (default 12): n queens on an n x n board with some cells
 *                      blocked (no piece may stand there; a fixed pattern per n, hole(), and
 *                      none at all for the plain count), counted by the core branching on the
 *                      rows, and for n <= 10 also on the cells in increasing order (no lines:
 *                      the core's other way, ~10x slower per n beyond), against this file's own
 *                      brute force; exit 1 on any difference
 *
 * The driver lowers the board itself, plainly (conflict sets of rows, columns and diagonals,
 * one exactly-one line per row, the blocked cells left out of `allowed`): it shares nothing
 * with the Python lowering or the core but the idea.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../simplecore.h"

#define CELLS_UP_TO 10                 /* the largest n counted without lines too */

/* The blocked cells of the n x n board: about one in seven, a different pattern for each n. */
static int hole(int n, int r, int c) { return (3 * r + 5 * c + n) % 7 == 2; }

/* Every placement, one row at a time, skipping the holes: shares nothing with the core. */
static unsigned long long brute(int n, int holes, int row, unsigned cols, unsigned l, unsigned r) {
    if (row == n) return 1;
    unsigned long long total = 0;
    for (int c = 0; c < n; c++) {
        unsigned bit = 1u << c;
        if ((cols | l | r) & bit || (holes && hole(n, row, c))) continue;
        total += brute(n, holes, row + 1, cols | bit, (l | bit) << 1, (r | bit) >> 1);
    }
    return total;
}

static void set_bit(uint64_t *set, int i) { set[i / 64] |= 1ULL << (i % 64); }

/* Count with the core: cell (r, c) is bit r*n + c; `rows`: branch on one line per row. */
static unsigned long long core_count(int n, int holes, int rows) {
    KcSearch s = {0};
    if (kc_alloc(&s, n * n, rows ? n : 0, 0, n) < 0) { fprintf(stderr, "out of memory\n"); exit(2); }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int i = r * n + c;
            if (!(holes && hole(n, r, c))) set_bit(s.allowed, i);
            if (rows) set_bit(kc_row(s.lines, s.words, r), i);
            for (int r2 = 0; r2 < n; r2++)
                for (int c2 = 0; c2 < n; c2++)
                    if ((r2 != r || c2 != c) && (r2 == r || c2 == c || r2 - c2 == r - c || r2 + c2 == r + c))
                        set_bit(kc_row(s.conflicts, s.words, i), r2 * n + c2);
        }
    kc_start(&s);
    kc_run(&s, 0, 0, NULL);
    unsigned long long solutions = s.done ? s.solutions : ~0ULL;
    kc_free(&s);
    return solutions;
}

int main(int argc, char **argv) {
    int largest = argc > 1 ? atoi(argv[1]) : 12;
    if (largest < 1 || largest > 14 || argc > 2) { fprintf(stderr, "usage: simpledriver [N], N = 1..14\n"); return 2; }
    int failures = 0;
    printf("simple search (simplecore.c): one portable C build (NEON and scalar kernels are the classes counter's)\n");
    printf("%-8s %3s %6s %12s %12s %12s  %s\n", "board", "n", "holes", "by rows", "by cells", "brute force", "");
    for (int holes = 0; holes <= 1; holes++)
        for (int n = 1; n <= largest; n++) {
            int blocked = 0;
            for (int i = 0; holes && i < n * n; i++) blocked += hole(n, i / n, i % n);
            unsigned long long by_rows = core_count(n, holes, 1), expected = brute(n, holes, 0, 0, 0, 0);
            char by_cells[24] = "-";
            int ok = by_rows == expected;
            if (n <= CELLS_UP_TO) {
                unsigned long long counted = core_count(n, holes, 0);
                snprintf(by_cells, sizeof by_cells, "%llu", counted);
                ok = ok && counted == expected;
            }
            failures += !ok;
            printf("%-8s %3d %6d %12llu %12s %12llu  %s\n", holes ? "blocked" : "plain", n, blocked, by_rows,
                   by_cells, expected, ok ? "ok" : "DIFFERENT");
        }
    printf(failures ? "%d differences\n" : "all equal\n", failures);
    return failures ? 1 : 0;
}
