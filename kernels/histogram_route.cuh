/* SPDX-License-Identifier: MIT */
/*
 * histogram_route.cuh: the routed tier, for more bins than a cluster holds
 * well (2^17 and up): the bins are cut into `slices` slices of S =
 * 2^slice_log2 bins, and every sample is sent to a block that owns its
 * slice, in two kernels per piece of the input:
 *
 *  1. partition (hist_part_kernel, a persistent grid): the piece is cut
 *     into tiles of SUB samples; for each of its tiles a block reads the
 *     samples (16 per thread, 16-byte loads), bins them, counts locally
 *     those whose bin owns a slot of the block's hot cache (HOT shared
 *     (key, count) slots, the first key to reach a free slot keeps it:
 *     skewed inputs are counted here, never routed, so one owner is not
 *     swamped; all-equal data routes nothing), sorts the others by slice
 *     with a counting sort in shared memory (one counter per slice gives
 *     each sample its slot, one warp scans the counters), and writes them
 *     as 16-bit slice offsets, slice by
 *     slice, to the tile's region of the scratch, with the start of each
 *     slice's segment (offs). The next tile's loads are in flight while a
 *     tile is sorted.
 *  2. count (hist_count_kernel): block b owns slice b % slices (R =
 *     gridDim.x / slices blocks per slice share the tiles) and keeps its S
 *     counters in shared memory; each warp takes 32 tiles at a time (a
 *     lane reads each tile's segment bounds, one warp scan sums them),
 *     deals the 16-byte vectors of the slice's segments of them to its
 *     lanes and adds each entry to its counter with a shared-memory atomic
 *     (no result: a RED). (Eight tiles a trip, before: 0.3-3 points of the
 *     read rate slower, most on skewed data, where segments are short.)
 *     Then the block adds its counters to the 64-bit counts.
 *
 * Why: one 64-bit L2 atomic per sample (the global tier) tops out near 100
 * G atomics/s on an H200, a tenth of the read bandwidth; remote
 * distributed-shared-memory atomics near 300 GB/s (issue 18's probe);
 * replicated cluster reads fall as 1/C. Routing writes 2 bytes per sample
 * and reads them back, and counts each sample with one local shared
 * atomic. The two passes need no grid-wide synchronisation: the first
 * version of this tier interleaved them in one cooperative kernel with a
 * grid barrier per chunk and ran at 13% of the read rate, a third of its
 * time waiting (ncu).
 *
 * Scratch, per piece of at most PIECE_TILES tiles: SUB 16-bit entries and
 * slices + 1 offsets per tile (gputile__hist_route_scratch).
 *
 * Shared memory of the partition: the per-slice counters and the scan (256
 * words each) + the hot cache (2 x HOT words) + the stage (SUB 16-bit
 * entries, 16 KB). Of the count: S 32-bit counters (at most 32768: 128 KB)
 * and 32 spare words. A routed sample is one register, slot | slice <<
 * SLOT_BITS (slices <= 255), and its offset in the slice half of another.
 *
 * 32-bit counters: each kernel pair reads one piece, at most PIECE_TILES
 * tiles of SUB samples (2^26 < 2^32), all of which may land in one slice
 * or one hot slot.
 * Included once, by kernels/histogram.cu (its static kernels stay in one
 * translation unit).
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH
#define GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH

#include <cuda_runtime.h>

#include "grid.cuh"
#include "histogram.h"
#include "histogram_samples.cuh"

#define THREADS GPUTILE__HIST_ROUTE_THREADS /* partition */
#define CTHREADS GPUTILE__HIST_ROUTE_COUNT_THREADS
#define CWARPS (CTHREADS / 32)
#define PER_THREAD 16 /* samples per thread per tile */
#define SUB GPUTILE__HIST_ROUTE_SUB
#define HOT_LOG2 10
#define HOT (1u << HOT_LOG2)
#define SLOT_BITS 14 /* a slot in a tile: < SUB */
#define NONE 0xFFFFFFFFu
/* 16-byte loads in flight per lane of the count kernel, and its blocks per
 * SM the registers allow (32 registers). Two loads need 40 registers, one
 * block per SM: on an H100 +1.5 points at 2^22 bins (one block anyway:
 * 128 KB of counters), -0.5 to -0.8 at 2^18. */
#define COUNT_VPL 1
#define COUNT_MINB 2
static_assert(SUB == PER_THREAD * THREADS, "a tile gives each thread PER_THREAD samples");
static_assert(SUB <= (1u << SLOT_BITS), "a slot must fit in SLOT_BITS bits");
static_assert((uint64_t)GPUTILE__HIST_ROUTE_PIECE_TILES * SUB < ((uint64_t)1 << 32),
              "a piece's samples must fit the 32-bit counters");

/* The scratch of one piece (lib/ sizes it with gputile__hist_route_scratch). */
struct route_space {
    uint32_t *offs;   /* [tiles][slices + 1]: segment starts in each tile's region */
    uint16_t *region; /* [tiles][SUB]: each tile's routed entries, by slice */
};

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

/* Thread's VPT vectors of the tile that starts at vector v0. */
template <typename Bin, int VPT>
__device__ __forceinline__ void load_tile(const part<Bin> &p, uint32_t v0, typename Bin::vec *v)
{
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const uint32_t j = v0 + u * THREADS + threadIdx.x;
        if (j < p.nvec)
            v[u] = __ldcs(p.body + j); /* streamed: leave the L2 to the scratch */
    }
}

/* Bins a thread's samples of one tile. Each routed sample takes the next
 * slot of its slice (a shared atomic): e = slot | slice << SLOT_BITS, its
 * offset in the slice goes to ent, two 16-bit offsets per word. With PROBE,
 * a sample whose bin owns its slot of the hot cache (claiming it if free)
 * is counted there instead (runs of one hot bin in a register). */
template <typename Bin, int VPT, bool PROBE>
__device__ __forceinline__ void
route_bin_tile(const part<Bin> &p, Bin bin, uint32_t v0, const typename Bin::vec *v,
               uint32_t slice_log2, uint32_t *bcount, uint32_t *hot_key, uint32_t *hot_count,
               uint32_t (&e)[PER_THREAD], uint32_t (&ent)[PER_THREAD / 2])
{
    const uint32_t smask = (1u << slice_log2) - 1;
    uint32_t hk = NO_BIN, hc = 0; /* the thread's run of one hot bin */
#pragma unroll
    for (int u = 0; u < VPT; ++u) {
        const bool in = v0 + u * THREADS + threadIdx.x < p.nvec;
#pragma unroll
        for (int k = 0; k < Bin::per_vec; ++k) {
            const int i = u * Bin::per_vec + k;
            const uint32_t b = in ? bin(Bin::at(v[u], k)) : NO_BIN;
            uint32_t x = NONE;
            if (PROBE) {
                if (b != hk && b != NO_BIN) {
                    if (route_hot_owns(b, hot_key)) { /* a new run of a hot bin */
                        route_hot_add(hk, hc, hot_count);
                        hk = b;
                        hc = 0;
                    } else {
                        const uint32_t g = b >> slice_log2;
                        x = atomicAdd(&bcount[g], 1u) | (g << SLOT_BITS);
                    }
                }
                hc += b == hk; /* (NO_BIN samples count in a run of NO_BIN, never added) */
            } else if (b != NO_BIN) {
                const uint32_t g = b >> slice_log2;
                x = atomicAdd(&bcount[g], 1u) | (g << SLOT_BITS);
            }
            e[i] = x;
            if (i % 2 == 0)
                ent[i / 2] = b & smask;
            else
                ent[i / 2] |= (b & smask) << 16;
        }
    }
    if (PROBE)
        route_hot_add(hk, hc, hot_count);
}

/* Whether a block's next tile probes the hot cache: where at least an
 * eighth of this tile's samples were not routed, and at least every
 * PROBE_EVERY tiles (skew that starts late is caught within PROBE_EVERY
 * tiles; meanwhile its samples are routed: slower, as exact). Samples not
 * routed are those counted in the hot cache and those outside the bins
 * (NO_BIN): a tile mostly outside the bins keeps probing, which costs those
 * samples nothing (the probe skips NO_BIN) and the rest what it costs
 * anyway. Data without hot bins then skips the probe (a hash, a shared
 * load, a compare and a branch per sample). */
#define PROBE_EVERY 8u

template <typename Bin>
static __global__ void __launch_bounds__(THREADS, 2)
    hist_part_kernel(part<Bin> p, Bin bin, uint32_t slice_log2, uint32_t slices, route_space sp,
                     unsigned long long *counts)
{
    typedef typename Bin::vec V;
    constexpr int VPT = PER_THREAD / Bin::per_vec; /* vectors per thread per tile */
    constexpr uint32_t SUBV = SUB / Bin::per_vec;
    static_assert(VPT * Bin::per_vec == PER_THREAD, "16 samples are whole vectors");

    extern __shared__ uint32_t smem[];
    uint32_t *bcount = smem;       /* 256: samples of the tile per slice so far */
    uint32_t *scan = bcount + 256; /* 256: where each slice's segment starts */
    uint32_t *hot_key = scan + 256, *hot_count = hot_key + HOT;
    uint16_t *stage = (uint16_t *)(hot_count + HOT); /* SUB */
    const uint32_t warp = threadIdx.x >> 5, lane = threadIdx.x & 31;

    for (uint32_t i = threadIdx.x; i < HOT; i += THREADS) {
        hot_key[i] = NO_BIN;
        hot_count[i] = 0;
    }
    if (blockIdx.x == 0) {
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
    if (threadIdx.x < 256)
        bcount[threadIdx.x] = 0;
    __syncthreads();

    const uint32_t tiles = (p.nvec + SUBV - 1) / SUBV;
    V v[VPT];
    bool probe = true;     /* the first tile probes */
    uint32_t unprobed = 0; /* tiles since the last probe */
    if (blockIdx.x < tiles)
        load_tile<Bin, VPT>(p, blockIdx.x * SUBV, v);
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        uint32_t e[PER_THREAD], ent[PER_THREAD / 2];
        const uint32_t v0 = t * SUBV;
        if (probe)
            route_bin_tile<Bin, VPT, true>(p, bin, v0, v, slice_log2, bcount, hot_key, hot_count, e,
                                           ent);
        else
            route_bin_tile<Bin, VPT, false>(p, bin, v0, v, slice_log2, bcount, hot_key, hot_count,
                                            e, ent);
        if (t + gridDim.x < tiles) /* the next tile's loads fly while this one is sorted */
            load_tile<Bin, VPT>(p, (t + gridDim.x) * SUBV, v);
        __syncthreads();

        if (warp == 0) { /* exclusive scan of the slices' counts, 8 per lane (slices <= 255) */
            uint32_t mine[8], sum = 0;
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                mine[i] = bcount[lane * 8 + i];
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
                bcount[lane * 8 + i] = 0; /* for the next tile */
                run += mine[i];
            }
        }
        __syncthreads();
        const uint32_t routed = scan[slices]; /* slices <= 255: scan[slices] is the sum */
        /* whether the next tile probes (the same in every thread) */
        const uint32_t in_tile = min(SUBV, p.nvec - v0) * Bin::per_vec;
        probe = (in_tile - routed) * 8 >= in_tile || ++unprobed == PROBE_EVERY;
        unprobed = probe ? 0 : unprobed;
        uint32_t *offs = sp.offs + (size_t)t * (slices + 1);
        for (uint32_t g = threadIdx.x; g <= slices; g += THREADS)
            offs[g] = scan[g];
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            const uint32_t x = e[i];
            if (x != NONE)
                stage[scan[x >> SLOT_BITS] + (x & ((1u << SLOT_BITS) - 1))] =
                    (uint16_t)(ent[i / 2] >> (16 * (i % 2)));
        }
        __syncthreads();
        /* The stage to the tile's region, 16 bytes at a time. */
        uint4 *dst = (uint4 *)(sp.region + (size_t)t * SUB);
        const uint4 *src = (const uint4 *)stage;
        for (uint32_t i = threadIdx.x; i < (routed + 7) / 8; i += THREADS)
            __stcg(dst + i, src[i]);
        __syncthreads(); /* the stage is free for the next tile */
    }

    for (uint32_t s = threadIdx.x; s < HOT; s += THREADS)
        if (hot_key[s] != NO_BIN && hot_count[s] != 0)
            atomicAdd(counts + hot_key[s], (unsigned long long)hot_count[s]);
}

/* Adds the entries [lo, hi) of 16-byte vector q (entries 8 j .. 8 j + 7).
 * Entries outside go to `spare` (a word past the counters, one per lane):
 * no branch, so lanes at a segment's ends do not split the warp. */
__device__ __forceinline__ void route_count_vec(uint4 q, uint32_t j, uint32_t lo, uint32_t hi,
                                                uint32_t cnt_addr, uint32_t spare)
{
    const uint32_t w[4] = {q.x, q.y, q.z, q.w};
    const uint32_t d = 8 * j - lo, len = hi - lo;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        const uint32_t a = cnt_addr + 4 * ((w[k >> 1] >> (16 * (k & 1))) & 0xFFFFu);
        gputile__red_shared_inc(d + k < len ? a : spare);
    }
}

static __global__ void __launch_bounds__(CTHREADS, COUNT_MINB)
    hist_count_kernel(route_space sp, uint32_t tiles, uint32_t slice_log2, uint32_t slices,
                      unsigned long long *counts)
{
    extern __shared__ uint32_t cnt[]; /* S counters, then 32 spare words */
    const uint32_t S = 1u << slice_log2;
    const uint32_t g = blockIdx.x % slices, r = blockIdx.x / slices, R = gridDim.x / slices;
    const uint32_t warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (uint32_t i = threadIdx.x; i < S + 32; i += CTHREADS)
        cnt[i] = 0;
    __syncthreads();
    const uint32_t cnt_addr = (uint32_t)__cvta_generic_to_shared(cnt);
    const uint32_t spare = cnt_addr + 4 * (S + lane);

    /* Warp w of replica r takes 32 tiles at a time, r + R (w + CWARPS i),
     * a lane each, and deals the 16-byte vectors of their segments of slice
     * g to its lanes in turn (a segment is about SUB / slices entries: 8
     * vectors at 8192 / 128), COUNT_VPL vectors a lane in flight. */
    const uint32_t stride = R * CWARPS;
    for (uint32_t t0 = r + R * warp; t0 < tiles; t0 += 32 * stride) {
        uint32_t lo = 0, hi = 0;
        const uint32_t tj = t0 + lane * stride;
        if (tj < tiles) {
            const uint32_t *o = sp.offs + (size_t)tj * (slices + 1) + g;
            lo = __ldcg(o);
            hi = __ldcg(o + 1);
        }
        const uint32_t first = lo / 8, nv = hi > lo ? (hi + 7) / 8 - first : 0;
        uint32_t incl = nv; /* the warp's tiles' vectors, summed */
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const uint32_t y = __shfl_up_sync(0xffffffffu, incl, d);
            if (lane >= d)
                incl += y;
        }
        const uint32_t excl = incl - nv, total = __shfl_sync(0xffffffffu, incl, 31);
        /* Vector i of the warp's total is vector i - excl_j of lane j's tile,
         * the last lane j with excl_j <= i (a binary search over the lanes). */
        for (uint32_t base = 0; base < total; base += COUNT_VPL * 32) {
            uint4 q[COUNT_VPL];
            uint32_t vec[COUNT_VPL], lj[COUNT_VPL], hj[COUNT_VPL];
#pragma unroll
            for (int u = 0; u < COUNT_VPL; ++u) {
                const uint32_t i = base + 32 * u + lane;
                uint32_t j = 0;
#pragma unroll
                for (int step = 16; step >= 1; step >>= 1)
                    if (__shfl_sync(0xffffffffu, excl, j + step) <= i)
                        j += step;
                const uint32_t sj = __shfl_sync(0xffffffffu, excl, j);
                const uint32_t fj = __shfl_sync(0xffffffffu, first, j);
                lj[u] = __shfl_sync(0xffffffffu, lo, j);
                hj[u] = __shfl_sync(0xffffffffu, hi, j);
                vec[u] = fj + (i - sj);
                if (i < total) {
                    const uint4 *reg = (const uint4 *)(sp.region + (size_t)(t0 + j * stride) * SUB);
                    q[u] = __ldcg(reg + vec[u]);
                } else {
                    lj[u] = hj[u] = 0; /* nothing to add */
                }
            }
#pragma unroll
            for (int u = 0; u < COUNT_VPL; ++u)
                if (hj[u] > lj[u])
                    route_count_vec(q[u], vec[u], lj[u], hj[u], cnt_addr, spare);
        }
    }
    __syncthreads();

    unsigned long long *c = counts + ((size_t)g << slice_log2);
    for (uint32_t i = threadIdx.x; i < S; i += CTHREADS)
        if (cnt[i] != 0)
            atomicAdd(c + i, (unsigned long long)cnt[i]);
}

/* Dynamic shared memory of the partition and count kernels. */
extern "C" size_t gputile__hist_route_smem(void)
{
    return 2 * 256 * 4 + 2 * HOT * 4 + (size_t)SUB * 2;
}

extern "C" size_t gputile__hist_route_count_smem(int slice_log2)
{
    return (((size_t)1 << slice_log2) + 32) * 4;
}

/* The scratch of a piece of `tiles` tiles: the offsets, padded to 256
 * bytes, then the regions. */
static size_t route_offs_bytes(uint64_t tiles, uint32_t slices)
{
    return ((size_t)tiles * (slices + 1) * 4 + 255) / 256 * 256;
}

extern "C" size_t gputile__hist_route_scratch(uint64_t tiles, int slices)
{
    return route_offs_bytes(tiles, (uint32_t)slices) + (size_t)tiles * SUB * 2;
}

/* Both passes over each piece of at most l->route_tiles tiles. */
template <typename Bin>
static cudaError_t hist_route_launch(const gputile__hist_launch *l, const part<Bin> &p, Bin bin,
                                     unsigned long long *counts, cudaStream_t stream)
{
    cudaError_t err = gputile__hist_allow_smem((const void *)hist_part_kernel<Bin>, l->smem_optin);
    if (err == cudaSuccess)
        err = gputile__hist_allow_smem((const void *)hist_count_kernel, l->smem_optin);
    if (err != cudaSuccess)
        return err;
    const uint32_t subv = SUB / Bin::per_vec, slices = (uint32_t)l->slices;
    const uint32_t slice_log2 = (uint32_t)l->slice_log2;
    const uint64_t piece_v = (uint64_t)l->route_tiles * subv;
    route_space sp;
    sp.offs = (uint32_t *)l->scratch;
    sp.region = (uint16_t *)((char *)l->scratch + route_offs_bytes(l->route_tiles, slices));
    uint64_t done = 0;
    do {
        part<Bin> q = p;
        q.body = p.body + done;
        q.nvec = (uint32_t)(p.nvec - done < piece_v ? p.nvec - done : piece_v);
        q.head_n = done == 0 ? p.head_n : 0;
        q.tail_n = done + q.nvec == p.nvec ? p.tail_n : 0;
        const uint32_t tiles = (q.nvec + subv - 1) / subv;
        const unsigned blocks = tiles < (uint32_t)l->blocks ? (tiles > 0 ? tiles : 1) : l->blocks;
        if ((err = gputile__launch(hist_part_kernel<Bin>, blocks, THREADS, l->smem, stream, q, bin,
                                   slice_log2, slices, sp, counts)) != cudaSuccess)
            return err;
        if (tiles > 0) {
            if ((err = gputile__launch(hist_count_kernel, l->count_blocks, CTHREADS, l->count_smem,
                                       stream, sp, tiles, slice_log2, slices, counts)) !=
                cudaSuccess)
                return err;
        }
        done += q.nvec;
    } while (done < p.nvec);
    return cudaSuccess;
}

extern "C" cudaError_t gputile__hist_route_blocks_per_sm(int type, size_t smem, int smem_optin,
                                                         int *blocks)
{
    const void *k = NULL;
    switch (type) {
#define ROUTE_KERNEL(id, bin, bytes, vw)         \
    case GPUTILE__HIST_SAMPLE_##id:              \
        k = (const void *)hist_part_kernel<bin>; \
        break;
        GPUTILE__HIST_SAMPLE_TYPES(ROUTE_KERNEL)
#undef ROUTE_KERNEL
    }
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaError_t err = gputile__hist_allow_smem(k, smem_optin);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, THREADS, smem);
}

extern "C" cudaError_t gputile__hist_route_count_blocks_per_sm(size_t smem, int smem_optin,
                                                               int *blocks)
{
    const void *k = (const void *)hist_count_kernel;
    cudaError_t err = gputile__hist_allow_smem(k, smem_optin);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, CTHREADS, smem);
}

#undef THREADS
#undef CTHREADS
#undef CWARPS
#undef PER_THREAD
#undef SUB
#undef HOT_LOG2
#undef HOT
#undef SLOT_BITS
#undef NONE
#undef COUNT_VPL
#undef COUNT_MINB

#endif /* GPUTILE_KERNELS_HISTOGRAM_ROUTE_CUH */
