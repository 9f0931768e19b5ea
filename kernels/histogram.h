/*
 * histogram.h: the histogram kernels' interface to lib/ (internal).
 *
 * lib/histogram_plan.c picks a tier and launch shape from the queries
 * below; lib/histogram.c validates, zeroes the counts in overwrite mode and
 * calls gputile__histogram(). Nothing here checks user input.
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
/* 16-byte loads in flight per thread per loop trip. */
#define GPUTILE__HIST_UNROLL 4
/* Most 16-byte vectors one launch reads: 2^30 (16 GiB of samples). With at
 * most 2^28 vectors per input group (block, or cluster in the DSM tier) per
 * launch, no 32-bit count in shared memory or registers can wrap. */
#define GPUTILE__HIST_MAX_VEC_PER_LAUNCH (1u << 30)
#define GPUTILE__HIST_MAX_VEC_PER_GROUP (1u << 28)

/* One histogram, checked by lib/. */
typedef struct gputile__hist_args {
    const void *samples; /* int32_t or float, 4-byte aligned, device memory */
    uint64_t n;          /* samples; may be 0 */
    int is_float;        /* 0: int32 clamped to [0, nbins); 1: float even bins */
    int32_t nbins;       /* >= 1 */
    float lower, upper;  /* float samples: [lower, upper) */
    float scale;         /* float samples: nbins / (upper - lower), rounded to float */
    uint64_t *counts;    /* nbins counts; lib/ zeroes them for overwrite */
} gputile__hist_args;

/* The planner's launch shape. */
typedef struct gputile__hist_launch {
    int tier;        /* GPUTILE_HIST_TIER_SHARED, _DSM or _GLOBAL */
    int threads;     /* per block */
    int blocks;      /* per launch; a multiple of cluster */
    int cluster;     /* blocks per cluster (DSM); 1 otherwise */
    int copies_log2; /* log2 of the interleaved copies per bin (shared tier); 0 otherwise */
    int32_t slice;   /* bins per block: nbins (shared), ceil(nbins / cluster) (DSM), 0 (global) */
    size_t smem;     /* dynamic shared memory per block, bytes */
} gputile__hist_launch;

/* Prepares the shared/DSM kernel for `smem` bytes of dynamic shared memory
 * (and non-portable cluster sizes), then reports how many of its blocks fit
 * on one SM. */
cudaError_t gputile__hist_smem_blocks_per_sm(int is_float, size_t smem, int *blocks);
/* Largest cluster of the shared/DSM kernel with `smem` bytes per block that
 * the device can launch (cudaOccupancyMaxPotentialClusterSize, non-portable
 * sizes allowed); 0 when clusters cannot be launched. */
cudaError_t gputile__hist_cluster_max(int is_float, size_t smem, int *max_cluster);
/* Clusters of `cluster` blocks with `smem` bytes each that fit on the device
 * at once (cudaOccupancyMaxActiveClusters). */
cudaError_t gputile__hist_cluster_active(int is_float, size_t smem, int cluster, int *clusters);
/* Blocks of the global-tier kernel that fit on one SM. */
cudaError_t gputile__hist_global_blocks_per_sm(int is_float, int *blocks);

/* Enqueues the histogram on stream, adding into args->counts. Splits inputs
 * of more than GPUTILE__HIST_MAX_VEC_PER_LAUNCH vectors into several
 * launches. */
cudaError_t gputile__histogram(const gputile__hist_args *args, const gputile__hist_launch *launch,
                               cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_HISTOGRAM_H */
