/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched.c: gputile-bench gemm --batched (issue 20). Batches of
 * products through gputile_gemm_strided_batched() and gputile_gemm_batched()
 * beside cublasSgemmStridedBatched (FP32 default math, and TF32 tensor-op
 * math for the TF32 precisions), timed interleaved in one run with CUDA
 * events (bench_time: warm-up, medians of --runs). Every batch moves at
 * least 256 MiB of A + B + C (far beyond the 50-60 MiB L2), so no flush is
 * needed: each run streams its operands from DRAM.
 *
 *   gputile-bench gemm --batched [--quick] [--precision fp32|all] [--shapes N]
 *                      [--seed S] [--algorithms A,B,...] [--csv] [--runs N] [--warmup N]
 *   gputile-bench gemm --batched --shape M,N,K[,COUNT] ... [--algorithms A,B,...]
 *
 * Rows: the anchor table, then a seeded sweep of batch shapes
 * (m, n, k drawn log-uniformly in 4..512, the count chosen for 256 MiB).
 * Columns: TFLOP/s and GB/s of A+B+C (C counted once: beta = 0), cuBLAS's,
 * the ratio, the batch-of-views call and its ratio to the strided call
 * (the views time includes the host's checks and the descriptors' copy,
 * since the events enclose the whole call; these views are spaced evenly,
 * so they run as the strided batch), the same call with A and B gathered
 * out of order (g/str: its descriptors cross the bus), the algorithm AUTO
 * picked.
 * With --precision all, the table's rows of 128^3 and above and every
 * --shape also time 3xTF32 and TF32 against cuBLAS FP32 and TF32
 * (tensor-op math). --algorithms names rows
 * (gputile_algorithm_name(), FP32) that are timed in the same rounds as
 * AUTO and cuBLAS, one line each under the row ("forced"), to check what
 * AUTO picks against the rows it could have picked. --shape (repeatable)
 * times only the shapes named (COUNT: 256 MiB's worth where left out), for
 * a profiler or a sweep of one's own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "bench.h"
#include "device_kernels.h"
#include "gemm.h"
#include "gputile.h"

static const char usage[] =
    "usage: gputile-bench gemm --batched [--quick] [--precision fp32|all] [--shapes N]\n"
    "                          [--seed S] [--algorithms A,B,...] [--csv] [--runs N] [--warmup N]\n"
    "       gputile-bench gemm --batched --shape M,N,K[,COUNT] ... [--algorithms ...]\n"
    "  batched GEMM (strided and views) beside cublasSgemmStridedBatched: the anchor table\n"
    "  of issue 20, then N (default 8; 0 with --quick) seeded random batch shapes;\n"
    "  --algorithms: these rows forced too (FP32), timed in the same rounds;\n"
    "  --shape: only these shapes (COUNT: 256 MiB of A + B + C where left out)\n";

#define MAX_FORCED 24 /* --algorithms: every FFMA batch row and a few more */
#define MAX_SHAPES 64 /* --shape */

typedef struct batch {
    long m, n, k, count;
    float *a, *b, *c, *c_ref;
    gputile_matrix *va, *vb, *vc; /* views of the same problems */
    gputile_matrix *ga, *gb;      /* A and B gathered: problem i reads slot p(i) */
    int precision;
    int algorithm; /* GPUTILE_ALGO_AUTO, or the forced row */
    cublasHandle_t h;
    gputile_gemm_options used;
} batch;

static void die_status(const char *what, gputile_status s)
{
    fprintf(stderr, "gputile-bench gemm --batched: %s: %s\n", what, gputile_strerror(s));
    exit(1);
}

static void run_strided(void *ctx, cudaStream_t stream)
{
    batch *x = ctx;
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.precision = x->precision;
    o.algorithm = x->algorithm;
    gputile_status s = gputile_gemm_strided_batched(
        GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, x->va[0], (size_t)(x->m * x->k), x->vb[0],
        (size_t)(x->k * x->n), 0.0f, x->vc[0], (size_t)(x->m * x->n), (size_t)x->count, stream, &o);
    if (s != GPUTILE_SUCCESS)
        die_status("gputile_gemm_strided_batched", s);
    x->used = o;
}

/* gputile_gemm_batched() on views a[i], b[i] and x's Cs */
static void views_call(const batch *x, const gputile_matrix *a, const gputile_matrix *b,
                       cudaStream_t stream)
{
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.precision = x->precision;
    gputile_status s = gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, b, 0.0f, x->vc,
                                            (size_t)x->count, stream, &o);
    if (s != GPUTILE_SUCCESS)
        die_status("gputile_gemm_batched", s);
}

static void run_views(void *ctx, cudaStream_t stream)
{
    const batch *x = ctx;
    views_call(x, x->va, x->vb, stream);
}

/* The same products with A and B read out of order (problem i: slot p(i),
 * C's slot i): the views are not evenly spaced, so their descriptors cross
 * the bus; the Cs stay in address order (no aliasing sweep). */
static void run_gathered(void *ctx, cudaStream_t stream)
{
    const batch *x = ctx;
    views_call(x, x->ga, x->gb, stream);
}

static void run_cublas(void *ctx, cudaStream_t stream)
{
    (void)stream; /* the handle is bound to it */
    batch *x = ctx;
    const float alpha = 1.0f, beta = 0.0f;
    /* row-major C = A B is column-major C^T = B^T A^T */
    if (cublasSgemmStridedBatched(x->h, CUBLAS_OP_N, CUBLAS_OP_N, (int)x->n, (int)x->m, (int)x->k,
                                  &alpha, x->b, (int)x->n, x->k * x->n, x->a, (int)x->k,
                                  x->m * x->k, &beta, x->c_ref, (int)x->n, x->m * x->n,
                                  (int)x->count) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench gemm --batched: cublasSgemmStridedBatched failed\n");
        exit(1);
    }
}

/* The count that makes a batch move about 256 MiB (at least 1). */
static long count_for(long m, long n, long k)
{
    const double per = 4.0 * (double)(m * k + k * n + m * n);
    long c = (long)(256.0 * 1048576.0 / per);
    return c < 1 ? 1 : c;
}

static void setup(batch *x, long m, long n, long k, long count, cudaStream_t stream)
{
    memset(x, 0, sizeof *x);
    x->m = m, x->n = n, x->k = k, x->count = count;
    const size_t na = (size_t)(count * m * k), nb = (size_t)(count * k * n),
                 nc = (size_t)(count * m * n);
    BENCH_CUDA(cudaMalloc((void **)&x->a, na * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&x->b, nb * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&x->c, nc * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&x->c_ref, nc * sizeof(float)));
    BENCH_CUDA(bench_fill(x->a, na, 1, stream));
    BENCH_CUDA(bench_fill(x->b, nb, 2, stream));
    x->va = malloc((size_t)count * sizeof *x->va);
    x->vb = malloc((size_t)count * sizeof *x->vb);
    x->vc = malloc((size_t)count * sizeof *x->vc);
    x->ga = malloc((size_t)count * sizeof *x->ga);
    x->gb = malloc((size_t)count * sizeof *x->gb);
    if (x->va == NULL || x->vb == NULL || x->vc == NULL || x->ga == NULL || x->gb == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    for (long i = 0; i < count; ++i) {
        x->va[i] = (gputile_matrix){(size_t)k, (size_t)m, (size_t)k, x->a + i * m * k};
        x->vb[i] = (gputile_matrix){(size_t)n, (size_t)k, (size_t)n, x->b + i * k * n};
        x->vc[i] = (gputile_matrix){(size_t)n, (size_t)m, (size_t)n, x->c + i * m * n};
    }
    /* p(i) = i P mod count, a permutation for P prime and not a factor */
    const long P = count % 7919 != 0 ? 7919 : 7907;
    for (long i = 0; i < count; ++i) {
        const long p = (long)((unsigned long long)i * P % (unsigned long long)count);
        x->ga[i] = x->va[p], x->gb[i] = x->vb[p];
    }
}

static void teardown(batch *x)
{
    BENCH_CUDA(cudaFree(x->a));
    BENCH_CUDA(cudaFree(x->b));
    BENCH_CUDA(cudaFree(x->c));
    BENCH_CUDA(cudaFree(x->c_ref));
    free(x->va), free(x->vb), free(x->vc), free(x->ga), free(x->gb);
}

/* Largest |ours - cuBLAS| / (|cuBLAS| + 1) over C: a sanity check that the
 * timed calls computed the same thing (the test suite checks accuracy). */
static double difference(const batch *x)
{
    const size_t nc = (size_t)(x->count * x->m * x->n);
    const size_t step = nc / 4096 + 1;
    float *g = malloc(nc * sizeof(float)), *r = malloc(nc * sizeof(float));
    if (g == NULL || r == NULL) {
        free(g), free(r);
        return NAN;
    }
    BENCH_CUDA(cudaMemcpy(g, x->c, nc * sizeof(float), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(r, x->c_ref, nc * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < nc; i += step) {
        const double d = fabs((double)g[i] - r[i]) / (fabs((double)r[i]) + 1.0);
        worst = d > worst || isnan(d) ? d : worst;
    }
    free(g), free(r);
    return worst;
}

/* The rows --algorithms names, forced in the same rounds as AUTO. */
typedef struct forced_rows {
    int count;
    int ids[MAX_FORCED];
} forced_rows;

static void row(long m, long n, long k, long count, bool tensor, const bench_options *o,
                const forced_rows *forced, cudaStream_t stream, cublasHandle_t h32,
                cublasHandle_t htf32)
{
    batch x;
    setup(&x, m, n, k, count, stream);
    x.h = h32;
    x.precision = GPUTILE_PRECISION_FP32;
    x.algorithm = GPUTILE_ALGO_AUTO;
    bench_progress("batched %ldx%ldx%ld x%ld\n", m, n, k, count);
    /* each forced row runs on its own copy of x (same buffers, its algorithm) */
    batch fx[MAX_FORCED];
    bench_item items[4 + MAX_FORCED] = {
        {"gputile strided", run_strided, &x, 0, false},
        {"cublasSgemmStridedBatched", run_cublas, &x, 0, false},
        {"gputile views", run_views, &x, 0, false},
        {"gputile views gathered", run_gathered, &x, 0, false},
    };
    for (int f = 0; f < forced->count; ++f) {
        fx[f] = x;
        fx[f].algorithm = forced->ids[f];
        items[4 + f] =
            (bench_item){gputile_algorithm_name(forced->ids[f]), run_strided, &fx[f], 0, false};
    }
    bench_time(items, 4 + forced->count, o, stream);
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const double diff = difference(&x);
    const double flop = 2.0 * m * n * k * count, bytes = 4.0 * count * (m * k + k * n + m * n);
    const double ours = items[0].median_ms, theirs = items[1].median_ms, views = items[2].median_ms,
                 gathered = items[3].median_ms;
    const char *alg = gputile_algorithm_name(x.used.algorithm_used);
    if (o->csv)
        printf("fp32,%ld,%ld,%ld,%ld,%.3f,%.0f,%.3f,%.0f,%.3f,%.3f,%.3f,%s,%.2g,%.3f\n", m, n, k,
               count, flop / ours / 1e9, bytes / ours / 1e6, flop / theirs / 1e9,
               bytes / theirs / 1e6, theirs / ours, flop / views / 1e9, ours / views, alg, diff,
               ours / gathered);
    else
        printf("%-6s %5ld x %5ld x %5ld x %7ld %8.2f %8.0f %8.2f %8.0f %7.3f %8.2f %7.3f %7.3f  "
               "%-16s %.1e\n",
               "fp32", m, n, k, count, flop / ours / 1e9, bytes / ours / 1e6, flop / theirs / 1e9,
               bytes / theirs / 1e6, theirs / ours, flop / views / 1e9, ours / views,
               ours / gathered, alg, diff);
    for (int f = 0; f < forced->count; ++f) {
        const double t = items[4 + f].median_ms;
        if (o->csv)
            printf("forced,%ld,%ld,%ld,%ld,%.3f,%.0f,%.3f,%.0f,%.3f,,,%s,\n", m, n, k, count,
                   flop / t / 1e9, bytes / t / 1e6, flop / theirs / 1e9, bytes / theirs / 1e6,
                   theirs / t, gputile_algorithm_name(forced->ids[f]));
        else
            printf("%-6s %5ld x %5ld x %5ld x %7ld %8.2f %8.0f %8s %8s %7.3f %8s %7s %7s  %s\n",
                   "forced", m, n, k, count, flop / t / 1e9, bytes / t / 1e6, "", "", theirs / t,
                   "", "", "", gputile_algorithm_name(forced->ids[f]));
    }
    if (tensor) {
        /* 3xTF32 against cuBLAS FP32 (same accuracy class), TF32 against TF32 */
        for (int p = 1; p <= 2; ++p) {
            x.precision = p == 1 ? GPUTILE_PRECISION_FP32_3XTF32 : GPUTILE_PRECISION_TF32;
            x.h = p == 1 ? h32 : htf32;
            bench_item t[2] = {{"gputile strided", run_strided, &x, 0, false},
                               {"cuBLAS", run_cublas, &x, 0, false}};
            bench_time(t, 2, o, stream);
            const char *name = p == 1 ? "3xtf32" : "tf32";
            const char *a2 = gputile_algorithm_name(x.used.algorithm_used);
            if (o->csv)
                printf("%s,%ld,%ld,%ld,%ld,%.3f,%.0f,%.3f,%.0f,%.3f,,,%s,\n", name, m, n, k, count,
                       flop / t[0].median_ms / 1e9, bytes / t[0].median_ms / 1e6,
                       flop / t[1].median_ms / 1e9, bytes / t[1].median_ms / 1e6,
                       t[1].median_ms / t[0].median_ms, a2);
            else
                printf("%-6s %5ld x %5ld x %5ld x %7ld %8.2f %8.0f %8.2f %8.0f %7.3f %8s %7s %7s  "
                       "%s\n",
                       name, m, n, k, count, flop / t[0].median_ms / 1e9,
                       bytes / t[0].median_ms / 1e6, flop / t[1].median_ms / 1e9,
                       bytes / t[1].median_ms / 1e6, t[1].median_ms / t[0].median_ms, "", "", "",
                       a2);
        }
    }
    fflush(stdout);
    teardown(&x);
}

/* xorshift64*: the sweep's shapes from --seed, reproducible. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

int bench_gemm_batched(int argc, char **argv)
{
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    bool quick = false, tensor = false;
    int shapes = -1;
    uint64_t seed = 20;
    forced_rows forced = {0};
    long named[MAX_SHAPES][4];
    int nnamed = 0;
    for (int i = 1; i < argc; ++i) {
        if (bench_is_help(argv[i]))
            return bench_usage(usage, true);
        if (strcmp(argv[i], "--batched") == 0)
            continue;
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--precision") == 0 && i + 1 < argc) {
            ++i;
            if (strcmp(argv[i], "all") == 0)
                tensor = true;
            else if (strcmp(argv[i], "fp32") != 0)
                return bench_usage(usage, false);
        } else if (strcmp(argv[i], "--shapes") == 0 && i + 1 < argc) {
            shapes = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc && nnamed < MAX_SHAPES) {
            long *d = named[nnamed++];
            const int got = bench_parse_list(argv[++i], 1, 1L << 20, d, 4);
            if (got < 3) {
                fprintf(stderr, "gputile-bench gemm --batched: --shape takes M,N,K[,COUNT]\n");
                return bench_usage(usage, false);
            }
            if (got == 3)
                d[3] = count_for(d[0], d[1], d[2]);
        } else if (strcmp(argv[i], "--algorithms") == 0 && i + 1 < argc) {
            int splits[MAX_FORCED];
            if (!bench_parse_algorithms(argv[++i], forced.ids, splits, &forced.count, MAX_FORCED)) {
                fprintf(stderr,
                        "gputile-bench gemm --batched: --algorithms takes up to %d names of "
                        "gputile_algorithm_name()\n",
                        MAX_FORCED);
                return bench_usage(usage, false);
            }
        } else {
            fprintf(stderr, "gputile-bench gemm --batched: unknown argument %s\n", argv[i]);
            return bench_usage(usage, false);
        }
    }
    if (shapes < 0)
        shapes = quick ? 0 : 8;
    bench_require_device("gemm --batched");

    static const long anchors[][4] = {
        {16, 16, 16, 100000},  {32, 32, 32, 100000}, {64, 64, 64, 20000},  {128, 128, 128, 4000},
        {256, 256, 256, 1000}, {512, 512, 512, 128}, {64, 1024, 64, 2000},
    };
    static const int quick_rows[] = {0, 1, 3};
    cudaStream_t stream;
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cublasHandle_t h32 = bench_cublas_handle(stream, CUBLAS_DEFAULT_MATH);
    cublasHandle_t htf32 = bench_cublas_handle(stream, CUBLAS_TF32_TENSOR_OP_MATH);
    if (o.csv)
        printf("precision,m,n,k,count,tflops,gbs,cublas_tflops,cublas_gbs,ratio,views_tflops,"
               "views_ratio,algorithm,max_rel_diff,gathered_ratio\n");
    else
        printf("# batched GEMM, C = A B, row-major, beta 0; GB/s of A + B + C; ratio = cuBLAS "
               "time / ours;\n# views = gputile_gemm_batched (host arrays), its ratio to the "
               "strided call (v/str; views spaced evenly run as the strided batch);\n# g/str: "
               "the same call with A and B gathered out of order (descriptors go to the device)\n"
               "%-6s %-31s %8s %8s %8s %8s %7s %8s %7s %7s  %-16s %s\n",
               "prec", "m x n x k x count", "TFLOP/s", "GB/s", "cuBLAS", "GB/s", "ratio", "views",
               "v/str", "g/str", "algorithm", "diff");
    const int nrows = nnamed > 0 ? 0 : quick ? 3 : 7;
    for (int r = 0; r < nnamed; ++r)
        row(named[r][0], named[r][1], named[r][2], named[r][3], tensor, &o, &forced, stream, h32,
            htf32);
    if (nnamed > 0)
        shapes = 0;
    for (int r = 0; r < nrows; ++r) {
        const long *a = anchors[quick ? quick_rows[r] : r];
        row(a[0], a[1], a[2], a[3], tensor && a[0] >= 128, &o, &forced, stream, h32, htf32);
    }
    if (shapes > 0 && !o.csv)
        printf("# seeded sweep: --seed %llu, %d shapes\n", (unsigned long long)seed, shapes);
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = 0; i < shapes; ++i) {
        long d[3];
        for (int j = 0; j < 3; ++j) /* log-uniform in 4..512 */
            d[j] = (long)exp(log(4.0) + (double)(next(&s) % 10000) / 10000.0 * log(128.0));
        row(d[0], d[1], d[2], count_for(d[0], d[1], d[2]), false, &o, &forced, stream, h32, htf32);
    }
    cublasDestroy(h32);
    cublasDestroy(htf32);
    BENCH_CUDA(cudaStreamDestroy(stream));
    return 0;
}
