/* SPDX-License-Identifier: MIT */
/*
 * multi.c: gputile-bench multi (issue 22): scaling over the GPUs of one host.
 *
 *   gputile-bench multi [--csv] [--runs N] [--warmup N] [--gpus N]
 *                       [--hist-mib N] [--gemm-n N] [--gemm-runs N] [--host-n N]
 *                       [--no-hist] [--no-gemm] [--no-host]
 *
 * N takes 1, 2, 4, ... up to the visible GPUs (--gpus caps it; the last
 * count is always included). One thread per GPU; the NCCL communicator of
 * N ranks comes from ncclCommInitAll, with NCCL_NVLS_ENABLE=0 set first (no
 * NVLink multicast). Times are wall-clock from a barrier that every rank
 * passes to a barrier after every rank's stream has drained, medians over
 * runs; each histogram run queues 8 calls back to back, so the barrier's
 * microseconds do not count against a 1 GiB pass.
 *  1. Histogram, weak scaling (needs NCCL): --hist-mib (1024) MiB of
 *     uniform int32 samples per GPU, 256 and 2^20 bins,
 *     gputile_dist_histogram_i32 with the all-reduce, against N x the
 *     one-GPU rate of gputile_histogram_i32 measured in the same run.
 *     Target >= 0.9.
 *  2. Distributed GEMM, strong scaling (needs NCCL): --gemm-n (32768)
 *     cubed, FP32 and 3xTF32, gputile_dist_gemm on the 1-D row layout
 *     (communication included) against N x one GPU's gputile_gemm AUTO on
 *     the whole problem. Target >= 0.85. --gemm-runs (3) runs each: one
 *     FP32 run of 32768^3 takes about 1.5 s on an H200.
 *  3. GEMM on host matrices (no NCCL needed): --host-n (16384) cubed, FP32,
 *     pageable, then portable pinned host memory (gputile_pinned_alloc),
 *     gputile_gemm_devices over N devices against
 *     the same call on one device and cublasXtSgemm over the same N
 *     devices (order alternated run by run), and the largest difference
 *     between the two results relative to the largest |C|. Targets: 1.8x
 *     (2 GPUs) and 3.4x (4 GPUs) one device; >= 3x cublasXt.
 * Without NCCL, sections 1 and 2 print a skip line.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_barrier_t, setenv */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublasXt.h>

#include "bench.h"
#include "device_kernels.h"
#include "gputile.h"
#include "histogram_ref.h"

#ifdef GPUTILE_TEST_NCCL
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop
#endif

#define MAX_GPUS 8
#define MAX_RUNS 256
#define HIST_REPS 8

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void check(gputile_status s, const char *what)
{
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile-bench: multi: %s: %s (CUDA %s, NCCL %s)\n", what,
                gputile_status_name(s), gputile_last_cuda_error_name(),
                gputile_last_nccl_error_name());
        exit(1);
    }
}

/* ---- a team: one thread per GPU, timed between barriers ------------------------ */
typedef struct team team;
struct team {
    int n;                /* ranks: devices 0 .. n - 1 */
    int reps;             /* calls per timed run */
    int runs, warmup;     /* timed runs, untimed runs */
    void *comm[MAX_GPUS]; /* ncclComm_t per rank, or NULL */
    void (*setup)(team *, int rank, cudaStream_t);
    void (*step)(team *, int rank, cudaStream_t);
    void (*teardown)(team *, int rank);
    void *ctx;
    pthread_barrier_t barrier;
    double ms[MAX_RUNS]; /* per call, rank 0's clock */
};

typedef struct member {
    team *t;
    int rank;
} member;

static void *member_main(void *arg)
{
    member *m = arg;
    team *t = m->t;
    cudaStream_t s;
    BENCH_CUDA(cudaSetDevice(m->rank));
    BENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    t->setup(t, m->rank, s);
    BENCH_CUDA(cudaStreamSynchronize(s));
    for (int r = -t->warmup; r < t->runs; ++r) {
        pthread_barrier_wait(&t->barrier);
        double t0 = now_ms();
        for (int i = 0; i < t->reps; ++i)
            t->step(t, m->rank, s);
        BENCH_CUDA(cudaStreamSynchronize(s));
        pthread_barrier_wait(&t->barrier);
        if (m->rank == 0 && r >= 0)
            t->ms[r] = (now_ms() - t0) / t->reps;
    }
    t->teardown(t, m->rank);
    BENCH_CUDA(cudaStreamDestroy(s));
    return NULL;
}

/* Runs the team; returns the median ms per call. */
static double team_run(team *t)
{
    pthread_t th[MAX_GPUS];
    member m[MAX_GPUS];
    if (t->runs > MAX_RUNS)
        t->runs = MAX_RUNS;
    pthread_barrier_init(&t->barrier, NULL, (unsigned)t->n);
    for (int r = 0; r < t->n; ++r) {
        m[r] = (member){t, r};
        if (pthread_create(&th[r], NULL, member_main, &m[r]) != 0) {
            fprintf(stderr, "gputile-bench: multi: pthread_create failed\n");
            exit(1);
        }
    }
    for (int r = 0; r < t->n; ++r)
        pthread_join(th[r], NULL);
    pthread_barrier_destroy(&t->barrier);
    BENCH_CUDA(cudaSetDevice(0));
    return bench_median(t->ms, t->runs);
}

/* 1, 2, 4, ... below max, then max. */
static int gpu_counts(int max, int *out)
{
    int k = 0;
    for (int n = 1; n < max; n *= 2)
        out[k++] = n;
    out[k++] = max;
    return k;
}

#ifdef GPUTILE_TEST_NCCL
static void comms_open(team *t)
{
    ncclComm_t c[MAX_GPUS];
    int devs[MAX_GPUS];
    for (int i = 0; i < t->n; ++i)
        devs[i] = i;
    ncclResult_t r = ncclCommInitAll(c, t->n, devs);
    if (r != ncclSuccess) {
        fprintf(stderr, "gputile-bench: multi: ncclCommInitAll(%d): %s\n", t->n,
                ncclGetErrorString(r));
        exit(1);
    }
    for (int i = 0; i < t->n; ++i)
        t->comm[i] = c[i];
}

static void comms_close(team *t)
{
    for (int i = 0; i < t->n; ++i)
        if (t->comm[i] != NULL)
            ncclCommDestroy((ncclComm_t)t->comm[i]);
}

/* ---- 1. histogram ------------------------------------------------------------ */
typedef struct hist_ctx {
    size_t n; /* samples per rank */
    int32_t nbins;
    bool dist;
    int32_t *samples[MAX_GPUS];
    uint64_t *counts[MAX_GPUS];
} hist_ctx;

static void hist_setup(team *t, int rank, cudaStream_t s)
{
    hist_ctx *h = t->ctx;
    BENCH_CUDA(cudaMalloc((void **)&h->samples[rank], h->n * sizeof(int32_t)));
    BENCH_CUDA(cudaMalloc((void **)&h->counts[rank], (size_t)h->nbins * sizeof(uint64_t)));
    benchref_fill(h->samples[rank], h->n, BENCHREF_UNIFORM, h->nbins, s);
}

static void hist_step(team *t, int rank, cudaStream_t s)
{
    hist_ctx *h = t->ctx;
    check(h->dist ? gputile_dist_histogram_i32(h->samples[rank], h->n, h->nbins, h->counts[rank],
                                               GPUTILE_HIST_OVERWRITE, GPUTILE_DIST_ALL_RANKS,
                                               t->comm[rank], s, NULL)
                  : gputile_histogram_i32(h->samples[rank], h->n, h->nbins, h->counts[rank],
                                          GPUTILE_HIST_OVERWRITE, s, NULL),
          h->dist ? "gputile_dist_histogram_i32" : "gputile_histogram_i32");
}

static void hist_teardown(team *t, int rank)
{
    hist_ctx *h = t->ctx;
    BENCH_CUDA(cudaFree(h->samples[rank]));
    BENCH_CUDA(cudaFree(h->counts[rank]));
}

static void histogram_section(const bench_options *o, int gpus, size_t mib)
{
    const int32_t bins[] = {256, 1 << 20};
    int counts[MAX_GPUS + 1], nc = gpu_counts(gpus, counts);
    const size_t n = mib * ((size_t)1 << 20) / sizeof(int32_t);
    if (o->csv)
        printf("section,bins,gpus,ms,GBps_total,GBps_per_gpu,vs_N_x_one\n");
    else
        printf("\nHistogram, weak scaling: %zu MiB of uniform int32 per GPU, all-reduce included;"
               " target >= 0.90 x N x one GPU\n%8s %5s %10s %12s %12s %12s\n",
               mib, "bins", "gpus", "ms", "GB/s total", "GB/s / GPU", "vs N x one");
    for (size_t b = 0; b < sizeof bins / sizeof bins[0]; ++b) {
        hist_ctx h = {.n = n, .nbins = bins[b], .dist = false};
        team one = {.n = 1,
                    .reps = HIST_REPS,
                    .runs = o->runs,
                    .warmup = o->warmup,
                    .setup = hist_setup,
                    .step = hist_step,
                    .teardown = hist_teardown,
                    .ctx = &h};
        const double bytes = (double)n * sizeof(int32_t);
        const double one_ms = team_run(&one), one_gbs = bytes / one_ms / 1e6;
        if (o->csv)
            printf("histogram-one,%d,1,%.4f,%.1f,%.1f,\n", bins[b], one_ms, one_gbs, one_gbs);
        else
            printf("%8d %5s %10.3f %12.1f %12.1f %12s  (gputile_histogram_i32, one GPU)\n", bins[b],
                   "1", one_ms, one_gbs, one_gbs, "");
        for (int c = 0; c < nc; ++c) {
            hist_ctx d = {.n = n, .nbins = bins[b], .dist = true};
            team t = {.n = counts[c],
                      .reps = HIST_REPS,
                      .runs = o->runs,
                      .warmup = o->warmup,
                      .setup = hist_setup,
                      .step = hist_step,
                      .teardown = hist_teardown,
                      .ctx = &d};
            comms_open(&t);
            double ms = team_run(&t), total = bytes * t.n / ms / 1e6;
            comms_close(&t);
            if (o->csv)
                printf("histogram-dist,%d,%d,%.4f,%.1f,%.1f,%.3f\n", bins[b], t.n, ms, total,
                       total / t.n, total / (t.n * one_gbs));
            else
                printf("%8d %5d %10.3f %12.1f %12.1f %11.3fx%s\n", bins[b], t.n, ms, total,
                       total / t.n, total / (t.n * one_gbs),
                       total / (t.n * one_gbs) >= 0.9 ? "" : " (below 0.90)");
            fflush(stdout);
        }
    }
}

/* ---- 2. distributed GEMM ------------------------------------------------------- */
typedef struct gemm_ctx {
    size_t n;
    int precision;
    bool dist;
    gputile_matrix a[MAX_GPUS], b[MAX_GPUS], c[MAX_GPUS];
} gemm_ctx;

static gputile_matrix dev_matrix(size_t w, size_t h, uint64_t seed, cudaStream_t s)
{
    gputile_matrix m = {w, h, w, NULL};
    if (w == 0 || h == 0)
        return m;
    BENCH_CUDA(cudaMalloc((void **)&m.elements, w * h * sizeof(float)));
    BENCH_CUDA(bench_fill(m.elements, w * h, seed, s));
    return m;
}

static void gemm_setup(team *t, int rank, cudaStream_t s)
{
    gemm_ctx *g = t->ctx;
    size_t m0 = 0, mr = g->n, k0 = 0, kr = g->n;
    if (g->dist) {
        check(gputile_dist_block(g->n, t->n, rank, &m0, &mr), "gputile_dist_block");
        check(gputile_dist_block(g->n, t->n, rank, &k0, &kr), "gputile_dist_block");
    }
    g->a[rank] = dev_matrix(g->n, mr, 1000 + (uint64_t)rank, s);
    g->b[rank] = dev_matrix(g->n, kr, 2000 + (uint64_t)rank, s);
    g->c[rank] = dev_matrix(g->n, mr, 3000 + (uint64_t)rank, s);
}

static void gemm_step(team *t, int rank, cudaStream_t s)
{
    gemm_ctx *g = t->ctx;
    gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
    opt.precision = g->precision;
    check(g->dist
              ? gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, g->a[rank],
                                  g->b[rank], 0.0f, g->c[rank], t->comm[rank], s, &opt)
              : gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, g->a[rank], g->b[rank], 0.0f,
                             g->c[rank], s, &opt),
          g->dist ? "gputile_dist_gemm" : "gputile_gemm");
}

static void gemm_teardown(team *t, int rank)
{
    gemm_ctx *g = t->ctx;
    BENCH_CUDA(cudaFree(g->a[rank].elements));
    BENCH_CUDA(cudaFree(g->b[rank].elements));
    BENCH_CUDA(cudaFree(g->c[rank].elements));
}

static void gemm_section(const bench_options *o, int gpus, size_t n, int runs)
{
    const int precisions[] = {GPUTILE_PRECISION_FP32, GPUTILE_PRECISION_FP32_3XTF32};
    const char *const names[] = {"fp32", "3xtf32"};
    int counts[MAX_GPUS + 1], nc = gpu_counts(gpus, counts);
    const double flop = 2.0 * (double)n * (double)n * (double)n;
    if (o->csv)
        printf("section,precision,n,gpus,ms,TFLOPs,vs_N_x_one\n");
    else
        printf("\nDistributed GEMM, strong scaling: %zu^3, 1-D row layout, SUMMA panels of %d "
               "rows, communication included; target >= 0.85 x N x one GPU's AUTO\n"
               "%8s %5s %10s %10s %12s\n",
               n, GPUTILE_DIST_PANEL, "prec", "gpus", "ms", "TFLOP/s", "vs N x one");
    for (size_t p = 0; p < sizeof precisions / sizeof precisions[0]; ++p) {
        gemm_ctx g1 = {.n = n, .precision = precisions[p], .dist = false};
        team one = {.n = 1,
                    .reps = 1,
                    .runs = runs,
                    .warmup = 1,
                    .setup = gemm_setup,
                    .step = gemm_step,
                    .teardown = gemm_teardown,
                    .ctx = &g1};
        const double one_ms = team_run(&one), one_tf = flop / one_ms / 1e9;
        if (o->csv)
            printf("gemm-one,%s,%zu,1,%.3f,%.2f,\n", names[p], n, one_ms, one_tf);
        else
            printf("%8s %5s %10.1f %10.2f %12s  (gputile_gemm AUTO, one GPU)\n", names[p], "1",
                   one_ms, one_tf, "");
        for (int c = 0; c < nc; ++c) {
            gemm_ctx g = {.n = n, .precision = precisions[p], .dist = true};
            team t = {.n = counts[c],
                      .reps = 1,
                      .runs = runs,
                      .warmup = 1,
                      .setup = gemm_setup,
                      .step = gemm_step,
                      .teardown = gemm_teardown,
                      .ctx = &g};
            comms_open(&t);
            double ms = team_run(&t), tf = flop / ms / 1e9;
            comms_close(&t);
            if (o->csv)
                printf("gemm-dist,%s,%zu,%d,%.3f,%.2f,%.3f\n", names[p], n, t.n, ms, tf,
                       tf / (t.n * one_tf));
            else
                printf("%8s %5d %10.1f %10.2f %11.3fx%s\n", names[p], t.n, ms, tf,
                       tf / (t.n * one_tf), tf / (t.n * one_tf) >= 0.85 ? "" : " (below 0.85)");
            fflush(stdout);
        }
    }
}
#endif /* GPUTILE_TEST_NCCL */

/* ---- 3. GEMM on host matrices ----------------------------------------------------- */
static float *host_random(size_t count, uint64_t seed)
{
    float *p = malloc(count * sizeof(float));
    if (p == NULL) {
        fprintf(stderr, "gputile-bench: multi: out of host memory\n");
        exit(1);
    }
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < count; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (float)((double)(x >> 40) / (double)(1ull << 24)) * 2.0f - 1.0f;
    }
    return p;
}

static double worst_difference(const float *x, const float *y, size_t count)
{
    double d = 0, scale = 0;
    for (size_t i = 0; i < count; ++i) {
        d = fmax(d, fabs((double)x[i] - y[i]));
        scale = fmax(scale, fabs((double)y[i]));
    }
    return scale > 0 ? d / scale : d;
}

/* A copy of p in portable pinned memory (pinned for every device); frees p. */
static float *to_pinned(float *p, size_t count)
{
    void *q = NULL;
    check(gputile_pinned_alloc(&q, count * sizeof(float), GPUTILE_PINNED_PORTABLE),
          "gputile_pinned_alloc");
    memcpy(q, p, count * sizeof(float));
    free(p);
    return q;
}

static void host_section(const bench_options *o, int gpus, size_t n, int runs, bool pinned)
{
    int counts[MAX_GPUS + 1], nc = gpu_counts(gpus, counts), devices[MAX_GPUS];
    for (int i = 0; i < MAX_GPUS; ++i)
        devices[i] = i;
    const size_t count = n * n;
    float *a = host_random(count, 1), *b = host_random(count, 2), *c = host_random(count, 3);
    float *cx = host_random(count, 4);
    if (pinned) {
        a = to_pinned(a, count);
        b = to_pinned(b, count);
        c = to_pinned(c, count);
        cx = to_pinned(cx, count);
    }
    const gputile_matrix ma = {n, n, n, a}, mb = {n, n, n, b}, mc = {n, n, n, c};
    const double flop = 2.0 * (double)n * (double)n * (double)n;
    const float one = 1.0f, zero = 0.0f;
    double one_ms = 0;
    double *ms = calloc((size_t)runs, sizeof *ms), *xms = calloc((size_t)runs, sizeof *xms);
    if (ms == NULL || xms == NULL) {
        fprintf(stderr, "gputile-bench: multi: out of host memory\n");
        exit(1);
    }
    const char *kind = pinned ? "pinned" : "pageable";
    if (o->csv)
        printf("section,memory,n,gpus,gputile_ms,cublasXt_ms,speedup_vs_one,vs_cublasXt,"
               "max_rel_diff\n");
    else
        printf("\nGEMM on host matrices (%s), %zu^3 FP32: gputile_gemm_devices vs one "
               "device and vs cublasXtSgemm on the same devices; targets 1.8x (2), 3.4x (4) "
               "one device, >= 3x cublasXt\n%5s %12s %12s %10s %12s %12s %14s\n",
               kind, n, "gpus", "gputile ms", "cublasXt ms", "TFLOP/s", "vs one dev", "vs cublasXt",
               "max rel diff");
    for (int ci = 0; ci < nc; ++ci) {
        const int g = counts[ci];
        cublasXtHandle_t xt;
        if (cublasXtCreate(&xt) != CUBLAS_STATUS_SUCCESS ||
            cublasXtDeviceSelect(xt, g, devices) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "gputile-bench: multi: cublasXt unavailable on %d devices\n", g);
            exit(1);
        }
        for (int r = -1; r < runs; ++r) /* r = -1: warm-up; order alternates */
            for (int k = 0; k < 2; ++k) {
                const bool ours = (k == 0) == (r % 2 == 0);
                double t0 = now_ms();
                if (ours)
                    check(gputile_gemm_devices(devices, g, GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, ma, mb,
                                               0.0f, mc, NULL),
                          "gputile_gemm_devices");
                else if (cublasXtSgemm(xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n,
                                       &zero, cx, n) != CUBLAS_STATUS_SUCCESS) {
                    fprintf(stderr, "gputile-bench: multi: cublasXtSgemm failed\n");
                    exit(1);
                }
                if (r >= 0)
                    (ours ? ms : xms)[r] = now_ms() - t0;
            }
        cublasXtDestroy(xt);
        const double t = bench_median(ms, runs), tx = bench_median(xms, runs);
        if (g == 1)
            one_ms = t;
        const double diff = worst_difference(c, cx, count);
        if (o->csv)
            printf("host-gemm,%s,%zu,%d,%.3f,%.3f,%.3f,%.3f,%.3g\n", kind, n, g, t, tx, one_ms / t,
                   tx / t, diff);
        else
            printf("%5d %12.1f %12.1f %10.2f %11.2fx %11.2fx %14.3g\n", g, t, tx, flop / t / 1e9,
                   one_ms / t, tx / t, diff);
        fflush(stdout);
    }
    free(ms);
    free(xms);
    float *all[] = {a, b, c, cx};
    for (int i = 0; i < 4; ++i)
        if (pinned)
            check(gputile_pinned_free(all[i]), "gputile_pinned_free");
        else
            free(all[i]);
}

static const char multi_usage[] =
    "usage: gputile-bench multi [--csv] [--runs N] [--warmup N] [--gpus N] [--hist-mib N]\n"
    "                           [--gemm-n N] [--gemm-runs N] [--host-n N]\n"
    "                           [--no-hist] [--no-gemm] [--no-host]\n"
    "  scaling over 1, 2, 4, ... GPUs of this host: distributed histogram (weak, 1 GiB per\n"
    "  GPU) and SUMMA GEMM (strong, 32768^3) through NCCL (a --with-nccl build), and GEMM\n"
    "  on host matrices (16384^3) over several devices against cublasXt\n";

int bench_multi(int argc, char **argv)
{
    bench_options o;
    size_t hist_mib = 1024, gemm_n = 32768, host_n = 16384;
    int gpus = MAX_GPUS, gemm_runs = 3;
    bool hist = true, gemm = true, host = true;
    argc = bench_parse_common(argc, argv, &o);
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--gpus") == 0 && i + 1 < argc)
            gpus = atoi(argv[++i]);
        else if (strcmp(argv[i], "--hist-mib") == 0 && i + 1 < argc)
            hist_mib = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--gemm-n") == 0 && i + 1 < argc)
            gemm_n = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--gemm-runs") == 0 && i + 1 < argc)
            gemm_runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--host-n") == 0 && i + 1 < argc)
            host_n = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--no-hist") == 0)
            hist = false;
        else if (strcmp(argv[i], "--no-gemm") == 0)
            gemm = false;
        else if (strcmp(argv[i], "--no-host") == 0)
            host = false;
        else
            return bench_usage(multi_usage, bench_is_help(argv[i]));
    }
    if (gpus < 1 || gpus > MAX_GPUS || hist_mib == 0 || gemm_n == 0 || host_n == 0 ||
        gemm_runs < 1 || gemm_runs > MAX_RUNS)
        return bench_usage(multi_usage, false);
    bench_require_device("multi");
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast */
    int visible = 0;
    BENCH_CUDA(cudaGetDeviceCount(&visible));
    if (gpus > visible)
        gpus = visible;
    printf("multi: %d GPU%s used of %d visible%s\n", gpus, gpus > 1 ? "s" : "", visible,
           gpus > 1 ? "" : " (one GPU: the N = 1 rows only; scaling needs two or more)");
#ifdef GPUTILE_TEST_NCCL
    if (hist)
        histogram_section(&o, gpus, hist_mib);
    if (gemm)
        gemm_section(&o, gpus, gemm_n, gemm_runs);
#else
    if (hist || gemm)
        printf("multi: histogram and distributed GEMM skipped: libgputile was built without NCCL "
               "(./configure --with-nccl)\n");
#endif
    if (host) {
        host_section(&o, gpus, host_n, gemm_runs, false);
        host_section(&o, gpus, host_n, gemm_runs, true);
    }
    return 0;
}
