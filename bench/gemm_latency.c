/* SPDX-License-Identifier: MIT */
/*
 * gemm_latency.c: gputile-bench gemm --latency: what one call costs on
 * small and middle-sized products (issue 17, "per call").
 *
 *   gputile-bench gemm --latency [--algorithms NAME[:SPLIT][,...]] [--sizes N[,...]]
 *                                [--csv]
 *
 * Square FP32 NN products of device matrices, n = 8, 16, ..., 1024, hot in
 * L2 as in a loop: libgputile AUTO (gputile_gemm, default options) and
 * cublasSgemm (FP32 default math) on the same stream, after 20 warm-up
 * calls of each.
 * - queued: 1000 calls enqueued back to back, then one
 *   cudaStreamSynchronize; host wall clock from the first call to the
 *   return of the synchronisation, divided by 1000. Five rounds, the row
 *   that goes first alternating; the median round.
 * - synchronised: one call, then cudaStreamSynchronize, host wall clock;
 *   200 of each row, alternating which goes first; the median.
 * Ratios are libgputile / cuBLAS (below 1: libgputile costs less), against
 * issue 17's targets: queued <= 1.0 and synchronised <= 1.1 at every size.
 * --algorithms replaces AUTO by the rows named (as in --sweep-shapes: a
 * name, or NAME:SPLIT for a forced split of k), each timed against cuBLAS
 * in the same rotation: what each row costs per call where AUTO chose one.
 * --sizes replaces the sizes (up to 1024: the matrices are allocated for it).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublas_v2.h>

#include "bench.h"
#include "device_kernels.h"
#include "gemm.h"
#include "gputile.h"

#define QUEUED_CALLS 1000
#define QUEUED_ROUNDS 5
#define SYNC_CALLS 200
#define WARMUP_CALLS 20
#define QUEUED_TARGET 1.0
#define SYNC_TARGET 1.1
#define MAX_ROWS 16 /* --algorithms */

static const long default_sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024};
#define MAX_SIZES 16 /* --sizes */

typedef struct latency_ctx {
    long n;
    float *a, *b, *c;
    cublasHandle_t h;
    cudaStream_t stream;
    int rows; /* libgputile rows, then cuBLAS */
    int algorithm[MAX_ROWS], split[MAX_ROWS];
    gputile_gemm_options used[MAX_ROWS];
} latency_ctx;

/* One call of row `row`: a libgputile row, or cuBLAS (row == x->rows). */
static void call(latency_ctx *x, int row)
{
    if (row < x->rows)
        bench_gemm_lib_algorithm(0, 0, x->n, x->n, x->n, x->a, x->b, x->c, GPUTILE_PRECISION_FP32,
                                 x->algorithm[row], x->split[row], x->stream, &x->used[row]);
    else
        bench_gemm_cublas(x->h, 0, 0, x->n, x->n, x->n, x->a, x->b, x->c);
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * t.tv_sec + 1e-3 * t.tv_nsec;
}

static const char latency_usage[] =
    "usage: gputile-bench gemm --latency [--algorithms NAME[:SPLIT][,...]] [--sizes N[,...]]\n"
    "                                    [--csv]\n"
    "  the cost of one call, libgputile AUTO and cublasSgemm on one stream: square FP32 NN\n"
    "  device matrices 8 to 1024, hot in L2; queued (1000 calls, then one synchronisation:\n"
    "  total / 1000, median of 5 rounds) and synchronised (a call and cudaStreamSynchronize,\n"
    "  median of 200); ratios libgputile / cuBLAS against the targets queued <= 1.0 and\n"
    "  synchronised <= 1.1. A few seconds. --algorithms: these rows instead of AUTO, each\n"
    "  against cuBLAS (NAME:SPLIT forces a split of k). --sizes: these n (1 to 1024).\n";

int bench_gemm_latency(int argc, char **argv)
{
    bool csv = false;
    long sizes[MAX_SIZES];
    int nsizes = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    memcpy(sizes, default_sizes, sizeof default_sizes);
    latency_ctx x = {.rows = 1, .algorithm = {GPUTILE_ALGO_AUTO}, .split = {0}};
    for (int i = 1; i < argc; ++i) {
        if (bench_is_help(argv[i])) {
            return bench_usage(latency_usage, true);
        } else if (strcmp(argv[i], "--latency") == 0) {
            continue;
        } else if (strcmp(argv[i], "--algorithms") == 0 && i + 1 < argc) {
            if (!bench_parse_algorithms(argv[++i], x.algorithm, x.split, &x.rows, MAX_ROWS)) {
                fprintf(stderr, "gputile-bench gemm: --algorithms takes up to %d names\n",
                        MAX_ROWS);
                return bench_usage(latency_usage, false);
            }
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            if ((nsizes = bench_parse_list(argv[++i], 1, 1024, sizes, MAX_SIZES)) < 1) {
                fprintf(stderr, "gputile-bench gemm: --sizes takes up to %d sizes of 1 to 1024\n",
                        MAX_SIZES);
                return bench_usage(latency_usage, false);
            }
        } else if (strcmp(argv[i], "--csv") == 0) {
            csv = true;
        } else {
            fprintf(stderr, "gputile-bench gemm: unknown argument %s\n", argv[i]);
            return bench_usage(latency_usage, false);
        }
    }
    bench_require_device("gemm");

    int dev;
    struct cudaDeviceProp prop;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
    const long nmax = 1024; /* the largest size --sizes takes */
    BENCH_CUDA(cudaStreamCreateWithFlags(&x.stream, cudaStreamNonBlocking));
    x.h = bench_cublas_handle(x.stream, CUBLAS_DEFAULT_MATH); /* FP32 inputs: no TF32 */
    const size_t elements = (size_t)nmax * nmax;
    BENCH_CUDA(cudaMalloc((void **)&x.a, elements * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&x.b, elements * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&x.c, elements * sizeof(float)));
    BENCH_CUDA(bench_fill(x.a, elements, 1, x.stream));
    BENCH_CUDA(bench_fill(x.b, elements, 2, x.stream));
    BENCH_CUDA(cudaStreamSynchronize(x.stream));

    printf("# gputile-bench gemm --latency: %s, libgputile %s; square FP32 NN device matrices, "
           "hot L2; queued: %d calls then one synchronisation, median of %d rounds; synchronised: "
           "one call and cudaStreamSynchronize, median of %d; ratio = libgputile / cuBLAS "
           "(targets: queued <= %.2f, synchronised <= %.2f)\n",
           prop.name, gputile_version_string(), QUEUED_CALLS, QUEUED_ROUNDS, SYNC_CALLS,
           QUEUED_TARGET, SYNC_TARGET);
    if (csv)
        printf("gpu,n,lib_queued_us,cublas_queued_us,queued_ratio,queued_met,lib_sync_us,"
               "cublas_sync_us,sync_ratio,sync_met,algorithm,split_k\n");
    else
        printf("%5s  %10s %10s %7s %-4s  %10s %10s %7s %-4s  %-18s %5s\n", "n", "lib queued",
               "cuBLAS", "ratio", "", "lib sync", "cuBLAS", "ratio", "", "algorithm", "split");

    int queued_met = 0, sync_met = 0;
    double worst_queued = 0, worst_sync = 0;
    long worst_queued_n = 0, worst_sync_n = 0;
    for (int si = 0; si < nsizes; ++si) {
        x.n = sizes[si];
        const int nrows = x.rows + 1; /* cuBLAS last */
        for (int w = 0; w < WARMUP_CALLS; ++w)
            for (int row = 0; row < nrows; ++row)
                call(&x, row);
        BENCH_CUDA(cudaStreamSynchronize(x.stream));

        double queued[MAX_ROWS + 1][QUEUED_ROUNDS], sync[MAX_ROWS + 1][SYNC_CALLS];
        for (int r = 0; r < QUEUED_ROUNDS; ++r)
            for (int j = 0; j < nrows; ++j) {
                const int row = (r + j) % nrows;
                BENCH_CUDA(cudaStreamSynchronize(x.stream));
                const double t0 = now_us();
                for (int c = 0; c < QUEUED_CALLS; ++c)
                    call(&x, row);
                BENCH_CUDA(cudaStreamSynchronize(x.stream));
                queued[row][r] = (now_us() - t0) / QUEUED_CALLS;
            }
        for (int i = 0; i < SYNC_CALLS; ++i)
            for (int j = 0; j < nrows; ++j) {
                const int row = (i + j) % nrows;
                const double t0 = now_us();
                call(&x, row);
                BENCH_CUDA(cudaStreamSynchronize(x.stream));
                sync[row][i] = now_us() - t0;
            }
        double q[MAX_ROWS + 1], s[MAX_ROWS + 1];
        for (int row = 0; row < nrows; ++row) {
            q[row] = bench_median(queued[row], QUEUED_ROUNDS);
            s[row] = bench_median(sync[row], SYNC_CALLS);
        }
        for (int row = 0; row < x.rows; ++row) {
            const double qr = q[row] / q[x.rows], sr = s[row] / s[x.rows];
            const bool qok = qr <= QUEUED_TARGET, sok = sr <= SYNC_TARGET;
            queued_met += qok;
            sync_met += sok;
            if (qr > worst_queued) {
                worst_queued = qr;
                worst_queued_n = x.n;
            }
            if (sr > worst_sync) {
                worst_sync = sr;
                worst_sync_n = x.n;
            }
            const char *algo = gputile_algorithm_name(x.used[row].algorithm_used);
            if (csv)
                printf("\"%s\",%ld,%.2f,%.2f,%.3f,%d,%.2f,%.2f,%.3f,%d,%s,%d\n", prop.name, x.n,
                       q[row], q[x.rows], qr, qok, s[row], s[x.rows], sr, sok,
                       algo != NULL ? algo : "?", x.used[row].split_k_used);
            else
                printf("%5ld  %10.2f %10.2f %7.3f %-4s  %10.2f %10.2f %7.3f %-4s  %-18s %5d\n", x.n,
                       q[row], q[x.rows], qr, qok ? "ok" : "over", s[row], s[x.rows], sr,
                       sok ? "ok" : "over", algo != NULL ? algo : "?", x.used[row].split_k_used);
            fflush(stdout);
            bench_progress("  --latency %ld^3 %s:%d: queued %.3f, synchronised %.3f of cuBLAS", x.n,
                           algo != NULL ? algo : "?", x.used[row].split_k_used, qr, sr);
        }
    }
    printf("# summary queued_met=%d/%d sync_met=%d/%d worst_queued=%.3f at=%ld worst_sync=%.3f "
           "at=%ld (times in microseconds per call)\n",
           queued_met, nsizes * x.rows, sync_met, nsizes * x.rows, worst_queued, worst_queued_n,
           worst_sync, worst_sync_n);

    BENCH_CUDA(cudaFree(x.a));
    BENCH_CUDA(cudaFree(x.b));
    BENCH_CUDA(cudaFree(x.c));
    cublasDestroy(x.h);
    BENCH_CUDA(cudaStreamDestroy(x.stream));
    return 0;
}
