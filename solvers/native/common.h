/* The few helpers the native C cores share: a monotonic clock for deadlines, and the seeded
 * xorshift64* generator the randomised searches break ties with. Header-only (static inline)
 * so each extension stays one self-contained module. */
#ifndef QUEENS_NATIVE_COMMON_H
#define QUEENS_NATIVE_COMMON_H

#include <stdint.h>
#include <time.h>

static inline double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* "Stop now?", asked by a plain C core that cannot be cut in slices (the trimmer's walk) at the
 * points where it may stop: a binding answers with interrupt.h's poll (Python's signal
 * handlers, within POLL_SECONDS), a fuzz or test driver passes none (never stop). The core
 * stays free of Python, so it still builds alone. */
typedef struct {
    int (*asked)(void *context);       /* nonzero: stop */
    void *context;
} StopCheck;

static inline int stop_asked(const StopCheck *stop) {
    return stop && stop->asked && stop->asked(stop->context);
}

/* xorshift64* (Vigna 2016): fast, and plenty for tie-breaking and random moves. */
static inline uint64_t next_random(uint64_t *state) {
    *state ^= *state >> 12; *state ^= *state << 25; *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* A generator state from a user's seed: spread by the golden ratio, and never 0 (a fixed point). */
static inline uint64_t seeded(unsigned long long seed) {
    uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    return state ? state : 1;
}

#endif
