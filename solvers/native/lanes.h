/* Many depth-first searches in the lanes of one vector register, in GCC vector extensions so
 * that one source serves SSE2 (4 lanes), AVX2 (8) and NEON (4). classcore.c includes this file
 * once per target, with LANES_FN (the kernel's name), LANE_COUNT and LANES_TARGET (the
 * function attribute that lets the compiler use the target's instructions) defined.
 *
 * Why lanes: a depth-first search is a chain of dependent, unpredictable branches (each node
 * asks "any candidate left? does the child have one?"); LANE_COUNT searches side by side turn
 * those branches into masks, and the CPU never guesses.
 *
 * Each lane holds one search: its row y, the masks c, l, r and the candidates a left in row y.
 * One step moves every lane by one node: a lane with candidates takes the lowest one and goes
 * down (or, if the child has no candidate, just drops it); a lane without goes back up. Going
 * back needs no stack of masks: the parent's masks are the child's with the chosen bit taken
 * out, which needs only the chosen bit and the two bits that fell off the edges of l and r
 * (kept in bits 30 and 31 of the lane's record for that row, in Lanes.path). The parent's
 * remaining candidates are its allowed columns above the chosen bit. The record of the row
 * above is kept in a register (`up`) and the one above that is fetched a step early, so going
 * up never waits for memory. Without scatter and gather instructions (AVX-512 has them, see
 * lanes_avx512.h), each lane writes and reads its own record with plain stores and loads: a
 * lane with nothing to write writes to a spare slot, so no lane ever branches.
 */
#define LANES_CAT_(a, b) a##b
#define LANES_CAT(a, b) LANES_CAT_(a, b)
#define VU LANES_CAT(LANES_FN, _u)
#define VS LANES_CAT(LANES_FN, _s)
#define LANES_ALLOWED LANES_CAT(LANES_FN, _allowed)
#define LANES_LEAVES LANES_CAT(LANES_FN, _leaves)

typedef uint32_t VU __attribute__((vector_size(4 * LANE_COUNT)));
typedef int32_t VS __attribute__((vector_size(4 * LANE_COUNT)));

/* allowed() for every lane; row b2 as Branch.need: a free side column must be taken now, and
 * two free side columns cannot both be (then nothing is allowed). Masks are all-ones lanes. */
LANES_TARGET static inline VU LANES_ALLOWED(VS y, VU cols, VS b1, VS b2, VU excl, VU last, VU mask, VU side,
                                            VS last_row) {
    VU a = mask & ~(excl & (VU)(y < b1));
    VU free = side & ~cols;
    VU limit = (free | ~(VU)(free != 0)) & ~(VU)(free == side);   /* 0 / all / the free one */
    a &= limit | ~(VU)(y == b2);
    return a & ~(last & (VU)(y == last_row));
}

/* The leaves found this step (row n-2 at `bit`, row n-1 at `final`), classified in plain C:
 * about one step in ten has one. */
LANES_TARGET static void LANES_LEAVES(const Lanes *s, Work *w, VS leaves, VU bit, VU final) {
    for (int i = 0; i < LANE_COUNT; i++)
        if (leaves[i])
            lane_leaf(&w->counts[s->sub[i]], w->n, s->b1[i], s->b2[i], &s->path[i * PATH_STRIDE], 1, bit[i],
                      final[i]);
}

LANES_TARGET static int LANES_FN(Work *w) {
    const int n = w->n, depth = w->task_depth;
    Lanes *s = calloc(1, sizeof(Lanes));    /* idle lanes: no candidates (a = 0) */
    if (!s) return -1;
    for (int i = 0; i < LANE_COUNT; i++) { s->y[i] = (uint32_t)(depth - 1); s->sub[i] = -1; }
    const VU zero = {0}, mask = zero + ((1u << n) - 1), side = zero + (1u | 1u << (n - 1));
    const VU top = zero + (1u << (n - 1)), column_bits = zero + COLUMN_BITS;
    VS lane_base;
    for (int i = 0; i < LANE_COUNT; i++) lane_base[i] = i * PATH_STRIDE;
    const VS one = (VS)zero + 1, last_row = (VS)zero + (n - 1), task_root = (VS)zero + depth;
    while (refill(s, w, LANE_COUNT, depth, 1, PATH_STRIDE)) {
        VU c, l, r, a, up, excl, last;
        VS y, b1, b2;
        memcpy(&c, s->c, sizeof c); memcpy(&l, s->l, sizeof l); memcpy(&r, s->r, sizeof r);
        memcpy(&a, s->a, sizeof a); memcpy(&up, s->up, sizeof up); memcpy(&y, s->y, sizeof y);
        memcpy(&b1, s->b1, sizeof b1); memcpy(&b2, s->b2, sizeof b2);
        memcpy(&excl, s->excl, sizeof excl); memcpy(&last, s->last, sizeof last);
        VS placed = (VS)zero;   /* queens placed this round, per lane: the lanes' `nodes` */
        for (int step = 0; step < ROUND; step++) {
            VS down = (VS)(a != 0);
            /* down: take the lowest candidate */
            VU bit = a & -a;
            VU cb = c | bit, lb = l | bit, rb = r | bit;
            VU nl = lb << 1 & mask, nr = rb >> 1;
            VS y1 = y + one;
            VU next = LANES_ALLOWED(y1, cb, b1, b2, excl, last, mask, side, last_row) & ~(cb | nl | nr);
            VS alive = down & (VS)(next != 0);
            VS leaves = alive & (VS)(y1 == last_row);
            VU go = (VU)(alive & ~leaves);
            placed -= down + leaves;
            if (LANES_ANY(leaves)) LANES_LEAVES(s, w, leaves, bit, next);
            VU record = bit | rb << 31 | (lb >> (n - 1)) << 30;
            VS slot = (y & (VS)go) | (((VS)zero + MAX_N) & ~(VS)go);
            slot += lane_base;
            uint32_t slots[LANE_COUNT], records[LANE_COUNT], grands[LANE_COUNT];
            memcpy(slots, &slot, sizeof slots);
            memcpy(records, &record, sizeof records);
            for (int i = 0; i < LANE_COUNT; i++) s->path[slots[i]] = records[i];
            /* up: rebuild the parent from the record of its row, kept in a register; fetch the
             * record of the row above it now, for the next step up (off the critical path) */
            VS y0 = y - one;
            VU back = (VU)(~down & (VS)(y0 >= task_root));
            VU fetch = back & (VU)(y0 - one >= task_root);
            VS from = ((y0 - one) & (VS)fetch) | (((VS)zero + MAX_N) & ~(VS)fetch);
            from += lane_base;
            memcpy(slots, &from, sizeof slots);
            for (int i = 0; i < LANE_COUNT; i++) grands[i] = s->path[slots[i]];
            VU grand;
            memcpy(&grand, grands, sizeof grand);
            VU pbit = up & column_bits;
            VU pc = c ^ pbit;
            VU pl = (l >> 1 | (top & -(up >> 30 & 1))) ^ pbit;
            VU pr = (r << 1 | up >> 31) ^ pbit;
            VU pa = LANES_ALLOWED(y0, pc, b1, b2, excl, last, mask, side, last_row) & ~(pc | pl | pr) & -(pbit << 1);
            /* merge: go down, drop the candidate, or go up (past the task's root: idle) */
            VU dropped = (a ^ bit) & (VU)down;
            a = (next & go) | (pa & back) | (dropped & ~go);
            c = (cb & go) | (pc & back) | (c & ~(go | back));
            l = (nl & go) | (pl & back) | (l & ~(go | back));
            r = (nr & go) | (pr & back) | (r & ~(go | back));
            up = (record & go) | (grand & back) | (up & ~(go | back));
            y += (VS)(one & (VS)go) - (one & ~down);     /* idle lanes sink, harmlessly */
        }
        memcpy(s->c, &c, sizeof c); memcpy(s->l, &l, sizeof l); memcpy(s->r, &r, sizeof r);
        memcpy(s->a, &a, sizeof a); memcpy(s->up, &up, sizeof up); memcpy(s->y, &y, sizeof y);
        for (int i = 0; i < LANE_COUNT; i++) s->nodes[i] += (u64)placed[i];
    }
    /* stopped early: the lanes' unfinished tasks keep their subproblems pending */
    free(s);
    return 0;
}

#undef VU
#undef VS
#undef LANES_ALLOWED
#undef LANES_LEAVES
#undef LANES_FN
#undef LANE_COUNT
#undef LANES_TARGET
#undef LANES_ANY
