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
    bool splits; /* supports split-K */
} algorithms[] = {
    {GPUTILE_ALGO_NAIVE, "naive", gputile__gemm_naive, false},
    {GPUTILE_ALGO_TILED, "tiled", gputile__gemm_tiled, false},
    {GPUTILE_ALGO_REGBLOCK_128, "regblock128", gputile__gemm_regblock128, true},
    {GPUTILE_ALGO_REGBLOCK_64, "regblock64", gputile__gemm_regblock64, true},
    {GPUTILE_ALGO_REGBLOCK_128_W64, "regblock128w64", gputile__gemm_regblock128w64, true},
    {GPUTILE_ALGO_REGBLOCK_128X256, "regblock128x256", gputile__gemm_regblock128x256, true},
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
    return algorithm == GPUTILE_ALGO_AUTO || (r >= 0 && algorithms[r].splits);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Blocks of the 128x128 kernel that run at once on one SM (its registers). */
#define BLOCKS_PER_SM_128 1

int gputile__gemm_plan(int requested, int split_k, int sms, gputile__gemm_args *args)
{
    int algorithm = requested;
    int splits = split_k;

    if (algorithm == GPUTILE_ALGO_AUTO) {
        algorithm = GPUTILE_ALGO_REGBLOCK_128;
        if (splits == 0 && sms > 0 && args->k > 0) {
            /* Too few 128x128 tiles to fill the SMs: split k so the grid
             * fills one wave, keeping at least 512 of k per split. Measured
             * on the H200: 8192x128x8192 and 127x8192x8192 (64 tiles) run
             * best at 2 splits, 1024^3 (64 tiles) at 2. */
            const int64_t tiles = ceil_div(args->m, 128) * ceil_div(args->n, 128);
            const int64_t slots = (int64_t)sms * BLOCKS_PER_SM_128;
            if (tiles < sms) {
                int64_t s = slots / tiles, by_k = args->k / 512;
                s = s < by_k ? s : by_k;
                splits = (int)(s < 1 ? 1 : s > GPUTILE_MAX_SPLIT_K ? GPUTILE_MAX_SPLIT_K : s);
            }
        }
    }
    if (!gputile__gemm_splits(algorithm) || splits < 1)
        splits = 1;
    if (splits > args->k)
        splits = args->k < 1 ? 1 : (int)args->k; /* every split gets some k */
    args->splits = splits;
    return algorithm;
}

gputile__gemm_launcher gputile__gemm_launcher_of(int algorithm)
{
    int r = row_of(algorithm);
    return r < 0 ? NULL : algorithms[r].launch;
}
