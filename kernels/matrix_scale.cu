/* SPDX-License-Identifier: MIT */
/*
 * matrix_scale.cu: C = beta * C, the whole of GEMM when k = 0 or alpha = 0.
 *
 * One thread per element, 32x8 blocks so a warp covers 32 consecutive
 * columns (coalesced); rows of blocks in a grid-stride loop. beta == 0
 * stores zeros without reading C, so NaN or garbage in C does not survive
 * (BLAS semantics).
 */
#include "kernels.h"
#include "grid.cuh"

static __global__ void matrix_scale_kernel(int64_t m, int64_t n, float beta, float *c, int64_t ldc)
{
    int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n)
        return;
    for (int64_t row = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; row < m;
         row += (int64_t)gridDim.y * blockDim.y) {
        float *p = c + row * ldc + col;
        *p = beta == 0.0f ? 0.0f : beta * *p;
    }
}

extern "C" cudaError_t gputile__matrix_scale(int64_t m, int64_t n, float beta, float *c,
                                             int64_t ldc, cudaStream_t stream)
{
    dim3 block(32, 8);
    return gputile__launch(matrix_scale_kernel, gputile__tile_grid(m, n, 8, 32), block, 0, stream,
                           m, n, beta, c, ldc);
}
