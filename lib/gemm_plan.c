/*
 * gemm_plan.c: the GEMM planner. One row per algorithm; AUTO picks a row
 * and a split of k for the shape and the device's SM count. A new kernel
 * variant is a file in kernels/ plus a row here.
 */
#include "gemm_plan.h"

static const struct {
    int algorithm;
    const char *name;
    gputile__gemm_launcher launch;
    int k_step; /* split-K: each split's k is a multiple of this; 0: no split-K */
    bool tensor; /* tensor cores: runs the TF32 precisions, never FP32 */
} algorithms[] = {
    {GPUTILE_ALGO_NAIVE, "naive", gputile__gemm_naive, 0, false},
    {GPUTILE_ALGO_TILED, "tiled", gputile__gemm_tiled, 0, false},
    {GPUTILE_ALGO_REGBLOCK_128, "regblock128", gputile__gemm_regblock128, 16, false},
    {GPUTILE_ALGO_REGBLOCK_64, "regblock64", gputile__gemm_regblock64, 16, false},
    {GPUTILE_ALGO_REGBLOCK_128_W64, "regblock128w64", gputile__gemm_regblock128w64, 16, false},
    {GPUTILE_ALGO_REGBLOCK_128X256, "regblock128x256", gputile__gemm_regblock128x256, 8, false},
    {GPUTILE_ALGO_WGMMA_128X128, "wgmma128x128", gputile__gemm_wgmma128, 32, true},
    {GPUTILE_ALGO_WGMMA_128X256, "wgmma128x256", gputile__gemm_wgmma256, 32, true},
    {GPUTILE_ALGO_REGBLOCK_64X128, "regblock64x128", gputile__gemm_regblock64x128, 16, false},
    {GPUTILE_ALGO_REGBLOCK_64X128_X3, "regblock64x128x3", gputile__gemm_regblock64x128x3, 16, false},
};

#define N_ALGORITHMS (sizeof algorithms / sizeof algorithms[0])

static int row_of(int algorithm)
{
    for (size_t i = 0; i < N_ALGORITHMS; ++i)
        if (algorithms[i].algorithm == algorithm)
            return (int)i;
    return -1;
}

const char *gputile_algorithm_name(int algorithm)
{
    if (algorithm == GPUTILE_ALGO_AUTO)
        return "auto";
    int r = row_of(algorithm);
    return r < 0 ? NULL : algorithms[r].name;
}

bool gputile__gemm_known(int algorithm)
{
    return gputile_algorithm_name(algorithm) != NULL;
}

bool gputile__gemm_splits(int algorithm)
{
    int r = row_of(algorithm);
    return algorithm == GPUTILE_ALGO_AUTO || (r >= 0 && algorithms[r].k_step > 0);
}

bool gputile__gemm_tensor(int algorithm)
{
    int r = row_of(algorithm);
    return r >= 0 && algorithms[r].tensor;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* AUTO's table, from gputile-bench gemm (--sweep for the splits) on the
 * H200, 2026-11-21, ratios to cuBLAS sgemm in the same run
 * (bench/results/2026-11-21-h200-gemm-planner.csv):
 * - 64x128 tiles, two blocks per SM, where C has at least 4 waves of them
 *   and the rows are 16-byte aligned (0.91 at 4096^3, 0.95 at 8192^3 and
 *   8192x8192x1024; at 2048^3, under 2 waves, 0.72);
 * - C narrower than 256: 128x128 tiles of 8 warps (8192x128x8192 split 2
 *   ways: 0.88, against 0.87 for 64x128 split 8 ways);
 * - the same where the rows are not aligned, with registers capped so that
 *   three blocks share an SM (64x128x3: 4097^3 0.99 with the tail split
 *   of kernels/gemm_regblock.cu, against 0.96 for 128x256; 64x128, at two
 *   blocks per SM there, 0.86);
 * - otherwise 128x256 tiles (2048^3 0.90).
 * `fill` is how many blocks keep every SM busy; with fewer tiles than SMs
 * the planner splits k up to fill / tiles ways (127x8192x8192 on 128x256:
 * 4 splits, 0.88; 1024^3: 4 splits, 0.98), keeping at least 256 of k per
 * split.
 * Tensor-core precisions: TF32 on 128x256 tiles, the TMA-fed kernel, at
 * every shape (on the H100 it ran 5-9x the register-staged 128x128 kernel
 * at 2048^3 to 8192^3), 3xTF32 on 128x128; k split in the same way. */
enum { ROW_128X256, ROW_128, ROW_64X128, ROW_64X128_X3, ROW_TF32, ROW_3XTF32 };
static const struct {
    int algorithm, bm, bn, fill_per_sm;
} auto_rows[] = {
    [ROW_128X256] = {GPUTILE_ALGO_REGBLOCK_128X256, 128, 256, 1},
    [ROW_128] = {GPUTILE_ALGO_REGBLOCK_128, 128, 128, 1},
    [ROW_64X128] = {GPUTILE_ALGO_REGBLOCK_64X128, 64, 128, 2},
    [ROW_64X128_X3] = {GPUTILE_ALGO_REGBLOCK_64X128_X3, 64, 128, 3},
    [ROW_TF32] = {GPUTILE_ALGO_WGMMA_128X256, 128, 256, 1},
    [ROW_3XTF32] = {GPUTILE_ALGO_WGMMA_128X128, 128, 128, 1},
};

static int64_t tiles_of(int row, const gputile__gemm_args *args)
{
    return ceil_div(args->m, auto_rows[row].bm) * ceil_div(args->n, auto_rows[row].bn);
}

int gputile__gemm_plan(int requested, int split_k, int sms, bool aligned, bool tensor,
                       gputile__gemm_args *args)
{
    int algorithm = requested;
    int splits = split_k;

    if (algorithm == GPUTILE_ALGO_AUTO) {
        int row = ROW_128X256;
        if (tensor) /* 3xTF32 runs on 128 x 128 tiles only (lib/gemm.c) */
            row = args->precision == GPUTILE_PRECISION_TF32 ? ROW_TF32 : ROW_3XTF32;
        else if (args->n < 256)
            row = ROW_128;
        else if (sms > 0 &&
                 tiles_of(ROW_64X128, args) >= 4 * (int64_t)sms * auto_rows[ROW_64X128].fill_per_sm)
            row = aligned ? ROW_64X128 : ROW_64X128_X3;
        algorithm = auto_rows[row].algorithm;
        const int64_t tiles = tiles_of(row, args);
        if (splits == 0 && sms > 0 && args->k > 0 && tiles < sms) {
            int64_t s = (int64_t)sms * auto_rows[row].fill_per_sm / tiles, by_k = args->k / 256;
            s = s < by_k ? s : by_k;
            splits = (int)(s < 1 ? 1 : s > GPUTILE_MAX_SPLIT_K ? GPUTILE_MAX_SPLIT_K : s);
        }
    }
    if (!gputile__gemm_splits(algorithm) || splits < 1 || args->k < 1) {
        splits = 1;
    } else {
        /* The kernels give each split the same k, rounded up to their k
         * step, so fewer splits may have work than were asked for: run and
         * report the number that does. */
        const int64_t step = algorithms[row_of(algorithm)].k_step;
        const int64_t per = ceil_div(ceil_div(args->k, splits), step) * step;
        splits = (int)ceil_div(args->k, per);
    }
    args->splits = splits;
    /* the last partial wave may be split along k (kernels/gemm_regblock.cu) where AUTO chose no split */
    args->tail_sms = requested == GPUTILE_ALGO_AUTO && split_k == 0 && splits == 1 ? sms : 0;
    return algorithm;
}

gputile__gemm_launcher gputile__gemm_launcher_of(int algorithm)
{
    int r = row_of(algorithm);
    return r < 0 ? NULL : algorithms[r].launch;
}
