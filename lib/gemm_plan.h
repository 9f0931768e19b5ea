/* SPDX-License-Identifier: MIT */
/*
 * gemm_plan.h: the GEMM planner (internal). The table of variants built
 * from kernels/gemm_variants.h; the choice a call makes once (which row,
 * which split of k, reported to the caller); and the plan of each launch
 * (thin edges, tail split, load widths, orientation, workspace), which
 * lib/gemm_launch.c carries out.
 */
#ifndef GPUTILE_GEMM_PLAN_H
#define GPUTILE_GEMM_PLAN_H

#include <stdbool.h>

#include "internal.h"
#include "../kernels/kernels.h"

/* One row of kernels/gemm_variants.h. */
typedef struct gputile__gemm_row {
    const char *id;   /* the row's internal name */
    int algorithm;    /* gputile_algorithm */
    const char *name; /* the algorithm's public name */
    int precision;    /* gputile_precision */
    int bm, bn, bk, threads, per_sm, tm, tn;
    unsigned flags; /* GPUTILE__GEMM_* */
    gputile__gemm_launcher run;
} gputile__gemm_row;

/* The row of variant v (0 <= v < GPUTILE__GEMM_N_VARIANTS). The table
 * itself stays static: an exported array would be one more global symbol
 * (and AddressSanitizer adds another beside it). */
const gputile__gemm_row *gputile__gemm_row_of(int variant);

/* The row that runs a named algorithm (not AUTO) in `precision`; -1 when
 * none does (an invalid pairing). */
int gputile__gemm_variant(int algorithm, int precision);
/* True for AUTO and every algorithm some row runs. */
bool gputile__gemm_known(int algorithm);

/* What a call runs, decided once for the whole call and reported. */
typedef struct gputile__gemm_choice {
    int variant;      /* row */
    int splits;       /* split of k (1: none), as every launch of the call runs it */
    bool tail;        /* launches may split the tiles of a last half-empty wave (AUTO only) */
    int sms;          /* the device's multiprocessors (0: unknown: plan no split) */
    int device;       /* its ordinal (caches) */
    double mem_scale; /* its DRAM bandwidth over the H200's, for the models' memory terms
                         (0: unknown, taken as 1) */
    bool clusters;    /* the cp.async rows' splits of 2 to 8 sum in a thread-block cluster
                      (compute capability 9.0 or later; AUTO's model may prefer the
                      workspace) */
    int pack;         /* AUTO's cp.async rows on C = A B^T: 1 packs B as k x n, 2 packs A as
                      k x m (A^T) first, so that one copy runs straight; 0: none */
    bool whole_edges; /* AUTO: the tiles cover C's one to four rows or columns past whole
                         tiles too (else the thin kernels take them, where a row has them) */
} gputile__gemm_choice;

/* Whether the TMA-fed rows (GPUTILE__GEMM_TMA) can address an m x n x k
 * product: a tensor copy's coordinates are signed 32-bit (PTX
 * cp.async.bulk.tensor, .s32), so a row, column or k index past 2^31 - 1
 * would wrap and read or store zeros out of bounds; tensor maps also stop
 * at 2^32 elements a dimension. AUTO takes the FP32 rows beyond; a named
 * TMA row is UNSUPPORTED there. */
static inline bool gputile__gemm_tma_dims(int64_t m, int64_t n, int64_t k)
{
    const int64_t most = ((int64_t)1 << 31) - 1;
    return m <= most && n <= most && k <= most;
}

/* a / b rounded up; a >= 0, b > 0; no a + b - 1 to overflow: an empty
 * product (m or n 0) may name any k below 2^63. */
static inline int64_t gputile__ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

/* Whether row r runs its HALF kernel for k (GPUTILE__GEMM_HALF_K rows, k
 * within half a slice): the plan launches it, the batch model counts it. */
static inline bool gputile__gemm_half_k(const gputile__gemm_row *r, int64_t k)
{
    return (r->flags & GPUTILE__GEMM_HALF_K) && k <= r->bk / 2;
}

/* The operands' form, as the planner weighs it (bits). */
#define GPUTILE__GEMM_FORM_ALIGNED 1u     /* A's and B's rows start 16-byte aligned */
#define GPUTILE__GEMM_FORM_NT 2u          /* op(A) = A, op(B) = B^T: both rows run along k */
#define GPUTILE__GEMM_FORM_C_UNALIGNED 4u /* C's rows do not all start 16-byte aligned */
#define GPUTILE__GEMM_FORM_TN 8u          /* op(A) = A^T, op(B) = B: neither runs along k */
#define GPUTILE__GEMM_FORM_TA 16u         /* op(A) = A^T (whatever op(B)) */
#define GPUTILE__GEMM_FORM_TB 32u         /* op(B) = B^T (whatever op(A)) */
/* The form bits of operands whose A and B rows (ab_aligned) and C rows
 * (c_aligned) start 16-byte aligned or not, transposed as given. */
unsigned gputile__gemm_form(bool ab_aligned, bool c_aligned, bool trans_a, bool trans_b);

/* The row and split of k for `requested` (AUTO resolved) in `precision`
 * (what runs: FP32 where the tensor cores cannot) on an m x n x k product,
 * split_k as the caller asked (0: the planner's choice), `form` the
 * operands' GPUTILE__GEMM_FORM_* bits. dev may be NULL (no device: no
 * split). */
/* The most k slices one split of a kernel counts (in an int). */
#define GPUTILE__GEMM_MAX_SLICES ((int64_t)1 << 30)
/* Whether every split of c holds at most GPUTILE__GEMM_MAX_SLICES slices
 * of k (gputile__gemm_choose() splits further where the caller left the
 * split to it; a split the caller asked for may not). */
bool gputile__gemm_slices_fit(const gputile__gemm_choice *c, int64_t k);

gputile__gemm_choice gputile__gemm_choose(int requested, int precision, int split_k,
                                          const gputile__device *dev, unsigned form, int64_t m,
                                          int64_t n, int64_t k);

/* The FP32 row with the least estimate for `count` m x n x k problems of
 * `form` in one launch (issue 20): a cp.async row, the batch as
 * blockIdx.y (the FP32 model's constants with each row's batch factor,
 * unsplit, no tail), or a persistent BATCHED row (its memory-bound
 * estimate); *us (may be NULL): its estimate. */
int gputile__gemm_batched_model(const gputile__device *dev, unsigned form, int64_t m, int64_t n,
                                int64_t k, int64_t count, double *us);

/* *yes when dev runs the tensor-core (wgmma) rows: compute capability 9.0
 * and this build's sm_90a image loads there (asked once per device). */
cudaError_t gputile__gemm_tensor_cores(const gputile__device *dev, bool *yes);

/* The plan of one launch of choice on args (device pointers set, k >= 1):
 * the part of C whole tiles cover (*whole: args with m, n cut to it; the
 * rest goes to the thin kernels), the split and tail split of k, the load
 * widths, the TMA orientation and pre-passes, and *workspace_bytes of
 * scratch; the plan's workspace pointers are left NULL. */
cudaError_t gputile__gemm_plan_launch(const gputile__gemm_choice *choice,
                                      const gputile__gemm_args *args, gputile__gemm_args *whole,
                                      gputile__gemm_plan *plan, size_t *workspace_bytes);
/* A GPUTILE__GEMM_TILE_LOOP row's grid for args (batch 0: one problem),
 * its splits and orientation planned: one block per SM, or per item of
 * the (tile, problem, split) list where there are fewer. Other rows: no
 * change. */
void gputile__gemm_plan_tile_loop(const gputile__gemm_choice *choice,
                                  const gputile__gemm_args *args, gputile__gemm_plan *plan);
/* The plan without the optional split of D' by the pre-pass (its
 * workspace doubles D''s: where it cannot be had, the kernel splits D'
 * itself); returns the workspace bytes it needs then. */
size_t gputile__gemm_plan_without_split_d(gputile__gemm_plan *plan,
                                          const gputile__gemm_choice *choice,
                                          const gputile__gemm_args *whole);
/* Points the plan's workspace parts into `space` (workspace_bytes long). */
void gputile__gemm_plan_place(gputile__gemm_plan *plan, const gputile__gemm_choice *choice,
                              const gputile__gemm_args *whole, void *space);

#endif /* GPUTILE_GEMM_PLAN_H */
