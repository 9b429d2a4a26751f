/* A second yardstick: n-queens counted by symmetry classes in the manner of Takaken's 2003
 * counter (from its published description, written afresh: BOUND1/BOUND2 corner rules,
 * recursive bitboard backtracking, the rotations compared at the leaf). It visits about one
 * board in eight, so it is the fair comparison point for our own symmetry-class kernels.
 *
 *   takaken N      prints Q(N)
 *
 * Row y's queen is a bit of `row[y]`; `left`/`right` are the diagonals moving one column per
 * row, `down` the columns taken. Each class is counted at its lexicographically smallest board:
 *   - a queen in the corner (row 0, column 0): row 1 at bound1 in 2..n-2, and rows below bound1
 *     keep out of column 1 (the transposed board is then larger); such a class has 8 boards;
 *   - else row 0 at bound1 < n-1-bound1 = bound2: rows above bound1 keep out of both side
 *     columns, both sides are taken by row bound2, the last row keeps to columns bound1..bound2;
 *     at the leaf the three rotations are compared with the board (2, 4 or 8 boards, or not
 *     the smallest and skipped).
 */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;

typedef struct {
    int n, bound1, bound2;
    unsigned all, side, last;
    unsigned row[32];
    u64 c2, c4, c8;
} Search;

static int ctz(unsigned x) { return __builtin_ctz(x); }

/* The board's rows as columns, and the image of a rotation: 0 if the image is smaller than the
 * board, 1 if equal, 2 if larger. */
static int compare(const Search *s, const int *image, const int *q) {
    for (int y = 0; y < s->n; y++)
        if (image[y] != q[y]) return image[y] < q[y] ? 0 : 2;
    return 1;
}

static void leaf(Search *s) {
    int n = s->n, q[32], inverse[32], image[32];
    for (int y = 0; y < n; y++) q[y] = ctz(s->row[y]);
    for (int y = 0; y < n; y++) inverse[q[y]] = y;
    for (int y = 0; y < n; y++) image[y] = n - 1 - inverse[y];          /* quarter turn */
    int order = compare(s, image, q);
    if (order == 0) return;
    if (order == 1) { s->c2++; return; }
    for (int y = 0; y < n; y++) image[y] = n - 1 - q[n - 1 - y];        /* half turn */
    order = compare(s, image, q);
    if (order == 0) return;
    if (order == 1) { s->c4++; return; }
    for (int y = 0; y < n; y++) image[y] = inverse[n - 1 - y];          /* three quarters */
    if (compare(s, image, q) != 0) s->c8++;
}

static void corner(Search *s, int y, unsigned left, unsigned down, unsigned right) {
    unsigned free = s->all & ~(left | down | right);
    if (y == s->n - 1) { s->c8 += free != 0; return; }
    if (y < s->bound1) free &= ~2u;
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        corner(s, y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

static void middle(Search *s, int y, unsigned left, unsigned down, unsigned right) {
    unsigned free = s->all & ~(left | down | right);
    if (y == s->n - 1) {
        if (free & ~s->last) { s->row[y] = free; leaf(s); }
        return;
    }
    if (y < s->bound1) free &= ~s->side;
    else if (y == s->bound2) {
        if (!(down & s->side)) return;                 /* both sides still free: one row cannot take both */
        if ((down & s->side) != s->side) free &= s->side;
    }
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        s->row[y] = bit;
        middle(s, y + 1, ((left | bit) << 1) & s->all, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 30) { fprintf(stderr, "n must be 1..30\n"); return 2; }
    if (n < 4) { printf("%d\n", n == 1); return 0; }
    Search s = {.n = n, .all = (1u << n) - 1, .side = 1u | 1u << (n - 1)};
    for (s.bound1 = 2; s.bound1 <= n - 2; s.bound1++) {       /* the corner branch */
        unsigned first = 1u, second = 1u << s.bound1;
        corner(&s, 2, (first << 2 | second << 1) & s.all, first | second, second >> 1);
    }
    s.last = 0;
    for (s.bound1 = 1, s.bound2 = n - 2; s.bound1 < s.bound2; s.bound1++, s.bound2--) {
        s.last |= 1u << (s.bound1 - 1) | 1u << (n - s.bound1);     /* columns nearer a corner than bound1 */
        unsigned bit = 1u << s.bound1;
        s.row[0] = bit;
        middle(&s, 1, (bit << 1) & s.all, bit, bit >> 1);
    }
    printf("%llu\n", 2 * s.c2 + 4 * s.c4 + 8 * s.c8);
    return 0;
}
