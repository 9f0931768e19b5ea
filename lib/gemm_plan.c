/*
 * gemm_plan.c: the GEMM planner. One row per algorithm; AUTO picks a row for
 * the shape and device. A new kernel variant is a file in kernels/ plus a
 * row here.
 */
#include "gemm_plan.h"

static const struct {
    int algorithm;
    const char *name;
    gputile__gemm_launcher launch;
} algorithms[] = {
    {GPUTILE_ALGO_NAIVE, "naive", gputile__gemm_naive},
    {GPUTILE_ALGO_TILED, "tiled", gputile__gemm_tiled},
};

#define N_ALGORITHMS (sizeof algorithms / sizeof algorithms[0])

const char *gputile_algorithm_name(int algorithm)
{
    if (algorithm == GPUTILE_ALGO_AUTO)
        return "auto";
    for (size_t i = 0; i < N_ALGORITHMS; ++i)
        if (algorithms[i].algorithm == algorithm)
            return algorithms[i].name;
    return NULL;
}

bool gputile__gemm_known(int algorithm)
{
    return gputile_algorithm_name(algorithm) != NULL;
}

int gputile__gemm_plan(int requested, const gputile__gemm_args *args)
{
    (void)args; /* one kernel fits every shape for now */
    return requested == GPUTILE_ALGO_AUTO ? GPUTILE_ALGO_TILED : requested;
}

gputile__gemm_launcher gputile__gemm_launcher_of(int algorithm)
{
    for (size_t i = 0; i < N_ALGORITHMS; ++i)
        if (algorithms[i].algorithm == algorithm)
            return algorithms[i].launch;
    return NULL;
}
