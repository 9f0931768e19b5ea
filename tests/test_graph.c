/* SPDX-License-Identifier: MIT */
/*
 * test_graph.c (GPU): the device-memory calls captured into a CUDA graph.
 *
 * A stream is captured in CUDA's strictest mode (cudaStreamCaptureModeGlobal:
 * any call that would synchronise or allocate outside the stream's order
 * fails and invalidates the capture) while gputile_gemm (FP32 small, FP32
 * split along k, which takes workspace, and TF32), a strided batch and the
 * histograms in each tier the device has are called on it. Every call must
 * succeed, the capture must end valid, and the graph, replayed twice with
 * new inputs written in between (a graph reads its inputs when it runs),
 * must give exact results both times: small-integer matrices, whose
 * products FP32 and TF32 both hold exactly, against a CPU reference, and
 * counts against a CPU count. Outputs are poisoned before each replay.
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

typedef struct product {
    size_t m, n, k, count; /* count > 1: a strided batch */
    int precision;
    float *a, *b, *c;          /* host, count problems each, compact */
    gputile_matrix da, db, dc; /* device, the first problem's views */
} product;

static product products[] = {
    {.m = 96, .n = 80, .k = 70, .count = 1, .precision = GPUTILE_PRECISION_FP32},
    {.m = 128, .n = 128, .k = 8192, .count = 1, .precision = GPUTILE_PRECISION_FP32},
    {.m = 256, .n = 192, .k = 512, .count = 1, .precision = GPUTILE_PRECISION_TF32},
    {.m = 24, .n = 40, .k = 33, .count = 300, .precision = GPUTILE_PRECISION_FP32},
};
#define N_PRODUCTS (sizeof products / sizeof products[0])

typedef struct count_case {
    int tier;
    int32_t nbins;
    uint64_t *counts; /* device */
    uint64_t *want;   /* host */
    bool planned;     /* the device has this tier for nbins */
} count_case;

static count_case counts[] = {
    {.tier = GPUTILE_HIST_TIER_SHARED, .nbins = 256},
    {.tier = GPUTILE_HIST_TIER_DSM, .nbins = 65536},
    {.tier = GPUTILE_HIST_TIER_GLOBAL, .nbins = 5000},
    {.tier = GPUTILE_HIST_TIER_ROUTE, .nbins = 1 << 20},
    {.tier = GPUTILE_HIST_TIER_SEED, .nbins = 32768},
};
#define N_COUNTS (sizeof counts / sizeof counts[0])
#define N_SAMPLES ((size_t)3 << 20)

static size_t elems(size_t rows, size_t cols, size_t count)
{
    return rows * cols * count;
}

static void fill_inputs(product *p)
{
    for (size_t i = 0; i < elems(p->m, p->k, p->count); ++i)
        p->a[i] = gputest_small_int(-4, 4);
    for (size_t i = 0; i < elems(p->k, p->n, p->count); ++i)
        p->b[i] = gputest_small_int(-4, 4);
    GPUTEST_CUDA(cudaMemcpy(p->da.elements, p->a, sizeof(float) * elems(p->m, p->k, p->count),
                            cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemcpy(p->db.elements, p->b, sizeof(float) * elems(p->k, p->n, p->count),
                            cudaMemcpyHostToDevice));
}

/* C = A B, exact: |sum| <= 16 k < 2^24 */
static void check_product(const product *p, int replay)
{
    const size_t nc = elems(p->m, p->n, p->count);
    GPUTEST_CUDA(cudaMemcpy(p->c, p->dc.elements, sizeof(float) * nc, cudaMemcpyDeviceToHost));
    for (size_t z = 0; z < p->count; ++z) {
        const float *a = p->a + z * p->m * p->k, *b = p->b + z * p->k * p->n;
        const float *c = p->c + z * p->m * p->n;
        for (size_t i = 0; i < p->m; ++i)
            for (size_t j = 0; j < p->n; ++j) {
                double s = 0;
                for (size_t l = 0; l < p->k; ++l)
                    s += (double)a[i * p->k + l] * b[l * p->n + j];
                cr_assert_eq(c[i * p->n + j], (float)s,
                             "replay %d, %zux%zux%zu x%zu: C[%zu](%zu,%zu) = %g, want %g", replay,
                             p->m, p->n, p->k, p->count, z, i, j, c[i * p->n + j], s);
            }
    }
}

static void fill_samples(int32_t *host, int32_t *dev)
{
    for (size_t i = 0; i < N_SAMPLES; ++i)
        host[i] = (int32_t)(gputest_rand() % ((1u << 20) + 64)) - 32;
    GPUTEST_CUDA(cudaMemcpy(dev, host, sizeof(int32_t) * N_SAMPLES, cudaMemcpyHostToDevice));
}

static void check_counts(const count_case *h, const int32_t *samples, int replay)
{
    memset(h->want, 0, sizeof(uint64_t) * (size_t)h->nbins);
    for (size_t i = 0; i < N_SAMPLES; ++i) {
        const int32_t x = samples[i];
        h->want[x < 0 ? 0 : x >= h->nbins ? h->nbins - 1 : x]++;
    }
    uint64_t *got = malloc(sizeof(uint64_t) * (size_t)h->nbins);
    cr_assert_not_null(got);
    GPUTEST_CUDA(
        cudaMemcpy(got, h->counts, sizeof(uint64_t) * (size_t)h->nbins, cudaMemcpyDeviceToHost));
    for (int32_t b = 0; b < h->nbins; ++b)
        cr_assert_eq(got[b], h->want[b], "replay %d, tier %s, %d bins: bin %d = %llu, want %llu",
                     replay, gputile_hist_tier_name(h->tier), h->nbins, b,
                     (unsigned long long)got[b], (unsigned long long)h->want[b]);
    free(got);
}

static void poison_outputs(void)
{
    for (size_t i = 0; i < N_PRODUCTS; ++i) {
        const product *p = &products[i];
        GPUTEST_CUDA(cudaMemset(p->dc.elements, 0xff, sizeof(float) * elems(p->m, p->n, p->count)));
    }
    for (size_t i = 0; i < N_COUNTS; ++i)
        if (counts[i].planned)
            GPUTEST_CUDA(cudaMemset(counts[i].counts, 0xa5, sizeof(uint64_t) * counts[i].nbins));
}

/* Every call, queued on `stream` (which is being captured). */
static void queue_calls(cudaStream_t stream, const int32_t *samples)
{
    for (size_t i = 0; i < N_PRODUCTS; ++i) {
        product *p = &products[i];
        gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
        o.precision = p->precision;
        if (p->count == 1)
            OK(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, p->da, p->db, 0.0f, p->dc, stream,
                            &o));
        else
            OK(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, p->da, p->m * p->k,
                                            p->db, p->k * p->n, 0.0f, p->dc, p->m * p->n, p->count,
                                            stream, &o));
        cr_log_info("captured %zux%zux%zu x%zu: %s, split %d", p->m, p->n, p->k, p->count,
                    gputile_algorithm_name(o.algorithm_used), o.split_k_used);
    }
    for (size_t i = 0; i < N_COUNTS; ++i) {
        if (!counts[i].planned)
            continue;
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        o.tier = counts[i].tier;
        OK(gputile_histogram_i32(samples, N_SAMPLES, counts[i].nbins, counts[i].counts,
                                 GPUTILE_HIST_OVERWRITE, stream, &o));
        cr_assert_eq(o.tier_used, counts[i].tier);
    }
}

Test(graph, captured_calls_replay_exactly, .init = gputest_require_device, .timeout = 300)
{
    for (size_t i = 0; i < N_PRODUCTS; ++i) {
        product *p = &products[i];
        p->a = malloc(sizeof(float) * elems(p->m, p->k, p->count));
        p->b = malloc(sizeof(float) * elems(p->k, p->n, p->count));
        p->c = malloc(sizeof(float) * elems(p->m, p->n, p->count));
        cr_assert(p->a && p->b && p->c);
        GPUTEST_CUDA(
            gputest_malloc((void **)&p->da.elements, sizeof(float) * elems(p->m, p->k, p->count)));
        GPUTEST_CUDA(
            gputest_malloc((void **)&p->db.elements, sizeof(float) * elems(p->k, p->n, p->count)));
        GPUTEST_CUDA(
            gputest_malloc((void **)&p->dc.elements, sizeof(float) * elems(p->m, p->n, p->count)));
        p->da.width = p->da.stride = p->k, p->da.height = p->m;
        p->db.width = p->db.stride = p->n, p->db.height = p->k;
        p->dc.width = p->dc.stride = p->n, p->dc.height = p->m;
    }
    for (size_t i = 0; i < N_COUNTS; ++i) {
        count_case *h = &counts[i];
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        o.tier = h->tier;
        const gputile_status s = gputile_histogram_plan(h->nbins, &o);
        h->planned = s == GPUTILE_SUCCESS;
        if (!h->planned) {
            cr_assert_eq(s, GPUTILE_ERROR_UNSUPPORTED, "plan: %s", gputile_status_name(s));
            cr_log_info("no %s tier for %d bins here", gputile_hist_tier_name(h->tier), h->nbins);
            continue;
        }
        h->want = malloc(sizeof(uint64_t) * (size_t)h->nbins);
        cr_assert_not_null(h->want);
        GPUTEST_CUDA(gputest_malloc((void **)&h->counts, sizeof(uint64_t) * (size_t)h->nbins));
    }
    int32_t *samples = malloc(sizeof(int32_t) * N_SAMPLES), *dsamples;
    cr_assert_not_null(samples);
    GPUTEST_CUDA(gputest_malloc((void **)&dsamples, sizeof(int32_t) * N_SAMPLES));

    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPUTEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    queue_calls(stream, dsamples);
    cudaGraph_t graph;
    GPUTEST_CUDA(cudaStreamEndCapture(stream, &graph)); /* invalidated: a call left the order */
    cudaGraphExec_t exec;
    GPUTEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));

    for (int replay = 0; replay < 2; ++replay) {
        for (size_t i = 0; i < N_PRODUCTS; ++i)
            fill_inputs(&products[i]);
        fill_samples(samples, dsamples);
        poison_outputs();
        GPUTEST_CUDA(cudaGraphLaunch(exec, stream));
        GPUTEST_CUDA(cudaStreamSynchronize(stream));
        for (size_t i = 0; i < N_PRODUCTS; ++i)
            check_product(&products[i], replay);
        for (size_t i = 0; i < N_COUNTS; ++i)
            if (counts[i].planned)
                check_counts(&counts[i], samples, replay);
    }

    GPUTEST_CUDA(cudaGraphExecDestroy(exec));
    GPUTEST_CUDA(cudaGraphDestroy(graph));
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    for (size_t i = 0; i < N_PRODUCTS; ++i) {
        product *p = &products[i];
        GPUTEST_CUDA(cudaFree(p->da.elements));
        GPUTEST_CUDA(cudaFree(p->db.elements));
        GPUTEST_CUDA(cudaFree(p->dc.elements));
        free(p->a), free(p->b), free(p->c);
    }
    for (size_t i = 0; i < N_COUNTS; ++i)
        if (counts[i].planned) {
            GPUTEST_CUDA(cudaFree(counts[i].counts));
            free(counts[i].want);
        }
    GPUTEST_CUDA(cudaFree(dsamples));
    free(samples);
}

/* The calls a graph cannot replay on a capturing stream: each returns
 * GPUTILE_ERROR_UNSUPPORTED, writes nothing and queues nothing, and the
 * capture stays valid; copies between device and pinned or cached host
 * memory are captured, and read (or write) the host buffer when the graph
 * runs. */
Test(graph, calls_a_graph_cannot_replay_are_refused, .init = gputest_require_device, .timeout = 120)
{
    enum { W = 64, H = 48, BYTES = 8 << 20, PIN = 1 << 20 };
    float *ha = malloc(sizeof(float) * W * W), *hc = malloc(sizeof(float) * W * W);
    /* cached whole pages: the registration rounds out to pages, and a
     * plain cudaMemcpy into a neighbour sharing one of them fails with
     * cudaErrorInvalidValue (a range partly pinned; seen on the H200 with
     * malloc'd buffers side by side) */
    unsigned char *page = malloc(BYTES), *cached = aligned_alloc(4096, PIN), *pinned,
                  *back = malloc(PIN);
    cr_assert(ha && hc && page && cached && back);
    for (int i = 0; i < W * W; ++i)
        ha[i] = gputest_small_int(-4, 4), hc[i] = gputest_poison();
    memset(page, 0x5a, BYTES);
    OK_ALLOC(gputile_pinned_alloc((void **)&pinned, PIN, 0));
    OK_ALLOC(gputile_copy_cache(cached, PIN));
    float *dm;
    unsigned char *dbytes;
    uint8_t *img;
    uint64_t *dcounts;
    GPUTEST_CUDA(gputest_malloc((void **)&dm, sizeof(float) * 4 * W * W));
    GPUTEST_CUDA(gputest_malloc((void **)&dbytes, BYTES));
    GPUTEST_CUDA(gputest_malloc((void **)&img, (size_t)W * H));
    GPUTEST_CUDA(gputest_malloc((void **)&dcounts, sizeof(uint64_t) * 16));
    GPUTEST_CUDA(cudaMemset(dbytes, 0xc3, BYTES));
    const gputile_matrix hA = gputile_matrix_view(ha, W, W, W),
                         hC = gputile_matrix_view(hc, W, W, W);
    const gputile_matrix dA = gputile_matrix_view(dm, W, W, W),
                         dB = gputile_matrix_view(dm + W * W, W, W, W),
                         dC = gputile_matrix_view(dm + 2 * W * W, W, W, W);
    /* three problems of 16 x 16 views, unevenly spaced: descriptors to send */
    gputile_matrix va[3], vb[3], vc[3];
    const size_t at[3] = {0, 17, 100};
    for (int i = 0; i < 3; ++i) {
        va[i] = gputile_matrix_view(dm + at[i], 16, 16, W);
        vb[i] = gputile_matrix_view(dm + W * W + at[i], 16, 16, W);
        vc[i] = gputile_matrix_view(dm + 3 * W * W + 20 * i, 16, 16, W);
    }
    gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
    in.samples = img, in.width = W, in.height = H, in.row_stride_bytes = W;
    const int32_t nedges[1] = {5};
    const double e0[5] = {0, 10, 50, 100, 256}, *edges[1] = {e0};
    uint64_t *const outs[1] = {dcounts};

    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPUTEST_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    EXPECT(gputile_copy(dbytes, page, BYTES, stream), GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(gputile_copy(page, dbytes, BYTES, stream), GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(gputile_matrix_copy(dA, hA, stream), GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(gputile_matrix_copy(hC, dA, stream), GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, hA, hA, 0.0f, hC, stream, NULL),
           GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(
        gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, va, vb, 0.0f, vc, 3, stream, NULL),
        GPUTILE_ERROR_UNSUPPORTED);
    EXPECT(gputile_histogram_range(&in, nedges, edges, outs, GPUTILE_HIST_OVERWRITE, stream, NULL),
           GPUTILE_ERROR_UNSUPPORTED);
    /* captured: device work, and copies with pinned or cached host memory */
    OK(gputile_copy(dbytes, pinned, PIN, stream));
    OK(gputile_copy(cached, dbytes + PIN, PIN, stream));
    OK(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, dA, dB, 0.0f, dC, stream, NULL));
    cudaGraph_t graph;
    GPUTEST_CUDA(cudaStreamEndCapture(stream, &graph)); /* still valid */
    cr_assert_eq(gputest_count_not(page, BYTES, 0x5a), 0,
                 "a refused download wrote its destination");
    for (int i = 0; i < W * W; ++i)
        cr_assert(gputest_is_poison(hc[i]), "a refused call wrote host C at %d", i);

    cudaGraphExec_t exec;
    GPUTEST_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    memset(pinned, 0x77, PIN); /* read when the graph runs, not when captured */
    memset(cached, 0, PIN);
    GPUTEST_CUDA(cudaMemcpy(dm, ha, sizeof(float) * W * W, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemcpy(dm + W * W, ha, sizeof(float) * W * W, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaGraphLaunch(exec, stream));
    GPUTEST_CUDA(cudaStreamSynchronize(stream));
    GPUTEST_CUDA(cudaMemcpy(back, dbytes, PIN, cudaMemcpyDeviceToHost));
    cr_assert_eq(gputest_count_not(back, PIN, 0x77), 0, "the upload did not read pinned memory");
    cr_assert_eq(gputest_count_not(cached, PIN, 0xc3), 0, "the download did not write");
    GPUTEST_CUDA(cudaMemcpy(hc, dm + 2 * W * W, sizeof(float) * W * W, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W; ++i)
        for (int j = 0; j < W; ++j) {
            double s = 0;
            for (int l = 0; l < W; ++l)
                s += (double)ha[i * W + l] * ha[l * W + j];
            cr_assert_eq(hc[i * W + j], (float)s, "C(%d,%d)", i, j);
        }

    GPUTEST_CUDA(cudaGraphExecDestroy(exec));
    GPUTEST_CUDA(cudaGraphDestroy(graph));
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    OK(gputile_copy_uncache(cached));
    OK(gputile_pinned_free(pinned));
    GPUTEST_CUDA(cudaFree(dm));
    GPUTEST_CUDA(cudaFree(dbytes));
    GPUTEST_CUDA(cudaFree(img));
    GPUTEST_CUDA(cudaFree(dcounts));
    free(ha), free(hc), free(page), free(cached), free(back);
}
