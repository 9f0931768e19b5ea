/* SPDX-License-Identifier: MIT */
/*
 * gemm_naive.cu: the seed's naive GEMM, one thread per element of C
 * (Kirk & Hwu Fig. 4.1, Programming Guide 6.2.4 without shared memory).
 *
 * Each thread reads a row of op(A) and a column of op(B) from global memory:
 * two loads per FMA, a CGMA of 1 (the L1/L2 caches catch much of the reuse).
 * Kept as a teaching reference and a test oracle, not for speed.
 * Launch: 16x16 threads per block, blocks over C's 16x16 tiles, rows of
 * tiles in a grid-stride loop. Any m, n, k >= 1, any strides.
 */
#include "kernels.h"
#include "grid.cuh"

#define NAIVE_BLOCK 16

static __global__ void gemm_naive_kernel(gputile__gemm_args p)
{
    /* op(A)(i, q) = a[i * a_row + q * a_col]; op(B)(q, j) = b[q * b_row + j * b_col] */
    const int64_t a_row = p.trans_a ? 1 : p.lda, a_col = p.trans_a ? p.lda : 1;
    const int64_t b_row = p.trans_b ? 1 : p.ldb, b_col = p.trans_b ? p.ldb : 1;
    const int64_t col = (int64_t)blockIdx.x * NAIVE_BLOCK + threadIdx.x;

    if (col >= p.n)
        return;
    for (int64_t row = (int64_t)blockIdx.y * NAIVE_BLOCK + threadIdx.y; row < p.m;
         row += (int64_t)gridDim.y * NAIVE_BLOCK) {
        const float *a = p.a + row * a_row;
        const float *b = p.b + col * b_col;
        float acc = 0.0f;
        for (int64_t q = 0; q < p.k; ++q)
            acc = fmaf(a[q * a_col], b[q * b_row], acc);
        float *c = p.c + row * p.ldc + col;
        *c = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *c;
    }
}

extern "C" cudaError_t gputile__gemm_run_NAIVE(const gputile__gemm_args *args,
                                               const gputile__gemm_plan *, cudaStream_t stream)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    return gputile__launch(gemm_naive_kernel,
                           gputile__tile_grid(args->m, args->n, NAIVE_BLOCK, NAIVE_BLOCK), block, 0,
                           stream, *args);
}
