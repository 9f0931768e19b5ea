/* SPDX-License-Identifier: MIT */
/*
 * gemm_pack.cu: the K-major pre-pass of the TMA-fed tensor-core GEMM
 * (gemm_wgmma_tma.cu): writes an operand as rows x k floats, k contiguous,
 * into a workspace whose rows are 16-byte aligned, transposing it when it
 * is stored the other way (row-major B, A^T), and on request splitting it
 * into 3xTF32's big and small parts (tf32_split.cuh), the small parts written
 * rows x ldd floats after the big (12 bytes an element instead of 8).
 *
 * 32 x 32 tiles through shared memory (33 columns: the transposed reads
 * of a warp fall in 32 different banks), 32 x 8 threads, 4 rows each:
 * reads and writes are both 128-byte rows of a warp. Moves 8 bytes per
 * element, bandwidth-bound: 64 MB at 4096^2, about 15 us on an H200.
 */
#include "grid.cuh"
#include "kernels.h"
#include "tf32_split.cuh"

namespace {

constexpr int TILE = 32, ROWS = 8;

/* dst[i] = x as MODE asks (GPUTILE__PACK_*); SPLIT: big at i, small
 * `small` floats on. */
template <int MODE>
static __device__ __forceinline__ void put(float *__restrict__ dst, int64_t i, int64_t small,
                                           float x)
{
    if (MODE == GPUTILE__PACK_SPLIT) {
        dst[i] = gputile__tf32_big_any(x);
        dst[i + small] = gputile__tf32_small_any(x);
    } else {
        dst[i] = x;
    }
}

/* dst[r * ldd + q] for r < rows, q < k: src[q * ld + r] (TRANSPOSE) or
 * src[r * ld + q], as MODE asks. Grid: x over tiles of k, y over tiles of
 * rows (strided). */
template <bool TRANSPOSE, int MODE>
static __global__ void __launch_bounds__(TILE *ROWS)
    pack_kernel(const float *__restrict__ src, int64_t ld, int64_t rows, int64_t k,
                float *__restrict__ dst, int64_t ldd)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t q0 = (int64_t)blockIdx.x * TILE;
    for (int64_t r0 = (int64_t)blockIdx.y * TILE; r0 < rows; r0 += (int64_t)gridDim.y * TILE) {
        if (TRANSPOSE) {
            /* read along rows (src's contiguous index), write along k */
#pragma unroll
            for (int j = 0; j < TILE; j += ROWS) {
                const int64_t q = q0 + ty + j, r = r0 + tx;
                if (q < k && r < rows)
                    tile[ty + j][tx] = src[q * ld + r];
            }
            __syncthreads();
#pragma unroll
            for (int j = 0; j < TILE; j += ROWS) {
                const int64_t r = r0 + ty + j, q = q0 + tx;
                if (r < rows && q < k)
                    put<MODE>(dst, r * ldd + q, rows * ldd, tile[tx][ty + j]);
            }
            __syncthreads();
        } else {
#pragma unroll
            for (int j = 0; j < TILE; j += ROWS) {
                const int64_t r = r0 + ty + j, q = q0 + tx;
                if (r < rows && q < k)
                    put<MODE>(dst, r * ldd + q, rows * ldd, src[r * ld + q]);
            }
        }
    }
}

template <bool TRANSPOSE, int MODE>
static cudaError_t launch(const float *src, int64_t ld, int64_t rows, int64_t k, float *dst,
                          int64_t ldd, cudaStream_t stream)
{
    const int64_t tiles_k = (k + TILE - 1) / TILE, tiles_r = (rows + TILE - 1) / TILE;
    dim3 grid((unsigned)tiles_k, (unsigned)(tiles_r < 65535 ? tiles_r : 65535), 1);
    dim3 block(TILE, ROWS, 1);
    return gputile__launch(pack_kernel<TRANSPOSE, MODE>, grid, block, 0, stream, src, ld, rows, k,
                           dst, ldd);
}

} // namespace

extern "C" cudaError_t gputile__gemm_pack_kmajor(const float *src, int64_t ld, int transpose,
                                                 int64_t rows, int64_t k, float *dst, int64_t ldd,
                                                 int mode, cudaStream_t stream)
{
    switch (mode) {
    case GPUTILE__PACK_SPLIT:
        return transpose ? launch<true, GPUTILE__PACK_SPLIT>(src, ld, rows, k, dst, ldd, stream)
                         : launch<false, GPUTILE__PACK_SPLIT>(src, ld, rows, k, dst, ldd, stream);
    default:
        return transpose ? launch<true, GPUTILE__PACK_COPY>(src, ld, rows, k, dst, ldd, stream)
                         : launch<false, GPUTILE__PACK_COPY>(src, ld, rows, k, dst, ldd, stream);
    }
}
