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
#include "support/gpu.h"

#define GUARD 3 /* rows above and below every view */

struct gemm_case {
    int m, n, k; /* -1: drawn in [1, 2000] each run */
    int ta, tb;
    float alpha, beta;
    int extra; /* stride - (offset + width): columns right of the view */
    int off;   /* rows and columns before the view in its parent */
};

#define N GPUTILE_OP_N
#define T GPUTILE_OP_T
#define CASE(m, n, k, ta, tb, al, be, ex, of) {m, n, k, ta, tb, al, be, ex, of}

static struct gemm_case cases[] = {
    CASE(1, 1, 1, N, N, 1, 0, 0, 0),
    CASE(1, 1, 1000, N, N, 1, 0, 0, 0),
    CASE(1, 777, 33, N, N, 1, 0, 0, 0),
    CASE(777, 1, 33, N, N, 1, 0, 0, 0),
    CASE(1, 2000, 1, N, N, 1, 0, 1, 1),
    CASE(2000, 1, 2000, N, N, 1, 0, 1, 1),
    CASE(300, 200, 1, N, N, 1, 0, 0, 0),
    CASE(64, 64, 1, T, T, 2, 1, 0, 0),
    CASE(16, 16, 16, N, N, 1, 0, 0, 0),
    CASE(15, 17, 16, N, N, 1, 0, 0, 0),
    CASE(17, 15, 31, N, N, 1, 0, 0, 0),
    CASE(32, 48, 64, N, N, 1, 0, 0, 0),
    CASE(7, 13, 31, N, N, 1, 0, 0, 0),
    CASE(61, 127, 257, N, N, 1, 0, 3, 1),
    CASE(509, 1021, 127, N, N, 1, 0, 5, 7),
    CASE(2003, 1999, 1997, N, N, 1, 0, 0, 0),
    CASE(1021, 509, 2003, N, N, 0.5f, 0, 1, 3),
    CASE(2000, 3, 50, N, N, 1, 0, 0, 0),
    CASE(3, 2000, 50, N, N, 1, 0, 0, 0),
    CASE(2000, 8, 2000, N, N, 1, 0, 9, 2),
    CASE(8, 2000, 2000, N, N, 1, 0, 9, 2),
    CASE(64, 64, 2000, N, N, 1, 0, 0, 0),
    CASE(1000, 1000, 1000, N, N, 1, 0, 0, 0),
    CASE(1024, 1024, 1024, N, N, 1, 0, 0, 0),
    CASE(1025, 1023, 1024, N, N, 1, 0, 1, 1),
    /* transposes */
    CASE(100, 90, 70, T, N, 1, 0, 0, 0),
    CASE(100, 90, 70, N, T, 1, 0, 0, 0),
    CASE(100, 90, 70, T, T, 1, 0, 0, 0),
    CASE(1, 500, 300, T, N, 1, 0, 2, 1),
    CASE(500, 1, 300, N, T, 1, 0, 2, 1),
    CASE(513, 257, 129, T, T, -1, 0, 7, 5),
    CASE(1999, 1001, 333, T, N, 1, 0, 1, 1),
    CASE(1001, 1999, 333, N, T, 1, 0, 1, 1),
    CASE(33, 65, 2001, T, T, 1, 0, 0, 0),
    /* alpha and beta */
    CASE(200, 300, 100, N, N, 2, 1, 0, 0),
    CASE(200, 300, 100, N, N, -1, -2, 1, 1),
    CASE(200, 300, 100, N, N, 0.5f, 0.25f, 0, 3),
    CASE(200, 300, 100, T, N, 3, -1, 2, 0),
    CASE(200, 300, 100, N, T, -0.25f, 2, 0, 2),
    CASE(200, 300, 100, T, T, 1, 1, 4, 4),
    CASE(123, 45, 67, N, N, 0, 2, 1, 1),   /* alpha = 0: C = beta C */
    CASE(123, 45, 67, N, N, 0, 0, 1, 1),   /* alpha = beta = 0: C = 0 */
    CASE(123, 45, 0, N, N, 1, -1, 1, 1),   /* k = 0: C = beta C */
    CASE(123, 45, 0, T, T, 1, 0, 0, 0),    /* k = 0, beta = 0: C = 0 */
    CASE(0, 45, 67, N, N, 1, 1, 1, 1),     /* m = 0: no-op */
    CASE(45, 0, 67, N, N, 1, 1, 1, 1),     /* n = 0: no-op */
    CASE(0, 0, 0, N, N, 1, 1, 0, 0),
    /* strides and odd offsets */
    CASE(129, 131, 137, N, N, 1, 0, 1, 1),
    CASE(129, 131, 137, N, N, 1, 0, 3, 5),
    CASE(129, 131, 137, T, T, 1, 0, 13, 11),
    CASE(250, 250, 250, N, N, 1, 1, 100, 17),
    /* more than 65535 rows of 16-row tiles is too large for a test; rows of
     * tiles beyond gridDim.y are covered by the grid-stride loop at m > 2^20 */
    CASE(4, 4096, 4, N, N, 1, 0, 0, 0),
    CASE(4096, 4, 4, N, N, 1, 0, 0, 0),
    /* rows 16-byte aligned (every stride a multiple of 4) with ragged edges:
     * the paths that load 16 bytes at a time, including partial vectors */
    CASE(132, 258, 70, N, N, 1, 0, 2, 0),
    CASE(130, 258, 70, T, T, 1, 1, 2, 0),
    CASE(130, 258, 70, N, T, -1, 0, 2, 0),
    CASE(130, 258, 70, T, N, 2, 0.5f, 2, 0),
    CASE(512, 384, 1000, T, N, 1, 1, 0, 0),
    /* random shapes, fresh each run */
    CASE(-1, -1, -1, N, N, 1, 0, 1, 1),
    CASE(-1, -1, -1, T, N, 1, 0, 0, 3),
    CASE(-1, -1, -1, N, T, 2, 1, 2, 0),
    CASE(-1, -1, -1, T, T, -1, 0.5f, 5, 5),
    CASE(-1, -1, -1, N, N, 1, 0, 0, 0),
    CASE(-1, -1, -1, N, N, 0.5f, -1, 7, 1),
};

/* A view of height x width at (GUARD + off, off) of a parent with `extra`
 * spare columns on the right and GUARD spare rows below. */
typedef struct placed {
    size_t parent_height, stride, row0, col0, height, width;
    float *host;         /* parent, host copy */
    float *dev;          /* parent, device copy */
} placed;

static void place(placed *p, size_t height, size_t width, int off, int extra)
{
    p->height = height;
    p->width = width;
    p->row0 = GUARD + (size_t)off;
    p->col0 = (size_t)off;
    p->stride = p->col0 + width + (size_t)extra;
    if (p->stride == 0)
        p->stride = 1; /* cuBLAS wants ld >= 1 */
    p->parent_height = p->row0 + height + GUARD;
    size_t bytes = p->parent_height * p->stride * sizeof(float);
    p->host = malloc(bytes);
    cr_assert_not_null(p->host);
    GPUTEST_CUDA(cudaMalloc((void **)&p->dev, bytes));
}

static void unplace(placed *p)
{
    free(p->host);
    GPUTEST_CUDA(cudaFree(p->dev));
}

static bool inside(const placed *p, size_t r, size_t c)
{
    return r >= p->row0 && r < p->row0 + p->height && c >= p->col0 && c < p->col0 + p->width;
}

static size_t parent_size(const placed *p)
{
    return p->parent_height * p->stride;
}

static gputile_matrix view_of(const placed *p, float *parent)
{
    gputile_matrix m = {p->width, p->height, p->stride, parent + p->row0 * p->stride + p->col0};
    return m;
}

static void upload(placed *p)
{
    GPUTEST_CUDA(cudaMemcpy(p->dev, p->host, parent_size(p) * sizeof(float),
                            cudaMemcpyHostToDevice));
}

static void download(const placed *p, float *to)
{
    GPUTEST_CUDA(cudaMemcpy(to, p->dev, parent_size(p) * sizeof(float), cudaMemcpyDeviceToHost));
}

/* Outside the view: `outside`; inside: drawn from the data kind. */
static void fill(placed *p, bool integers, float outside)
{
    for (size_t r = 0; r < p->parent_height; ++r)
        for (size_t c = 0; c < p->stride; ++c)
            p->host[r * p->stride + c] =
                !inside(p, r, c) ? outside
                                 : integers ? gputest_small_int(-3, 3) : gputest_uniform(-1, 1);
}

/* Every algorithm, and the register-blocked ones with forced splits of k so
 * the deterministic split-K reduction runs on every shape too. */
static const struct {
    int algorithm, split_k;
} algorithms[] = {
    {GPUTILE_ALGO_NAIVE, 0},          {GPUTILE_ALGO_TILED, 0},
    {GPUTILE_ALGO_REGBLOCK_128, 1},   {GPUTILE_ALGO_REGBLOCK_64, 1},
    {GPUTILE_ALGO_REGBLOCK_128, 3},   {GPUTILE_ALGO_REGBLOCK_64, 5},
    {GPUTILE_ALGO_REGBLOCK_128, 7},   {GPUTILE_ALGO_REGBLOCK_128_W64, 1},
    {GPUTILE_ALGO_REGBLOCK_128_W64, 4}, {GPUTILE_ALGO_REGBLOCK_128X256, 1},
    {GPUTILE_ALGO_REGBLOCK_128X256, 2}, {GPUTILE_ALGO_AUTO, 0},
};

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

    place(&a, tc.ta ? k : m, tc.ta ? m : k, tc.off, tc.extra);
    place(&b, tc.tb ? n : k, tc.tb ? k : n, tc.off, tc.extra);
    place(&c, m, n, tc.off, tc.extra);
    fill(&a, integers, NAN);
    fill(&b, integers, NAN);
    fill(&c, integers, gputest_poison());
    if (tc.beta == 0.0f)
        for (size_t i = 0; i < parent_size(&c); ++i)
            c.host[i] = gputest_poison();
    upload(&a);
    upload(&b);

    /* Reference: cuBLAS into its own copy of C; error scale from |A||B|. */
    float *ref = malloc(parent_size(&c) * sizeof(float));
    float *scale = malloc(parent_size(&c) * sizeof(float));
    float *got = malloc(parent_size(&c) * sizeof(float));
    cr_assert(ref && scale && got);
    upload(&c);
    if (m > 0 && n > 0) {
        gputest_cublas_gemm(tc.ta, tc.tb, tc.alpha, view_of(&a, a.dev), view_of(&b, b.dev), tc.beta,
                            view_of(&c, c.dev));
    }
    download(&c, ref);
    if (!integers && m > 0 && n > 0) {
        place(&absa, a.height, a.width, tc.off, tc.extra);
        place(&absb, b.height, b.width, tc.off, tc.extra);
        for (size_t i = 0; i < parent_size(&a); ++i)
            absa.host[i] = fabsf(a.host[i]);
        for (size_t i = 0; i < parent_size(&b); ++i)
            absb.host[i] = fabsf(b.host[i]);
        upload(&absa);
        upload(&absb);
        upload(&c);
        gputest_cublas_gemm(tc.ta, tc.tb, fabsf(tc.alpha), view_of(&absa, absa.dev),
                            view_of(&absb, absb.dev), 0.0f, view_of(&c, c.dev));
        download(&c, scale);
        unplace(&absa);
        unplace(&absb);
    }

    for (size_t ai = 0; ai < sizeof algorithms / sizeof algorithms[0]; ++ai) {
        gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
        opt.algorithm = algorithms[ai].algorithm;
        opt.split_k = algorithms[ai].split_k;
        opt.algorithm_used = -1;
        upload(&c);
        gputile_status s = gputile_gemm(tc.ta, tc.tb, tc.alpha, view_of(&a, a.dev),
                                        view_of(&b, b.dev), tc.beta, view_of(&c, c.dev), NULL, &opt);
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
        download(&c, got);

        char name[64];
        snprintf(name, sizeof name, "%s (split %d)", gputile_algorithm_name(opt.algorithm_used),
                 opt.split_k_used);
        for (size_t r = 0; r < c.parent_height; ++r)
            for (size_t col = 0; col < c.stride; ++col) {
                size_t i = r * c.stride + col;
                if (!inside(&c, r, col)) {
                    cr_assert(memcmp(&got[i], &c.host[i], sizeof(float)) == 0,
                              "%s: guard band written at parent (%zu, %zu)", name, r, col);
                    continue;
                }
                size_t vr = r - c.row0, vc = col - c.col0;
                cr_assert(!isnan(got[i]), "%s: C(%zu, %zu) is NaN (unwritten or read outside a view)",
                          name, vr, vc);
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
    unplace(&a);
    unplace(&b);
    unplace(&c);
}

ParameterizedTestParameters(gemm, against_cublas)
{
    return cr_make_param_array(struct gemm_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct gemm_case *tc, gemm, against_cublas, .init = gputest_require_device,
                  .timeout = 120)
{
    run_case(*tc, true);
    run_case(*tc, false);
}
