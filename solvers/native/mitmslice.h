/* The sliced join's inner work (mitmcore.c, join_sliced) at one vector width, in GCC vector
 * extensions so that one source serves every target. mitmcore.c includes this file once per
 * width and target, with SLICE_BITS (128, 256 or 512: the words of a slice, one per bit of a
 * vector), SLICE_FN (the entry point's name) and SLICE_TARGET (the function attribute that lets
 * the compiler use the target's instructions) defined, and SLICE_NARROW for the one width per
 * target that also makes the sort's first pass (SLICE_FN_narrow), after Chunks, CHUNK_ENTRIES,
 * CSA and the sieve's Cut.
 *
 * A slice of the sliced list is transposed into one vector per bit (bit j set: word j has that
 * bit); the words a word x of the facing list meets none of are the AND, over the bits of x, of
 * those vectors inverted. The ANDs come from tables built once per slice, per chunk of up to 8
 * bits of x (all 256 combinations), so x meets a slice in four loads and ANDs, and a carry-save
 * tree counts the bits. A wider vector takes as many instructions per facing word for twice the
 * words, so the width is the speed, as long as the tables stay in the first-level cache (4 x 256
 * entries: 64 KiB at 512 bits, of which a slice of 28 bits, Q(18)'s usual, fills 48) and the
 * slices full (a bucket is padded to a whole slice: the sieve cuts fewer bits as slices widen).
 */
#define SLICE_CAT_(a, b) a##b
#define SLICE_CAT(a, b) SLICE_CAT_(a, b)
#define SLICE_(name) SLICE_CAT(SLICE_FN, _##name)
#define Vector SLICE_(vector)
#define Bits SLICE_(bits)
#define Bytes SLICE_(bytes)

typedef uint32_t Vector __attribute__((vector_size(SLICE_BITS / 8)));  /* 32 x 32 bit matrices, one per lane */
typedef uint64_t Bits __attribute__((vector_size(SLICE_BITS / 8)));
typedef uint8_t Bytes __attribute__((vector_size(SLICE_BITS / 8)));

/* SLICE_BITS / 32 matrices at once (lane l of x[i] is row i of matrix l): x[b] lane l bit i
 * becomes x[i] lane l bit b, by swapping ever smaller off-diagonal blocks (of size j, a constant
 * once inlined, so the loops unroll into straight code). */
SLICE_TARGET static inline void SLICE_(swap_blocks)(Vector x[32], int j, uint32_t mask) {
#pragma GCC unroll 32
    for (int k = 0; k < 32; k++)
        if (!(k & j)) {
            Vector t = ((x[k] >> j) ^ x[k | j]) & mask;
            x[k] ^= t << j;
            x[k | j] ^= t;
        }
}

/* A slice's tables: chunk c covers `width[c]` bits of the narrow word from `from[c]`, and entry
 * CHUNK_ENTRIES * c + m has bit j set when word j is real (j < `real`: the others are pads) and
 * shares no bit with m << from[c] (bit j of the vector: lane j % lanes, bit j / lanes). Entry
 * 256 (after chunk 0) is zero: a facing pad's (written every time: a slice of another width
 * shares the memory). */
SLICE_TARGET static void SLICE_(tables)(Vector *tables, const uint32_t *words, size_t real, const Chunks *chunks) {
    enum { LANES = SLICE_BITS / 32 };
    Vector first = {0};  /* the real words: bits 0 .. ceil((real - l) / LANES) - 1 of lane l */
    for (int l = 0; l < LANES; l++) {
        size_t bits = real > (size_t)l ? (real - (size_t)l + LANES - 1) / LANES : 0;
        first[l] = bits >= 32 ? ~0u : (1u << bits) - 1;
    }
    Vector planes[32];
    memcpy(planes, words, sizeof planes);
    SLICE_(swap_blocks)(planes, 16, 0x0000ffff);
    SLICE_(swap_blocks)(planes, 8, 0x00ff00ff);
    SLICE_(swap_blocks)(planes, 4, 0x0f0f0f0f);
    SLICE_(swap_blocks)(planes, 2, 0x33333333);
    SLICE_(swap_blocks)(planes, 1, 0x55555555);
    /* planes[b]: the words with bit b */
    tables[256] = (Vector){0};
    for (int c = 0; c < 4; c++) {
        Vector *t = tables + CHUNK_ENTRIES * c;
        t[0] = first;
        for (int h = 0; h < chunks->width[c]; h++) {  /* the entries with high bit h: the ones below, and h */
            Vector lacking = ~planes[chunks->from[c] + h];
            if (h < 4)
                for (int m = 0; m < 1 << h; m++) t[(1 << h) + m] = t[m] & lacking;
            else
                for (int m = 0; m < 1 << h; m += 16)
                    for (int i = 0; i < 16; i++) t[(1 << h) + m + i] = t[m + i] & lacking;
        }
    }
}

/* The set bits of each byte of v. */
SLICE_TARGET static inline Bytes SLICE_(byte_counts)(Vector v) {
    Bits x = (Bits)v;
    x -= x >> 1 & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
    return (Bytes)((x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full);
}

/* The sum of the bytes of b. */
SLICE_TARGET static inline uint64_t SLICE_(byte_sum)(Bytes b) {
    Bits x = (Bits)b;
    x = (x & 0x00ff00ff00ff00ffull) + (x >> 8 & 0x00ff00ff00ff00ffull);
    x += x >> 16;
    x += x >> 32;
    uint64_t sum = 0;
    for (int i = 0; i < SLICE_BITS / 64; i++) sum += x[i] & 0xffff;
    return sum;
}

/* The pairs of one slice (its tables) with the facing words of every bucket in `others`: `at`
 * holds each facing word's four table offsets, one per chunk, from the chunk's first entry, in
 * bytes of 128-bit entries (so one list of offsets serves every width: the scale is an address
 * mode's); its buckets are padded to 8 words. Eight words at a time go through a carry-save tree
 * (Harley and Seal), so only every eighth vector's bits are counted. */
SLICE_TARGET static uint64_t SLICE_(count)(const Vector *tables, const uint16_t (*at)[4], const size_t start[],
                                           unsigned others) {
    const char *t0 = (const char *)tables, *t1 = (const char *)(tables + CHUNK_ENTRIES);
    const char *t2 = (const char *)(tables + 2 * CHUNK_ENTRIES), *t3 = (const char *)(tables + 3 * CHUNK_ENTRIES);
#define AT(t, k, c) (*(const Vector *)(t + (size_t)o[k][c] * (SLICE_BITS / 128)))  /* offsets: 128-bit entries' bytes */
#define MEETS(k) (AT(t0, k, 0) & AT(t1, k, 1) & AT(t2, k, 2) & AT(t3, k, 3))
    Vector ones = {0}, twos = {0}, fours = {0}, twos_a, twos_b, fours_a, fours_b, eights;
    Bytes bytes = {0};  /* the eights' bits per byte, at most 8 * 31 */
    uint64_t sum = 0;
    int room = 31;  /* groups the bytes still take */
    for (unsigned v = others;; v = (v - 1) & others) {
        for (size_t i = start[v]; i < start[v + 1]; i += 8) {
            const uint16_t (*o)[4] = at + i;
            CSA(twos_a, ones, MEETS(0), MEETS(1));
            CSA(twos_b, ones, MEETS(2), MEETS(3));
            CSA(fours_a, twos, twos_a, twos_b);
            CSA(twos_a, ones, MEETS(4), MEETS(5));
            CSA(twos_b, ones, MEETS(6), MEETS(7));
            CSA(fours_b, twos, twos_a, twos_b);
            CSA(eights, fours, fours_a, fours_b);
            bytes += SLICE_(byte_counts)(eights);
            if (!--room) {
                sum += SLICE_(byte_sum)(bytes);
                bytes = (Bytes){0};
                room = 31;
            }
        }
        if (!v) break;
    }
#undef MEETS
#undef AT
    return 8 * (sum + SLICE_(byte_sum)(bytes)) + 4 * SLICE_(byte_sum)(SLICE_(byte_counts)(fours))
         + 2 * SLICE_(byte_sum)(SLICE_(byte_counts)(twos)) + SLICE_(byte_sum)(SLICE_(byte_counts)(ones));
}

/* The pairs of one bucket of the sliced list (`len` words, whole slices, of which the first
 * `real` are words and the rest pads) with the facing words of every bucket in `others`.
 * `tables` is room for 4 chunks of CHUNK_ENTRIES vectors, aligned to a vector. */
SLICE_TARGET static uint64_t SLICE_FN(void *tables, const uint32_t *words, size_t len, size_t real,
                                      const Chunks *chunks, const uint16_t (*at)[4], const size_t start[],
                                      unsigned others) {
    uint64_t found = 0;
    for (size_t s = 0; s < len; s += SLICE_BITS) {
        SLICE_(tables)(tables, words + s, real - s, chunks);  /* real > s: a slice holds a word at least */
        found += SLICE_(count)(tables, at, start, others);
    }
    return found;
}

#ifdef SLICE_NARROW
/* The sliced join's sort's first pass (by_bucket32): every word's bucket and narrow word, a loop
 * the compiler vectorises at this width (once per path: SLICE_NARROW defined). */
SLICE_TARGET static void SLICE_(narrow)(const uint64_t *keys, size_t len, const Cut *c, uint16_t *tags,
                                        uint32_t *words) {
    Cut cut = *c;  /* in a local: read through `c`, the masks were reloaded after every store */
    for (size_t i = 0; i < len; i++) {
        tags[i] = (uint16_t)bucket_of(keys[i], &cut);
        words[i] = (uint32_t)rest_of(keys[i], &cut);
    }
}
#endif
#undef SLICE_NARROW

#undef Vector
#undef Bits
#undef Bytes
#undef SLICE_
#undef SLICE_CAT
#undef SLICE_CAT_
#undef SLICE_FN
#undef SLICE_BITS
#undef SLICE_TARGET
