/* SPDX-License-Identifier: MIT */
/*
 * gputile.h: the stable C ABI of libgputile.
 *
 * Compiles as C99, C11 and C++ without any CUDA header. Streams cross the ABI
 * as `struct CUstream_st *`, the type behind cudaStream_t; NULL is the
 * default stream. Every function returns a gputile_status (0 is success) or a
 * plain value; none prints, exits or aborts. See gputile(7) and ABI.md.
 */
#ifndef GPUTILE_H
#define GPUTILE_H

#include <stddef.h>
#include <stdint.h>

#include "gputile_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GPUTILE_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define GPUTILE_WARN_UNUSED
#endif

/* nonnull is for callers only: inside the library it would let the compiler
 * delete the very NULL checks that return GPUTILE_ERROR_NULL_POINTER. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(GPUTILE_BUILDING)
#define GPUTILE_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define GPUTILE_NONNULL(...)
#endif

struct CUstream_st; /* cudaStream_t is `struct CUstream_st *` */

/* ---- Status codes ---------------------------------------------------------
 * One table generates the enum, gputile_strerror() and gputile_status_name().
 * Values never change once released; new codes are appended. */
#define GPUTILE_STATUS_MAP(X)                                                          \
    X(SUCCESS, 0, "success")                                                           \
    X(ERROR_NULL_POINTER, 1, "a required pointer argument is NULL")                    \
    X(ERROR_INVALID_MATRIX, 2, "a matrix has stride < width")                          \
    X(ERROR_SHAPE_MISMATCH, 3, "matrix dimensions do not agree")                       \
    X(ERROR_OVERFLOW, 4, "a size in bytes does not fit in size_t")                     \
    X(ERROR_ALIASING, 5, "the output matrix overlaps an input matrix")                 \
    X(ERROR_INVALID_VALUE, 6, "an enum value, flag or option is unknown")              \
    X(ERROR_NO_DEVICE, 7, "no usable CUDA device (or no driver)")                      \
    X(ERROR_OUT_OF_MEMORY, 8, "device or pinned host memory allocation failed")        \
    X(ERROR_CUDA, 9, "a CUDA runtime call failed; see gputile_last_cuda_error()")      \
    X(ERROR_OUT_OF_BOUNDS, 10, "a sub-matrix lies outside its parent")                 \
    X(ERROR_UNSUPPORTED, 11, "not supported on this device or build")                 \
    X(ERROR_WRONG_DEVICE, 12, "device memory belongs to a device other than the current one") \
    X(ERROR_UNKNOWN_POINTER, 13, "the pointer was not allocated or registered by libgputile, or was already freed") \
    X(ERROR_ALREADY_REGISTERED, 14, "the memory range is already registered") \
    X(ERROR_NCCL, 15, "an NCCL call failed; see gputile_last_nccl_error()")

typedef enum gputile_status {
#define GPUTILE__STATUS_ENUM(name, value, text) GPUTILE_##name = value,
    GPUTILE_STATUS_MAP(GPUTILE__STATUS_ENUM)
#undef GPUTILE__STATUS_ENUM
    GPUTILE_STATUS_END_ /* one past the last code; not a status */
} gputile_status;

/* Human-readable text of a status; "unknown status" for other values. Never NULL. */
const char *gputile_strerror(int status);
/* The enum name, e.g. "GPUTILE_ERROR_NULL_POINTER"; "GPUTILE_UNKNOWN" for other values. */
const char *gputile_status_name(int status);
/* The cudaError_t behind the last GPUTILE_ERROR_CUDA, _NO_DEVICE,
 * _OUT_OF_MEMORY or _UNSUPPORTED returned to this thread because a CUDA
 * call failed (0 if none); kept per thread until the next such failure in
 * that thread (a refusal of the library's own leaves it as it was). */
int gputile_last_cuda_error(void);
/* cudaGetErrorName() of gputile_last_cuda_error(); "cudaSuccess" if none. */
const char *gputile_last_cuda_error_name(void);

/* ---- Version ------------------------------------------------------------- */
/* GPUTILE_VERSION_HEX of the library that is linked in. */
unsigned gputile_version(void);
/* GPUTILE_VERSION_STRING of the library that is linked in. */
const char *gputile_version_string(void);

/* ---- Matrices --------------------------------------------------------------
 * The CUDA Programming Guide's Matrix: row-major, element (row, col) at
 * elements[row * stride + col], stride counted in elements (stride >= width).
 * A sub-matrix is the same struct pointing into its parent with the parent's
 * stride. elements may point to device memory or to host memory (ordinary or
 * pinned); the library asks the CUDA driver which. */
typedef struct gputile_matrix {
    size_t width;     /* columns */
    size_t height;    /* rows */
    size_t stride;    /* elements from the start of one row to the next */
    float *elements;  /* element (0, 0) */
} gputile_matrix;

/* Allocates `bytes` of device memory on the current device (cudaMalloc). */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_device_alloc(void **ptr, size_t bytes);
/* Frees memory from gputile_device_alloc(); NULL is a no-op. */
gputile_status gputile_device_free(void *ptr);

/* Copies src's elements into dst (same width and height, any strides, any
 * mix of host and device memory) on `stream`. When either side is host
 * memory the call returns after the copy completes; device-to-device copies
 * are asynchronous on the stream. */
GPUTILE_WARN_UNUSED
gputile_status gputile_matrix_copy(gputile_matrix dst, gputile_matrix src,
                                   struct CUstream_st *stream);

/* ---- GEMM -------------------------------------------------------------- */
typedef enum gputile_op {
    GPUTILE_OP_N = 0, /* use the matrix as stored */
    GPUTILE_OP_T = 1  /* use its transpose */
} gputile_op;

typedef enum gputile_algorithm {
    GPUTILE_ALGO_AUTO = 0,           /* the fastest correct kernel for the shape and device */
    GPUTILE_ALGO_NAIVE = 1,          /* one thread per element of C (teaching reference) */
    GPUTILE_ALGO_TILED = 2,          /* 16x16 shared-memory tiles, Kirk & Hwu Fig. 4.7 */
    GPUTILE_ALGO_REGBLOCK_128 = 3,   /* 128x128 tiles, 8 warps, 8x8 per thread in registers */
    GPUTILE_ALGO_REGBLOCK_64 = 4,    /* 64x64 tiles, 8x8 per thread, for small or skinny C */
    GPUTILE_ALGO_REGBLOCK_128_W64 = 5, /* 128x128 tiles, 4 warps of 64x64, 16x8 per thread */
    GPUTILE_ALGO_REGBLOCK_128X256 = 6, /* 128x256 tiles, 8 warps of 64x64, 16x8 per thread */
    GPUTILE_ALGO_WGMMA_128X128 = 7,  /* tensor cores (Hopper wgmma), 128x128 tiles; TF32 precisions only */
    GPUTILE_ALGO_WGMMA_128X256 = 8,  /* tensor cores (Hopper wgmma), 128x256 tiles; TF32 precisions only */
    GPUTILE_ALGO_REGBLOCK_64X128 = 9, /* 64x128 tiles, 4 warps, 8x8 per thread, 2-3 blocks per SM */
    GPUTILE_ALGO_REGBLOCK_64X128_X3 = 10, /* the same, registers capped so three blocks share an SM */
    GPUTILE_ALGO_BATCHED_16 = 11, /* (issue 20) batches: 16x16 tiles, 16 threads each, 8 per block */
    GPUTILE_ALGO_BATCHED_32 = 12, /* (issue 20) batches: 32x32 tiles, one warp each, 4 per block */
    GPUTILE_ALGO_BATCHED_64 = 13, /* (issue 20) batches: 64x64 tiles, 4 warps each */
    /* cp.async-fed FFMA kernels (issue 17): multi-stage shared-memory pipeline */
    GPUTILE_ALGO_ASYNC_128X128 = 14, /* 128x128 tiles, 8 warps, 8x8 per thread, 2 blocks per SM */
    GPUTILE_ALGO_ASYNC_128X256 = 15, /* 128x256 tiles, 8 warps, 16x8 per thread */
    GPUTILE_ALGO_ASYNC_64X128 = 16,  /* 64x128 tiles, 4 warps, 8x8 per thread, 3 blocks per SM */
    GPUTILE_ALGO_ASYNC_128X64 = 17,  /* 128x64 tiles, 4 warps, 8x8 per thread, 4 blocks per SM */
    GPUTILE_ALGO_ASYNC_64X64 = 18,   /* 64x64 tiles, 2 warps, 8x8 per thread, 6 blocks per SM */
    GPUTILE_ALGO_ASYNC_128X32 = 19,  /* 128x32 tiles (C 32 wide), 4 warps, 8x4 per thread */
    GPUTILE_ALGO_ASYNC_32X128 = 20,  /* 32x128 tiles (C 32 tall), 4 warps, 8x4 per thread */
    GPUTILE_ALGO_ASYNC_64X64_W8 = 21, /* 64x64 tiles, 8 warps, 4x4 per thread, 3 blocks per SM */
    GPUTILE_ALGO_BATCHED_8X64 = 22, /* batches with few rows of C: 8x64 tiles, a warp each */
    GPUTILE_ALGO_BATCHED_64X8 = 23, /* batches with few columns of C: 64x8 tiles, a warp each */
    GPUTILE_ALGO_ASYNC_64X32 = 24,  /* 64x32 tiles (C 32 wide or less), 2 warps, 8x4 per thread */
    GPUTILE_ALGO_ASYNC_32X64 = 25,  /* 32x64 tiles (C 32 tall or less), 2 warps, 4x8 per thread */
    GPUTILE_ALGO_BATCHED_8X32 = 26, /* batches of C 8 rows tall or less: 8x32 tiles, 16 threads each */
    GPUTILE_ALGO_BATCHED_32X8 = 27, /* batches of C 8 columns wide or less: 32x8 tiles, 16 threads each */
    GPUTILE_ALGO_BATCHED_16_KSPLIT = 28, /* batched16, a block's 8 slots splitting one tile's k */
    GPUTILE_ALGO_BATCHED_32_KSPLIT = 29  /* batched32, a block's 4 slots splitting one tile's k */
} gputile_algorithm;

/* What gputile_gemm() computes with (man 3 gputile_gemm has the measured
 * accuracy). FP32 never uses tensor cores. FP32_3XTF32 and TF32 run the
 * wgmma algorithms on compute capability 9.0 devices, where AUTO also
 * runs the FP32 kernels for products its model says they do faster;
 * elsewhere they fall back to the FP32 kernels (same or better accuracy;
 * algorithm_used says which ran). */
typedef enum gputile_precision {
    GPUTILE_PRECISION_FP32 = 0,        /* IEEE FP32 FFMA: no tensor cores, no TF32 */
    GPUTILE_PRECISION_FP32_3XTF32 = 1, /* tensor cores, each input split into two TF32
                                          parts, three products: FP32-level accuracy */
    GPUTILE_PRECISION_TF32 = 2         /* tensor cores, inputs rounded to TF32 (10-bit
                                          mantissa): fastest, ~1e-4 relative error */
} gputile_precision;

/* Options of gputile_gemm(). Initialise with GPUTILE_GEMM_OPTIONS_INIT so
 * that `size` records which version of the struct the caller knows; the
 * library reads only the fields that size covers, and needs at least this
 * release's struct (a smaller size is GPUTILE_ERROR_INVALID_VALUE). */
typedef struct gputile_gemm_options {
    size_t size;            /* sizeof(gputile_gemm_options) */
    int32_t algorithm;      /* gputile_algorithm; default GPUTILE_ALGO_AUTO */
    int32_t precision;      /* gputile_precision; default GPUTILE_PRECISION_FP32 */
    int32_t split_k;        /* 0: the planner decides; n >= 1: split k n ways (at most
                               GPUTILE_MAX_SPLIT_K; register-blocked and wgmma algorithms) */
    int32_t algorithm_used; /* out: the algorithm that ran (AUTO resolved) */
    int32_t split_k_used;   /* out: the split of k that ran (1: none) */
    int32_t reserved;       /* must be 0 */
} gputile_gemm_options;

#define GPUTILE_MAX_SPLIT_K 64

#define GPUTILE_GEMM_OPTIONS_INIT \
    { sizeof(gputile_gemm_options), GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, 0, 0, 0 }

/* C = alpha * op(A) * op(B) + beta * C, FP32, row-major.
 * op(A) is m x k, op(B) is k x n, C is m x n. m or n = 0 is a successful
 * no-op; k = 0 or alpha = 0 sets C = beta * C without reading A or B; beta = 0
 * overwrites C without reading it (NaN in C does not propagate).
 * Device matrices: asynchronous on `stream`. Any host matrix: moved through
 * device memory in tiles, transfers overlapped with the kernels, and the
 * call returns when C holds the result.
 * options may be NULL (defaults). Bad arguments are rejected before anything
 * is written; after a CUDA failure a host C may hold some finished tiles. */
GPUTILE_WARN_UNUSED
gputile_status gputile_gemm(gputile_op trans_a, gputile_op trans_b, float alpha,
                            gputile_matrix a, gputile_matrix b, float beta,
                            gputile_matrix c, struct CUstream_st *stream,
                            gputile_gemm_options *options);

/* C = A * B on the default stream; returns when C holds the result. */
GPUTILE_WARN_UNUSED
gputile_status gputile_matmul(gputile_matrix a, gputile_matrix b, gputile_matrix c);

/* The name of an algorithm value: "auto", "naive", "tiled", "regblock128",
 * "regblock64", "regblock128w64", "regblock128x256", "wgmma128x128",
 * "wgmma128x256", "regblock64x128", "regblock64x128x3", "batched16",
 * "batched32", "batched64", "async128x128", "async128x256", "async64x128",
 * "async128x64", "async64x64", "async128x32", "async32x128", "async64x64w8",
 * "batched8x64", "batched64x8", "async64x32", "async32x64", "batched8x32",
 * "batched32x8", "batched16k", "batched32k"; NULL for an unknown value. (test_status checks that this list and the README name them all.) */
const char *gputile_algorithm_name(int algorithm);

/* ---- Histogram ------------------------------------------------------------
 * Counts of samples in nbins bins, 64-bit, in device memory. The plan picks
 * per call where the counts live while the samples stream past: one block's
 * shared memory (privatised copies), a thread-block cluster's combined
 * shared memory (compute capability 9.0), or global memory; `man 3
 * gputile_histogram` explains the tiers and the plan. */
typedef enum gputile_hist_tier {
    GPUTILE_HIST_TIER_AUTO = 0,   /* request only: the planner's choice */
    GPUTILE_HIST_TIER_SHARED = 1, /* privatised copies in one block's shared memory */
    GPUTILE_HIST_TIER_DSM = 2,    /* one slice of the bins per block of a cluster */
    GPUTILE_HIST_TIER_GLOBAL = 3, /* 64-bit atomics on the counts, through the L2 */
    GPUTILE_HIST_TIER_ROUTE = 4,  /* bins in slices across the whole GPU, samples
                                     sorted by slice through device scratch */
    GPUTILE_HIST_TIER_SEED = 5    /* the Programming Guide's cluster kernel: remote
                                     shared-memory atomics (reference; never AUTO) */
} gputile_hist_tier;

typedef enum gputile_hist_mode {
    GPUTILE_HIST_OVERWRITE = 0, /* counts = histogram */
    GPUTILE_HIST_ACCUMULATE = 1 /* counts += histogram */
} gputile_hist_mode;

/* Options and plan of the histogram calls. Initialise with
 * GPUTILE_HISTOGRAM_OPTIONS_INIT so that `size` records which version of
 * the struct the caller knows; the library reads and writes only the
 * fields that size covers, and needs at least this release's struct (a
 * smaller size is GPUTILE_ERROR_INVALID_VALUE). */
typedef struct gputile_histogram_options {
    size_t size;               /* sizeof(gputile_histogram_options) */
    int32_t tier;              /* gputile_hist_tier to use; default GPUTILE_HIST_TIER_AUTO */
    int32_t cluster_size;      /* blocks per cluster, DSM and SEED tiers only (1..16); 0: planner's choice */
    int32_t reserved;          /* must be 0 */
    int32_t tier_used;         /* out: the tier that ran (never AUTO) */
    int32_t cluster_size_used; /* out: blocks per cluster; 1 outside the DSM and SEED tiers */
    int32_t copies_used;       /* out: copies of each bin per block; 0 in the global tier */
    int32_t bins_per_block;    /* out: bins one block holds; 0 in the global tier */
    int32_t blocks_used;       /* out: blocks per launch */
} gputile_histogram_options;

#define GPUTILE_HISTOGRAM_OPTIONS_INIT \
    { sizeof(gputile_histogram_options), GPUTILE_HIST_TIER_AUTO, 0, 0, 0, 0, 0, 0, 0 }

/* Histogram of n int32 samples: sample x counts in bin min(max(x, 0), nbins - 1)
 * (below 0 in bin 0, at or above nbins in the last bin). samples and counts
 * are device (or managed) memory of the current device; samples 4-byte and
 * counts 8-byte aligned; counts has nbins elements. Asynchronous on stream.
 * n = 0 is an empty histogram. options may be NULL (defaults); on success
 * its *_used fields report the plan that ran. On error nothing is written. */
GPUTILE_WARN_UNUSED
gputile_status gputile_histogram_i32(const int32_t *samples, size_t n, int32_t nbins,
                                     uint64_t *counts, gputile_hist_mode mode,
                                     struct CUstream_st *stream,
                                     gputile_histogram_options *options);

/* Histogram of n float samples in nbins even bins over [lower, upper): x
 * counts in bin floor((x - lower) * s), s = nbins / (upper - lower) rounded
 * to float, evaluated in float, a result >= nbins in the last bin. Samples
 * outside [lower, upper), NaN and infinities are not counted. lower and upper
 * finite, lower < upper, upper - lower finite in float. Otherwise as
 * gputile_histogram_i32(). */
GPUTILE_WARN_UNUSED
gputile_status gputile_histogram_f32(const float *samples, size_t n, float lower, float upper,
                                     int32_t nbins, uint64_t *counts, gputile_hist_mode mode,
                                     struct CUstream_st *stream,
                                     gputile_histogram_options *options);

/* The plan a histogram of nbins bins gets on the current device, for the
 * tier and cluster size requested in *options (both may be left at their
 * defaults): fills the *_used fields; blocks_used assumes a large input.
 * GPUTILE_ERROR_UNSUPPORTED when the requested tier cannot hold nbins here. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(2)
gputile_status gputile_histogram_plan(int32_t nbins, gputile_histogram_options *options);

/* "auto", "shared", "dsm", "global", "route", "seed"; NULL for an unknown value. */
const char *gputile_hist_tier_name(int tier);

/* ---- end of histogram ---- */



/* ---- Pinned host memory ------------------------------------------------------
 * (issue 5) Page-locked ("pinned") host memory, the Programming Guide's
 * 6.2.6: the GPU's copy engines read and write it directly (55.6 GB/s on an
 * H200 against ~10 GB/s from ordinary memory), but pinning is slow
 * (cudaHostAlloc: ~340 ms per GiB; cudaHostRegister: ~36 ms per GiB). Hence
 * a pool that keeps freed blocks pinned, and copies that move ordinary
 * (pageable) memory through pooled pinned buffers. Man pages:
 * gputile_pinned_alloc.3, gputile_pool.3, gputile_copy.3. All thread-safe. */

/* Flags of gputile_pinned_alloc(), gputile_pool_alloc() and (PORTABLE and
 * MAPPED only) gputile_pinned_register(); combine with |. */
#define GPUTILE_PINNED_DEFAULT 0u        /* page-locked, for the current CUDA context */
#define GPUTILE_PINNED_PORTABLE 0x1u     /* page-locked for every CUDA context */
#define GPUTILE_PINNED_MAPPED 0x2u       /* also mapped into the device's address space:
                                          * see gputile_pinned_device_pointer() */
#define GPUTILE_PINNED_WRITE_COMBINED 0x4u /* write-combined: fast host writes and device
                                            * reads; host reads are very slow (alloc only) */

/* Allocates `bytes` (> 0) of pinned host memory with `flags`. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_pinned_alloc(void **ptr, size_t bytes, unsigned flags);
/* Frees memory from gputile_pinned_alloc(); NULL is a no-op. No work queued
 * on any stream may still use it. */
gputile_status gputile_pinned_free(void *ptr);
/* Pins existing host memory [ptr, ptr + bytes): any address and length; the
 * whole pages that hold the range are registered. Ranges whose pages overlap
 * an earlier registration or a pinned allocation return
 * GPUTILE_ERROR_ALREADY_REGISTERED. flags: PORTABLE and/or MAPPED. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_pinned_register(void *ptr, size_t bytes, unsigned flags);
/* Unpins memory registered with gputile_pinned_register(ptr, ...): the same ptr. */
GPUTILE_WARN_UNUSED
gputile_status gputile_pinned_unregister(void *ptr);
/* The device address of host_ptr, which lies inside memory allocated or
 * registered (gputile_pinned_alloc, _register, gputile_pool_alloc) with
 * GPUTILE_PINNED_MAPPED: kernels read and write the host memory through it. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_pinned_device_pointer(void **device_ptr, const void *host_ptr);

/* ---- The pinned-memory pool (process-wide) ----
 * gputile_pool_alloc() returns a cached block of the same size class and
 * flags when one is free (microseconds), else a fresh pinned block. Size
 * classes are 4 per power of two (at most 25% unused), pages at least.
 * gputile_pool_free() keeps the block cached while the cached bytes stay
 * within the limit, oldest blocks leaving first. */
#define GPUTILE_POOL_DEFAULT_LIMIT ((size_t)2 << 30) /* cached bytes kept: 2 GiB */

GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_pool_alloc(void **ptr, size_t bytes, unsigned flags);
/* Returns a block to the pool; NULL is a no-op. No queued work may still use it. */
gputile_status gputile_pool_free(void *ptr);
/* The most bytes the pool keeps cached (idle); blocks in use never count.
 * Cached blocks above a lower limit are freed at once. 0 caches nothing. */
gputile_status gputile_pool_set_limit(size_t bytes);
/* Frees every cached block (blocks in use stay valid), and the pinned
 * bounce buffers gputile_copy() and the host GEMM keep while idle. */
gputile_status gputile_pool_release(void);

typedef struct gputile_pool_stats {
    size_t size;          /* sizeof(gputile_pool_stats), set by the caller */
    size_t limit;         /* the limit on cached bytes */
    size_t in_use_bytes;  /* bytes of blocks handed out (class sizes) */
    size_t in_use_blocks;
    size_t cached_bytes;  /* bytes of idle blocks kept pinned */
    size_t cached_blocks;
    size_t hits;          /* allocations served from the cache, since start */
    size_t misses;        /* allocations that pinned fresh memory, since start */
} gputile_pool_stats;
#define GPUTILE_POOL_STATS_INIT { sizeof(gputile_pool_stats), 0, 0, 0, 0, 0, 0, 0 }

/* Fills the fields of *stats that stats->size covers. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_pool_get_stats(gputile_pool_stats *stats);

/* ---- Copies between host memory and the device ----
 * Copies `bytes` from src to dst where one side is device (or managed) memory
 * and the other host memory of any kind, or both are device memory. The
 * copy is ordered after the work already queued on `stream`.
 *  - Pinned host memory (any page-locked memory CUDA knows; the whole range
 *    inside one allocation or registration), and device-to-device: queued
 *    asynchronously, like cudaMemcpyAsync. The source may be reused and the
 *    destination read once the stream has reached the copy
 *    (cudaStreamSynchronize, an event).
 *  - Pageable (ordinary) host memory: by the driver's call, one pinned
 *    bounce buffer, or pooled pinned buffers filled or drained by the
 *    library's copy threads, by size (crossovers: gputile_copy.3).
 *    Host->device returns when the source may be reused; the destination is
 *    complete in the order of `stream` (as cudaMemcpyAsync from pageable
 *    memory; issue 21). Device->host returns when the destination holds the
 *    data. A buffer kept with gputile_copy_cache(): complete on return.
 * bytes = 0 is a successful no-op. */
GPUTILE_WARN_UNUSED
gputile_status gputile_copy(void *dst, const void *src, size_t bytes, struct CUstream_st *stream);

/* ---- end of pinned host memory ---- */

/* ---- Copies: the registration cache (issue 21) ----
 * Keeps a user's pageable buffer registered (page-locked) across
 * gputile_copy() calls, so that a loop copying the same buffer runs at the
 * pinned DMA rate instead of being staged each time; copies of it keep the
 * pageable contract (complete on return). The library never sees free():
 * call gputile_copy_uncache() before the memory is freed or unmapped.
 * Man page: gputile_copy_cache.3. Thread-safe. */

/* Caches [host, host + bytes) (bytes > 0): registers the pages that hold
 * it. Again with the same host and a range inside the cached one: a no-op.
 * A range whose pages overlap another registration, a pinned allocation or
 * memory pinned outside libgputile: GPUTILE_ERROR_ALREADY_REGISTERED. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1)
gputile_status gputile_copy_cache(const void *host, size_t bytes);
/* Drops the registration gputile_copy_cache(host, ...) made (the same
 * host). No copy of the buffer may be running. */
GPUTILE_WARN_UNUSED
gputile_status gputile_copy_uncache(const void *host);

/* ---- Batched GEMM (issue 20) ------------------------------------------------
 * Many products of one shape in one call (man 3 gputile_gemm_batched):
 * C_i = alpha * op(A_i) * op(B_i) + beta * C_i for i < count, with the
 * alpha, beta, transposes, stream and options of gputile_gemm() (options'
 * split_k is not used: batches run unsplit, split_k_used reports 1; the
 * TF32 precisions are AUTO's: the tensor-core kernel where it takes the
 * batch, else the FP32 rows, as algorithm_used says; a named algorithm
 * must be a register-blocked, cp.async or GPUTILE_ALGO_BATCHED_* one,
 * else GPUTILE_ERROR_UNSUPPORTED). Device memory only: any host
 * operand is GPUTILE_ERROR_UNSUPPORTED. Asynchronous on `stream`. count = 0
 * and empty C are successful no-ops. Bad arguments (per problem as in
 * gputile_gemm(), a C overlapping any other C or any A or B, a batch beyond
 * the address space) are rejected before anything is written. */

/* Strided batch: problem i uses a.elements + i * stride_a, b.elements +
 * i * stride_b and c.elements + i * stride_c (strides in elements, each
 * matrix keeping its own row stride). stride_a or stride_b 0 reuses one
 * matrix for every problem; with count > 1, stride_c must be at least C's
 * footprint ((c.height - 1) * c.stride + c.width), else
 * GPUTILE_ERROR_ALIASING. */
GPUTILE_WARN_UNUSED
gputile_status gputile_gemm_strided_batched(gputile_op trans_a, gputile_op trans_b, float alpha,
                                            gputile_matrix a, size_t stride_a, gputile_matrix b,
                                            size_t stride_b, float beta, gputile_matrix c,
                                            size_t stride_c, size_t count,
                                            struct CUstream_st *stream,
                                            gputile_gemm_options *options);

/* Batch of views: problem i uses a[i], b[i], c[i] (host arrays of count
 * matrices; all A the same shape, likewise B and C; row strides and
 * parents may differ). The library copies the arrays to the device itself:
 * they may be reused as soon as the call returns. a, b, c may be NULL when
 * count is 0. */
GPUTILE_WARN_UNUSED
gputile_status gputile_gemm_batched(gputile_op trans_a, gputile_op trans_b, float alpha,
                                    const gputile_matrix *a, const gputile_matrix *b, float beta,
                                    const gputile_matrix *c, size_t count,
                                    struct CUstream_st *stream, gputile_gemm_options *options);

/* ---- end of batched GEMM ---- */

/* ---- Beyond one GPU: NCCL collectives and several devices (issue 22) ------------
 * NCCL is the engine: the calls below take the caller's communicator
 * (an ncclComm_t, passed as `void *comm` so that this header needs no NCCL
 * header) and a stream of the communicator's device, which must be the
 * current device; the library keeps nothing global. Every rank of the
 * communicator makes the same call with the same global arguments (nbins,
 * root, mode, shapes, alpha, beta, options), as NCCL's own collectives
 * require. The communicator must be a blocking one (NCCL's default), and
 * each rank's call made from its own thread or process, outside any
 * ncclGroupStart()/ncclGroupEnd() (the library queues work behind the
 * collectives it issues). A rank that fails once it has read the
 * communicator may leave the others waiting in a collective: abort the
 * communicator (ncclCommAbort()). Built only with `./configure --with-nccl`; otherwise the NCCL calls return
 * GPUTILE_ERROR_UNSUPPORTED. gputile_dist_block() and gputile_gemm_devices()
 * need no NCCL and work in every build. Man pages: gputile_dist_histogram.3,
 * gputile_dist_gemm.3, gputile_dist_block.3, gputile_gemm_devices.3. */

/* The ncclResult_t behind the last GPUTILE_ERROR_NCCL returned to this
 * thread (0, ncclSuccess, if none); kept per thread until the next NCCL
 * failure in that thread. */
int gputile_last_nccl_error(void);
/* Its name, e.g. "ncclInvalidArgument"; "ncclSuccess" if none. Never NULL. */
const char *gputile_last_nccl_error_name(void);

/* root of the distributed histogram calls: every rank receives the total. */
#define GPUTILE_DIST_ALL_RANKS (-1)

/* Distributed histogram: each rank histograms its n local samples (device
 * memory of the current device, as gputile_histogram_i32/_f32 take them)
 * and the 64-bit counts of all ranks are summed with NCCL: into every
 * rank's counts (root = GPUTILE_DIST_ALL_RANKS, an all-reduce) or into
 * root's counts only (0 <= root < ranks, a reduce; counts is not touched
 * and may be NULL on the other ranks). mode OVERWRITE: counts = total;
 * ACCUMULATE: counts += total. Asynchronous on stream; options as the local
 * call's (its *_used fields report this rank's plan). */
GPUTILE_WARN_UNUSED
gputile_status gputile_dist_histogram_i32(const int32_t *samples, size_t n, int32_t nbins,
                                          uint64_t *counts, gputile_hist_mode mode, int root,
                                          void *comm, struct CUstream_st *stream,
                                          gputile_histogram_options *options);
GPUTILE_WARN_UNUSED
gputile_status gputile_dist_histogram_f32(const float *samples, size_t n, float lower,
                                          float upper, int32_t nbins, uint64_t *counts,
                                          gputile_hist_mode mode, int root, void *comm,
                                          struct CUstream_st *stream,
                                          gputile_histogram_options *options);
/* The sum of every rank's nbins counts in `local` (device memory, e.g. the
 * output of any gputile_histogram_* call), into counts as the calls above
 * (root, mode, NULL counts off root). local and counts may be the same
 * array only in OVERWRITE mode. For sample types without a
 * gputile_dist_histogram_* call of their own. */
GPUTILE_WARN_UNUSED
gputile_status gputile_dist_histogram_reduce(const uint64_t *local, int32_t nbins,
                                             uint64_t *counts, gputile_hist_mode mode, int root,
                                             void *comm, struct CUstream_st *stream);

/* The block of `total` items (rows) that rank `rank` of `ranks` holds in
 * the distributed layouts: *count = total / ranks, plus one for the first
 * total % ranks ranks; *offset = the items of the ranks before it. So
 * ranks 0, 1, ... hold consecutive blocks, balanced to within one item.
 * GPUTILE_ERROR_INVALID_VALUE unless 0 <= rank < ranks. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(4, 5)
gputile_status gputile_dist_block(size_t total, int ranks, int rank, size_t *offset,
                                  size_t *count);

/* Layouts of gputile_dist_gemm(). */
typedef enum gputile_dist_layout {
    /* 1-D row blocks: with P ranks and C = op(A) op(B) of m x n x k, rank r
     * holds rows gputile_dist_block(m, P, r) of op(A) (all k columns) and
     * of C (all n columns), and rows gputile_dist_block(k, P, r) of op(B)
     * (all n columns). Local matrices are stored as the caller's op says:
     * with GPUTILE_OP_T the local a is the transpose of op(A)'s block
     * (k x m_r), the local b that of op(B)'s (n x k_r). */
    GPUTILE_DIST_ROWS = 0
} gputile_dist_layout;

/* Distributed C = alpha * op(A) * op(B) + beta * C over the communicator's
 * ranks in `layout`, SUMMA-style: op(B)'s blocks are broadcast (ncclBroadcast)
 * in panels of at most GPUTILE_DIST_PANEL rows while each rank multiplies
 * the previous panel with gputile_gemm() on its own block (options as
 * gputile_gemm()'s: every algorithm and precision), on two streams joined
 * by events. a, b and c are this rank's blocks, in device memory of the
 * current device. Asynchronous on stream: the ranks' results are in c once
 * stream reaches the end of the call. */
#define GPUTILE_DIST_PANEL 4096
GPUTILE_WARN_UNUSED
gputile_status gputile_dist_gemm(gputile_dist_layout layout, gputile_op trans_a,
                                 gputile_op trans_b, float alpha, gputile_matrix a,
                                 gputile_matrix b, float beta, gputile_matrix c, void *comm,
                                 struct CUstream_st *stream, gputile_gemm_options *options);

/* gputile_gemm() on host matrices (pageable or pinned) with the devices
 * listed in devices[0 .. ndevices - 1] (distinct ordinals): C is cut into
 * a grid of ndevices blocks (rows x columns chosen so that each device moves
 * the fewest elements of op(A) and op(B): 2 devices split C's longer side,
 * 4 take 2 x 2 blocks of a square C), balanced in multiples of 128, and
 * each device computes its block with the overlapped host pipeline of
 * gputile_gemm(), on a thread of its own.
 * Needs no NCCL. Returns when C holds the result; the calling thread's
 * current device is unchanged. options as gputile_gemm()'s; the *_used
 * fields report the first device's plan. */
GPUTILE_WARN_UNUSED
gputile_status gputile_gemm_devices(const int *devices, int ndevices, gputile_op trans_a,
                                    gputile_op trans_b, float alpha, gputile_matrix a,
                                    gputile_matrix b, float beta, gputile_matrix c,
                                    gputile_gemm_options *options);

/* ---- end of beyond one GPU ---- */

/* ---- Histograms of images and typed samples (issue 19) ----
 * 8-, 16- and 32-bit integer and float samples, read as a 2-D image of
 * height rows of width pixels, each pixel `channels` interleaved samples
 * (1 to 4: gray, gray+alpha, RGB, RGBA), rows row_stride_bytes apart (any
 * pitch: a region of interest of a larger image is a view of it, no copy).
 * Each channel gets its own histogram: even bins over [lower, upper), or
 * bins between sorted edges. `man 3 gputile_histogram_even`. */
typedef enum gputile_sample_type {
    GPUTILE_SAMPLE_U8 = 0,  /* uint8_t */
    GPUTILE_SAMPLE_U16 = 1, /* uint16_t */
    GPUTILE_SAMPLE_I16 = 2, /* int16_t */
    GPUTILE_SAMPLE_I32 = 3, /* int32_t */
    GPUTILE_SAMPLE_F32 = 4  /* float */
} gputile_sample_type;

/* The samples: pixel (x, y), channel c is the sample at byte address
 * samples + y * row_stride_bytes + (x * channels + c) * (sample size).
 * samples: device (or managed) memory of the current device, aligned to
 * the sample size; row_stride_bytes a multiple of the sample size and at
 * least width * channels * (sample size) when height > 1. An image with
 * width or height 0 is empty. Initialise with GPUTILE_HIST_INPUT_INIT. */
typedef struct gputile_hist_input {
    size_t size;             /* sizeof(gputile_hist_input) */
    const void *samples;     /* the first sample of row 0 */
    int32_t type;            /* gputile_sample_type */
    int32_t channels;        /* interleaved samples per pixel, 1..4 */
    size_t width;            /* pixels per row */
    size_t height;           /* rows */
    size_t row_stride_bytes; /* bytes from the start of one row to the next */
} gputile_hist_input;

#define GPUTILE_HIST_INPUT_INIT \
    { sizeof(gputile_hist_input), NULL, GPUTILE_SAMPLE_U8, 1, 0, 0, 0 }

/* Even bins of one channel: nbins (1 .. GPUTILE_HIST_MAX_BINS) bins over
 * [lower, upper). Integer samples: lower and upper are integers in
 * [-2^33, 2^33], and x counts in bin (x - lower) * nbins / (upper - lower),
 * evaluated exactly in integer arithmetic (rounded down). Float samples:
 * lower and upper finite, x counts in bin floor((x - lower) * s) with
 * s = nbins / (upper - lower), all in double, a result >= nbins in the
 * last bin. Samples outside [lower, upper), NaN and infinities are not
 * counted. */
typedef struct gputile_hist_even {
    int32_t nbins;
    int32_t reserved; /* must be 0 */
    double lower, upper;
} gputile_hist_even;

#define GPUTILE_HIST_MAX_BINS (1 << 24)

/* Even-bin histograms of each channel of *input: channel c's counts
 * (levels[c].nbins of them, 64-bit, 8-byte aligned, device memory) at
 * counts[c]. levels and counts are host arrays of input->channels
 * entries. mode, stream and options as for gputile_histogram_i32(); the
 * DSM tier is not offered (GPUTILE_ERROR_UNSUPPORTED). On error nothing
 * is written. */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1, 2, 3)
gputile_status gputile_histogram_even(const gputile_hist_input *input,
                                      const gputile_hist_even levels[], uint64_t *const counts[],
                                      gputile_hist_mode mode, struct CUstream_st *stream,
                                      gputile_histogram_options *options);

/* Histograms of each channel of *input in bins between edges: channel c
 * has nedges[c] (2 .. GPUTILE_HIST_MAX_BINS + 1) finite, strictly
 * increasing edges at edges[c] (host memory, read during the call), and
 * nedges[c] - 1 counts at counts[c]; x counts in bin i when
 * edges[c][i] <= x < edges[c][i + 1]. Samples below the first edge, at or
 * above the last, and NaN are not counted. Otherwise as
 * gputile_histogram_even(). */
GPUTILE_WARN_UNUSED GPUTILE_NONNULL(1, 2, 3, 4)
gputile_status gputile_histogram_range(const gputile_hist_input *input, const int32_t nedges[],
                                       const double *const edges[], uint64_t *const counts[],
                                       gputile_hist_mode mode, struct CUstream_st *stream,
                                       gputile_histogram_options *options);

/* ---- end of histograms of images (issue 19) ---- */

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_H */
