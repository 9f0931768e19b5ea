/* SPDX-License-Identifier: MIT */
/*
 * gemm_splitk.cu: the deterministic split-K reduction of every GEMM family.
 *
 * A kernel split k ways writes its raw partial products to a workspace of
 * splits x m x n floats (split z at z m n, row-major, n apart); this adds
 * them in order of z, so the same inputs give the same bits, and applies
 * alpha and beta (beta == 0 never reads C). A grid-stride loop over the
 * elements, memory-bound: lib/ sizes the grid from the SM count.
 */
#include "grid.cuh"
#include "kernels.h"

static __global__ void gemm_splitk_reduce_kernel(gputile__gemm_args p, int splits,
                                                 const float *__restrict__ work)
{
    const int64_t mn = p.m * p.n;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < mn;
         e += (int64_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int z = 0; z < splits; ++z)
            s += work[z * mn + e];
        const int64_t row = e / p.n, col = e % p.n;
        float *c = p.c + row * p.ldc + col;
        *c = p.beta == 0.0f ? p.alpha * s : p.alpha * s + p.beta * *c;
    }
}

extern "C" cudaError_t gputile__gemm_splitk_reduce(const gputile__gemm_args *p, int splits,
                                                   const float *work, int blocks,
                                                   cudaStream_t stream)
{
    return gputile__launch(gemm_splitk_reduce_kernel, blocks, 256, 0, stream, *p, splits, work);
}
