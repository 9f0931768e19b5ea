/* SPDX-License-Identifier: MIT */
/*
 * workspace.c: where every planned launch gets its device scratch (split-K
 * partials, tail partials, K-major pre-passes, the host GEMM's compact
 * operand copies): one place, so that a cache or a limit is one change.
 *
 * Stream-ordered allocation from the device's default memory pool: a block
 * freed in a stream's order is reused by the next request on that stream
 * without a device-wide synchronisation, so a call that needs scratch costs
 * no cudaMalloc once the pool is warm.
 */
#include "internal.h"

cudaError_t gputile__workspace_acquire(void **p, size_t bytes, cudaStream_t stream)
{
    return cudaMallocAsync(p, bytes, stream);
}

cudaError_t gputile__workspace_release(void *p, cudaStream_t stream)
{
    return p == NULL ? cudaSuccess : cudaFreeAsync(p, stream);
}
