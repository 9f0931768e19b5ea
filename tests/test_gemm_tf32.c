/* SPDX-License-Identifier: MIT */
/*
 * test_gemm_tf32.c: the tensor-core precisions of gputile_gemm()
 * (GPUTILE_PRECISION_FP32_3XTF32 and _TF32) against a float64 reference
 * computed on the GPU, with cuBLAS on the same inputs beside them.
 *
 * Metrics, with C64 the float64 result and s_ij = |alpha| sum_k |a_ik b_kj|
 * + |beta c_ij| the scale of element (i, j):
 *   max:  the largest |C - C64|_ij / s_ij (elementwise),
 *   norm: sqrt(sum (C - C64)_ij^2 / sum s_ij^2) (normwise; the issue's
 *         "relative error", robust to cancellation).
 * Asserted, for every shape of the foundation suite
 * (support/gemm_shapes.c), for each wgmma algorithm (and a forced split of
 * k) and through AUTO, on two input kinds, uniform in [-1, 1) and a wide
 * exponent range (mantissa uniform in [1, 2), exponent uniform in -20..20,
 * random sign), against cuBLAS on the same inputs:
 *   3XTF32 vs pedantic FP32: norm <= 2 max(cuBLAS's, 2^-22),
 *                            max <= 2 max(cuBLAS's, 2^-20)
 *   TF32 vs TF32 tensor op:  norm <= 2 max(cuBLAS's, 2^-12 / sqrt(k)
 *                                       (1 + 4 / sqrt(m n))),
 *                            (wide exponents: 2 max(cuBLAS's, 2^-11)),
 *                            max <= 2 max(cuBLAS's, 2^-10)
 * The floors matter only where cuBLAS is exact or (tiny shapes) does not
 * use tensor cores: 3xTF32 keeps 2 x 11 significant bits of each input,
 * so one product can be off by up to ~3 2^-22, ~2^-23 rms (k = 1 shows it);
 * TF32 keeps 11 bits, a product up to ~2^-10, ~2^-11.3 rms. On uniform
 * inputs TF32's normwise floor falls with k as its rounding errors do
 * (random signs over a scale that grows like k): it stays below cuBLAS's
 * own error at large k, so there the bound is cuBLAS's error times 2. With
 * wide exponents a few products dominate each sum and the error stays
 * about one product's, so the floor does too (cuBLAS's small shapes, not
 * on tensor cores, are far more accurate there). That catches inputs
 * truncated to tf32 instead of rounded: 2.7x cuBLAS's error at 4096^3
 * (what the tensor cores do with raw fp32 bits, measured on the H100). A third input kind,
 * small integers, must come out exactly (every product and sum is exact in
 * TF32 and FP32).
 * Every run: A and B are views inside NaN-filled parents, C a view inside a
 * poisoned parent whose guard band must come back bit for bit, and with
 * beta = 0 C's view is poisoned too. A failure prints the first wrong
 * elements and where the wrong ones are (row and column modulo 16, whole
 * rows or columns), to debug a layout from one GPU run.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/expect.h"
#include "support/gemm_shapes.h"
#include "support/gpu.h"
#include "support/ref64.h"
#include "support/variants.h"

#define MAX_FLOOR_3XTF32 (1.0 / (1 << 20))
#define MAX_FLOOR_TF32 (1.0 / (1 << 10))
#define NORM_FLOOR_3XTF32 (1.0 / (1 << 22))
/* uniform inputs: falls with k, with room for the spread of an rms over
 * few elements (m n of them); wide exponents: a few products dominate
 * each sum, so about one product's error, whatever k */
#define NORM_FLOOR_TF32(k, mn, kind)                                        \
    ((kind) == WIDE ? 1.0 / (1 << 11)                                       \
                    : 1.0 / (1 << 12) / sqrt((double)((k) > 0 ? (k) : 1)) * \
                          (1 + 4 / sqrt((double)((mn) > 0 ? (mn) : 1))))

/* .init: a device of compute capability 9.0 (Hopper, sm_90a). */
static void require_wgmma(void)
{
    gputest_require_device();
    if (!gputest_has_wgmma())
        cr_skip_test("the wgmma kernels need a compute capability 9.0 device (sm_90a)");
}

enum kind { INTEGERS, UNIFORM, WIDE };
static const char *const kind_name[] = {"integers", "uniform", "wide exponents"};

static float draw(enum kind kind)
{
    switch (kind) {
    case INTEGERS:
        return gputest_small_int(-3, 3);
    case UNIFORM:
        return gputest_uniform(-1, 1);
    default: {
        float x = ldexpf(gputest_uniform(1, 2), (int)(gputest_rand() % 41) - 20);
        return gputest_rand() & 1 ? -x : x;
    }
    }
}

static void fill(placed *p, enum kind kind, float outside)
{
    for (size_t r = 0; r < p->parent_height; ++r)
        for (size_t c = 0; c < p->stride; ++c)
            p->host[r * p->stride + c] = gputest_inside(p, r, c) ? draw(kind) : outside;
}

/* What one run of a GEMM left in C's parent, against the reference. */
typedef struct verdict {
    double err;     /* max; INFINITY for NaN or a wrong guard band */
    double norm;    /* norm */
    char why[2048]; /* empty, or what went wrong and where */
} verdict;

/* The metric of `got` (C's whole parent), and a description of the
 * elements whose error exceeds `limit` (exact: any difference). */
static void judge(const placed *c, const float *got, const double *ref, const double *scale,
                  bool exact, double limit, verdict *v)
{
    size_t m = c->height, n = c->width, wrong = 0, listed = 0, row_hist[16] = {0},
           col_hist[16] = {0};
    size_t *bad_in_row = calloc(m + 1, sizeof *bad_in_row),
           *bad_in_col = calloc(n + 1, sizeof *bad_in_col);
    cr_assert(bad_in_row && bad_in_col);
    char first[1024] = "";
    int len = 0;
    double sq_err = 0, sq_scale = 0;
    v->err = 0;
    v->why[0] = '\0';
    for (size_t r = 0; r < c->parent_height; ++r)
        for (size_t col = 0; col < c->stride; ++col) {
            size_t i = r * c->stride + col;
            if (!gputest_inside(c, r, col)) {
                if (memcmp(&got[i], &c->host[i], sizeof(float)) != 0 && v->why[0] == '\0') {
                    snprintf(v->why, sizeof v->why, "guard band written at parent (%zu, %zu)", r,
                             col);
                    v->err = INFINITY;
                }
                continue;
            }
            size_t vr = r - c->row0, vc = col - c->col0, e = vr * n + vc;
            double d = fabs((double)got[i] - ref[e]);
            double rel = isnan(got[i])  ? INFINITY
                         : scale[e] > 0 ? d / scale[e]
                         : d > 0        ? INFINITY
                                        : 0;
            if (rel > v->err)
                v->err = rel;
            sq_err += isnan(got[i]) ? INFINITY : d * d;
            sq_scale += scale[e] * scale[e];
            bool bad = exact ? !(got[i] == (float)ref[e]) : !(rel <= limit);
            if (!bad)
                continue;
            ++wrong;
            ++row_hist[vr % 16];
            ++col_hist[vc % 16];
            ++bad_in_row[vr];
            ++bad_in_col[vc];
            if (listed < 6 && len < (int)sizeof first - 100) {
                len += snprintf(first + len, sizeof first - (size_t)len,
                                " (%zu,%zu) got %.9g want %.9g;", vr, vc, got[i], ref[e]);
                ++listed;
            }
        }
    v->norm = sq_scale > 0 ? sqrt(sq_err / sq_scale) : sq_err > 0 ? INFINITY : 0;
    if (wrong > 0 && v->why[0] == '\0') {
        size_t full_rows = 0, full_cols = 0;
        for (size_t r = 0; r < m; ++r)
            full_rows += bad_in_row[r] == n;
        for (size_t col = 0; col < n; ++col)
            full_cols += bad_in_col[col] == m;
        int l = snprintf(v->why, sizeof v->why,
                         "%zu of %zu elements wrong; whole rows %zu, whole columns %zu; first:%s\n"
                         "  wrong by row %% 16:",
                         wrong, m * n, full_rows, full_cols, first);
        for (int h = 0; h < 16 && l < (int)sizeof v->why - 40; ++h)
            l += snprintf(v->why + l, sizeof v->why - (size_t)l, " %zu", row_hist[h]);
        l += snprintf(v->why + l, sizeof v->why - (size_t)l, "\n  wrong by col %% 16:");
        for (int h = 0; h < 16 && l < (int)sizeof v->why - 40; ++h)
            l += snprintf(v->why + l, sizeof v->why - (size_t)l, " %zu", col_hist[h]);
    }
    free(bad_in_row);
    free(bad_in_col);
}

/* Frees what one check took: the reference and result on both sides and
 * the three parents. */
static void release(placed *a, placed *b, placed *c, double *ref, double *scale, float *got,
                    double *dref, double *dscale)
{
    free(ref);
    free(scale);
    free(got);
    GPUTEST_CUDA(cudaFree(dref));
    GPUTEST_CUDA(cudaFree(dscale));
    gputest_unplace(a);
    gputest_unplace(b);
    gputest_unplace(c);
}

/* The runs of each case: every tensor-core row of the variant table,
 * unsplit and forced to split, then AUTO in both precisions. */
static struct gputest_run runs[GPUTEST_MAX_RUNS];
static size_t n_runs;
#define NRUNS (n_runs ? n_runs : (n_runs = gputest_runs(1, runs)))

/* One shape and input kind: the reference, cuBLAS FP32 and TF32, then
 * every run of `runs` (or only those of `only_precision` when >= 0). The
 * shape shrinks under GPUTEST_SMALL unless `full`. */
static void check_sized(struct gemm_case tc, enum kind kind, int only_precision, bool full)
{
    size_t m = tc.m >= 0 ? (size_t)tc.m : 1 + gputest_rand() % 2000;
    size_t n = tc.n >= 0 ? (size_t)tc.n : 1 + gputest_rand() % 2000;
    size_t k = tc.k >= 0 ? (size_t)tc.k : 1 + gputest_rand() % 2000;
    /* GPUTEST_SMALL (compute-sanitizer): as tests/test_gemm.c shrinks */
    if (!full) {
        m = gputest_shrink(m, 256, 64);
        n = gputest_shrink(n, 256, 64);
        k = gputest_shrink(k, 128, 32);
    }
    char shape[160];
    snprintf(shape, sizeof shape,
             "m=%zu n=%zu k=%zu op(A)=%c op(B)=%c alpha=%g beta=%g off=%d extra=%d, %s", m, n, k,
             tc.ta ? 'T' : 'N', tc.tb ? 'T' : 'N', tc.alpha, tc.beta, tc.off, tc.extra,
             kind_name[kind]);
    cr_log_info("%s", shape);

    placed a, b, c;
    gputest_place(&a, tc.ta ? k : m, tc.ta ? m : k, tc.off, tc.extra);
    gputest_place(&b, tc.tb ? n : k, tc.tb ? k : n, tc.off, tc.extra);
    gputest_place(&c, m, n, tc.off, tc.extra);
    fill(&a, kind, NAN);
    fill(&b, kind, NAN);
    fill(&c, kind == WIDE ? UNIFORM : kind, gputest_poison());
    if (tc.beta == 0.0f)
        for (size_t i = 0; i < gputest_parent_size(&c); ++i)
            c.host[i] = gputest_poison();
    gputest_upload(&a);
    gputest_upload(&b);
    gputest_upload(&c);

    const size_t mn = m * n, psize = gputest_parent_size(&c);
    double *ref = malloc((mn ? mn : 1) * sizeof(double)),
           *scale = malloc((mn ? mn : 1) * sizeof(double));
    float *got = malloc(psize * sizeof(float));
    double *dref, *dscale;
    cr_assert(ref && scale && got);
    GPUTEST_CUDA(gputest_malloc((void **)&dref, (mn ? mn : 1) * sizeof(double)));
    GPUTEST_CUDA(gputest_malloc((void **)&dscale, (mn ? mn : 1) * sizeof(double)));
    gputile_matrix va = gputest_view_of(&a, a.dev), vb = gputest_view_of(&b, b.dev),
                   vc = gputest_view_of(&c, c.dev);
    GPUTEST_CUDA_RETRY(gputest_gemm_ref64(
        tc.ta, tc.tb, (int64_t)m, (int64_t)n, (int64_t)k, tc.alpha, va.elements, (int64_t)va.stride,
        vb.elements, (int64_t)vb.stride, tc.beta, vc.elements, (int64_t)vc.stride, dref, dscale));
    GPUTEST_CUDA(cudaMemcpy(ref, dref, mn * sizeof(double), cudaMemcpyDeviceToHost));
    GPUTEST_CUDA(cudaMemcpy(scale, dscale, mn * sizeof(double), cudaMemcpyDeviceToHost));

    /* cuBLAS's errors on the same inputs (k = 0 or alpha = 0: cuBLAS
     * scales C like we do, error 0) */
    double cublas_err[2] = {0, 0}, cublas_norm[2] = {0, 0};
    verdict v;
    for (int t = 0; t < 2 && m > 0 && n > 0; ++t) {
        gputest_upload(&c);
        if (t == 0)
            gputest_cublas_gemm(tc.ta, tc.tb, tc.alpha, va, vb, tc.beta, vc);
        else
            gputest_cublas_gemm_tf32(tc.ta, tc.tb, tc.alpha, va, vb, tc.beta, vc);
        gputest_download(&c, got);
        judge(&c, got, ref, scale, false, INFINITY, &v);
        cublas_err[t] = v.err;
        cublas_norm[t] = v.norm;
    }
    cr_log_info("  cuBLAS FP32 (pedantic): max %.3g norm %.3g; cuBLAS TF32: max %.3g norm %.3g",
                cublas_err[0], cublas_norm[0], cublas_err[1], cublas_norm[1]);

    for (size_t ri = 0; ri < NRUNS; ++ri) {
        if (only_precision >= 0 && runs[ri].precision != only_precision)
            continue;
        const bool three = runs[ri].precision == GPUTILE_PRECISION_FP32_3XTF32;
        const double floor_ = three ? MAX_FLOOR_3XTF32 : MAX_FLOOR_TF32;
        const double base = three ? cublas_err[0] : cublas_err[1];
        const double limit = 2 * (base > floor_ ? base : floor_);
        const double norm_floor = three ? NORM_FLOOR_3XTF32 : NORM_FLOOR_TF32(k, m * n, kind);
        const double norm_base = three ? cublas_norm[0] : cublas_norm[1];
        const double norm_limit = 2 * (norm_base > norm_floor ? norm_base : norm_floor);
        gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
        opt.algorithm = runs[ri].algorithm;
        opt.split_k = runs[ri].split_k;
        opt.precision = runs[ri].precision;
        opt.algorithm_used = -1;
        gputest_upload(&c);
        gputile_status s;
        GPUTEST_RETRY_OOM(s, gputest_upload(&c),
                          gputile_gemm(tc.ta, tc.tb, tc.alpha, va, vb, tc.beta, vc, NULL, &opt));
        char name[96];
        snprintf(name, sizeof name, "%s %s split %d", three ? "3XTF32" : "TF32",
                 gputile_algorithm_name(runs[ri].algorithm), runs[ri].split_k);
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s, %s: %s (%s)", shape, name, gputile_status_name(s),
                     gputile_last_cuda_error_name());
        GPUTEST_CUDA(cudaDeviceSynchronize());
        /* AUTO: a wgmma algorithm, or an FP32 one where the planner's
         * models say it is faster (at least as accurate: the same limits) */
        if (runs[ri].algorithm == GPUTILE_ALGO_AUTO)
            cr_assert(opt.algorithm_used == GPUTILE_ALGO_WGMMA_128X128 ||
                          opt.algorithm_used == GPUTILE_ALGO_WGMMA_128X256 ||
                          gputest_is_fp32_algorithm(opt.algorithm_used),
                      "%s, %s: AUTO ran %s, neither a wgmma nor an FP32 algorithm", shape, name,
                      gputile_algorithm_name(opt.algorithm_used));
        else
            cr_assert_eq(opt.algorithm_used, runs[ri].algorithm);
        gputest_download(&c, got);
        judge(&c, got, ref, scale, kind == INTEGERS, limit, &v);
        cr_log_info("  %s (ran %s, split %d): max %.3g (limit %.3g), norm %.3g (limit %.3g)", name,
                    gputile_algorithm_name(opt.algorithm_used), opt.split_k_used, v.err,
                    kind == INTEGERS ? 0.0 : limit, v.norm, norm_limit);
        cr_assert(v.why[0] == '\0', "%s, %s: max error %.3g (cuBLAS %.3g, limit %.3g):\n  %s",
                  shape, name, v.err, base, limit, v.why);
        cr_assert(
            kind == INTEGERS || v.norm <= norm_limit,
            "%s, %s: normwise error %.3g > limit %.3g (cuBLAS %.3g; max error %.3g, cuBLAS %.3g)",
            shape, name, v.norm, norm_limit, norm_base, v.err, base);
    }
    release(&a, &b, &c, ref, scale, got, dref, dscale);
}

static void check_case(struct gemm_case tc, enum kind kind, int only_precision)
{
    check_sized(tc, kind, only_precision, false);
}

ParameterizedTestParameters(tf32, against_float64)
{
    return cr_make_param_array(struct gemm_case, gputest_gemm_cases, gputest_gemm_ncases);
}

ParameterizedTest(struct gemm_case *tc, tf32, against_float64, .init = require_wgmma,
                  .timeout = 300)
{
    check_case(*tc, INTEGERS, -1);
    check_case(*tc, UNIFORM, -1);
    check_case(*tc, WIDE, -1);
}

/* One full 128 x 128 x 32 tile and a few around it, all transposes: the
 * smallest cases where a layout error shows in every element. */
static struct gemm_case tile_cases[] = {
    {128, 128, 32, 0, 0, 1, 0, 0, 0}, {128, 128, 32, 0, 1, 1, 0, 0, 0},
    {128, 128, 32, 1, 0, 1, 0, 0, 0}, {128, 128, 32, 1, 1, 1, 0, 0, 0},
    {128, 256, 64, 0, 0, 1, 0, 0, 0}, {256, 512, 96, 1, 1, 1, 0, 4, 0},
};

ParameterizedTestParameters(tf32, single_tiles)
{
    return cr_make_param_array(struct gemm_case, tile_cases,
                               sizeof tile_cases / sizeof tile_cases[0]);
}

ParameterizedTest(struct gemm_case *tc, tf32, single_tiles, .init = require_wgmma, .timeout = 120)
{
    check_case(*tc, INTEGERS, -1);
    check_case(*tc, UNIFORM, -1);
}

Test(tf32, large_4096, .init = require_wgmma, .timeout = 600)
{
    struct gemm_case big = {4096, 4096, 4096, 0, 0, 1, 0, 0, 0};
    if (gputest_small())
        cr_skip_test("GPUTEST_SMALL: 4096^3 is the point of this test");
    check_case(big, UNIFORM, -1);
}

/* A product that AUTO runs on the tensor-core rows in both precisions
 * (tests/test_gemm_plan.c checks the planner's choice on described
 * devices): 64 tiles of 128 x 128 with k split in two, on TMA_128X128_TF32
 * in TF32, the row that no name reaches. Full size under GPUTEST_SMALL too:
 * shrunk, AUTO would take the FP32 rows and the sanitizers would miss it. */
Test(tf32, auto_on_tensor_rows, .init = require_wgmma, .timeout = 300)
{
    struct gemm_case tc = {1024, 1024, 2048, 0, 0, 1, 0, 0, 0};
    check_sized(tc, UNIFORM, GPUTILE_PRECISION_TF32, true);
    check_sized(tc, UNIFORM, GPUTILE_PRECISION_FP32_3XTF32, true);
}

/* C at most 128 wide one way, A^T B, rows unaligned, inside a parent with
 * guard bands and beta != 0: AUTO runs TMA_128X128_TF32 after the
 * pre-pass, k split 8 ways (tests/test_gemm_plan.c checks the choice on
 * the H100; the H200 makes the same). */
Test(tf32, skinny_on_128x128_tiles, .init = require_wgmma, .timeout = 300)
{
    struct gemm_case tc = {100, 2001, 4001, 1, 0, 1.0f, 0.5f, 3, 1};
    check_sized(tc, UNIFORM, GPUTILE_PRECISION_TF32, true);
}

/* More tiles than SMs with k split: AUTO runs TMA_128X128_TF32 walking
 * its (tile, split) items, 376 of them over one block per SM (ROUND_LOOP:
 * the producer loads the next item's slices while the consumers store the
 * last one's partials), then adds the splits. Views in a parent with
 * guard bands, beta != 0; full size under GPUTEST_SMALL (shrunk, the plan
 * would not walk). */
Test(tf32, walked_tiles_with_k_split, .init = require_wgmma, .timeout = 300)
{
    struct gemm_case tc = {64, 12000, 4000, 0, 0, 1.0f, 0.5f, 4, 0};
    check_sized(tc, UNIFORM, GPUTILE_PRECISION_TF32, true);
}

/* K-major operands whose rows TMA cannot address (row strides not a
 * multiple of 4 floats, views that start off a 16-byte boundary): the
 * register operand R is read in place as 4 classes of rows, the
 * descriptor operand D' packed. A B^T with both so, A B with A's rows
 * unaligned and B's aligned (A in classes where the plan computes C), and
 * small ones around the classes' edges: 4 and 5 rows, a second tile of 2
 * rows. Guard bands, beta != 0; full size under
 * GPUTEST_SMALL (shrunk, AUTO would take the FP32 rows; the forced rows
 * run them either way). */
Test(tf32, unaligned_rows_read_in_place, .init = require_wgmma, .timeout = 300)
{
    const struct gemm_case large[] = {{100, 2001, 4001, 0, 1, 1.0f, 0.5f, 3, 1},
                                      {2001, 100, 4001, 0, 0, 1.0f, 0.5f, 0, 0}};
    const struct gemm_case small[] = {{4, 129, 61, 0, 1, 1.0f, 0.5f, 1, 1},
                                      {5, 300, 301, 0, 1, 1.0f, 0.5f, 2, 3},
                                      {130, 260, 97, 0, 1, 1.0f, 0.0f, 1, 0},
                                      {301, 7, 95, 0, 1, 1.0f, 0.5f, 0, 1}};
    for (size_t i = 0; i < sizeof large / sizeof large[0]; ++i)
        check_sized(large[i], UNIFORM, -1, true);
    for (size_t i = 0; i < sizeof small / sizeof small[0]; ++i)
        check_sized(small[i], INTEGERS, -1, true);
}

/* Option rules, decided before any device work (run with or without a GPU). */
Test(tf32_args, statuses)
{
    float x = 0;
    float y = 0, z = 0;
    gputile_matrix a = {4, 4, 4, &x}, b = {4, 4, 4, &y}, c = {4, 4, 4, &z};
    gputile_matrix a_empty = {4, 0, 4, &x}, c_empty = {4, 0, 4, &z}; /* m = 0 */
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    /* a wgmma algorithm needs a TF32 precision; an FFMA algorithm FP32 */
    o.algorithm = GPUTILE_ALGO_WGMMA_128X128;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    o.algorithm = GPUTILE_ALGO_REGBLOCK_128;
    o.precision = GPUTILE_PRECISION_FP32_3XTF32;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    o.precision = GPUTILE_PRECISION_TF32;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    o.algorithm = GPUTILE_ALGO_AUTO;
    o.precision = 3; /* unknown */
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    o.precision = -1;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    /* 3xTF32 runs on 128 x 128 tiles only */
    o.algorithm = GPUTILE_ALGO_WGMMA_128X256;
    o.precision = GPUTILE_PRECISION_FP32_3XTF32;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    /* split-K is allowed with the wgmma algorithms */
    o.algorithm = GPUTILE_ALGO_WGMMA_128X256;
    o.precision = GPUTILE_PRECISION_TF32;
    o.split_k = GPUTILE_MAX_SPLIT_K + 1;
    EXPECT(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o),
           GPUTILE_ERROR_INVALID_VALUE);
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_WGMMA_128X128), "wgmma128x128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_WGMMA_128X256), "wgmma128x256");
    cr_assert_null(gputile_algorithm_name(gputest_n_algorithms()));

    /* An empty C is a no-op that reports the plan: AUTO picks a wgmma
     * algorithm on a compute capability 9.0 device, else falls back to an
     * FP32 one (both precisions). */
    for (int p = GPUTILE_PRECISION_FP32_3XTF32; p <= GPUTILE_PRECISION_TF32; ++p) {
        gputile_gemm_options e = GPUTILE_GEMM_OPTIONS_INIT;
        e.precision = p;
        OK(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a_empty, b, 0, c_empty, NULL, &e));
        bool wgmma = e.algorithm_used == GPUTILE_ALGO_WGMMA_128X128 ||
                     e.algorithm_used == GPUTILE_ALGO_WGMMA_128X256;
        cr_assert(e.algorithm_used > 0 && wgmma == gputest_has_wgmma(), "precision %d: AUTO ran %s",
                  p, gputile_algorithm_name(e.algorithm_used));
    }
}

/* The default precision is FP32 on the FFMA kernels, whatever the device. */
Test(tf32_args, default_is_fp32, .init = gputest_require_device)
{
    float *d;
    GPUTEST_CUDA(gputest_malloc((void **)&d, 3 * 64 * 64 * sizeof(float)));
    GPUTEST_CUDA(cudaMemset(d, 0, 3 * 64 * 64 * sizeof(float)));
    gputile_matrix a = {64, 64, 64, d}, b = {64, 64, 64, d + 4096}, c = {64, 64, 64, d + 8192};
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    OK(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, NULL, &o));
    cr_assert(o.algorithm_used != GPUTILE_ALGO_WGMMA_128X128 &&
              o.algorithm_used != GPUTILE_ALGO_WGMMA_128X256);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(d));
}

/* Infinities, NaN and a finite value that rounds to infinity in TF32,
 * in both operands: their rows and columns of C come out non-finite
 * (NaN where the man page says so), and every other element keeps its
 * precision's accuracy. The kernels split or round a thread's elements
 * on a fast path when all of them are finite and take a careful path
 * otherwise: the finite neighbours (rows 8 apart in one fragment, D'
 * elements of the same preparing thread) take it too. Both orientations
 * (NN runs as C^T, TT as C), both precisions. */
Test(tf32, special_values_stay_in_their_rows, .init = require_wgmma, .timeout = 120)
{
    /* 256: the kernel splits D' in shared memory; 3200: the pre-pass does
     * (lib/gemm_plan.c, split_d_pays) */
    const size_t sizes[] = {256, 3200}, k = 96;
    const size_t bad_rows[] = {5, 130, 200}, bad_cols[] = {33, 150};
    for (int st = 0; st < 4; ++st) {
        const size_t m = sizes[st / 2], n = m;
        const int t = st % 2;
        placed a, b, c;
        gputest_place(&a, t ? k : m, t ? m : k, 0, 0);
        gputest_place(&b, t ? n : k, t ? k : n, 0, 0);
        gputest_place(&c, m, n, 0, 0);
        fill(&a, UNIFORM, NAN);
        fill(&b, UNIFORM, NAN);
        /* op(A)(i, p) and op(B)(p, j) */
#define AT(i, p) a.host[(a.row0 + (t ? (p) : (i))) * a.stride + a.col0 + (t ? (i) : (p))]
#define BT(p, j) b.host[(b.row0 + (t ? (j) : (p))) * b.stride + b.col0 + (t ? (p) : (j))]
        AT(5, 7) = INFINITY;
        AT(130, 40) = NAN;
        AT(200, 70) = 3.4e38f;
        BT(11, 33) = -INFINITY;
        BT(90, 150) = NAN;
#undef AT
#undef BT
        for (size_t i = 0; i < gputest_parent_size(&c); ++i)
            c.host[i] = gputest_poison();
        gputest_upload(&a);
        gputest_upload(&b);
        gputest_upload(&c);
        double *ref = malloc(m * n * sizeof(double)), *scale = malloc(m * n * sizeof(double));
        float *got = malloc(gputest_parent_size(&c) * sizeof(float));
        double *dref, *dscale;
        cr_assert(ref && scale && got);
        GPUTEST_CUDA(gputest_malloc((void **)&dref, m * n * sizeof(double)));
        GPUTEST_CUDA(gputest_malloc((void **)&dscale, m * n * sizeof(double)));
        gputile_matrix va = gputest_view_of(&a, a.dev), vb = gputest_view_of(&b, b.dev),
                       vc = gputest_view_of(&c, c.dev);
        GPUTEST_CUDA_RETRY(gputest_gemm_ref64(
            t, t, (int64_t)m, (int64_t)n, (int64_t)k, 1.0f, va.elements, (int64_t)va.stride,
            vb.elements, (int64_t)vb.stride, 0.0f, vc.elements, (int64_t)vc.stride, dref, dscale));
        GPUTEST_CUDA(cudaMemcpy(ref, dref, m * n * sizeof(double), cudaMemcpyDeviceToHost));
        GPUTEST_CUDA(cudaMemcpy(scale, dscale, m * n * sizeof(double), cudaMemcpyDeviceToHost));
        for (int p = 0; p < 2; ++p) {
            gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
            opt.precision = p ? GPUTILE_PRECISION_TF32 : GPUTILE_PRECISION_FP32_3XTF32;
            opt.algorithm = p ? GPUTILE_ALGO_AUTO : GPUTILE_ALGO_WGMMA_128X128;
            const double limit = p ? 2 * MAX_FLOOR_TF32 : 2 * MAX_FLOOR_3XTF32;
            cr_assert_eq(gputile_gemm(t, t, 1.0f, va, vb, 0.0f, vc, NULL, &opt), GPUTILE_SUCCESS);
            gputest_download(&c, got);
            size_t wrong = 0;
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    bool row_bad = false, col_bad = false;
                    for (size_t q = 0; q < 3; ++q)
                        row_bad = row_bad || i == bad_rows[q];
                    for (size_t q = 0; q < 2; ++q)
                        col_bad = col_bad || j == bad_cols[q];
                    const float x = got[(c.row0 + i) * c.stride + c.col0 + j];
                    const double e = fabs((double)x - ref[i * n + j]) / scale[i * n + j];
                    /* row 200 (3.4e38 in A): FP32 may stay finite there; C was
                     * poisoned with a NaN, which no element may keep */
                    const bool ok = !gputest_is_poison(x) &&
                                    (!row_bad && !col_bad ? e <= limit
                                                          : (i == 200 && !col_bad) || !isfinite(x));
                    if (!ok && wrong++ < 4)
                        cr_log_error("%zu^2 %s %s: C(%zu, %zu) = %.9g, float64 %.9g", m,
                                     t ? "TT" : "NN", p ? "TF32" : "3xTF32", i, j, x,
                                     ref[i * n + j]);
                }
            cr_expect_eq(wrong, 0, "%zu^2 %s %s: %zu elements wrong", m, t ? "TT" : "NN",
                         p ? "TF32" : "3xTF32", wrong);
        }
        release(&a, &b, &c, ref, scale, got, dref, dscale);
    }
}

/* One-row operands may have any row stride (it is never stepped); TMA's
 * strides must stay below 2^40 bytes, so such an operand is packed, not
 * mapped in place. m = 1 (A one row of k) and k = 1 (A^T and B one row
 * each), strides of 2^40 floats; small integers, so every precision is
 * exact. */
Test(tf32, one_row_operands_with_any_stride, .init = require_wgmma, .timeout = 120)
{
    enum { K = 300, N = 200, M = 150 };
    const size_t huge = (size_t)1 << 40;
    static float hx[K], hy[K * N], hc[M * N], want[M * N];
    float *dx, *dy, *dc;
    for (int i = 0; i < K; ++i)
        hx[i] = (float)(i % 7 - 3);
    for (int i = 0; i < K * N; ++i) /* random: every row of B its own */
        hy[i] = (float)((int)(gputest_rand() % 5) - 2);
    GPUTEST_CUDA(cudaMalloc((void **)&dx, sizeof hx));
    GPUTEST_CUDA(cudaMalloc((void **)&dy, sizeof hy));
    GPUTEST_CUDA(cudaMalloc((void **)&dc, sizeof hc));
    GPUTEST_CUDA(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice));
    const int precisions[] = {GPUTILE_PRECISION_TF32, GPUTILE_PRECISION_FP32_3XTF32,
                              GPUTILE_PRECISION_FP32};
    const int algorithms[] = {GPUTILE_ALGO_AUTO, GPUTILE_ALGO_WGMMA_128X128,
                              GPUTILE_ALGO_WGMMA_128X256};
    for (int form = 0; form < 2; ++form)
        for (size_t p = 0; p < 3; ++p)
            for (size_t g = 0; g < 3; ++g) {
                if (precisions[p] == GPUTILE_PRECISION_FP32 && g > 0)
                    continue; /* the wgmma rows take the TF32 precisions only */
                if (precisions[p] == GPUTILE_PRECISION_FP32_3XTF32 &&
                    algorithms[g] == GPUTILE_ALGO_WGMMA_128X256)
                    continue; /* 3xTF32 runs on 128 x 128 tiles */
                gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
                o.precision = precisions[p];
                o.algorithm = algorithms[g];
                gputile_status s;
                size_t cw, ch;
                GPUTEST_CUDA(cudaMemset(dc, 0xFF, sizeof hc)); /* NaN: poisoned */
                if (form == 0) { /* C (1 x N) = A (1 x K, one row) B (K x N) */
                    cw = N, ch = 1;
                    s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f,
                                     gputile_matrix_view(dx, K, 1, huge),
                                     gputile_matrix_view(dy, N, K, N), 0.0f,
                                     gputile_matrix_view(dc, N, 1, huge), NULL, &o);
                    for (int j = 0; j < N; ++j) {
                        double t = 0;
                        for (int i = 0; i < K; ++i)
                            t += (double)hx[i] * hy[i * N + j];
                        want[j] = (float)t;
                    }
                } else { /* C (M x N) = A^T (A one row of M) B (one row of N): k = 1 */
                    cw = N, ch = M;
                    s = gputile_gemm(GPUTILE_OP_T, GPUTILE_OP_N, 1.0f,
                                     gputile_matrix_view(dx, M, 1, huge),
                                     gputile_matrix_view(dy, N, 1, huge), 0.0f,
                                     gputile_matrix_view(dc, N, M, N), NULL, &o);
                    for (int i = 0; i < M; ++i)
                        for (int j = 0; j < N; ++j)
                            want[i * N + j] = hx[i] * hy[j];
                }
                cr_assert_eq(s, GPUTILE_SUCCESS, "form %d, precision %d, algorithm %d: %s (%s)",
                             form, precisions[p], algorithms[g], gputile_status_name(s),
                             gputile_last_cuda_error_name());
                GPUTEST_CUDA(cudaMemcpy(hc, dc, cw * ch * sizeof(float), cudaMemcpyDeviceToHost));
                for (size_t e = 0; e < cw * ch; ++e)
                    cr_assert_eq(hc[e], want[e],
                                 "form %d, precision %d, algorithm %d: C[%zu] %g, "
                                 "expected %g",
                                 form, precisions[p], algorithms[g], e, (double)hc[e],
                                 (double)want[e]);
            }
    GPUTEST_CUDA(cudaFree(dx));
    GPUTEST_CUDA(cudaFree(dy));
    GPUTEST_CUDA(cudaFree(dc));
}
