/* SPDX-License-Identifier: MIT */
/*
 * histogram.h: the histogram kernels' interface to lib/ (internal): the
 * table of sample types, the arguments of one histogram and the launch plan.
 *
 * lib/histogram_plan.c picks a tier and launch shape from the queries
 * below and the sample type's row; lib/histogram.c validates, zeroes the
 * counts in overwrite mode and calls gputile__histogram(). Nothing here
 * checks user input or decides anything: the kernels launch what the plan
 * says.
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_H
#define GPUTILE_KERNELS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of the shared/DSM kernel and of the global kernel. */
#define GPUTILE__HIST_SMEM_THREADS 1024
#define GPUTILE__HIST_GLOBAL_THREADS 512
/* The shared/DSM kernel swizzles its counts' banks where a block keeps at
 * most 2^this copies (kernels/histogram.cu, smem_place); lib/ sizes those
 * counts in whole rows of 32 words, as it does every block's. */
#define GPUTILE__HIST_SWIZZLE_COPIES_LOG2 2
/* 16-byte loads in flight per thread per loop trip (the shared/DSM
 * kernel built for two blocks per SM issues fewer: kernels/histogram.cu). */
#define GPUTILE__HIST_UNROLL 4

/* ---- sample types: one row each ----
 * X(ID, binning functor, bytes per sample, samples per 16-byte vector)
 * ID names the internal id GPUTILE__HIST_SAMPLE_<ID>. lib/ derives the
 * type's descriptor from its row (element size and alignment, vector width,
 * launch limits: lib/histogram_plan.c); kernels/histogram.cu instantiates
 * every kernel with the row's functor (kernels/histogram_samples.cuh),
 * which must agree with the row (a static_assert checks). A new sample type
 * is one row here plus its functor there. */
#define GPUTILE__HIST_SAMPLE_TYPES(X)                                                             \
    X(INT32, bin_i32, 4, 4)  /* int32_t, clamped to [0, nbins) */                                 \
    X(FLOAT, bin_f32, 4, 4)  /* float, nbins even bins over [lower, upper), others not counted */ \
    X(UINT8, bin_u8, 1, 16)  /* uint8_t, exact even bins (bin_even), others not counted */        \
    X(UINT16, bin_u16, 2, 8) /* uint16_t, likewise */                                             \
    X(INT16, bin_i16, 2, 8)  /* int16_t, likewise */

typedef enum gputile__hist_sample {
#define GPUTILE__HIST_SAMPLE_ID(id, bin, bytes, per_vec) GPUTILE__HIST_SAMPLE_##id,
    GPUTILE__HIST_SAMPLE_TYPES(GPUTILE__HIST_SAMPLE_ID)
#undef GPUTILE__HIST_SAMPLE_ID
        GPUTILE__HIST_SAMPLE_COUNT
} gputile__hist_sample;

/* Launch limits, in 16-byte vectors, of a type with v samples per vector:
 * - per input group (block, or cluster in the DSM tier) and launch: 2^30
 *   samples, plus the head and tail read as scalars (fewer than 2v), so no
 *   32-bit count in shared memory or registers can wrap (4-byte samples:
 *   2^28 vectors);
 * - per launch: 2^30 vectors (16 GiB), whatever v, so the kernels' 32-bit
 *   vector indices keep room for the unrolled grid stride (the shared
 *   kernel's indices pass the body by up to two trips of it: its next
 *   trip's loads are issued, and bounds-checked, before the loop ends).
 * The planner cuts an input into launches of at most
 * min(groups x per group, per launch) vectors (gputile__hist_launch). */
#define GPUTILE__HIST_MAX_VEC_PER_GROUP(v) ((uint32_t)((1u << 30) / (unsigned)(v)))
#define GPUTILE__HIST_MAX_VEC_PER_LAUNCH ((uint32_t)(1u << 30))

/* One histogram, checked by lib/. */
typedef struct gputile__hist_args {
    const void *samples; /* the type's samples, aligned to their size, device memory */
    uint64_t n;          /* samples; may be 0 */
    int type;            /* gputile__hist_sample: the row that bins them */
    int32_t nbins;       /* >= 1 */
    float lower, upper;  /* FLOAT samples: [lower, upper) */
    float scale;         /* FLOAT samples: nbins / (upper - lower), rounded to float */
    uint64_t *counts;    /* nbins counts; lib/ zeroes them for overwrite */
    /* UINT8, UINT16, INT16 samples (bin_even): x counts in bin
     * (x - ilower) * nbins / ispan when 0 <= x - ilower < ispan;
     * iinv = nbins / ispan in double (the kernels' first guess). */
    int64_t ilower;
    uint64_t ispan;
    double iinv;
} gputile__hist_args;

/* The planner's launch shape. */
typedef struct gputile__hist_launch {
    int tier;        /* GPUTILE_HIST_TIER_SHARED, _DSM or _GLOBAL */
    int threads;     /* per block */
    int blocks;      /* per launch; a multiple of cluster */
    int cluster;     /* blocks per cluster (DSM); 1 otherwise */
    int copies_log2; /* log2 of the interleaved copies per bin (shared tier); 0 otherwise */
    int count_bits;  /* shared/DSM tiers: bits per count in shared memory, 32, 16 or 8 (16
                        and 8: two or four per word, twice or four times the bins) */
    int two_per_sm;  /* shared tier, 32-bit counts: 1 runs the kernel built for two blocks
                        per SM (at most 32 registers a thread), where two fit; else 0 */
    int32_t slice;   /* bins per block: nbins (shared), ceil(nbins / cluster) (DSM), 0 (global) */
    size_t smem;     /* dynamic shared memory per block, bytes */
    int smem_optin;  /* the device's opt-in shared memory per block, bytes (shared/DSM tiers) */
    uint32_t vec_per_launch; /* most 16-byte vectors one launch reads (the limits above) */
    int slice_log2;          /* routed tier: log2 of the bins per slice; 0 otherwise */
    int slices;              /* routed tier: slices; 0 otherwise */
    size_t scratch_bytes; /* routed tier: device scratch it needs (gputile__hist_route_scratch) */
    void *scratch;        /* routed tier: that scratch, set by lib/ before the launch */
    uint32_t route_tiles; /* routed tier: tiles per piece (the scratch holds one piece) */
    int count_blocks;     /* routed tier: blocks of the count pass, slices x replicas */
    size_t count_smem;    /* routed tier: dynamic shared memory per count block, bytes */
} gputile__hist_launch;

/* ---- the routed tier (kernels/histogram_route.cuh) ----
 * Two kernels per piece of the input: a partition (512 threads, two
 * blocks per SM, a persistent grid, tiles of SUB samples routed to their
 * slice) and a count (1024 threads, blocks owning a slice each). A slice
 * holds at most 2^15 bins (16-bit entries, 128 KB of counters), slices <=
 * 255 (one register packs a routed sample's slice and slot), a piece is
 * at most PIECE_TILES tiles (the scratch holds one: 2^26 samples, which
 * bounds the partition's hot counts and the count kernel's 32-bit
 * counters, all of a piece's samples landing in one of them; keep
 * PIECE_TILES * SUB below 2^32), and one launch reads at most 2^31
 * samples. */
#define GPUTILE__HIST_ROUTE_THREADS 512 /* partition: two blocks per SM */
#define GPUTILE__HIST_ROUTE_COUNT_THREADS 1024
#define GPUTILE__HIST_ROUTE_SUB 8192 /* samples per tile: 16 per partition thread */
#define GPUTILE__HIST_ROUTE_PIECE_TILES 8192
#define GPUTILE__HIST_ROUTE_MAX_SLICE_LOG2 15
#define GPUTILE__HIST_ROUTE_MAX_SLICES 255
#define GPUTILE__HIST_ROUTE_MAX_SAMPLES ((uint64_t)1 << 31)
/* Dynamic shared memory per partition block and per count block, and the
 * device scratch of a piece of `tiles` tiles. */
size_t gputile__hist_route_smem(void);
size_t gputile__hist_route_count_smem(int slice_log2);
size_t gputile__hist_route_scratch(uint64_t tiles, int slices);
/* Blocks of the partition kernel (of sample type `type`) and of the count
 * kernel with `smem` bytes each that fit on one SM. */
cudaError_t gputile__hist_route_blocks_per_sm(int type, size_t smem, int smem_optin, int *blocks);
cudaError_t gputile__hist_route_count_blocks_per_sm(size_t smem, int smem_optin, int *blocks);

/* The occupancy queries of the kernels of sample type `type`. Those of the
 * shared/DSM kernel (count_bits: its instantiation with counts of 32, 16
 * or 8 bits; two_per_sm: with 32-bit counts, the one built for two blocks
 * per SM) first let
 * it use smem_optin bytes of dynamic shared memory (the device's opt-in
 * limit) and non-portable cluster sizes. */
/* Blocks of the shared/DSM kernel with `smem` bytes each that fit on one SM. */
cudaError_t gputile__hist_smem_blocks_per_sm(int type, int count_bits, int two_per_sm, size_t smem,
                                             int smem_optin, int *blocks);
/* Largest cluster of the DSM (tier GPUTILE_HIST_TIER_DSM) or seed
 * (GPUTILE_HIST_TIER_SEED) kernel with `smem` bytes per block that the
 * device can launch (cudaOccupancyMaxPotentialClusterSize, non-portable
 * sizes allowed); 0 when clusters cannot be launched. */
cudaError_t gputile__hist_cluster_max(int tier, int type, int count_bits, size_t smem,
                                      int smem_optin, int *max_cluster);
/* Clusters of `cluster` blocks with `smem` bytes each of that tier's kernel
 * that fit on the device at once (cudaOccupancyMaxActiveClusters). */
cudaError_t gputile__hist_cluster_active(int tier, int type, int count_bits, size_t smem,
                                         int smem_optin, int cluster, int *clusters);
/* Blocks of the global-tier kernel that fit on one SM. */
cudaError_t gputile__hist_global_blocks_per_sm(int type, int *blocks);

/* Enqueues the histogram on stream, adding into args->counts, with the
 * kernel of args->type and the plan's shape; inputs of more than
 * launch->vec_per_launch vectors go in several launches. */
cudaError_t gputile__histogram(const gputile__hist_args *args, const gputile__hist_launch *launch,
                               cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_HISTOGRAM_H */
