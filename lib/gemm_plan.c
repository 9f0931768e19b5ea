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
#include <string.h>

#include "gemm_batched.h"

/* Per-device answers, filled on first use (a race writes the same value);
 * gputile__device_current() gives ordinals below GPUTILE__MAX_DEVICES only. */
enum { UNKNOWN = 0, YES = 1, NO = 2 };

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

unsigned gputile__gemm_form(bool ab_aligned, bool c_aligned, bool trans_a, bool trans_b)
{
    return (ab_aligned ? GPUTILE__GEMM_FORM_ALIGNED : 0u) |
           (!trans_a && trans_b ? GPUTILE__GEMM_FORM_NT : 0u) |
           (trans_a && !trans_b ? GPUTILE__GEMM_FORM_TN : 0u) |
           (c_aligned ? 0u : GPUTILE__GEMM_FORM_C_UNALIGNED) |
           (trans_a ? GPUTILE__GEMM_FORM_TA : 0u) | (trans_b ? GPUTILE__GEMM_FORM_TB : 0u);
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

/* k of each of `splits` splits: equal, rounded up to the row's k step, so
 * that only the last split has a partial slice (a k within a step of 2^63
 * is one split of k, not rounded). */
static int64_t k_per_split(int64_t k, int64_t splits, int step)
{
    const int64_t each = gputile__ceil_div(k, splits), r = each % step;
    return r == 0 || each > INT64_MAX - step ? each : each + (step - r);
}

/* TF32 on 128 x 128 tiles (TMA_128X128_TF32) instead of 128 x 256 tiles:
 * where D' can be read in place (A's and B's rows 16-byte aligned, not A^T
 * B) and the 128 x 128 tiles are no more than one wave (SMs). (Measured when the
 * 128 x 128 row rounded D' in shared memory and the 128 x 256 row after a
 * pre-pass; both now read the TMA's rounded operands.) The rounding row
 * runs its MMAs at about half the packed row's rate once the SMs are full
 * (H100: 4096^3 830 against 403 us), but a small product pays the
 * pre-pass's launch and DRAM traffic and leaves the wider tiles' SMs
 * idle: on the H100 sweep (bench/results/2026-11-27-gemm-tf32-*-h100.csv)
 * 11 of the 12 such shapes ran 1.04-1.65x faster (80 x 16,224 x 3,704 NT
 * 180 -> 109 us), 144 x 5,958 x 2,192 TT 0.88x; with more tiles it lost
 * on 9 of 10 (2048^3 0.59x). Also, in any form, where C is at most 128
 * wide one way: the 128 x 256 tiles (or their transpose) would leave at
 * least half of each tile empty. Every shape of three H200 sweeps forced
 * onto it (bench/results/2026-11-28-gemm-tc-forced128-seed*-h200.csv)
 * ran up to 1.44x the 128 x 256 row there (76 x 12,952 x 9,115). AUTO's
 * TF32 sweeps with the rule, measured (seeds 17 / 99 / 5, H200): 1.161 /
 * 1.205 / 1.187 -> 1.166 / 1.201 / 1.191 of cuBLAS TF32, minima 0.512 /
 * 0.565 / 0.484 -> 0.528 / 0.568 / 0.521; the 23 shapes whose row changed
 * 1.08 / 1.00 / 1.13x as fast (from 0.77x, 70 x 10,658 x 9,462 A^T B, to
 * 1.37x). At "<= 160" the p10s fell in the same data, and choosing
 * between the rows by tensor_us lost 3-4%.
 * Also, in any form, one wave of 128 x 128 tiles with k of at most
 * TF32_ONE_WAVE_K: once neither row rounded (0.10.0), the 128 x 256 row
 * split k to fill the SMs where the narrow tiles fill them unsplit, and
 * the split's launch and reduction cost more than a short k's MMAs. Both
 * rows forced on every TF32 shape of seeds 17 and 99 (H200,
 * bench/results/2026-12-03-gemm-tf32-rows-forced-h200.txt): the 11
 * shapes this adds ran 1.01-1.50x as fast (948 x 1,789 x 1,590 A^T B 56
 * -> 38 us, 236 x 5,268 x 1,002 A^T B^T 39 -> 26 us; 2,722 x 358 x 228
 * from the FP32 row, 1.32x), none slower; past k = 2,048 the wide row
 * won on 33 of 41 (2,002 x 928 x 9,617 A^T B^T 0.72x on 128 x 128). A
 * refit of both rows' time model (log-time rms 0.19 / 0.15) chose between
 * them no better (+0.2% in sample). The tiles and their split must stay
 * one wave: on held-out seed 5, 136 x 5,410 x 1,982 (86 narrow tiles,
 * split 3 ways: two rounds) ran 0.82x, its five other shapes 1.02-1.48x
 * (bench/results/2026-12-03-gemm-tf32-one-wave-ab-h200.txt). */
#define TF32_ONE_WAVE_K 2048
static int tensor_splits(const gputile__device *dev, int variant, unsigned form, int64_t m,
                         int64_t n, int64_t k);
static bool tf32_on_128x128(const gputile__device *dev, unsigned form, int64_t m, int64_t n,
                            int64_t k)
{
    const int v = GPUTILE__GEMM_V_TMA_128X128_TF32;
    const gputile__gemm_row *r = &rows[v];
    if (dev == NULL || dev->sms <= 0)
        return false;
    if ((m < n ? m : n) <= r->bm)
        return true;
    const int64_t tiles = gputile__ceil_div(m, r->bm) * gputile__ceil_div(n, r->bn);
    if (tiles > dev->sms)
        return false;
    if ((form & GPUTILE__GEMM_FORM_ALIGNED) && !(form & GPUTILE__GEMM_FORM_TN))
        return true;
    return k <= TF32_ONE_WAVE_K && tiles * tensor_splits(dev, v, form, m, n, k) <= dev->sms;
}

/* AUTO in the tensor-core precisions: TF32 on 128x256 tiles, the TMA-fed
 * kernel (on the H100 it ran 5-9x the register-staged 128x128 kernel at
 * 2048^3 to 8192^3), or on 128x128 where tf32_on_128x128 says; 3xTF32 on
 * 128x128; k split where
 * the tiles cannot fill the SMs (tensor_splits). FP32 on a device: the cost
 * model below; without a device (an empty product: only a plan to report)
 * the 128x256 register-blocked row. */
static int tensor_or_default_variant(int precision, const gputile__device *dev, unsigned form,
                                     int64_t m, int64_t n, int64_t k)
{
    if (precision == GPUTILE_PRECISION_TF32)
        return tf32_on_128x128(dev, form, m, n, k) ? GPUTILE__GEMM_V_TMA_128X128_TF32
                                                   : GPUTILE__GEMM_V_TMA_128X256_TF32;
    if (precision == GPUTILE_PRECISION_FP32_3XTF32)
        return GPUTILE__GEMM_V_TMA_128X128_3XTF32;
    return GPUTILE__GEMM_V_REGBLOCK_128X256;
}

/* FP32 AUTO on a device: a cost model picks the cp.async row and the split
 * of k with the least estimated time. For a row of bm x bn tiles with P
 * blocks per SM (its launch bounds) and k split s ways (kps each, whole
 * slices of bk):
 *   block   = P bm bn (kps / (R eff) + epi) + fixed
 *   compute = full waves x block (x cw clustered) + (last wave: j blocks on
 *             the busiest SM)
 *             block x (j / P)^(1 - gamma), or where AUTO's tail split
 *             fires (s = 1), the same for rem x s' blocks of k / s'
 *             + reduce + (s' + 1) rem bm bn 4 bytes / BW, if less
 *   time    = max(compute, A + B bytes / BW_read + C bytes / the row's BW_C,
 *                 or BW_C' where C's rows are not 16-byte aligned)
 *             + launch
 *             + (s = 2..8, clusters) cluster + s m n 4 bytes / BW_cluster
 *             + (other s > 1) (reduce + (s + 1) m n 4 bytes / BW)
 *             + (thin edges) 4 k x (the other dim) x (rows left) / BW_thin
 *                            + launch
 * R is the SM's FFMA rate (128 a clock at 1.98 GHz), eff the row's share
 * of it (x 0.949 where A's or B's rows are not 16-byte aligned), epi a
 * tile element's epilogue, gamma how much a lone block of a several-per-SM
 * row gains from having the SM to itself, the BWs effective memory rates
 * (scaled to the device's peak from the H200's: they stand for the
 * writing of C too, which bounds a product with little k). A split summed
 * in clusters runs in the smaller waves clusters allow (cluster_wave),
 * and its full waves 5% slower than the same blocks unclustered
 * (FIT_CLUSTER_WAVES: a cluster starts only when all its SMs have a slot;
 * fitted separately, on the calibrations below and a second one of 72
 * other shapes with splits 3, 5, 6 and 7: the least error of log time in
 * both; without it 8192^3 and 16384^3 ran split in two, 10% slower).
 * The constants were fitted to gputile-bench gemm --sweep-shapes --runs 6
 * --algorithms async128x128,async128x128:2,...  (every row forced unsplit
 * and split 2 to 16 ways, 4,032 points) on the H200, 2026-11-24, with
 * bench/gemm_model_fit.py --picks (least squares on log time, then the
 * picks' regret), on kernels that carried the cluster epilogue behind a
 * run-time flag (that calibration's CSV was not kept). Checked since on
 * the kernels as they are (the cluster mode its own instantiation) in two
 * calibrations, bench/results/2026-11-24-gemm-calibration-cluster.csv
 * (168 shapes, 31 configurations) and -seed99.csv (72 other shapes,
 * cluster splits 3, 5, 6, 7): the model picks 0.891 and 0.812 of cuBLAS
 * there (with the candidates below), against 0.934 and 0.865 for the best
 * measured configuration per shape; refits on the first (least squares,
 * the picks' regret, the rows' eff alone) picked 0.867-0.877 on its
 * held-out halves where these constants pick 0.874-0.883, so they stand
 * and the gap is the model's form. */
#define SM_FMA_PER_US 253.0e3 /* R: 128 FFMA per clock at 1.98 GHz (H100, H200) */
#define FIT_FIXED_US 0.55     /* a block's fixed cost */
/* A last wave of j blocks on an SM that holds P runs (j / P)^(1 - gamma)
 * of a full wave's time. Fitted with the rest at 0.582; lowered alone to
 * 0.45: on the H100 (2026-11-27) squares of 256 to 1536 with every row and
 * split forced (bench/results/2026-11-27-gemm-squares-forced-h100.csv),
 * unsplit rows with one partial wave ran 0.64-0.72 of what 0.582 says
 * (1024^3 on 64 x 128: 65 us against 98), and AUTO took 64 x 64 split 3
 * (75 us) there; with 0.45 the model's picks among the forced rows go
 * from 0.961 to 1.029 of cuBLAS on those squares, its log-time rms from
 * 0.166 to 0.149, and on the H200 calibrations of 2026-11-24/25 (168
 * shapes, 2,500 forced points) the picks stay at 0.892 while the rms
 * falls from 0.306 to 0.288. */
#define FIT_GAMMA 0.45
#define FIT_BYTES_PER_US 3.68e6     /* the split's reduction: effective memory rate */
#define FIT_READ_BYTES_PER_US 6.0e6 /* reading A and B: effective memory rate */
#define FIT_REDUCE_US 5.74          /* the split's reduction launch */
#define FIT_LAUNCH_US 3.16          /* a launch and its first loads */
#define FIT_UNALIGNED 0.949         /* eff factor, rows not 16-byte aligned */
#define FIT_NT 0.93 /* eff factor, A row-major and B transposed (both copies transpose) */
#define FIT_THIN_BYTES_PER_US 2.19e6    /* the thin kernels' effective rate */
#define FIT_CLUSTER_US 1.9              /* a split summed in its cluster: barriers */
#define FIT_CLUSTER_BYTES_PER_US 2.97e7 /* ...and partials read across the cluster */
#define FIT_CLUSTER_WAVES 1.05          /* a full wave of clusters against one of blocks */
#define H200_PEAK_BYTES_PER_US 4.81e6   /* where the rates were fitted */

/* cluster: whether AUTO may sum the row's splits of 2 to 8 in clusters.
 * Not 128 x 64: clustered, it ran 1.1-1.5x slower than the model says on
 * squares of 1024 to 2048 (1024^3 split 3: 92 us against 71 unsplit and
 * 63 for 64 x 128 split 2; bench/results/2026-11-24-gemm-squares.csv),
 * and leaving its clusters out raised the model's picks on all three
 * calibrations (0.889 -> 0.891, 0.802 -> 0.812, squares 0.907 -> 0.994)
 * while the best measured per shape moved by under 0.001. */
static const struct fp32_candidate {
    int variant;
    double eff;          /* share of the FFMA rate */
    double epi_us;       /* epilogue, per tile element and block */
    double bytes_per_us; /* writing C: effective memory rate */
    bool cluster;
    double batch; /* eff factor in a batch (the problem as blockIdx.y): see below */
    double unaligned_c_bytes_per_us; /* writing a C whose rows are not 16-byte aligned: see below */
} fp32_candidates[] = {
    {GPUTILE__GEMM_V_ASYNC_128X128, 0.735, 1.70e-4, 11.1e6, true, 1.25, 1.50e6},
    {GPUTILE__GEMM_V_ASYNC_128X256, 0.720, 3.57e-4, 11.1e6, true, 1.00, 1.73e6},
    {GPUTILE__GEMM_V_ASYNC_64X128, 0.691, 2.01e-4, 11.1e6, true, 1.33, 1.67e6},
    {GPUTILE__GEMM_V_ASYNC_128X64, 0.715, 1.34e-4, 11.1e6, false, 1.14, 1.46e6},
    {GPUTILE__GEMM_V_ASYNC_64X64, 0.710, 2.08e-4, 11.1e6, true, 1.11, 1.56e6},
    {GPUTILE__GEMM_V_ASYNC_128X32, 0.517, 2.06e-4, 11.1e6, true, 1.34, 1.43e6},
    {GPUTILE__GEMM_V_ASYNC_32X128, 0.484, 1.52e-4, 11.1e6, true, 1.55, 2.01e6},
    /* fitted alone (eff, epi; the rest as above) to 840 forced points,
     * unsplit and split 2, 3, 4, 8 ways on the sweep's shapes, H200,
     * 2026-11-25 (bench/results/2026-11-25-gemm-calibration-w8.csv) */
    {GPUTILE__GEMM_V_ASYNC_64X64_W8, 0.611, 1.83e-4, 11.1e6, true, 0.95, 1.64e6},
    /* 64 x 32 and 32 x 64 (two warps, 8 x 4 / 4 x 8 a thread; 0.9.0): eff
     * and `batch` chosen on the H100 (2026-11-27, bench/results/2026-11-27-
     * gemm-calibration-narrow64-h100.csv: the sweep's 168 shapes with each
     * forced unsplit and split 2, 4, 8; batched-calibration-narrow64-seed
     * {32,33,34,43}.csv: 172 batches, every FFMA batch row forced) for the
     * picks' measured geomean, the rest as 64 x 64's: the sweep 0.989 ->
     * 0.998 of cuBLAS (either row forced, the better of it and AUTO per shape:
     * 1.018), the batches 1.198 -> 1.215 (best forced row 1.231 -> 1.259).
     * `batch` above 1.2 sent 32^3 x 100,000 from batched32 to 32 x 64 tiles,
     * 0.81 of its speed. 64 x 32's eff then lowered from 0.60 to 0.58: at
     * 0.60 squares of 1,000-1,024 took it split 2 (1,024 blocks where 981
     * clustered fit: 73 us at 1024^3 against 65 us on 64 x 64 split 2,
     * bench/results/2026-11-27-gemm-narrow64-cluster-ab-h100.txt); at 0.58
     * seven of 495 measured shapes change pick, five of them faster, and
     * the picks' geomean over them goes 0.9931 -> 0.9941 of cuBLAS. */
    {GPUTILE__GEMM_V_ASYNC_64X32, 0.58, 2.08e-4, 11.1e6, true, 1.23, 1.56e6},
    {GPUTILE__GEMM_V_ASYNC_32X64, 0.55, 2.08e-4, 11.1e6, true, 1.19, 1.56e6},
};
/* `unaligned_c_bytes_per_us` (bytes per us, as the other rates at the H200's memory
 * rate): where C's rows are not 16-byte aligned the epilogue writes them
 * through the warp's shared-memory stage in 32-float runs that straddle
 * sectors (gputile__store_rows_staged), and C's bytes bound a product
 * with little k; aligned, `bytes_per_us` binds nowhere. On the H100
 * (2026-11-27, bench/results/2026-11-27-gemm-smallk-h100.csv: 56 shapes,
 * k of 2 to 438, every row forced) each row wrote 4-150 M elements of
 * unaligned C at k of 4 to 18 at 1.3-1.9 TB/s on average (32 x 128 the
 * fastest, 2.09 at 11,093 x 13,765 x 7 where AUTO's 128 x 64 wrote
 * 1.33; cuBLAS 1.1-1.3), aligned C at 1.6-2.0. The rates here are 0.75 of
 * those means scaled to the H200 (the scale with the least regret of the
 * model's picks among the forced rows, from 0.7 to 0.85: the means
 * include some compute). With them the picks among the forced rows went
 * from 1.116 to 1.154 of cuBLAS on the 56 shapes, 0.897 to 0.899 on the
 * H200 calibrations (168 shapes), the H100's squares unchanged. */
/* `batch`: refitted on the H200 (2026-12-03, see persistent_candidates);
 * before, fitted per row (least squares of log time, the other constants
 * kept) to 90 batches of 4-512 on a side, each row forced (H100,
 * 2026-11-26, bench/results/2026-11-26-batched-calibration-s2{1,2}.csv;
 * seeds 21 and 22 apart gave factors within 0.03 of these). The rows run
 * 1.1-1.55x faster per tile in a batch than the single products they were
 * fitted on let the model say (a batch's tiles are alike and short in k;
 * the single products' fit absorbed edges and L2 misses of large
 * operands); with them the model's pick among the forced rows went from
 * 0.985 to 0.994 of the best one measured per shape. 128 x 256 was not
 * in that calibration (it never won a batch): 1. */

/* The persistent BATCHED rows (gemm_batched.cu) in a batch: the time to
 * move A, B and C through DRAM (at a rate that scales with the device's
 * memory, memory_scale) plus the time to move the tiles' slices of A and B
 * through L2 (each pair of problem and tile reads its own; the H100 and
 * H200 share the chip and its L2, so that rate does not scale), plus a
 * cost per pair of problem and tile spread over the SMs (finding the
 * problem, the epilogue, the first slice's wait), which the
 * byte terms alone missed on batches of small k: 262 x 75 x 14 took
 * batched32 at 0.55 of cuBLAS where async32x128 reaches 1.08. Fitted per
 * row by least squares on relative time over 120 seeded shapes with every
 * row forced (bench/results/2026-11-27-batched-calibration-s3{2,3,4}.csv),
 * then each constant moved where that raised the geometric mean of the
 * picks' measured speed: 1.114 -> 1.139 of cuBLAS (the best forced row per
 * shape: 1.168); fitted on two seeds, the third gained 0 to 3%.
 *
 * Refitted on the H200 (2026-12-03), with the `batch` factors above and
 * BATCH_ASYNC_SCALE below, by coordinate search on the picks' measured
 * geomean (bench/gemm_batched_fit.sh builds the tool): seven seeds (32-38,
 * 283 shapes) with all 15 FFMA batch rows forced, bench/results/
 * 2026-12-03-batched-calibration-h200-seed*.csv, plus the H100's four
 * (narrow64-seed*.csv) so that the model holds on both, and issue 20's
 * anchor rows on both weighted 20 (their best row is the model's pick on
 * each). Fitted on seeds 32-34 and the H100's, the picks on seeds 35-38
 * went from 1.272 to 1.301 of cuBLAS (best forced row per shape 1.315); on
 * the H100's data 1.214 -> 1.222; on seeds 43-46, measured after the fit,
 * 1.223 -> 1.273 (best forced row 1.290). Most of the gain: small C over
 * small k (64 x 32 tiles at 1.2-1.5x where batched32 and batched64 ran
 * 0.44-0.86 of cuBLAS: 262 x 75 x 14, 457 x 23 x 11, 48 x 123 x 7).
 *
 * Where k is within half a slice and C's rows are 16-byte aligned, the L2
 * term counts half a slice: the square rows' HALF kernels copy half of
 * it (2026-12-04, ff7eb4d's kernels, C staged through shared memory where
 * its rows are not aligned). Over nine seeds (32-40, 363 shapes, every
 * row forced, bench/results/2026-12-04-batched-calibration-h200-s50-
 * seed*.csv) the picks went from 1.282 to 1.289 of cuBLAS (best forced row
 * per shape 1.308; 20 x 108 x 4 x 25,115 from async32x128 at 0.76x to
 * batched32 at 1.26x), on AUTO's seeds 47-49 (123 shapes, each pick
 * measured as AUTO in one of two runs) from 1.195 to 1.197; the anchors
 * kept their picks. Counted whatever C's alignment: 1.295 on the nine
 * seeds but 1.193 on 47-49, where batched32 and batched64 took C of 17 to
 * 111 unaligned columns at 0.86-0.98x the 64 x 32 and 128 x 64 tiles' speed
 * (the staged stores, folded into this term, are the cost there; counted
 * so before C was staged, it lost everywhere: the forty-eighth session).
 * Counting 5/8 to 7/8 of a slice whatever C's alignment: 1.288-1.289 on
 * the nine seeds. The constants were not refitted:
 * refits on five of the seeds lowered the picks on the other four.
 *
 * batched8x32 (2026-12-04): batched16's constants, which a fit of its own
 * three (gemm_batched_fit --only) left where they were. Over 16 rows
 * forced on the H200 (bench/results/2026-12-04-batched-calibration-h200-
 * s52-seed*.csv), the picks on seeds 32-40 (363 shapes) went from 1.296 to
 * 1.321 of cuBLAS, on seeds 50-57 (323 shapes, not fitted) from 1.221 to
 * 1.241 (best forced row per shape 1.340 and 1.257); fitted on 50-57, the
 * constants stay too. A refit of every constant beside it gained 0.2-0.9%
 * more, within what the seeds disagree by. Most of the gain: C at most 8
 * rows tall (4 x 21 x 297 from batched16 at 0.68x to 0.97x, 7 x 31 x 9
 * from 1.61x to 2.69x, 5 x 344 x 7 from 8 x 64 at 1.53x to 2.27x).
 *
 * Refitted (2026-12-05, fifty-fifth session, bench/gemm_batched_fit.sh
 * fit --params persistent,scale): the persistent rows' constants and
 * BATCH_ASYNC_SCALE on the seventeen seeds of 2026-12-04 (32-40, 50-57)
 * and the six of 2026-12-05 (58-63, bench/results/2026-12-05-batched-
 * heldout-h200-s53-seed58-63.txt), every row forced on the H200, with the
 * planner tests' shapes (its plan-1/plan-2 sections) weighing 10 so that
 * their measured picks hold on the H100's scaled DRAM term too. Cross-
 * checked before: fitted on the seventeen, the six went from 1.286 to
 * 1.294 of cuBLAS (best forced row 1.306); fitted on the six, the
 * seventeen from 1.281 to 1.286 (best 1.299). On all 921 shapes: 1.279 to
 * 1.287 (best 1.298); 19 x 6 x 6 x 254,200 from batched64x8 at 1.22x to
 * batched16 at 1.78x, 316 x 13 x 15 x 7,421 from 1.26x to 1.36x. Moving
 * the cp.async rows' factors too gained on one cross-check and lost on the
 * other: left as they were.
 *
 * batched32x8 (2026-12-05, fifty-seventh session): the mirror of 8 x 32
 * for C at most 8 columns wide. Forced beside every row on the H100 (bench/
 * results/2026-12-05-batched-32x8-ksplit-h100-s57.txt: seeds 66 and 67, 86
 * shapes, and ten narrow shapes where the held-out picks lost most), its
 * constants fitted with `gemm_batched_fit fit --only batched32x8` on each
 * seed and scored on the other (dram 8.94e6 -> 5.12e6, l2 6.15e6 -> 6.58e6
 * on one, pair_us 0.044 -> 0.0573 on the other; both moves kept): the picks
 * go from 1.269 to 1.279 of cuBLAS on seed 66 and from 1.317 to 1.329 on
 * 67, and from 1.45 to 2.03 on the narrow shapes (29 x 6 x 4 x 213,722
 * from batched16 at 1.90x to 2.93x). Then measured as AUTO on four fresh
 * seeds, 68-71, with every row forced (2026-12-05-batched-32x8-model-h100-
 * s57.txt): the picks 1.357, 1.342, 1.365, 1.333 of cuBLAS where the model
 * without it picks 1.357, 1.325, 1.342, 1.333 (never a shape slower; best
 * row per shape 1.389, 1.372, 1.402, 1.342), twelve narrow shapes 1.547 ->
 * 2.047 (best 2.053). No H200 run has forced it yet: on the 683 H200 shapes
 * of seeds 32-40 and 50-57, 38 picks move to it. */
static const struct persistent_candidate {
    int variant;
    double dram_bytes_per_us, l2_bytes_per_us, pair_us;
} persistent_candidates[] = {
    {GPUTILE__GEMM_V_BATCHED_16, 6.46e6, 6.61e6, 0.0359},
    {GPUTILE__GEMM_V_BATCHED_32, 7.40e6, 4.55e6, 0.114},
    {GPUTILE__GEMM_V_BATCHED_64, 5.01e6, 1.94e6, 0.234},
    {GPUTILE__GEMM_V_BATCHED_8X64, 1.12e7, 5.82e6, 0.0859},
    {GPUTILE__GEMM_V_BATCHED_64X8, 1.55e7, 6.29e6, 0.119},
    {GPUTILE__GEMM_V_BATCHED_8X32, 8.94e6, 6.15e6, 0.044},
    {GPUTILE__GEMM_V_BATCHED_32X8, 5.12e6, 6.58e6, 0.0573},
};

/* The cp.async rows' estimate (fitted on single products) weighed against
 * the persistent rows' in a batch. After the batch kernels' per-operand
 * and L1 copies (0.8.1), over the 163 shapes of four seeds with every FFMA
 * batch row forced (H100, bench/results/2026-11-27-batched-calibration-s18-
 * seed3{2,3,4,5}.csv) the picks' geomean was 1.139 of cuBLAS at 1 and 1.155
 * at 0.85: batches of small k over many tiles went to persistent rows where
 * 64 x 64 cp.async tiles ran up to 1.6x faster. The persistent rows then
 * gained 8-byte C stores and the short last slice's skip (0.8.2): over 283
 * shapes of seven seeds on those kernels (batched-calibration-s19-seed*.csv)
 * 0.85 gives 1.179, 0.925 1.184, 0.95 1.190 (best forced row 1.208). 0.925:
 * against 0.85, AUTO on 215 shapes not in the fit (seeds 39-42, 46) changes
 * four picks, each measured faster (1.10-1.32x: 275 x 32 x 7 from 0.97 to
 * 1.27 of cuBLAS); 0.95 changes four more for the better but moves
 * 417 x 23 x 9 from 1.02 to 0.60 of cuBLAS. Refitted with the persistent
 * rows on the H200 (2026-12-03, see persistent_candidates): 0.86. */
#define BATCH_ASYNC_SCALE 0.834

/* The device's memory rate relative to the H200's: its peak (double data
 * rate x bus width, as reported), 1 where not reported, kept within 1/4
 * to 2 (a model fitted on one device says little beyond). */
static double memory_scale(const gputile__device *dev)
{
    const double peak = 2.0 * dev->mem_clock_khz * 1e-3 * dev->mem_bus_bits / 8.0; /* B/us */
    const double scale = peak > 0.0 ? peak / H200_PEAK_BYTES_PER_US : 1.0;
    return scale < 0.25 ? 0.25 : scale > 2.0 ? 2.0 : scale;
}

/* Blocks of each cp.async row resident at once when its splits run as
 * clusters of S = 2..GPUTILE__GEMM_MAX_CLUSTER: a cluster is placed whole
 * in one GPC, so the wave is often smaller than SMs x blocks per SM (on
 * the H200, 128 x 128 tiles: 264 unclustered, 224-264 in clusters; a
 * launch of 64 clusters of 4 runs in two waves, at 0.68 of the unsplit
 * speed instead of twice it). Asked of the driver once per device
 * (cudaOccupancyMaxActiveClusters); where it cannot say (no device: the
 * described devices of the CPU tests), 7/8 of the unclustered wave in
 * whole clusters, about the H200's worst case. */
#define N_CLUSTER (GPUTILE__GEMM_MAX_CLUSTER + 1)
static int cluster_wave(const gputile__device *dev, int variant, int s)
{
    static int table[GPUTILE__MAX_DEVICES][GPUTILE__GEMM_N_VARIANTS][N_CLUSTER];
    static int state[GPUTILE__MAX_DEVICES]; /* UNKNOWN, YES (table filled), NO */
    const int slots = dev->sms * rows[variant].per_sm;
    const int fallback = slots * 7 / 8 / s * s;
    if (dev->ordinal < 0 || dev->ordinal >= GPUTILE__MAX_DEVICES)
        return fallback;
    int known = __atomic_load_n(&state[dev->ordinal], __ATOMIC_ACQUIRE);
    if (known == UNKNOWN) {
        int current = -1, got[GPUTILE__GEMM_N_VARIANTS][N_CLUSTER] = {{0}};
        cudaError_t err = cudaGetDevice(&current);
        bool ok = err == cudaSuccess && current == dev->ordinal;
        for (int v = 0; ok && v < GPUTILE__GEMM_N_VARIANTS; ++v)
            for (int c = 2; ok && c < N_CLUSTER && (rows[v].flags & GPUTILE__GEMM_ASYNC); ++c) {
                ok = (err = gputile__gemm_async_max_clusters(v, c, &got[v][c])) == cudaSuccess &&
                     got[v][c] > 0;
                got[v][c] *= c;
            }
        if (!ok) { /* no answer here: the fallback, asked again next time */
            if (err != cudaSuccess)
                (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
            return fallback;
        }
        memcpy(table[dev->ordinal], got, sizeof got); /* a race writes the same values */
        __atomic_store_n(&state[dev->ordinal], YES, __ATOMIC_RELEASE);
    }
    return table[dev->ordinal][variant][s];
}

/* The tail split's ways (plan_tail): with `tiles` blocks of whole k in
 * waves of `slots`, a last wave at most half full is split along k into
 * up to slots / rem blocks per tile, at most 8, each at least 4 slices of
 * bk; 0 where that leaves fewer than 2. */
static int64_t tail_ways(int64_t slots, int64_t tiles, int64_t k, int bk)
{
    const int64_t rem = slots > 0 ? tiles % slots : 0;
    if (slots < 2 || tiles <= slots || rem == 0 || 2 * rem > slots)
        return 0;
    int64_t s = slots / rem, by_k = k / (4 * bk);
    s = s < by_k ? s : by_k;
    s = s < 8 ? s : 8;
    return s >= 2 ? s : 0;
}

/* One wave of the row (per_sm blocks on an SM) with kps of k each. */
static double wave_us(const struct fp32_candidate *c, double eff, int64_t kps)
{
    const gputile__gemm_row *r = &rows[c->variant];
    return (double)r->per_sm * r->bm * r->bn *
               ((double)gputile__ceil_div(kps, r->bk) * r->bk / (SM_FMA_PER_US * eff) + c->epi_us) +
           FIT_FIXED_US;
}

/* The last, partial wave of `rem` blocks of whole k, on `sms` SMs of
 * `slots` block slots; with `tail` (AUTO, no split asked for) as
 * plan_tail runs it where it fires: rem x s blocks of k / s, their partials
 * reduced after (the constants fitted without the tail stand for its
 * parts: a wave, the reduction's launch and bytes), if that is less;
 * *split_pays (may be NULL): whether it is. Without the tail in the model,
 * 128 x 128 looked 9% slower than it runs on 2,815 x 8,009 x 4,057 and
 * AUTO took 64 x 64 at 0.79 of cuBLAS. */
static double last_wave_us(const struct fp32_candidate *c, double eff, const gputile__device *dev,
                           int64_t k, int64_t blocks, int64_t slots, bool tail, double bw,
                           bool *split_pays)
{
    const gputile__gemm_row *r = &rows[c->variant];
    const int64_t rem = blocks % slots;
    const double whole = wave_us(c, eff, k) *
                         pow((double)gputile__ceil_div(rem, dev->sms) / r->per_sm, 1.0 - FIT_GAMMA);
    const int64_t s = tail ? tail_ways(slots, blocks, k, r->bk) : 0;
    if (split_pays != NULL)
        *split_pays = false;
    if (s == 0)
        return whole;
    const double split =
        wave_us(c, eff, k_per_split(k, s, r->bk)) *
            pow((double)gputile__ceil_div(rem * s, dev->sms) / r->per_sm, 1.0 - FIT_GAMMA) +
        FIT_REDUCE_US + 4.0 * (double)(s + 1) * rem * r->bm * r->bn / bw;
    if (split_pays != NULL)
        *split_pays = split < whole;
    return split < whole ? split : whole;
}

/* `form`'s factor of a row's eff: operands whose rows are not 16-byte
 * aligned, and C = A B^T with both copies transposing, unless one operand
 * is packed first (`pack`: then it is aligned and copied straight). The
 * factor of NT: 4,096^3 on 128 x 128 ran at 0.917 of NN's speed, 3.13
 * against 2.87 ms (H200; 0.926 of cuBLAS over the sweep's NT shapes
 * against 0.97-1.05 for the others): its two 4-byte transposing copies
 * per slice took 1.7x the shared-memory store wavefronts of NN's one. */
static double form_eff(unsigned form, bool pack)
{
    if (pack)
        return 1.0;
    return ((form & GPUTILE__GEMM_FORM_ALIGNED) ? 1.0 : FIT_UNALIGNED) *
           ((form & GPUTILE__GEMM_FORM_NT) ? FIT_NT : 1.0);
}

/* The pre-pass that packs the NT product's smaller operand (rows x k) as
 * its transpose: a launch, 8 bytes an element. */
static double pack_us(const gputile__device *dev, int64_t m, int64_t n, int64_t k)
{
    return FIT_LAUNCH_US +
           8.0 * (double)(m < n ? m : n) * (double)k / (FIT_BYTES_PER_US * memory_scale(dev));
}

/* Whether x (C's rows or columns) leaves one to four past whole tiles of
 * `tile`: what the thin kernels take. */
static bool thin_edge(int64_t x, int tile)
{
    return x > tile && x % tile != 0 && x % tile <= 4;
}

/* The thin kernels' time for n_rows rows of w (1 to 4) products of
 * length k (kernels/gemm_thin.cu): the large operand read once at
 * FIT_THIN_BYTES_PER_US where the blocks fill the SMs, slower where they
 * do not: rows along k take one to eight rows a block (more for many
 * rows), other rows 32 a block, and a block's loads are bound by
 * latency. On the H200, 514 x 302 x 13310 (2 rows left over, op(B)^T's
 * 302 rows in 10 blocks) ran its thin rows in about 290 us where whole
 * tiles of 512 x 304 took 115 (0.33 of cuBLAS; the rate alone said 15). */
static double thin_us(const gputile__device *dev, bool contiguous, int64_t n_rows, int64_t w,
                      int64_t k)
{
    const int64_t per_block = !contiguous      ? 32
                              : n_rows >= 2048 ? 8
                              : n_rows >= 512  ? 4
                              : n_rows >= 128  ? 2
                                               : 1;
    const double fill = (double)gputile__ceil_div(n_rows, per_block) / dev->sms;
    return FIT_LAUNCH_US +
           4.0 * k * n_rows * w /
               (FIT_THIN_BYTES_PER_US * memory_scale(dev) * (fill < 1.0 ? fill : 1.0));
}

/* `form`: the operands' GPUTILE__GEMM_FORM_* bits (C's alignment, and the
 * transposes that decide how the thin kernels read); `form_factor`:
 * form_eff's; `cluster`: splits of 2 to 8 may sum in clusters (else in the
 * workspace); `tail`: an unsplit choice may have its last wave split
 * (plan_tail); `whole_edges`: the tiles cover C's rows and columns past
 * whole tiles (else the thin kernels take one to four); `count` problems of m x n x k in one launch (a batch, issue 20:
 * unsplit, its edges inside the tiles; else 1); *tail_pays (may be NULL):
 * whether the estimate has the last wave split. */
static double estimate_us(const struct fp32_candidate *c, const gputile__device *dev, unsigned form,
                          double form_factor, bool cluster, bool tail, bool whole_edges, int64_t m,
                          int64_t n, int64_t k, int splits, int64_t count, bool *tail_pays)
{
    const gputile__gemm_row *r = &rows[c->variant];
    const bool c_unaligned = form & GPUTILE__GEMM_FORM_C_UNALIGNED;
    const double bw = FIT_BYTES_PER_US * memory_scale(dev);
    const double eff = c->eff * form_factor * (count > 1 ? c->batch : 1.0);
    double t = FIT_LAUNCH_US;
    /* the thin kernels take one to four rows (op(B)^T's rows: along k
     * where B^T) or columns (op(A)'s rows: along k unless A^T) past
     * whole tiles, unless the tiles cover them */
    int64_t mw = m, nw = n;
    if (!whole_edges && count == 1 && thin_edge(m, r->bm)) {
        mw -= m % r->bm;
        t += thin_us(dev, form & GPUTILE__GEMM_FORM_TB, n - (thin_edge(n, r->bn) ? n % r->bn : 0),
                     m % r->bm, k);
    }
    if (!whole_edges && count == 1 && thin_edge(n, r->bn)) {
        nw -= n % r->bn;
        t += thin_us(dev, !(form & GPUTILE__GEMM_FORM_TA), m, n % r->bn, k);
    }
    const int64_t kps = k_per_split(k, splits, r->bk), s = gputile__ceil_div(k, kps);
    const int64_t blocks = gputile__ceil_div(mw, r->bm) * gputile__ceil_div(nw, r->bn) * s * count;
    const bool clustered = cluster && s > 1 && s <= GPUTILE__GEMM_MAX_CLUSTER && dev->clusters;
    const int64_t slots =
        clustered ? cluster_wave(dev, c->variant, (int)s) : (int64_t)dev->sms * r->per_sm;
    double compute =
        (double)(blocks / slots) * wave_us(c, eff, kps) * (clustered ? FIT_CLUSTER_WAVES : 1.0);
    /* unsplit, the k that plan_tail splits (its waves are whole slices either way) */
    if (tail_pays != NULL)
        *tail_pays = false;
    if (blocks % slots != 0)
        compute += last_wave_us(c, eff, dev, s == 1 ? k : kps, blocks, slots,
                                tail && s == 1 && (r->flags & GPUTILE__GEMM_TAIL), bw, tail_pays);
    const double memory =
        (double)count *
        (4.0 * ((double)m * k + (double)k * n) / FIT_READ_BYTES_PER_US +
         4.0 * (double)m * n / (c_unaligned ? c->unaligned_c_bytes_per_us : c->bytes_per_us)) /
        memory_scale(dev);
    t += compute > memory ? compute : memory;
    if (clustered)
        t += FIT_CLUSTER_US + 4.0 * (double)s * m * n / FIT_CLUSTER_BYTES_PER_US;
    else if (s > 1)
        t += FIT_REDUCE_US + 4.0 * (double)(s + 1) * m * n / bw;
    return t;
}

/* The candidate, split and way of summing the split with the least
 * estimate; `split_k` > 0 fixes the split (the caller's), else splits 1
 * to GPUTILE_MAX_SPLIT_K leaving at least 32 of k (two slices of 16) to
 * each. Splits of 2 to 8 are weighed both in clusters and through the
 * workspace: a cluster's smaller wave can cost more than the workspace's
 * reduction (127 x 8192 x 8192 on 128 x 128 tiles: 64 clusters of 4 run
 * in two waves where 62 fit, at 0.55 of cuBLAS; 0.89 through the
 * workspace). */
struct fp32_pick {
    int variant, splits;
    int pack;         /* gputile__gemm_choice's */
    bool cluster;     /* splits of 2 to 8 sum in clusters */
    bool tail;        /* unsplit, and the estimate has the last wave split */
    bool whole_edges; /* gputile__gemm_choice's */
    double us;        /* the model's estimate of its time */
};
static struct fp32_pick fp32_search(const gputile__device *dev, unsigned form, int split_k,
                                    int64_t m, int64_t n, int64_t k)
{
    double best = -1.0;
    struct fp32_pick p = {.variant = fp32_candidates[0].variant,
                          .splits = split_k > 0 ? split_k : 1,
                          .cluster = dev->clusters};
    if (m < 1 || n < 1 || k < 1 || dev->sms < 1)
        return p;
    /* NT: also with the smaller operand packed first (1: B, 2: A) */
    const int packs = (form & GPUTILE__GEMM_FORM_NT) ? 2 : 1;
    for (int pk = 0; pk < packs; ++pk) {
        const double factor = form_eff(form, pk), before = pk ? pack_us(dev, m, n, k) : 0.0;
        for (size_t i = 0; i < sizeof fp32_candidates / sizeof fp32_candidates[0]; ++i) {
            const struct fp32_candidate *c = &fp32_candidates[i];
            const int first = split_k > 0 ? split_k : 1,
                      last = split_k > 0 ? split_k : GPUTILE_MAX_SPLIT_K;
            const int clusters = dev->clusters && c->cluster;
            /* C has rows or columns that the thin kernels would take: weigh
             * the tiles covering them too */
            const gputile__gemm_row *r = &rows[c->variant];
            const int edges =
                (r->flags & GPUTILE__GEMM_THIN) && (thin_edge(m, r->bm) || thin_edge(n, r->bn));
            for (int s = first; s <= last; ++s) {
                if (s > 1 && split_k == 0 && k_per_split(k, s, rows[c->variant].bk) < 32)
                    break;
                for (int mode = clusters; mode >= 0; --mode) {
                    if (mode == 0 && clusters && (s < 2 || s > GPUTILE__GEMM_MAX_CLUSTER))
                        break; /* the same estimate */
                    for (int whole = 0; whole <= edges; ++whole) {
                        bool tail;
                        const double t =
                            before + estimate_us(c, dev, form, factor, mode, split_k == 0, whole, m,
                                                 n, k, s, 1, &tail);
                        if (best < 0 || t < best) {
                            const int pack = pk == 0 ? 0 : n <= m ? 1 : 2;
                            best = t;
                            p = (struct fp32_pick){.variant = c->variant,
                                                   .splits = s,
                                                   .pack = pack,
                                                   .cluster = mode,
                                                   .tail = tail,
                                                   .whole_edges = whole,
                                                   .us = t};
                        }
                    }
                }
            }
        }
    }
    return p;
}

/* fp32_search, remembered: up to a few hundred estimates cost microseconds,
 * as much as a small product's kernel, and programs repeat their shapes.
 * A direct-mapped cache per thread (no lock; each thread fills its own). */
#define CHOICE_CACHE 64
struct choice_entry {
    int64_t m, n, k;
    int device, split_k;
    unsigned form;
    struct fp32_pick pick;
    bool valid;
};
static struct fp32_pick fp32_model(const gputile__device *dev, unsigned form, int split_k,
                                   int64_t m, int64_t n, int64_t k)
{
    static _Thread_local struct choice_entry cache[CHOICE_CACHE];
    const uint64_t h = ((uint64_t)m * 0x9E3779B97F4A7C15ull) ^
                       ((uint64_t)n * 0xC2B2AE3D27D4EB4Full) ^
                       ((uint64_t)k * 0x165667B19E3779F9ull) ^ (uint64_t)split_k ^
                       ((uint64_t)dev->ordinal << 8) ^ ((uint64_t)form << 16);
    struct choice_entry *e = &cache[(h >> 32) % CHOICE_CACHE];
    if (e->valid && e->m == m && e->n == n && e->k == k && e->device == dev->ordinal &&
        e->split_k == split_k && e->form == form)
        return e->pick;
    e->m = m, e->n = n, e->k = k, e->device = dev->ordinal, e->split_k = split_k;
    e->form = form, e->pick = fp32_search(dev, form, split_k, m, n, k);
    e->valid = true;
    return e->pick;
}

/* The tensor-core rows' time, for AUTO's choice between them and the FP32
 * rows in the TF32 precisions (FP32 is as accurate as 3xTF32 and more
 * accurate than TF32, so either precision may run it). A TMA row's call
 * costs a fixed part (launch, the tensor maps), a pre-pass where an operand
 * is packed (tma_packs: none with both operands' rows 16-byte aligned,
 * unless A^T B), its waves of tiles, the split's reduction and C's write:
 *   t = fixed + (packed ? prepass + 8 floats / BW' : 0) + waves x wave
 *       + waves x bm bn kps 2 x flop + (s > 1 ? split + 4 (s + 1) m n x red : 0)
 *       + 4 m n x c
 * Fitted by bench/gemm_tc_fit.py (least squares on relative error) to
 * gputile-bench gemm --sweep-shapes --precision tf32,3xtf32 with every
 * shape on the tensor-core rows, seeds 17 and 99 (168 shapes each, H200,
 * 2026-11-28: bench/results/2026-11-28-gemm-tc-calibration-h200.csv):
 * log-time rms 0.14 (TF32) and 0.11 (3xTF32). There the TMA rows took 12
 * to 22 us for products that the FP32 rows ran in 6 to 9 us (116 x 2005 x
 * 22 in TF32: 22.1 against 7.3 us) and up to 2.1 times the FP32 rows' time
 * for a k of a few dozen over a large C (13956 x 12227 x 11 in 3xTF32: 772
 * against 365 us). Picking the faster by the two models took the sweep (measured, the
 * staged epilogue in both) from 0.917 to 1.110 of cuBLAS TF32 and 3xTF32
 * from 0.965 to 1.251 of cuBLAS FP32 on seed 17, 0.967 to 1.168 and 0.979
 * to 1.254 on seed 99; fitted on seed 17 alone, the model's picks on seed
 * 99 came within 0.3% of the faster of the two measured. Checked again
 * after the staged store of C went four rows at a time (0.9.7: the TMA
 * rows 5% faster over the sweep, ...-calibration-rows4-seed*-h200.csv): a
 * refit picked within 0.2% of these constants, and these within 0.5% of
 * the faster of the two measured, on seeds 17, 99 and 5.
 * Memory terms in us per MB at the H200's bandwidth, flop in us per MFLOP
 * of one SM's share. */
struct tensor_fit {
    double fixed, prepass, prepass_mb, wave, flop, split, reduce_mb, c_mb;
};
static const struct tensor_fit fit_tf32_256 = {8.70, 2.67, 0.313, 3.33, 0.281, 3.22, 0.770, 0.351};
static const struct tensor_fit fit_tf32_128 = {8.70, 2.67, 0.313, 0.0, 0.734, 3.22, 0.770, 0.101};
static const struct tensor_fit fit_3xtf32 = {8.30, 5.19, 0.176, 0.498, 1.238, 4.17, 1.24, 0.758};

/* The rate at which the TMA rows' tiles read operands from DRAM (128-byte
 * rows per box): a floor under tensor_us() where it ranks splits of k
 * (read_floor), not where it is weighed against the FP32 model (whose
 * constants were fitted without it). H200: 72 x 10,656 x 9,464 A^T B in TF32 (C^T on 128 x 128
 * tiles) read its 403 MB B at 2.3 TB/s on 84 SMs unsplit, 2.5 TB/s split
 * 3 ways over all of them; 120 x 13,880 x 13,272 A^T B^T split 6 ways, 2.6
 * TB/s, which lost to the unsplit tiles (333 against 322 us) where the
 * model without this bound had it 5% faster. */
#define TENSOR_BYTES_PER_US 2.6e6

static const struct tensor_fit *tensor_fit_of(int variant)
{
    return variant == GPUTILE__GEMM_V_TMA_128X256_TF32   ? &fit_tf32_256
           : variant == GPUTILE__GEMM_V_TMA_128X128_TF32 ? &fit_tf32_128
                                                         : &fit_3xtf32;
}

/* Tiles of one orientation: R of rows_r rows on the tile's bm, D' of
 * rows_d on its bn, times the splits of k. */
static int64_t orientation_tiles(const gputile__gemm_row *r, int64_t rows_r, int64_t rows_d,
                                 int64_t k, int splits)
{
    const int64_t kps = k_per_split(k, splits, r->bk), s = kps > 0 ? gputile__ceil_div(k, kps) : 1;
    return gputile__ceil_div(rows_r, r->bm) * gputile__ceil_div(rows_d, r->bn) * s;
}

/* One orientation's tiles and pre-pass (tensor_us' terms): R of rows_r
 * rows on the tile's bm, D' of rows_d on its bn, `floats` packed first,
 * the tiles' time at least read_us. The orientations differ in waves
 * where bm != bn: 1,336 x 3,008 x 1,608 A B^T in TF32 is 132 tiles of
 * 128 x 256 as C and 144 (two waves) as C^T, which packs 2.1M floats
 * against 4.8M and ran 89 us where cuBLAS TF32 took 49 (H200). */
static double orientation_us(const struct tensor_fit *f, const gputile__gemm_row *r, int sms,
                             double scale, int64_t rows_r, int64_t rows_d, int64_t k, int splits,
                             double floats, double read_us)
{
    const int64_t kps = k_per_split(k, splits, r->bk);
    const double waves = (double)gputile__ceil_div(orientation_tiles(r, rows_r, rows_d, k, splits),
                                                   sms > 0 ? sms : 1);
    const double tiles_us = waves * (f->wave + f->flop * 2e-6 * r->bm * r->bn * kps);
    return (tiles_us > read_us ? tiles_us : read_us) +
           (floats > 0.0 ? f->prepass + f->prepass_mb * 8e-6 * floats / scale : 0.0);
}

static double tensor_us(const gputile__device *dev, int variant, unsigned form, int64_t m,
                        int64_t n, int64_t k, int splits, bool read_floor)
{
    const gputile__gemm_row *r = &rows[variant];
    const struct tensor_fit *f = tensor_fit_of(variant);
    /* tma_packs' floats in each orientation (C, C^T), from the form alone:
     * unaligned, as if neither operand were aligned (R packed where
     * MN-major, D' always); aligned, D' packed unless it is K-major */
    const bool ta = form & GPUTILE__GEMM_FORM_TA, tb = form & GPUTILE__GEMM_FORM_TB;
    const bool aligned = form & GPUTILE__GEMM_FORM_ALIGNED;
    const double as_c = aligned ? (tb ? 0.0 : (double)n * k) : (double)((ta ? m : 0) + n) * k,
                 as_ct = aligned ? (!ta ? 0.0 : (double)m * k) : (double)((!tb ? n : 0) + m) * k;
    const double scale = memory_scale(dev);
    const int64_t kps = k_per_split(k, splits, r->bk), s = gputile__ceil_div(k, kps);
    /* read_floor: every operand read once from DRAM at least */
    const double read_us =
        read_floor ? 4.0 * (double)(m + n) * k / (TENSOR_BYTES_PER_US * scale) : 0.0;
    const double c_us = orientation_us(f, r, dev->sms, scale, m, n, k, splits, as_c, read_us),
                 ct_us = orientation_us(f, r, dev->sms, scale, n, m, k, splits, as_ct, read_us);
    double t = f->fixed + (c_us < ct_us ? c_us : ct_us) + f->c_mb * 4e-6 * m * n / scale;
    if (s > 1)
        t += f->split + f->reduce_mb * 4e-6 * (double)(s + 1) * m * n / scale;
    return t;
}

/* The split of k for a tensor-core row. TF32 with fewer tiles than SMs:
 * k split SMs x per_sm / tiles ways, keeping at least 256 of k per split
 * (127x8192x8192 on 128x256: 4 splits; 1024^3: 4). 3xTF32, and TF32 where
 * that leaves k whole (more tiles than half the SMs): the least
 * tensor_us() over splits
 * of at least 256 of k each, a split taken only where it saves 3% (the
 * model's error between neighbouring splits): 72 x 10,656 x 9,464 A^T B
 * ran unsplit on 84 of 132 SMs (236 us; split 3 ways 182, cuBLAS TF32
 * 137; H200). The model over every shape lost where it split fewer ways
 * than the rule in TF32 (166 x 1,911 x 14,689 A^T B: 16 ways, 154 us
 * against 143 for 18), so the rule stands there; 3xTF32's picks gained
 * 1.214 -> 1.226 by the model alone (485 x 185 x 13,566: 16 -> 15 ways,
 * 0.95x, the one loss over 3%). On the 75 shapes of
 * three sweeps (seeds 17, 99, 5) where the model alone chose otherwise,
 * H200, bench/results/2026-11-29-gemm-tc-splits-*: 3xTF32 1.136 / 1.167
 * -> 1.207 / 1.245 of cuBLAS FP32 (up to 1.37x: 553 x 3,677 x 8,895 A^T
 * B, 1 -> 5 ways), TF32 70 x 10,658 x 9,462 A^T B 1.12x, 12,333 x 63 x
 * 9,280 A B^T 1.14x. */
static int tensor_splits(const gputile__device *dev, int variant, unsigned form, int64_t m,
                         int64_t n, int64_t k)
{
    const gputile__gemm_row *r = &rows[variant];
    if (dev == NULL || dev->sms <= 0 || m < 1 || n < 1 || k < 1)
        return 1;
    const int64_t tiles = gputile__ceil_div(m, r->bm) * gputile__ceil_div(n, r->bn);
    if (tiles < dev->sms && r->precision == GPUTILE_PRECISION_TF32) { /* the rule */
        int64_t s = (int64_t)dev->sms * r->per_sm / tiles, by_k = k / 256;
        s = s < by_k ? s : by_k;
        if (s > 1)
            return (int)(s > GPUTILE_MAX_SPLIT_K ? GPUTILE_MAX_SPLIT_K : s);
    }
    int best = 1;
    double best_us = tensor_us(dev, variant, form, m, n, k, 1, true);
    for (int s = 2; s <= GPUTILE_MAX_SPLIT_K && k / s >= 256; ++s) {
        if (gputile__ceil_div(k, k_per_split(k, s, r->bk)) != s)
            continue; /* the same as a smaller split */
        const double t = tensor_us(dev, variant, form, m, n, k, s, true);
        if (t < 0.97 * best_us)
            best = s, best_us = t;
    }
    return best;
}

/* AUTO's choice becomes the FP32 model's pick p. */
static void take_fp32(gputile__gemm_choice *c, int *splits, bool *tail, struct fp32_pick p)
{
    c->variant = p.variant, c->pack = p.pack, c->whole_edges = p.whole_edges;
    c->clusters = c->clusters && p.cluster;
    *splits = p.splits, *tail = p.tail;
}

gputile__gemm_choice gputile__gemm_choose(int requested, int precision, int split_k,
                                          const gputile__device *dev, unsigned form, int64_t m,
                                          int64_t n, int64_t k)
{
    gputile__gemm_choice c = {.sms = dev != NULL ? dev->sms : 0,
                              .mem_scale = dev != NULL ? memory_scale(dev) : 1.0,
                              .device = dev != NULL ? dev->ordinal : -1,
                              .clusters = dev != NULL && dev->clusters};
    int splits = split_k;
    bool tail = false; /* the model has the last wave split */
    if (requested == GPUTILE_ALGO_AUTO) {
        if (precision == GPUTILE_PRECISION_FP32 && dev != NULL) {
            take_fp32(&c, &splits, &tail, fp32_model(dev, form, split_k, m, n, k));
        } else {
            c.variant = tensor_or_default_variant(precision, dev, form, m, n, k);
            if (splits == 0)
                splits = tensor_splits(dev, c.variant, form, m, n, k);
            /* the FP32 rows where their model says they are faster, or
             * where the TMA cannot address the product */
            if (dev != NULL && dev->sms > 0 && (rows[c.variant].flags & GPUTILE__GEMM_TMA)) {
                const struct fp32_pick p = fp32_model(dev, form, split_k, m, n, k);
                if (!gputile__gemm_tma_dims(m, n, k) || /* k = 0 too: C = beta C */
                    (m > 0 && n > 0 && k > 0 &&
                     p.us < tensor_us(dev, c.variant, form, m, n, k, splits, false)))
                    take_fp32(&c, &splits, &tail, p);
            }
        }
    } else {
        c.variant = gputile__gemm_variant(requested, precision);
    }
    const gputile__gemm_row *r = &rows[c.variant];
    /* Splits of at most 2^30 slices where the split is the planner's to
     * choose: the kernels count a split's slices in an int (k of 2^34 on
     * one split of a named async row computed nothing). A split the caller
     * asked for is kept, and gputile__gemm_slices_fit() refuses it. */
    const int64_t most_k = GPUTILE__GEMM_MAX_SLICES * r->bk;
    if ((r->flags & GPUTILE__GEMM_SPLITK) && split_k == 0 && m > 0 && n > 0 && k > most_k &&
        splits < gputile__ceil_div(k, most_k))
        splits = (int)gputile__ceil_div(k, most_k); /* <= 64 for any k that fits in memory */
    if (!(r->flags & GPUTILE__GEMM_SPLITK) || splits < 1 || k < 1)
        splits = 1;
    else /* fewer splits may have work than were asked for: run and report those */
        splits = (int)gputile__ceil_div(k, k_per_split(k, splits, r->bk));
    c.splits = splits;
    /* the last partial wave may be split along k where AUTO chose no split
     * and its model says the split pays. plan_tail fired on its rule alone
     * before: on the H100's sweep (bench/results/2026-11-27-gemm-sweep-auto1-h100.csv,
     * AUTO against AUTO unsplit) the tail cost 7-44 us on 12 shapes where
     * the model gave it nothing (12,939 x 4,800 x 101: 352 against 324 us),
     * and saved 100-622 us on the 4 where it gave 24-1,716. */
    c.tail = requested == GPUTILE_ALGO_AUTO && split_k == 0 && splits == 1 && tail &&
             (r->flags & GPUTILE__GEMM_TAIL);
    return c;
}

bool gputile__gemm_slices_fit(const gputile__gemm_choice *c, int64_t k)
{
    const gputile__gemm_row *r = &rows[c->variant];
    if (k < 1 || !(r->flags & GPUTILE__GEMM_SPLITK) || r->bk < 1)
        return true; /* rows that take no split count k in 64 bits (bk 0: no slices) */
    return gputile__ceil_div(k_per_split(k, c->splits, r->bk), r->bk) <= GPUTILE__GEMM_MAX_SLICES;
}

/* A persistent row's estimate for `count` m x n x k problems (see
 * persistent_candidates). */
static double persistent_us(const struct persistent_candidate *c, const gputile__device *dev,
                            unsigned form, int64_t m, int64_t n, int64_t k, int64_t count)
{
    const gputile__gemm_row *r = &rows[c->variant];
    const double pairs = (double)count * gputile__ceil_div(m, r->bm) * gputile__ceil_div(n, r->bn);
    const double dram = 4.0 * count * ((double)m * k + (double)k * n + (double)m * n);
    /* k within half a slice, C aligned: the HALF kernel copies half of it */
    const int64_t slice_k = gputile__gemm_half_k(r, k) && !(form & GPUTILE__GEMM_FORM_C_UNALIGNED)
                                ? r->bk / 2
                                : gputile__ceil_div(k, r->bk) * r->bk;
    const double l2 = 4.0 * pairs * slice_k * (r->bm + r->bn);
    return FIT_LAUNCH_US + pairs * c->pair_us / dev->sms +
           dram / (c->dram_bytes_per_us * memory_scale(dev)) + l2 / c->l2_bytes_per_us;
}

int gputile__gemm_batched_model(const gputile__device *dev, unsigned form, int64_t m, int64_t n,
                                int64_t k, int64_t count, double *us)
{
    double best = -1.0;
    int variant = persistent_candidates[0].variant;
    if (m < 1 || n < 1 || k < 1 || count < 1) { /* nothing to multiply (C = beta C) */
        if (us != NULL)
            *us = 0.0;
        return variant;
    }
    for (size_t i = 0;
         dev->sms > 0 && i < sizeof persistent_candidates / sizeof persistent_candidates[0]; ++i) {
        const double t = persistent_us(&persistent_candidates[i], dev, form, m, n, k, count);
        if (best < 0 || t < best) {
            best = t;
            variant = persistent_candidates[i].variant;
        }
    }
    /* the cp.async rows' `batch` factors were fitted with C taken as aligned */
    const unsigned async_form = form & ~GPUTILE__GEMM_FORM_C_UNALIGNED;
    for (size_t i = 0; dev->sms > 0 && i < sizeof fp32_candidates / sizeof fp32_candidates[0];
         ++i) {
        const double t = BATCH_ASYNC_SCALE * estimate_us(&fp32_candidates[i], dev, async_form,
                                                         form_eff(async_form, false), false, false,
                                                         true, m, n, k, 1, count, NULL);
        if (best < 0 || t < best) {
            best = t;
            variant = fp32_candidates[i].variant;
        }
    }
    if (us != NULL)
        *us = best;
    return variant;
}

/* *yes from `ask`'s answer on device `ordinal`, asked there once and kept
 * in `cache` (UNKNOWN, YES or NO per device). */
static cudaError_t device_answer(int cache[GPUTILE__MAX_DEVICES], int ordinal,
                                 cudaError_t (*ask)(int *), bool *yes)
{
    int known = __atomic_load_n(&cache[ordinal], __ATOMIC_RELAXED);
    if (known == UNKNOWN) {
        int ok = 0;
        cudaError_t err = ask(&ok);
        if (err != cudaSuccess)
            return err;
        known = ok ? YES : NO;
        __atomic_store_n(&cache[ordinal], known, __ATOMIC_RELAXED);
    }
    *yes = known == YES;
    return cudaSuccess;
}

cudaError_t gputile__gemm_tensor_cores(const gputile__device *dev, bool *yes)
{
    static int cache[GPUTILE__MAX_DEVICES];
    *yes = false;
    if (dev->major != 9 || dev->minor != 0) /* sm_90a machine code runs on 9.0 only */
        return cudaSuccess;
    return device_answer(cache, dev->ordinal, gputile__gemm_wgmma_loadable, yes);
}

/* True when the choice's splits of k sum in a cluster (the cp.async rows,
 * 2 to 8 splits: the portable cluster size) and this build's kernels can
 * (asked once per device; a build without sm_90 code takes the workspace). */
static cudaError_t cluster_split(const gputile__gemm_choice *c, bool *yes)
{
    static int cache[GPUTILE__MAX_DEVICES];
    *yes = false;
    if (!c->clusters || c->splits < 2 || c->splits > GPUTILE__GEMM_MAX_CLUSTER ||
        !(rows[c->variant].flags & GPUTILE__GEMM_ASYNC))
        return cudaSuccess;
    return device_answer(cache, c->device, gputile__gemm_async_clusters, yes);
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
    cudaError_t err = blocks_per_sm(c, p->trans_a || plan->pack_r, p->trans_b && !plan->pack_d,
                                    plan->vec_a, plan->vec_b, &per_sm); /* as packed */
    if (err != cudaSuccess)
        return err;
    const int64_t slots = (int64_t)c->sms * per_sm, s = tail_ways(slots, tiles, p->k, r->bk);
    if (s != 0) {
        plan->full_tiles = tiles - tiles % slots;
        plan->tail_splits = (int)s;
        plan->tail_k = k_per_split(p->k, s, r->bk);
    }
    return cudaSuccess;
}

/* Rows of R (op(A), or op(B)^T swapped); R's rows of the other
 * orientation are D's. */
static int64_t r_rows(const gputile__gemm_args *p, bool swap)
{
    return swap ? p->n : p->m;
}

/* Which operands the TMA-fed kernel packs K-major first if it computes C
 * (swap false) or C^T: R (op(A), or op(B)^T swapped) where TMA cannot
 * address it (start or rows not 16-byte aligned), unless K-major, of 4
 * rows or more and not a batch: then it is read in place in 4 classes of
 * rows (*perm_r; kernels/gemm_wgmma_tma.cu); D' (op(B)^T, or op(A)) unless
 * K-major and addressable, so read in place (TF32's TFLOAT32 maps round
 * it, 3xTF32 splits it in shared memory). (The pre-pass of a 403 MB
 * operand took 240 of 473 us on 70 x 10,658 x 9,462 A^T B in TF32, H200.) */
static bool tma_ready(const float *x, int64_t ld)
{
    /* and a stride below 2^40 bytes (cuTensorMapEncodeTiled's bound), which
     * a one-row operand need not have: any stride passes for one row */
    return gputile__rows_aligned16(x, ld) && ld > 0 && ld < ((int64_t)1 << 38);
}

static void tma_packs(const gputile__gemm_args *p, bool swap, int *pack_r, int *pack_d, int *perm_r)
{
    const bool a_ready = tma_ready(p->a, p->lda);
    const bool b_ready = tma_ready(p->b, p->ldb);
    const bool r_kmajor = swap ? p->trans_b : !p->trans_a;
    const bool d_kmajor = swap ? !p->trans_a : p->trans_b;
    const bool r_ready = swap ? b_ready : a_ready, d_ready = swap ? a_ready : b_ready;
    *perm_r = !r_ready && r_kmajor && r_rows(p, swap) >= 4 && p->batch <= 1;
    *pack_r = !r_ready && !*perm_r;
    *pack_d = !d_kmajor || !d_ready;
}

/* Floats the pre-pass of one orientation copies. */
static int64_t prepass_floats(const gputile__gemm_args *p, bool swap)
{
    int pack_r, pack_d, perm_r;
    tma_packs(p, swap, &pack_r, &pack_d, &perm_r);
    return ((pack_r ? r_rows(p, swap) : 0) + (pack_d ? r_rows(p, !swap) : 0)) * p->k;
}

/* 3xTF32: the pre-pass splits D' into big and small parts (plan->split_d),
 * so that TMA loads both and the kernel's warps 1-3 need not split each
 * tile in shared memory (they held the consumers back: 3xTF32 ran 10%
 * faster without the split, timing only; H200, 2026-11-29), where R has
 * enough rows to pay for it: the pass moves 12 bytes an element of D'
 * (8 where D' is packed anyway), the kernel's work grows with m' as
 * well. One problem only (the pre-pass packs one matrix). */
#ifndef GPUTILE__SPLIT_D_ROWS
#define GPUTILE__SPLIT_D_ROWS 3072 /* m' where D' is read in place otherwise */
#endif
#ifndef GPUTILE__SPLIT_D_PACKED_ROWS
#define GPUTILE__SPLIT_D_PACKED_ROWS 512 /* m' where D' is packed anyway */
#endif
static bool split_d_pays(const gputile__gemm_args *p, bool swap, bool packed)
{
    return p->batch <= 1 &&
           r_rows(p, swap) >= (packed ? GPUTILE__SPLIT_D_PACKED_ROWS : GPUTILE__SPLIT_D_ROWS);
}

/* The orientation with the smaller pre-pass and waves (orientation_us)
 * wins, not swapped on a tie: 3xTF32 of row-major A and B runs swapped
 * with no pre-pass, TF32 of 127 x 8192 by 8192 x 8192 packs A (4 MB), not
 * B (256 MB); TF32 of 1,336 x 3,008 x 1,608 A B^T packs B in one wave
 * rather than A in two. */
static void plan_tma(const gputile__gemm_row *r, const gputile__gemm_choice *c,
                     const gputile__gemm_args *p, gputile__gemm_plan *plan)
{
    const struct tensor_fit *f = tensor_fit_of(c->variant);
    const double scale = c->mem_scale > 0.0 ? c->mem_scale : 1.0;
    /* The waves count where the tiles are long (k per split 512 or more)
     * or run in 4 waves or fewer; short tiles over more waves are bound by
     * C's writes, blocks start as others finish, and the pre-pass alone
     * decides, as it did before. H200, TF32: 4,445 x 13,143 x 48 A^T B^T
     * as C (14 waves of 128 x 256 tiles, B packed) took 149 us, as C^T
     * (15 waves, A packed) 136; 12,943 x 855 x 118 A^T B as C^T (3 waves)
     * 47, as C (4) 55. */
    const int64_t on = c->sms > 0 ? c->sms : 1,
                  t_c = orientation_tiles(r, p->m, p->n, p->k, plan->splits),
                  t_ct = orientation_tiles(r, p->n, p->m, p->k, plan->splits);
    const double f_c = (double)prepass_floats(p, false), f_ct = (double)prepass_floats(p, true);
    if (plan->k_per_split >= 512 || gputile__ceil_div(t_c < t_ct ? t_c : t_ct, on) <= 4)
        plan->swap =
            orientation_us(f, r, c->sms, scale, p->n, p->m, p->k, plan->splits, f_ct, 0.0) <
            orientation_us(f, r, c->sms, scale, p->m, p->n, p->k, plan->splits, f_c, 0.0);
    else
        plan->swap = f_ct < f_c;
    tma_packs(p, plan->swap, &plan->pack_r, &plan->pack_d, &plan->perm_r);
    plan->split_d = (r->flags & GPUTILE__GEMM_SPLIT_D) && split_d_pays(p, plan->swap, plan->pack_d);
    plan->ld_pack = (p->k + 63) / 64 * 64; /* 256-byte rows */
    /* C through the staged store (whole rows a warp) even where the
     * fragments' stores would fill whole sectors, unless k per split is
     * long enough to hide the store: the staged store against the
     * fragments' own (H200, 2026-11-29, bench/results/2026-11-29-gemm-tc-staged-c-h200.txt):
     * TF32 12,288^2 x 32 0.91x, 3,072^2 x 512 A^T B^T 0.95x, 2,048^3
     * 0.98x, 4,096^3 1.006x, 8,192^3 1.007x; 3xTF32 1,344 x 3,008 x 1,616
     * A B^T 0.94x, 8,192^3 1.01x. */
    plan->staged_c = plan->k_per_split <= 2048;
}

/* The workspace's parts, in order: R packed (the cp.async rows: A^T),
 * D' packed (B), split partials, tail partials (bytes each; 0 where
 * unused). */
static void parts(const gputile__gemm_plan *plan, const gputile__gemm_choice *c,
                  const gputile__gemm_args *p, size_t bytes[4])
{
    const gputile__gemm_row *r = &rows[c->variant];
    const bool async = r->flags & GPUTILE__GEMM_ASYNC; /* k rows of ld_pack */
    const int64_t rows_r = async        ? p->k
                           : plan->swap ? p->n
                                        : p->m,
                  rows_d = async        ? p->k
                           : plan->swap ? p->m
                                        : p->n;
    bytes[0] = plan->pack_r ? (size_t)rows_r * plan->ld_pack * sizeof(float) : 0;
    bytes[1] = plan->split_d  ? 2 * (size_t)rows_d * plan->ld_pack * sizeof(float)
               : plan->pack_d ? (size_t)rows_d * plan->ld_pack * sizeof(float)
                              : 0;
    bytes[2] =
        plan->splits > 1 && !plan->cluster ? (size_t)plan->splits * p->m * p->n * sizeof(float) : 0;
    if (plan->tail_splits > 1) {
        const int64_t tiles = gputile__ceil_div(p->m, r->bm) * gputile__ceil_div(p->n, r->bn);
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
    /* One to four rows or columns beyond whole tiles: the thin kernels
     * (unless AUTO's model has the tiles cover them). */
    if ((r->flags & GPUTILE__GEMM_THIN) && !c->whole_edges) {
        if (thin_edge(args->m, r->bm))
            whole->m -= args->m % r->bm;
        if (thin_edge(args->n, r->bn))
            whole->n -= args->n % r->bn;
    }
    const gputile__gemm_args *p = whole;
    plan->k_per_split = k_per_split(p->k, plan->splits, r->bk > 0 ? r->bk : 1);
    if (r->flags & GPUTILE__GEMM_VEC) {
        plan->vec_a = gputile__rows_aligned16(p->a, p->lda);
        plan->vec_b = gputile__rows_aligned16(p->b, p->ldb);
    }
    /* AUTO's NT pre-pass (cp.async rows): the packed operand's rows are
     * 128-byte aligned and run along the tile, copied 16 bytes at a time */
    if ((r->flags & GPUTILE__GEMM_ASYNC) && c->pack != 0 && !p->trans_a && p->trans_b) {
        plan->pack_d = c->pack == 1;
        plan->pack_r = c->pack == 2;
        plan->ld_pack = ((c->pack == 1 ? p->n : p->m) + 31) / 32 * 32;
        plan->vec_b = plan->pack_d ? 1 : plan->vec_b;
        plan->vec_a = plan->pack_r ? 1 : plan->vec_a;
    }
    if (r->flags & GPUTILE__GEMM_TMA)
        plan_tma(r, c, p, plan);
    gputile__gemm_plan_tile_loop(c, p, plan);
    bool cluster = false;
    cudaError_t err = cluster_split(c, &cluster);
    plan->cluster = cluster;
    if (err == cudaSuccess &&
        (r->flags & GPUTILE__GEMM_PERSISTENT)) /* the BATCHED rows (gemm_batched_plan.c) */
        err = gputile__gemm_plan_persistent(c, p, plan);
    plan->reduce_blocks =
        2 * (c->sms > 0 ? c->sms : 1); /* two per SM keep the reductions at DRAM speed */
    if (err == cudaSuccess && (r->flags & GPUTILE__GEMM_TAIL)) {
        const int64_t tiles = gputile__ceil_div(p->m, r->bm) * gputile__ceil_div(p->n, r->bn);
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

void gputile__gemm_plan_tile_loop(const gputile__gemm_choice *c, const gputile__gemm_args *p,
                                  gputile__gemm_plan *plan)
{
    const gputile__gemm_row *r = &rows[c->variant];
    if (!(r->flags & GPUTILE__GEMM_TILE_LOOP))
        return;
    const int64_t mr = plan->swap ? p->n : p->m, nr = plan->swap ? p->m : p->n; /* D's sides */
    const int64_t items = gputile__ceil_div(mr, r->bm) * gputile__ceil_div(nr, r->bn) *
                          (p->batch > 0 ? p->batch : 1) * (plan->splits > 1 ? plan->splits : 1);
    plan->grid_blocks = c->sms > 0 && items > c->sms ? c->sms : items;
}

size_t gputile__gemm_plan_without_split_d(gputile__gemm_plan *plan, const gputile__gemm_choice *c,
                                          const gputile__gemm_args *whole)
{
    size_t bytes[4];
    plan->split_d = 0;
    parts(plan, c, whole, bytes);
    return bytes[0] + bytes[1] + bytes[2] + bytes[3];
}
