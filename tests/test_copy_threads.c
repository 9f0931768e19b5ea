/* SPDX-License-Identifier: MIT */
/*
 * test_copy_threads.c (CPU): the host copy threads' parallel loop
 * (lib/copy_threads.c), no GPU needed. Every part of a loop runs exactly
 * once, the parts cover [0, n) in order with the sizes asked for, the
 * caller runs part 0 itself, and all of that holds with more concurrent
 * callers than the loop has slots (the extra ones run their loops alone);
 * a packed and a pitched copy through the threads move every byte. Loop
 * shapes come from a fresh seed each run, logged as COPY_THREADS_SEED.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, rand_r */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "../lib/copy_threads.h"

#define MAX_PARTS GPUTILE__COPY_MAX_THREADS

typedef struct record {
    pthread_t caller;
    int hits[MAX_PARTS];
    size_t lo[MAX_PARTS], hi[MAX_PARTS];
    bool part0_by_caller;
    int out_of_range; /* parts numbered outside [0, MAX_PARTS) (atomic) */
} record;

static void note(void *ctx, int part, size_t lo, size_t hi)
{
    record *r = ctx; /* (runs on helper threads: no assertion here) */
    if (part < 0 || part >= MAX_PARTS) {
        __atomic_add_fetch(&r->out_of_range, 1, __ATOMIC_RELAXED);
        return;
    }
    __atomic_add_fetch(&r->hits[part], 1, __ATOMIC_RELAXED);
    r->lo[part] = lo;
    r->hi[part] = hi;
    if (part == 0)
        r->part0_by_caller = pthread_equal(pthread_self(), r->caller);
}

/* One loop of n items, parts of at least min_part, multiples of align. */
static bool loop_ok(size_t n, size_t min_part, size_t align)
{
    record r;
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    const int parts = gputile__parallel_for(n, min_part, align, note, &r);
    if (parts < 1 || parts > MAX_PARTS || !r.part0_by_caller || r.out_of_range != 0)
        return false;
    size_t at = 0;
    for (int p = 0; p < parts; ++p) {
        if (r.hits[p] != 1 || r.lo[p] != at || r.hi[p] <= r.lo[p])
            return false;
        if (p + 1 < parts && ((r.hi[p] - r.lo[p]) % align != 0 || r.hi[p] - r.lo[p] < min_part))
            return false;
        at = r.hi[p];
    }
    for (int p = parts; p < MAX_PARTS; ++p)
        if (r.hits[p] != 0)
            return false;
    return at == n;
}

static unsigned seed(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    const unsigned s = (unsigned)(t.tv_nsec ^ t.tv_sec);
    cr_log_info("COPY_THREADS_SEED=%u", s);
    return s;
}

Test(copy_threads, every_part_once_in_order)
{
    unsigned s = seed();
    gputile__copy_threads_set(MAX_PARTS);
    cr_assert(loop_ok(1, 1, 1));
    cr_assert(loop_ok(16, 1, 1));
    cr_assert(loop_ok(1000, 1, 4096)); /* one part: align above n */
    for (int i = 0; i < 2000; ++i) {
        const size_t n = 1 + (size_t)rand_r(&s) % 200000, min_part = 1 + (size_t)rand_r(&s) % 9000;
        const size_t align = 1 + (size_t)rand_r(&s) % 9;
        cr_assert(loop_ok(n, min_part, align), "n %zu, min_part %zu, align %zu", n, min_part,
                  align);
    }
    gputile__copy_threads_set(0);
}

typedef struct caller_args {
    unsigned seed;
    int failures;
} caller_args;

static void *caller(void *arg)
{
    caller_args *c = arg;
    for (int i = 0; i < 3000; ++i) {
        const size_t n = 1 + (size_t)rand_r(&c->seed) % 100000;
        const size_t min_part = 1 + (size_t)rand_r(&c->seed) % 5000;
        if (!loop_ok(n, min_part, 1 + (size_t)rand_r(&c->seed) % 7))
            ++c->failures;
    }
    return NULL;
}

Test(copy_threads, concurrent_callers_beyond_the_slots)
{
    const unsigned s = seed();
    gputile__copy_threads_set(MAX_PARTS);
    enum { CALLERS = 12 }; /* more than the loop's JOB_SLOTS (8) */
    pthread_t t[CALLERS];
    caller_args a[CALLERS];
    for (int i = 0; i < CALLERS; ++i) {
        a[i] = (caller_args){s + (unsigned)i, 0};
        cr_assert_eq(pthread_create(&t[i], NULL, caller, &a[i]), 0);
    }
    int failures = 0;
    for (int i = 0; i < CALLERS; ++i) {
        pthread_join(t[i], NULL);
        failures += a[i].failures;
    }
    cr_assert_eq(failures, 0, "%d loops ran a part twice, skipped one or cut them wrong", failures);
    gputile__copy_threads_set(0);
}

Test(copy_threads, copies_move_every_byte)
{
    unsigned s = seed();
    enum { W = 3000, H = 700, SP = 3210, DP = 3333 };
    unsigned char *src = malloc((size_t)SP * H), *dst = malloc((size_t)DP * H);
    cr_assert(src != NULL && dst != NULL);
    for (size_t i = 0; i < (size_t)SP * H; ++i)
        src[i] = (unsigned char)rand_r(&s);
    memset(dst, 0xA5, (size_t)DP * H);
    gputile__parallel_copy2d(dst, DP, src, SP, W, H); /* pitched rows */
    for (size_t r = 0; r < H; ++r) {
        cr_assert(memcmp(dst + r * DP, src + r * SP, W) == 0, "row %zu", r);
        for (size_t c = W; c < DP; ++c)
            cr_assert_eq(dst[r * DP + c], 0xA5, "row %zu: gap written at %zu", r, c);
    }
    memset(dst, 0, (size_t)DP * H);
    gputile__parallel_copy2d(dst, SP * H, src, SP * H, SP * H, 1); /* one packed run */
    cr_assert(memcmp(dst, src, (size_t)SP * H) == 0);
    free(src);
    free(dst);
}
