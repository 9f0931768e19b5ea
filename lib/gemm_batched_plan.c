/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched_plan.c: the planner of batched GEMMs (issue 20). Which row a
 * batch runs, and the plan of its launches: never split along k (a batch
 * of one problem per SM already fills the GPU; blockIdx.z stays free), no
 * tail split, no thin edges (the register-blocked and cp.async kernels
 * predicate their edges), no pre-pass, no clusters, no workspace.
 */
#include "gemm_batched.h"

bool gputile__gemm_takes_batch(int variant)
{
    switch (variant) {
#define TAKES(id, ...) case GPUTILE__GEMM_V_##id:
        GPUTILE__GEMM_REGBLOCK_ROWS(TAKES)
        GPUTILE__GEMM_BATCHED_ROWS(TAKES)
        GPUTILE__GEMM_ASYNC_ROWS(TAKES)
#undef TAKES
        return true;
    }
    return false;
}

/* AUTO for batches (FP32): the row the batched cost model weighs fastest
 * for all the batch's problems in one launch (gputile__gemm_batched_model:
 * the persistent BATCHED rows, which pack several small problems' tiles
 * per block, against the cp.async rows with the batch as blockIdx.y). No
 * device (a no-op batch's report): batched16. */
static int auto_variant(const gputile__device *dev, unsigned form, int64_t m, int64_t n, int64_t k,
                        int64_t count)
{
    if (dev == NULL)
        return GPUTILE__GEMM_V_BATCHED_16;
    return gputile__gemm_batched_model(dev, form, m, n, k, count, NULL);
}

/* TF32 batches: 128 x 256 tiles (the tiles walked, C stored from the
 * fragments) or 128 x 128 ones, by a cost model (fitted while D' was
 * rounded in shared memory; the TMA rounds it now):
 * the walked grid (a block per SM) runs the tiles in rounds, and a wide
 * tile does twice a narrow one's work at 1.08x its rate (a slice of 128 x
 * 256 moves 48 KB from L2 for 2^20 FMAs where 128 x 128 moves 32 KB for
 * half as many), so wide where its rounds x 2 / 1.08 are fewer than the
 * narrow rounds. D' runs along the tiles' bn: m when swapped (as the batch
 * planner swaps wherever B is not transposed), else n; padding D' to 256
 * counts in the wide rounds. Measured on 12 batch shapes with each forced
 * (H200, bench/results/2026-12-02-gemm-tf32-batched-crossover-h200.txt):
 * per tile, wide ran 1.07-1.09x narrow's rate on 512^2 and larger
 * problems (1.0-1.03x on 256^2); the model picks the faster on 10 of the
 * 12 and loses 0.3% (512^2 x 384) and 1.4% (256^2 x 128) on the others,
 * where the rule before (wide where k > 256) lost up to 10% (256^2 x 512)
 * and 6% (512^2 x 256). Where one wide tile spans D' (256 rows or fewer),
 * narrow: on 256^2 problems wide ran 0.90-0.99x narrow (per tile 1.0-1.03x,
 * short of the 1.08 of larger ones), measured against on 3 of 3 shapes. */
static int tf32_batch_variant(unsigned form, int64_t m, int64_t n, int64_t count, int sms)
{
    const int narrow = GPUTILE__GEMM_V_TMA_128X128_TF32,
              wide = GPUTILE__GEMM_V_TMA_128X256_TF32_ROUND;
    const gputile__gemm_row *rn = gputile__gemm_row_of(narrow), *rw = gputile__gemm_row_of(wide);
    const bool tb = (form & GPUTILE__GEMM_FORM_TB) != 0;
    const int64_t d = tb ? n : m, r = tb ? m : n; /* D' and R's sides */
    if (d <= rw->bn)
        return narrow;
    const int64_t grid = sms > 0 ? sms : 1;
    const int64_t items_n = gputile__ceil_div(r, rn->bm) * gputile__ceil_div(d, rn->bn) * count,
                  items_w = gputile__ceil_div(r, rw->bm) * gputile__ceil_div(d, rw->bn) * count;
    const int64_t rounds_n = gputile__ceil_div(items_n, grid),
                  rounds_w = gputile__ceil_div(items_w, grid);
    /* rounds_w x (bn_w / bn_n) / 1.08 < rounds_n */
    return rounds_w * (rw->bn / rn->bn) * 100 < rounds_n * 108 ? wide : narrow;
}

gputile__gemm_choice gputile__gemm_batched_choose(int requested, int precision,
                                                  const gputile__device *dev, unsigned form,
                                                  int64_t m, int64_t n, int64_t k, int64_t count)
{
    gputile__gemm_choice c = {.sms = dev != NULL ? dev->sms : 0,
                              .device = dev != NULL ? dev->ordinal : -1,
                              .splits = 1,
                              .tail = false};
    if (requested == GPUTILE_ALGO_AUTO)
        c.variant =
            precision == GPUTILE_PRECISION_TF32 ? tf32_batch_variant(form, m, n, count, c.sms)
            : precision == GPUTILE_PRECISION_FP32_3XTF32 ? GPUTILE__GEMM_V_TMA_128X128_3XTF32
                                                         : auto_variant(dev, form, m, n, k, count);
    else {
        c.variant = gputile__gemm_variant(requested, precision);
        if (c.variant >= 0 && !gputile__gemm_takes_batch(c.variant))
            c.variant = -1;
    }
    /* A batch never splits k, and the cp.async rows count its slices in an
     * int (k of 2^34 on async128x128 computed nothing): past
     * GPUTILE__GEMM_MAX_SLICES, AUTO takes a batch row (64-bit counts) and
     * a named row is refused. */
    if (c.variant >= 0 && !gputile__gemm_slices_fit(&c, k))
        c.variant = requested == GPUTILE_ALGO_AUTO ? GPUTILE__GEMM_V_BATCHED_64 : -1;
    return c;
}

gputile_status gputile__gemm_batched_tensor(const gputile__device *dev,
                                            const gputile__gemm_args *args,
                                            gputile__batch_aligned aligned, bool *yes)
{
    *yes = false;
    /* TMA: strides below 2^40 bytes; each problem's own matrix (stride 0
     * would make every problem read problem 0 through a 3-D map's z) */
    const int64_t most = ((int64_t)1 << 40) / (int64_t)sizeof(float);
    const bool strides = args->batch <= 1 || (args->stride_a > 0 && args->stride_b > 0 &&
                                              args->stride_a < most && args->stride_b < most);
    if (args->views != NULL || !aligned.a || !aligned.b || !strides ||
        (args->trans_a && !args->trans_b) || args->m < 64 || args->n < 64 || args->k < 1 ||
        !gputile__gemm_tma_dims(args->m, args->n, args->k) || args->lda <= 0 || args->lda >= most ||
        args->ldb <= 0 || args->ldb >= most)
        return GPUTILE_SUCCESS;
    return gputile__cuda_status(gputile__gemm_tensor_cores(dev, yes));
}

/* Blocks per SM of a BATCHED instantiation, per device, asked once. */
static cudaError_t blocks_per_sm(const gputile__gemm_choice *c, int ta, int tb, int va, int vb,
                                 int *blocks)
{
    static int cache[GPUTILE__MAX_DEVICES][GPUTILE__GEMM_N_VARIANTS][16]; /* blocks + 1 */
    int *slot = &cache[c->device][c->variant][ta << 3 | tb << 2 | va << 1 | vb];
    const int known = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (known > 0) {
        *blocks = known - 1;
        return cudaSuccess;
    }
    cudaError_t err = gputile__gemm_batched_blocks_per_sm(c->variant, ta, tb, va, vb, blocks);
    if (err == cudaSuccess)
        __atomic_store_n(slot, *blocks + 1, __ATOMIC_RELAXED);
    return err;
}

/* The persistent grid: every block the SMs hold at once, or one per item
 * of the work list when there are fewer (an item: 128 / (threads per tile)
 * pairs of problem and tile, or one pair on the KSPLIT rows, whose slots
 * share it; kernels/gemm_batched.cu). */
cudaError_t gputile__gemm_plan_persistent(const gputile__gemm_choice *c,
                                          const gputile__gemm_args *p, gputile__gemm_plan *plan)
{
    const gputile__gemm_row *r = gputile__gemm_row_of(c->variant);
    const int64_t tiles = (p->m + r->bm - 1) / r->bm * ((p->n + r->bn - 1) / r->bn);
    const int64_t pairs = tiles * (p->batch > 0 ? p->batch : 1);
    const int64_t per_block =
        r->flags & GPUTILE__GEMM_KSPLIT ? 1 : r->threads / ((r->bm / r->tm) * (r->bn / r->tn));
    const int64_t items = (pairs + per_block - 1) / per_block;
    int per_sm = r->per_sm;
    if (c->device >= 0) {
        cudaError_t err =
            blocks_per_sm(c, p->trans_a, p->trans_b, plan->vec_a, plan->vec_b, &per_sm);
        if (err != cudaSuccess)
            return err;
    }
    const int64_t slots = (int64_t)(c->sms > 0 ? c->sms : 1) * (per_sm > 0 ? per_sm : 1);
    plan->grid_blocks = items < slots ? items : slots;
    return cudaSuccess;
}

cudaError_t gputile__gemm_batched_plan(const gputile__gemm_choice *c, const gputile__gemm_args *p,
                                       gputile__batch_aligned aligned, gputile__gemm_plan *plan)
{
    const gputile__gemm_row *r = gputile__gemm_row_of(c->variant);
    const int64_t tiles = (p->m + r->bm - 1) / r->bm * ((p->n + r->bn - 1) / r->bn);
    *plan = (gputile__gemm_plan){
        .splits = 1,
        .k_per_split = (p->k + r->bk - 1) / r->bk * r->bk,
        .full_tiles = tiles,
        .vec_a = aligned.a && (r->flags & GPUTILE__GEMM_VEC),
        .vec_b = aligned.b && (r->flags & GPUTILE__GEMM_VEC),
        .l1_copies = p->k <= GPUTILE__GEMM_BATCH_L1_K,
        .half_k = gputile__gemm_half_k(r, p->k),
        .reduce_blocks = 2 * (c->sms > 0 ? c->sms : 1),
    };
    if (r->flags & GPUTILE__GEMM_TMA) /* D' read in place (gputile__gemm_batched_tensor) */
        plan->swap = !p->trans_b;
    gputile__gemm_plan_tile_loop(c, p, plan);
    if (r->flags & GPUTILE__GEMM_PERSISTENT)
        return gputile__gemm_plan_persistent(c, p, plan);
    return cudaSuccess;
}
