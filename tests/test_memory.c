/* SPDX-License-Identifier: MIT */
/*
 * test_memory.c (GPU): device allocation, strided copies between host and
 * device, and GEMM on host matrices and on a mix of host and device
 * matrices (staged by the library), against an exact CPU reference.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/gpu.h"

Test(memory, device_alloc_and_free, .init = gputest_require_device)
{
    void *p = NULL;
    cr_assert_eq(gputile_device_alloc(&p, 1000), GPUTILE_SUCCESS);
    cr_assert_not_null(p);
    struct cudaPointerAttributes at;
    GPUTEST_CUDA(cudaPointerGetAttributes(&at, p));
    cr_assert_eq(at.type, cudaMemoryTypeDevice);
    cr_assert_eq(gputile_device_free(p), GPUTILE_SUCCESS);

    void *q = (void *)&q;
    gputile_status s = gputile_device_alloc(&q, (size_t)1 << 62); /* 4 EiB */
    cr_assert_eq(s, GPUTILE_ERROR_OUT_OF_MEMORY, "%s", gputile_status_name(s));
    cr_assert_eq(q, (void *)&q, "pointer written on error");
    cr_assert_neq(gputile_last_cuda_error(), 0);
    /* still usable */
    cr_assert_eq(gputile_device_alloc(&p, 64), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_device_free(p), GPUTILE_SUCCESS);
}

Test(memory, facade_device_matrix, .init = gputest_require_device)
{
    gputile_matrix m = {0, 0, 0, NULL};
    cr_assert_eq(gputile_matrix_alloc_device(&m, 33, 5), GPUTILE_SUCCESS);
    cr_assert_eq(m.width, 33);
    cr_assert_eq(m.height, 5);
    cr_assert_eq(m.stride, 64);
    cr_assert_eq((uintptr_t)m.elements % 128, 0);
    cr_assert_eq(gputile_matrix_free_device(&m), GPUTILE_SUCCESS);
    cr_assert_null(m.elements);
}

/* host (stride 13, view at (2, 3)) -> device (stride 64) -> device (stride 40,
 * at (1, 1)) -> host (stride 9): every element and every guard checked. */
Test(memory, strided_copies_round_trip, .init = gputest_require_device)
{
    enum { W = 7, H = 11 };
    float src[16 * 13], dst[13 * 9];
    for (size_t i = 0; i < sizeof src / sizeof src[0]; ++i)
        src[i] = gputest_uniform(-5, 5);
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; ++i)
        dst[i] = gputest_poison();
    gputile_matrix hs = gputile_get_submatrix(gputile_matrix_view(src, 13, 16, 13), 2, 3, W, H);
    gputile_matrix hd = gputile_get_submatrix(gputile_matrix_view(dst, 9, 13, 9), 1, 1, W, H);
    /* Initialised: gcc does not know that a failed cr_assert leaves the test,
     * and warned that gputile_submatrix() might read d2parent unset. */
    gputile_matrix d1 = {0}, d2parent = {0}, d2 = {0};
    cr_assert_eq(gputile_matrix_alloc_device(&d1, W, H), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_alloc_device(&d2parent, 40, H + 2), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_submatrix(d2parent, 1, 1, W, H, &d2), GPUTILE_SUCCESS);

    cr_assert_eq(gputile_matrix_copy(d1, hs, NULL), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_copy(d2, d1, NULL), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_copy(hd, d2, NULL), GPUTILE_SUCCESS);
    for (size_t r = 0; r < 13; ++r)
        for (size_t c = 0; c < 9; ++c) {
            bool in = r >= 1 && r < 1 + H && c >= 1 && c < 1 + W;
            if (in)
                cr_assert_eq(dst[r * 9 + c], gputile_get_element(hs, r - 1, c - 1), "(%zu, %zu)", r,
                             c);
            else
                cr_assert(gputest_is_poison(dst[r * 9 + c]), "guard written at (%zu, %zu)", r, c);
        }
    cr_assert_eq(gputile_matrix_free_device(&d1), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_free_device(&d2parent), GPUTILE_SUCCESS);
}

static void fill_ints(gputile_matrix m)
{
    for (size_t r = 0; r < m.height; ++r)
        for (size_t c = 0; c < m.width; ++c)
            gputile_set_element(m, r, c, gputest_small_int(-4, 4));
}

/* C = alpha A B + beta C0 on host views, exact for small integers. */
static void check_product(gputile_matrix a, gputile_matrix b, gputile_matrix c, const float *c0,
                          float alpha, float beta)
{
    for (size_t i = 0; i < c.height; ++i)
        for (size_t j = 0; j < c.width; ++j) {
            double acc = 0;
            for (size_t q = 0; q < a.width; ++q)
                acc += (double)gputile_get_element(a, i, q) * gputile_get_element(b, q, j);
            double want = alpha * acc + (beta != 0 ? beta * c0[i * c.width + j] : 0.0);
            cr_assert_eq(gputile_get_element(c, i, j), (float)want, "C(%zu, %zu)", i, j);
        }
}

Test(memory, matmul_on_host_views, .init = gputest_require_device)
{
    const size_t m = 123, n = 77, k = 301, pad = 5;
    float *pa = malloc((m + 2) * (k + pad) * sizeof(float));
    float *pb = malloc((k + 2) * (n + pad) * sizeof(float));
    float *pc = malloc((m + 2) * (n + pad) * sizeof(float));
    cr_assert(pa && pb && pc);
    for (size_t i = 0; i < (m + 2) * (n + pad); ++i)
        pc[i] = gputest_poison();
    gputile_matrix a =
        gputile_get_submatrix(gputile_matrix_view(pa, k + pad, m + 2, k + pad), 1, 3, k, m);
    gputile_matrix b =
        gputile_get_submatrix(gputile_matrix_view(pb, n + pad, k + 2, n + pad), 1, 2, n, k);
    gputile_matrix c =
        gputile_get_submatrix(gputile_matrix_view(pc, n + pad, m + 2, n + pad), 1, 1, n, m);
    fill_ints(a);
    fill_ints(b);
    cr_assert_eq(gputile_matmul(a, b, c), GPUTILE_SUCCESS);
    check_product(a, b, c, NULL, 1, 0);
    for (size_t r = 0; r < m + 2; ++r)
        for (size_t col = 0; col < n + pad; ++col)
            if (r < 1 || r > m || col < 1 || col > n)
                cr_assert(gputest_is_poison(pc[r * (n + pad) + col]), "guard at (%zu, %zu)", r,
                          col);
    free(pa);
    free(pb);
    free(pc);
}

/* A on the host, B on the device, C on the host with beta != 0; then C on
 * the device with A on the host. */
Test(memory, gemm_on_mixed_memory, .init = gputest_require_device)
{
    const size_t m = 65, n = 33, k = 47;
    float *ha = malloc(m * k * sizeof(float)), *hb = malloc(k * n * sizeof(float));
    float *hc = malloc(m * n * sizeof(float)), *c0 = malloc(m * n * sizeof(float));
    cr_assert(ha && hb && hc && c0);
    gputile_matrix a = gputile_matrix_view(ha, k, m, k), bh = gputile_matrix_view(hb, n, k, n);
    gputile_matrix c = gputile_matrix_view(hc, n, m, n), bd, cd;
    fill_ints(a);
    fill_ints(bh);
    fill_ints(c);
    memcpy(c0, hc, m * n * sizeof(float));
    cr_assert_eq(gputile_matrix_alloc_device(&bd, n, k), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_copy(bd, bh, NULL), GPUTILE_SUCCESS);

    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cr_assert_eq(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 2.0f, a, bd, -1.0f, c, stream, NULL),
                 GPUTILE_SUCCESS);
    check_product(a, bh, c, c0, 2.0f, -1.0f); /* host C complete on return */

    cr_assert_eq(gputile_matrix_alloc_device(&cd, n, m), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, bd, 0.0f, cd, stream, NULL),
                 GPUTILE_SUCCESS);
    GPUTEST_CUDA(cudaStreamSynchronize(stream));
    cr_assert_eq(gputile_matrix_copy(c, cd, stream), GPUTILE_SUCCESS);
    check_product(a, bh, c, NULL, 1.0f, 0.0f);

    GPUTEST_CUDA(cudaStreamDestroy(stream));
    cr_assert_eq(gputile_matrix_free_device(&bd), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_matrix_free_device(&cd), GPUTILE_SUCCESS);
    free(ha);
    free(hb);
    free(hc);
    free(c0);
}

/* The library's device scratch (lib/workspace.c) stays in the default pool
 * across synchronisations up to a sixteenth of the device's memory (at
 * least 1 GiB): a request of 1.25 GiB, freed and synchronised, is still
 * reserved by the pool (mapped), so the next call of that size maps
 * nothing anew. The pool's threshold is put back and the pool trimmed
 * after. */
cudaError_t gputile__workspace_acquire(void **p, size_t bytes, int device, cudaStream_t stream);
cudaError_t gputile__workspace_release(void *p, cudaStream_t stream);

Test(memory, workspace_pool_keeps_large_scratch, .init = gputest_require_device)
{
    int dev;
    size_t free_mem, total;
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaMemGetInfo(&free_mem, &total));
    const size_t bytes = (size_t)5 << 28; /* 1.25 GiB */
    if (total / 16 < bytes || free_mem < 2 * bytes)
        cr_skip_test("needs a device of 20 GiB with 2.5 GiB free");
    cudaMemPool_t pool;
    uint64_t old = 0, now = 0, reserved = 0;
    GPUTEST_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
    GPUTEST_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &old));
    void *p = NULL;
    const cudaError_t err = gputile__workspace_acquire(&p, bytes, dev, 0);
    if (err == cudaErrorMemoryAllocation) { /* another process took the memory meanwhile */
        (void)cudaGetLastError();
        cr_skip_test("1.25 GiB could not be had");
    }
    GPUTEST_CUDA(err);
    GPUTEST_CUDA(gputile__workspace_release(p, 0));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &now));
    GPUTEST_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    GPUTEST_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &old));
    GPUTEST_CUDA(cudaMemPoolTrimTo(pool, 0));
    cr_expect_geq(now, bytes, "threshold %llu", (unsigned long long)now);
    cr_expect_geq(reserved, bytes, "reserved %llu after a synchronisation",
                  (unsigned long long)reserved);
}
