/* SPDX-License-Identifier: MIT */
/*
 * kernels.h: the C-callable launchers of kernels/ (internal to libgputile).
 *
 * lib/ validates and plans; a launcher only launches. Every launcher takes
 * arguments that lib/ has already checked, enqueues its kernel(s) on
 * `stream` and returns the launch's cudaError_t.
 */
#ifndef GPUTILE_KERNELS_H
#define GPUTILE_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gemm_variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha * op(A) * op(B) + beta * C on row-major matrices, all in device
 * memory; m, n, k >= 1; strides in elements. beta == 0 never reads C. */
typedef struct gputile__gemm_args {
    int64_t m, n, k;
    int trans_a, trans_b; /* 0: as stored; 1: transposed */
    float alpha, beta;
    const float *a;
    int64_t lda;
    const float *b;
    int64_t ldb;
    float *c;
    int64_t ldc;
    /* Batches (issue 20; all 0 / NULL in the plain call). batch >= 1: the
     * launch runs problems z < batch (rows that take a batch: blockIdx.y of
     * the register-blocked rows, the work list of the BATCHED rows), problem
     * z on a + z stride_a, b + z stride_b, c + z stride_c with lda, ldb, ldc;
     * with views != NULL on views[z] (device memory) instead. */
    int64_t batch;
    int64_t stride_a, stride_b, stride_c;
    const struct gputile__gemm_view *views;
} gputile__gemm_args;

/* One problem of a batch of views: its operands' first elements and row
 * strides (lib/gemm_batched.c fills an array of these in device memory). */
typedef struct gputile__gemm_view {
    const float *a;
    const float *b;
    float *c;
    int64_t lda, ldb, ldc;
} gputile__gemm_view;

/* The most splits of k a cp.async row sums in one cluster: the portable
 * cluster size (more take the workspace and the reduction launch). */
#define GPUTILE__GEMM_MAX_CLUSTER 8

/* What lib/gemm_plan.c decided for one launch of a variant (a row of
 * gemm_variants.h); the launcher does exactly this. Workspace pointers
 * come from lib/, sized by gputile__gemm_plan_launch(). */
typedef struct gputile__gemm_plan {
    int splits;          /* blockIdx.z: k split this many ways (1: none) */
    int64_t k_per_split; /* k of each split, a multiple of the row's bk */
    int64_t full_tiles;  /* GPUTILE__GEMM_TAIL: tiles run whole, in the grouped order... */
    int tail_splits;     /* ...the rest each split this many ways along k (0: no tail split) */
    int64_t tail_k;      /* k of each tail split, a multiple of bk */
    int vec_a, vec_b;    /* 16-byte loads of A, B (rows 16-byte aligned); GPUTILE__GEMM_VEC rows */
    int swap;            /* GPUTILE__GEMM_TMA: compute C^T = op(B)^T op(A)^T */
    int pack_r, pack_d;  /* GPUTILE__GEMM_TMA: R, D' packed K-major (ld_pack floats apart) first;
                            GPUTILE__GEMM_ASYNC: A as A^T (k x m), B^T as B (k x n) */
    int64_t ld_pack;
    int reduce_blocks; /* grid of the reduction kernels (a few per SM) */
    float *work;       /* splits > 1: splits x m x n partials */
    float *tail_work;  /* tail: (tiles - full_tiles) x tail_splits x bm x bn partials */
    float *pack_r_buf, *pack_d_buf;
    int64_t grid_blocks; /* GPUTILE__GEMM_PERSISTENT and _TILE_LOOP rows: blocks of the launch */
    int cluster;         /* GPUTILE__GEMM_ASYNC, splits 2..8: the splits of a tile run as one
                    cluster and sum in shared memory (no work, no reduction launch) */
    int l1_copies; /* GPUTILE__GEMM_PERSISTENT rows: 16-byte copies through the L1 (else L2 only) */
    int perm_r;    /* GPUTILE__GEMM_TMA: R K-major with rows TMA cannot address (not 16-byte
                   aligned), read in place as 4 classes of rows (row mod 4) */
    int staged_c;  /* GPUTILE__GEMM_TMA: C (or the split's partials) goes through the staged
                      store even where the fragments' own stores would fill whole sectors */
    int split_d;   /* GPUTILE__GEMM_SPLIT_D: the pre-pass writes D' (packed or not) as big and
                      small parts into pack_d_buf, the small ones after the big (twice its size) */
    int half_k;    /* GPUTILE__GEMM_HALF_K rows: k <= bk / 2, the kernel that copies and
                      multiplies half a slice */
} gputile__gemm_plan;

/* One launcher per row of gemm_variants.h: gputile__gemm_run_<ID>. The
 * split-K reduction and the thin edges are lib/'s separate launches. */
typedef cudaError_t (*gputile__gemm_launcher)(const gputile__gemm_args *args,
                                              const gputile__gemm_plan *plan, cudaStream_t stream);
#define GPUTILE__GEMM_DECLARE_RUN(id, ...)                             \
    cudaError_t gputile__gemm_run_##id(const gputile__gemm_args *args, \
                                       const gputile__gemm_plan *plan, cudaStream_t stream);
GPUTILE__GEMM_VARIANTS(GPUTILE__GEMM_DECLARE_RUN)
#undef GPUTILE__GEMM_DECLARE_RUN

/* Blocks per SM of the register-blocked row `variant`'s instantiation for
 * these transposes and load widths (the tail split's wave size). */
cudaError_t gputile__gemm_regblock_blocks_per_sm(int variant, int trans_a, int trans_b, int vec_a,
                                                 int vec_b, int *blocks);
/* The same for the cp.async-fed rows (GPUTILE__GEMM_ASYNC, gemm_async.cu). */
cudaError_t gputile__gemm_async_blocks_per_sm(int variant, int trans_a, int trans_b, int vec_a,
                                              int vec_b, int *blocks);
/* Clusters of `cluster` blocks of the cp.async row `variant` (NN) that can
 * be resident at once on the current device. */
cudaError_t gputile__gemm_async_max_clusters(int variant, int cluster, int *clusters);
/* *yes when this build's cp.async rows carry the cluster reduction
 * (compiled for sm_90 or later) and run here. */
cudaError_t gputile__gemm_async_clusters(int *yes);
/* C = alpha * (sum over z < splits of work[z * m * n + row * n + col], in
 * order of z) + beta * C: the deterministic split-K reduction. */
cudaError_t gputile__gemm_splitk_reduce(const gputile__gemm_args *args, int splits,
                                        const float *work, int blocks, cudaStream_t stream);
/* The one to four columns n_main..n of C (all its rows) and rows m_main..m
 * (columns below n_main) that whole tiles leave, as products one to four
 * wide, bound by reading the large operand (gemm_thin.cu); adds in a fixed
 * order. Nothing is launched for a side with none left. */
cudaError_t gputile__gemm_thin_edges(const gputile__gemm_args *args, int64_t m_main, int64_t n_main,
                                     cudaStream_t stream);
/* What the K-major pre-pass writes of each value: itself (TF32's maps
 * round it on the way in), or 3xTF32's big and small parts
 * (kernels/tf32_split.cuh), the small parts rows x ldd floats after the
 * big ones. */
enum { GPUTILE__PACK_COPY, GPUTILE__PACK_SPLIT };
/* dst (rows x k, k contiguous, rows ldd floats apart) = the operand at src
 * stored as k x rows (transpose) or rows x k, ld floats apart, each value
 * as `mode` (GPUTILE__PACK_*) asks. */
cudaError_t gputile__gemm_pack_kmajor(const float *src, int64_t ld, int transpose, int64_t rows,
                                      int64_t k, float *dst, int64_t ldd, int mode,
                                      cudaStream_t stream);
/* *loadable = 1 when this build holds the sm_90a image of the wgmma
 * kernels and the current device (compute capability 9.0, asked by lib/)
 * can load it. */
cudaError_t gputile__gemm_wgmma_loadable(int *loadable);
/* Blocks per SM of the BATCHED row `variant`'s instantiation for these
 * transposes and copy widths of A and B (the persistent grid,
 * gemm_batched.cu). */
cudaError_t gputile__gemm_batched_blocks_per_sm(int variant, int trans_a, int trans_b, int vec_a,
                                                int vec_b, int *blocks);
/* C = beta * C for each problem z < args->batch of args (m x n; views or
 * strides as in gputile__gemm_args; beta == 0 writes zeros, never reads C). */
cudaError_t gputile__gemm_batched_scale(const gputile__gemm_args *args, cudaStream_t stream);
/* Compact views to full ones: view z = {a + offs[4 z], b + offs[4 z + 1],
 * c + offs[4 z + 2]} with row strides lda, ldb, ldc, for z < count (offs:
 * 4 elements' offsets a view, 16-byte aligned; device memory both). */
cudaError_t gputile__gemm_views_expand(const uint32_t *offs, const float *a, const float *b,
                                       float *c, int64_t lda, int64_t ldb, int64_t ldc,
                                       int64_t count, struct gputile__gemm_view *views,
                                       cudaStream_t stream);
/* C = beta * C for an m x n matrix (beta == 0 writes zeros, never reads C). */
cudaError_t gputile__matrix_scale(int64_t m, int64_t n, float beta, float *c, int64_t ldc,
                                  cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_H */
