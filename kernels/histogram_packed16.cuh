/* SPDX-License-Identifier: MIT */
/*
 * histogram_packed16.cuh: shared-memory counts kept as 16-bit halves of
 * 32-bit words, exact whatever the input, for the histogram kernels that
 * hold twice the bins in the same shared memory (kernels/histogram.cu's
 * shared and DSM tiers, kernels/histogram_image.cu's PACKED16 modes).
 *
 * Half h is the low (h even) or high (h odd) half of word h / 2. Adding c
 * (1 <= c < 65,536) to a half is one 32-bit shared atomic whose old value
 * is exact, so the thread that makes a half pass 0xFFFF knows it and adds
 * 65,536 to that half's 64-bit count in global memory (a credit). A low
 * half that passes 0xFFFF also carries 1 into the high half: the same
 * thread takes it back with a second atomic, crediting 65,536 to the high
 * half's count where the carry wrapped it and debiting 65,536 where taking
 * it back wraps it below 0. So at every moment, whatever the interleaving,
 * each half's value plus 65,536 times its net credits is its exact count;
 * the kernel's final flush adds the halves' values to the 64-bit counts.
 * Wraps are rare (one per 65,536 counted), so the cost is the atomic's
 * returned value, not the global atomics.
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_PACKED16_CUH
#define GPUTILE_KERNELS_HISTOGRAM_PACKED16_CUH

#include <stdint.h>

/* The rare part of an add that made half h pass 0xFFFF (old: the word
 * before the add): the credits, and the carry out of a low half taken
 * back. lo_count is h's 64-bit count; hi_count that of half h + 1 when h
 * is even (the high half of the same word), NULL where that half is
 * padding that holds no bin. */
__device__ __forceinline__ void gputile__packed16_wrapped(uint32_t *sh, uint32_t h, uint32_t old,
                                                          unsigned long long *lo_count,
                                                          unsigned long long *hi_count)
{
    atomicAdd(lo_count, 65536ull);
    if (h & 1)
        return; /* a high half's carry leaves the word */
    if (old >> 16 == 0xFFFFu && hi_count != NULL)
        atomicAdd(hi_count, 65536ull); /* the carry wrapped the high half */
    const uint32_t back = atomicAdd(sh + (h >> 1), 0xFFFF0000u); /* high half - 1 */
    if (back >> 16 == 0 && hi_count != NULL)
        atomicAdd(hi_count, 0ull - 65536ull); /* and that wrapped it below 0 */
}

/* Adds c (1 <= c < 2^16) to half h of sh; true when that half passed
 * 0xFFFF, and then *old is the word before the add and the caller must
 * call gputile__packed16_wrapped(). */
__device__ __forceinline__ bool gputile__packed16_add(uint32_t *sh, uint32_t h, uint32_t c,
                                                      uint32_t *old)
{
    const uint32_t shift = (h & 1) * 16;
    *old = atomicAdd(sh + (h >> 1), c << shift);
    return ((*old >> shift) & 0xFFFFu) + c > 0xFFFFu;
}

#endif /* GPUTILE_KERNELS_HISTOGRAM_PACKED16_CUH */
