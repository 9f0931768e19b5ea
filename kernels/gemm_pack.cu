/* SPDX-License-Identifier: MIT */
/*
 * gemm_pack.cu: the K-major pre-pass of the TMA-fed tensor-core GEMM
 * (gemm_wgmma_tma.cu): writes an operand as rows x k floats, k contiguous,
 * into a workspace whose rows are 16-byte aligned, transposing it when it
 * is stored the other way (row-major B, A^T), and rounding it to tf32 on
 * request (TF32: the tensor cores would truncate it).
 *
 * 32 x 32 tiles through shared memory (33 columns: the transposed reads
 * of a warp fall in 32 different banks), 32 x 8 threads, 4 rows each:
 * reads and writes are both 128-byte rows of a warp. Moves 8 bytes per
 * element, bandwidth-bound: 64 MB at 4096^2, about 15 us on an H200.
 */
#include "kernels.h"

namespace {

constexpr int TILE = 32, ROWS = 8;

/* x rounded to tf32 (10 explicit mantissa bits), to nearest, ties away
 * from zero, as cvt.rna.tf32.f32 does, in integer arithmetic (this file
 * builds for every architecture): half a tf32 ulp added to the magnitude
 * bits, then the 13 low bits cleared; a carry into the exponent is the
 * correct rounding up, to infinity past the largest value. Infinities and
 * NaNs pass unchanged. */
static __device__ __forceinline__ float to_tf32(float x)
{
    unsigned u = __float_as_uint(x);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & 0xffffe000u;
    return __uint_as_float(u);
}

/* dst[r * ldd + q] for r < rows, q < k: src[q * ld + r] (TRANSPOSE) or
 * src[r * ld + q]. Grid: x over tiles of k, y over tiles of rows (strided). */
template <bool TRANSPOSE, bool ROUND>
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
                    dst[r * ldd + q] = ROUND ? to_tf32(tile[tx][ty + j]) : tile[tx][ty + j];
            }
            __syncthreads();
        } else {
#pragma unroll
            for (int j = 0; j < TILE; j += ROWS) {
                const int64_t r = r0 + ty + j, q = q0 + tx;
                if (r < rows && q < k)
                    dst[r * ldd + q] = ROUND ? to_tf32(src[r * ld + q]) : src[r * ld + q];
            }
        }
    }
}

} // namespace

extern "C" cudaError_t gputile__gemm_pack_kmajor(const float *src, int64_t ld, int transpose,
                                                 int64_t rows, int64_t k, float *dst, int64_t ldd,
                                                 int round_tf32, cudaStream_t stream)
{
    const int64_t tiles_k = (k + TILE - 1) / TILE, tiles_r = (rows + TILE - 1) / TILE;
    dim3 grid((unsigned)tiles_k, (unsigned)(tiles_r < 65535 ? tiles_r : 65535), 1);
    dim3 block(TILE, ROWS, 1);
    if (transpose && round_tf32)
        pack_kernel<true, true><<<grid, block, 0, stream>>>(src, ld, rows, k, dst, ldd);
    else if (transpose)
        pack_kernel<true, false><<<grid, block, 0, stream>>>(src, ld, rows, k, dst, ldd);
    else if (round_tf32)
        pack_kernel<false, true><<<grid, block, 0, stream>>>(src, ld, rows, k, dst, ldd);
    else
        pack_kernel<false, false><<<grid, block, 0, stream>>>(src, ld, rows, k, dst, ldd);
    return cudaGetLastError();
}
