/* SPDX-License-Identifier: MIT */
/*
 * gemm_plan.c: the GEMM planner. The variants are the rows of
 * kernels/gemm_variants.h; a call chooses one row and a split of k
 * (gputile__gemm_choose), and every launch of the call is planned from its
 * row and shape (gputile__gemm_plan_launch): the thin edges, the tail
 * split, the load widths, the TMA orientation and pre-passes and the
 * workspace. Nothing here launches: lib/gemm_launch.c does.
 */
#include "gemm_batched.h"

static const gputile__gemm_row rows[GPUTILE__GEMM_N_VARIANTS] = {
#define ROW(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, flags) \
    [GPUTILE__GEMM_V_##id] = {#id,                                                      \
                              algorithm,                                                \
                              name,                                                     \
                              precision,                                                \
                              bm,                                                       \
                              bn,                                                       \
                              bk,                                                       \
                              threads,                                                  \
                              per_sm,                                                   \
                              tm,                                                       \
                              tn,                                                       \
                              flags,                                                    \
                              gputile__gemm_run_##id},
    GPUTILE__GEMM_VARIANTS(ROW)
#undef ROW
};

const gputile__gemm_row *gputile__gemm_row_of(int variant)
{
    return &rows[variant];
}

int gputile__gemm_variant(int algorithm, int precision)
{
    for (int v = 0; v < GPUTILE__GEMM_N_VARIANTS; ++v)
        if (rows[v].algorithm == algorithm && rows[v].precision == precision)
            return v;
    return -1;
}

bool gputile__gemm_known(int algorithm)
{
    return gputile_algorithm_name(algorithm) != NULL;
}

const char *gputile_algorithm_name(int algorithm)
{
    if (algorithm == GPUTILE_ALGO_AUTO)
        return "auto";
    for (int v = 0; v < GPUTILE__GEMM_N_VARIANTS; ++v)
        if (rows[v].algorithm == algorithm)
            return rows[v].name;
    return NULL;
}

/* a >= 0, b > 0; no a + b - 1 to overflow: an empty product (m or n 0)
 * may name any k below 2^63. */
static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

/* k of each of `splits` splits: equal, rounded up to the row's k step, so
 * that only the last split has a partial slice (a k within a step of 2^63
 * is one split of k, not rounded). */
static int64_t k_per_split(int64_t k, int64_t splits, int step)
{
    const int64_t each = ceil_div(k, splits), r = each % step;
    return r == 0 || each > INT64_MAX - step ? each : each + (step - r);
}

/* AUTO's candidates, from gputile-bench gemm (--sweep for the splits) on the
 * H200, 2026-11-21, ratios to cuBLAS sgemm in the same run
 * (bench/results/2026-11-21-h200-gemm-planner.csv):
 * - 64x128 tiles, two blocks per SM, where C has at least 4 waves of them
 *   and the rows are 16-byte aligned (0.91 at 4096^3, 0.95 at 8192^3 and
 *   8192x8192x1024; at 2048^3, under 2 waves, 0.72);
 * - C narrower than 256: 128x128 tiles of 8 warps (8192x128x8192 split 2
 *   ways: 0.88, against 0.87 for 64x128 split 8 ways);
 * - the same where the rows are not aligned, with registers capped so that
 *   three blocks share an SM (64x128x3: 4097^3 0.99 with the tail split,
 *   against 0.96 for 128x256; 64x128, at two blocks per SM there, 0.86);
 * - otherwise 128x256 tiles (2048^3 0.90).
 * A row's per_sm blocks keep an SM busy; with fewer tiles than SMs the
 * planner splits k up to SMs x per_sm / tiles ways (127x8192x8192 on
 * 128x256: 4 splits, 0.88; 1024^3: 4 splits, 0.98), keeping at least
 * 256 of k per split.
 * Since 0.5.0 every FP32 product with C at least 256 wide runs the
 * cp.async-fed 128x128 row (two blocks per SM) on a device instead of the
 * 64x128, 64x128x3 and 128x256 rows above (128x256 stays the plan
 * reported without a device; the small-product model below still weighs
 * all of them), its k split by
 * the same rule: gputile-bench gemm --sweep-shapes --algorithms
 * auto,async128x128,... on the H200, 2026-11-24
 * (bench/results/2026-11-24-gemm-sweep-async.csv), forced without a split,
 * beat the rule's row by more than 3% on 86 of 168 shapes (4096^3 0.935
 * against 0.826, 8192^3 0.943 against 0.853, 2056x813x7543 0.912 against
 * 0.417) and lost more than 3% only on a few with k below ~1500.
 * Tensor-core precisions: TF32 on 128x256 tiles, the TMA-fed kernel, at
 * every shape (on the H100 it ran 5-9x the register-staged 128x128 kernel
 * at 2048^3 to 8192^3), 3xTF32 on 128x128; k split in the same way. */
static int auto_variant(int precision, const gputile__device *dev, int64_t n)
{
    if (precision == GPUTILE_PRECISION_TF32)
        return GPUTILE__GEMM_V_TMA_128X256_TF32;
    if (precision == GPUTILE_PRECISION_FP32_3XTF32)
        return GPUTILE__GEMM_V_TMA_128X128_3XTF32;
    if (n < 256)
        return GPUTILE__GEMM_V_REGBLOCK_128;
    /* no device: only a plan to report (an empty product) */
    return dev != NULL ? GPUTILE__GEMM_V_ASYNC_128X128 : GPUTILE__GEMM_V_REGBLOCK_128X256;
}

/* Small products: a cost model. Where the rule above leaves most SMs idle
 * (fewer than half as many blocks as SMs: 256^3 ran 2 blocks of 128x256
 * for 0.34 of cuBLAS, 192x294x406 4 blocks for 0.13; gputile-bench gemm
 * --sweep-shapes on the H200, 2026-11-23), AUTO instead takes the FP32
 * register-blocked row and split of k with the least estimated time:
 *   waves x (tile FMAs per split / (SM rate x efficiency / blocks per SM)
 *            + a block's fixed cost) + the split-K reduction,
 * efficiency being the row's share of the FFMA peak measured at 4096^3
 * (BENCHMARKS.md, 0.3.0) and 0.9 of it for rows not 16-byte aligned. The
 * rule's choices for larger products (tuned on the list shapes) stand. */
#define SM_FMA_PER_US 253.0e3 /* 128 FFMA per clock at 1.98 GHz (H100, H200) */
#define BLOCK_FIXED_US 2.0    /* a block's prologue, first loads and epilogue */
#define REDUCE_FIXED_US 3.0   /* the reduction's launch and the workspace */
#define REDUCE_BYTES_PER_US 3.0e6

static double estimate_us(int variant, double eff, int sms, int64_t m, int64_t n, int64_t k,
                          int splits)
{
    const gputile__gemm_row *r = &rows[variant];
    const int64_t kps = k_per_split(k, splits, r->bk), s = ceil_div(k, kps);
    const int64_t blocks = ceil_div(m, r->bm) * ceil_div(n, r->bn) * s;
    const int64_t waves = ceil_div(blocks, (int64_t)sms * r->per_sm);
    const double block_us =
        (double)r->bm * r->bn * kps / (SM_FMA_PER_US * eff / r->per_sm) + BLOCK_FIXED_US;
    double t = (double)waves * block_us;
    if (s > 1)
        t += REDUCE_FIXED_US + (double)(s + 1) * m * n * sizeof(float) / REDUCE_BYTES_PER_US;
    return t;
}

static void small_product(int sms, bool aligned, int64_t m, int64_t n, int64_t k, int *variant,
                          int *splits)
{
    static const struct {
        int variant;
        double eff; /* share of the FFMA peak, aligned rows */
    } candidates[] = {
        {GPUTILE__GEMM_V_REGBLOCK_128X256, 0.72}, {GPUTILE__GEMM_V_REGBLOCK_128, 0.70},
        {GPUTILE__GEMM_V_REGBLOCK_64X128, 0.73},  {GPUTILE__GEMM_V_REGBLOCK_64X128_X3, 0.66},
        {GPUTILE__GEMM_V_REGBLOCK_64, 0.67},      {GPUTILE__GEMM_V_ASYNC_128X128, 0.83},
        {GPUTILE__GEMM_V_ASYNC_64X128, 0.76},
    };
    double best = -1.0;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; ++i) {
        const int v = candidates[i].variant;
        if (v == (aligned ? GPUTILE__GEMM_V_REGBLOCK_64X128_X3 : GPUTILE__GEMM_V_REGBLOCK_64X128))
            continue;
        const double eff = candidates[i].eff * (aligned ? 1.0 : 0.9);
        for (int s = 1; s <= 16; ++s) {
            if (s > 1 && k_per_split(k, s, rows[v].bk) < 32) /* at least two slices of 16 */
                break;
            const double t = estimate_us(v, eff, sms, m, n, k, s);
            if (best < 0 || t < best) {
                best = t;
                *variant = v;
                *splits = s;
            }
        }
    }
}

gputile__gemm_choice gputile__gemm_choose(int requested, int precision, int split_k,
                                          const gputile__device *dev, bool aligned, int64_t m,
                                          int64_t n, int64_t k)
{
    gputile__gemm_choice c = {.sms = dev != NULL ? dev->sms : 0,
                              .device = dev != NULL ? dev->ordinal : -1};
    int splits = split_k;
    if (requested == GPUTILE_ALGO_AUTO) {
        c.variant = auto_variant(precision, dev, n);
        const gputile__gemm_row *r = &rows[c.variant];
        const int64_t tiles = ceil_div(m, r->bm) * ceil_div(n, r->bn);
        int rule_splits = 1;
        if (c.sms > 0 && k > 0 && tiles < c.sms) {
            int64_t s = (int64_t)c.sms * r->per_sm / tiles, by_k = k / 256;
            s = s < by_k ? s : by_k;
            rule_splits = (int)(s < 1 ? 1 : s > GPUTILE_MAX_SPLIT_K ? GPUTILE_MAX_SPLIT_K : s);
        }
        if (splits == 0)
            splits = rule_splits;
        /* a small FP32 product that would leave most SMs idle: the cost model
         * (a split the caller asked for is kept, on the row it picks) */
        if (precision == GPUTILE_PRECISION_FP32 && c.sms > 0 && k > 0 &&
            tiles * rule_splits < c.sms / 2) {
            int model_splits = 1;
            small_product(c.sms, aligned, m, n, k, &c.variant, &model_splits);
            if (split_k == 0)
                splits = model_splits;
        }
    } else {
        c.variant = gputile__gemm_variant(requested, precision);
    }
    const gputile__gemm_row *r = &rows[c.variant];
    if (!(r->flags & GPUTILE__GEMM_SPLITK) || splits < 1 || k < 1)
        splits = 1;
    else /* fewer splits may have work than were asked for: run and report those */
        splits = (int)ceil_div(k, k_per_split(k, splits, r->bk));
    c.splits = splits;
    /* the last partial wave may be split along k where AUTO chose no split */
    c.tail = requested == GPUTILE_ALGO_AUTO && split_k == 0 && splits == 1 &&
             (r->flags & GPUTILE__GEMM_TAIL);
    return c;
}

/* Per-device answers, filled on first use (a race writes the same value);
 * gputile__device_current() gives ordinals below GPUTILE__MAX_DEVICES only. */
enum { UNKNOWN = 0, YES = 1, NO = 2 };

cudaError_t gputile__gemm_tensor_cores(const gputile__device *dev, bool *yes)
{
    static int cache[GPUTILE__MAX_DEVICES];
    *yes = false;
    if (dev->major != 9 || dev->minor != 0) /* sm_90a machine code runs on 9.0 only */
        return cudaSuccess;
    int known = __atomic_load_n(&cache[dev->ordinal], __ATOMIC_RELAXED);
    if (known == UNKNOWN) {
        int ok = 0;
        cudaError_t err = gputile__gemm_wgmma_loadable(&ok);
        if (err != cudaSuccess)
            return err;
        known = ok ? YES : NO;
        __atomic_store_n(&cache[dev->ordinal], known, __ATOMIC_RELAXED);
    }
    *yes = known == YES;
    return cudaSuccess;
}

/* Blocks per SM of a register-blocked instantiation (the tail split's
 * wave), on the choice's device (known: the tail is planned only with one). */
static cudaError_t blocks_per_sm(const gputile__gemm_choice *c, int ta, int tb, int va, int vb,
                                 int *blocks)
{
    static int cache[GPUTILE__MAX_DEVICES][GPUTILE__GEMM_N_VARIANTS]
                    [16]; /* blocks + 1; 0: unknown */
    int *slot = &cache[c->device][c->variant][ta << 3 | tb << 2 | va << 1 | vb];
    const int known = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (known > 0) {
        *blocks = known - 1;
        return cudaSuccess;
    }
    cudaError_t err =
        (rows[c->variant].flags & GPUTILE__GEMM_ASYNC)
            ? gputile__gemm_async_blocks_per_sm(c->variant, ta, tb, va, vb, blocks)
            : gputile__gemm_regblock_blocks_per_sm(c->variant, ta, tb, va, vb, blocks);
    if (err == cudaSuccess)
        __atomic_store_n(slot, *blocks + 1, __ATOMIC_RELAXED);
    return err;
}

/* The tail. Blocks of equal work run in waves of (blocks per SM) x SMs;
 * when the last wave is at most half full, its tiles are split along k so
 * that it fills the GPU (at most 8 ways, at least 4 slices each), their
 * partials summed in a fixed order after the launch. 4096^3 on 64x128
 * tiles with three blocks per SM on 132 SMs: 2048 tiles are 5 waves and
 * 68 tiles, which run as 340 blocks of a fifth of k (0.910 -> 0.941 of
 * cuBLAS on the H200). */
static cudaError_t plan_tail(const gputile__gemm_choice *c, const gputile__gemm_args *p,
                             int64_t tiles, gputile__gemm_plan *plan)
{
    const gputile__gemm_row *r = &rows[c->variant];
    plan->full_tiles = tiles;
    plan->tail_splits = 0;
    if (!c->tail || c->sms <= 0 || plan->splits > 1)
        return cudaSuccess;
    int per_sm;
    cudaError_t err = blocks_per_sm(c, p->trans_a, p->trans_b, plan->vec_a, plan->vec_b, &per_sm);
    if (err != cudaSuccess)
        return err;
    const int64_t slots = (int64_t)c->sms * per_sm, rem = tiles % slots;
    if (slots < 2 || tiles <= slots || rem == 0 || 2 * rem > slots)
        return cudaSuccess;
    int64_t s = slots / rem, by_k = p->k / (4 * r->bk);
    s = s < by_k ? s : by_k;
    s = s < 8 ? s : 8;
    if (s >= 2) {
        plan->full_tiles = tiles - rem;
        plan->tail_splits = (int)s;
        plan->tail_k = k_per_split(p->k, s, r->bk);
    }
    return cudaSuccess;
}

/* Which operands the TMA-fed kernel packs K-major first if it computes C
 * (swap false) or C^T: R (op(A), or op(B)^T swapped) where TMA cannot
 * address it (start or rows not 16-byte aligned); D' (op(B)^T, or op(A))
 * unless 3xTF32 (split) can read it in place, K-major and addressable. */
static void tma_packs(const gputile__gemm_args *p, bool split, bool swap, int *pack_r, int *pack_d)
{
    const bool a_ready = gputile__rows_aligned16(p->a, p->lda);
    const bool b_ready = gputile__rows_aligned16(p->b, p->ldb);
    const bool d_transposed = swap ? p->trans_a : !p->trans_b;
    *pack_r = !(swap ? b_ready : a_ready);
    *pack_d = !split || d_transposed || !(swap ? a_ready : b_ready);
}

/* Floats the pre-pass of one orientation copies. */
static int64_t prepass_floats(const gputile__gemm_args *p, bool split, bool swap)
{
    int pack_r, pack_d;
    tma_packs(p, split, swap, &pack_r, &pack_d);
    const int64_t r_rows = swap ? p->n : p->m, d_rows = swap ? p->m : p->n;
    return ((pack_r ? r_rows : 0) + (pack_d ? d_rows : 0)) * p->k;
}

/* The orientation with the smaller pre-pass wins, not swapped on a tie:
 * 3xTF32 of row-major A and B runs swapped with no pre-pass, TF32 of
 * 127 x 8192 by 8192 x 8192 packs A (4 MB), not B (256 MB). */
static void plan_tma(const gputile__gemm_row *r, const gputile__gemm_args *p,
                     gputile__gemm_plan *plan)
{
    const bool split = r->precision == GPUTILE_PRECISION_FP32_3XTF32;
    plan->swap = prepass_floats(p, split, true) < prepass_floats(p, split, false);
    tma_packs(p, split, plan->swap, &plan->pack_r, &plan->pack_d);
    plan->ld_pack = (p->k + 63) / 64 * 64; /* 256-byte rows */
}

/* The workspace's parts, in order: R packed, D' packed, split partials,
 * tail partials (bytes each; 0 where unused). */
static void parts(const gputile__gemm_plan *plan, const gputile__gemm_choice *c,
                  const gputile__gemm_args *p, size_t bytes[4])
{
    const gputile__gemm_row *r = &rows[c->variant];
    const int64_t rows_r = plan->swap ? p->n : p->m, rows_d = plan->swap ? p->m : p->n;
    bytes[0] = plan->pack_r ? (size_t)rows_r * plan->ld_pack * sizeof(float) : 0;
    bytes[1] = plan->pack_d ? (size_t)rows_d * plan->ld_pack * sizeof(float) : 0;
    bytes[2] = plan->splits > 1 ? (size_t)plan->splits * p->m * p->n * sizeof(float) : 0;
    if (plan->tail_splits > 1) {
        const int64_t tiles = ceil_div(p->m, r->bm) * ceil_div(p->n, r->bn);
        bytes[3] = (size_t)((tiles - plan->full_tiles) * plan->tail_splits) * r->bm * r->bn *
                   sizeof(float);
    } else {
        bytes[3] = 0;
    }
}

cudaError_t gputile__gemm_plan_launch(const gputile__gemm_choice *c, const gputile__gemm_args *args,
                                      gputile__gemm_args *whole, gputile__gemm_plan *plan,
                                      size_t *workspace_bytes)
{
    const gputile__gemm_row *r = &rows[c->variant];
    *plan = (gputile__gemm_plan){.splits = c->splits};
    *whole = *args;
    /* One to four rows or columns beyond whole tiles: the thin kernels. */
    if (r->flags & GPUTILE__GEMM_THIN) {
        if (args->m > r->bm && args->m % r->bm <= 4)
            whole->m -= args->m % r->bm;
        if (args->n > r->bn && args->n % r->bn <= 4)
            whole->n -= args->n % r->bn;
    }
    const gputile__gemm_args *p = whole;
    plan->k_per_split = k_per_split(p->k, plan->splits, r->bk > 0 ? r->bk : 1);
    if (r->flags & GPUTILE__GEMM_VEC) {
        plan->vec_a = gputile__rows_aligned16(p->a, p->lda);
        plan->vec_b = gputile__rows_aligned16(p->b, p->ldb);
    }
    if (r->flags & GPUTILE__GEMM_TMA)
        plan_tma(r, p, plan);
    cudaError_t err = cudaSuccess;
    if (r->flags & GPUTILE__GEMM_PERSISTENT) /* the BATCHED rows (gemm_batched_plan.c) */
        err = gputile__gemm_plan_persistent(c, p, plan);
    plan->reduce_blocks =
        2 * (c->sms > 0 ? c->sms : 1); /* two per SM keep the reductions at DRAM speed */
    if (err == cudaSuccess && (r->flags & GPUTILE__GEMM_TAIL)) {
        const int64_t tiles = ceil_div(p->m, r->bm) * ceil_div(p->n, r->bn);
        err = plan_tail(c, p, tiles, plan);
    }
    size_t bytes[4];
    parts(plan, c, p, bytes);
    *workspace_bytes = bytes[0] + bytes[1] + bytes[2] + bytes[3];
    return err;
}

void gputile__gemm_plan_place(gputile__gemm_plan *plan, const gputile__gemm_choice *c,
                              const gputile__gemm_args *whole, void *space)
{
    size_t bytes[4];
    parts(plan, c, whole, bytes);
    char *at = space;
    float **to[4] = {&plan->pack_r_buf, &plan->pack_d_buf, &plan->work, &plan->tail_work};
    for (int i = 0; i < 4; ++i) {
        *to[i] = bytes[i] > 0 ? (float *)at : NULL;
        at += bytes[i];
    }
}
