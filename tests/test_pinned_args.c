/* SPDX-License-Identifier: MIT */
/*
 * test_pinned_args.c (CPU): argument checks and statuses of the pinned
 * memory calls, the pool and gputile_copy(). Runs with or without a GPU:
 * bad arguments are rejected before the device is asked anything, and
 * nothing is written through an out-pointer on error. Without a device,
 * valid calls must say GPUTILE_ERROR_NO_DEVICE.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "support/expect.h"

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static char marker;
/* NULL that the compiler cannot see (the public calls are declared nonnull). */
static void *volatile null_ptr;
#define NULLP ((void *)null_ptr)

Test(pinned_args, alloc_rejects_bad_arguments)
{
    void *p = &marker;
    EXPECT(gputile_pinned_alloc(NULLP, 64, 0), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pinned_alloc(&p, 0, 0), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_alloc(&p, 64, 0x8), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_alloc(&p, 64, 0x80000000u), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_alloc(&p, 0, GPUTILE_PINNED_MAPPED), GPUTILE_ERROR_INVALID_VALUE);
    cr_assert_eq(p, &marker, "out-pointer written on error");
}

Test(pinned_args, alloc_without_device)
{
    if (have_device())
        cr_skip_test("a device is present: GPU suite test_pinned covers allocation");
    void *p = &marker;
    EXPECT(gputile_pinned_alloc(&p, 64, 0), GPUTILE_ERROR_NO_DEVICE);
    EXPECT(gputile_pinned_alloc(&p, 64, GPUTILE_PINNED_MAPPED | GPUTILE_PINNED_PORTABLE),
           GPUTILE_ERROR_NO_DEVICE);
    EXPECT(gputile_pool_alloc(&p, 64, 0), GPUTILE_ERROR_NO_DEVICE);
    cr_assert_eq(p, &marker, "out-pointer written on error");
    cr_assert_neq(gputile_last_cuda_error(), 0, "the CUDA error is kept");
    char buf[100] = {0};
    EXPECT(gputile_pinned_register(buf, sizeof buf, 0), GPUTILE_ERROR_NO_DEVICE);
    /* the failed registration left nothing behind */
    EXPECT(gputile_pinned_unregister(buf), GPUTILE_ERROR_UNKNOWN_POINTER);
}

Test(pinned_args, free_of_unknown_pointers)
{
    char local[16];
    void *heap = malloc(64);
    cr_assert_not_null(heap);
    EXPECT(gputile_pinned_free(NULL), GPUTILE_SUCCESS);
    EXPECT(gputile_pinned_free(local), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_free(heap), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_free((void *)(uintptr_t)1), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pool_free(NULL), GPUTILE_SUCCESS);
    EXPECT(gputile_pool_free(local), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pool_free(heap), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_unregister(NULL), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pinned_unregister(heap), GPUTILE_ERROR_UNKNOWN_POINTER);
    free(heap);
}

Test(pinned_args, register_rejects_bad_arguments)
{
    char buf[64] = {0};
    EXPECT(gputile_pinned_register(NULLP, 64, 0), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pinned_register(buf, 0, 0), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_register(buf, sizeof buf, GPUTILE_PINNED_WRITE_COMBINED),
           GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_register(buf, sizeof buf, 0x40), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_register((void *)(UINTPTR_MAX - 10), 100, 0), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_pinned_register((void *)(UINTPTR_MAX - 4000), 100, 0), GPUTILE_ERROR_OVERFLOW);
}

Test(pinned_args, device_pointer_rejects_bad_arguments)
{
    char buf[64] = {0};
    void *d = &marker;
    EXPECT(gputile_pinned_device_pointer(NULLP, buf), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pinned_device_pointer(&d, NULLP), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pinned_device_pointer(&d, buf), GPUTILE_ERROR_UNKNOWN_POINTER);
    cr_assert_eq(d, &marker, "out-pointer written on error");
}

Test(pinned_args, pool_rejects_bad_arguments)
{
    void *p = &marker;
    EXPECT(gputile_pool_alloc(NULLP, 64, 0), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pool_alloc(&p, 0, 0), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pool_alloc(&p, 64, 0x100), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pool_alloc(&p, SIZE_MAX, 0), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_pool_alloc(&p, SIZE_MAX - 4096 * 1024, 0), GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(p, &marker, "out-pointer written on error");
}

Test(pinned_args, pool_limit_and_stats)
{
    gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
    EXPECT(gputile_pool_get_stats(NULLP), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_pool_get_stats(&st), GPUTILE_SUCCESS);
    cr_assert_eq(st.size, sizeof st);
    cr_assert_eq(st.limit, GPUTILE_POOL_DEFAULT_LIMIT);
    cr_assert_eq(st.in_use_blocks, 0);
    cr_assert_eq(st.cached_blocks, 0);
    cr_assert_eq(st.cached_bytes, 0);

    EXPECT(gputile_pool_set_limit(12345), GPUTILE_SUCCESS);
    EXPECT(gputile_pool_release(), GPUTILE_SUCCESS);
    /* An older caller's smaller struct: only the fields it knows are written. */
    size_t old[3] = {2 * sizeof(size_t), 0, 777};
    EXPECT(gputile_pool_get_stats((gputile_pool_stats *)(void *)old), GPUTILE_SUCCESS);
    cr_assert_eq(old[1], 12345);
    cr_assert_eq(old[2], 777, "written past the caller's size");
    st.size = 1;
    EXPECT(gputile_pool_get_stats(&st), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pool_set_limit(GPUTILE_POOL_DEFAULT_LIMIT), GPUTILE_SUCCESS);
}

Test(pinned_args, copy_rejects_bad_arguments)
{
    char a[64], b[64];
    memset(a, 1, sizeof a);
    memset(b, 2, sizeof b);
    EXPECT(gputile_copy(NULL, b, 8, NULL), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_copy(a, NULL, 8, NULL), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_copy(NULL, NULL, 0, NULL), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_copy(a, b, 0, NULL), GPUTILE_SUCCESS);
    EXPECT(gputile_copy(a, (void *)(UINTPTR_MAX - 3), 8, NULL), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_copy((void *)(UINTPTR_MAX - 3), b, 8, NULL), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_copy(a, a + 4, 8, NULL), GPUTILE_ERROR_ALIASING);
    EXPECT(gputile_copy(a + 4, a, 8, NULL), GPUTILE_ERROR_ALIASING);
    EXPECT(gputile_copy(a, a, 1, NULL), GPUTILE_ERROR_ALIASING);
    /* host to host: not a transfer (or no device to ask) */
    EXPECT(gputile_copy(a, b, 8, NULL),
           have_device() ? GPUTILE_ERROR_INVALID_VALUE : GPUTILE_ERROR_NO_DEVICE);
    for (size_t i = 0; i < sizeof a; ++i)
        cr_assert(a[i] == 1 && b[i] == 2, "memory written on error at %zu", i);
}

Test(pinned_args, copy_cache_rejects_bad_arguments)
{
    char buf[64];
    memset(buf, 3, sizeof buf);
    EXPECT(gputile_copy_cache(NULLP, 64), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_copy_cache(buf, 0), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_copy_cache((void *)(UINTPTR_MAX - 10), 100), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_copy_cache((void *)(UINTPTR_MAX - 4000), 100), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_copy_cache(buf, SIZE_MAX), GPUTILE_ERROR_OVERFLOW);
    EXPECT(gputile_copy_uncache(NULL), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_copy_uncache(buf), GPUTILE_ERROR_UNKNOWN_POINTER);
    for (size_t i = 0; i < sizeof buf; ++i)
        cr_assert(buf[i] == 3, "memory written on error at %zu", i);
}

Test(pinned_args, copy_cache_without_device)
{
    if (have_device())
        cr_skip_test("a device is present: GPU suite test_copies covers the cache");
    static char buf[8192];
    EXPECT(gputile_copy_cache(buf, sizeof buf), GPUTILE_ERROR_NO_DEVICE);
    /* the failed call left nothing behind: no entry to drop, nothing pinned */
    EXPECT(gputile_copy_uncache(buf), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_unregister(buf), GPUTILE_ERROR_UNKNOWN_POINTER);
}

Test(pinned_args, status_texts)
{
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_UNKNOWN_POINTER),
                     "GPUTILE_ERROR_UNKNOWN_POINTER");
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_ALREADY_REGISTERED),
                     "GPUTILE_ERROR_ALREADY_REGISTERED");
    cr_assert_str_neq(gputile_strerror(GPUTILE_ERROR_UNKNOWN_POINTER), "unknown status");
    cr_assert_str_neq(gputile_strerror(GPUTILE_ERROR_ALREADY_REGISTERED), "unknown status");
}

/* ---- the host copy threads (internal, no device needed) ---- */
void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height);

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* One strided copy with random shape and pitches: every byte inside the
 * rectangle copied, every byte outside it (row gaps, guards) untouched. */
static int one_copy(uint64_t seed, char *why, size_t why_len)
{
    uint64_t s = seed;
#define NEXT() (s ^= s << 13, s ^= s >> 7, s ^= s << 17, s)
    size_t width = NEXT() % 3 == 0 ? NEXT() % 70 + 1 : NEXT() % 600000 + 1;
    size_t height = NEXT() % 40 + 1;
    size_t spitch = width + NEXT() % 3 * (NEXT() % 100),
           dpitch = width + NEXT() % 2 * (NEXT() % 77);
    size_t sbytes = spitch * height, dbytes = dpitch * height + 128;
    unsigned char *src = malloc(sbytes), *dst = malloc(dbytes);
    if (src == NULL || dst == NULL)
        return snprintf(why, why_len, "malloc"), 1;
    for (size_t i = 0; i < sbytes; ++i)
        src[i] = (unsigned char)NEXT();
    memset(dst, 0xee, dbytes);
    gputile__parallel_copy2d(dst + 64, dpitch, src, spitch, width, height);
    int bad = 0;
    for (size_t i = 0; i < dbytes && !bad; ++i) {
        bool in = i >= 64 && i < 64 + dpitch * height && (i - 64) % dpitch < width;
        unsigned char want = in ? src[((i - 64) / dpitch) * spitch + (i - 64) % dpitch] : 0xee;
        if (dst[i] != want)
            bad = snprintf(why, why_len, "%zux%zu (pitches %zu, %zu): byte %zu is %d, want %d",
                           width, height, spitch, dpitch, i, dst[i], want) > 0;
    }
    free(src);
    free(dst);
    return bad;
#undef NEXT
}

Test(pinned_args, parallel_copy_every_byte)
{
    char why[200];
    for (int i = 0; i < 60; ++i)
        cr_assert_eq(one_copy(rng() | 1, why, sizeof why), 0, "%s", why);
    gputile__parallel_copy2d(NULL, 0, NULL, 0, 0, 5); /* nothing to copy */
}

typedef struct copier {
    uint64_t seed;
    int bad;
    char why[200];
} copier;

static void *copier_main(void *arg)
{
    copier *c = arg;
    for (int i = 0; i < 25 && !c->bad; ++i)
        c->bad = one_copy(c->seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL, c->why, sizeof c->why);
    return NULL;
}

Test(pinned_args, parallel_copy_from_many_threads)
{
    enum { N = 6 };
    pthread_t t[N];
    copier c[N];
    for (int i = 0; i < N; ++i) {
        c[i] = (copier){.seed = rng() | 1, .bad = 0};
        cr_assert_eq(pthread_create(&t[i], NULL, copier_main, &c[i]), 0);
    }
    for (int i = 0; i < N; ++i)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; ++i)
        cr_expect_eq(c[i].bad, 0, "thread %d: %s", i, c[i].why);
}
