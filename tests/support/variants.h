/* SPDX-License-Identifier: MIT */
/*
 * variants.h: the GEMM variant table (kernels/gemm_variants.h) for the
 * tests and gputile-bench, so that they iterate the library's rows instead
 * of listing algorithm ids: a new row is tested and measured with no edit
 * here.
 */
#ifndef GPUTILE_TEST_VARIANTS_H
#define GPUTILE_TEST_VARIANTS_H

#include <stddef.h>

#include "../../kernels/gemm_variants.h"

static const struct gputest_variant {
    const char *id; /* the row's internal name */
    int algorithm, precision, bm, bn, bk;
    unsigned flags; /* GPUTILE__GEMM_* */
} gputest_variants[] = {
#define GPUTEST_VARIANT(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, \
                        flags)                                                               \
    {#id, algorithm, precision, bm, bn, bk, flags},
    GPUTILE__GEMM_VARIANTS(GPUTEST_VARIANT)
#undef GPUTEST_VARIANT
};
#define GPUTEST_N_VARIANTS (sizeof gputest_variants / sizeof gputest_variants[0])

/* One past the largest algorithm id a row names: the first unknown one. */
static inline int gputest_n_algorithms(void)
{
    int n = 1;
    for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v)
        n = gputest_variants[v].algorithm >= n ? gputest_variants[v].algorithm + 1 : n;
    return n;
}

/* Whether a row runs `algorithm` in FP32 (FFMA). */
static inline int gputest_is_fp32_algorithm(int algorithm)
{
    for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v)
        if (gputest_variants[v].algorithm == algorithm &&
            gputest_variants[v].precision == GPUTILE_PRECISION_FP32)
            return 1;
    return 0;
}

/* A run of a test case: algorithm, split of k (0: the planner's), precision. */
struct gputest_run {
    int algorithm, split_k, precision;
};
#define GPUTEST_MAX_RUNS (3 * GPUTEST_N_VARIANTS + 3)

/* The runs that cover every row of one kind (FP32 FFMA rows, or the
 * tensor-core rows): each row unsplit and, where it takes a split of k,
 * forced to split 2 to 8 ways (varying by row: the cp.async rows sum
 * these in a cluster) and 9 to 21 ways (their workspace and reduction
 * launch); then AUTO in each precision of that kind. A row that only
 * AUTO reaches (its algorithm and precision those of a row before it) is
 * left to the tests of what AUTO runs. Returns how many were written to
 * out. */
static inline size_t gputest_runs(int tensor, struct gputest_run *out)
{
    size_t n = 0;
    for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v) {
        const struct gputest_variant *r = &gputest_variants[v];
        if ((r->precision != GPUTILE_PRECISION_FP32) != (tensor != 0))
            continue;
        int named = 1; /* a name runs the first row of its algorithm and precision */
        for (size_t u = 0; u < v; ++u)
            named = named && (gputest_variants[u].algorithm != r->algorithm ||
                              gputest_variants[u].precision != r->precision);
        if (!named)
            continue;
        const int splits = (r->flags & GPUTILE__GEMM_SPLITK) != 0;
        out[n++] = (struct gputest_run){r->algorithm, splits, r->precision};
        if (splits) {
            out[n++] = (struct gputest_run){r->algorithm, 2 + (int)(v * 5 % 7), r->precision};
            out[n++] = (struct gputest_run){r->algorithm, 9 + (int)(v % 4) * 4, r->precision};
        }
    }
    if (!tensor) {
        out[n++] = (struct gputest_run){GPUTILE_ALGO_AUTO, 0, GPUTILE_PRECISION_FP32};
    } else {
        out[n++] = (struct gputest_run){GPUTILE_ALGO_AUTO, 0, GPUTILE_PRECISION_FP32_3XTF32};
        out[n++] = (struct gputest_run){GPUTILE_ALGO_AUTO, 0, GPUTILE_PRECISION_TF32};
    }
    return n;
}

#endif
