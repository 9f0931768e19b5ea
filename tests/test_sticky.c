/* SPDX-License-Identifier: MIT */
/*
 * test_sticky.c (GPU): what libgputile does after CUDA failures (issue 7).
 *
 * - Sticky: a test kernel stores through an invalid address
 *   (tests/support/sticky_kernel.cu), which corrupts the CUDA context.
 *   Every call that needs CUDA must then return GPUTILE_ERROR_CUDA with
 *   gputile_last_cuda_error() naming that error, write nothing to host
 *   outputs, and not crash; checks that need no device still answer as
 *   before. Then the recovery gputile(7) documents: hand back the
 *   library's pinned memory (the calls fail but forget it), release the
 *   pool, cudaDeviceReset(); after that the library works again, or says
 *   GPUTILE_ERROR_NO_DEVICE while the driver is still recovering the GPU.
 * - Not sticky: an error the caller's own CUDA call left pending, an
 *   allocation the device refuses (OUT_OF_MEMORY) and a bad free (CUDA);
 *   the very next calls succeed with exact results.
 * Each Test runs in its own process (Criterion), so the corrupted context
 * cannot reach the other tests.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/expect.h"
#include "support/gpu.h"

cudaError_t gputest_illegal_store(cudaStream_t stream);

#define M 96 /* the matrices: M x M, small integers, exact in FP32 */
#define NS 4096
#define NB 64
#define COPY_BYTES ((size_t)8 << 20) /* above the staging threshold */

typedef struct work {
    float *a, *b, *c, *want;          /* host, pageable */
    gputile_matrix da, db, dc;        /* device */
    int32_t *samples;                 /* device */
    uint64_t *counts;                 /* device */
    uint64_t want_counts[NB];         /* gputile_histogram_i32: clamped into the bins */
    uint64_t want_even[NB];           /* the image calls over [0, NB): others not counted */
    unsigned char *bytes, *bytes_out; /* pageable, COPY_BYTES */
    void *dbytes;                     /* device, COPY_BYTES */
} work;

static gputile_matrix hmat(float *p)
{
    return gputile_matrix_view(p, M, M, M);
}

static void setup(work *w)
{
    w->a = malloc(sizeof(float) * M * M);
    w->b = malloc(sizeof(float) * M * M);
    w->c = malloc(sizeof(float) * M * M);
    w->want = malloc(sizeof(float) * M * M);
    w->bytes = malloc(COPY_BYTES);
    w->bytes_out = malloc(COPY_BYTES);
    cr_assert(w->a && w->b && w->c && w->want && w->bytes && w->bytes_out);
    for (int i = 0; i < M * M; ++i) {
        w->a[i] = gputest_small_int(-8, 8);
        w->b[i] = gputest_small_int(-8, 8);
    }
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < M; ++j) {
            float s = 0;
            for (int k = 0; k < M; ++k)
                s += w->a[i * M + k] * w->b[k * M + j];
            w->want[i * M + j] = s;
        }
    for (size_t i = 0; i < COPY_BYTES; ++i)
        w->bytes[i] = (unsigned char)gputest_rand();
    int32_t *s = malloc(sizeof(int32_t) * NS);
    cr_assert_not_null(s);
    memset(w->want_counts, 0, sizeof w->want_counts);
    memset(w->want_even, 0, sizeof w->want_even);
    for (int i = 0; i < NS; ++i) {
        s[i] = (int32_t)(gputest_rand() % (NB + 10)) - 5;
        w->want_counts[s[i] < 0 ? 0 : s[i] >= NB ? NB - 1 : s[i]]++;
        if (s[i] >= 0 && s[i] < NB)
            w->want_even[s[i]]++;
    }
    OK_ALLOC(gputile_matrix_alloc_device(&w->da, M, M));
    OK_ALLOC(gputile_matrix_alloc_device(&w->db, M, M));
    OK_ALLOC(gputile_matrix_alloc_device(&w->dc, M, M));
    OK(gputile_matrix_copy(w->da, hmat(w->a), NULL));
    OK(gputile_matrix_copy(w->db, hmat(w->b), NULL));
    OK_ALLOC(gputile_device_alloc((void **)&w->samples, sizeof(int32_t) * NS));
    OK_ALLOC(gputile_device_alloc((void **)&w->counts, sizeof(uint64_t) * NB));
    OK_ALLOC(gputile_device_alloc(&w->dbytes, COPY_BYTES));
    GPUTEST_CUDA(cudaMemcpy(w->samples, s, sizeof(int32_t) * NS, cudaMemcpyHostToDevice));
    free(s);
}

/* Frees what setup() made; device memory only when the context still has it. */
static void teardown(work *w, bool device)
{
    free(w->a);
    free(w->b);
    free(w->c);
    free(w->want);
    free(w->bytes);
    free(w->bytes_out);
    if (device) {
        OK(gputile_matrix_free_device(&w->da));
        OK(gputile_matrix_free_device(&w->db));
        OK(gputile_matrix_free_device(&w->dc));
        OK(gputile_device_free(w->samples));
        OK(gputile_device_free(w->counts));
        OK(gputile_device_free(w->dbytes));
    }
}

static void poison_floats(float *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = gputest_poison();
}

/* The caller's pending error being watched (cudaSuccess: none): the
 * first call after which it is gone is logged. */
static cudaError_t watched;
static void watch(const char *after)
{
    if (watched == cudaSuccess)
        return;
    const cudaError_t now = cudaPeekAtLastError();
    if (now != watched) {
        cr_log_info("the caller's pending %s is %s after %s", cudaGetErrorName(watched),
                    cudaGetErrorName(now), after);
        watched = cudaSuccess;
    }
}

/* Each call, valid, with an exact check of its result. */
static void assert_library_works(work *w)
{
    poison_floats(w->c, M * M);
    OK(gputile_matmul(hmat(w->a), hmat(w->b), hmat(w->c)));
    watch("gputile_matmul");
    cr_assert(memcmp(w->c, w->want, sizeof(float) * M * M) == 0, "host matmul: wrong result");

    poison_floats(w->c, M * M);
    OK(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, w->da, w->db, 0, w->dc, NULL, NULL));
    watch("gputile_gemm");
    OK(gputile_matrix_copy(hmat(w->c), w->dc, NULL));
    watch("gputile_matrix_copy");
    cr_assert(memcmp(w->c, w->want, sizeof(float) * M * M) == 0, "device gemm: wrong result");

    uint64_t got[NB];
    OK(gputile_histogram_i32(w->samples, NS, NB, w->counts, GPUTILE_HIST_OVERWRITE, NULL, NULL));
    watch("gputile_histogram_i32");
    GPUTEST_CUDA(cudaMemcpy(got, w->counts, sizeof got, cudaMemcpyDeviceToHost));
    watch("the test's cudaMemcpy");
    cr_assert(memcmp(got, w->want_counts, sizeof got) == 0, "histogram: wrong counts");

    /* the image calls: the samples as one row of NS int32 pixels */
    gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
    in.samples = w->samples;
    in.type = GPUTILE_SAMPLE_I32;
    in.width = NS;
    in.height = 1;
    in.row_stride_bytes = NS * sizeof(int32_t);
    const gputile_hist_even levels[1] = {{NB, 0, 0.0, (double)NB}};
    uint64_t *const counts[1] = {w->counts};
    GPUTEST_CUDA(cudaMemset(w->counts, 0xFF, sizeof got));
    OK(gputile_histogram_even(&in, levels, counts, GPUTILE_HIST_OVERWRITE, NULL, NULL));
    watch("gputile_histogram_even");
    GPUTEST_CUDA(cudaMemcpy(got, w->counts, sizeof got, cudaMemcpyDeviceToHost));
    cr_assert(memcmp(got, w->want_even, sizeof got) == 0, "even image histogram: wrong counts");
    double edges[NB + 1];
    for (int i = 0; i <= NB; ++i)
        edges[i] = i;
    const int32_t nedges[1] = {NB + 1};
    const double *const edge_sets[1] = {edges};
    GPUTEST_CUDA(cudaMemset(w->counts, 0xFF, sizeof got));
    OK(gputile_histogram_range(&in, nedges, edge_sets, counts, GPUTILE_HIST_OVERWRITE, NULL, NULL));
    watch("gputile_histogram_range");
    GPUTEST_CUDA(cudaMemcpy(got, w->counts, sizeof got, cudaMemcpyDeviceToHost));
    cr_assert(memcmp(got, w->want_even, sizeof got) == 0, "range image histogram: wrong counts");

    /* the batches (one product each) and the multi-device call on this device */
    GPUTEST_CUDA(cudaMemset(w->dc.elements, 0xFF, sizeof(float) * M * M));
    OK(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, w->da, 0, w->db, 0, 0, w->dc, 0,
                                    1, NULL, NULL));
    watch("gputile_gemm_strided_batched");
    OK(gputile_matrix_copy(hmat(w->c), w->dc, NULL));
    cr_assert(memcmp(w->c, w->want, sizeof(float) * M * M) == 0, "strided batch: wrong result");
    GPUTEST_CUDA(cudaMemset(w->dc.elements, 0xFF, sizeof(float) * M * M));
    OK(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, &w->da, &w->db, 0, &w->dc, 1, NULL,
                            NULL));
    watch("gputile_gemm_batched");
    OK(gputile_matrix_copy(hmat(w->c), w->dc, NULL));
    cr_assert(memcmp(w->c, w->want, sizeof(float) * M * M) == 0, "views batch: wrong result");
    int device = 0;
    GPUTEST_CUDA(cudaGetDevice(&device));
    poison_floats(w->c, M * M);
    OK(gputile_gemm_devices(&device, 1, GPUTILE_OP_N, GPUTILE_OP_N, 1, hmat(w->a), hmat(w->b), 0,
                            hmat(w->c), NULL));
    watch("gputile_gemm_devices");
    cr_assert(memcmp(w->c, w->want, sizeof(float) * M * M) == 0, "gemm_devices: wrong result");

    memset(w->bytes_out, 0, COPY_BYTES);
    OK(gputile_copy_cache(w->bytes, COPY_BYTES));
    watch("gputile_copy_cache");
    OK(gputile_copy(w->dbytes, w->bytes, COPY_BYTES, NULL));
    watch("gputile_copy of a cached buffer");
    OK(gputile_copy_uncache(w->bytes));
    watch("gputile_copy_uncache");
    OK(gputile_copy(w->bytes_out, w->dbytes, COPY_BYTES, NULL));
    cr_assert(memcmp(w->bytes_out, w->bytes, COPY_BYTES) == 0, "cached copy: wrong bytes");

    memset(w->bytes_out, 0, COPY_BYTES);
    OK(gputile_copy(w->dbytes, w->bytes, COPY_BYTES, NULL));
    watch("gputile_copy up");
    OK(gputile_copy(w->bytes_out, w->dbytes, COPY_BYTES, NULL));
    watch("gputile_copy down");
    cr_assert(memcmp(w->bytes_out, w->bytes, COPY_BYTES) == 0, "staged copies: wrong bytes");

    void *p = NULL;
    OK_ALLOC(gputile_pool_alloc(&p, 1 << 20, 0));
    watch("gputile_pool_alloc");
    memset(p, 0x3c, 1 << 20);
    OK(gputile_pool_free(p));
    watch("gputile_pool_free");
    OK_ALLOC(gputile_pinned_alloc(&p, 1 << 16, GPUTILE_PINNED_MAPPED));
    watch("gputile_pinned_alloc");
    void *d = NULL;
    OK(gputile_pinned_device_pointer(&d, p));
    watch("gputile_pinned_device_pointer");
    OK(gputile_pinned_free(p));
    watch("gputile_pinned_free");
}

/* status must be GPUTILE_ERROR_CUDA carrying the sticky error. */
#define EXPECT_STICKY(call, sticky)                                                   \
    do {                                                                              \
        gputile_status s_ = (call);                                                   \
        cr_expect_eq(s_, GPUTILE_ERROR_CUDA, "%s after a sticky error: %s", #call,    \
                     gputile_status_name(s_));                                        \
        /* gputile(7): a CUDA error, usually the sticky one itself */                 \
        cr_expect_neq(gputile_last_cuda_error(), 0, "%s: no CUDA error kept", #call); \
        if (gputile_last_cuda_error() != (int)(sticky))                               \
            cr_log_info("%s: reported %s", #call, gputile_last_cuda_error_name());    \
    } while (0)

/* A free after a sticky error: CUDA may report the error or not; either
 * way the library has forgotten the memory. */
#define EXPECT_FORGOTTEN(call, sticky)                                                \
    do {                                                                              \
        gputile_status s_ = (call);                                                   \
        (void)(sticky);                                                               \
        cr_expect(s_ == GPUTILE_SUCCESS ||                                            \
                      (s_ == GPUTILE_ERROR_CUDA && gputile_last_cuda_error() != 0),   \
                  "%s after a sticky error: %s (%s)", #call, gputile_status_name(s_), \
                  gputile_last_cuda_error_name());                                    \
    } while (0)

/* Non-sticky failures: an allocation CUDA refuses and bad frees leave the
 * library usable. They run first in the sticky test's own process, which
 * keeps the whole file to one test process on the GPU. */
static void non_sticky_failures_leave_the_library_usable(work *w)
{
    /* The caller's own failed CUDA call leaves its error pending. The
     * library's calls must neither fail with it (launches whose status was
     * read back with cudaGetLastError() did) nor clear it. */
    cr_assert_neq(cudaMemcpy(w->dbytes, w->bytes, 1, (enum cudaMemcpyKind)99), cudaSuccess);
    watched = cudaErrorInvalidMemcpyDirection;
    assert_library_works(w);
    const cudaError_t left = cudaGetLastError();
    cr_assert(left == cudaErrorInvalidMemcpyDirection || left == cudaSuccess,
              "the library left an error of its own pending: %s", cudaGetErrorName(left));

    void *p = &p;
    EXPECT(gputile_device_alloc(&p, (size_t)1 << 60), GPUTILE_ERROR_OUT_OF_MEMORY);
    cr_assert_eq(gputile_last_cuda_error(), cudaErrorMemoryAllocation);
    cr_assert_eq(p, (void *)&p);
    assert_library_works(w);

    /* A bad free fails inside CUDA; the next launches must not inherit it. */
    EXPECT(gputile_device_free(w->a), GPUTILE_ERROR_CUDA);
    cr_assert_neq(gputile_last_cuda_error(), 0);
    assert_library_works(w);
    void *d = NULL;
    OK_ALLOC(gputile_device_alloc(&d, 64));
    OK(gputile_device_free(d));
    EXPECT(gputile_device_free(d), GPUTILE_ERROR_CUDA);
    assert_library_works(w);
}

Test(sticky, non_sticky_then_sticky_errors, .init = gputest_require_device, .timeout = 120)
{
    work w;
    setup(&w);
    non_sticky_failures_leave_the_library_usable(&w);
    assert_library_works(&w);

    /* Library memory held across the failure, and an empty pool cache. */
    void *pinned = NULL, *pooled = NULL;
    OK_ALLOC(gputile_pinned_alloc(&pinned, 1 << 16, 0));
    OK_ALLOC(gputile_pool_alloc(&pooled, 1 << 16, 0));
    OK(gputile_pool_release());
    static char reg[3 * 4096] __attribute__((aligned(4096)));

    GPUTEST_CUDA(gputest_illegal_store(NULL));
    cudaError_t sticky = cudaDeviceSynchronize();
    cr_assert_neq(sticky, cudaSuccess, "the illegal store did not fail");
    cr_log_info("sticky error: %s", cudaGetErrorName(sticky));
    void *x = NULL;
    cr_assert_neq(cudaMalloc(&x, 16), cudaSuccess, "the error is not sticky");

    /* Host outputs are poisoned: nothing may reach them. */
    poison_floats(w.c, M * M);
    float *c_before = malloc(sizeof(float) * M * M);
    cr_assert_not_null(c_before);
    memcpy(c_before, w.c, sizeof(float) * M * M);
    memset(w.bytes_out, 0xa5, COPY_BYTES);
    gputile_gemm_options go = GPUTILE_GEMM_OPTIONS_INIT;
    go.algorithm_used = go.split_k_used = -7;
    gputile_histogram_options ho = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    ho.tier_used = -7;
    void *out = &out;

    EXPECT_STICKY(gputile_matmul(hmat(w.a), hmat(w.b), hmat(w.c)), sticky);
    EXPECT_STICKY(
        gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_T, 2, hmat(w.a), w.db, 0, hmat(w.c), NULL, &go),
        sticky);
    EXPECT_STICKY(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, w.da, w.db, 0, w.dc, NULL, &go),
                  sticky);
    EXPECT_STICKY(gputile_matrix_copy(hmat(w.c), w.dc, NULL), sticky);
    EXPECT_STICKY(gputile_histogram_i32(w.samples, NS, NB, w.counts, 0, NULL, &ho), sticky);
    EXPECT_STICKY(gputile_device_alloc(&out, 256), sticky);
    EXPECT_STICKY(gputile_copy(w.dbytes, w.bytes, COPY_BYTES, NULL), sticky);
    EXPECT_STICKY(gputile_copy(w.bytes_out, w.dbytes, COPY_BYTES, NULL), sticky);
    EXPECT_STICKY(gputile_copy(w.bytes_out, w.dbytes, 4096, NULL), sticky);
    EXPECT_STICKY(gputile_pinned_alloc(&out, 4096, 0), sticky);
    EXPECT_STICKY(gputile_pool_alloc(&out, 4096, 0), sticky);
    EXPECT_STICKY(gputile_pinned_register(reg, sizeof reg, 0), sticky);
    cr_assert(memcmp(w.c, c_before, sizeof(float) * M * M) == 0, "host C written");
    for (size_t i = 0; i < COPY_BYTES; ++i)
        cr_assert_eq(w.bytes_out[i], 0xa5, "copy destination written at byte %zu", i);
    cr_assert_eq(go.algorithm_used, -7, "gemm options written on error");
    cr_assert_eq(ho.tier_used, -7, "histogram options written on error");
    cr_assert_eq(out, (void *)&out, "out-pointer written on error");
    /* The plan asks the device about itself only: either answer is right. */
    gputile_status s = gputile_histogram_plan(NB, &ho);
    cr_assert(s == GPUTILE_SUCCESS || s == GPUTILE_ERROR_CUDA, "%s", gputile_status_name(s));

    /* Checks that need no device still answer as before. */
    EXPECT(gputile_matmul(hmat(w.a), hmat(w.b), hmat(NULL)), GPUTILE_ERROR_NULL_POINTER);
    EXPECT(gputile_histogram_i32(w.samples, NS, 0, w.counts, 0, NULL, NULL),
           GPUTILE_ERROR_INVALID_VALUE);
    EXPECT(gputile_pinned_free(reg), GPUTILE_ERROR_UNKNOWN_POINTER);
    cr_assert_eq(gputile_last_cuda_error(), (int)sticky, "kept across validation failures");

    /* Recovery, as gputile(7) says: hand back the library's host memory
     * (the CUDA frees fail, the library forgets the blocks all the same),
     * then reset the device; device memory is gone with the context. */
    EXPECT_FORGOTTEN(gputile_pinned_free(pinned), sticky);
    OK(gputile_pool_free(pooled)); /* cached: no CUDA call */
    EXPECT_FORGOTTEN(gputile_pool_release(), sticky);
    EXPECT(gputile_pinned_free(pinned), GPUTILE_ERROR_UNKNOWN_POINTER); /* forgotten */
    gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
    OK(gputile_pool_get_stats(&st));
    cr_assert_eq(st.in_use_blocks + st.cached_blocks, 0, "the pool still holds blocks");
    cudaError_t reset = cudaDeviceReset();
    cr_log_info("cudaDeviceReset: %s", cudaGetErrorName(reset));

    free(c_before);
    teardown(&w, false);
    /* Right after the reset the driver may still be recovering the GPU:
     * on the H200 (driver 580) the first allocation failed with
     * cudaErrorDevicesUnavailable in every run; gputile(7) says so. The
     * library must then say NO_DEVICE and write nothing; when the device
     * is back, everything works with fresh memory. */
    gputile_matrix probe = {0, 0, 0, NULL};
    gputile_status again = gputile_matrix_alloc_device(&probe, M, M);
    if (again == GPUTILE_ERROR_NO_DEVICE) {
        cr_assert_eq(gputile_last_cuda_error(), cudaErrorDevicesUnavailable, "%s",
                     gputile_last_cuda_error_name());
        cr_assert_null(probe.elements, "written on failure");
        cr_log_info("after cudaDeviceReset: %s (the GPU is still recovering)",
                    gputile_last_cuda_error_name());
        return;
    }
    OK(again);
    OK(gputile_matrix_free_device(&probe));
    setup(&w); /* fresh device memory in the new context */
    assert_library_works(&w);
    teardown(&w, true);
}
