/* SPDX-License-Identifier: MIT */
/*
 * epilogue.cuh: writing four consecutive elements of C, shared by the
 * FP32 kernels' epilogues and the TMA kernels' staged store (internal).
 */
#ifndef GPUTILE_EPILOGUE_CUH
#define GPUTILE_EPILOGUE_CUH

#include <stdint.h>

/* dst[0..3] = v (+ beta dst where `blend`), of which only the `left`
 * first exist (the rest of the row is past n); one 16-byte load and
 * store where `vec` (dst 16-byte aligned) and all four exist. */
__device__ __forceinline__ void gputile__store_c4(float *dst, float (&v)[4], bool vec, int64_t left,
                                                  bool blend, float beta)
{
    if (vec && left > 3) {
        if (blend) {
            const float4 old = *reinterpret_cast<const float4 *>(dst);
            v[0] += beta * old.x, v[1] += beta * old.y;
            v[2] += beta * old.z, v[3] += beta * old.w;
        }
        *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (j < left)
                dst[j] = blend ? v[j] + beta * dst[j] : v[j];
    }
}

/* The thread's (4 RM) x (4 RN) results as the FP32 kernels hold them (a
 * warp's lanes stand 4 x 8; each holds RM x RN quarters of 4 x 4, 16 rows
 * and 32 columns apart) written to rows of C that are not 16-byte aligned,
 * one 16 x 32 quarter of the warp at a time through the warp's 2 KiB of
 * shared memory `stage`: each store is then 32 consecutive floats of one
 * row (4 or 5 sectors), where the thread's own four scalar stores per row
 * would touch 16 sectors a quarter used (13,956 x 12,227 x 11 wrote C at
 * 1.0 TB/s that way, against 2.7 TB/s for an aligned C). c: the warp's
 * first element; rows, cols: how many of the warp's rows and columns are
 * inside C (may be <= 0); C = scale acc (+ beta C where `blend`). */
template <int RM, int RN>
__device__ __forceinline__ void
gputile__store_rows_staged(const float (&acc)[4 * RM][4 * RN], float *stage, float *c, int64_t ldc,
                           int64_t rows, int64_t cols, float scale, bool blend, float beta)
{
    const int lane = threadIdx.x % 32, lr = lane / 8 * 4, lc = lane % 8 * 4;
#pragma unroll
    for (int r = 0; r < RM; ++r)
#pragma unroll
        for (int h = 0; h < RN; ++h) {
            __syncwarp(); /* the quarter before is read */
#pragma unroll
            for (int i = 0; i < 4; ++i)
                *reinterpret_cast<float4 *>(&stage[(lr + i) * 32 + lc]) = make_float4(
                    scale * acc[4 * r + i][4 * h], scale * acc[4 * r + i][4 * h + 1],
                    scale * acc[4 * r + i][4 * h + 2], scale * acc[4 * r + i][4 * h + 3]);
            __syncwarp();
            if (32 * h + lane >= cols)
                continue;
            float *dst = c + (int64_t)16 * r * ldc + 32 * h + lane;
#pragma unroll
            for (int rr = 0; rr < 16; ++rr, dst += ldc)
                if (16 * r + rr < rows) {
                    const float v = stage[rr * 32 + lane];
                    *dst = blend ? v + beta * *dst : v;
                }
        }
}

#endif
