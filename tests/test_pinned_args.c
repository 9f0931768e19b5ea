/*
 * test_pinned_args.c (CPU): argument checks and statuses of the pinned
 * memory calls, the pool and gputile_copy(). Runs with or without a GPU:
 * bad arguments are rejected before the device is asked anything, and
 * nothing is written through an out-pointer on error. Without a device,
 * valid calls must say GPUTILE_ERROR_NO_DEVICE.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

#define EXPECT(call, status)                                                                      \
    do {                                                                                          \
        gputile_status s_ = (call);                                                               \
        cr_assert_eq(s_, (status), "%s: %s, expected %s", #call, gputile_status_name(s_),          \
                     gputile_status_name(status));                                                \
    } while (0)

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

Test(pinned_args, status_texts)
{
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_UNKNOWN_POINTER),
                     "GPUTILE_ERROR_UNKNOWN_POINTER");
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_ALREADY_REGISTERED),
                     "GPUTILE_ERROR_ALREADY_REGISTERED");
    cr_assert_str_neq(gputile_strerror(GPUTILE_ERROR_UNKNOWN_POINTER), "unknown status");
    cr_assert_str_neq(gputile_strerror(GPUTILE_ERROR_ALREADY_REGISTERED), "unknown status");
}
