/* SPDX-License-Identifier: MIT */
/*
 * histogram_packed8.cuh: shared-memory counts kept as the four bytes of
 * 32-bit words, exact whatever the input, for the shared and DSM tiers of
 * kernels/histogram.cu where 16-bit counts no longer fit one block (four
 * times the bins of 32-bit counts in the same shared memory).
 *
 * Byte i of word w is the count of slot 4 w + i. Adding c to a byte is one
 * 32-bit shared atomic whose old value is exact. Where the byte passes 0xFF
 * the add carries into the bytes above it (a ripple through the bytes that
 * were 0xFF), which are not the byte's to change. The thread that did it
 * knows exactly what its add did to every byte (the old value and the
 * addend determine the ripple), and leaves the bytes as they are: it
 * settles the difference in the slots' 64-bit counts in global memory,
 * 256 for every carry out of a byte and -1 for every carry into one. So
 * for every byte, at every moment, whatever the interleaving,
 *
 *     value + (what the threads have added to its slot's 64-bit count)
 *           = the samples added to it,
 *
 * and the kernel's final flush adds the bytes' values to the 64-bit counts.
 * A carry into a byte stays in it (one spurious count, settled), so no
 * second atomic and no waiting: the settling adds are global REDs. Bytes
 * past the block's bins (padding, the top bytes of the last word) get no
 * settling: their values are never read, and carries only run upwards.
 * Counts in global memory may pass below their final value meanwhile (a
 * -1 before the flush adds the byte); unsigned arithmetic makes the end
 * exact.
 *
 * The common case costs the returning atomic and one compare: a byte wraps
 * once per 256 adds to it (and a uniform histogram of 2^17 bins gets about
 * 16 adds per bin and block from 1 GiB).
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_PACKED8_CUH
#define GPUTILE_KERNELS_HISTOGRAM_PACKED8_CUH

#include <stdint.h>

/* The settling after an add of c (< 2^31) to byte j of a word that carried
 * out of it: old is the word before the add; slot0 the slot of the word's
 * byte 0, whose bins are slot >> copies_log2 (those >= len hold none);
 * counts their 64-bit counts. Rare, so kept out of line. */
static __device__ __noinline__ void gputile__packed8_settle(uint32_t j, uint32_t c, uint32_t old,
                                                            uint32_t slot0, int copies_log2,
                                                            uint32_t len,
                                                            unsigned long long *counts)
{
    uint32_t carry = 0; /* into byte i */
#pragma unroll
    for (uint32_t i = 0; i < 4; ++i) {
        if (i < j)
            continue;
        const uint32_t s = ((old >> (8 * i)) & 0xFFu) + (i == j ? c : 0u) + carry;
        const uint32_t out = s >> 8; /* carried out of byte i */
        const uint32_t bin = (slot0 + i) >> copies_log2;
        if ((out != 0 || carry != 0) && bin < len)
            atomicAdd(counts + bin, 256ull * out - carry);
        carry = out;
    }
}

/* Adds c (1 <= c < 2^31) to byte j of *word (slots and bins as above). */
__device__ __forceinline__ void gputile__packed8_add(uint32_t *word, uint32_t j, uint32_t c,
                                                     uint32_t slot0, int copies_log2, uint32_t len,
                                                     unsigned long long *counts)
{
    const uint32_t old = atomicAdd(word, c << (8 * j));
    if (((old >> (8 * j)) & 0xFFu) + c > 0xFFu)
        gputile__packed8_settle(j, c, old, slot0, copies_log2, len, counts);
}

#endif /* GPUTILE_KERNELS_HISTOGRAM_PACKED8_CUH */
