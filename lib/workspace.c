/* SPDX-License-Identifier: MIT */
/*
 * workspace.c: where every planned launch gets its device scratch (split-K
 * partials, tail partials, K-major pre-passes, the host GEMM's compact
 * operand copies): one place, so that a cache or a limit is one change.
 *
 * Stream-ordered allocation from the device's default memory pool: a block
 * freed in a stream's order is reused by the next request on that stream
 * without a device-wide synchronisation, so a call that needs scratch costs
 * no cudaMalloc once the pool is warm (and up to KEEP_BYTES stay warm
 * across synchronisations: below).
 */
#include "internal.h"

/* The default pool gives freed memory back to the driver at every
 * synchronisation unless told to keep some (release threshold 0): then the
 * next request maps memory anew, which measured ~100 us per call on the
 * H200 for a 128^3 product split 4 ways, called and synchronised in a
 * loop (gputile-bench gemm --latency), against 10 us queued. So the
 * threshold of the device's default pool is raised to keep up to this many
 * bytes across synchronisations (never lowered: a larger one set by the
 * application stands). It is set again on each request, cheaply, because
 * cudaDeviceReset() recreates the pool with the threshold at 0. */
#define KEEP_BYTES ((uint64_t)64 << 20)

static void keep_some(int device)
{
    cudaMemPool_t pool;
    uint64_t threshold = 0;
    if (cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) != cudaSuccess) {
        (void)cudaGetLastError(); /* no pools here: cudaMallocAsync says what is wrong */
        return;
    }
    if (threshold < KEEP_BYTES) {
        threshold = KEEP_BYTES;
        if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) !=
            cudaSuccess)
            (void)cudaGetLastError();
    }
}

cudaError_t gputile__workspace_acquire(void **p, size_t bytes, int device, cudaStream_t stream)
{
    keep_some(device);
    return cudaMallocAsync(p, bytes, stream);
}

cudaError_t gputile__workspace_release(void *p, cudaStream_t stream)
{
    return p == NULL ? cudaSuccess : cudaFreeAsync(p, stream);
}
