/* SPDX-License-Identifier: MIT */
/*
 * histogram_image.h: the image histogram kernels' interface to lib/
 * (internal): one histogram per channel of a 2-D input of interleaved
 * samples with a row stride in bytes, even bins or bins between edges.
 *
 * lib/histogram_image.c validates, turns the caller's bins into the
 * per-channel binning below (exact integer even bins, double even bins for
 * floats, or search keys), plans (tier, copies, blocks) with the
 * occupancy query here, and calls gputile__himg_run(). The launcher cuts
 * the input into launches (contiguous rows as one long row, rows too long
 * for 32-bit indices into column chunks); it checks and decides nothing.
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_IMAGE_H
#define GPUTILE_KERNELS_HISTOGRAM_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUTILE__HIMG_THREADS 1024
#define GPUTILE__HIMG_MAX_CHANNELS 4
/* UINT8 samples are binned through a table of 256 entries per channel in
 * shared memory (built by each block from the channel's bins). */
#define GPUTILE__HIMG_LUT 256
/* The most 16-byte vectors, and scalar samples, one launch reads: 32-bit
 * indices with room for the grid stride, and (with at least 4 blocks per
 * launch) fewer than 2^32 samples counted per block, so 32-bit counts in
 * shared memory cannot wrap. */
#define GPUTILE__HIMG_MAX_VEC_PER_LAUNCH ((uint64_t)1 << 28)
#define GPUTILE__HIMG_MAX_SCALARS_PER_LAUNCH ((uint64_t)1 << 30)

/* How a channel's samples map to bins. */
typedef enum gputile__himg_mode {
    GPUTILE__HIMG_EVEN = 0, /* even bins */
    GPUTILE__HIMG_RANGE = 1 /* bins between search keys */
} gputile__himg_mode;

/* One channel's bins, as lib/ prepared them. */
typedef struct gputile__himg_channel {
    uint32_t nbins; /* counts at `counts`; 1 .. 2^24 */
    /* EVEN, integer samples: x in bin floor((x - ilower) * nbins / ispan)
     * when 0 <= x - ilower < ispan; iinv = nbins / ispan. */
    int64_t ilower;
    uint64_t ispan;
    double iinv;
    int32_t ishift; /* log2(ispan / nbins) when a whole power of two, else -1 */
    /* EVEN, FLOAT samples: floor((x - flower) * fscale) in double when
     * flower <= x < fupper, a result >= nbins in the last bin. */
    double flower, fupper, fscale;
    /* RANGE: nkeys sorted search keys (int32 for integer samples, float
     * bits for FLOAT) at keys; x lands at i = (keys <= x) - 1 and counts
     * in bin i when 0 <= i < top (top = nkeys - 1, or nkeys when the
     * channel's last edges lie beyond the type's largest value). */
    const uint32_t *keys; /* device memory */
    uint32_t nkeys, top;
    /* RANGE, other types than UINT8, shared tier: a coarse index in front
     * of the search. x falls in one of 2^cells_log2 cells by a map that
     * never decreases as x grows (so keys in earlier cells are <= x and
     * keys in later cells > x); each cell holds the index of its first
     * key and, where it holds one key only, that key: x is compared with
     * it, and searched for (from the cell's first key) only where the
     * cell holds more.
     *   cell_bits 0 (FLOAT): floor((x - cell_lo) * cell_scale) in float,
     *     clamped to the cells (linear cells, for edges spread evenly);
     *   cell_bits 1: (u - cell_u0) >> cell_shift, clamped, where u is x's
     *     order-preserving 32-bit pattern (integers: x + 2^31; floats: the
     *     bits, negatives flipped: cells of ~equal ratio, for edges spread
     *     geometrically).
     * lib/ picks the map that puts the fewest keys in the fullest cell,
     * with more cells (up to 2^12) until none holds two keys;
     * correctness rests only on the map being monotone, and the kernel
     * builds the cells with the same map it looks samples up with. */
    uint32_t cells_log2, cell_bits, cell_u0, cell_shift;
    float cell_lo, cell_scale;
    unsigned long long *counts; /* nbins counts, device memory */
} gputile__himg_channel;

/* One call. */
typedef struct gputile__himg_args {
    const void *samples;  /* row 0's first sample */
    int type;             /* gputile__hist_sample (kernels/histogram.h) */
    int mode;             /* gputile__himg_mode */
    int channels;         /* 1..4 */
    uint64_t row_samples; /* width * channels */
    uint64_t height;      /* rows, >= 1 */
    uint64_t stride;      /* bytes between rows */
    gputile__himg_channel ch[GPUTILE__HIMG_MAX_CHANNELS];
} gputile__himg_args;

/* How a block counts (the plan's choice; the layout of its shared memory
 * follows from it, gputile__himg_smem_words()). */
typedef enum gputile__himg_counting {
    /* Shared tier, other than UINT8: each thread's run of equal bins per
     * channel, one shared atomic per run into 32-bit counts, 2^copies_log2
     * interleaved copies. Global tier (every type): the same runs, 64-bit
     * atomics on the counts. */
    GPUTILE__HIMG_RUNS = 0,
    /* Shared tier, UINT8: the table maps (channel, value) straight to the
     * word of its bin (a spare word for samples not counted); one shared
     * atomic per sample, no compare or branch. */
    GPUTILE__HIMG_TABLE = 1,
    /* Shared tier, counts that fit one block only as 16-bit halves of
     * words (e.g. 65,536 bins): one copy, one atomic per sample, each
     * half's wraps past 65,535 carried into the 64-bit counts by the
     * thread that saw it. */
    GPUTILE__HIMG_PACKED16 = 2,
    /* Shared tier, UINT8 even bins of 2^k values each (256 over [0, 256),
     * 64 over [0, 256), ...): TABLE's layout, but each sample's word is
     * computed (a subtract, a compare, a shift, a multiply-add) instead of
     * loaded: the table's loads, at random banks, conflicted 3.2 ways on
     * average and kept the shared-memory pipe 99% busy (ncu, 256 bins on
     * the H200) while the atomics, one bank per lane, need one wavefront. */
    GPUTILE__HIMG_SHIFT8 = 3,
    /* SHIFT8 where every channel counts every value 0..255 (lower <= 0,
     * upper >= 256: 256 bins over [0, 256), RGBA8): no compare either, the
     * word is an add, two shifts and an add from the sample; ncu had
     * SHIFT8 issue-bound at ~11 instructions per sample (77% of issue
     * slots, shared-memory pipe 31%). */
    GPUTILE__HIMG_SHIFT8_ALL = 4,
    /* SHIFT8_ALL with one value per bin from 0 (lower 0, at least 256
     * bins): the word is the sample times the copies plus the channel's
     * base, a byte extract, a multiply-add and the atomic per sample. */
    GPUTILE__HIMG_IDENT8 = 5,
    /* PACKED16 for 16-bit samples whose even bins of 2^k values each
     * cover every value of the type (65,536 bins over [0, 65536) of
     * uint16): the half is computed, (x - lower) >> k from the channel's
     * base, with no compare (ncu, PACKED16 on uint16 65,536 bins: issue
     * slots 75% busy at ~45 instructions per sample, the shared pipe 24%). */
    GPUTILE__HIMG_PACKED16_ALL = 6,
    /* PACKED16_ALL's bins where 32-bit counts fit (4,096 bins over
     * [0, 65536) of uint16, with copies): the word is computed, (x -
     * lower) >> k times the copies plus the thread's copy of the
     * channel's base, and counted by a shared atomic with no result; RUNS
     * there compared each sample with its run (uint16 4,096 bins: 53% of
     * the read on the H100). */
    GPUTILE__HIMG_SHIFT16_ALL = 7
} gputile__himg_counting;

/* What each counting mode needs, a row per mode (compile-time constants,
 * so that only the kernels of the modes that apply to a type and bin mode
 * are instantiated, and the layout and the table build read the same rows):
 *   RUNS      any input
 *   TABLE     UINT8
 *   PACKED16  all but UINT8
 *   SHIFT8, SHIFT8_ALL, IDENT8 (computed: each sample's word is computed
 *             from its value, no table)  UINT8, even bins
 *   PACKED16_ALL, SHIFT16_ALL  16-bit samples, even bins
 * PACKED16 and PACKED16_ALL keep 16-bit counts (packed). The computed
 * modes and SHIFT16_ALL find a sample's word from the thread's copy of
 * its channel's first bin (ADDRESSED). */
#define GPUTILE__HIMG_COMPUTED(counting)                                             \
    ((counting) == GPUTILE__HIMG_SHIFT8 || (counting) == GPUTILE__HIMG_SHIFT8_ALL || \
     (counting) == GPUTILE__HIMG_IDENT8)
#define GPUTILE__HIMG_ADDRESSED(counting) \
    (GPUTILE__HIMG_COMPUTED(counting) || (counting) == GPUTILE__HIMG_SHIFT16_ALL)
#define GPUTILE__HIMG_PACKED(counting) \
    ((counting) == GPUTILE__HIMG_PACKED16 || (counting) == GPUTILE__HIMG_PACKED16_ALL)
#define GPUTILE__HIMG_APPLIES(counting, bytes, even)                                            \
    ((counting) == GPUTILE__HIMG_RUNS || ((counting) == GPUTILE__HIMG_TABLE && (bytes) == 1) || \
     ((counting) == GPUTILE__HIMG_PACKED16 && (bytes) != 1) ||                                  \
     (GPUTILE__HIMG_COMPUTED(counting) && (bytes) == 1 && (even)) ||                            \
     (((counting) == GPUTILE__HIMG_PACKED16_ALL || (counting) == GPUTILE__HIMG_SHIFT16_ALL) &&  \
      (bytes) == 2 && (even)))

/* The planner's launch shape. */
typedef struct gputile__himg_launch {
    int tier;        /* GPUTILE_HIST_TIER_SHARED or _GLOBAL */
    int counting;    /* gputile__himg_counting */
    int blocks;      /* per launch */
    int copies_log2; /* RUNS and TABLE, shared tier: log2 of the copies of each bin */
    size_t smem;     /* dynamic shared memory per block, bytes */
    int smem_optin;  /* the device's opt-in shared memory per block, bytes */
} gputile__himg_launch;

/* Dynamic shared memory, in 32-bit words, of a block of the given tier,
 * counting and copies: the UINT8 table (channels * 256), then the counts
 * (shared tier), then (RANGE, other types, shared tier) each channel's
 * search keys and its cells (two words per cell, 8-byte aligned). */
size_t gputile__himg_smem_words(const gputile__himg_args *a, int tier, int counting,
                                int copies_log2);

/* Blocks of the kernel for a's type, mode and channels counting as
 * `counting` with `smem` bytes each that fit on one SM. */
cudaError_t gputile__himg_blocks_per_sm(const gputile__himg_args *a, int counting, size_t smem,
                                        int smem_optin, int *blocks);

/* How the launcher cuts `height` rows of `row_samples` samples of `size`
 * bytes, `stride` bytes apart from base, into launches (host arithmetic
 * only, no device: the CPU tests check it). Each row is read as a head of
 * scalars up to its first 16-byte boundary, nvec 16-byte vectors, and a
 * tail of scalars; nvec counts from the longest head of any row, so that
 * every row holds it. */
typedef struct gputile__himg_cut {
    uint64_t max_head;   /* bytes: the longest head (heads repeat every 16 rows) */
    uint64_t nvec;       /* vectors per row */
    uint64_t scalars;    /* samples per row outside them */
    uint64_t per_launch; /* rows per launch: within the vector and scalar limits */
} gputile__himg_cut;

void gputile__himg_cut_rows(const void *base, size_t size, uint64_t row_samples, uint64_t stride,
                            uint64_t height, gputile__himg_cut *c);

/* A launch of `rows` rows from row0 reads its vectors as one flat run
 * (no row arithmetic) when it is one row or its rows lie back to back
 * with no head and no tail; returns 1 and the bytes from row0 to the
 * first vector (the row's own head: the scalar pass skips the same
 * bytes), or 0 (rows read one by one, each at its own head). */
int gputile__himg_flat_head(const gputile__himg_cut *c, const void *row0, uint64_t stride,
                            uint64_t rows, uint64_t *head);

/* Enqueues the histograms on stream, adding into each channel's counts. */
cudaError_t gputile__himg_run(const gputile__himg_args *a, const gputile__himg_launch *l,
                              cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_HISTOGRAM_IMAGE_H */
