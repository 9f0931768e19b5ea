/*
 * gemm.c: gputile-bench gemm: libgputile's algorithms and cuBLAS sgemm
 * (FP32, default math: no TF32) on the same inputs in the same run.
 *
 *   gputile-bench gemm [--csv] [--runs N] [--sweep] [MxNxK ...]
 *
 * Without shapes it runs the GEMM-speed issue's list. Row-major C = A B with
 * contiguous matrices; cuBLAS computes the same product as C^T = B^T A^T.
 * Input sets rotate when three matrices fit in L2 three times over, so
 * small shapes are not timed out of cache. --sweep adds every register-
 * blocked algorithm with splits of k 1..16, for tuning the planner.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>

#include "bench.h"
#include "device_kernels.h"
#include "gputile.h"

typedef struct shape {
    long m, n, k;
} shape;

static const shape default_shapes[] = {
    {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},   {16384, 16384, 16384},
    {4097, 4097, 4097}, {8192, 8192, 1024}, {8192, 128, 8192},    {127, 8192, 8192},
    {1024, 1024, 1024},
};

typedef struct gemm_ctx {
    const shape *s;
    int sets, next;
    float **a, **b, **c;
    cublasHandle_t h;
    int algorithm, split_k; /* -1: cuBLAS */
} gemm_ctx;

static void enqueue(void *p, cudaStream_t stream)
{
    gemm_ctx *x = p;
    const int i = x->next;
    x->next = (x->next + 1) % x->sets;
    const long m = x->s->m, n = x->s->n, k = x->s->k;
    if (x->algorithm < 0) {
        const float one = 1.0f, zero = 0.0f;
        cublasStatus_t st = cublasSgemm(x->h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
                                        x->b[i], (int)n, x->a[i], (int)k, &zero, x->c[i], (int)n);
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
    gputile_status s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, b, 0.0f, c, stream, &o);
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile-bench: gputile_gemm: %s (%s)\n", gputile_strerror(s),
                gputile_last_cuda_error_name());
        exit(1);
    }
}

/* Relative Frobenius distance of two device matrices of n floats. */
static double rel_diff(const float *x, const float *y, size_t n)
{
    float *hx = malloc(n * sizeof(float)), *hy = malloc(n * sizeof(float));
    if (hx == NULL || hy == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    BENCH_CUDA(cudaMemcpy(hx, x, n * sizeof(float), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        double d = (double)hx[i] - hy[i];
        num += d * d;
        den += (double)hy[i] * hy[i];
    }
    free(hx);
    free(hy);
    return sqrt(num / (den > 0 ? den : 1));
}

int bench_gemm(int argc, char **argv)
{
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    bool sweep = false;
    shape *shapes = NULL;
    int nshapes = 0;
    for (int i = 1; i < argc; ++i) {
        shape s;
        if (strcmp(argv[i], "--sweep") == 0) {
            sweep = true;
        } else if (sscanf(argv[i], "%ldx%ldx%ld", &s.m, &s.n, &s.k) == 3 && s.m > 0 && s.n > 0 && s.k > 0) {
            shapes = realloc(shapes, (size_t)(nshapes + 1) * sizeof *shapes);
            shapes[nshapes++] = s;
        } else {
            fprintf(stderr, "usage: gputile-bench gemm [--csv] [--runs N] [--sweep] [MxNxK ...]\n");
            return 2;
        }
    }
    if (nshapes == 0) {
        nshapes = (int)(sizeof default_shapes / sizeof default_shapes[0]);
        shapes = malloc(sizeof default_shapes);
        memcpy(shapes, default_shapes, sizeof default_shapes);
    }

    cudaStream_t stream;
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetStream(h, stream) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: cuBLAS initialisation failed\n");
        return 1;
    }
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); /* FP32 inputs: FFMA, no TF32 */

    struct cudaDeviceProp prop;
    int dev;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
    bench_progress("gputile-bench gemm on %s: measuring the FFMA peak", prop.name);
    const double peak = bench_ffma_tflops(&o, stream), read_gbs = bench_read_gbs(&o, stream);

    if (o.csv)
        printf("# ffma_tflops=%.2f read_gbs=%.0f\n"
               "gpu,m,n,k,name,split_k,ms,tflops,ratio_to_cublas,share_of_ffma_peak,rel_diff_to_cublas\n",
               peak, read_gbs);
    else
        printf("%s, measured: FFMA peak %.1f TFLOP/s, read %.0f GB/s; median of %d runs\n\n"
               "%-22s %-16s %9s %8s %7s %6s %9s\n",
               prop.name, peak, read_gbs, o.runs, "shape m x n x k", "algorithm", "ms", "TFLOP/s", "cuBLAS",
               "peak", "rel.diff");

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
            int algorithm, split_k;
        } rows[64];
        int nrows = 0;
        rows[nrows++] = (struct row){"cublas", -1, 0};
        rows[nrows++] = (struct row){"auto", GPUTILE_ALGO_AUTO, 0};
        if (flops <= 1.2e12) { /* the seeds take seconds beyond this */
            rows[nrows++] = (struct row){"tiled", GPUTILE_ALGO_TILED, 0};
            rows[nrows++] = (struct row){"naive", GPUTILE_ALGO_NAIVE, 0};
        }
        const int rb[] = {GPUTILE_ALGO_REGBLOCK_128, GPUTILE_ALGO_REGBLOCK_128_W64,
                          GPUTILE_ALGO_REGBLOCK_128X256, GPUTILE_ALGO_REGBLOCK_64};
        for (int r = 0; r < 4; ++r) {
            rows[nrows++] = (struct row){gputile_algorithm_name(rb[r]), rb[r], 1};
            for (int sk = 2; sweep && sk <= 16; sk *= 2)
                rows[nrows++] = (struct row){gputile_algorithm_name(rb[r]), rb[r], sk};
        }

        gemm_ctx ctx[64];
        bench_item items[64];
        for (int r = 0; r < nrows; ++r) {
            ctx[r] = (gemm_ctx){s, sets, 0, a, b, c, h, rows[r].algorithm, rows[r].split_k};
            items[r] = (bench_item){rows[r].name, enqueue, &ctx[r], 0};
        }
        bench_progress("  %ldx%ldx%ld: %d rows, %d input set(s)", s->m, s->n, s->k, nrows, sets);

        /* accuracy against cuBLAS on set 0, then the timing */
        gemm_ctx one = ctx[0];
        one.c = &cref;
        one.sets = 1;
        enqueue(&one, stream);
        double diff[64];
        for (int r = 0; r < nrows; ++r) {
            ctx[r].next = 0;
            enqueue(&ctx[r], stream);
            BENCH_CUDA(cudaStreamSynchronize(stream));
            diff[r] = rel_diff(c[0], cref, ec);
            ctx[r].next = 0;
        }
        bench_time(items, nrows, &o, stream);

        const double cublas_ms = items[0].median_ms;
        for (int r = 0; r < nrows; ++r) {
            double tf = flops / (items[r].median_ms * 1e-3) / 1e12;
            char shape_s[48];
            snprintf(shape_s, sizeof shape_s, "%ldx%ldx%ld", s->m, s->n, s->k);
            if (o.csv)
                printf("\"%s\",%ld,%ld,%ld,%s,%d,%.4f,%.2f,%.3f,%.3f,%.2e\n", prop.name, s->m, s->n, s->k,
                       rows[r].name, rows[r].split_k, items[r].median_ms, tf, cublas_ms / items[r].median_ms,
                       tf / peak, diff[r]);
            else {
                char name[40];
                snprintf(name, sizeof name, rows[r].split_k > 1 ? "%s/s%d" : "%s", rows[r].name,
                         rows[r].split_k);
                printf("%-22s %-16s %9.3f %8.2f %7.3f %5.0f%% %9.1e\n", shape_s, name, items[r].median_ms,
                       tf, cublas_ms / items[r].median_ms, 100 * tf / peak, diff[r]);
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
    BENCH_CUDA(cudaStreamDestroy(stream));
    free(shapes);
    return 0;
}
