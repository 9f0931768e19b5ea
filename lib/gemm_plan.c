/* SPDX-License-Identifier: MIT */
/*
 * gemm_plan.c: the GEMM planner. The variants are the rows of
 * kernels/gemm_variants.h; a call chooses one row and a split of k
 * (gputile__gemm_choose), and every launch of the call is planned from its
 * row and shape (gputile__gemm_plan_launch): the thin edges, the tail
 * split, the load widths, the TMA orientation and pre-passes and the
 * workspace. Nothing here launches: lib/gemm_launch.c does.
 */
#include <math.h>

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

/* AUTO in the tensor-core precisions: TF32 on 128x256 tiles, the TMA-fed
 * kernel, at every shape (on the H100 it ran 5-9x the register-staged
 * 128x128 kernel at 2048^3 to 8192^3), 3xTF32 on 128x128; k split where
 * the tiles cannot fill the SMs (split_rule). FP32 on a device: the cost
 * model below; without a device (an empty product: only a plan to report)
 * the 128x256 register-blocked row. */
static int tensor_or_default_variant(int precision)
{
    if (precision == GPUTILE_PRECISION_TF32)
        return GPUTILE__GEMM_V_TMA_128X256_TF32;
    if (precision == GPUTILE_PRECISION_FP32_3XTF32)
        return GPUTILE__GEMM_V_TMA_128X128_3XTF32;
    return GPUTILE__GEMM_V_REGBLOCK_128X256;
}

/* The split rule of the tensor-core rows: with fewer tiles than SMs, k is
 * split up to SMs x per_sm / tiles ways, keeping at least 256 of k per
 * split (127x8192x8192 on 128x256: 4 splits; 1024^3: 4). */
static int split_rule(const gputile__gemm_row *r, int sms, int64_t m, int64_t n, int64_t k)
{
    const int64_t tiles = ceil_div(m, r->bm) * ceil_div(n, r->bn);
    if (sms <= 0 || k <= 0 || tiles >= sms)
        return 1;
    int64_t s = (int64_t)sms * r->per_sm / tiles, by_k = k / 256;
    s = s < by_k ? s : by_k;
    return (int)(s < 1 ? 1 : s > GPUTILE_MAX_SPLIT_K ? GPUTILE_MAX_SPLIT_K : s);
}

/* FP32 AUTO on a device: a cost model picks the cp.async row and the split
 * of k with the least estimated time. For a row of bm x bn tiles with P
 * blocks per SM (its launch bounds) and k split s ways (kps each, whole
 * slices of bk):
 *   block   = P bm bn (kps / (R eff) + epi) + fixed
 *   compute = full waves x block + (last wave: j blocks on the busiest SM)
 *             block x (j / P)^(1 - gamma)
 *   time    = max(compute, A + B bytes / BW_read + C bytes / the row's BW_C)
 *             + launch
 *             + (s > 1) (reduce + (s + 1) m n 4 bytes / BW)
 *             + (thin edges) 4 k x (the other dim) x (rows left) / BW_thin
 *                            + launch
 * R is the SM's FFMA rate (128 a clock at 1.98 GHz), eff the row's share
 * of it (x 0.936 where A's or B's rows are not 16-byte aligned), epi a
 * tile element's epilogue, gamma how much a lone block of a several-per-SM
 * row gains from having the SM to itself, the BWs effective memory rates
 * (scaled to the device's peak from the H200's: they stand for the
 * writing of C too, which bounds a product with little k). The constants were fitted
 * (least squares on log time, 2,520 points: rms error 0.154 in log) to
 * gputile-bench gemm --sweep-shapes --runs 6 --algorithms auto,
 * async128x128,async128x128:4,... (every row forced with and without a
 * split) on the H200, 2026-11-24 (bench/results/2026-11-24-gemm-calibration.csv,
 * bench/gemm_model_fit.py). Picking among the measured configurations
 * with the model gave a geometric mean of 0.866 of cuBLAS over the sweep,
 * against 0.897 for the best measured one per shape and 0.755 for the
 * rule of 0.5.0. */
#define SM_FMA_PER_US 253.0e3         /* R: 128 FFMA per clock at 1.98 GHz (H100, H200) */
#define FIT_FIXED_US 0.0              /* a block's fixed cost (fitted: none) */
#define FIT_GAMMA 0.306               /* lone-block gain */
#define FIT_BYTES_PER_US 1.04e6       /* the split's reduction: effective memory rate */
#define FIT_READ_BYTES_PER_US 1.19e6  /* reading A and B: effective memory rate */
#define FIT_REDUCE_US 3.35            /* the split's reduction launch */
#define FIT_LAUNCH_US 6.55            /* a launch and its first loads */
#define FIT_UNALIGNED 0.936           /* eff factor, rows not 16-byte aligned */
#define FIT_THIN_BYTES_PER_US 2.17e6  /* the thin kernels' effective rate */
#define H200_PEAK_BYTES_PER_US 4.81e6 /* where the rates were fitted */

static const struct fp32_candidate {
    int variant;
    double eff;          /* share of the FFMA rate */
    double epi_us;       /* epilogue, per tile element and block */
    double bytes_per_us; /* writing C: effective memory rate */
} fp32_candidates[] = {
    {GPUTILE__GEMM_V_ASYNC_128X128, 0.806, 3.82e-5, 0.720e6},
    {GPUTILE__GEMM_V_ASYNC_128X256, 0.756, 3.16e-4, 3.12e6},
    {GPUTILE__GEMM_V_ASYNC_64X128, 0.716, 6.23e-5, 1.04e6},
    {GPUTILE__GEMM_V_ASYNC_128X64, 0.766, 5.41e-5, 1.05e6},
    {GPUTILE__GEMM_V_ASYNC_64X64, 0.624, 3.46e-6, 1.01e6},
    {GPUTILE__GEMM_V_ASYNC_128X32, 0.560, 3.46e-6, 1.13e6},
    {GPUTILE__GEMM_V_ASYNC_32X128, 0.566, 2.38e-5, 1.57e6},
};

/* The device's memory rate relative to the H200's: its peak (double data
 * rate x bus width, as reported), 1 where not reported, kept within 1/4
 * to 2 (a model fitted on one device says little beyond). */
static double memory_scale(const gputile__device *dev)
{
    const double peak = 2.0 * dev->mem_clock_khz * 1e-3 * dev->mem_bus_bits / 8.0; /* B/us */
    const double scale = peak > 0.0 ? peak / H200_PEAK_BYTES_PER_US : 1.0;
    return scale < 0.25 ? 0.25 : scale > 2.0 ? 2.0 : scale;
}

static double estimate_us(const struct fp32_candidate *c, const gputile__device *dev, bool aligned,
                          int64_t m, int64_t n, int64_t k, int splits)
{
    const gputile__gemm_row *r = &rows[c->variant];
    const double bw = FIT_BYTES_PER_US * memory_scale(dev);
    const double bw_thin = FIT_THIN_BYTES_PER_US * memory_scale(dev);
    const double eff = c->eff * (aligned ? 1.0 : FIT_UNALIGNED);
    double t = FIT_LAUNCH_US;
    /* the thin kernels take one to four rows or columns past whole tiles */
    int64_t mw = m, nw = n;
    if (m > r->bm && m % r->bm != 0 && m % r->bm <= 4) {
        t += 4.0 * k * n * (m % r->bm) / bw_thin + FIT_LAUNCH_US;
        mw -= m % r->bm;
    }
    if (n > r->bn && n % r->bn != 0 && n % r->bn <= 4) {
        t += 4.0 * k * mw * (n % r->bn) / bw_thin + FIT_LAUNCH_US;
        nw -= n % r->bn;
    }
    const int64_t kps = k_per_split(k, splits, r->bk), s = ceil_div(k, kps);
    const int64_t blocks = ceil_div(mw, r->bm) * ceil_div(nw, r->bn) * s;
    const int64_t slots = (int64_t)dev->sms * r->per_sm;
    const double block =
        (double)r->per_sm * r->bm * r->bn *
            ((double)ceil_div(kps, r->bk) * r->bk / (SM_FMA_PER_US * eff) + c->epi_us) +
        FIT_FIXED_US;
    double compute = (double)(blocks / slots) * block;
    if (blocks % slots != 0) {
        const double j = (double)ceil_div(blocks % slots, dev->sms);
        compute += block * pow(j / r->per_sm, 1.0 - FIT_GAMMA);
    }
    const double memory = (4.0 * ((double)m * k + (double)k * n) / FIT_READ_BYTES_PER_US +
                           4.0 * (double)m * n / c->bytes_per_us) /
                          memory_scale(dev);
    t += compute > memory ? compute : memory;
    if (s > 1)
        t += FIT_REDUCE_US + 4.0 * (double)(s + 1) * m * n / bw;
    return t;
}

/* The candidate and split with the least estimate; `split_k` > 0 fixes
 * the split (the caller's), else splits 1 to GPUTILE_MAX_SPLIT_K leaving
 * at least 32 of k (two slices of 16) to each. */
static void fp32_search(const gputile__device *dev, bool aligned, int split_k, int64_t m, int64_t n,
                        int64_t k, int *variant, int *splits)
{
    double best = -1.0;
    *variant = fp32_candidates[0].variant;
    *splits = split_k > 0 ? split_k : 1;
    if (m < 1 || n < 1 || k < 1 || dev->sms < 1)
        return;
    for (size_t i = 0; i < sizeof fp32_candidates / sizeof fp32_candidates[0]; ++i) {
        const struct fp32_candidate *c = &fp32_candidates[i];
        const int first = split_k > 0 ? split_k : 1,
                  last = split_k > 0 ? split_k : GPUTILE_MAX_SPLIT_K;
        for (int s = first; s <= last; ++s) {
            if (s > 1 && split_k == 0 && k_per_split(k, s, rows[c->variant].bk) < 32)
                break;
            const double t = estimate_us(c, dev, aligned, m, n, k, s);
            if (best < 0 || t < best) {
                best = t;
                *variant = c->variant;
                *splits = s;
            }
        }
    }
}

/* fp32_search, remembered: up to a few hundred estimates cost microseconds,
 * as much as a small product's kernel, and programs repeat their shapes.
 * A direct-mapped cache per thread (no lock; each thread fills its own). */
#define CHOICE_CACHE 64
struct choice_entry {
    int64_t m, n, k;
    int device, split_k, variant, splits;
    bool aligned, valid;
};
static void fp32_model(const gputile__device *dev, bool aligned, int split_k, int64_t m, int64_t n,
                       int64_t k, int *variant, int *splits)
{
    static _Thread_local struct choice_entry cache[CHOICE_CACHE];
    const uint64_t h = ((uint64_t)m * 0x9E3779B97F4A7C15ull) ^
                       ((uint64_t)n * 0xC2B2AE3D27D4EB4Full) ^
                       ((uint64_t)k * 0x165667B19E3779F9ull) ^ (uint64_t)split_k ^
                       ((uint64_t)dev->ordinal << 8) ^ ((uint64_t)aligned << 16);
    struct choice_entry *e = &cache[(h >> 32) % CHOICE_CACHE];
    if (e->valid && e->m == m && e->n == n && e->k == k && e->device == dev->ordinal &&
        e->split_k == split_k && e->aligned == aligned) {
        *variant = e->variant;
        *splits = e->splits;
        return;
    }
    fp32_search(dev, aligned, split_k, m, n, k, variant, splits);
    e->m = m, e->n = n, e->k = k, e->device = dev->ordinal, e->split_k = split_k;
    e->aligned = aligned, e->variant = *variant, e->splits = *splits, e->valid = true;
}

gputile__gemm_choice gputile__gemm_choose(int requested, int precision, int split_k,
                                          const gputile__device *dev, bool aligned, int64_t m,
                                          int64_t n, int64_t k)
{
    gputile__gemm_choice c = {.sms = dev != NULL ? dev->sms : 0,
                              .device = dev != NULL ? dev->ordinal : -1};
    int splits = split_k;
    if (requested == GPUTILE_ALGO_AUTO) {
        if (precision == GPUTILE_PRECISION_FP32 && dev != NULL) {
            fp32_model(dev, aligned, split_k, m, n, k, &c.variant, &splits);
        } else {
            c.variant = tensor_or_default_variant(precision);
            if (splits == 0)
                splits = split_rule(&rows[c.variant], c.sms, m, n, k);
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
