/* SPDX-License-Identifier: MIT */
/*
 * histogram.cu: the histogram kernels (shared, DSM and global tiers), their
 * launcher and the occupancy queries the planner uses, each instantiated
 * once per sample type (GPUTILE__HIST_SAMPLE_TYPES, kernels/histogram.h).
 *
 * Common to every kernel:
 * - Input: 16-byte loads (the type's vec) over the 16-byte-aligned body of
 *   the samples, GPUTILE__HIST_UNROLL loads in flight per thread,
 *   grid-stride over a persistent grid; the samples before the first
 *   16-byte boundary (head) and after the last whole vector (tail), fewer
 *   than a vector's each, are read as scalars by the first input group.
 *   Indices are 32-bit: the launcher cuts the input into launches of at
 *   most the plan's vec_per_launch vectors.
 * - Binning: the type's functor (kernels/histogram_samples.cuh). INT32
 *   samples clamp to [0, nbins); FLOAT samples map to floor((x - lower) *
 *   scale) with explicitly rounded float operations (no contraction, so the
 *   host reference reproduces it bit for bit), samples outside [lower,
 *   upper) and NaN map to NO_BIN.
 * - Thread-level aggregation: each thread keeps its current run (bin,
 *   count) in registers and issues one atomic per run, so all-equal, sorted
 *   and run-heavy inputs issue almost no atomics at all.
 * - 32-bit counts are safe: a launch gives each input group at most
 *   GPUTILE__HIST_MAX_VEC_PER_GROUP vectors (2^30 samples) plus fewer than
 *   two vectors' worth of scalar samples, below 2^32.
 *
 * hist_smem_kernel<Bin, BITS, SWZ, MINB> (shared and DSM tiers), 1024 threads per block:
 *   Shared tier (cluster = 1): the block keeps K = 2^copies_log2 (1..32)
 *   interleaved copies of the histogram in shared memory, word
 *   bin * K + (lane % K): lanes of a warp with different lane % K never hit
 *   the same word, and (K | 32) lane group j only touches banks = j mod K,
 *   so same-address and bank conflicts within a warp are cut by up to K.
 *   Shared memory: nbins * K * 4 bytes; K is chosen by the planner so that
 *   two blocks fit per SM where possible, and those run the build for two
 *   blocks per SM (MINB 2: at most 32 registers a thread).
 *   DSM tier (cluster = C): the cluster's combined shared memory holds the
 *   histogram, block rank r holds bins [r * slice, (r + 1) * slice). Instead
 *   of sending every count to its owner (the Programming Guide's remote
 *   atomics, ~200 cycles each, 4x slower than local ones), the cluster
 *   sends the samples: all C blocks of a cluster read the cluster's share of
 *   the input (one DRAM read; the other C - 1 reads of each line hit the L2,
 *   since a cluster's blocks are co-scheduled and walk the same addresses in
 *   step) and each counts only the samples in its own slice with local
 *   shared-memory atomics. No remote traffic, no cluster barrier. The cost
 *   is C-fold L2-to-SM traffic and sample evaluation, which is why the
 *   planner takes the smallest cluster that holds the bins.
 *   Counts (BITS) are 32-bit words; or, where 32-bit ones do not fit one
 *   block (58k to 116k bins per block on an H100/H200), 16-bit halves of
 *   words kept from wrapping by a sweep of the block every 49,152 samples
 *   or so (P16_TRIPS below), each add a RED as for 32-bit words; or, where
 *   those do not fit either (116k to 232k bins per block), bytes of words,
 *   each add a returning atomic that catches the rare wrap
 *   (kernels/histogram_packed8.cuh). Each width is its own instantiation,
 *   so the 32-bit kernel keeps its loop.
 *   Each block flushes its slice (summing its K copies) with one 64-bit
 *   global atomic per non-zero bin.
 *
 * hist_global_kernel (global tier), 512 threads per block:
 *   64-bit atomics straight on the counts (L2-resident up to ~2^22 bins).
 *   On top of the run cache, flushes are aggregated across the warp: lanes
 *   whose runs end in the same bin (__match_any_sync) sum their counts
 *   through a per-thread shared word and the lowest lane adds the total.
 *   Skew: with few distinct keys (e.g. 16 values spread over 2^20 bins)
 *   every warp of the GPU would hit the same few L2 words, and same-address
 *   atomics serialise in the L2 (103 GB/s, half of CUB, measured before
 *   this cache). So the lowest lane adds to a per-block "hot" cache first:
 *   HOT_SLOTS shared-memory (key, count) slots, direct-mapped by a
 *   multiplicative hash of the key; the first key to reach a free slot
 *   claims it (atomicCAS) for the rest of the block's life, later adds of
 *   that key are shared-memory atomics, and keys whose slot is taken by
 *   another key go straight to the global counts. The block flushes its
 *   claimed slots with one 64-bit atomic each. Uniform data over many bins
 *   rarely hits the cache and pays one shared load per flush.
 *   Shared memory: 2 KiB (one word per thread) + 8 KiB (1024 slots).
 *
 * Registers: both kernels stay within 64 per thread (1024-thread launch
 * bounds), the shared/DSM kernel's MINB 2 build within 32; `make
 * ptxas-report` shows no spills. A register more than 32 halves the
 * shared tier's threads per SM: from 0.8.0 to 0.9.3 the loop's 47
 * registers cost an H200 up to 9 points of the read rate at 16 to 16,384
 * bins (an H100, with 30% less bandwidth to cover, about 1).
 */
#include <cuda_runtime.h>

#include "grid.cuh"
#include "histogram.h"
#include "histogram_packed8.cuh"
#include "histogram_samples.cuh"
#include "histogram_route.cuh"
#include "histogram_seed.cuh"
#include "gputile.h"

#define SMEM_THREADS GPUTILE__HIST_SMEM_THREADS
#define GLOBAL_THREADS GPUTILE__HIST_GLOBAL_THREADS
#define UNROLL GPUTILE__HIST_UNROLL

/* ---- the input ----------------------------------------------------------- */

/* A thread's current run of equal keys. */
struct run {
    uint32_t key, count;
};

/* ---- shared and DSM tiers --------------------------------------------- */

/* 16-bit counts (P16) without a returning atomic. A sweep of the block
 * (p16_sweep, between two barriers) leaves every half below P16_KEEP,
 * moving the rest to the 64-bit counts, and runs after every P16_TRIPS
 * trips of the loop: at most P16_TRIPS x 16 samples per thread (P16 trips
 * are 16 samples long) plus the head and tail (< 32 per block) are added
 * between two sweeps, 49,184 in all (each thread's run is flushed before
 * a sweep, so a run holds only samples read since the last), so no half
 * passes 4,095 + 49,184 < 65,536 and none carries into its neighbour.
 * Each sample's add is then a RED, as with 32-bit counts. On an H100 (1
 * GiB of int32, bench/results/2026-11-27-histogram-p16-sweep-h100.txt)
 * uniform 65,536 / 98,304 / 131,072 (DSM/2) bins went from 75 / 73 / 40%
 * of the read rate with the returning atomic and its wrap check to 83 /
 * 78 / 50%; all-equal data lost 0.6-10 points (72-94% left), 16 distinct
 * values 2.5-4. */
#define P16_KEEP 4096u
#define P16_TRIPS 3u

/* Where a block keeps its counts. Count h (bin h >> copies_log2, copy
 * h % K) is word h, or (P16) half h % 2 of word h / 2, and logical word w
 * lives at smem_place<SWZ>(w). With SWZ (K <= 4 copies: the planner's
 * choice from about 3,700 bins up, and every P16 block) the counts take whole
 * rows of 32 words (one word per bank) and within its row a word's bank
 * bits are XORed with the low 5 bits of row + (row >> 5), row = w >> 5
 * (words stay below 2^16). Without it, bins a power of two apart share a bank:
 * 16 values spread evenly over 16,384 bins (every one a multiple of 1,024)
 * put a warp's 32 adds in one bank and ran at 34% of the read rate on an
 * H100, 93% swizzled. A warp's lanes spread over the K copies' banks, not
 * enough at K = 4: on an H200 (bench/results/2026-11-28-histogram-swizzle-
 * k4-h200.txt) 16 such values over 4,096 bins ran at 79% in place, 96%
 * swizzled (uniform: 96.8 -> 96.0%). From K = 8 they ran at 97% in
 * place, and the swizzle's three instructions cost uniform data 1.4-3
 * points (2,048 and 512 bins): those blocks keep w in place. An
 * involution that keeps w in its row;
 * the lanes of one bin (all-equal data) stay on distinct banks. */
template <bool SWZ>
__device__ __forceinline__ uint32_t smem_place(uint32_t w)
{
    /* row + (row >> 5) for row = w >> 5, as one multiply-high of the row's
     * first word: an AND, an IMAD.HI and a LOP3 where the XOR of two
     * shifts (row ^ (row >> 5)) took four instructions; 16 values a
     * power of two apart still land in 16 banks. It depends on the row
     * alone, so the map is its own inverse (the P16 sweep relies on it).
     * On an H200 (bench/results/2026-11-28-histogram-swizzle3-h200.txt):
     * uniform 65,536 bins 68.5 -> 69.6% of the read rate, 8,192 / 16,384
     * +0.1-0.2 points. */
    return SWZ ? w ^ (__umulhi(w & ~31u, (1u << 27) + (1u << 22)) & 31u) : w;
}

/* Words of shared memory that hold `slots` counts of BITS bits (32, 16 or
 * 8), in whole rows of 32 (lib/histogram_plan.c sizes them the same way). */
template <int BITS>
__device__ __forceinline__ uint32_t smem_words(uint32_t slots)
{
    constexpr uint32_t per_word = 32 / BITS;
    return ((slots + per_word - 1) / per_word + 31u) & ~31u;
}

/* Where an add goes, and (P8) where its carries are credited: the block's
 * counts, its copies, its slice's length and 64-bit counts. Keys are bins
 * of the whole histogram; a key's slot in the block (bin - lo, times the
 * copies, plus the thread's copy) is one IMAD of the key, and it lies in
 * the slice exactly when it is below len * copies, since nbins * copies
 * <= 2^31 (shared memory keeps it below 2^24): a key past the slice gives
 * a slot in [len * copies, nbins * copies), one below lo or NO_BIN wraps
 * to a slot above 2^32 - nbins * copies. Runs compare bins, so no sample
 * pays a subtraction of lo. */
struct smem_counts {
    uint32_t *sh;
    uint32_t base; /* sh as a shared-window address: computed once, not at every add */
    uint32_t idle; /* base + 4 (lane): where a sample that ends no run adds 0 */
    int copies_log2;
    uint32_t copies; /* 2^copies_log2 */
    uint32_t copy;   /* this thread's copy, less lo * copies (mod 2^32) */
    uint32_t slots;  /* len * copies */
    uint32_t len;
    unsigned long long *slice_counts;
};

/* The slot of bin `key` for this thread (one IMAD): this block's when
 * below m.slots. */
__device__ __forceinline__ uint32_t smem_slot(const smem_counts &m, uint32_t key)
{
    return key * m.copies + m.copy;
}

/* Adds a run of `count` samples to slot h (< m.slots) of the block's
 * counts: a 32-bit word, (BITS 16) a 16-bit half or (BITS 8) a byte
 * (kernels/histogram_packed8.cuh). */
template <int BITS, bool SWZ>
__device__ __forceinline__ void smem_add(const smem_counts &m, uint32_t h, uint32_t count)
{
    if (BITS == 32) {
        gputile__red_shared_add(m.base + 4 * smem_place<SWZ>(h), count);
    } else if (BITS == 16) { /* a run is flushed at each sweep: count < 2^16 */
        gputile__red_shared_add(m.base + 4 * smem_place<SWZ>(h >> 1), count << (16 * (h & 1)));
    } else {
        gputile__packed8_add(m.sh + smem_place<SWZ>(h >> 2), h & 3, count, h & ~3u, m.copies_log2,
                             m.len, m.slice_counts);
    }
}

/* One half's excess over P16_KEEP - 1 to the 64-bit count of its bin
 * (half h holds bin h >> copies_log2; halves past the slice stay 0). */
__device__ __forceinline__ uint32_t p16_keep(uint32_t v, uint32_t h, int copies_log2,
                                             unsigned long long *slice_counts)
{
    if (v >= P16_KEEP)
        atomicAdd(slice_counts + (h >> copies_log2), (unsigned long long)(v & ~(P16_KEEP - 1)));
    return v & (P16_KEEP - 1);
}

/* Word w of the sweep (as placed: logical word smem_place(w)), x its value,
 * where some half reached P16_KEEP. */
template <bool SWZ>
__device__ __forceinline__ void p16_keep_word(uint32_t *sh, uint32_t w, uint32_t x, int copies_log2,
                                              unsigned long long *slice_counts)
{
    const uint32_t l = smem_place<SWZ>(w);
    sh[w] = p16_keep(x & 0xFFFFu, 2 * l, copies_log2, slice_counts) |
            p16_keep(x >> 16, 2 * l + 1, copies_log2, slice_counts) << 16;
}

/* The sweep (between barriers: no add runs meanwhile) of `words` (whole
 * rows), four at a time. */
template <bool SWZ>
__device__ __forceinline__ void p16_sweep(uint32_t *sh, uint32_t words, int copies_log2,
                                          unsigned long long *slice_counts)
{
    const uint32_t mask = ~((P16_KEEP - 1) * 0x10001u); /* bits >= KEEP, each half */
    for (uint32_t w = 4 * threadIdx.x; w < words; w += 4 * blockDim.x) {
        const uint4 q = *(const uint4 *)(sh + w);
        if (((q.x | q.y | q.z | q.w) & mask) == 0)
            continue; /* the usual case */
        const uint32_t x[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (x[k] & mask)
                p16_keep_word<SWZ>(sh, w + k, x[k], copies_log2, slice_counts);
    }
}

/* A run flushed before a sweep; where every lane of the warp holds the
 * same key (all-equal data), one add of the warp's sum instead of 32 on
 * one word. (__match_any_sync, summing lanes of equal keys in general,
 * cost uniform data 13 points of the read at 65,536 bins on the H100.)
 * The whole warp calls it. */
template <int BITS, bool SWZ>
__device__ __forceinline__ void smem_add_warp(const smem_counts &m, const run &r)
{
    const uint32_t key0 = __shfl_sync(0xFFFFFFFFu, r.key, 0);
    const uint32_t h = smem_slot(m, r.key);
    if (__all_sync(0xFFFFFFFFu, r.key == key0)) {
        const uint32_t total = __reduce_add_sync(0xFFFFFFFFu, r.count);
        if ((threadIdx.x & 31u) == 0 && h < m.slots)
            smem_add<BITS, SWZ>(m, h, total);
    } else if (h < m.slots) {
        smem_add<BITS, SWZ>(m, h, r.count);
    }
}

/* A trip's U vectors from vector i on, step apart (those past the body not
 * read). */
template <int U, typename B>
__device__ __forceinline__ void hist_load(typename B::vec (&v)[U], const part<B> &p, uint32_t i,
                                          uint32_t step)
{
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (i + u * step < p.nvec)
            v[u] = __ldg(p.body + i + u * step);
}

/* Adds one sample of bin `key` (a slot at or past m.slots: not this
 * block's) to the thread's run, and the run that it ends to the counts.
 * 32-bit counts: no branch, since ptxas puts one around any shared atomic
 * that a predicate guards. Every sample adds: the run's count where the
 * run ends, else 0 to the lane's own word of row 0 (32 lanes, 32 banks);
 * the run's count is a select. On an H200 (1 GiB of int32,
 * bench/results/2026-11-28-histogram-adds-h200.txt) uniform 16,384 /
 * 32,768 bins went from 92.9 / 87.9% of the read rate to 93.5 / 93.2%,
 * 16 distinct values over 32,768 bins from 85 to 94%, float samples at
 * 16,384 bins from 0.87 to 0.92 of int32; all-equal data lost 0.5-1 point
 * (98.7 -> 98.0% at 16 bins). 16- and 8-bit counts keep the branch: at
 * 65,536 bins every sample's add took all-equal data from 92 to 77%
 * (uniform: 69 -> 72%), and 8-bit adds return a carry to settle. */
template <int BITS, bool SWZ>
__device__ __forceinline__ void smem_push(run &r, uint32_t key, const smem_counts &m)
{
    const bool ends = key != r.key;
    const uint32_t h = smem_slot(m, r.key);
    if (BITS == 32) {
        const bool add = ends && h < m.slots;
        gputile__red_shared_add(add ? m.base + 4 * smem_place<SWZ>(h) : m.idle, add ? r.count : 0u);
        r.count = ends ? 1u : r.count + 1u;
    } else {
        if (ends) {
            if (h < m.slots)
                smem_add<BITS, SWZ>(m, h, r.count);
            r.count = 0;
        }
        r.count++;
    }
    r.key = key;
}

/* Count of slot h: a word, a half or a byte. */
template <int BITS, bool SWZ>
__device__ __forceinline__ uint32_t smem_count(const uint32_t *sh, uint32_t h)
{
    constexpr uint32_t per_word = 32 / BITS, mask = BITS == 32 ? ~0u : (1u << (BITS % 32)) - 1;
    return (sh[smem_place<SWZ>(h / per_word)] >> (BITS * (h % per_word))) & mask;
}

/* MINB: blocks per SM the kernel is built for. Two 1024-thread blocks
 * need at most 32 registers a thread; the planner runs that build where
 * two blocks' counts fit an SM (32-bit counts up to 16,384 bins on an
 * H100/H200), the other where one block has the SM to itself. */
template <typename Bin, int BITS, bool SWZ, int MINB>
static __global__ void __launch_bounds__(SMEM_THREADS, MINB)
    hist_smem_kernel(part<Bin> p, Bin bin, uint32_t nbins, uint32_t slice, int copies_log2,
                     uint32_t cluster, unsigned long long *counts)
{
    typedef typename Bin::vec V;
    extern __shared__ uint32_t sh[];
    /* A 1-D cluster is cluster consecutive blocks: rank = blockIdx.x % cluster. */
    const uint32_t rank = blockIdx.x % cluster;
    const uint32_t group = blockIdx.x / cluster; /* the input share this block reads */
    const uint32_t groups = gridDim.x / cluster;
    const uint32_t lo = rank * slice;
    const uint32_t len = lo < nbins ? min(slice, nbins - lo) : 0;
    constexpr bool P16 = BITS == 16;
    unsigned long long *const slice_counts = counts + lo;
    smem_counts m;
    m.sh = sh;
    m.base = gputile__opaque((uint32_t)__cvta_generic_to_shared(sh));
    m.idle = gputile__opaque(m.base + 4 * (threadIdx.x & 31u));
    m.copies_log2 = copies_log2;
    m.copies = gputile__opaque(1u << copies_log2); /* h: one IMAD, not a shift and an add */
    m.copy = gputile__opaque((threadIdx.x & ((1u << copies_log2) - 1)) - (lo << copies_log2));
    m.slots = gputile__opaque(len << copies_log2);
    m.len = len;
    m.slice_counts = slice_counts;
    const uint32_t words = smem_words<BITS>(slice << copies_log2);

    for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
        sh[i] = 0;
    __syncthreads();

    run r = {NO_BIN, 0};
    if (group == 0) {
        if (threadIdx.x < p.head_n)
            smem_push<BITS, SWZ>(r, bin(p.head[threadIdx.x]), m);
        if (threadIdx.x < p.tail_n)
            smem_push<BITS, SWZ>(r, bin(p.tail[threadIdx.x]), m);
    }
    const uint32_t step = groups * blockDim.x;
    /* P16: 16 samples per thread and trip; trips counted per block
     * (the loop runs on b0, the same in every thread: the sweeps' barriers).
     * Two blocks per SM (MINB 2): 3 vectors a trip (2 of 8 or 16 samples),
     * the most that fit 32 registers without spilling. On an H200 (1 GiB
     * of int32, bench/results/2026-11-28-histogram-two-per-sm-h200.txt)
     * 16 / 1,024 / 16,384 uniform bins ran at 87.5 / 90.9 / 85.0% of the
     * read rate in one block of 47 registers, 96.7 / 96.2 / 87.4% in two
     * of 32; 4 vectors in 32 registers spilled (82.5% at 16,384), 2
     * (77.5%) left too little in flight. */
    constexpr int U = P16 && UNROLL * Bin::per_vec > 16 ? 16 / Bin::per_vec
                      : MINB == 2                       ? (Bin::per_vec >= 8 ? 2 : 3)
                                                        : UNROLL;
    uint32_t trips = 0;
    uint32_t b0 = group * blockDim.x;
    V v[U];
    hist_load<U>(v, p, b0 + threadIdx.x, step);
    while (b0 < p.nvec) {
        const uint32_t i = b0 + threadIdx.x;
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i + u * step < p.nvec) {
#pragma unroll
                for (int k = 0; k < Bin::per_vec; ++k)
                    smem_push<BITS, SWZ>(r, bin(Bin::at(v[u], k)), m);
            }
        b0 += U * step;
        /* The next trip's loads go out before the sweep: they stay in flight
         * through its barriers, which otherwise drained every warp's loads
         * and left the memory idle until all were issued again. On an H100
         * (1 GiB of int32, bench/results/2026-11-28-histogram-p16-prefetch-
         * h100.txt) uniform 65,536 / 98,304 bins went from 79.7 / 75.4% of
         * the read rate to 83.9 / 79.7%; the 32- and 8-bit kernels, which
         * have no sweep, are unchanged. */
        hist_load<U>(v, p, b0 + threadIdx.x, step);
        if (P16 && ++trips == P16_TRIPS) {
            trips = 0;
            smem_add_warp<BITS, SWZ>(m, r);
            r = run{NO_BIN, 0};
            __syncthreads();
            p16_sweep<SWZ>(sh, words, copies_log2, slice_counts);
            __syncthreads();
        }
    }
    if (BITS == 8) /* all-equal data: one add per warp, not 32 adds that each carry */
        smem_add_warp<BITS, SWZ>(m, r);
    else if (const uint32_t h = smem_slot(m, r.key); h < m.slots)
        smem_add<BITS, SWZ>(m, h, r.count);
    __syncthreads();

    for (uint32_t b = threadIdx.x; b < len; b += blockDim.x) {
        uint32_t s = 0; /* a block counts fewer than 2^32 samples per launch */
        for (uint32_t c = 0; c < (1u << copies_log2); ++c)
            s += smem_count<BITS, SWZ>(sh,
                                       (b << copies_log2) + gputile__flush_copy(b, c, copies_log2));
        if (s != 0)
            atomicAdd(slice_counts + b, (unsigned long long)s);
    }
}

/* ---- global tier ---------------------------------------------------------- */

#define HOT_LOG2 10
#define HOT_SLOTS (1u << HOT_LOG2)

/* A block's cache of hot bins: slot s holds key[s] (NO_BIN: free) and its
 * count so far. A claimed slot never changes key before the final flush. */
struct hot_cache {
    uint32_t *key, *count;
};

/* Adds `total` (< 2^32: a block counts fewer samples per launch) to bin
 * `key`, through the block's hot cache where the key owns its slot. */
__device__ __forceinline__ void hot_add(hot_cache h, uint32_t key, uint32_t total,
                                        unsigned long long *counts)
{
    const uint32_t s = (key * 2654435761u) >> (32 - HOT_LOG2);
    uint32_t owner = *(volatile uint32_t *)&h.key[s];
    if (owner == NO_BIN) {
        owner = atomicCAS(&h.key[s], NO_BIN, key);
        if (owner == NO_BIN)
            owner = key; /* claimed it */
    }
    if (owner == key)
        atomicAdd(&h.count[s], total);
    else
        atomicAdd(counts + key, (unsigned long long)total);
}

/* Called by all 32 lanes of a warp together. Lanes with `valid` add `count`
 * to bin `key`; lanes with equal keys combine into one add. */
__device__ __forceinline__ void warp_flush(bool valid, uint32_t key, uint32_t count,
                                           uint32_t *scratch, hot_cache hot,
                                           unsigned long long *counts)
{
    const unsigned m = __ballot_sync(0xffffffffu, valid);
    if (!valid)
        return;
    const unsigned peers = __match_any_sync(m, key);
    const int leader = __ffs(peers) - 1;
    const int lane = threadIdx.x & 31;
    unsigned long long total = count;
    if (peers != (1u << lane)) {
        uint32_t *w = scratch + (threadIdx.x & ~31u);
        w[lane] = count;
        __syncwarp(peers);
        if (lane == leader) {
            total = 0;
            for (unsigned q = peers; q != 0; q &= q - 1)
                total += w[__ffs(q) - 1];
        }
        __syncwarp(peers); /* the leader has read before anyone writes again */
    }
    if (lane == leader)
        hot_add(hot, key, (uint32_t)total, counts);
}

/* One sample (or NO_BIN) per lane, all lanes together. */
__device__ __forceinline__ void global_push(run &r, uint32_t key, uint32_t nbins, uint32_t *scratch,
                                            hot_cache hot, unsigned long long *counts)
{
    const uint32_t fkey = r.key, fcount = r.count;
    const bool ends = key != r.key;
    if (ends) {
        r.key = key;
        r.count = 0;
    }
    r.count++;
    warp_flush(ends && fkey < nbins, fkey, fcount, scratch, hot, counts);
}

template <typename Bin>
static __global__ void __launch_bounds__(GLOBAL_THREADS)
    hist_global_kernel(part<Bin> p, Bin bin, uint32_t nbins, unsigned long long *counts)
{
    typedef typename Bin::vec V;
    __shared__ uint32_t scratch[GLOBAL_THREADS];
    __shared__ uint32_t hot_key[HOT_SLOTS], hot_count[HOT_SLOTS];
    const hot_cache hot = {hot_key, hot_count};
    const uint32_t lane = threadIdx.x & 31;
    run r = {NO_BIN, 0};

    for (uint32_t s = threadIdx.x; s < HOT_SLOTS; s += blockDim.x) {
        hot_key[s] = NO_BIN;
        hot_count[s] = 0;
    }
    __syncthreads();

    if (blockIdx.x == 0 && threadIdx.x < 32) { /* one whole warp: convergent */
        global_push(r, lane < p.head_n ? bin(p.head[lane]) : NO_BIN, nbins, scratch, hot, counts);
        global_push(r, lane < p.tail_n ? bin(p.tail[lane]) : NO_BIN, nbins, scratch, hot, counts);
    }
    const uint32_t step = gridDim.x * blockDim.x;
    /* w is the warp's first index, so the loop condition is warp-uniform and
     * every lane reaches the warp-wide votes; lanes past the end push NO_BIN. */
    for (uint32_t w = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); w < p.nvec;
         w += UNROLL * step) {
        V v[UNROLL];
        hist_load<UNROLL>(v, p, w + lane, step);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const bool ok = w + lane + u * step < p.nvec;
#pragma unroll
            for (int k = 0; k < Bin::per_vec; ++k)
                global_push(r, ok ? bin(Bin::at(v[u], k)) : NO_BIN, nbins, scratch, hot, counts);
        }
    }
    warp_flush(r.key < nbins, r.key, r.count, scratch, hot, counts);
    __syncthreads();

    for (uint32_t s = threadIdx.x; s < HOT_SLOTS; s += blockDim.x)
        if (hot_key[s] != NO_BIN && hot_count[s] != 0)
            atomicAdd(counts + hot_key[s], (unsigned long long)hot_count[s]);
}

/* ---- launcher ------------------------------------------------------------- */

/* The shared/DSM kernel with 32-, 16- or 8-bit counts (BITS); a cluster
 * launch where the plan has clusters. */
template <typename Bin, int BITS, bool SWZ, int MINB = 1>
static cudaError_t launch_smem(const gputile__hist_launch *l, const part<Bin> &p, Bin bin,
                               uint32_t nbins, unsigned long long *counts, cudaStream_t stream)
{
    auto k = hist_smem_kernel<Bin, BITS, SWZ, MINB>;
    cudaError_t err = gputile__hist_allow_smem((const void *)k, l->smem_optin);
    if (err == cudaSuccess && l->cluster > 1)
        err = cudaFuncSetAttribute((const void *)k, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                   1);
    if (err != cudaSuccess)
        return err;
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attr[1];
    config.gridDim = dim3((unsigned)l->blocks);
    config.blockDim = dim3((unsigned)l->threads);
    config.dynamicSmemBytes = l->smem;
    config.stream = stream;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)l->cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = l->cluster > 1 ? 1 : 0;
    return cudaLaunchKernelEx(&config, k, p, bin, nbins, (uint32_t)l->slice, l->copies_log2,
                              (uint32_t)l->cluster, counts);
}

template <typename Bin>
static cudaError_t launch_one(const gputile__hist_launch *l, const part<Bin> &p, Bin bin,
                              uint32_t nbins, unsigned long long *counts, cudaStream_t stream)
{
    if (l->tier == GPUTILE_HIST_TIER_GLOBAL) {
        return gputile__launch(hist_global_kernel<Bin>, l->blocks, l->threads, 0, stream, p, bin,
                               nbins, counts);
    }
    if (l->tier == GPUTILE_HIST_TIER_ROUTE)
        return hist_route_launch<Bin>(l, p, bin, counts, stream);
    if (l->tier == GPUTILE_HIST_TIER_SEED)
        return hist_seed_launch<Bin>(l, p, bin, nbins, counts, stream);
    if (l->count_bits == 16) /* packed counts: one copy */
        return launch_smem<Bin, 16, true>(l, p, bin, nbins, counts, stream);
    if (l->count_bits == 8)
        return launch_smem<Bin, 8, true>(l, p, bin, nbins, counts, stream);
    const bool swz = l->copies_log2 <= GPUTILE__HIST_SWIZZLE_COPIES_LOG2;
    if (l->two_per_sm)
        return swz ? launch_smem<Bin, 32, true, 2>(l, p, bin, nbins, counts, stream)
                   : launch_smem<Bin, 32, false, 2>(l, p, bin, nbins, counts, stream);
    return swz ? launch_smem<Bin, 32, true>(l, p, bin, nbins, counts, stream)
               : launch_smem<Bin, 32, false>(l, p, bin, nbins, counts, stream);
}

/* Cuts the input into head, body and tail, and the body into launches of
 * at most l->vec_per_launch vectors. */
template <typename Bin>
static cudaError_t run_all(const gputile__hist_args *a, const gputile__hist_launch *l,
                           cudaStream_t stream)
{
    typedef typename Bin::sample T;
    typedef typename Bin::vec V;
    const Bin bin = Bin::make(a);
    const T *s = (const T *)a->samples;
    uint64_t head = ((16u - ((uintptr_t)s & 15u)) & 15u) / sizeof(T);
    if (head > a->n)
        head = a->n;
    const uint64_t nvec = (a->n - head) / Bin::per_vec;
    const uint32_t tail = (uint32_t)((a->n - head) % Bin::per_vec);
    const uint64_t per_launch = l->vec_per_launch;

    uint64_t done = 0;
    do {
        part<Bin> p;
        uint64_t count = nvec - done < per_launch ? nvec - done : per_launch;
        p.head = s;
        p.head_n = done == 0 ? (uint32_t)head : 0;
        p.body = (const V *)(s + head) + done;
        p.nvec = (uint32_t)count;
        p.tail = s + head + Bin::per_vec * nvec;
        p.tail_n = done + count == nvec ? tail : 0;
        cudaError_t err =
            launch_one<Bin>(l, p, bin, (uint32_t)a->nbins, (unsigned long long *)a->counts, stream);
        if (err != cudaSuccess)
            return err;
        done += count;
    } while (done < nvec);
    return cudaSuccess;
}

/* Every row's functor describes the type the row says. */
#define CHECK_ROW(id, bin, bytes, vw)                                       \
    static_assert(sizeof(bin::sample) == (bytes) && bin::per_vec == (vw) && \
                      sizeof(bin::vec) == 16 && (vw) * (bytes) == 16,       \
                  #id ": the row of GPUTILE__HIST_SAMPLE_TYPES and its functor disagree");
GPUTILE__HIST_SAMPLE_TYPES(CHECK_ROW)
#undef CHECK_ROW

extern "C" cudaError_t gputile__histogram(const gputile__hist_args *a,
                                          const gputile__hist_launch *l, cudaStream_t stream)
{
    switch (a->type) {
#define RUN(id, bin, bytes, vw)     \
    case GPUTILE__HIST_SAMPLE_##id: \
        return run_all<bin>(a, l, stream);
        GPUTILE__HIST_SAMPLE_TYPES(RUN)
#undef RUN
    }
    return cudaErrorInvalidValue; /* lib/ passes only the table's ids */
}

/* ---- occupancy queries -------------------------------------------------------- */

/* The kernels of sample type `type`; NULL for an id the table lacks. The
 * 32-bit kernel asked about is the swizzled one (the DSM tier's, and the
 * shared tier's from about 3,700 bins up); the unswizzled one fits as many
 * blocks (each build's launch bounds set its registers: one block of
 * 1,024 threads per SM, or two with two_per_sm). */
static const void *smem_kernel(int type, int count_bits, int two_per_sm)
{
    switch (type) {
#define SMEM_KERNEL(id, bin, bytes, vw)                                             \
    case GPUTILE__HIST_SAMPLE_##id:                                                 \
        return count_bits == 16  ? (const void *)hist_smem_kernel<bin, 16, true, 1> \
               : count_bits == 8 ? (const void *)hist_smem_kernel<bin, 8, true, 1>  \
               : two_per_sm      ? (const void *)hist_smem_kernel<bin, 32, true, 2> \
                                 : (const void *)hist_smem_kernel<bin, 32, true, 1>;
        GPUTILE__HIST_SAMPLE_TYPES(SMEM_KERNEL)
#undef SMEM_KERNEL
    }
    return NULL;
}

static const void *global_kernel(int type)
{
    switch (type) {
#define GLOBAL_KERNEL(id, bin, bytes, vw) \
    case GPUTILE__HIST_SAMPLE_##id:       \
        return (const void *)hist_global_kernel<bin>;
        GPUTILE__HIST_SAMPLE_TYPES(GLOBAL_KERNEL)
#undef GLOBAL_KERNEL
    }
    return NULL;
}

extern "C" cudaError_t gputile__hist_smem_blocks_per_sm(int type, int count_bits, int two_per_sm,
                                                        size_t smem, int smem_optin, int *blocks)
{
    const void *k = smem_kernel(type, count_bits, two_per_sm);
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaError_t err = gputile__hist_allow_smem(k, smem_optin);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, SMEM_THREADS, smem);
}

static cudaError_t cluster_config(const void *k, size_t smem, int smem_optin,
                                  cudaLaunchConfig_t *config)
{
    cudaError_t err = gputile__hist_allow_smem(k, smem_optin);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    *config = cudaLaunchConfig_t{};
    config->gridDim = dim3(720720); /* lcm(1..16): a multiple of every cluster size */
    config->blockDim = dim3(SMEM_THREADS);
    config->dynamicSmemBytes = smem;
    return err;
}

/* The cluster kernel of a tier: DSM (replicated reads) or SEED (remote atomics). */
static const void *cluster_kernel(int tier, int type, int count_bits)
{
    return tier == GPUTILE_HIST_TIER_SEED ? seed_kernel(type) : smem_kernel(type, count_bits, 0);
}

extern "C" cudaError_t gputile__hist_cluster_max(int tier, int type, int count_bits, size_t smem,
                                                 int smem_optin, int *max_cluster)
{
    const void *k = cluster_kernel(tier, type, count_bits);
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaLaunchConfig_t config;
    cudaError_t err = cluster_config(k, smem, smem_optin, &config);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxPotentialClusterSize(max_cluster, k, &config);
}

extern "C" cudaError_t gputile__hist_cluster_active(int tier, int type, int count_bits, size_t smem,
                                                    int smem_optin, int cluster, int *clusters)
{
    const void *k = cluster_kernel(tier, type, count_bits);
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaLaunchConfig_t config;
    cudaLaunchAttribute attr[1];
    cudaError_t err = cluster_config(k, smem, smem_optin, &config);
    if (err != cudaSuccess)
        return err;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    return cudaOccupancyMaxActiveClusters(clusters, k, &config);
}

extern "C" cudaError_t gputile__hist_global_blocks_per_sm(int type, int *blocks)
{
    const void *k = global_kernel(type);
    if (k == NULL)
        return cudaErrorInvalidValue;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, k, GLOBAL_THREADS, 0);
}
