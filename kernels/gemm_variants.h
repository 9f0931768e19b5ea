/* SPDX-License-Identifier: MIT */
/*
 * gemm_variants.h: the GEMM kernel variants, one row each (internal).
 *
 * The one place a variant is described. lib/gemm_plan.c builds its table
 * from these rows (name lists, option checks, AUTO's candidates, split-K
 * steps, workspace sizes), kernels/ instantiates its launchers from them,
 * and tests/fuzz builds its stubs from them. A new variant of an existing
 * family is one row here; a new family is one file in kernels/ plus its
 * rows. Compiles as C and as CUDA C++.
 *
 * Columns of X(ID, algorithm, name, precision, bm, bn, bk, threads, per_sm,
 *              tm, tn, flags):
 *   ID         internal name; the launcher is gputile__gemm_run_<ID>
 *   algorithm  the public gputile_algorithm value that selects the row
 *   name       that algorithm's public name (gputile_algorithm_name)
 *   precision  the gputile_precision the row computes
 *   bm x bn    the tile of C one block computes
 *   bk         the k slice staged per step; each split of k is a multiple
 *              of it (0: the row takes no split of k)
 *   threads    per block
 *   per_sm     blocks per SM the launch bounds ask for (0: none asked)
 *   tm x tn    outputs per thread (register-blocked rows), else 0 x 0
 *   flags      GPUTILE__GEMM_* below
 */
#ifndef GPUTILE_KERNELS_GEMM_VARIANTS_H
#define GPUTILE_KERNELS_GEMM_VARIANTS_H

#include "gputile.h"

/* Row flags. */
#define GPUTILE__GEMM_SPLITK 0x1u  /* takes a split of k (blockIdx.z), bk per step */
#define GPUTILE__GEMM_TAIL 0x2u    /* AUTO may split the tiles of a last, half-empty wave along k */
#define GPUTILE__GEMM_THIN 0x4u    /* one to four leftover rows or columns go to the thin kernels */
#define GPUTILE__GEMM_VEC 0x8u     /* instantiated with 16-byte loads for aligned operands */
#define GPUTILE__GEMM_TENSOR 0x10u /* wgmma: sm_90a image on a compute capability 9.0 device */
#define GPUTILE__GEMM_TMA 0x20u    /* fed by TMA: orientation and K-major pre-pass planned */
#define GPUTILE__GEMM_PERSISTENT 0x40u /* a persistent grid walks a work list: plan.grid_blocks */
#define GPUTILE__GEMM_ASYNC \
    0x80u /* cp.async-fed FFMA (gemm_async.cu): its own blocks-per-SM query */
/* 0x100u: unused (was SMEM_PREP; every TMA row now reads D' in place where it
 * is K-major and addressable: TF32's maps round it, 3xTF32 splits it) */
#define GPUTILE__GEMM_SPLIT_D \
    0x200u /* TMA, 3xTF32: the pre-pass may split D' into big and small parts instead \
              (plan.split_d) */
#define GPUTILE__GEMM_TILE_LOOP \
    0x400u /* TMA: a grid of at most one block per SM walks the (tile, problem, split) \
              list (plan.grid_blocks) */
#define GPUTILE__GEMM_HALF_K \
    0x800u /* PERSISTENT: a kernel for k within half a slice (k <= bk / 2) copies and \
              multiplies only that half (plan.half_k) */

#define GPUTILE__GEMM_KSPLIT \
    0x1000u /* PERSISTENT: a block's pairs share one tile, each taking every (pairs a \
               block)-th slice of k, added in shared memory (a work item is one pair) */
#define GPUTILE__FP32 GPUTILE_PRECISION_FP32
#define GPUTILE__3XTF32 GPUTILE_PRECISION_FP32_3XTF32
#define GPUTILE__TF32 GPUTILE_PRECISION_TF32

/* The seed's kernels (Kirk & Hwu ch. 4): teaching references and oracles. */
#define GPUTILE__GEMM_SEED_ROWS(X)                                                    \
    X(NAIVE, GPUTILE_ALGO_NAIVE, "naive", GPUTILE__FP32, 16, 16, 0, 256, 0, 0, 0, 0u) \
    X(TILED, GPUTILE_ALGO_TILED, "tiled", GPUTILE__FP32, 16, 16, 16, 256, 0, 0, 0, 0u)

/* Register-blocked FFMA kernels (gemm_regblock.cu). AUTO picks 128x256,
 * 128 (C narrower than 256), 64x128 and 64x128x3, and for small products
 * 64 too; 128w64 stays selectable with scalar loads only (its least
 * costly instantiations). */
#define GPUTILE__GEMM_RB_FLAGS (GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_TAIL | GPUTILE__GEMM_THIN)
#define GPUTILE__GEMM_REGBLOCK_ROWS(X)                                                             \
    X(REGBLOCK_128, GPUTILE_ALGO_REGBLOCK_128, "regblock128", GPUTILE__FP32, 128, 128, 16, 256, 1, \
      8, 8, GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC)                                            \
    X(REGBLOCK_64, GPUTILE_ALGO_REGBLOCK_64, "regblock64", GPUTILE__FP32, 64, 64, 16, 64, 4, 8, 8, \
      GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC)                                                  \
    X(REGBLOCK_128_W64, GPUTILE_ALGO_REGBLOCK_128_W64, "regblock128w64", GPUTILE__FP32, 128, 128,  \
      16, 128, 2, 16, 8, GPUTILE__GEMM_RB_FLAGS)                                                   \
    X(REGBLOCK_128X256, GPUTILE_ALGO_REGBLOCK_128X256, "regblock128x256", GPUTILE__FP32, 128, 256, \
      8, 256, 1, 16, 8, GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC)                                \
    X(REGBLOCK_64X128, GPUTILE_ALGO_REGBLOCK_64X128, "regblock64x128", GPUTILE__FP32, 64, 128, 16, \
      128, 2, 8, 8, GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC)                                    \
    X(REGBLOCK_64X128_X3, GPUTILE_ALGO_REGBLOCK_64X128_X3, "regblock64x128x3", GPUTILE__FP32, 64,  \
      128, 16, 128, 3, 8, 8, GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC)

/* cp.async-fed FFMA kernels (gemm_async.cu): multi-stage shared-memory
 * pipeline, no register staging, edges out of the main loop, serpentine
 * outer product. AUTO picks among them with lib/gemm_plan.c's cost model:
 * the narrower tiles (64 or 32 wide, 64 or 32 tall) are for C with few
 * rows or columns and for more, smaller blocks where the wide tiles would
 * leave a wave half empty. The 32-wide rows take k in slices of 16, so
 * that their 16-byte copies still tile a slice with 128 threads. */
#define GPUTILE__GEMM_ASYNC_FLAGS (GPUTILE__GEMM_RB_FLAGS | GPUTILE__GEMM_VEC | GPUTILE__GEMM_ASYNC)
#define GPUTILE__GEMM_ASYNC_ROWS(X)                                                                \
    X(ASYNC_128X128, GPUTILE_ALGO_ASYNC_128X128, "async128x128", GPUTILE__FP32, 128, 128, 8, 256,  \
      2, 8, 8, GPUTILE__GEMM_ASYNC_FLAGS)                                                          \
    X(ASYNC_128X256, GPUTILE_ALGO_ASYNC_128X256, "async128x256", GPUTILE__FP32, 128, 256, 8, 256,  \
      1, 16, 8, GPUTILE__GEMM_ASYNC_FLAGS)                                                         \
    X(ASYNC_64X128, GPUTILE_ALGO_ASYNC_64X128, "async64x128", GPUTILE__FP32, 64, 128, 8, 128, 3,   \
      8, 8, GPUTILE__GEMM_ASYNC_FLAGS)                                                             \
    X(ASYNC_128X64, GPUTILE_ALGO_ASYNC_128X64, "async128x64", GPUTILE__FP32, 128, 64, 8, 128, 4,   \
      8, 8, GPUTILE__GEMM_ASYNC_FLAGS)                                                             \
    X(ASYNC_64X64, GPUTILE_ALGO_ASYNC_64X64, "async64x64", GPUTILE__FP32, 64, 64, 8, 64, 6, 8, 8,  \
      GPUTILE__GEMM_ASYNC_FLAGS)                                                                   \
    X(ASYNC_128X32, GPUTILE_ALGO_ASYNC_128X32, "async128x32", GPUTILE__FP32, 128, 32, 16, 128, 4,  \
      8, 4, GPUTILE__GEMM_ASYNC_FLAGS)                                                             \
    X(ASYNC_32X128, GPUTILE_ALGO_ASYNC_32X128, "async32x128", GPUTILE__FP32, 32, 128, 16, 128, 4,  \
      8, 4, GPUTILE__GEMM_ASYNC_FLAGS)                                                             \
    X(ASYNC_64X64_W8, GPUTILE_ALGO_ASYNC_64X64_W8, "async64x64w8", GPUTILE__FP32, 64, 64, 16, 256, \
      3, 4, 4, GPUTILE__GEMM_ASYNC_FLAGS)                                                          \
    X(ASYNC_64X32, GPUTILE_ALGO_ASYNC_64X32, "async64x32", GPUTILE__FP32, 64, 32, 8, 64, 8, 8, 4,  \
      GPUTILE__GEMM_ASYNC_FLAGS)                                                                   \
    X(ASYNC_32X64, GPUTILE_ALGO_ASYNC_32X64, "async32x64", GPUTILE__FP32, 32, 64, 8, 64, 8, 4, 8,  \
      GPUTILE__GEMM_ASYNC_FLAGS)

/* Tensor cores (sm_90a): the register-staged kernel (gemm_wgmma.cu), which
 * runs WGMMA_128X128 in TF32 when named, and the TMA-fed kernels
 * (gemm_wgmma_tma.cu), which run everything else. TMA_128X128_TF32 (tiles
 * walked by a grid of one block per SM) is AUTO's alone, for TF32
 * batches and for small TF32 products (lib/gemm_plan.c, tf32_on_128x128),
 * and so is TMA_128X256_TF32_ROUND (the same on 128 x 256 tiles, C stored
 * from the fragments), for TF32 batches of long k
 * (lib/gemm_batched_plan.c): a name finds the first row of its algorithm
 * and precision. */
#define GPUTILE__GEMM_WGMMA_ROWS(X)                                                                \
    X(WGMMA_128X128_TF32, GPUTILE_ALGO_WGMMA_128X128, "wgmma128x128", GPUTILE__TF32, 128, 128, 32, \
      256, 1, 0, 0, GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_VEC | GPUTILE__GEMM_TENSOR)               \
    X(TMA_128X128_3XTF32, GPUTILE_ALGO_WGMMA_128X128, "wgmma128x128", GPUTILE__3XTF32, 128, 128,   \
      32, 384, 1, 0, 0,                                                                            \
      GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_TENSOR | GPUTILE__GEMM_TMA | GPUTILE__GEMM_SPLIT_D)     \
    X(TMA_128X256_TF32, GPUTILE_ALGO_WGMMA_128X256, "wgmma128x256", GPUTILE__TF32, 128, 256, 32,   \
      384, 1, 0, 0, GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_TENSOR | GPUTILE__GEMM_TMA)               \
    X(TMA_128X128_TF32, GPUTILE_ALGO_WGMMA_128X128, "wgmma128x128", GPUTILE__TF32, 128, 128, 32,   \
      384, 1, 0, 0,                                                                                \
      GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_TENSOR | GPUTILE__GEMM_TMA | GPUTILE__GEMM_TILE_LOOP)   \
    X(TMA_128X256_TF32_ROUND, GPUTILE_ALGO_WGMMA_128X256, "wgmma128x256", GPUTILE__TF32, 128, 256, \
      32, 384, 1, 0, 0,                                                                            \
      GPUTILE__GEMM_SPLITK | GPUTILE__GEMM_TENSOR | GPUTILE__GEMM_TMA | GPUTILE__GEMM_TILE_LOOP)

/* Batches of small products (gemm_batched.cu, issue 20): a persistent
 * grid of 4-warp blocks walks the list of (problem, bm x bn tile of C)
 * pairs, 128 / (threads per tile) pairs per block at a time, A and B
 * slices copied to shared memory with cp.async (16 bytes where aligned)
 * one step ahead of the FFMAs. Any shape (C in bm x bn tiles, k in slices
 * of bk); AUTO picks them for batches of small C. 8 x 64 and 64 x 8
 * (four tiles a block, a warp each) are for batches with C a few rows or
 * columns wide, where a square tile would mostly multiply zeros. 8 x 32
 * (eight tiles a block, 16 threads each, k in slices of 8) is for C at
 * most 8 rows tall and a few dozen wide: where C has 4 rows, half of its
 * multiply-adds are C's, against a quarter of a 16 x 16 tile's
 * (4 x 21 x 297 on batched16: 0.68x cuBLAS, on 8 x 32: 0.97x). */
#define GPUTILE__GEMM_BATCHED_ROWS(X)                                                              \
    X(BATCHED_16, GPUTILE_ALGO_BATCHED_16, "batched16", GPUTILE__FP32, 16, 16, 16, 128, 5, 4, 4,   \
      GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT | GPUTILE__GEMM_HALF_K)                         \
    X(BATCHED_32, GPUTILE_ALGO_BATCHED_32, "batched32", GPUTILE__FP32, 32, 32, 16, 128, 4, 4, 8,   \
      GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT | GPUTILE__GEMM_HALF_K)                         \
    X(BATCHED_64, GPUTILE_ALGO_BATCHED_64, "batched64", GPUTILE__FP32, 64, 64, 16, 128, 4, 4, 8,   \
      GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT | GPUTILE__GEMM_HALF_K)                         \
    X(BATCHED_8X64, GPUTILE_ALGO_BATCHED_8X64, "batched8x64", GPUTILE__FP32, 8, 64, 16, 128, 5, 4, \
      4, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT)                                             \
    X(BATCHED_64X8, GPUTILE_ALGO_BATCHED_64X8, "batched64x8", GPUTILE__FP32, 64, 8, 16, 128, 4, 4, \
      4, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT)                                             \
    X(BATCHED_8X32, GPUTILE_ALGO_BATCHED_8X32, "batched8x32", GPUTILE__FP32, 8, 32, 8, 128, 5, 4,  \
      4, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT)                                             \
    X(BATCHED_32X8, GPUTILE_ALGO_BATCHED_32X8, "batched32x8", GPUTILE__FP32, 32, 8, 8, 128, 5, 4,  \
      4, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT)                                             \
    X(BATCHED_16_KS, GPUTILE_ALGO_BATCHED_16_KSPLIT, "batched16k", GPUTILE__FP32, 16, 16, 16, 128, \
      5, 4, 4, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT | GPUTILE__GEMM_KSPLIT)                \
    X(BATCHED_32_KS, GPUTILE_ALGO_BATCHED_32_KSPLIT, "batched32k", GPUTILE__FP32, 32, 32, 16, 128, \
      4, 4, 8, GPUTILE__GEMM_VEC | GPUTILE__GEMM_PERSISTENT | GPUTILE__GEMM_KSPLIT)

#define GPUTILE__GEMM_VARIANTS(X)  \
    GPUTILE__GEMM_SEED_ROWS(X)     \
    GPUTILE__GEMM_REGBLOCK_ROWS(X) \
    GPUTILE__GEMM_WGMMA_ROWS(X) GPUTILE__GEMM_BATCHED_ROWS(X) GPUTILE__GEMM_ASYNC_ROWS(X)

/* Row numbers: GPUTILE__GEMM_V_<ID>. */
enum {
#define GPUTILE__GEMM_ROW_ENUM(id, ...) GPUTILE__GEMM_V_##id,
    GPUTILE__GEMM_VARIANTS(GPUTILE__GEMM_ROW_ENUM)
#undef GPUTILE__GEMM_ROW_ENUM
        GPUTILE__GEMM_N_VARIANTS
};

#endif /* GPUTILE_KERNELS_GEMM_VARIANTS_H */
