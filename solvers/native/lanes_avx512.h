/* AVX-512: 16 depth-first searches in the lanes of one register, the scheme of lanes.h with
 * the AVX-512 instructions it lacks elsewhere: mask registers instead of all-ones lanes, and
 * one scatter (each lane's record of its row) and one gather (the record of the row above)
 * per step instead of a store and a load per lane. classcore.c includes this file on x86-64;
 * the CPU is asked at run time (fq_kernel_supported) before it runs. */
#include <immintrin.h>

#define LANES 16
#define VECTOR_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,bmi,bmi2,popcnt")))

typedef struct { __m512i mask, one, lane, last_row, depth, column_bits, side, top; int n; } Constants;
typedef struct { __m512i c, l, r, a, y, up, b1, b2, excl, last; } State;   /* up: the record of row y-1 */

/* allowed() for every lane; row b2 as Branch.need: a free side column must be taken now, and
 * two free side columns cannot both be (then nothing is allowed) */
VECTOR_TARGET static inline __m512i allowed_lanes(const Constants *k, const State *s, __m512i y, __m512i cols) {
    __m512i a = _mm512_mask_andnot_epi32(k->mask, _mm512_cmplt_epi32_mask(y, s->b1), s->excl, k->mask);
    __mmask16 b2 = _mm512_cmpeq_epi32_mask(y, s->b2);
    __m512i free = _mm512_andnot_si512(cols, k->side);
    a = _mm512_mask_and_epi32(a, _mm512_mask_test_epi32_mask(b2, free, free), a, free);
    a = _mm512_maskz_mov_epi32(~_mm512_mask_cmpeq_epi32_mask(b2, free, k->side), a);
    return _mm512_mask_andnot_epi32(a, _mm512_cmpeq_epi32_mask(y, k->last_row), s->last, a);
}

/* The leaves found by the lanes in `leaves` this step (row n-2 at `bit`, row n-1 at `final`). */
VECTOR_TARGET static void count_leaves(const Lanes *s, Work *w, __mmask16 leaves, __m512i bit, __m512i final) {
    uint32_t bits[LANES], finals[LANES];
    _mm512_storeu_si512(bits, bit);
    _mm512_storeu_si512(finals, final);
    while (leaves) {
        int i = __builtin_ctz(leaves);
        leaves &= leaves - 1;
        lane_leaf(&w->counts[s->sub[i]], w->n, s->b1[i], s->b2[i], &s->path[i], LANES, bits[i], finals[i]);
    }
}

VECTOR_TARGET static int run_avx512(Work *w) {
    const int n = w->n, depth = w->task_depth;
    const uint32_t mask = (1u << n) - 1;
    Lanes *s = calloc(1, sizeof(Lanes));    /* idle lanes: no candidates (a = 0) */
    if (!s) return -1;
    for (int i = 0; i < LANES; i++) { s->y[i] = (uint32_t)(depth - 1); s->sub[i] = -1; }
    const Constants k = {
        .mask = _mm512_set1_epi32(mask), .one = _mm512_set1_epi32(1),
        .lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        .last_row = _mm512_set1_epi32(n - 1), .depth = _mm512_set1_epi32(depth),
        .column_bits = _mm512_set1_epi32(COLUMN_BITS),
        .side = _mm512_set1_epi32(1u | 1u << (n - 1)),
        .top = _mm512_set1_epi32(1u << (n - 1)), .n = n,
    };
    const __m512i zero = _mm512_setzero_si512();
    while (refill(s, w, LANES, depth, LANES, 1)) {
        State v = {
            .c = _mm512_loadu_si512(s->c), .l = _mm512_loadu_si512(s->l), .r = _mm512_loadu_si512(s->r),
            .a = _mm512_loadu_si512(s->a), .y = _mm512_loadu_si512(s->y), .up = _mm512_loadu_si512(s->up),
            .b1 = _mm512_loadu_si512(s->b1),
            .b2 = _mm512_loadu_si512(s->b2), .excl = _mm512_loadu_si512(s->excl), .last = _mm512_loadu_si512(s->last),
        };
        __m512i placed = zero;   /* queens placed this round, per lane: the lanes' `nodes` */
        for (int step = 0; step < ROUND; step++) {
            __mmask16 down = _mm512_test_epi32_mask(v.a, v.a);
            __mmask16 up = ~down;        /* idle lanes too: they sink below the task depth, harmlessly */
            /* down: take the lowest candidate */
            __m512i bit = _mm512_and_si512(v.a, _mm512_sub_epi32(zero, v.a));
            __m512i cb = _mm512_or_si512(v.c, bit), lb = _mm512_or_si512(v.l, bit), rb = _mm512_or_si512(v.r, bit);
            __m512i nl = _mm512_and_si512(_mm512_slli_epi32(lb, 1), k.mask), nr = _mm512_srli_epi32(rb, 1);
            __m512i y1 = _mm512_add_epi32(v.y, k.one);
            __m512i next = _mm512_andnot_si512(_mm512_or_si512(cb, _mm512_or_si512(nl, nr)), allowed_lanes(&k, &v, y1, cb));
            __mmask16 alive = _mm512_mask_test_epi32_mask(down, next, next);
            __mmask16 leaves = alive & _mm512_cmpeq_epi32_mask(y1, k.last_row);
            __mmask16 go = alive & ~leaves;
            placed = _mm512_mask_add_epi32(placed, down, placed, k.one);
            if (leaves) {
                placed = _mm512_mask_add_epi32(placed, leaves, placed, k.one);   /* the last row's queen */
                count_leaves(s, w, leaves, bit, next);
            }
            __m512i record = _mm512_or_si512(bit, _mm512_or_si512(_mm512_slli_epi32(rb, 31),
                                                                 _mm512_slli_epi32(_mm512_srli_epi32(lb, n - 1), 30)));
            _mm512_mask_i32scatter_epi32(s->path, go, _mm512_add_epi32(_mm512_slli_epi32(v.y, 4), k.lane), record, 4);
            /* up: rebuild the parent from the record of its row, kept in a register; fetch the
             * record of the row above it now, for the next step up (off the critical path) */
            __m512i y0 = _mm512_sub_epi32(v.y, k.one), y00 = _mm512_sub_epi32(y0, k.one);
            __mmask16 back = up & _mm512_cmpge_epi32_mask(y0, k.depth);
            __m512i rec = v.up;
            __m512i grand = _mm512_mask_i32gather_epi32(zero, back & _mm512_cmpge_epi32_mask(y00, k.depth),
                                                        _mm512_add_epi32(_mm512_slli_epi32(y00, 4), k.lane), s->path, 4);
            __m512i pbit = _mm512_and_si512(rec, k.column_bits);
            __m512i pc = _mm512_xor_si512(v.c, pbit);
            __m512i pl = _mm512_xor_si512(_mm512_or_si512(_mm512_srli_epi32(v.l, 1),
                _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(rec, _mm512_set1_epi32(1u << 30)), k.top)), pbit);
            __m512i pr = _mm512_xor_si512(_mm512_or_si512(_mm512_slli_epi32(v.r, 1), _mm512_srli_epi32(rec, 31)), pbit);
            __m512i pa = _mm512_and_si512(
                _mm512_andnot_si512(_mm512_or_si512(pc, _mm512_or_si512(pl, pr)), allowed_lanes(&k, &v, y0, pc)),
                _mm512_sub_epi32(zero, _mm512_slli_epi32(pbit, 1)));          /* candidates above the bit */
            /* merge: go down, drop the candidate, or go up (past the task's root: idle) */
            v.a = _mm512_mask_xor_epi32(v.a, down & ~go, v.a, bit);
            v.a = _mm512_mask_mov_epi32(v.a, go, next);
            v.c = _mm512_mask_mov_epi32(v.c, go, cb);
            v.l = _mm512_mask_mov_epi32(v.l, go, nl);
            v.r = _mm512_mask_mov_epi32(v.r, go, nr);
            v.y = _mm512_mask_add_epi32(v.y, go, v.y, k.one);
            v.up = _mm512_mask_mov_epi32(v.up, go, record);
            v.up = _mm512_mask_mov_epi32(v.up, back, grand);
            v.a = _mm512_mask_mov_epi32(v.a, back, pa);
            v.c = _mm512_mask_mov_epi32(v.c, back, pc);
            v.l = _mm512_mask_mov_epi32(v.l, back, pl);
            v.r = _mm512_mask_mov_epi32(v.r, back, pr);
            v.y = _mm512_mask_sub_epi32(v.y, up, v.y, k.one);
        }
        _mm512_storeu_si512(s->c, v.c);
        _mm512_storeu_si512(s->l, v.l);
        _mm512_storeu_si512(s->r, v.r);
        _mm512_storeu_si512(s->a, v.a);
        _mm512_storeu_si512(s->y, v.y);
        _mm512_storeu_si512(s->up, v.up);
        uint32_t round_nodes[LANES];
        _mm512_storeu_si512(round_nodes, placed);
        for (int i = 0; i < LANES; i++) s->nodes[i] += round_nodes[i];
    }
    /* stopped early: the lanes' unfinished tasks keep their subproblems pending */
    free(s);
    return 0;
}

#undef LANES
#undef VECTOR_TARGET
