/* SPDX-License-Identifier: MIT */
/*
 * gemm_checksum.c: a table of checksums of gputile_gemm() results, to show
 * that a change left every algorithm and precision bit-identical (run by
 * hand on a GPU before and after, and the two outputs compared with diff).
 *
 * Every input is drawn from a fixed-seed generator, so one build of the
 * library gives the same table on every run of the same GPU model. Each row:
 * the request (algorithm, precision, split), the shape and transposes, what
 * ran (algorithm_used, split_k_used), and FNV-1a 64 of C's bytes (the whole
 * parent, guard columns included, so a write outside the view changes it).
 * Only the public API is used: the program builds against any release.
 *
 *   tests/gemm_checksum [--quick]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gputile.h"

struct shape {
    int m, n, k, ta, tb;
    float alpha, beta;
    int off;   /* elements before each view: 1 makes rows unaligned */
    int extra; /* stride - width */
    int big;   /* skipped for the naive and tiled algorithms and with --quick */
};

static const struct shape shapes[] = {
    {1, 1, 1, 0, 0, 1, 0, 0, 0, 0},
    {7, 13, 31, 0, 0, 1, 0, 0, 0, 0},
    {61, 127, 257, 0, 0, 1, 0, 1, 3, 0},
    {100, 90, 70, 1, 0, 1, 0, 0, 0, 0},
    {100, 90, 70, 0, 1, 2, 1, 0, 1, 0},
    {100, 90, 70, 1, 1, -1, 0.5f, 1, 2, 0},
    {509, 1021, 127, 0, 0, 1, 0, 0, 0, 0},
    {513, 257, 129, 1, 1, -1, 0, 1, 7, 0},
    {1025, 1023, 1024, 0, 0, 1, 0, 1, 1, 0},
    {1999, 1001, 333, 1, 0, 1, 0, 0, 1, 0},
    {1001, 1999, 333, 0, 1, 1, 0.25f, 0, 0, 0},
    {2000, 8, 2000, 0, 0, 1, 0, 2, 9, 0},
    {3, 2000, 50, 0, 0, 1, 0, 0, 0, 0},
    {33, 65, 2001, 1, 1, 1, 0, 0, 0, 0},
    {130, 260, 64, 0, 0, 1, 0, 0, 0, 0},    /* thin edges of 128 x 256 tiles */
    {3011, 3074, 301, 0, 0, 1, 0, 1, 0, 1}, /* unaligned, thin columns, tail split */
    {3012, 3073, 301, 1, 1, 2, 0.5f, 0, 1, 1},
    {4096, 4096, 256, 0, 0, 1, 0, 0, 0, 1}, /* aligned 64 x 128, tail split */
    {127, 8192, 1024, 0, 0, 1, 0, 0, 0, 1}, /* few tiles: AUTO splits k */
    {8192, 128, 1024, 0, 1, 1, 0, 0, 0, 1}, /* C narrower than 256 */
    {2048, 2048, 2048, 1, 0, 1, 0, 0, 0, 1},
};

static uint64_t state;
static float next_float(void) /* in [-1, 1), 1/4096 steps: any product sum is exact-ish */
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((int)(state >> 40 & 0x1fff) - 4096) / 4096.0f +
           (float)(state >> 20 & 0xff) * 1e-6f;
}

static uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* A parent of rows x (off + cols + extra) floats, filled from the generator. */
static float *parent(size_t rows, size_t stride, size_t *bytes)
{
    *bytes = (rows * stride + 1) * sizeof(float);
    float *h = malloc(*bytes);
    for (size_t i = 0; i < *bytes / sizeof(float); ++i)
        h[i] = next_float();
    return h;
}

static int run(const struct shape *s, int algorithm, int precision, int split, int host)
{
    const size_t ar = s->ta ? s->k : s->m, ac = s->ta ? s->m : s->k;
    const size_t br = s->tb ? s->n : s->k, bc = s->tb ? s->k : s->n;
    const size_t sa = ac + s->off + s->extra, sb = bc + s->off + s->extra,
                 sc = s->n + s->off + s->extra;
    size_t na, nb, nc;
    state = (uint64_t)(s->m * 131 + s->n * 7 + s->k) * 2654435761u + 12345u;
    float *ha = parent(ar, sa, &na), *hb = parent(br, sb, &nb), *hc = parent(s->m, sc, &nc);
    float *da = ha, *db = hb, *dc = hc;
    if (!host) {
        if (cudaMalloc((void **)&da, na) || cudaMalloc((void **)&db, nb) ||
            cudaMalloc((void **)&dc, nc) || cudaMemcpy(da, ha, na, cudaMemcpyHostToDevice) ||
            cudaMemcpy(db, hb, nb, cudaMemcpyHostToDevice) ||
            cudaMemcpy(dc, hc, nc, cudaMemcpyHostToDevice)) {
            fprintf(stderr, "gemm_checksum: device allocation or copy failed\n");
            exit(1);
        }
    }
    gputile_matrix a = {ac, ar, sa, da + s->off}, b = {bc, br, sb, db + s->off},
                   c = {(size_t)s->n, (size_t)s->m, sc, dc + s->off};
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm = algorithm;
    o.precision = precision;
    o.split_k = split;
    gputile_status st =
        gputile_gemm(s->ta ? GPUTILE_OP_T : GPUTILE_OP_N, s->tb ? GPUTILE_OP_T : GPUTILE_OP_N,
                     s->alpha, a, b, s->beta, c, NULL, &o);
    uint64_t h = 0;
    if (st == GPUTILE_SUCCESS) {
        if (!host && (cudaDeviceSynchronize() || cudaMemcpy(hc, dc, nc, cudaMemcpyDeviceToHost)))
            st = GPUTILE_ERROR_CUDA;
        h = fnv1a(hc, nc);
    }
    printf("%-16s %-7s split %2d  %5dx%5dx%5d %c%c%s alpha %5.2f beta %4.2f off %d extra %d -> "
           "%-16s split %2d  %016llx %s\n",
           gputile_algorithm_name(algorithm),
           precision == 0   ? "fp32"
           : precision == 1 ? "3xtf32"
                            : "tf32",
           split, s->m, s->n, s->k, s->ta ? 'T' : 'N', s->tb ? 'T' : 'N', host ? " host" : "",
           s->alpha, s->beta, s->off, s->extra,
           st == GPUTILE_SUCCESS ? gputile_algorithm_name(o.algorithm_used) : "-",
           st == GPUTILE_SUCCESS ? o.split_k_used : 0, (unsigned long long)h,
           st == GPUTILE_SUCCESS ? "" : gputile_status_name(st));
    if (!host) {
        cudaFree(da);
        cudaFree(db);
        cudaFree(dc);
    }
    free(ha);
    free(hb);
    free(hc);
    return st == GPUTILE_SUCCESS || st == GPUTILE_ERROR_UNSUPPORTED ? 0 : 1;
}

int main(int argc, char **argv)
{
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int n = 0, failed = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "gemm_checksum: no usable CUDA device\n");
        return 77;
    }
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    /* every named algorithm with every precision it takes, and AUTO */
    for (int alg = 0; gputile_algorithm_name(alg) != NULL; ++alg) {
        for (int prec = 0; prec < 3; ++prec) {
            const int tensor =
                alg == GPUTILE_ALGO_WGMMA_128X128 || alg == GPUTILE_ALGO_WGMMA_128X256;
            if (alg != GPUTILE_ALGO_AUTO && tensor != (prec != 0))
                continue;
            if (alg == GPUTILE_ALGO_WGMMA_128X256 && prec == 1)
                continue; /* 3xTF32 runs on 128 x 128 only */
            for (size_t i = 0; i < nshapes; ++i) {
                if (shapes[i].big &&
                    (quick || alg == GPUTILE_ALGO_NAIVE || alg == GPUTILE_ALGO_TILED))
                    continue;
                failed += run(&shapes[i], alg, prec, 0, 0);
            }
            /* a forced split of k where the algorithm takes one */
            if (alg >= GPUTILE_ALGO_REGBLOCK_128) {
                failed += run(&shapes[8], alg, prec, 3, 0);
                failed += run(&shapes[13], alg, prec, 5, 0);
            }
        }
    }
    /* host matrices: the overlapped pipeline, in tiles */
    if (!quick) {
        failed += run(&shapes[16], GPUTILE_ALGO_AUTO, 0, 0, 1);
        failed += run(&shapes[9], GPUTILE_ALGO_AUTO, 0, 0, 1);
        failed += run(&shapes[9], GPUTILE_ALGO_WGMMA_128X128, 1, 0, 1);
    }
    printf("%d failed\n", failed);
    return failed != 0;
}
