/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched.h: batches of GEMMs (internal; issue 20). The planner of a
 * batch (gemm_batched_plan.c), the check and staging of a batch of views
 * (gemm_batched_views.c), and the executor both public calls share
 * (gemm_batched.c).
 */
#ifndef GPUTILE_GEMM_BATCHED_H
#define GPUTILE_GEMM_BATCHED_H

#include "gemm_launch.h"

/* Problems per launch of a register-blocked row (blockIdx.y's limit). */
#define GPUTILE__GEMM_BATCH_PER_LAUNCH 65535

/* True when row `variant` runs batches (the register-blocked, BATCHED and
 * cp.async rows). */
bool gputile__gemm_takes_batch(int variant);

/* The row a batch of count m x n x k products runs (count >= 1): `requested`
 * as the caller named it (AUTO resolved; a row that takes no batch: -1),
 * unsplit; precision is what runs: FP32 for the FP32 rows, TF32 or 3xTF32
 * (AUTO only, after gputile__gemm_batched_tensor said yes) for the TMA-fed
 * 128 x 128 rows (TMA_128X128_TF32, TMA_128X128_3XTF32).
 * `form`: the operands' GPUTILE__GEMM_FORM_* bits; dev NULL: no device. */
gputile__gemm_choice gputile__gemm_batched_choose(int requested, int precision,
                                                  const gputile__device *dev, unsigned form,
                                                  int64_t m, int64_t n, int64_t k, int64_t count);

/* Which operands have 16-byte aligned rows (and, for a strided batch,
 * batch strides of whole 16-byte groups): the 16-byte copies A and B may
 * each take (about 3 in 8 of random shapes have one aligned and not the
 * other), and C's for the batch model (GPUTILE__GEMM_FORM_C_UNALIGNED). */
typedef struct gputile__batch_aligned {
    bool a, b, c;
} gputile__batch_aligned;

/* The persistent rows' 16-byte copies go through the L1 (cp.async.ca)
 * up to this k, past it the L2 only (.cg). Forced rows, two rounds, 110
 * shapes (bench/results/2026-11-27-batched-l1-ab-h100.txt), .ca against
 * .cg: k <= 32 batched16 1.03-1.04x (16^3 and 32^3 1.10-1.12x), 64x8
 * 1.03-1.08x (up to 1.41x), the others 1.00-1.02x; k > 32 batched16
 * 0.95-0.98x (down to 0.73x at 337 x 6 x 156: its five blocks per SM hold
 * 200 KiB of shared memory, leaving little L1), the others 1.00-1.02x. */
#define GPUTILE__GEMM_BATCH_L1_K 32

/* *yes when AUTO runs a 3xTF32 or TF32 batch on a TMA-fed 128 x 128 row
 * (the batch as its maps' third dimension): a strided
 * batch (no views) on a device that runs the wgmma rows, operands read in
 * place (16-byte aligned rows and nonzero batch strides: both `aligned` and
 * more; not A^T B, whose D' would need a pre-pass), and C at least 64 on
 * a side (smaller C leaves most of a 128 x 128 tile idle). */
gputile_status gputile__gemm_batched_tensor(const gputile__device *dev,
                                            const gputile__gemm_args *args,
                                            gputile__batch_aligned aligned, bool *yes);

/* The plan of one launch of a batch (args->batch >= 1, k >= 1, device
 * pointers, strides or views set): no split, tail, thin edge or workspace;
 * `aligned` as above; the persistent grid of a BATCHED row. */
cudaError_t gputile__gemm_batched_plan(const gputile__gemm_choice *choice,
                                       const gputile__gemm_args *args,
                                       gputile__batch_aligned aligned, gputile__gemm_plan *plan);
/* The persistent grid of a BATCHED row for args (batch 0: one problem):
 * plan->grid_blocks; vec_a, vec_b already planned. */
cudaError_t gputile__gemm_plan_persistent(const gputile__gemm_choice *choice,
                                          const gputile__gemm_args *args, gputile__gemm_plan *plan);

/* Runs the batch of args (batch >= 1 problems of m, n >= 1) with choice:
 * C = beta C where k = 0 or alpha = 0, else the row, in launches of at most
 * GPUTILE__GEMM_BATCH_PER_LAUNCH problems for the register-blocked rows. */
gputile_status gputile__gemm_batched_execute(const gputile__gemm_choice *choice,
                                             const gputile__gemm_args *args,
                                             gputile__batch_aligned aligned, cudaStream_t stream);

/* ---- gemm_batched_views.c ---- */
/* The address range [lo, hi) each operand's non-empty views span (A, B,
 * C; lo >= hi: every view of it is empty). */
typedef struct gputile__views_ranges {
    uintptr_t lo[3], hi[3];
    bool same_ld[3];    /* every non-empty view of the operand has view 0's row stride */
    bool float_aligned; /* every non-empty view starts on a float boundary */
    /* Evenly spaced: view i of the operand starts step[j] >= 0 bytes (a
     * multiple of 4) after view i - 1 and has view 0's row stride, or the
     * operand's views are all empty (step 0): a strided batch. */
    bool even[3];
    int64_t step[3];
} gputile__views_ranges;

/* The checks of a batch of views (count >= 1) before any device is asked:
 * problem 0 as gputile_gemm() checks its operands, every other problem's
 * matrices valid and of problem 0's shapes (the first bad problem's status),
 * then GPUTILE_ERROR_ALIASING when some C overlaps another C or any A or B
 * (A and B may overlap each other and themselves: exact for views that
 * share a row stride, address ranges otherwise). Large batches are checked
 * on the host copy threads. On success *aligned: whether every A row, and
 * every B row, is 16-byte aligned; *r: the operands' ranges. */
gputile_status gputile__gemm_views_check(gputile_op ta, gputile_op tb, const gputile_matrix *a,
                                         const gputile_matrix *b, const gputile_matrix *c,
                                         size_t count, gputile__batch_aligned *aligned,
                                         gputile__views_ranges *r);

/* GPUTILE_ERROR_UNSUPPORTED when some non-empty A, B or C of the views is
 * host memory (NO_DEVICE, WRONG_DEVICE as gputile__memory_of()). Asks the
 * driver once per operand where its range r (from gputile__gemm_views_check)
 * lies in one device allocation, else once per allocation the views fall
 * in, not once per view. */
gputile_status gputile__gemm_views_on_device(const gputile_matrix *a, const gputile_matrix *b,
                                             const gputile_matrix *c, size_t count,
                                             const gputile__views_ranges *r);

/* The problems' descriptors (gputile__gemm_view: pointers and row strides
 * of a[i], b[i], c[i]) in device memory from gputile__workspace_acquire()
 * (*views: the start of the block), written through pinned staging and
 * copied on `stream`: the caller's arrays may be reused when this returns.
 * Where r (from gputile__gemm_views_check) allows, compact: 16 bytes a
 * problem cross the bus, offsets from each operand's lowest view (they
 * share a row stride), widened to descriptors on the device. The caller
 * releases *views with gputile__workspace_release() after the work that
 * reads it is queued. */
gputile_status gputile__gemm_views_upload(const gputile_matrix *a, const gputile_matrix *b,
                                          const gputile_matrix *c, size_t count,
                                          const gputile__views_ranges *r, int device,
                                          cudaStream_t stream, gputile__gemm_view **views);

#endif /* GPUTILE_GEMM_BATCHED_H */
