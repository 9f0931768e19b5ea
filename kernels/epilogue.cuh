/* SPDX-License-Identifier: MIT */
/*
 * epilogue.cuh: writing four consecutive elements of C, shared by the
 * FP32 kernels' epilogues (internal).
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

#endif
