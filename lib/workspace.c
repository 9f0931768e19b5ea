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
 * loop (gputile-bench gemm --latency), against 10 us queued, and grows
 * with the size: 3xTF32 at 8192^3, whose pre-pass splits D' into 512 MB,
 * took 8.2 ms a call queued and 9.1 ms synchronised (H200, 2026-12-01). So
 * the threshold of the device's default pool is raised to keep the
 * largest request so far, at least KEEP_BYTES and at most keep_max()
 * (never lowered: a larger one set by the application stands). It is set
 * again on each request, cheaply, because cudaDeviceReset() recreates the
 * pool with the threshold at 0. */
#define KEEP_BYTES ((uint64_t)64 << 20)

/* At most a sixteenth of the device's memory (8.8 GB on an H200), and at
 * least 1 GiB. At 1 GiB flat, 3xTF32 at 16384^3 (2 GiB of split operand)
 * mapped its workspace anew after every synchronisation: 62.0 / 62.7 ms a
 * synchronised call, 59.2 / 59.4 with this cap (H200, 2026-12-02,
 * bench/results/2026-12-02-gemm-workspace-keep-h200.txt). TF32 AUTO at
 * 16384^3 right after the 3xTF32 rows in gputile-bench (26 ms against
 * 21.6 alone) was suspected of the same and is not: it stays 26 ms with
 * the cap. */
static uint64_t keep_max(int device)
{
    const uint64_t floor = (uint64_t)1 << 30;
    const gputile__device *d;
    if (gputile__device_lookup(&d) != cudaSuccess || d->ordinal != device)
        return floor;
    return d->total_mem / 16 > floor ? d->total_mem / 16 : floor;
}

static void keep_some(int device, size_t bytes)
{
    cudaMemPool_t pool;
    uint64_t threshold = 0;
    if (cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) != cudaSuccess) {
        (void)cudaGetLastError(); /* no pools here: cudaMallocAsync says what is wrong */
        return;
    }
    const uint64_t need = bytes < KEEP_BYTES ? KEEP_BYTES : bytes;
    if (threshold >= need)
        return; /* kept already: the device's size is not asked */
    const uint64_t most = keep_max(device), want = need > most ? most : need;
    if (threshold < want) {
        threshold = want;
        if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) !=
            cudaSuccess)
            (void)cudaGetLastError();
    }
}

cudaError_t gputile__workspace_acquire(void **p, size_t bytes, int device, cudaStream_t stream)
{
    /* A pool's attributes may not be asked while a stream is being
     * captured (cudaErrorStreamCaptureUnsupported, which invalidates the
     * capture); a graph's allocations are its own anyway. */
    bool capturing = false;
    if (gputile__capturing(stream, &capturing) != GPUTILE_SUCCESS || !capturing)
        keep_some(device, bytes);
    return cudaMallocAsync(p, bytes, stream);
}

cudaError_t gputile__workspace_release(void *p, cudaStream_t stream)
{
    return p == NULL ? cudaSuccess : cudaFreeAsync(p, stream);
}
