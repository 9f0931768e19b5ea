/* SPDX-License-Identifier: MIT */
/*
 * gemm_tiled.cu: the shared-memory tiled GEMM of Kirk & Hwu Fig. 4.7 and the
 * Programming Guide's 6.2.4 example, generalised to any shape.
 *
 * A 16x16 block computes a 16x16 tile of C. Per step it stages a 16x16 tile
 * of op(A) and of op(B) in shared memory (one element per thread each), then
 * each thread does 16 FMAs from shared memory: 2 global loads per 16 FMAs
 * per thread, a CGMA of 16 (TILE). Shared memory: 2 KiB per block.
 * Edges: elements outside op(A), op(B) load as 0, so partial tiles in m, n
 * and k need no special path and padding products are 0 * 0 (no NaN from
 * 0 * inf). Rows of tiles run in a grid-stride loop (gridDim.y <= 65535).
 * Transposed operands swap the strides; those loads are then uncoalesced,
 * which the teaching kernel accepts.
 */
#include "kernels.h"
#include "grid.cuh"

#define TILE 16

static __global__ void gemm_tiled_kernel(gputile__gemm_args p)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t a_row = p.trans_a ? 1 : p.lda, a_col = p.trans_a ? p.lda : 1;
    const int64_t b_row = p.trans_b ? 1 : p.ldb, b_col = p.trans_b ? p.ldb : 1;
    const int64_t col = (int64_t)blockIdx.x * TILE + tx;

    for (int64_t row0 = (int64_t)blockIdx.y * TILE; row0 < p.m; row0 += (int64_t)gridDim.y * TILE) {
        const int64_t row = row0 + ty;
        float acc = 0.0f;
        for (int64_t k0 = 0; k0 < p.k; k0 += TILE) {
            as[ty][tx] = (row < p.m && k0 + tx < p.k) ? p.a[row * a_row + (k0 + tx) * a_col] : 0.0f;
            bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? p.b[(k0 + ty) * b_row + col * b_col] : 0.0f;
            __syncthreads();
#pragma unroll
            for (int q = 0; q < TILE; ++q)
                acc = fmaf(as[ty][q], bs[q][tx], acc);
            __syncthreads();
        }
        if (row < p.m && col < p.n) {
            float *c = p.c + row * p.ldc + col;
            *c = p.beta == 0.0f ? p.alpha * acc : p.alpha * acc + p.beta * *c;
        }
    }
}

extern "C" cudaError_t gputile__gemm_run_TILED(const gputile__gemm_args *args,
                                               const gputile__gemm_plan *, cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    return gputile__launch(gemm_tiled_kernel, gputile__tile_grid(args->m, args->n, TILE, TILE),
                           block, 0, stream, *args);
}
