/* SPDX-License-Identifier: MIT */
/*
 * test_dist_args.c (CPU): the calls beyond one GPU (issue 22) on inputs
 * decided before any device or communicator is asked, in both builds:
 *  - gputile_dist_block(): every split of small totals over 1..9 ranks is
 *    consecutive, covers the total and is balanced to within one; totals
 *    near SIZE_MAX do not overflow; bad ranks and NULL outputs write
 *    nothing;
 *  - GPUTILE_ERROR_NCCL's text and name, the last-NCCL-error pair;
 *  - without NCCL (no GPUTILE_TEST_NCCL) every NCCL call returns
 *    GPUTILE_ERROR_UNSUPPORTED; with it, a NULL communicator, bad modes,
 *    bins, roots, layouts, ops, options and matrices return their status
 *    before the communicator (a dummy here, never used) is touched;
 *  - gputile_gemm_devices(): bad device lists, options and matrices write
 *    nothing; a valid call on host matrices is NO_DEVICE without a device,
 *    and exact on small integers with one.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/expect.h"

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/* ---- gputile_dist_block ------------------------------------------------------------ */
Test(dist_args, block_covers_and_balances)
{
    for (size_t total = 0; total < 40; ++total)
        for (int ranks = 1; ranks <= 9; ++ranks) {
            size_t next = 0, lo = SIZE_MAX, hi = 0;
            for (int r = 0; r < ranks; ++r) {
                size_t off = 7, cnt = 7;
                OK(gputile_dist_block(total, ranks, r, &off, &cnt));
                cr_assert_eq(off, next, "total %zu ranks %d rank %d: offset %zu, expected %zu",
                             total, ranks, r, off, next);
                next = off + cnt;
                lo = cnt < lo ? cnt : lo;
                hi = cnt > hi ? cnt : hi;
            }
            cr_assert_eq(next, total, "total %zu over %d ranks covers %zu", total, ranks, next);
            cr_assert(hi - lo <= 1, "total %zu over %d ranks: blocks %zu..%zu", total, ranks, lo,
                      hi);
        }
}

Test(dist_args, block_near_size_max)
{
    size_t off, cnt;
    OK(gputile_dist_block(SIZE_MAX, 3, 2, &off, &cnt));
    cr_assert_eq(off + cnt, SIZE_MAX);
    OK(gputile_dist_block(SIZE_MAX, INT_MAX, INT_MAX - 1, &off, &cnt));
    cr_assert_eq(off + cnt, SIZE_MAX);
}

Test(dist_args, block_bad_arguments)
{
    size_t off = 11, cnt = 12;
    size_t *volatile null = NULL; /* the declaration is nonnull */
    EXPECT(gputile_dist_block(10, 0, 0, &off, &cnt), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_dist_block(10, -1, 0, &off, &cnt), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_dist_block(10, 4, 4, &off, &cnt), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_dist_block(10, 4, -1, &off, &cnt), GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_dist_block(10, 4, 0, null, &cnt), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_dist_block(10, 4, 0, &off, null), GPUTILE_ERROR_NULL_POINTER);
    cr_assert(off == 11 && cnt == 12, "written on error");
}

/* ---- the NCCL status ------------------------------------------------------------------ */
Test(dist_args, nccl_status)
{
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_NCCL), "GPUTILE_ERROR_NCCL");
    cr_assert(strstr(gputile_strerror(GPUTILE_ERROR_NCCL), "gputile_last_nccl_error") != NULL);
    cr_assert_eq(gputile_last_nccl_error(), 0);
    cr_assert_str_eq(gputile_last_nccl_error_name(), "ncclSuccess");
}

/* ---- the NCCL calls -------------------------------------------------------------------- */
#define NB 16
static _Alignas(16) int32_t si[64];
static _Alignas(16) float sf[64];
static _Alignas(16) uint64_t counts[NB];
static _Alignas(16) float ma[64], mb[64], mc[64];
static int dummy_comm; /* never dereferenced: every row fails before NCCL is asked */

static void poison(void)
{
    memset(counts, 0xA5, sizeof counts);
    memset(mc, 0xA5, sizeof mc);
}

static void untouched(const char *what)
{
    for (size_t i = 0; i < NB; ++i)
        cr_assert_eq(counts[i], 0xA5A5A5A5A5A5A5A5ull, "%s: counts written", what);
    const unsigned char *p = (const unsigned char *)mc;
    for (size_t i = 0; i < sizeof mc; ++i)
        cr_assert_eq(p[i], 0xA5, "%s: C written", what);
}

#define ROWCHECK(call, status) \
    do {                       \
        poison();              \
        EXPECT(call, status);  \
        untouched(#call);      \
    } while (0)

#ifndef GPUTILE_TEST_NCCL
Test(dist_args, unsupported_without_nccl)
{
    gputile_matrix a = gputile_matrix_view(ma, 8, 8, 8), b = gputile_matrix_view(mb, 8, 8, 8),
                   c = gputile_matrix_view(mc, 8, 8, 8);
    void *comm = &dummy_comm;
    for (int pass = 0; pass < 2; ++pass, comm = NULL) {
        ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, GPUTILE_HIST_OVERWRITE,
                                            GPUTILE_DIST_ALL_RANKS, comm, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
        ROWCHECK(gputile_dist_histogram_f32(sf, 64, 0, 1, NB, counts, GPUTILE_HIST_OVERWRITE, 0,
                                            comm, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
        ROWCHECK(gputile_dist_histogram_reduce(counts, NB, counts, GPUTILE_HIST_OVERWRITE, 0, comm,
                                               NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
        ROWCHECK(gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c,
                                   comm, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
    }
}
#else
Test(dist_args, histogram_before_the_communicator)
{
    void *comm = &dummy_comm;
    const int O = GPUTILE_HIST_OVERWRITE, ALL = GPUTILE_DIST_ALL_RANKS;
    uint64_t *odd = (uint64_t *)(void *)((char *)counts + 4);
    gputile_histogram_options small = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    small.size = sizeof small - 1;
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, O, ALL, NULL, NULL, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(
        gputile_dist_histogram_i32(si, 64, NB, counts, (gputile_hist_mode)2, ALL, comm, NULL, NULL),
        GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, 0, counts, O, ALL, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, O, -2, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, odd, O, ALL, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, O, ALL, comm, NULL, &small),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, (uint64_t *)(UINTPTR_MAX - 63), O, ALL, comm,
                                        NULL, NULL),
             GPUTILE_ERROR_OVERFLOW);
    ROWCHECK(gputile_dist_histogram_f32(sf, 64, 0, 1, -1, counts, O, ALL, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_f32(sf, 64, 0, 1, NB, counts, O, ALL, NULL, NULL, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(gputile_dist_histogram_reduce(counts, NB, counts, O, ALL, NULL, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(gputile_dist_histogram_reduce(NULL, NB, counts, O, ALL, comm, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(
        gputile_dist_histogram_reduce(counts, NB, counts, (gputile_hist_mode)-1, ALL, comm, NULL),
        GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_reduce(counts, INT32_MIN, counts, O, ALL, comm, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    /* the local histogram's own checks, and local's, come before the
     * communicator too (they ran after it was read, and after scratch
     * was queued: with this dummy, a crash) */
    gputile_histogram_options bad_tier = GPUTILE_HISTOGRAM_OPTIONS_INIT,
                              bad_reserved = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    bad_tier.tier = 99;
    bad_reserved.reserved = 1;
    ROWCHECK(gputile_dist_histogram_f32(sf, 64, 1, 0, NB, counts, O, ALL, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_f32(sf, 64, 0, INFINITY, NB, counts, O, 0, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, O, ALL, comm, NULL, &bad_tier),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(si, 64, NB, counts, O, 0, comm, NULL, &bad_reserved),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32(NULL, 64, NB, counts, O, 0, comm, NULL, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(gputile_dist_histogram_f32((const float *)(const void *)((const char *)sf + 2), 64, 0,
                                        1, NB, counts, O, ALL, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_i32((const int32_t *)(UINTPTR_MAX - 63), 64, NB, counts, O, 0,
                                        comm, NULL, NULL),
             GPUTILE_ERROR_OVERFLOW);
    ROWCHECK(gputile_dist_histogram_reduce(odd, NB, counts, O, 0, comm, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_histogram_reduce((const uint64_t *)(UINTPTR_MAX - 63), NB, counts, O, 0,
                                           comm, NULL),
             GPUTILE_ERROR_OVERFLOW);
}

Test(dist_args, gemm_before_the_communicator)
{
    void *comm = &dummy_comm;
    const gputile_op N = GPUTILE_OP_N;
    gputile_matrix a = gputile_matrix_view(ma, 8, 8, 8), b = gputile_matrix_view(mb, 8, 8, 8),
                   c = gputile_matrix_view(mc, 8, 8, 8);
    gputile_matrix bad = gputile_matrix_view(mb, 8, 8, 7); /* stride < width */
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.precision = 7;
    ROWCHECK(gputile_dist_gemm(GPUTILE_DIST_ROWS, N, N, 1, a, b, 0, c, NULL, NULL, NULL),
             GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(gputile_dist_gemm((gputile_dist_layout)1, N, N, 1, a, b, 0, c, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_gemm(GPUTILE_DIST_ROWS, N, N, 1, a, b, 0, c, comm, NULL, &o),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(
        gputile_dist_gemm(GPUTILE_DIST_ROWS, (gputile_op)2, N, 1, a, b, 0, c, comm, NULL, NULL),
        GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_dist_gemm(GPUTILE_DIST_ROWS, N, N, 1, a, bad, 0, c, comm, NULL, NULL),
             GPUTILE_ERROR_INVALID_MATRIX);
}
#endif

/* ---- gputile_gemm_devices ----------------------------------------------------------------- */
Test(dist_args, gemm_devices_bad_arguments)
{
    const gputile_op N = GPUTILE_OP_N;
    gputile_matrix a = gputile_matrix_view(ma, 8, 8, 8), b = gputile_matrix_view(mb, 8, 8, 8),
                   c = gputile_matrix_view(mc, 8, 8, 8);
    gputile_matrix b7 = gputile_matrix_view(mb, 7, 8, 7), c_on_a = gputile_matrix_view(ma, 8, 8, 8);
    const int one[] = {0}, dup[] = {0, 1, 0}, neg[] = {0, -1}, big[] = {0, 1 << 20};
    int many[65] = {0};
    for (int i = 0; i < 65; ++i)
        many[i] = i;
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.reserved = 1;
    ROWCHECK(gputile_gemm_devices(NULL, 1, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_NULL_POINTER);
    ROWCHECK(gputile_gemm_devices(one, 0, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(one, -3, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(many, 65, N, N, 1, a, b, 0, c, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(dup, 3, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(neg, 2, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(big, 2, N, N, 1, a, b, 0, c, NULL), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(one, 1, N, N, 1, a, b, 0, c, &o), GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(one, 1, (gputile_op)5, N, 1, a, b, 0, c, NULL),
             GPUTILE_ERROR_INVALID_VALUE);
    ROWCHECK(gputile_gemm_devices(one, 1, N, N, 1, a, b7, 0, c, NULL),
             GPUTILE_ERROR_SHAPE_MISMATCH);
    poison();
    EXPECT(gputile_gemm_devices(one, 1, N, N, 1, a, b, 0, c_on_a, NULL), GPUTILE_ERROR_ALIASING);
}

Test(dist_args, gemm_devices_valid_call)
{
    const int one[] = {0};
    gputile_matrix a = gputile_matrix_view(ma, 8, 8, 8), b = gputile_matrix_view(mb, 8, 8, 8),
                   c = gputile_matrix_view(mc, 8, 8, 8);
    for (int i = 0; i < 64; ++i) {
        ma[i] = (float)(i % 5 - 2);
        mb[i] = (float)(i % 3 - 1);
    }
    poison();
    gputile_status s =
        gputile_gemm_devices(one, 1, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL);
    if (!have_device()) {
        cr_assert_eq(s, GPUTILE_ERROR_NO_DEVICE, "%s", gputile_status_name(s));
        untouched("gemm_devices without a device");
        return;
    }
    OK(s);
    for (int r = 0; r < 8; ++r)
        for (int col = 0; col < 8; ++col) {
            float want = 0;
            for (int k = 0; k < 8; ++k)
                want += ma[r * 8 + k] * mb[k * 8 + col];
            cr_assert_eq(mc[r * 8 + col], want, "C(%d, %d)", r, col);
        }
}
