/* SPDX-License-Identifier: MIT */
/*
 * tf32_split.cuh: rounding to tf32 and 3xTF32's split of a float in
 * integer arithmetic (any architecture: cvt.rna.tf32.f32 exists from
 * sm_80 and runs on sm_90 as ~4 instructions and a select), shared by the
 * K-major pre-pass (gemm_pack.cu) and the TMA-fed kernel, which splits in
 * shared memory what the pre-pass did not (gemm_wgmma_tma.cu): both must
 * give the same bits.
 */
#ifndef GPUTILE_KERNELS_TF32_SPLIT_CUH
#define GPUTILE_KERNELS_TF32_SPLIT_CUH

/* x to nearest tf32 (10 explicit mantissa bits), ties away from zero, as
 * cvt.rna: half a tf32 ulp added to the magnitude bits, then the 13 low
 * bits cleared; a carry into the exponent is the correct rounding up, to
 * infinity past the largest value. Finite x only (an infinity or NaN may
 * change). */
static __device__ __forceinline__ float gputile__tf32_round(float x)
{
    return __uint_as_float((__float_as_uint(x) + 0x1000u) & 0xffffe000u);
}

/* The big part for every x: x, except that a NaN is rewritten as one whose
 * top bits say so (a NaN with only low mantissa bits would read as
 * infinity once truncated). */
static __device__ __forceinline__ float gputile__tf32_big_any(float x)
{
    return isnan(x) ? __uint_as_float(0x7fffffffu) : x;
}

/* 3xTF32's small part of a finite x whose big part is x itself as the
 * tensor cores read it (the top 19 bits: x truncated to tf32): the
 * remainder x - big is exact in fp32, rounded to nearest tf32. */
static __device__ __forceinline__ float gputile__tf32_small(float x)
{
    return gputile__tf32_round(x - __uint_as_float(__float_as_uint(x) & 0xffffe000u));
}

/* The small part for every x: infinities and NaNs get 0 (the big part
 * carries them). */
static __device__ __forceinline__ float gputile__tf32_small_any(float x)
{
    return isfinite(x) ? gputile__tf32_small(x) : 0.0f;
}

#endif
