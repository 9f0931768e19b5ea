/* SPDX-License-Identifier: MIT */
/*
 * counts_add.cu: dst += src over 64-bit counts (the distributed
 * histogram's ACCUMULATE mode). One element per thread per trip of a
 * grid-stride loop, 256 threads, at most 8 blocks per SM's worth of
 * blocks (1,024): a million bins is 8 MiB each way, a few microseconds
 * at the device's bandwidth.
 */
#include "counts_add.h"
#include "grid.cuh"

static __global__ void counts_add_kernel(uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] += src[i];
}

extern "C" cudaError_t gputile__counts_add(uint64_t *dst, const uint64_t *src, size_t n,
                                           cudaStream_t stream)
{
    return gputile__launch(counts_add_kernel, gputile__stride_blocks((int64_t)n, 256, 1024), 256, 0,
                           stream, dst, src, n);
}
