/* SPDX-License-Identifier: MIT */
/*
 * histogram_image.cu: histograms of the channels of a 2-D image with a row
 * stride (kernels/histogram_image.h), one kernel per sample type, channel
 * count (1..4) and bin mode (even, range), shared or global counts chosen
 * per launch.
 *
 * himg_kernel, 1024 threads per block, a persistent grid:
 * - Input: each row is a scalar head (the samples before its first 16-byte
 *   boundary), nvec 16-byte vectors, and a scalar tail. nvec is the same
 *   for every row of a launch (the launcher takes the row with the longest
 *   head), so vector i of the launch is row i / nvec (a multiply-high by a
 *   precomputed reciprocal, exact for 32-bit i), vector i % nvec; a row's
 *   head and tail together are `scalars` < 48 bytes of samples, read in a
 *   second grid-stride pass. Any pitch works: only the head changes from
 *   row to row. UNROLL vectors in flight per thread.
 * - Channels: the channel of a sample is its index in the row modulo CH.
 *   The vector's first channel (its phase) is computed once per vector and
 *   switches to a copy of the per-sample code in which every sample's
 *   channel is a constant: the channel's bins come straight from the
 *   kernel parameters and its run sits in registers. With 1, 2 or 4
 *   channels and pixel-aligned rows the phase is the same for every
 *   vector (no divergence); with 3 channels or odd pixel alignment lanes
 *   may take different cases.
 * - Binning: UINT8 samples look up a table of 256 entries per channel in
 *   shared memory (built by each block with the channel's own binning, so
 *   even and range bins cost the same); other types evaluate the exact
 *   even-bin formula (even_int_bins, histogram_samples.cuh), the double
 *   formula of FLOAT even bins, or a search of the channel's keys: in
 *   shared memory, one compare with the key of the sample's cell where
 *   it holds one (a search from its first key where it holds more;
 *   shared tier: each block builds the cells, gputile__himg_channel says
 *   how), or where the
 *   counts do not fit there (global tier) a branch-free binary search of
 *   all keys in device memory through the caches, so that any number of
 *   edges works.
 * - Counting: one run (key, count) per channel per thread in registers
 *   (one atomic per run, as in histogram.cu); shared tier: K = 2^copies_log2
 *   interleaved copies of each channel's counts (word base[c] + bin * K +
 *   lane % K) flushed with one 64-bit atomic per non-zero bin; global
 *   tier: 64-bit atomics straight on the counts.
 * Shared memory: table (UINT8, CH KiB) + counts, keys and cells (shared
 * tier; keys and cells for range bins of other types), sizes from
 * gputile__himg_smem_words().
 */
#include <type_traits>

#include <cuda_runtime.h>

#include "gputile.h"
#include "grid.cuh"
#include "histogram.h"
#include "histogram_image.h"
#include "histogram_packed16.cuh"
#include "histogram_samples.cuh"

#define THREADS GPUTILE__HIMG_THREADS
#define UNROLL 4
#define LUT GPUTILE__HIMG_LUT

/* One launch's rectangle: rows x row_samples samples from base. */
struct piece {
    const char *base; /* row 0's first sample (channel 0) */
    uint64_t stride;  /* bytes */
    uint32_t rows;    /* >= 1 */
    uint32_t nvec;    /* 16-byte vectors per row */
    uint32_t scalars; /* samples per row outside the vectors */
    uint64_t magic;   /* floor((2^64 - 1) / nvec) + 1 for nvec >= 2 */
    /* One row (a contiguous input), or rows back to back with no head and
     * no tail: vector w is at vbase + 16 w and its first sample of channel
     * (phase0 + w V) % CH, with no row arithmetic; a row's head and tail
     * still go through the scalar pass. */
    uint32_t flat, phase0;
    const char *vbase;
};

/* What every block needs besides the piece. */
struct params {
    gputile__himg_channel ch[GPUTILE__HIMG_MAX_CHANNELS];
    /* channel c's counts in shared memory: word base[c] (RUNS, TABLE),
     * 16-bit half base[c] (PACKED16, even) */
    uint32_t base[GPUTILE__HIMG_MAX_CHANNELS];
    uint32_t koff[GPUTILE__HIMG_MAX_CHANNELS]; /* keys, words */
    uint32_t toff[GPUTILE__HIMG_MAX_CHANNELS]; /* RANGE cells (uint2), words, even */
    uint32_t words;                            /* the whole layout */
    /* UINT8: the table, words [0, CH * 256); then the counts, words
     * [cbase, cbase + counts_words); then the keys and cells (koff, toff) */
    uint32_t cbase, counts_words;
    uint32_t spare; /* TABLE: the first of the K words that take uncounted samples */
    /* SHIFT8: channel c counts values v with v - s8_first[c] < s8_count[c]
     * (unsigned) in bin (v - s8_first[c] + s8_off[c]) >> ch[c].ishift */
    uint32_t s8_first[GPUTILE__HIMG_MAX_CHANNELS], s8_count[GPUTILE__HIMG_MAX_CHANNELS],
        s8_off[GPUTILE__HIMG_MAX_CHANNELS];
    int copies_log2;
    int global; /* RUNS: counts straight to global memory */
};

struct run {
    uint32_t key, count;
};

/* f(std::integral_constant<int, K>()) for K = I .. N - 1: a loop whose
 * index is a constant expression (template arguments). */
template <int I, int N>
struct static_for {
    template <typename F>
    __device__ __forceinline__ static void run(F &&f)
    {
        f(std::integral_constant<int, I>());
        static_for<I + 1, N>::run(f);
    }
};
template <int N>
struct static_for<N, N> {
    template <typename F>
    __device__ __forceinline__ static void run(F &&)
    {
    }
};

/* ---- binning ---------------------------------------------------------------- */

/* Search key k <= sample x (keys: float bits for FLOAT, int32 else). */
template <typename T>
__device__ __forceinline__ bool key_le(uint32_t k, T x)
{
    return std::is_floating_point<T>::value ? __uint_as_float(k) <= (float)x
                                            : (int32_t)k <= (int32_t)x;
}

/* The number of keys <= x, branch-free (keys sorted ascending). */
template <typename T>
__device__ __forceinline__ uint32_t keys_at_most(const uint32_t *keys, uint32_t n, T x)
{
    uint32_t pos = 0;
    for (uint32_t step = n == 0 ? 0 : 1u << (31 - __clz(n)); step != 0; step >>= 1) {
        const uint32_t j = pos + step;
        if (j <= n)
            pos = key_le<T>(keys[j - 1], x) ? j : pos;
    }
    return pos;
}

/* The first index i in [pos, pos + len) where before(i) is false (len if
 * none), for a before() that is true on a prefix of the range. */
template <typename F>
__device__ __forceinline__ uint32_t first_not(uint32_t pos, uint32_t len, F before)
{
    while (len != 0) {
        const uint32_t half = len >> 1;
        const bool b = before(pos + half);
        pos = b ? pos + half + 1 : pos;
        len = b ? len - half - 1 : half;
    }
    return pos;
}

/* x's cell among the channel's 2^cells_log2 (gputile__himg_channel): a
 * map that never decreases as x grows. NaN goes to cell 0, whose keys
 * start at 0, so it finds none <= it. Floats are added to +0 first, so
 * that -0 and +0 (equal keys) share a cell; __f*_rn keeps the compiler
 * from contracting the linear map into an FMA that the build and the
 * lookup might round apart. */
template <typename T>
__device__ __forceinline__ uint32_t cell_of(const gputile__himg_channel &c, T x)
{
    const uint32_t last = (1u << c.cells_log2) - 1;
    uint32_t u;
    if (std::is_floating_point<T>::value) {
        const float f = __fadd_rn((float)x, 0.0f);
        if (!c.cell_bits) { /* NaN: t is NaN, both tests fail, cell 0 */
            const float t = __fmul_rn(__fsub_rn(f, c.cell_lo), c.cell_scale);
            return t >= (float)last ? last : t > 0.0f ? (uint32_t)t : 0u;
        }
        if (f != f)
            return 0;
        u = __float_as_uint(f);
        u ^= (int32_t)u < 0 ? 0xFFFFFFFFu : 0x80000000u;
    } else {
        u = (uint32_t)(int32_t)x ^ 0x80000000u;
    }
    if (u < c.cell_u0)
        return 0;
    const uint32_t k = (u - c.cell_u0) >> c.cell_shift;
    return k < last ? k : last;
}

/* A search key as the sample type's value (integer keys are int32 within
 * the type's range: exact). */
template <typename T>
__device__ __forceinline__ T key_value(uint32_t k)
{
    if (std::is_floating_point<T>::value)
        return (T)__uint_as_float(k);
    return (T)(int32_t)k;
}

/* A cell: x = lt(j), the keys whose cell is below j, with CELL_ONE where
 * the cell holds exactly one key (y: that key) or CELL_MANY where it holds
 * more; y = 0 otherwise. (The search loop over a cell's keys, run for
 * every sample, took 81 instructions a sample with lanes diverging on its
 * trip count: float samples over 63 range bins read at 32% of the read
 * rate, issue-bound (ncu, H200). lib/ makes cells fine enough that each
 * holds at most one key wherever it can.) */
#define CELL_ONE 0x40000000u
#define CELL_MANY 0x80000000u

/* The number of keys <= x: a compare in x's cell, a search from the
 * cell's first key where it holds more than one. */
template <typename T>
__device__ __forceinline__ uint32_t keys_at_most_in_cell(const gputile__himg_channel &c,
                                                         const uint32_t *keys, const uint2 *cells,
                                                         T x)
{
    const uint2 r = cells[cell_of<T>(c, x)];
    const uint32_t lo = r.x & ~(CELL_ONE | CELL_MANY);
    if (r.x & CELL_MANY) /* keys past x's cell are all > x */
        return first_not(lo, c.nkeys - lo, [&](uint32_t i) { return key_le<T>(keys[i], x); });
    return lo + ((r.x & CELL_ONE) != 0 && key_le<T>(r.y, x));
}

/* Cell j's keys are [lt(j), lt(j + 1)), lt(j) = the keys whose cell is
 * below j (< 2^30: they fit shared memory). One entry per thread at a
 * time, from the keys in shared memory. */
template <typename T>
__device__ __forceinline__ void build_cells(const gputile__himg_channel &c, const uint32_t *keys,
                                            uint2 *cells)
{
    const uint32_t n = 1u << c.cells_log2;
    /* the first key whose cell is >= j */
    const auto lt = [&](uint32_t j) {
        return first_not(0, c.nkeys,
                         [&](uint32_t i) { return cell_of<T>(c, key_value<T>(keys[i])) < j; });
    };
    for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) {
        const uint32_t lo = lt(j), len = lt(j + 1) - lo;
        cells[j] = make_uint2(lo | (len == 1  ? CELL_ONE
                                    : len > 1 ? CELL_MANY
                                              : 0u),
                              len == 1 ? keys[lo] : 0u);
    }
}

template <typename T, int MODE>
__device__ __forceinline__ uint32_t bin_of(const gputile__himg_channel &c, const uint32_t *keys,
                                           T x, const uint2 *cells = nullptr)
{
    if (MODE == GPUTILE__HIMG_RANGE) {
        const uint32_t pos = cells != nullptr ? keys_at_most_in_cell<T>(c, keys, cells, x)
                                              : keys_at_most<T>(keys, c.nkeys, x);
        return pos - 1 < c.top ? pos - 1 : NO_BIN; /* pos = 0 wraps */
    }
    if (std::is_floating_point<T>::value) { /* FLOAT: the documented double formula */
        const double d = (double)x;
        if (!(d >= c.flower && d < c.fupper))
            return NO_BIN;
        const double t = __dmul_rn(__dsub_rn(d, c.flower), c.fscale);
        return t < (double)c.nbins ? (uint32_t)t : c.nbins - 1;
    }
    const even_int_bins e = {c.ilower, c.ispan, c.iinv, c.nbins, c.ishift};
    return e((int64_t)x);
}

/* ---- counting --------------------------------------------------------------- */

__device__ __forceinline__ void flush(const run &r, uint32_t *sh, uint32_t base, int klog,
                                      uint32_t copy, bool global, unsigned long long *counts)
{
    if (r.key == NO_BIN)
        return;
    if (global)
        atomicAdd(counts + r.key, (unsigned long long)r.count);
    else
        atomicAdd(&sh[base + (r.key << klog) + copy], r.count);
}

/* PACKED16: one more sample in bin `bin` of a channel, at half h = the
 * channel's first half (even) + bin (kernels/histogram_packed16.cuh); the
 * half after the channel's last bin is padding. */
__device__ __forceinline__ void add16(uint32_t *sh, uint32_t h, uint32_t bin, uint32_t nbins,
                                      unsigned long long *counts)
{
    uint32_t old;
    if (gputile__packed16_add(sh, h, 1u, &old))
        gputile__packed16_wrapped(sh, h, old, counts + bin,
                                  bin + 1 < nbins ? counts + bin + 1 : NULL);
}

template <typename T, int CH, int MODE, int COUNTING>
struct block {
    const params &q;
    uint32_t *sh;
    uint32_t copy, copy4; /* this thread's copy of each bin; 4 * copy */
    run r[CH];
    /* SHIFT8: this thread's copy of channel c's bin 0 and of the spare
     * word, as shared-space addresses */
    uint32_t at0[CH], at_spare;
    uint32_t bin_bytes; /* 4 << copies_log2: a bin's copies */

    /* The bin of sample x of channel C (RUNS: the table's entry for UINT8). */
    template <int C>
    __device__ __forceinline__ uint32_t key(T x) const
    {
        if (sizeof(T) == 1)
            return sh[C * LUT + (uint32_t)(uint8_t)x];
        if (MODE == GPUTILE__HIMG_RANGE && !q.global)
            return bin_of<T, MODE>(q.ch[C], sh + q.koff[C], x, (const uint2 *)(sh + q.toff[C]));
        return bin_of<T, MODE>(q.ch[C], q.ch[C].keys, x);
    }
    template <int C>
    __device__ __forceinline__ void push(T x)
    {
        if (COUNTING == GPUTILE__HIMG_IDENT8) {
            gputile__red_shared_inc(at0[C] + (uint32_t)(uint8_t)x * bin_bytes);
            return;
        }
        if (COUNTING == GPUTILE__HIMG_SHIFT8_ALL) {
            gputile__red_shared_inc(
                at0[C] + (((uint32_t)(uint8_t)x + q.s8_off[C]) >> q.ch[C].ishift) * bin_bytes);
            return;
        }
        if (COUNTING == GPUTILE__HIMG_SHIFT8) {
            const uint32_t d = (uint32_t)(uint8_t)x - q.s8_first[C];
            const uint32_t at =
                at0[C] + (((d + q.s8_off[C]) >> q.ch[C].ishift) << (q.copies_log2 + 2));
            gputile__red_shared_inc(d < q.s8_count[C] ? at : at_spare);
            return;
        }
        if (COUNTING == GPUTILE__HIMG_TABLE) { /* the entry is the bin's word */
            /* the entry is the bin's word as a shared-space address; copy4
             * = 4 * copy: a byte extract, the table load, an add and the
             * atomic per sample */
            gputile__red_shared_inc(sh[C * LUT + (uint32_t)(uint8_t)x] + copy4);
            return;
        }
        if (COUNTING == GPUTILE__HIMG_SHIFT16_ALL || COUNTING == GPUTILE__HIMG_PACKED16_ALL) {
            /* even bins of 2^ishift values covering the type; lower >= -2^24,
             * so the difference fits 32 bits */
            const uint32_t bin = (uint32_t)((int32_t)x - (int32_t)q.ch[C].ilower) >> q.ch[C].ishift;
            if (COUNTING == GPUTILE__HIMG_SHIFT16_ALL)
                gputile__red_shared_inc(at0[C] + bin * bin_bytes);
            else
                add16(sh, q.base[C] + bin, bin, q.ch[C].nbins, q.ch[C].counts);
            return;
        }
        const uint32_t k = key<C>(x);
        if (COUNTING == GPUTILE__HIMG_PACKED16) {
            if (k != NO_BIN)
                add16(sh, q.base[C] + k, k, q.ch[C].nbins, q.ch[C].counts);
            return;
        }
        if (k != r[C].key) {
            flush(r[C], sh, q.base[C], q.copies_log2, copy, q.global, q.ch[C].counts);
            r[C].key = k;
            r[C].count = 0;
        }
        r[C].count++;
    }
    /* The samples of one vector whose first sample is of channel C0. */
    template <int C0>
    __device__ __forceinline__ void vec(const uint4 &v)
    {
        static_for<0, (int)(16 / sizeof(T))>::run([&](auto k) {
            push<(C0 + decltype(k)::value) % CH>(sample_of<T>(v, decltype(k)::value));
        });
    }
    __device__ __forceinline__ void vec_at(const uint4 &v, uint32_t phase)
    {
        if (CH == 1)
            return vec<0>(v);
        switch (phase) {
        case 0:
            return vec<0>(v);
        case 1:
            return vec<1 % CH>(v);
        case 2:
            return vec<2 % CH>(v);
        default:
            return vec<3 % CH>(v);
        }
    }
    __device__ __forceinline__ void scalar_at(T x, uint32_t c)
    {
        switch (c) {
        case 0:
            return push<0>(x);
        case 1:
            return push<1 % CH>(x);
        case 2:
            return push<2 % CH>(x);
        default:
            return push<3 % CH>(x);
        }
    }

    /* Vector w of the piece, when w < nv, and its phase (the channel of
     * its first sample); FLAT: at base + 16 w. */
    template <bool FLAT>
    __device__ __forceinline__ void load(const piece &p, uint32_t w, uint32_t nv, uint4 &v,
                                         uint32_t &phase) const
    {
        const uint32_t V = 16 / sizeof(T);
        if (w < nv && FLAT) {
            v = __ldg((const uint4 *)p.vbase + w);
            phase = CH == 1 ? 0 : (p.phase0 + j_phase(w) * (V % CH)) % CH;
        } else if (w < nv) {
            const uint32_t row = p.nvec == 1 ? w : (uint32_t)__umul64hi(w, p.magic);
            const uint32_t j = w - row * p.nvec;
            const char *rowp = p.base + (uint64_t)row * p.stride;
            const uint32_t head = (uint32_t)(-(uintptr_t)rowp) & 15u;
            v = __ldg((const uint4 *)(rowp + head) + j);
            phase = (head / (uint32_t)sizeof(T) + (j % CH) * (V % CH)) % CH;
        }
    }
    template <bool FLAT>
    __device__ __forceinline__ void vectors(const piece &p)
    {
        const uint32_t nv = p.rows * p.nvec; /* <= 2^28: the launcher's cut */
        const uint32_t step = gridDim.x * blockDim.x;
        /* Vectors per trip. Range bins of wider types: one (each sample's
         * search is a loop). One channel, or 16-bit counts: two (the
         * compiler hoists every sample's lookup of a trip ahead of its
         * atomics; two vectors keep that in the registers). Else four. */
        constexpr int U = MODE == GPUTILE__HIMG_RANGE && sizeof(T) > 1 ? 1
                          : CH == 1 || GPUTILE__HIMG_PACKED(COUNTING)  ? 2
                                                                       : UNROLL;
        for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += U * step) {
            uint4 v[UNROLL];
            uint32_t phase[UNROLL];
#pragma unroll
            for (int u = 0; u < U; ++u)
                load<FLAT>(p, i + u * step, nv, v[u], phase[u]);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (i + u * step < nv)
                    vec_at(v[u], phase[u]);
        }
    }
    /* w % CH: a row holds a whole number of pixels, so a vector's phase
     * counts from the piece's start as well as from its row's */
    static __device__ __forceinline__ uint32_t j_phase(uint32_t w)
    {
        return w % CH;
    }
    /* Every vector and scalar of the piece, then the runs' last adds. */
    __device__ __forceinline__ void count(const piece &p)
    {
        const uint32_t V = 16 / sizeof(T), tid = threadIdx.x;
#pragma unroll
        for (int c = 0; c < CH; ++c)
            r[c] = run{NO_BIN, 0};
        /* The vectors: vector i is vector i % nvec of row i / nvec (FLAT:
         * at vbase + 16 i); two loops, so that neither carries the other's
         * index arithmetic. */
        if (p.flat)
            vectors<true>(p);
        else
            vectors<false>(p);
        const uint32_t step = gridDim.x * blockDim.x;
        /* The heads and tails: `scalars` samples of each row. */
        const uint32_t ns = p.rows * p.scalars; /* <= 2^30 */
        for (uint32_t i = blockIdx.x * blockDim.x + tid; i < ns; i += step) {
            const uint32_t row = i / p.scalars, k = i - row * p.scalars;
            const char *rowp = p.base + (uint64_t)row * p.stride;
            const uint32_t head = ((uint32_t)(-(uintptr_t)rowp) & 15u) / (uint32_t)sizeof(T);
            /* 64-bit: a row of up to 2^28 vectors ends past 2^32 samples */
            const uint64_t s = k < head || p.nvec == 0 ? k : k + (uint64_t)p.nvec * V;
            scalar_at(((const T *)rowp)[s], (uint32_t)(s % CH));
        }
        if (COUNTING == GPUTILE__HIMG_RUNS) {
#pragma unroll
            for (int c = 0; c < CH; ++c)
                flush(r[c], sh, q.base[c], q.copies_log2, copy, q.global, q.ch[c].counts);
        }
    }
};

template <typename T, int CH, int MODE, int COUNTING>
__device__ __forceinline__ void count_with(const piece &p, const params &q, uint32_t *sh)
{
    const uint32_t copy = threadIdx.x & ((1u << q.copies_log2) - 1);
    block<T, CH, MODE, COUNTING> b = {q, sh, copy, 4 * copy};
    if (GPUTILE__HIMG_ADDRESSED(COUNTING)) {
        const uint32_t at = (uint32_t)__cvta_generic_to_shared(sh) + 4 * copy;
        b.bin_bytes = 4u << q.copies_log2;
#pragma unroll
        for (int c = 0; c < CH; ++c)
            b.at0[c] = at + 4 * q.base[c];
        b.at_spare = at + 4 * q.spare;
    }
    b.count(p);
}

/* Registers: one block per SM where the counts take most of shared
 * memory anyway (16-bit counts) or several channels keep a run each (up
 * to 64 registers, said outright, or ptxas may squeeze some to 32 and
 * spill); one channel fits 32: two blocks per SM. */
#define MIN_BLOCKS(CH, COUNTING) ((CH) == 1 && !GPUTILE__HIMG_PACKED(COUNTING) ? 2 : 1)

/* One kernel per sample type, channel count, bin mode and counting mode
 * (a counting mode that does not apply to the type and bin mode is never
 * planned, and not instantiated: kernel_of()). */
template <typename T, int CH, int MODE, int COUNTING>
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS(CH, COUNTING))
    himg_kernel(const __grid_constant__ piece p, const __grid_constant__ params q)
{
    extern __shared__ uint32_t sh[];
    const uint32_t tid = threadIdx.x;

    for (uint32_t i = tid; i < q.counts_words; i += blockDim.x)
        sh[q.cbase + i] = 0;
    /* the table (UINT8 but SHIFT8): every (channel, value)'s bin, or its word */
    if (sizeof(T) == 1 && !GPUTILE__HIMG_COMPUTED(COUNTING)) {
        for (uint32_t e = tid; e < CH * LUT; e += blockDim.x) {
            const uint32_t c = e / LUT;
            const uint32_t bin = bin_of<T, MODE>(q.ch[c], q.ch[c].keys, (T)(e % LUT));
            const uint32_t word = bin == NO_BIN ? q.spare : q.base[c] + (bin << q.copies_log2);
            sh[e] = COUNTING != GPUTILE__HIMG_TABLE ? bin
                                                    : (uint32_t)__cvta_generic_to_shared(sh + word);
        }
    } else if (MODE == GPUTILE__HIMG_RANGE && !q.global) {
#pragma unroll
        for (int c = 0; c < CH; ++c)
            for (uint32_t i = tid; i < q.ch[c].nkeys; i += blockDim.x)
                sh[q.koff[c] + i] = q.ch[c].keys[i];
        __syncthreads();
#pragma unroll
        for (int c = 0; c < CH; ++c)
            build_cells<T>(q.ch[c], sh + q.koff[c], (uint2 *)(sh + q.toff[c]));
    }
    __syncthreads();

    count_with<T, CH, MODE, COUNTING>(p, q, sh);
    if (q.global)
        return;
    __syncthreads();

    /* Each bin's copies (or half) into its 64-bit count. */
    const uint32_t K = 1u << q.copies_log2;
#pragma unroll
    for (int c = 0; c < CH; ++c)
        for (uint32_t bin = tid; bin < q.ch[c].nbins; bin += blockDim.x) {
            uint32_t s = 0; /* a block counts fewer than 2^32 samples per launch */
            if (GPUTILE__HIMG_PACKED(COUNTING)) {
                const uint32_t h = q.base[c] + bin;
                s = (sh[h >> 1] >> (16 * (h & 1))) & 0xFFFFu;
            } else {
                for (uint32_t k = 0; k < K; ++k)
                    s += sh[q.base[c] + bin * K + gputile__flush_copy(bin, k, q.copies_log2)];
            }
            if (s != 0)
                atomicAdd(q.ch[c].counts + bin, (unsigned long long)s);
        }
}

/* ---- instances ----------------------------------------------------------------- */

typedef void (*kernel_fn)(const piece, const params);

template <typename T, int CH, int MODE, int COUNTING>
static kernel_fn instance()
{
    if constexpr (GPUTILE__HIMG_APPLIES(COUNTING, sizeof(T), MODE == GPUTILE__HIMG_EVEN))
        return himg_kernel<T, CH, MODE, COUNTING>;
    else
        return NULL;
}

template <typename T, int CH, int MODE>
static kernel_fn pick_counting(int counting)
{
    switch (counting) {
    case GPUTILE__HIMG_RUNS:
        return instance<T, CH, MODE, GPUTILE__HIMG_RUNS>();
    case GPUTILE__HIMG_TABLE:
        return instance<T, CH, MODE, GPUTILE__HIMG_TABLE>();
    case GPUTILE__HIMG_PACKED16:
        return instance<T, CH, MODE, GPUTILE__HIMG_PACKED16>();
    case GPUTILE__HIMG_PACKED16_ALL:
        return instance<T, CH, MODE, GPUTILE__HIMG_PACKED16_ALL>();
    case GPUTILE__HIMG_SHIFT16_ALL:
        return instance<T, CH, MODE, GPUTILE__HIMG_SHIFT16_ALL>();
    case GPUTILE__HIMG_SHIFT8:
        return instance<T, CH, MODE, GPUTILE__HIMG_SHIFT8>();
    case GPUTILE__HIMG_SHIFT8_ALL:
        return instance<T, CH, MODE, GPUTILE__HIMG_SHIFT8_ALL>();
    case GPUTILE__HIMG_IDENT8:
        return instance<T, CH, MODE, GPUTILE__HIMG_IDENT8>();
    }
    return NULL;
}

template <typename T, int MODE>
static kernel_fn pick_ch(int channels, int counting)
{
    switch (channels) {
    case 1:
        return pick_counting<T, 1, MODE>(counting);
    case 2:
        return pick_counting<T, 2, MODE>(counting);
    case 3:
        return pick_counting<T, 3, MODE>(counting);
    default:
        return pick_counting<T, 4, MODE>(counting);
    }
}

template <typename T>
static kernel_fn pick_mode(int mode, int channels, int counting)
{
    return mode == GPUTILE__HIMG_RANGE ? pick_ch<T, GPUTILE__HIMG_RANGE>(channels, counting)
                                       : pick_ch<T, GPUTILE__HIMG_EVEN>(channels, counting);
}

/* The kernel of a's sample type, mode and channels counting as `counting`;
 * NULL for a type the image kernels do not take or a counting mode that
 * does not apply to it. */
static kernel_fn kernel_of(const gputile__himg_args *a, int counting)
{
    switch (a->type) {
    case GPUTILE__HIST_SAMPLE_UINT8:
        return pick_mode<uint8_t>(a->mode, a->channels, counting);
    case GPUTILE__HIST_SAMPLE_UINT16:
        return pick_mode<uint16_t>(a->mode, a->channels, counting);
    case GPUTILE__HIST_SAMPLE_INT16:
        return pick_mode<int16_t>(a->mode, a->channels, counting);
    case GPUTILE__HIST_SAMPLE_INT32:
        return pick_mode<int32_t>(a->mode, a->channels, counting);
    case GPUTILE__HIST_SAMPLE_FLOAT:
        return pick_mode<float>(a->mode, a->channels, counting);
    }
    return NULL;
}

static size_t sample_bytes(int type)
{
    switch (type) {
    case GPUTILE__HIST_SAMPLE_UINT8:
        return 1;
    case GPUTILE__HIST_SAMPLE_UINT16:
    case GPUTILE__HIST_SAMPLE_INT16:
        return 2;
    default:
        return 4;
    }
}

/* The shared-memory layout of a block: counts, table, keys (words). */
static params layout(const gputile__himg_args *a, int tier, int counting, int copies_log2)
{
    params q = {};
    const bool shared = tier == GPUTILE_HIST_TIER_SHARED;
    const bool packed = shared && GPUTILE__HIMG_PACKED(counting);
    q.copies_log2 = shared && !packed ? copies_log2 : 0;
    q.global = !shared;
    /* words; halves for PACKED16 (never UINT8, so cbase is 0 there) */
    q.cbase = a->type == GPUTILE__HIST_SAMPLE_UINT8 ? (uint32_t)a->channels * LUT : 0;
    uint32_t w = q.cbase;
    for (int c = 0; c < a->channels; ++c) {
        q.ch[c] = a->ch[c];
        q.base[c] = w;
        if (packed)
            w += (a->ch[c].nbins + 1) & ~1u; /* even: a channel's words are its own */
        else if (shared)
            w += a->ch[c].nbins << q.copies_log2;
    }
    if (packed)
        w /= 2;
    q.spare = w;
    const bool shift8 = GPUTILE__HIMG_COMPUTED(counting);
    if (shared && (counting == GPUTILE__HIMG_TABLE || shift8))
        w += 1u << q.copies_log2;
    if (shift8)
        for (int c = 0; c < a->channels; ++c) { /* the values [first, end) of 0..255 counted */
            const int64_t lo = a->ch[c].ilower, hi = lo + (int64_t)a->ch[c].ispan;
            const int64_t first = lo > 0 ? lo : 0, end = hi < 256 ? hi : 256;
            q.s8_first[c] = first < 256 ? (uint32_t)first : 256;
            q.s8_count[c] = end > first ? (uint32_t)(end - first) : 0;
            q.s8_off[c] = first < 256 ? (uint32_t)(first - lo) : 0;
        }
    q.counts_words = w - q.cbase;
    const bool cells =
        shared && a->type != GPUTILE__HIST_SAMPLE_UINT8 && a->mode == GPUTILE__HIMG_RANGE;
    for (int c = 0; c < a->channels; ++c) {
        q.koff[c] = w;
        q.toff[c] = 0;
        if (cells) {
            w += a->ch[c].nkeys;
            w += w & 1; /* the cells are uint2 */
            q.toff[c] = w;
            w += 2u << a->ch[c].cells_log2;
        }
    }
    q.words = w;
    return q;
}

extern "C" size_t gputile__himg_smem_words(const gputile__himg_args *a, int tier, int counting,
                                           int copies_log2)
{
    return layout(a, tier, counting, copies_log2).words;
}

extern "C" cudaError_t gputile__himg_blocks_per_sm(const gputile__himg_args *a, int counting,
                                                   size_t smem, int smem_optin, int *blocks)
{
    const kernel_fn k = kernel_of(a, counting);
    if (k == NULL)
        return cudaErrorInvalidValue;
    cudaError_t err = gputile__hist_allow_smem((const void *)k, smem_optin);
    if (err != cudaSuccess)
        return err;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)k, THREADS, smem);
}

/* ---- launcher ---------------------------------------------------------------------- */

/* Samples per column chunk of a pitched image (and the unit of a contiguous
 * input's pieces), at most: a multiple of every channel count
 * (a chunk starts at channel 0) and of 16 bytes of every type. */
#define CHUNK_SAMPLES ((uint64_t)12 << 20)

extern "C" void gputile__himg_cut_rows(const void *base, size_t size, uint64_t row_samples,
                                       uint64_t stride, uint64_t height, gputile__himg_cut *c)
{
    const uint64_t row_bytes = row_samples * size, V = 16 / size;
    c->max_head = 0;
    for (uint64_t r = 0; r < height && r < 16; ++r) {
        const uint64_t h = (uint64_t)(-((uintptr_t)base + r * stride)) & 15u;
        c->max_head = h > c->max_head ? h : c->max_head;
    }
    c->nvec = row_bytes >= c->max_head ? (row_bytes - c->max_head) / 16 : 0;
    c->scalars = row_samples - c->nvec * V;
    c->per_launch = height;
    if (c->nvec != 0 && c->per_launch > GPUTILE__HIMG_MAX_VEC_PER_LAUNCH / c->nvec)
        c->per_launch = GPUTILE__HIMG_MAX_VEC_PER_LAUNCH / c->nvec;
    if (c->scalars != 0 && c->per_launch > GPUTILE__HIMG_MAX_SCALARS_PER_LAUNCH / c->scalars)
        c->per_launch = GPUTILE__HIMG_MAX_SCALARS_PER_LAUNCH / c->scalars;
    if (c->per_launch < 1)
        c->per_launch = 1;
}

extern "C" int gputile__himg_flat_head(const gputile__himg_cut *c, const void *row0,
                                       uint64_t stride, uint64_t rows, uint64_t *head)
{
    /* One row: its own head, not max_head (the last launch's one row need
     * not start where row 0 does; head <= max_head, so nvec still fits). */
    if (rows == 1) {
        *head = (uint64_t)(-(uintptr_t)row0) & 15u;
        return 1;
    }
    *head = 0;
    return stride == 16 * c->nvec && c->scalars == 0 && c->max_head == 0;
}

/* The rows [0, height) of `rows` samples each from base, `stride` bytes
 * apart, in launches of at most the vector and scalar limits. */
static cudaError_t launch_rows(kernel_fn k, const params &q, const gputile__himg_launch *l,
                               uint32_t channels, size_t size, const char *base,
                               uint64_t row_samples, uint64_t stride, uint64_t height,
                               cudaStream_t stream)
{
    gputile__himg_cut c;
    gputile__himg_cut_rows(base, size, row_samples, stride, height, &c);
    const uint64_t V = 16 / size;
    for (uint64_t r0 = 0; r0 < height; r0 += c.per_launch) {
        piece p;
        p.base = base + r0 * stride;
        p.stride = stride;
        p.rows = (uint32_t)(height - r0 < c.per_launch ? height - r0 : c.per_launch);
        p.nvec = (uint32_t)c.nvec;
        p.scalars = (uint32_t)c.scalars;
        p.magic = c.nvec >= 2 ? UINT64_MAX / c.nvec + 1 : 0;
        uint64_t head;
        p.flat = (uint32_t)gputile__himg_flat_head(&c, p.base, stride, p.rows, &head);
        p.vbase = p.base + head;
        p.phase0 = (uint32_t)(head / size % channels);
        /* enough blocks for one unrolled trip per thread, at most the plan's */
        const uint64_t work = (uint64_t)p.rows * (c.nvec + (c.scalars + V - 1) / V);
        uint64_t want = (work + (uint64_t)THREADS * UNROLL - 1) / ((uint64_t)THREADS * UNROLL);
        const int blocks = want < (uint64_t)l->blocks ? (int)(want ? want : 1) : l->blocks;
        cudaError_t err = gputile__launch(k, blocks, THREADS, l->smem, stream, p, q);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

extern "C" cudaError_t gputile__himg_run(const gputile__himg_args *a, const gputile__himg_launch *l,
                                         cudaStream_t stream)
{
    const kernel_fn k = kernel_of(a, l->counting);
    if (k == NULL)
        return cudaErrorInvalidValue; /* lib/ plans only the kernels above */
    cudaError_t err = gputile__hist_allow_smem((const void *)k, l->smem_optin);
    if (err != cudaSuccess)
        return err;
    const params q = layout(a, l->tier, l->counting, l->copies_log2);
    const size_t size = sample_bytes(a->type);
    const char *base = (const char *)a->samples;
    const uint64_t row_samples = a->row_samples, height = a->height, stride = a->stride;
    if (height == 1 || stride == row_samples * size) { /* contiguous: one long row */
        /* One launch up to 2^28 vectors (4 GiB), a row of its own: cutting
         * it into rows of CHUNK_SAMPLES left a second launch for the rest,
         * 6-30 us of a 1 GiB call (ncu, H100). Pieces start at multiples
         * of CHUNK_SAMPLES: at channel 0. */
        const uint64_t n = row_samples * height;
        const uint64_t most =
            GPUTILE__HIMG_MAX_VEC_PER_LAUNCH * 16 / size / CHUNK_SAMPLES * CHUNK_SAMPLES;
        for (uint64_t s0 = 0; s0 < n; s0 += most) {
            const uint64_t m = n - s0 < most ? n - s0 : most;
            if ((err = launch_rows(k, q, l, (uint32_t)a->channels, size, base + s0 * size, m,
                                   m * size, 1, stream)) != cudaSuccess)
                return err;
        }
        return cudaSuccess;
    }
    /* Rows longer than a chunk: column chunks, each starting at channel 0. */
    for (uint64_t c0 = 0; c0 < row_samples; c0 += CHUNK_SAMPLES) {
        const uint64_t w = row_samples - c0 < CHUNK_SAMPLES ? row_samples - c0 : CHUNK_SAMPLES;
        if ((err = launch_rows(k, q, l, (uint32_t)a->channels, size, base + c0 * size, w, stride,
                               height, stream)) != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}
