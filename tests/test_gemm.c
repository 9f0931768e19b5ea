/* SPDX-License-Identifier: MIT */
/*
 * test_gemm.c (GPU): every GEMM algorithm against cuBLAS sgemm (pedantic
 * FP32) on device matrices, over a table of shapes plus random ones drawn
 * each run. Each case runs twice: small integers (exact, compared for
 * equality) and uniform floats (within (k + 4) * FLT_EPSILON of the
 * |alpha| |A||B| + |beta C| scale). A and B are views inside NaN-filled
 * parents (a read outside the view shows as NaN); C is a view inside a
 * parent poisoned with a NaN pattern, its guard band compared bit for bit
 * after the call; with beta = 0 C's view is poisoned too.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "gputile.h"
#include "support/gemm_shapes.h"
#include "support/gpu.h"
#include "support/variants.h"

/* Outside the view: `outside`; inside: drawn from the data kind. */
static void fill(placed *p, bool integers, float outside)
{
    for (size_t r = 0; r < p->parent_height; ++r)
        for (size_t c = 0; c < p->stride; ++c)
            p->host[r * p->stride + c] = !gputest_inside(p, r, c) ? outside
                                         : integers               ? gputest_small_int(-3, 3)
                                                                  : gputest_uniform(-1, 1);
}

/* Every FP32 row of the variant table, and those that take a split of k
 * also forced to split, so the deterministic split-K reduction runs on
 * every shape too; then AUTO. */
static struct gputest_run algorithms[GPUTEST_MAX_RUNS];
static size_t n_algorithms;

static void run_case(struct gemm_case tc, bool integers)
{
    size_t m = tc.m >= 0 ? (size_t)tc.m : 1 + gputest_rand() % 2000;
    size_t n = tc.n >= 0 ? (size_t)tc.n : 1 + gputest_rand() % 2000;
    size_t k = tc.k >= 0 ? (size_t)tc.k : 1 + gputest_rand() % 2000;
    /* GPUTEST_SMALL: m, n above 320 to 256..319 (two 128x256 tiles, the same
     * edges mod 64), k above 160 to 128..159 (several k slices, every split) */
    m = gputest_shrink(m, 256, 64);
    n = gputest_shrink(n, 256, 64);
    k = gputest_shrink(k, 128, 32);
    placed a, b, c, absa, absb;
    cr_log_info("m=%zu n=%zu k=%zu op(A)=%c op(B)=%c alpha=%g beta=%g %s", m, n, k,
                tc.ta ? 'T' : 'N', tc.tb ? 'T' : 'N', tc.alpha, tc.beta,
                integers ? "integers" : "floats");

    gputest_place(&a, tc.ta ? k : m, tc.ta ? m : k, tc.off, tc.extra);
    gputest_place(&b, tc.tb ? n : k, tc.tb ? k : n, tc.off, tc.extra);
    gputest_place(&c, m, n, tc.off, tc.extra);
    fill(&a, integers, NAN);
    fill(&b, integers, NAN);
    fill(&c, integers, gputest_poison());
    if (tc.beta == 0.0f)
        for (size_t i = 0; i < gputest_parent_size(&c); ++i)
            c.host[i] = gputest_poison();
    gputest_upload(&a);
    gputest_upload(&b);

    /* Reference: cuBLAS into its own copy of C; error scale from |A||B|. */
    float *ref = malloc(gputest_parent_size(&c) * sizeof(float));
    float *scale = malloc(gputest_parent_size(&c) * sizeof(float));
    float *got = malloc(gputest_parent_size(&c) * sizeof(float));
    cr_assert(ref && scale && got);
    gputest_upload(&c);
    if (m > 0 && n > 0) {
        gputest_cublas_gemm(tc.ta, tc.tb, tc.alpha, gputest_view_of(&a, a.dev),
                            gputest_view_of(&b, b.dev), tc.beta, gputest_view_of(&c, c.dev));
    }
    gputest_download(&c, ref);
    if (!integers && m > 0 && n > 0) {
        gputest_place(&absa, a.height, a.width, tc.off, tc.extra);
        gputest_place(&absb, b.height, b.width, tc.off, tc.extra);
        for (size_t i = 0; i < gputest_parent_size(&a); ++i)
            absa.host[i] = fabsf(a.host[i]);
        for (size_t i = 0; i < gputest_parent_size(&b); ++i)
            absb.host[i] = fabsf(b.host[i]);
        gputest_upload(&absa);
        gputest_upload(&absb);
        gputest_upload(&c);
        gputest_cublas_gemm(tc.ta, tc.tb, fabsf(tc.alpha), gputest_view_of(&absa, absa.dev),
                            gputest_view_of(&absb, absb.dev), 0.0f, gputest_view_of(&c, c.dev));
        gputest_download(&c, scale);
        gputest_unplace(&absa);
        gputest_unplace(&absb);
    }

    if (n_algorithms == 0)
        n_algorithms = gputest_runs(0, algorithms);
    for (size_t ai = 0; ai < n_algorithms; ++ai) {
        gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
        opt.algorithm = algorithms[ai].algorithm;
        opt.split_k = algorithms[ai].split_k;
        opt.algorithm_used = -1;
        gputest_upload(&c);
        gputile_status s;
        GPUTEST_RETRY_OOM(s, gputest_upload(&c),
                          gputile_gemm(tc.ta, tc.tb, tc.alpha, gputest_view_of(&a, a.dev),
                                       gputest_view_of(&b, b.dev), tc.beta,
                                       gputest_view_of(&c, c.dev), NULL, &opt));
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s: %s", gputile_algorithm_name(algorithms[ai].algorithm),
                     gputile_strerror(s));
        GPUTEST_CUDA(cudaDeviceSynchronize());
        cr_assert(opt.algorithm_used != GPUTILE_ALGO_AUTO && opt.algorithm_used > 0,
                  "algorithm_used not set: %d", opt.algorithm_used);
        if (algorithms[ai].algorithm != GPUTILE_ALGO_AUTO)
            cr_assert_eq(opt.algorithm_used, algorithms[ai].algorithm);
        if (algorithms[ai].split_k > 0) /* a forced split: at most that many have k to do */
            cr_assert(opt.split_k_used >= 1 && opt.split_k_used <= algorithms[ai].split_k &&
                          (size_t)opt.split_k_used <= (k > 0 ? k : 1),
                      "split_k_used %d for split_k %d, k %zu", opt.split_k_used,
                      algorithms[ai].split_k, k);
        gputest_download(&c, got);

        char name[64];
        snprintf(name, sizeof name, "%s (split %d)", gputile_algorithm_name(opt.algorithm_used),
                 opt.split_k_used);
        for (size_t r = 0; r < c.parent_height; ++r)
            for (size_t col = 0; col < c.stride; ++col) {
                size_t i = r * c.stride + col;
                if (!gputest_inside(&c, r, col)) {
                    cr_assert(memcmp(&got[i], &c.host[i], sizeof(float)) == 0,
                              "%s: guard band written at parent (%zu, %zu)", name, r, col);
                    continue;
                }
                size_t vr = r - c.row0, vc = col - c.col0;
                cr_assert(!isnan(got[i]),
                          "%s: C(%zu, %zu) is NaN (unwritten or read outside a view)", name, vr,
                          vc);
                if (integers) {
                    cr_assert(got[i] == ref[i], "%s: C(%zu, %zu) = %.9g, cuBLAS %.9g", name, vr, vc,
                              got[i], ref[i]);
                } else {
                    /* c.host holds the poison NaN where beta = 0 */
                    double c0 = tc.beta == 0.0f ? 0.0 : fabs((double)tc.beta * c.host[i]);
                    double bound = (double)(k + 4) * FLT_EPSILON * (scale[i] + c0) + FLT_MIN;
                    cr_assert(fabs((double)got[i] - ref[i]) <= bound,
                              "%s: C(%zu, %zu) = %.9g, cuBLAS %.9g, |diff| %.3g > bound %.3g", name,
                              vr, vc, got[i], ref[i], fabs((double)got[i] - ref[i]), bound);
                }
            }
    }
    free(ref);
    free(scale);
    free(got);
    gputest_unplace(&a);
    gputest_unplace(&b);
    gputest_unplace(&c);
}

ParameterizedTestParameters(gemm, against_cublas)
{
    return cr_make_param_array(struct gemm_case, gputest_gemm_cases, gputest_gemm_ncases);
}

ParameterizedTest(struct gemm_case *tc, gemm, against_cublas, .init = gputest_require_device,
                  .timeout = 120)
{
    run_case(*tc, true);
    run_case(*tc, false);
}

/* alpha = 0 sets C = beta C without reading A or B (gputile.h; BLAS's
 * rule): A and B are NaN and infinities inside their views, so a kernel
 * that multiplied them by 0 would leave NaN in C. beta 0.5 (C exact
 * halves of small integers) and 0 (C poisoned: zeros); every FP32 row,
 * forced splits, AUTO, and AUTO in the TF32 precisions. */
Test(gemm, alpha_zero_reads_neither_a_nor_b, .init = gputest_require_device, .timeout = 120)
{
    const size_t m = 37, n = 45, k = 29;
    placed a, b, c;
    gputest_place(&a, m, k, 1, 3);
    gputest_place(&b, k, n, 2, 1);
    gputest_place(&c, m, n, 3, 2);
    for (size_t i = 0; i < gputest_parent_size(&a); ++i)
        a.host[i] = i % 2 ? NAN : INFINITY;
    for (size_t i = 0; i < gputest_parent_size(&b); ++i)
        b.host[i] = i % 3 ? -INFINITY : NAN;
    gputest_upload(&a);
    gputest_upload(&b);
    float *before = malloc(gputest_parent_size(&c) * sizeof(float));
    float *got = malloc(gputest_parent_size(&c) * sizeof(float));
    cr_assert(before && got);
    struct gputest_run runs[GPUTEST_MAX_RUNS];
    const size_t nruns = gputest_runs(0, runs);
    const int precisions[] = {GPUTILE_PRECISION_FP32, GPUTILE_PRECISION_TF32,
                              GPUTILE_PRECISION_FP32_3XTF32};
    for (int bz = 0; bz < 2; ++bz) {
        const float beta = bz ? 0.0f : 0.5f;
        fill(&c, true, gputest_poison());
        if (bz)
            for (size_t i = 0; i < gputest_parent_size(&c); ++i)
                c.host[i] = gputest_poison();
        memcpy(before, c.host, gputest_parent_size(&c) * sizeof(float));
        for (size_t p = 0; p < 3; ++p)
            for (size_t r = 0; r < (p == 0 ? nruns : 1); ++r) {
                gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
                o.precision = precisions[p];
                o.algorithm = p == 0 ? runs[r].algorithm : GPUTILE_ALGO_AUTO;
                o.split_k = p == 0 ? runs[r].split_k : 0;
                gputest_upload(&c);
                const gputile_status s = gputile_gemm(
                    GPUTILE_OP_N, GPUTILE_OP_N, 0.0f, gputest_view_of(&a, a.dev),
                    gputest_view_of(&b, b.dev), beta, gputest_view_of(&c, c.dev), NULL, &o);
                cr_assert_eq(s, GPUTILE_SUCCESS, "%s, precision %d: %s",
                             gputile_algorithm_name(o.algorithm), precisions[p],
                             gputile_status_name(s));
                GPUTEST_CUDA(cudaDeviceSynchronize());
                gputest_download(&c, got);
                for (size_t row = 0; row < c.parent_height; ++row)
                    for (size_t col = 0; col < c.stride; ++col) {
                        const size_t i = row * c.stride + col;
                        const float want = !gputest_inside(&c, row, col) ? before[i]
                                           : bz                          ? 0.0f
                                                                         : 0.5f * before[i];
                        cr_assert(memcmp(&got[i], &want, sizeof want) == 0,
                                  "%s (split %d), precision %d, beta %g: C parent (%zu, %zu) = "
                                  "%.9g, want %.9g",
                                  gputile_algorithm_name(o.algorithm), o.split_k, precisions[p],
                                  (double)beta, row, col, (double)got[i], (double)want);
                    }
            }
    }
    free(before);
    free(got);
    gputest_unplace(&a);
    gputest_unplace(&b);
    gputest_unplace(&c);
}
