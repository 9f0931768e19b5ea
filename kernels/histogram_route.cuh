/* SPDX-License-Identifier: MIT */
/*
 * histogram_route.cuh: the routed tier, for more bins than a cluster holds
 * well (2^17 and up): the bins are cut into `slices` slices of S = 2^slice_log2
 * bins, block g < slices keeps slice g in shared memory for the whole
 * launch, and every sample is sent to the block that owns its bin through a
 * scratch buffer small enough to stay in the L2.
 *
 * Why: one 64-bit L2 atomic per sample (the global tier) tops out near 100
 * G atomics/s on an H200, a tenth of the read bandwidth; remote
 * distributed-shared-memory atomics near 300 GB/s (issue 18's probe);
 * replicated cluster reads fall as 1/C. Routing moves 2 bytes per sample
 * through the L2 twice (write, read back) and counts it with one local
 * shared atomic, so the input is read from DRAM once.
 *
 * The launch is persistent and cooperative (every block resident; blocks
 * wait on each other through counters), 1024 threads, one block per SM.
 * The input body is cut into chunks of H x SUB samples (H = gridDim.x,
 * SUB = GPUTILE__HIST_ROUTE_SUB); chunk c goes through buffer c % BUFS.
 * Each block, for t = 0, 1, ...:
 *  A(t), route: read its SUB samples of chunk t (16 per thread, 16-byte
 *   loads), bin them, and
 *   - count locally those whose bin owns a slot of the block's hot cache
 *     (HOT shared (key, count) slots, first key to reach a free slot keeps
 *     it; skewed inputs are counted here and never routed, so one owner
 *     block is not swamped: all-equal data routes nothing);
 *   - sort the others by owner g with a counting sort in shared memory
 *     (per-warp counts, a scan, then each sample's slot), stage them as
 *     16-bit slice offsets, and write the staged run contiguously to its
 *     region of the buffer, with the start of each owner's segment;
 *   then signal ready[buffer].
 *  B(t - 1), count: as owner g, wait until every block has routed chunk
 *   t - 1, then add the entries of segment g of every block's region to the
 *   slice's 32-bit counters with shared atomics (a run cache in registers
 *   first), and signal drained[buffer].
 * A(t) first waits until every owner has drained chunk t - BUFS from the
 * same buffer. Counters only grow within a launch (the launcher zeroes
 * them), so a wait is for a count of H x (round + 1). Scratch is read with
 * ld.global.cg: another SM wrote it, and the L1 is not coherent.
 * At the end each owner adds its slice, and each block its hot cache, to
 * the 64-bit counts (one atomic per non-zero bin); the head and tail
 * samples (fewer than 2 vectors) go straight to the counts.
 *
 * Shared memory: S counters (at most 32768: 128 KB) + per-warp counts (32
 * x slices words) + the scan (256 words) + the hot cache (2 x HOT words) +
 * the stage (SUB 16-bit entries, 32 KB). Packing a routed sample in one
 * register: bin (23 bits: slices x S < 2^23) | slot in its warp's
 * (owner) group << 23 (a warp routes at most 512 samples: 9 bits).
 *
 * 32-bit counters: a launch reads at most GPUTILE__HIST_ROUTE_MAX_SAMPLES
 * samples (< 2^32), all of which may land in one slice or one hot slot.
 * Included once, by kernels/histogram.cu (its static kernels stay in one
 * translation unit).
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH
#define GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH

#include <cuda_runtime.h>

#include "histogram.h"
#include "histogram_samples.cuh"

#define THREADS GPUTILE__HIST_ROUTE_THREADS
#define WARPS (THREADS / 32)
#define PER_THREAD 16 /* samples per thread per chunk */
#define SUB GPUTILE__HIST_ROUTE_SUB
#define BUFS GPUTILE__HIST_ROUTE_BUFS
#define HOT_LOG2 10
#define HOT (1u << HOT_LOG2)
#define SLOT_SHIFT 23
#define NONE 0xFFFFFFFFu
static_assert(SUB == PER_THREAD * THREADS, "a chunk gives each thread PER_THREAD samples");
static_assert(PER_THREAD * 32 <= 512, "a warp's slot must fit in 9 bits");

/* The scratch's parts (lib/ sizes it with gputile__hist_route_scratch). */
struct route_space {
    unsigned *ready, *drained; /* BUFS counters each */
    uint32_t *offs;            /* [BUFS][H][slices + 1]: segment starts of each block's region */
    uint16_t *region;          /* [BUFS][H][SUB]: each block's routed entries, sorted by owner */
};

__device__ __forceinline__ void route_wait(const unsigned *counter, unsigned target)
{
    if (threadIdx.x == 0) {
        while (*(volatile const unsigned *)counter < target)
            __nanosleep(64);
        __threadfence();
    }
    __syncthreads();
}

__device__ __forceinline__ void route_signal(unsigned *counter)
{
    __syncthreads(); /* every thread's writes are issued */
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(counter, 1u);
    }
}

__device__ __forceinline__ uint32_t route_hot_slot(uint32_t b)
{
    return (b * 2654435761u) >> (32 - HOT_LOG2);
}

/* Whether bin b owns its slot of the hot cache (claiming it if free). */
__device__ __forceinline__ bool route_hot_owns(uint32_t b, uint32_t *hot_key)
{
    const uint32_t s = route_hot_slot(b);
    uint32_t k = *(volatile uint32_t *)&hot_key[s];
    if (k == NO_BIN) {
        k = atomicCAS(&hot_key[s], NO_BIN, b);
        if (k == NO_BIN)
            k = b;
    }
    return k == b;
}

/* Adds a thread's run of c samples of hot bin b (NO_BIN: none). */
__device__ __forceinline__ void route_hot_add(uint32_t b, uint32_t c, uint32_t *hot_count)
{
    if (b != NO_BIN)
        atomicAdd(&hot_count[route_hot_slot(b)], c);
}

/* Thread's VPT vectors of the chunk part that starts at vector v0. */
template <typename Bin, int VPT>
__device__ __forceinline__ void load_chunk(const part<Bin> &p, uint32_t v0, typename Bin::vec *v)
{
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const uint32_t j = v0 + u * THREADS + threadIdx.x;
        if (j < p.nvec)
            v[u] = __ldcs(p.body + j); /* streamed: leave the L2 to the scratch */
    }
}

template <typename Bin>
static __global__ void __launch_bounds__(THREADS, 1)
    hist_route_kernel(part<Bin> p, Bin bin, uint32_t slice_log2, uint32_t slices, route_space sp,
                      unsigned long long *counts)
{
    typedef typename Bin::vec V;
    constexpr int VPT = PER_THREAD / Bin::per_vec; /* vectors per thread per chunk */
    constexpr uint32_t SUBV = SUB / Bin::per_vec;
    static_assert(VPT * Bin::per_vec == PER_THREAD, "16 samples are whole vectors");

    extern __shared__ uint32_t smem[];
    const uint32_t S = 1u << slice_log2;
    uint32_t *cnt = smem;                 /* S */
    const uint32_t ws = slices | 1u;      /* odd row stride: the scan reads columns */
    uint32_t *wcount = cnt + S;           /* [WARPS][ws] */
    uint32_t *scan = wcount + WARPS * ws; /* 256 */
    uint32_t *hot_key = scan + 256, *hot_count = hot_key + HOT;
    uint16_t *stage = (uint16_t *)(hot_count + HOT); /* SUB */

    const uint32_t h = blockIdx.x, H = gridDim.x;
    const uint32_t warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const bool owner = h < slices;

    if (owner)
        for (uint32_t i = threadIdx.x; i < S; i += THREADS)
            cnt[i] = 0;
    for (uint32_t i = threadIdx.x; i < HOT; i += THREADS) {
        hot_key[i] = NO_BIN;
        hot_count[i] = 0;
    }
    if (h == 0) {
        if (threadIdx.x < p.head_n) {
            const uint32_t b = bin(p.head[threadIdx.x]);
            if (b != NO_BIN)
                atomicAdd(counts + b, 1ull);
        }
        if (threadIdx.x < p.tail_n) {
            const uint32_t b = bin(p.tail[threadIdx.x]);
            if (b != NO_BIN)
                atomicAdd(counts + b, 1ull);
        }
    }
    __syncthreads();

    const uint32_t chunk_v = H * SUBV;
    const uint32_t chunks = (p.nvec + chunk_v - 1) / chunk_v;
    /* The next chunk's samples are loaded as soon as the stage is out, so
     * the DRAM reads overlap the count phase and the waits. */
    V v[VPT];
    load_chunk<Bin, VPT>(p, h * SUBV, v);
    for (uint32_t t = 0; t <= chunks; ++t) {
        if (t < chunks) { /* ---- A(t): route ---- */
            const uint32_t buf = t % BUFS, round = t / BUFS;
            if (round > 0)
                route_wait(&sp.drained[buf], slices * round);
            for (uint32_t g = lane; g < slices; g += 32)
                wcount[warp * ws + g] = 0;
            __syncwarp();

            uint32_t e[PER_THREAD];
            uint32_t hk = NO_BIN, hc = 0; /* the thread's run of one hot bin */
            const uint32_t v0 = t * chunk_v + h * SUBV;
#pragma unroll
            for (int u = 0; u < VPT; ++u) {
                const bool in = v0 + u * THREADS + threadIdx.x < p.nvec;
#pragma unroll
                for (int k = 0; k < Bin::per_vec; ++k) {
                    const uint32_t b = in ? bin(Bin::at(v[u], k)) : NO_BIN;
                    uint32_t x = NONE;
                    if (b == hk) {
                        ++hc;
                    } else if (b != NO_BIN) {
                        if (route_hot_owns(b, hot_key)) {
                            route_hot_add(hk, hc, hot_count);
                            hk = b;
                            hc = 1;
                        } else {
                            const uint32_t slot =
                                atomicAdd(&wcount[warp * ws + (b >> slice_log2)], 1u);
                            x = b | (slot << SLOT_SHIFT);
                        }
                    }
                    e[u * Bin::per_vec + k] = x;
                }
            }
            route_hot_add(hk, hc, hot_count);
            __syncthreads();

            /* Counting sort: owner g's entries start at scan[g] in the
             * stage, warp w's at scan[g] + (counts of warps before w):
             * warp w scans owners w, w + 32, ..., one warp row per lane. */
            for (uint32_t g = warp; g < slices; g += WARPS) {
                const uint32_t c = wcount[lane * ws + g];
                uint32_t incl = c;
#pragma unroll
                for (int d = 1; d < 32; d <<= 1) {
                    const uint32_t y = __shfl_up_sync(0xffffffffu, incl, d);
                    if (lane >= d)
                        incl += y;
                }
                wcount[lane * ws + g] = incl - c;
                if (lane == 31)
                    scan[g] = incl;
            }
            if (threadIdx.x >= slices && threadIdx.x < 256)
                scan[threadIdx.x] = 0;
            __syncthreads();
            if (warp == 0) { /* exclusive scan of the totals, 8 per lane (slices <= 255) */
                uint32_t mine[8], sum = 0;
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    mine[i] = scan[lane * 8 + i];
                    sum += mine[i];
                }
                uint32_t incl = sum;
#pragma unroll
                for (int d = 1; d < 32; d <<= 1) {
                    const uint32_t y = __shfl_up_sync(0xffffffffu, incl, d);
                    if (lane >= d)
                        incl += y;
                }
                uint32_t run = incl - sum;
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    scan[lane * 8 + i] = run;
                    run += mine[i];
                }
            }
            __syncthreads();
            const uint32_t routed = scan[slices]; /* slices <= 255: scan[slices] is the sum */
            uint32_t *offs = sp.offs + ((size_t)buf * H + h) * (slices + 1);
            for (uint32_t g = threadIdx.x; g <= slices; g += THREADS)
                offs[g] = scan[g];
#pragma unroll
            for (int i = 0; i < PER_THREAD; ++i) {
                const uint32_t x = e[i];
                if (x != NONE) {
                    const uint32_t b = x & ((1u << SLOT_SHIFT) - 1), g = b >> slice_log2;
                    stage[scan[g] + wcount[warp * ws + g] + (x >> SLOT_SHIFT)] =
                        (uint16_t)(b & (S - 1));
                }
            }
            __syncthreads();
            /* The stage to the block's region, 16 bytes at a time. */
            uint4 *dst = (uint4 *)(sp.region + ((size_t)buf * H + h) * SUB);
            const uint4 *src = (const uint4 *)stage;
            for (uint32_t i = threadIdx.x; i < (routed + 7) / 8; i += THREADS)
                __stcg(dst + i, src[i]);
            if (t + 1 < chunks)
                load_chunk<Bin, VPT>(p, v0 + chunk_v, v);
            route_signal(&sp.ready[buf]);
        }
        if (t > 0 && owner) { /* ---- B(t - 1): count ---- */
            const uint32_t c = t - 1, buf = c % BUFS, round = c / BUFS;
            route_wait(&sp.ready[buf], H * (round + 1));
            uint32_t rkey = NO_BIN, rcount = 0;
            /* Warp w counts segment h of sources w, w + 32, ..., four at a
             * time so that their L2 reads are in flight together. */
            for (uint32_t src0 = warp; src0 < H; src0 += 4 * WARPS) {
                uint32_t lo[4], hi[4], most = 0;
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const uint32_t src = src0 + j * WARPS;
                    lo[j] = hi[j] = 0;
                    if (src < H) {
                        const uint32_t *o = sp.offs + ((size_t)buf * H + src) * (slices + 1) + h;
                        lo[j] = __ldcg(o);
                        hi[j] = __ldcg(o + 1);
                    }
                }
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    most = max(most, hi[j] - lo[j]);
                for (uint32_t base = 0; base < most; base += 4 * 32) {
                    uint32_t k[4][4];
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        const uint16_t *r = sp.region + ((size_t)buf * H + src0 + j * WARPS) * SUB;
#pragma unroll
                        for (int u = 0; u < 4; ++u) {
                            const uint32_t i = lo[j] + base + u * 32 + lane;
                            k[j][u] = i < hi[j] ? __ldcg(r + i) : NO_BIN;
                        }
                    }
#pragma unroll
                    for (int j = 0; j < 4; ++j)
#pragma unroll
                        for (int u = 0; u < 4; ++u) {
                            const uint32_t key = k[j][u];
                            if (key == NO_BIN)
                                continue;
                            if (key != rkey) {
                                if (rkey != NO_BIN)
                                    atomicAdd(&cnt[rkey], rcount);
                                rkey = key;
                                rcount = 0;
                            }
                            rcount++;
                        }
                }
            }
            if (rkey != NO_BIN)
                atomicAdd(&cnt[rkey], rcount);
            route_signal(&sp.drained[buf]);
        }
    }
    __syncthreads();

    if (owner) {
        const uint32_t lo = h << slice_log2;
        for (uint32_t i = threadIdx.x; i < S; i += THREADS)
            if (cnt[i] != 0)
                atomicAdd(counts + lo + i, (unsigned long long)cnt[i]);
    }
    for (uint32_t s = threadIdx.x; s < HOT; s += THREADS)
        if (hot_key[s] != NO_BIN && hot_count[s] != 0)
            atomicAdd(counts + hot_key[s], (unsigned long long)hot_count[s]);
}

/* Dynamic shared memory of the routed kernel. */
static size_t route_smem(uint32_t slice_log2, uint32_t slices)
{
    return ((size_t)1 << slice_log2) * 4 + (size_t)WARPS * (slices | 1u) * 4 + 256 * 4 +
           2 * HOT * 4 + (size_t)SUB * 2;
}

extern "C" size_t gputile__hist_route_smem(int slice_log2, int slices)
{
    return route_smem((uint32_t)slice_log2, (uint32_t)slices);
}

extern "C" size_t gputile__hist_route_scratch(int blocks, int slices)
{
    const size_t flags = 256; /* ready and drained: 2 x BUFS words, padded */
    const size_t offs = (size_t)BUFS * blocks * (slices + 1) * 4;
    const size_t offs_padded = (offs + 255) / 256 * 256;
    return flags + offs_padded + (size_t)BUFS * blocks * SUB * 2;
}

template <typename Bin>
static cudaError_t hist_route_launch(const gputile__hist_launch *l, const part<Bin> &p, Bin bin,
                                     unsigned long long *counts, cudaStream_t stream)
{
    const void *k = (const void *)hist_route_kernel<Bin>;
    cudaError_t err =
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, l->smem_optin);
    if (err != cudaSuccess)
        return err;
    char *base = (char *)l->scratch;
    route_space sp;
    sp.ready = (unsigned *)base;
    sp.drained = sp.ready + BUFS;
    sp.offs = (uint32_t *)(base + 256);
    const size_t offs = (size_t)BUFS * l->blocks * (l->slices + 1) * 4;
    sp.region = (uint16_t *)(base + 256 + (offs + 255) / 256 * 256);
    if ((err = cudaMemsetAsync(base, 0, 2 * BUFS * sizeof(unsigned), stream)) != cudaSuccess)
        return err;
    uint32_t slice_log2 = (uint32_t)l->slice_log2, slices = (uint32_t)l->slices;
    void *args[] = {(void *)&p,      (void *)&bin, (void *)&slice_log2,
                    (void *)&slices, (void *)&sp,  (void *)&counts};
    return cudaLaunchCooperativeKernel(k, dim3((unsigned)l->blocks), dim3(THREADS), args, l->smem,
                                       stream);
}

extern "C" cudaError_t gputile__hist_route_blocks_per_sm(int type, size_t smem, int smem_optin,
                                                         int *blocks)
{
    const void *k = NULL;
    switch (type) {
#define ROUTE_KERNEL(id, bin, bytes, vw)          \
    case GPUTILE__HIST_SAMPLE_##id:               \
        k = (const void *)hist_route_kernel<bin>; \
        break;
        GPUTILE__HIST_SAMPLE_TYPES(ROUTE_KERNEL)
#undef ROUTE_KERNEL
    }
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaError_t err =
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_optin);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, THREADS, smem);
}

#undef THREADS
#undef WARPS
#undef PER_THREAD
#undef SUB
#undef BUFS
#undef HOT_LOG2
#undef HOT
#undef SLOT_SHIFT
#undef NONE

#endif /* GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH */
