/* SPDX-License-Identifier: MIT */
/*
 * gemm.c: gputile-bench gemm: libgputile's algorithms and cuBLAS sgemm
 * (FP32, default math: no TF32) on the same inputs in the same run.
 *
 *   gputile-bench gemm [--csv] [--runs N] [--sweep]
 *                      [--precision all|fp32|3xtf32|tf32[,...]] [MxNxK ...]
 *
 * --precision picks the rows (a comma-separated list): fp32 libgputile's FFMA algorithms; 3xtf32
 * and tf32 its tensor-core precisions (AUTO and each wgmma algorithm) with
 * cuBLAS TF32 (CUBLAS_TF32_TENSOR_OP_MATH) beside them; all (the default)
 * every row. cuBLAS FP32 and libgputile's FP32 AUTO are always there. Each
 * row's error is its relative Frobenius distance from a float64 product
 * of the same inputs, computed once per shape outside the timing.
 *
 * Without shapes it runs the GEMM-speed issue's list. Row-major C = A B with
 * contiguous matrices; cuBLAS computes the same product as C^T = B^T A^T.
 * Input sets rotate when three matrices fit in L2 three times over, so
 * small shapes are not timed out of cache. --sweep adds every register-
 * blocked algorithm with splits of k 1..16, for tuning the planner.
 *
 * Two more modes, each in its own file (issue 17):
 *   gputile-bench gemm --sweep-shapes [--precision ...] [--shapes N] [--seed S]
 *   gputile-bench gemm --list-shapes [--shapes N] [--seed S]
 * AUTO against cuBLAS on a fixed, seeded set of shapes with every transpose
 * (gemm_sweep.c), and
 *   gputile-bench gemm --latency
 *   gputile-bench gemm --batched   (batches: gemm_batched.c)
 * the cost of one call on square products 8^3 to 1024^3, queued and
 * synchronised (gemm_latency.c).
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "bench.h"
#include "device_kernels.h"
#include "gemm.h"
#include "gputile.h"
#include "../tests/support/ref64.h"
#include "../tests/support/variants.h"

typedef struct shape {
    long m, n, k;
} shape;

static const shape default_shapes[] = {
    {2048, 2048, 2048},    {4096, 4096, 4096}, {8192, 8192, 8192},
    {16384, 16384, 16384}, {4097, 4097, 4097}, {8192, 8192, 1024},
    {8192, 128, 8192},     {127, 8192, 8192},  {1024, 1024, 1024},
};

typedef struct gemm_ctx {
    const shape *s;
    int sets, next;
    float **a, **b, **c;
    cublasHandle_t h;       /* cuBLAS rows: the handle, FP32 or TF32 math */
    int algorithm, split_k; /* -1: cuBLAS */
    int precision;          /* gputile_precision of libgputile rows */
} gemm_ctx;

static void enqueue(void *p, cudaStream_t stream)
{
    gemm_ctx *x = p;
    const int i = x->next;
    x->next = (x->next + 1) % x->sets;
    const long m = x->s->m, n = x->s->n, k = x->s->k;
    if (x->algorithm < 0) {
        const float one = 1.0f, zero = 0.0f;
        cublasStatus_t st =
            cublasSgemm(x->h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, x->b[i],
                        (int)n, x->a[i], (int)k, &zero, x->c[i], (int)n);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "gputile-bench: cublasSgemm: status %d\n", (int)st);
            exit(1);
        }
        return;
    }
    gputile_matrix a = {(size_t)k, (size_t)m, (size_t)k, x->a[i]};
    gputile_matrix b = {(size_t)n, (size_t)k, (size_t)n, x->b[i]};
    gputile_matrix c = {(size_t)n, (size_t)m, (size_t)n, x->c[i]};
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm = x->algorithm;
    o.split_k = x->split_k;
    o.precision = x->precision;
    gputile_status s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, b, 0.0f, c, stream, &o);
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile-bench: gputile_gemm: %s (%s)\n", gputile_strerror(s),
                gputile_last_cuda_error_name());
        exit(1);
    }
}

/* Relative Frobenius distance of a device matrix of n floats from y,
 * given on the host as floats (yf) or doubles (yd). */
static double rel_diff(const float *x, const float *yf, const double *yd, size_t n)
{
    float *hx = malloc(n * sizeof(float));
    if (hx == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    BENCH_CUDA(cudaMemcpy(hx, x, n * sizeof(float), cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        double y = yd != NULL ? yd[i] : yf[i], d = hx[i] - y;
        num += d * d;
        den += y * y;
    }
    free(hx);
    return sqrt(num / (den > 0 ? den : 1));
}

/* Copies n device floats or doubles to a new host buffer. */
static void *to_host(const void *dev, size_t bytes)
{
    void *h = malloc(bytes);
    if (h == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    BENCH_CUDA(cudaMemcpy(h, dev, bytes, cudaMemcpyDeviceToHost));
    return h;
}

static const char gemm_usage[] =
    "usage: gputile-bench gemm [--csv] [--runs N] [--warmup N] [--sweep]\n"
    "                          [--precision all|fp32|3xtf32|tf32[,...]] [MxNxK ...]\n"
    "       gputile-bench gemm --sweep-shapes [--precision fp32|3xtf32|tf32|all[,...]]\n"
    "                          [--shapes N] [--seed S] [--csv] [--runs N] [--warmup N]\n"
    "       gputile-bench gemm --list-shapes [--shapes N] [--seed S] [--csv]\n"
    "       gputile-bench gemm --latency [--csv]\n"
    "       gputile-bench gemm --batched [--quick] [--precision fp32|all] [--shapes N] [--seed S]\n"
    "  (gputile-bench gemm --sweep-shapes --help and --latency --help say more)\n";

int bench_gemm(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--sweep-shapes") == 0 || strcmp(argv[i], "--list-shapes") == 0)
            return bench_gemm_sweep_shapes(argc, argv);
        if (strcmp(argv[i], "--latency") == 0)
            return bench_gemm_latency(argc, argv);
        if (strcmp(argv[i], "--batched") == 0)
            return bench_gemm_batched(argc, argv);
    }
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    bool sweep = false, want_fp32 = true, want_3x = true, want_tf32 = true;
    shape *shapes = NULL;
    int nshapes = 0;
    for (int i = 1; i < argc; ++i) {
        shape s;
        if (bench_is_help(argv[i])) {
            free(shapes);
            return bench_usage(gemm_usage, true);
        } else if (strcmp(argv[i], "--sweep") == 0) {
            sweep = true;
        } else if (strcmp(argv[i], "--precision") == 0 && i + 1 < argc) {
            /* a comma-separated list: all, fp32, 3xtf32, tf32 */
            char list[64];
            snprintf(list, sizeof list, "%s", argv[++i]);
            want_fp32 = want_3x = want_tf32 = false;
            for (char *save = NULL, *t = strtok_r(list, ",", &save); t != NULL;
                 t = strtok_r(NULL, ",", &save)) {
                const bool all = strcmp(t, "all") == 0;
                want_fp32 |= all || strcmp(t, "fp32") == 0;
                want_3x |= all || strcmp(t, "3xtf32") == 0;
                want_tf32 |= all || strcmp(t, "tf32") == 0;
                if (!all && strcmp(t, "fp32") != 0 && strcmp(t, "3xtf32") != 0 &&
                    strcmp(t, "tf32") != 0) {
                    fprintf(stderr, "gputile-bench gemm: --precision takes all, fp32, 3xtf32, tf32 "
                                    "or a comma-separated list of them\n");
                    free(shapes);
                    return 2;
                }
            }
        } else if (sscanf(argv[i], "%ldx%ldx%ld", &s.m, &s.n, &s.k) == 3 && s.m > 0 && s.n > 0 &&
                   s.k > 0) {
            shapes = realloc(shapes, (size_t)(nshapes + 1) * sizeof *shapes);
            shapes[nshapes++] = s;
        } else {
            free(shapes);
            return bench_usage(gemm_usage, false);
        }
    }
    bench_require_device("gemm");
    if (nshapes == 0) {
        nshapes = (int)(sizeof default_shapes / sizeof default_shapes[0]);
        shapes = malloc(sizeof default_shapes);
        memcpy(shapes, default_shapes, sizeof default_shapes);
    }

    cudaStream_t stream;
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(h, stream) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: cuBLAS initialisation failed\n");
        return 1;
    }
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); /* FP32 inputs: FFMA, no TF32 */
    cublasHandle_t h_tf32;
    if (cublasCreate(&h_tf32) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(h_tf32, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(h_tf32, CUBLAS_TF32_TENSOR_OP_MATH) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: cuBLAS initialisation failed\n");
        return 1;
    }

    struct cudaDeviceProp prop;
    int dev;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
    bench_progress("gputile-bench gemm on %s: measuring the FFMA peak", prop.name);
    const double peak = bench_ffma_tflops(&o, stream), read_gbs = bench_read_gbs(&o, stream);

    if (o.csv)
        printf("# ffma_tflops=%.2f read_gbs=%.0f\n"
               "gpu,m,n,k,name,split_k,ms,tflops,ratio_to_cublas,share_of_ffma_peak,rel_diff_to_"
               "cublas,"
               "rel_err_fp64,ratio_to_cublas_tf32\n",
               peak, read_gbs);
    else
        printf("%s, measured: FFMA peak %.1f TFLOP/s, read %.0f GB/s; median of %d runs\n\n"
               "%-22s %-24s %9s %8s %7s %6s %9s %9s %7s\n",
               prop.name, peak, read_gbs, o.runs, "shape m x n x k", "algorithm", "ms", "TFLOP/s",
               "cuBLAS", "peak", "rel.diff", "err.fp64", "c.TF32");

    for (int si = 0; si < nshapes; ++si) {
        const shape *s = &shapes[si];
        const double flops = 2.0 * s->m * s->n * s->k;
        const size_t ea = (size_t)s->m * s->k, eb = (size_t)s->k * s->n, ec = (size_t)s->m * s->n;
        const size_t set_bytes = (ea + eb + ec) * sizeof(float);
        int sets = (int)(3 * (size_t)prop.l2CacheSize / set_bytes + 1);
        if (sets > 16)
            sets = 16;
        float **a = calloc((size_t)sets, sizeof *a), **b = calloc((size_t)sets, sizeof *b),
              **c = calloc((size_t)sets, sizeof *c);
        for (int i = 0; i < sets; ++i) {
            BENCH_CUDA(cudaMalloc((void **)&a[i], ea * sizeof(float)));
            BENCH_CUDA(cudaMalloc((void **)&b[i], eb * sizeof(float)));
            BENCH_CUDA(cudaMalloc((void **)&c[i], ec * sizeof(float)));
            BENCH_CUDA(bench_fill(a[i], ea, 2 * i + 1, stream));
            BENCH_CUDA(bench_fill(b[i], eb, 2 * i + 2, stream));
        }
        float *cref;
        BENCH_CUDA(cudaMalloc((void **)&cref, ec * sizeof(float)));

        /* the rows of this shape's table */
        struct row {
            const char *name;
            int algorithm, split_k, precision;
            cublasHandle_t h;
        } rows[64];
        int nrows = 0;
        const int fp32 = GPUTILE_PRECISION_FP32;
        rows[nrows++] = (struct row){"cublas", -1, 0, fp32, h};
        if (want_3x || want_tf32)
            rows[nrows++] = (struct row){"cublas-tf32", -1, 0, fp32, h_tf32};
        rows[nrows++] = (struct row){"auto", GPUTILE_ALGO_AUTO, 0, fp32, h};
        if (want_fp32 && flops <= 1.2e12) { /* the seeds take seconds beyond this */
            rows[nrows++] = (struct row){"tiled", GPUTILE_ALGO_TILED, 0, fp32, h};
            rows[nrows++] = (struct row){"naive", GPUTILE_ALGO_NAIVE, 0, fp32, h};
        }
        /* every FP32 row of the variant table that takes a split of k (the
         * register-blocked kernels), unsplit, and split with --sweep */
        for (size_t v = 0; v < GPUTEST_N_VARIANTS && want_fp32; ++v) {
            const struct gputest_variant *r = &gputest_variants[v];
            if (r->precision != fp32 || !(r->flags & GPUTILE__GEMM_SPLITK))
                continue;
            rows[nrows++] =
                (struct row){gputile_algorithm_name(r->algorithm), r->algorithm, 1, fp32, h};
            for (int sk = 2; sweep && sk <= 16; sk *= 2)
                rows[nrows++] =
                    (struct row){gputile_algorithm_name(r->algorithm), r->algorithm, sk, fp32, h};
        }
        /* tensor-core precisions: AUTO, then each wgmma algorithm (AUTO's split of k) */
        static const struct {
            const char *names[3];
            int precision;
        } tc[] = {
            {{"3xtf32-auto", "3xtf32-wgmma128x128", "3xtf32-wgmma128x256"},
             GPUTILE_PRECISION_FP32_3XTF32},
            {{"tf32-auto", "tf32-wgmma128x128", "tf32-wgmma128x256"}, GPUTILE_PRECISION_TF32},
        };
        const int tc_algos[3] = {GPUTILE_ALGO_AUTO, GPUTILE_ALGO_WGMMA_128X128,
                                 GPUTILE_ALGO_WGMMA_128X256};
        for (int t = 0; t < 2; ++t) {
            if (!(t == 0 ? want_3x : want_tf32))
                continue;
            for (int r = 0; r < 3; ++r) {
                /* forced wgmma algorithms need compute capability 9.0 */
                if (r > 0 && !(prop.major == 9 && prop.minor == 0))
                    continue;
                /* 3xTF32 runs on 128 x 128 tiles only (lib/gemm.c) */
                if (tc_algos[r] == GPUTILE_ALGO_WGMMA_128X256 &&
                    tc[t].precision == GPUTILE_PRECISION_FP32_3XTF32)
                    continue;
                rows[nrows++] = (struct row){tc[t].names[r], tc_algos[r], 0, tc[t].precision, h};
            }
        }

        gemm_ctx ctx[64];
        bench_item items[64];
        for (int r = 0; r < nrows; ++r) {
            ctx[r] = (gemm_ctx){s,
                                sets,
                                0,
                                a,
                                b,
                                c,
                                rows[r].h,
                                rows[r].algorithm,
                                rows[r].split_k,
                                rows[r].precision};
            items[r] = (bench_item){rows[r].name, enqueue, &ctx[r], 0, false};
        }
        bench_progress("  %ldx%ldx%ld: %d rows, %d input set(s)", s->m, s->n, s->k, nrows, sets);

        /* accuracy against cuBLAS and float64 on set 0, then the timing */
        gemm_ctx one = ctx[0];
        one.c = &cref;
        one.sets = 1;
        enqueue(&one, stream);
        BENCH_CUDA(cudaStreamSynchronize(stream));
        float *href = to_host(cref, ec * sizeof(float));
        double *dref64, *dscale;
        BENCH_CUDA(cudaMalloc((void **)&dref64, ec * sizeof(double)));
        BENCH_CUDA(cudaMalloc((void **)&dscale, ec * sizeof(double)));
        BENCH_CUDA(gputest_gemm_ref64(0, 0, s->m, s->n, s->k, 1.0f, a[0], s->k, b[0], s->n, 0.0f,
                                      NULL, s->n, dref64, dscale));
        double *href64 = to_host(dref64, ec * sizeof(double));
        BENCH_CUDA(cudaFree(dref64));
        BENCH_CUDA(cudaFree(dscale));
        double diff[64], err64[64];
        for (int r = 0; r < nrows; ++r) {
            ctx[r].next = 0;
            enqueue(&ctx[r], stream);
            BENCH_CUDA(cudaStreamSynchronize(stream));
            diff[r] = rel_diff(c[0], href, NULL, ec);
            err64[r] = rel_diff(c[0], NULL, href64, ec);
            ctx[r].next = 0;
        }
        free(href);
        free(href64);
        bench_time(items, nrows, &o, stream);

        const double cublas_ms = items[0].median_ms;
        double cublas_tf32_ms = 0;
        for (int r = 0; r < nrows; ++r)
            if (rows[r].h == h_tf32)
                cublas_tf32_ms = items[r].median_ms;
        for (int r = 0; r < nrows; ++r) {
            double tf = flops / (items[r].median_ms * 1e-3) / 1e12;
            char shape_s[48];
            snprintf(shape_s, sizeof shape_s, "%ldx%ldx%ld", s->m, s->n, s->k);
            if (o.csv)
                printf("\"%s\",%ld,%ld,%ld,%s,%d,%.4f,%.2f,%.3f,%.3f,%.2e,%.2e,%.3f\n", prop.name,
                       s->m, s->n, s->k, rows[r].name, rows[r].split_k, items[r].median_ms, tf,
                       cublas_ms / items[r].median_ms, tf / peak, diff[r], err64[r],
                       cublas_tf32_ms > 0 ? cublas_tf32_ms / items[r].median_ms : 0);
            else {
                char name[40];
                snprintf(name, sizeof name, rows[r].split_k > 1 ? "%s/s%d" : "%s", rows[r].name,
                         rows[r].split_k);
                printf("%-22s %-24s %9.3f %8.2f %7.3f %5.0f%% %9.1e %9.1e", shape_s, name,
                       items[r].median_ms, tf, cublas_ms / items[r].median_ms, 100 * tf / peak,
                       diff[r], err64[r]);
                if (cublas_tf32_ms > 0)
                    printf(" %7.3f", cublas_tf32_ms / items[r].median_ms);
                printf("\n");
            }
        }
        if (!o.csv)
            printf("\n");
        fflush(stdout);
        for (int i = 0; i < sets; ++i) {
            BENCH_CUDA(cudaFree(a[i]));
            BENCH_CUDA(cudaFree(b[i]));
            BENCH_CUDA(cudaFree(c[i]));
        }
        BENCH_CUDA(cudaFree(cref));
        free(a);
        free(b);
        free(c);
    }
    cublasDestroy(h);
    cublasDestroy(h_tf32);
    BENCH_CUDA(cudaStreamDestroy(stream));
    free(shapes);
    return 0;
}
