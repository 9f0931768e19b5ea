/* SPDX-License-Identifier: MIT */
/*
 * histogram_samples.cuh: the binning functors of the histogram's sample
 * types, one per row of GPUTILE__HIST_SAMPLE_TYPES (kernels/histogram.h).
 * Included by kernels/histogram.cu and kernels/histogram_image.cu.
 *
 * A functor holds all that the kernels need to know of its type:
 *   sample        the scalar type (head and tail of the input are read as these)
 *   vec           the 16-byte type of one vector load
 *   per_vec       samples per vec (the row's vector width)
 *   at(v, k)      sample k of vector v (k is a constant once the kernels unroll)
 *   make(args)    the functor of one call, built on the host from lib/'s arguments
 *   operator()(x) the bin of sample x, or NO_BIN (not counted)
 * Keys are 32-bit: a bin index in [0, nbins), or NO_BIN.
 * Also the helpers every histogram kernel file shares (the opt-in shared
 * memory setting, a shared-memory increment with no result).
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_SAMPLES_CUH
#define GPUTILE_KERNELS_HISTOGRAM_SAMPLES_CUH

#include <stdint.h>
#include <string.h>
#include <cuda_runtime.h>

#include "histogram.h"

#define NO_BIN 0xFFFFFFFFu

/* Lets kernel k use the device's whole opt-in shared memory (lib/ passes it
 * from its device cache). Always the same value, never the size of one
 * call: host threads planning different sizes at once cannot undo each
 * other's setting between it and a launch. */
static inline cudaError_t gputile__hist_allow_smem(const void *k, int smem_optin)
{
    return cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_optin);
}

/* The copy a flush reads at step j (0 <= j < K = 2^copies_log2) for bin b,
 * of counts kept as K interleaved copies (word b K + copy). Reading copy j
 * for every bin at once put a warp's 32 reads 32 K words apart, all in one
 * bank (K = 32: 32 ways; 8,192 conflicted reads per 256 bins, about 5 us a
 * block on an H100, paid by every call). Each lane starts at its own copy
 * instead, so the warp's reads land in 32 banks: lanes b and b' share a
 * copy's base bank when b = b' mod 32 / K, and then differ in b / (32 / K). */
__device__ __forceinline__ uint32_t gputile__flush_copy(uint32_t b, uint32_t j, int copies_log2)
{
    const int g = copies_log2 < 5 ? 5 - copies_log2 : 0; /* log2(32 / K) */
    return ((b >> g) + j) & ((1u << copies_log2) - 1);
}

/* x, which the compiler can no longer see through: a value to keep in a
 * register where it would otherwise recompute it at every use. The
 * shared-window address of dynamic shared memory is a constant to nvcc
 * (S2UR of the CTA's id in its cluster, UMOV, ULEA: three instructions at
 * every add); a power of two known as one makes a multiply a shift and an
 * add. */
__device__ __forceinline__ uint32_t gputile__opaque(uint32_t x)
{
    asm volatile("mov.b32 %0, %0;" : "+r"(x));
    return x;
}

/* v more in the word at shared-space address a (no result: a RED). */
__device__ __forceinline__ void gputile__red_shared_add(uint32_t a, uint32_t v)
{
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(v));
}

/* One more in the word at shared-space address a (no result: a RED). */
__device__ __forceinline__ void gputile__red_shared_inc(uint32_t a)
{
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a));
}

/* The samples of one launch: scalar head, 16-byte body, scalar tail. */
template <typename Bin>
struct part {
    const typename Bin::sample *head;
    const typename Bin::vec *body;
    const typename Bin::sample *tail;
    uint32_t head_n, nvec, tail_n;
};

/* Component k (0..3) of an int4 or float4. */
template <typename V>
__device__ __forceinline__ auto component4(const V &v, int k) -> decltype(v.x)
{
    return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

/* INT32: the seed's clamping, below 0 to bin 0, at or above nbins to the last. */
struct bin_i32 {
    typedef int32_t sample;
    typedef int4 vec;
    static const int per_vec = 4;
    int32_t last; /* nbins - 1 */

    static bin_i32 make(const gputile__hist_args *a)
    {
        bin_i32 b = {a->nbins - 1};
        return b;
    }
    static __device__ __forceinline__ sample at(const vec &v, int k)
    {
        return component4(v, k);
    }
    __device__ __forceinline__ uint32_t operator()(int32_t x) const
    {
        return (uint32_t)min(max(x, 0), last);
    }
};

/* FLOAT: floor((x - lower) * scale) with explicitly rounded float
 * operations; samples outside [lower, upper) and NaN are not counted. */
struct bin_f32 {
    typedef float sample;
    typedef float4 vec;
    static const int per_vec = 4;
    float lower, upper, scale;
    int32_t last;

    static bin_f32 make(const gputile__hist_args *a)
    {
        bin_f32 b = {a->lower, a->upper, a->scale, a->nbins - 1};
        return b;
    }
    static __device__ __forceinline__ sample at(const vec &v, int k)
    {
        return component4(v, k);
    }
    __device__ __forceinline__ uint32_t operator()(float x) const
    {
        /* __fsub_rn/__fmul_rn: never fused into an FMA, so the result is
         * the one the documented float formula gives on any host. */
        float t = __fmul_rn(__fsub_rn(x, lower), scale);
        /* t >= 0 wherever the sample counts; the conversion saturates, so
         * t at or past nbins (rounding) lands in the last bin: one
         * instruction fewer than comparing t with (float)nbins first */
        uint32_t b = min((uint32_t)__float2int_rz(t), (uint32_t)last);
        return (x >= lower && x < upper) ? b : NO_BIN;
    }
};

/* Sample k of a 16-byte vector of 1-, 2- or 4-byte samples of type T. */
template <typename T>
__device__ __forceinline__ T sample_of(const uint4 &v, int k)
{
    const uint32_t w = component4(v, (int)(k * sizeof(T) / 4));
    if (sizeof(T) == 1)
        return (T)(uint8_t)(w >> (8 * (k & 3)));
    if (sizeof(T) == 2)
        return (T)(uint16_t)(w >> (16 * (k & 1)));
    T x;
    memcpy(&x, &w, sizeof x);
    return x;
}

/* Even bins of integer samples, exact: x counts in bin
 * floor((x - lower) * nbins / span) when 0 <= x - lower < span, else NO_BIN.
 * lib/ keeps |lower|, span <= 2^34 and nbins <= 2^24, so every product
 * below fits in 64 bits. The double quotient is a first guess that is off
 * by at most one (relative error < 2^-50 on a quotient < 2^24); the
 * integer products correct it. */
struct even_int_bins {
    int64_t lower;
    uint64_t span;
    double inv; /* nbins / span */
    uint32_t nbins;
    int shift; /* log2(span / nbins) when that is a whole power of two, else -1 */

    /* shift for span and nbins (host) */
    static int shift_of(uint64_t span, uint32_t nbins)
    {
        if (span % nbins != 0 || ((span / nbins) & (span / nbins - 1)) != 0)
            return -1;
        int k = 0;
        while ((uint64_t)nbins << k < span)
            ++k;
        return k;
    }
    __device__ __forceinline__ uint32_t operator()(int64_t x) const
    {
        const uint64_t d = (uint64_t)(x - lower);
        if (d >= span) /* below lower wraps to a huge d */
            return NO_BIN;
        if (shift >= 0) /* bins of 2^shift values: 256 over [0, 256), 4096 over 65536 */
            return (uint32_t)(d >> shift);
        uint32_t q = __double2uint_rz(__dmul_rn((double)d, inv));
        const uint64_t p = d * nbins;
        if ((uint64_t)q * span > p)
            --q;
        else if ((uint64_t)(q + 1) * span <= p)
            ++q;
        return q;
    }
};

/* UINT8, UINT16, INT16: even bins (even_int_bins) on the 1-D input. */
template <typename T>
struct bin_even {
    typedef T sample;
    typedef uint4 vec;
    static const int per_vec = (int)(16 / sizeof(T));
    even_int_bins e;

    static bin_even make(const gputile__hist_args *a)
    {
        bin_even b = {{a->ilower, a->ispan, a->iinv, (uint32_t)a->nbins,
                       even_int_bins::shift_of(a->ispan, (uint32_t)a->nbins)}};
        return b;
    }
    static __device__ __forceinline__ sample at(const vec &v, int k)
    {
        return sample_of<T>(v, k);
    }
    __device__ __forceinline__ uint32_t operator()(T x) const
    {
        return e((int64_t)x);
    }
};
typedef bin_even<uint8_t> bin_u8;
typedef bin_even<uint16_t> bin_u16;
typedef bin_even<int16_t> bin_i16;

#endif /* GPUTILE_KERNELS_HISTOGRAM_SAMPLES_CUH */
