/* SPDX-License-Identifier: MIT */
/*
 * test_gemm_batched.c: gputile_gemm_strided_batched() and
 * gputile_gemm_batched() (issue 20).
 *
 * CPU suite `batched_args` (runs without a GPU): bad arguments return
 * their documented status and write nothing; valid batches of host
 * matrices return GPUTILE_ERROR_UNSUPPORTED (NO_DEVICE without a device);
 * count 0 and empty C are no-ops.
 *
 * GPU suite `batched`: every problem of a batch against a float64 CPU
 * reference: small integers compared for equality (exact), uniform floats
 * within (k + 4) FLT_EPSILON of the |alpha||A||B| + |beta C| scale. All
 * operands live in one device buffer each, poisoned (a quiet-NaN pattern)
 * outside the views: A and B padding reads as NaN if a kernel reads outside
 * a view; C's padding, the gaps between the Cs and the guard bands before
 * and after are compared bit for bit after the call; with beta = 0 every C
 * is poisoned too. Shapes: the bench's anchors shrunk in count, ragged
 * sizes, every transpose, odd row and batch strides (no 16-byte loads),
 * broadcast A (stride 0), counts 0, 1 and large (more than 65535 problems
 * for the register-blocked rows' launch split), every algorithm that takes
 * a batch and every precision. Views: per-problem row strides, reversed
 * and shuffled address order (the aliasing sweep), Cs side by side in one
 * parent (batched_args).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "gputile.h"
#include "support/gpu.h"
#include "support/variants.h"

/* Floats of guard band before and after each buffer: a 16-byte multiple,
 * so operands start aligned as cudaMalloc leaves them (odd pads unalign). */
#define GUARD 40

/* ---- CPU: argument validation ---------------------------------------------- */

static float host_a[4096], host_b[4096], host_c[4096], copy_c[4096];

static void poison_c(void)
{
    for (size_t i = 0; i < 4096; ++i)
        host_c[i] = gputest_poison();
    memcpy(copy_c, host_c, sizeof host_c);
}

static gputile_matrix mat(float *p, size_t w, size_t h, size_t s)
{
    return (gputile_matrix){w, h, s, p};
}

#define UNTOUCHED() cr_assert(memcmp(host_c, copy_c, sizeof host_c) == 0, "C written")

/* What a valid batch of host matrices returns: host memory is unsupported. */
static void expect_host_batch(gputile_status s)
{
    cr_assert(s == GPUTILE_ERROR_UNSUPPORTED || s == GPUTILE_ERROR_NO_DEVICE, "%s",
              gputile_status_name(s));
}

Test(batched_args, strided_bad_inputs)
{
    poison_c();
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm_used = -7;
    const gputile_matrix a = mat(host_a, 8, 8, 8), b = mat(host_b, 8, 8, 8),
                         c = mat(host_c, 8, 8, 8);
#define SB(ta, tb, A, sa, B, sb, C, sc, n, opt) \
    gputile_gemm_strided_batched(ta, tb, 1.0f, A, sa, B, sb, 0.0f, C, sc, n, NULL, opt)
    const gputile_op N_ = GPUTILE_OP_N;
    cr_expect_eq(SB((gputile_op)3, N_, a, 64, b, 64, c, 64, 2, &o), GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(SB(N_, N_, mat(NULL, 8, 8, 8), 64, b, 64, c, 64, 2, &o),
                 GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, mat(host_c, 8, 8, 7), 64, 2, &o),
                 GPUTILE_ERROR_INVALID_MATRIX);
    cr_expect_eq(SB(N_, N_, mat(host_a, 7, 8, 8), 64, b, 64, c, 64, 2, &o),
                 GPUTILE_ERROR_SHAPE_MISMATCH);
    /* the Cs overlap one another: stride_c below the footprint (64 floats) */
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, c, 63, 2, &o), GPUTILE_ERROR_ALIASING);
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, c, 0, 2, &o), GPUTILE_ERROR_ALIASING);
    /* ...but one problem needs no stride at all, and 64 is enough (a
     * footprint of 57 with a row stride of 8 and 1 column more in between) */
    expect_host_batch(SB(N_, N_, a, 64, b, 64, c, 0, 1, &o));
    expect_host_batch(SB(N_, N_, a, 64, b, 64, c, 64, 2, &o));
    expect_host_batch(SB(N_, N_, a, 64, b, 64, mat(host_c, 8, 8, 7 + 1), 64, 2, &o));
    /* C of problem 1 meets A of problem 2: records [A | C] of 128 floats
     * where C starts 100 floats in and reaches 164 > 128 */
    cr_expect_eq(
        SB(N_, N_, mat(host_c, 8, 8, 8), 128, b, 0, mat(host_c + 100, 8, 8, 8), 128, 3, &o),
        GPUTILE_ERROR_ALIASING);
    /* the same records interleaved without overlap: A at 0, C at 64 */
    expect_host_batch(
        SB(N_, N_, mat(host_c, 8, 8, 8), 128, b, 0, mat(host_c + 64, 8, 8, 8), 128, 3, &o));
    /* C and A interleaved by columns (one row stride, no element shared) */
    expect_host_batch(
        SB(N_, N_, mat(host_c, 8, 8, 16), 256, b, 0, mat(host_c + 8, 8, 8, 16), 256, 2, &o));
    /* a C that meets B in problem 0 only */
    cr_expect_eq(SB(N_, N_, a, 0, mat(host_c + 3, 8, 8, 8), 0, c, 64, 2, &o),
                 GPUTILE_ERROR_ALIASING);
    /* i * stride beyond the address space */
    cr_expect_eq(SB(N_, N_, a, SIZE_MAX / 16, b, 64, c, 64, 3, &o), GPUTILE_ERROR_OVERFLOW);
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, c, SIZE_MAX / 4, 2, &o), GPUTILE_ERROR_OVERFLOW);
    /* options */
    gputile_gemm_options bad = GPUTILE_GEMM_OPTIONS_INIT;
    bad.size = 4;
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, c, 64, 2, &bad), GPUTILE_ERROR_INVALID_VALUE);
    bad = (gputile_gemm_options)GPUTILE_GEMM_OPTIONS_INIT;
    bad.algorithm = 999;
    cr_expect_eq(SB(N_, N_, a, 64, b, 64, c, 64, 2, &bad), GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(o.algorithm_used, -7, "options written on failure");
    UNTOUCHED();
}

Test(batched_args, strided_one_problem)
{
    /* One problem is gputile_gemm()'s: its batch strides are not used, so
     * different ones do not make C's overlap with A or B conservative. C
     * and A interleaved by columns (one row stride, no element shared),
     * then sharing an element. (Once ALIASING: found by tests/fuzz.) */
    poison_c();
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm_used = -7;
    const gputile_matrix a = mat(host_c, 8, 8, 16), b = mat(host_b, 8, 8, 8);
    expect_host_batch(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, 106, b, 7, 0,
                                                   mat(host_c + 8, 8, 8, 16), 16, 1, NULL, &o));
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, 106, b, 7, 0,
                                              mat(host_c + 7, 8, 8, 16), 16, 1, NULL, &o),
                 GPUTILE_ERROR_ALIASING);
    cr_expect_eq(o.algorithm_used, -7, "options written on failure");
    UNTOUCHED();
}

Test(batched_args, strided_noops)
{
    poison_c();
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    const gputile_matrix a = mat(host_a, 8, 8, 8), b = mat(host_b, 8, 8, 8),
                         c = mat(host_c, 8, 8, 8);
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, 64, b, 64, 0, c, 0,
                                              0, NULL, &o),
                 GPUTILE_SUCCESS, "count 0");
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, mat(host_a, 8, 0, 8),
                                              64, b, 64, 0, mat(host_c, 8, 0, 8), 0, 5, NULL, &o),
                 GPUTILE_SUCCESS, "m = 0");
    cr_expect_eq(
        gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, NULL, NULL, 0, NULL, 0, NULL, &o),
        GPUTILE_SUCCESS, "views, count 0");
    UNTOUCHED();
}

Test(batched_args, views_bad_inputs)
{
    poison_c();
    enum { V = 6 };
    gputile_matrix a[V], b[V], c[V];
    for (int i = 0; i < V; ++i) {
        a[i] = mat(host_a + 64 * i, 8, 8, 8);
        b[i] = mat(host_b + 64 * i, 8, 8, 8);
        c[i] = mat(host_c + 64 * (V - 1 - i), 8, 8, 8); /* descending: the sweep's path */
    }
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm_used = -7;
#define VB(ta, n) gputile_gemm_batched(ta, GPUTILE_OP_N, 1.0f, a, b, 0.0f, c, n, NULL, &o)
    expect_host_batch(VB(GPUTILE_OP_N, V));
    cr_expect_eq(VB((gputile_op)2, V), GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, NULL, 0, c, 2, NULL, &o),
                 GPUTILE_ERROR_NULL_POINTER);
    /* another shape in view 3 (a different row stride is fine) */
    b[3] = mat(host_b + 192, 8, 8, 9);
    expect_host_batch(VB(GPUTILE_OP_N, V));
    b[3] = mat(host_b + 192, 7, 8, 8);
    cr_expect_eq(VB(GPUTILE_OP_N, V), GPUTILE_ERROR_SHAPE_MISMATCH);
    b[3] = mat(host_b + 192, 8, 8, 8);
    /* C 4 meets A 1 (another problem's input) */
    gputile_matrix keep = a[1];
    a[1] = mat(c[4].elements + 60, 8, 8, 8);
    cr_expect_eq(VB(GPUTILE_OP_N, V), GPUTILE_ERROR_ALIASING);
    a[1] = keep;
    /* C 2 meets C 5 */
    keep = c[5];
    c[5] = mat(c[2].elements + 63, 8, 8, 8);
    cr_expect_eq(VB(GPUTILE_OP_N, V), GPUTILE_ERROR_ALIASING);
    /* Cs side by side in one parent of stride 16: ranges meet, elements not */
    c[5] = mat(host_c + 1024, 8, 8, 16);
    c[4] = mat(host_c + 1032, 8, 8, 16);
    expect_host_batch(VB(GPUTILE_OP_N, V));
    c[4] = mat(host_c + 1031, 8, 8, 16); /* one column shared */
    cr_expect_eq(VB(GPUTILE_OP_N, V), GPUTILE_ERROR_ALIASING);
    c[4] = mat(host_c + 1032, 8, 8, 16);
    /* every problem reading one A and one B (broadcast) is fine */
    for (int i = 0; i < V; ++i)
        a[i] = a[0], b[i] = b[0];
    expect_host_batch(VB(GPUTILE_OP_N, V));
    /* ...but not writing one C twice */
    c[1] = c[0];
    cr_expect_eq(VB(GPUTILE_OP_N, V), GPUTILE_ERROR_ALIASING);
    cr_expect_eq(o.algorithm_used, -7, "options written on failure");
    UNTOUCHED();
}

/* Many views in scrambled order: the sweep must still see one overlap. */
Test(batched_args, views_many_scrambled)
{
    enum { V = 3000 };
    static float buf[V * 20];
    static gputile_matrix a[V], b[V], c[V];
    for (int i = 0; i < V; ++i) {
        const int slot = (int)((uint64_t)i * 1237 % V); /* a permutation: 1237 is prime to V */
        c[i] = mat(buf + 20 * slot, 4, 4, 4);
        a[i] = mat(host_a, 4, 4, 4);
        b[i] = mat(host_b, 4, 4, 4);
    }
    expect_host_batch(
        gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, V, NULL, NULL));
    c[V - 1] = mat(c[17].elements + 15, 4, 4, 4);
    cr_expect_eq(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, V, NULL, NULL),
                 GPUTILE_ERROR_ALIASING);
}

/* A batch large enough to be checked in parts on the host threads
 * (gputile__copy_threads_set: 8 of them, also on a 2-core CI machine): a
 * bad problem in any part is found, the first bad problem's status wins,
 * and Cs that are in order within each part but meet across a part's edge
 * are seen. */
void gputile__copy_threads_set(int threads);

Test(batched_args, views_checked_in_parts)
{
    enum { V = 40000, F = 16 }; /* 4 x 4 views, parts of at least 4096 */
    float *buf = malloc((size_t)V * F * sizeof(float));
    gputile_matrix *a = malloc(V * sizeof *a), *b = malloc(V * sizeof *b),
                   *c = malloc(V * sizeof *c);
    cr_assert(buf && a && b && c);
    gputile__copy_threads_set(8);
    for (int i = 0; i < V; ++i) {
        c[i] = mat(buf + (size_t)F * i, 4, 4, 4);
        a[i] = mat(host_a, 4, 4, 4);
        b[i] = mat(host_b + 4 * (i % 8), 4, 4, 4);
    }
#define VP() gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, V, NULL, NULL)
    expect_host_batch(VP());
    for (int i = 1; i < V; i += 4999) { /* every part, its first problems included */
        gputile_matrix keep = b[i];
        b[i] = mat(NULL, 4, 4, 4);
        cr_expect_eq(VP(), GPUTILE_ERROR_NULL_POINTER, "NULL B in problem %d", i);
        b[i] = mat(host_b, 4, 5, 4);
        cr_expect_eq(VP(), GPUTILE_ERROR_SHAPE_MISMATCH, "B of another shape in problem %d", i);
        b[i] = keep;
        keep = c[i];
        c[i] = mat(c[i].elements, 4, 4, 3);
        cr_expect_eq(VP(), GPUTILE_ERROR_INVALID_MATRIX, "stride < width in problem %d", i);
        c[i] = mat(c[i - 1].elements + 15, 4, 4, 4); /* its last element */
        cr_expect_eq(VP(), GPUTILE_ERROR_ALIASING, "C %d meets C %d", i, i - 1);
        c[i] = keep;
    }
    /* two bad problems far apart: the first one's status */
    a[39000] = mat(host_a, 5, 4, 5);
    c[30000] = mat(c[30000].elements, 4, 4, 2);
    cr_expect_eq(VP(), GPUTILE_ERROR_INVALID_MATRIX);
    c[30000] = mat(c[30000].elements, 4, 4, 4);
    cr_expect_eq(VP(), GPUTILE_ERROR_SHAPE_MISMATCH);
    a[39000] = mat(host_a, 4, 4, 4);
    /* the last C meeting an A: only the exact check may answer */
    a[V - 1] = mat(c[V - 1].elements, 4, 4, 4);
    cr_expect_eq(VP(), GPUTILE_ERROR_ALIASING);
    a[V - 1] = mat(host_a, 4, 4, 4);
    /* Cs in descending order (no fast path): still fine */
    for (int i = 0; i < V; ++i)
        c[i] = mat(buf + (size_t)F * (V - 1 - i), 4, 4, 4);
    expect_host_batch(VP());
#undef VP
    gputile__copy_threads_set(0);
    free(buf), free(a), free(b), free(c);
}

/* ---- GPU: results ----------------------------------------------------------- */

/* The algorithm_used of run_batch_case's last call. */
static int last_used;

typedef struct batch_case {
    int m, n, k;
    int ta, tb;
    float alpha, beta;
    int count;
    int pad;     /* extra floats per row (odd: no 16-byte loads) */
    int gap;     /* extra floats between problems */
    int bcast_a; /* stride_a = 0 */
    int views;   /* 0: strided call; 1: views in address order; 2: reversed; 3: scattered */
    int c_gap;   /* C's gap is `gap` (else gap + 3: C's batch stride unlike A's and B's) */
} batch_case;

/* One operand's batch in one device buffer: problem i at base + GUARD + i
 * * stride (stride = footprint + gap); everything else poison. A batch of
 * none still gets one problem's room: the call sees views of full size, and
 * views running past a small allocation into the next one would overlap. */
typedef struct operand {
    size_t rows, cols, ld, stride, count, total;
    float *host, *dev;
} operand;

/* The host copy of an operand's batch to the device. */
static void upload(const operand *o)
{
    GPUTEST_CUDA(cudaMemcpy(o->dev, o->host, o->total * sizeof(float), cudaMemcpyHostToDevice));
}

static void make_operand(operand *o, size_t rows, size_t cols, size_t ld, size_t gap, size_t count,
                         bool integers, bool fill_data)
{
    o->rows = rows, o->cols = cols, o->ld = ld, o->count = count;
    const size_t foot = rows == 0 ? 0 : (rows - 1) * ld + cols;
    o->stride = foot + gap;
    o->total = 2 * GUARD + (count == 0 ? 0 : count - 1) * o->stride + foot;
    o->host = malloc(o->total * sizeof(float));
    cr_assert(o->host != NULL);
    for (size_t i = 0; i < o->total; ++i)
        o->host[i] = gputest_poison();
    if (fill_data)
        for (size_t p = 0; p < count; ++p)
            for (size_t r = 0; r < rows; ++r)
                for (size_t c = 0; c < cols; ++c)
                    o->host[GUARD + p * o->stride + r * ld + c] =
                        integers ? gputest_small_int(-3, 3) : gputest_uniform(-1, 1);
    GPUTEST_CUDA(gputest_malloc((void **)&o->dev, o->total * sizeof(float)));
    upload(o);
}

static void free_operand(operand *o)
{
    free(o->host);
    GPUTEST_CUDA(cudaFree(o->dev));
}

static gputile_matrix view(const operand *o, size_t p, bool dev)
{
    float *base = dev ? o->dev : o->host;
    return mat(base + GUARD + p * o->stride, o->cols, o->rows, o->ld);
}

static bool inside(const operand *o, size_t i)
{
    if (i < GUARD || o->count == 0)
        return false;
    i -= GUARD;
    const size_t p = i / o->stride, w = i % o->stride;
    return p < o->count && w / o->ld < o->rows && w % o->ld < o->cols;
}

/* The call of case t: the strided batch, or views in the order t.views
 * says. */
static gputile_status call_batch(batch_case t, const operand *a, const operand *b, const operand *c,
                                 size_t count, gputile_gemm_options *o)
{
    const gputile_op ta = t.ta ? GPUTILE_OP_T : GPUTILE_OP_N,
                     tb = t.tb ? GPUTILE_OP_T : GPUTILE_OP_N;
    if (t.views == 0)
        return gputile_gemm_strided_batched(ta, tb, t.alpha, view(a, 0, true),
                                            t.bcast_a ? 0 : a->stride, view(b, 0, true), b->stride,
                                            t.beta, view(c, 0, true), c->stride, count, NULL, o);
    gputile_matrix *va = malloc((count + 1) * sizeof *va), *vb = malloc((count + 1) * sizeof *vb),
                   *vc = malloc((count + 1) * sizeof *vc);
    cr_assert(va && vb && vc);
    for (size_t i = 0; i < count; ++i) {
        /* problem i on slot p: in order, reversed, or scattered (7919 is prime) */
        const size_t p = t.views == 2 ? count - 1 - i : t.views == 3 ? i * 7919 % count : i;
        va[i] = view(a, t.bcast_a ? 0 : p, true);
        vb[i] = view(b, p, true);
        vc[i] = view(c, p, true);
    }
    gputile_status s = gputile_gemm_batched(ta, tb, t.alpha, va, vb, t.beta, vc, count, NULL, o);
    /* the arrays may be reused at once: scribble on them before the sync */
    memset(va, 0xab, count * sizeof *va);
    memset(vb, 0xcd, count * sizeof *vb);
    memset(vc, 0xef, count * sizeof *vc);
    free(va), free(vb), free(vc);
    return s;
}

/* The Cs of a batch (c, as copied back: got; before the call: before)
 * against float64 from the host views A[p] and B[p] of each problem:
 * exact when `exact` (integers in FP32), else within tol * sum |terms|;
 * and nothing written outside the Cs (guard bands, padding, gaps: bit for
 * bit). */
static void check_batch(const operand *c, const float *before, const float *got,
                        const gputile_matrix *A, const gputile_matrix *B, bool ta, bool tb,
                        size_t k, float alpha, float beta, bool exact, double tol)
{
    const size_t m = c->rows, n = c->cols;
    for (size_t i = 0; i < c->total; ++i)
        if (!inside(c, i))
            cr_assert(memcmp(&got[i], &before[i], sizeof(float)) == 0,
                      "written outside the Cs at float %zu", i);
    size_t bad = 0;
    for (size_t p = 0; p < c->count && bad < 10; ++p) {
        const gputile_matrix C0 = mat((float *)before + GUARD + p * c->stride, n, m, c->ld);
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                double sum = 0, mag = 0;
                for (size_t q = 0; q < k; ++q) {
                    const double x = ta ? A[p].elements[q * A[p].stride + i]
                                        : A[p].elements[i * A[p].stride + q];
                    const double y = tb ? B[p].elements[j * B[p].stride + q]
                                        : B[p].elements[q * B[p].stride + j];
                    sum += x * y;
                    mag += fabs(x * y);
                }
                double ref = alpha * sum, scale = fabs(alpha) * mag;
                if (beta != 0.0f) {
                    const double c0 = C0.elements[i * C0.stride + j];
                    ref += beta * c0;
                    scale += fabs(beta * c0);
                }
                const float g = got[GUARD + p * c->stride + i * c->ld + j];
                const bool ok =
                    exact ? (double)g == ref : fabs((double)g - ref) <= tol * scale + 1e-30;
                if (!ok && bad++ < 10)
                    cr_log_error("problem %zu (%zu, %zu): got %.9g, want %.9g (scale %g)", p, i, j,
                                 g, ref, scale);
            }
    }
    cr_assert_eq(bad, 0, "%zu wrong elements", bad);
}

static void run_batch_case(batch_case t, int algorithm, int precision, bool integers)
{
    const size_t m = (size_t)t.m, n = (size_t)t.n, k = (size_t)t.k, count = (size_t)t.count;
    cr_log_info("m=%zu n=%zu k=%zu op(A)=%c op(B)=%c alpha=%g beta=%g count=%zu pad=%d gap=%d "
                "bcast=%d views=%d algorithm=%d precision=%d %s",
                m, n, k, t.ta ? 'T' : 'N', t.tb ? 'T' : 'N', t.alpha, t.beta, count, t.pad, t.gap,
                t.bcast_a, t.views, algorithm, precision, integers ? "integers" : "floats");
    operand a, b, c;
    const size_t ar = t.ta ? k : m, ac = t.ta ? m : k, br = t.tb ? n : k, bc = t.tb ? k : n;
    make_operand(&a, ar, ac, ac + (size_t)t.pad, (size_t)t.gap, t.bcast_a ? 1 : count, integers,
                 true);
    make_operand(&b, br, bc, bc + (size_t)t.pad, (size_t)t.gap, count, integers, true);
    make_operand(&c, m, n, n + (size_t)t.pad, (size_t)t.gap + (t.c_gap ? 0 : 3), count, integers,
                 t.beta != 0.0f);
    float *before = malloc(c.total * sizeof(float)), *got = malloc(c.total * sizeof(float));
    cr_assert(before && got);
    memcpy(before, c.host, c.total * sizeof(float));

    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm = algorithm;
    o.precision = precision;
    gputile_status s; /* C restored before a retry: see GPUTEST_RETRY_OOM */
    GPUTEST_RETRY_OOM(s, upload(&c), call_batch(t, &a, &b, &c, count, &o));
    cr_assert_eq(s, GPUTILE_SUCCESS, "%s", gputile_status_name(s));
    last_used = o.algorithm_used;
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaMemcpy(got, c.dev, c.total * sizeof(float), cudaMemcpyDeviceToHost));
    if (count > 0 && m > 0 && n > 0) {
        cr_assert(gputile_algorithm_name(o.algorithm_used) != NULL);
        cr_assert_eq(o.split_k_used, 1);
        if (algorithm != GPUTILE_ALGO_AUTO)
            cr_assert_eq(o.algorithm_used, algorithm);
    }

    /* each problem against float64 */
    gputile_matrix *ha = malloc((count + 1) * sizeof *ha), *hb = malloc((count + 1) * sizeof *hb);
    cr_assert(ha && hb);
    for (size_t p = 0; p < count; ++p) {
        ha[p] = view(&a, t.bcast_a ? 0 : p, false);
        hb[p] = view(&b, p, false);
    }
    const double tol =
        precision == GPUTILE_PRECISION_TF32 ? 4.0 / 1024.0 : (double)(k + 4) * FLT_EPSILON;
    /* integers in [-3, 3] are exact in TF32 too, and so is every sum here */
    check_batch(&c, before, got, ha, hb, t.ta, t.tb, k, t.alpha, t.beta, integers, tol);
    free(ha), free(hb);
    free(before), free(got);
    free_operand(&a), free_operand(&b), free_operand(&c);
}

/* The views of each operand above share its row stride, so they travel as
 * compact offsets (lib/gemm_batched_views.c). Here every other A comes from
 * a second parent with another row stride: the batch travels as full
 * descriptors (pointer and stride per view). Integers: exact. */
Test(batched, views_of_two_row_strides, .init = gputest_require_device)
{
    enum { M = 19, N = 23, K = 17, COUNT = 301 };
    operand a1, a2, b, c;
    make_operand(&a1, M, K, K + 1, 3, COUNT, true, true);
    make_operand(&a2, M, K, K + 6, 0, COUNT, true, true);
    make_operand(&b, K, N, N, 1, COUNT, true, true);
    make_operand(&c, M, N, N + 2, 2, COUNT, true, false);
    gputile_matrix *va = malloc(COUNT * sizeof *va), *vb = malloc(COUNT * sizeof *vb),
                   *vc = malloc(COUNT * sizeof *vc);
    cr_assert(va != NULL && vb != NULL && vc != NULL);
    for (size_t p = 0; p < COUNT; ++p) {
        va[p] = view(p % 2 ? &a2 : &a1, p, true);
        vb[p] = view(&b, p, true);
        vc[p] = view(&c, p, true);
    }
    cr_assert_eq(
        gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, va, vb, 0, vc, COUNT, NULL, NULL),
        GPUTILE_SUCCESS);
    float *got = malloc(c.total * sizeof(float));
    cr_assert(got != NULL);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaMemcpy(got, c.dev, c.total * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < COUNT; ++p) { /* the same problems on the host */
        va[p] = view(p % 2 ? &a2 : &a1, p, false);
        vb[p] = view(&b, p, false);
    }
    check_batch(&c, c.host, got, va, vb, false, false, K, 1, 0, true, 0);
    free(got), free(va), free(vb), free(vc);
    free_operand(&a1), free_operand(&a2), free_operand(&b), free_operand(&c);
}

Test(batched, scattered_views_queued_behind_a_held_stream, .init = gputest_require_device,
     .timeout = 120)
{
    /* Batches of views not evenly spaced send their descriptors through
     * pinned slots, each busy until the stream reaches its copy. Calls
     * queued behind a held stream must all return without waiting for it
     * (before, the 17th waited for the first's copy: for ever here, had
     * the watchdog not let the stream go), and compute their products once
     * it runs. 48 calls: more than the 16 slots there were, fewer than the
     * 256 there are, and their stream work (a few operations each) well
     * inside the driver's queue of pending work: on an H100 the 1022nd
     * copy or memset queued on a held stream waited for it. One call runs
     * first on the free stream: the first launch of a kernel in a process
     * loads it (CUDA's lazy loading), and loading waits for the device's
     * work, the held stream's included (on the H100 the first call
     * returned only when the watchdog let the stream go). */
    enum { M = 9, N = 13, K = 7, COUNT = 11, CALLS = 48 };
    operand a, b, c;
    make_operand(&a, M, K, K + 1, 2, COUNT, true, true);
    make_operand(&b, K, N, N, 3, COUNT, true, true);
    make_operand(&c, M, N, N + 2, 1, (size_t)COUNT * CALLS, true, true);
    upload(&a), upload(&b), upload(&c);
    gputile_matrix va[COUNT], vb[COUNT], vc[COUNT];
    cudaStream_t s;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    operand warm; /* the same shapes on their own C: the kernels loaded */
    make_operand(&warm, M, N, N + 2, 1, COUNT, true, true);
    for (size_t i = 0; i < COUNT; ++i) {
        const size_t p = i * 7 % COUNT;
        va[i] = view(&a, p, true), vb[i] = view(&b, p, true), vc[i] = view(&warm, p, true);
    }
    cr_assert_eq(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 2, va, vb, 1, vc, COUNT, s, NULL),
                 GPUTILE_SUCCESS);
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    free_operand(&warm);
    gputest_hold hold;
    gputest_hold_stream(&hold, s, 30);
    for (size_t j = 0; j < CALLS; ++j) {
        for (size_t i = 0; i < COUNT; ++i) { /* problem i * 7 mod 11: no even spacing */
            const size_t p = i * 7 % COUNT;
            va[i] = view(&a, p, true), vb[i] = view(&b, p, true);
            vc[i] = view(&c, j * COUNT + p, true);
        }
        cr_assert_eq(
            gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 2, va, vb, 1, vc, COUNT, s, NULL),
            GPUTILE_SUCCESS, "call %zu", j);
        cr_assert(!gputest_hold_fired(&hold), "call %zu returned only once the stream was let go",
                  j);
    }
    cr_assert_eq(cudaStreamQuery(s), cudaErrorNotReady, "the stream ran before it was let go");
    cr_assert(gputest_release(&hold), "the watchdog let the stream go");
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    float *got = malloc(c.total * sizeof(float));
    gputile_matrix *ha = malloc((size_t)COUNT * CALLS * sizeof *ha),
                   *hb = malloc((size_t)COUNT * CALLS * sizeof *hb);
    cr_assert(got != NULL && ha != NULL && hb != NULL);
    GPUTEST_CUDA(cudaMemcpy(got, c.dev, c.total * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < (size_t)COUNT * CALLS; ++p)
        ha[p] = view(&a, p % COUNT, false), hb[p] = view(&b, p % COUNT, false);
    check_batch(&c, c.host, got, ha, hb, false, false, K, 2, 1, true, 0);
    GPUTEST_CUDA(cudaStreamDestroy(s));
    free(got), free(ha), free(hb);
    free_operand(&a), free_operand(&b), free_operand(&c);
}

static const batch_case shapes[] = {
    /* the bench's anchors, fewer problems */
    {16, 16, 16, 0, 0, 1, 0, 3000, 0, 0, 0, 0, 0},
    {32, 32, 32, 0, 0, 1, 0, 1000, 0, 0, 0, 0, 0},
    {64, 64, 64, 0, 0, 1, 0, 200, 0, 0, 0, 0, 0},
    {128, 128, 128, 0, 0, 1, 0, 20, 0, 0, 0, 0, 0},
    {256, 256, 256, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0},
    {64, 1024, 64, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0},
    /* ragged, every transpose, alpha and beta, odd strides and gaps */
    {7, 13, 5, 0, 0, 1.5f, 0.5f, 37, 1, 3, 0, 0, 0},
    {17, 15, 33, 1, 0, -1, 2, 25, 3, 1, 0, 0, 0},
    {33, 31, 17, 0, 1, 1, 0, 19, 0, 5, 0, 0, 0},
    {30, 34, 70, 1, 1, 0.5f, -1, 11, 2, 0, 0, 0, 0},
    /* C of 23 to 25 on a side, across the edges of 16 x 16 and 32 x 32 tiles */
    {25, 23, 41, 0, 1, 1, 0.5f, 23, 0, 2, 0, 0, 0},
    {23, 49, 24, 1, 0, 1, 0, 17, 1, 0, 0, 0, 0},
    {24, 24, 7, 1, 1, 2, 0, 45, 0, 0, 0, 0, 0},
    {65, 63, 40, 0, 0, 1, 1, 9, 1, 1, 0, 0, 0},
    {129, 131, 77, 1, 0, 1, 0, 4, 0, 2, 0, 0, 0},
    {200, 150, 90, 0, 1, 2, 0.25f, 3, 5, 0, 0, 0, 0},
    /* one operand's rows 16-byte aligned, the other's not (each its own copies) */
    {20, 13, 32, 0, 0, 1, 0.5f, 41, 0, 4, 0, 0, 0},
    {9, 36, 22, 0, 0, 1, 0, 53, 0, 0, 0, 0, 0},
    {24, 40, 19, 1, 1, 1, 0, 29, 0, 0, 0, 0, 0},
    {40, 21, 12, 1, 0, 1, 1, 17, 0, 0, 0, 0, 0},
    {20, 13, 32, 0, 0, 1, 0, 60, 0, 0, 0, 1, 0},
    /* a slice's k at or just past its middle (the square tiles copy and
     * multiply only the first half of a 16-wide slice where k ends there) */
    {32, 48, 8, 0, 1, 1, 0, 40, 0, 0, 0, 0, 0},
    {48, 32, 9, 1, 0, 1, 0.5f, 40, 0, 0, 0, 0, 0},
    {40, 36, 4, 1, 1, 1, 0, 60, 0, 0, 0, 0, 0},
    {64, 64, 24, 0, 0, 1, 0, 30, 0, 4, 0, 0, 0},
    {33, 40, 3, 0, 0, 1, 0, 50, 0, 0, 0, 0, 0},
    /* C's problems 16-byte aligned one in four (its gap of 3), B^T, beta:
     * two 16 x 16 pairs of one warp store C by different paths */
    {16, 16, 9, 0, 1, 1, 0.5f, 301, 0, 0, 0, 0, 0},
    /* staged C narrower than the tile (its walk covers only rows_in x
     * cols_in): 5 and 9 columns, one column past a 16-, 32- and 64-wide
     * tile, rows past a 32-row pass, B^T and beta */
    {70, 5, 9, 0, 0, 1, 0.5f, 31, 0, 0, 0, 0, 0},
    {37, 9, 20, 1, 1, 2, 0, 43, 1, 0, 0, 0, 0},
    {65, 65, 6, 0, 1, 1, 1, 7, 0, 0, 0, 0, 0},
    {33, 33, 12, 1, 0, 1, 0.5f, 21, 0, 1, 0, 0, 0},
    {100, 17, 3, 0, 0, -1, 0, 13, 0, 0, 0, 0, 0},
    {1, 1, 1, 0, 0, 1, 0, 100, 0, 0, 0, 0, 0},
    {16, 16, 0, 0, 0, 1, 3, 10, 0, 0, 0, 0, 0},  /* k = 0: C = beta C */
    {16, 16, 16, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0}, /* alpha = 0, beta = 0: zeros */
    /* broadcast A */
    {16, 16, 16, 0, 0, 1, 0, 300, 0, 0, 1, 0, 0},
    {96, 96, 96, 1, 0, 1, 1, 8, 0, 1, 1, 0, 0},
    /* counts 0 and 1 */
    {32, 32, 32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},
    {32, 32, 32, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0},
    /* views: in order, reversed, scattered */
    {16, 16, 16, 0, 0, 1, 0, 500, 0, 0, 0, 1, 0},
    {20, 24, 12, 1, 1, 1, 0.5f, 77, 1, 2, 0, 3, 0},
    {64, 64, 64, 0, 1, 1, 0, 30, 3, 1, 0, 2, 0},
    {130, 70, 50, 1, 0, 1, 1, 5, 0, 0, 1, 1, 0},
};

/* Every algorithm that takes a batch (FP32 rows), then AUTO in each precision. */
static void each_algorithm(batch_case t, bool integers)
{
    for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v) {
        const struct gputest_variant *r = &gputest_variants[v];
        if (r->precision != GPUTILE_PRECISION_FP32 || r->algorithm == GPUTILE_ALGO_NAIVE ||
            r->algorithm == GPUTILE_ALGO_TILED)
            continue; /* no batch: the seeds (UNSUPPORTED, tested below) */
        if (t.count * (double)t.m * t.n * t.k > 5e8 && r->algorithm != GPUTILE_ALGO_AUTO)
            continue;
        run_batch_case(t, r->algorithm, GPUTILE_PRECISION_FP32, integers);
    }
    run_batch_case(t, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, integers);
    run_batch_case(t, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32_3XTF32, integers);
    run_batch_case(t, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, integers);
}

ParameterizedTestParameters(batched, shapes)
{
    return cr_make_param_array(batch_case, shapes, sizeof shapes / sizeof shapes[0]);
}

ParameterizedTest(batch_case *t, batched, shapes, .init = gputest_require_device, .timeout = 600)
{
    each_algorithm(*t, true);
    each_algorithm(*t, false);
}

/* A seeded draw of batch shapes (the seed is logged). */
Test(batched, random_shapes, .init = gputest_require_device, .timeout = 600)
{
    for (int i = 0; i < 12; ++i) {
        batch_case t = {(int)(1 + gputest_rand() % 150),
                        (int)(1 + gputest_rand() % 150),
                        (int)(1 + gputest_rand() % 150),
                        (int)(gputest_rand() % 2),
                        (int)(gputest_rand() % 2),
                        1,
                        (gputest_rand() % 2) ? 0.5f : 0.0f,
                        (int)(1 + gputest_rand() % 60),
                        (int)(gputest_rand() % 3),
                        (int)(gputest_rand() % 5),
                        (int)(gputest_rand() % 4 == 0),
                        (int)(gputest_rand() % 4),
                        0};
        run_batch_case(t, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, false);
    }
}

/* 3xTF32 and TF32 of strided batches run the TMA-fed tensor-core kernel
 * (3xTF32, the batch its maps' third dimension) where its operands can be
 * read in place: every transpose but A^T B, 16-byte aligned rows and batch
 * strides, C at least 64 on a side; checked against float64 at FP32's
 * bound (TF32 gets 3xTF32's accuracy). A^T B, unaligned strides, a
 * broadcast A (batch stride 0) and views that are not evenly spaced run the
 * FP32 kernels; evenly spaced views run as the strided batch they are.
 * TF32 runs 128 x 256 tiles (wide) where lib/gemm_batched_plan.c's cost
 * model says (tf32_wide() below: D' more than 256 rows, and the same
 * rounds of a block per SM),
 * storing C (or C^T) straight from the fragments. */
static bool tf32_wide(batch_case t)
{
    int dev = 0, sms = 1;
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const long d = t.tb ? t.n : t.m, r = t.tb ? t.m : t.n; /* D' and R's sides */
    if (d <= 256)
        return false;
    const long items_n = (r + 127) / 128 * ((d + 127) / 128) * t.count,
               items_w = (r + 127) / 128 * ((d + 255) / 256) * t.count;
    const long rounds_n = (items_n + sms - 1) / sms, rounds_w = (items_w + sms - 1) / sms;
    return rounds_w * 200 < rounds_n * 108;
}

Test(batched, tensor_cores, .init = gputest_require_device, .timeout = 600)
{
    const bool yes = gputest_has_wgmma(); /* the wgmma kernels: compute capability 9.0 */
    const batch_case tensor[] = {
        {128, 96, 72, 0, 0, 1.5f, 0.5f, 7, 0, 4, 0, 0, 0}, /* NN, gaps between problems */
        {100, 80, 72, 1, 1, 1, 0, 5, 0, 0, 0, 0, 0},       /* TT */
        {72, 132, 200, 0, 1, -1, 2, 6, 0, 8, 0, 0, 0},     /* NT, k past 6 slices */
        {72, 132, 300, 0, 1, -1, 2, 6, 0, 8, 0, 0, 0},     /* k past 9 slices */
        {300, 260, 40, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0},      /* several tiles a problem */
        /* TF32: 900 tiles walked by 132 blocks */
        {200, 260, 40, 0, 0, 1, 0.5f, 150, 0, 4, 0, 0, 0},
        {200, 260, 288, 0, 0, 1, 0.5f, 150, 0, 4, 0, 0, 0},
        /* the same, NT (C itself, not C^T) */
        {136, 200, 72, 0, 1, 1, 0, 200, 0, 0, 0, 0, 0},
        {136, 200, 292, 0, 1, 1, 0, 200, 0, 0, 0, 0, 0},
        /* D' 520 rows (its last tile 8), a partial slice, beta */
        {520, 72, 300, 0, 0, 1, 0.25f, 50, 0, 4, 0, 0, 0},
        /* wide on 132 SMs (1 round against 2): D' 512 rows, R a partial
         * tile, beta; C^T, then C */
        {512, 72, 300, 0, 0, 1, 0.5f, 66, 0, 4, 0, 0, 0},
        {72, 512, 292, 0, 1, 1, 0, 66, 0, 0, 0, 0, 0},
        /* TF32's walked tiles with beta 0 and C 16-byte aligned (rows and
         * batch stride) store C through the TMA, clipped at the edges of
         * each C: C^T (NN) and C (NT), partial tiles both ways; 4 slices
         * a tile (4 stages), then more (5 stages, a partial last slice)
         * with C a view with 4 poisoned floats after each row */
        {200, 260, 40, 0, 0, 1, 0, 150, 0, 4, 0, 0, 1},
        {136, 200, 72, 0, 1, -2, 0, 200, 0, 4, 0, 0, 1},
        {200, 260, 200, 0, 0, 1, 0, 150, 4, 4, 0, 0, 1},
        {136, 200, 168, 0, 1, 1, 0, 200, 4, 4, 0, 0, 1},
        /* wide C^T with beta 0 (on 132 SMs: 1 round against 2): whole
         * tiles stored without tests per element, then whole and partial
         * tiles both ways */
        {512, 384, 300, 0, 0, 1, 0, 22, 0, 4, 0, 0, 0},
        {500, 260, 300, 0, 0, -1, 0, 22, 0, 4, 0, 0, 0},
        {64, 64, 4, 0, 0, 1, 0, 70000, 0, 0, 0, 0, 0}, /* past one launch (65535) */
        {128, 96, 72, 0, 0, 1, 0, 5, 0, 4, 0, 1, 0},   /* views spaced evenly: strided */
    };
    for (size_t i = 0; i < sizeof tensor / sizeof tensor[0]; ++i)
        for (int p = 0; p < 2; ++p) {
            const int precision = p ? GPUTILE_PRECISION_TF32 : GPUTILE_PRECISION_FP32_3XTF32;
            run_batch_case(tensor[i], GPUTILE_ALGO_AUTO, precision, true);
            const gputile_algorithm want =
                p && tf32_wide(tensor[i]) ? GPUTILE_ALGO_WGMMA_128X256 : GPUTILE_ALGO_WGMMA_128X128;
            if (yes)
                cr_expect_eq(last_used, want, "case %zu: %s ran", i,
                             gputile_algorithm_name(last_used));
        }
    const batch_case fp32[] = {
        {128, 96, 72, 1, 0, 1, 0, 4, 0, 0, 0, 0, 0}, /* A^T B: D' would need a pre-pass */
        {128, 96, 72, 0, 0, 1, 0, 4, 1, 0, 0, 0, 0}, /* rows not 16-byte aligned */
        {128, 96, 72, 0, 0, 1, 0, 4, 0, 1, 0, 0, 0}, /* batch strides not 16-byte multiples */
        {128, 96, 72, 0, 0, 1, 0, 4, 0, 0, 1, 0, 0}, /* broadcast A */
        {128, 96, 72, 0, 0, 1, 0, 4, 0, 0, 0, 3, 0}, /* views out of order: descriptors */
    };
    for (size_t i = 0; i < sizeof fp32 / sizeof fp32[0]; ++i) {
        run_batch_case(fp32[i], GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32_3XTF32, true);
        cr_expect_neq(last_used, GPUTILE_ALGO_WGMMA_128X128, "case %zu", i);
    }
}

/* TF32 rounds both operands to nearest, ties to even, in batches and
 * single products, as cuBLAS TF32 does (the tensor cores alone would
 * truncate): A holds a = 1 + 2^-11, a tie that rounds down to 1 (away
 * from zero: 1 + 2^-10), B holds b = 1 + 3 2^-11, a tie that rounds up to
 * 1 + 2^-9 (truncated: 1 + 2^-10), so each C of k = 8 terms is exactly
 * 8 (1 + 2^-9) (ties away: 8 (1 + 2^-10) (1 + 2^-9); truncation: 8 (1 +
 * 2^-10); FP32: 8 a b). With row-major A and B the batch runs as C^T, A
 * being D'. The single products name their tensor-core rows (AUTO runs
 * one this small on an FP32 kernel): the register-staged 128 x 128 and
 * the TMA-fed 128 x 256. */
Test(batched, tf32_rounds_to_nearest_even, .init = gputest_require_device)
{
    if (!gputest_has_wgmma())
        cr_skip_test("no wgmma kernels here (compute capability 9.0)");
    enum { M = 64, N = 64, K = 8, COUNT = 3 };
    const size_t sa = M * K, sb = K * N, sc = M * N, total = COUNT * (sa + sb + sc);
    float *host = malloc(total * sizeof(float)), *dev;
    cr_assert_not_null(host);
    const float a = 1.0f + 1.0f / 2048.0f, b = 1.0f + 3.0f / 2048.0f,
                want = 8.0f * (1.0f + 1.0f / 512.0f);
    for (size_t i = 0; i < COUNT * (sa + sb); ++i)
        host[i] = i < COUNT * sa ? a : b;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, total * sizeof(float)));
    const gputile_matrix A = mat(dev, K, M, K), B = mat(dev + COUNT * sa, N, K, N),
                         C = mat(dev + COUNT * (sa + sb), N, M, N);
    const int single_algo[] = {0, GPUTILE_ALGO_WGMMA_128X128, GPUTILE_ALGO_WGMMA_128X256};
    for (int run = 0; run < 3; ++run) {
        const int single = single_algo[run];
        for (size_t i = COUNT * (sa + sb); i < total; ++i)
            host[i] = gputest_poison();
        GPUTEST_CUDA(cudaMemcpy(dev, host, total * sizeof(float), cudaMemcpyHostToDevice));
        gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
        o.precision = GPUTILE_PRECISION_TF32;
        o.algorithm = single ? single : GPUTILE_ALGO_AUTO;
        cr_assert_eq(single ? gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1, A, B, 0, C, NULL, &o)
                            : gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, A, sa, B,
                                                           sb, 0, C, sc, COUNT, NULL, &o),
                     GPUTILE_SUCCESS);
        if (single)
            cr_expect_eq(o.algorithm_used, single);
        else
            cr_expect_eq(o.algorithm_used, GPUTILE_ALGO_WGMMA_128X128, "%s ran",
                         gputile_algorithm_name(o.algorithm_used));
        GPUTEST_CUDA(cudaMemcpy(host, dev, total * sizeof(float), cudaMemcpyDeviceToHost));
        const size_t written = single ? sc : COUNT * sc;
        for (size_t i = 0; i < COUNT * sc; ++i) {
            const float *c = host + COUNT * (sa + sb);
            if (i < written)
                cr_assert(c[i] == want, "%s: C element %zu: %.9g, not %.9g",
                          single ? gputile_algorithm_name(single) : "batch", i, (double)c[i],
                          (double)want);
            else
                cr_assert(gputest_is_poison(c[i]), "single: C element %zu written", i);
        }
    }
    GPUTEST_CUDA(cudaFree(dev));
    free(host);
}

/* Infinities, NaNs and huge finite values in one problem of a TF32 or
 * 3xTF32 batch stay in their rows and columns of that problem's C. TF32's
 * operands are rounded by the TMA; 3xTF32 splits D' (here A: row-major A
 * and B run as C^T) and R (B) on a fast path when a tile's test says every
 * element is finite, and takes a careful path otherwise. The NaNs cover
 * both bit patterns that an integer rounding would break (all high
 * mantissa bits set, where half an ulp carries into the exponent; only low
 * ones, which truncation reads as infinity), and two neighbours of 1e20
 * overflow a test that multiplies neighbours, on finite data. Every other element of every problem keeps its
 * precision's accuracy; nothing else is written. D' is 512 rows: 4 problems
 * run on 128 x 128 tiles, and 33 on 128 x 256 ones where the rounds favour
 * them (tf32_wide()), which round D' in two parts a stage. */
Test(batched, special_values_stay_in_their_rows, .init = gputest_require_device, .timeout = 300)
{
    if (!gputest_has_wgmma())
        cr_skip_test("no wgmma kernels here (compute capability 9.0)");
    enum { M = 512, N = 200, K = 96, MOST = 33, BAD = 1 };
    operand a, b, c;
    make_operand(&a, M, K, K, 4, MOST, false, true);
    make_operand(&b, K, N, N + 4, 0, MOST, false, true);
    make_operand(&c, M, N, N, 8, MOST, false, false);
    const uint32_t nan_high = 0x7fffffffu, nan_low = 0x7f800001u, nan_neg = 0xffffffffu;
    float *pa = a.host + GUARD + BAD * a.stride, *pb = b.host + GUARD + BAD * b.stride;
    pa[5 * K + 7] = INFINITY;
    memcpy(&pa[130 * K + 40], &nan_high, 4);
    memcpy(&pa[300 * K + 41], &nan_low, 4);
    pa[200 * K + 68] = pa[200 * K + 69] = 1e20f; /* finite row: its product overflows the test */
    pb[11 * b.ld + 33] = -INFINITY;
    memcpy(&pb[90 * b.ld + 150], &nan_high, 4);
    memcpy(&pb[20 * b.ld + 160], &nan_neg, 4);
    upload(&a);
    upload(&b);
    const size_t bad_rows[] = {5, 130, 300}, bad_cols[] = {33, 150, 160};
    float *got = malloc(c.total * sizeof(float));
    cr_assert(got != NULL);
    const struct {
        int precision, count;
    } runs[] = {{GPUTILE_PRECISION_TF32, 4},
                {GPUTILE_PRECISION_TF32, MOST},
                {GPUTILE_PRECISION_FP32_3XTF32, 4}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
        const size_t count = (size_t)runs[r].count;
        upload(&c);
        gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
        o.precision = runs[r].precision;
        cr_assert_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, view(&a, 0, true),
                                                  a.stride, view(&b, 0, true), b.stride, 0,
                                                  view(&c, 0, true), c.stride, count, NULL, &o),
                     GPUTILE_SUCCESS);
        const batch_case t = {M, N, K, 0, 0, 1, 0, (int)count, 0, 0, 0, 0, 0};
        const bool wide = o.precision == GPUTILE_PRECISION_TF32 && tf32_wide(t);
        cr_expect_eq(o.algorithm_used,
                     wide ? GPUTILE_ALGO_WGMMA_128X256 : GPUTILE_ALGO_WGMMA_128X128,
                     "run %zu: %s ran", r, gputile_algorithm_name(o.algorithm_used));
        GPUTEST_CUDA(cudaMemcpy(got, c.dev, c.total * sizeof(float), cudaMemcpyDeviceToHost));
        /* outside the first `count` Cs: untouched */
        for (size_t i = 0; i < c.total; ++i)
            if (!inside(&c, i) || (i - GUARD) / c.stride >= count)
                cr_assert(memcmp(&got[i], &c.host[i], sizeof(float)) == 0,
                          "run %zu: written outside the Cs at float %zu", r, i);
        const double tol =
            o.precision == GPUTILE_PRECISION_TF32 ? 4.0 / 1024.0 : (K + 4) * FLT_EPSILON;
        size_t wrong = 0;
        for (size_t p = 0; p < count; ++p) {
            const float *A = a.host + GUARD + p * a.stride, *B = b.host + GUARD + p * b.stride;
            for (size_t i = 0; i < M; ++i)
                for (size_t j = 0; j < N; ++j) {
                    bool bad = false;
                    for (size_t q = 0; q < 3 && p == BAD; ++q)
                        bad = bad || i == bad_rows[q] || j == bad_cols[q];
                    const float g = got[GUARD + p * c.stride + i * c.ld + j];
                    double sum = 0, mag = 0;
                    for (size_t q = 0; q < K && !bad; ++q) {
                        sum += (double)A[i * a.ld + q] * B[q * b.ld + j];
                        mag += fabs((double)A[i * a.ld + q] * B[q * b.ld + j]);
                    }
                    /* (C was poisoned with a NaN, which no element may keep) */
                    const bool ok = !gputest_is_poison(g) &&
                                    (bad ? !isfinite(g) : fabs((double)g - sum) <= tol * mag);
                    if (!ok && wrong++ < 10)
                        cr_log_error("run %zu (%s): problem %zu (%zu, %zu): got %.9g, want %s%.9g",
                                     r, gputile_algorithm_name(o.algorithm_used), p, i, j,
                                     (double)g, bad ? "non-finite, not " : "", sum);
                }
        }
        cr_assert_eq(wrong, 0, "run %zu: %zu wrong elements", r, wrong);
    }
    free(got);
    free_operand(&a), free_operand(&b), free_operand(&c);
}

/* More problems than one launch of a register-blocked or cp.async row
 * takes (65535): the batch is split across launches. */
Test(batched, large_count, .init = gputest_require_device, .timeout = 600)
{
    const batch_case t = {8, 8, 8, 0, 0, 1, 0, 70000, 0, 0, 0, 0, 0};
    run_batch_case(t, GPUTILE_ALGO_REGBLOCK_64, GPUTILE_PRECISION_FP32, true);
    run_batch_case(t, GPUTILE_ALGO_ASYNC_64X64, GPUTILE_PRECISION_FP32, true);
    run_batch_case(t, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, true);
    const batch_case v = {16, 16, 16, 0, 0, 1, 0.5f, 100000, 0, 0, 0, 1, 0};
    run_batch_case(v, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, false);
    /* views checked and written in parts on the host threads, out of
     * address order (the sweep), padded rows */
    const batch_case r = {12, 10, 6, 0, 1, 1, 0, 30000, 1, 2, 0, 2, 0},
                     x = {9, 7, 5, 1, 0, 2, 1, 20000, 0, 1, 1, 3, 0};
    run_batch_case(r, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, true);
    run_batch_case(x, GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, false);
}

/* Host matrices are unsupported, and nothing is written. */
Test(batched, host_operands, .init = gputest_require_device)
{
    float *dev;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 3 * 256 * sizeof(float)));
    const gputile_matrix d = mat(dev, 16, 16, 16);
    poison_c();
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1,
                                              mat(host_a, 16, 16, 16), 256, d, 0, 0,
                                              mat(dev + 256, 16, 16, 16), 256, 2, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
    const gputile_matrix a[2] = {d, d}, b[2] = {d, mat(host_b, 16, 16, 16)},
                         c[2] = {mat(dev + 512, 16, 16, 16), mat(dev + 256, 16, 16, 16)};
    /* the Cs descend: views spaced evenly would run as a strided batch,
     * with no descriptors to stage */
    cr_expect_eq(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, 2, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
    const gputile_matrix hc[2] = {mat(host_c, 16, 16, 16), mat(host_c + 256, 16, 16, 16)};
    cr_expect_eq(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, a, 0, hc, 2, NULL, NULL),
                 GPUTILE_ERROR_UNSUPPORTED);
    UNTOUCHED();
    GPUTEST_CUDA(cudaFree(dev));
}

/* The views call stages its descriptors in pinned blocks of the pool and
 * keeps them for the next call; gputile_pool_release() gives back those not
 * in use (compute-sanitizer's leak check found them still pinned at exit),
 * and the next call stages again. */
Test(batched, pool_release_frees_the_staging, .init = gputest_require_device)
{
    float *dev;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 3 * 256 * sizeof(float)));
    GPUTEST_CUDA(cudaMemset(dev, 0, 3 * 256 * sizeof(float)));
    const gputile_matrix a[2] = {mat(dev, 16, 16, 16), mat(dev, 16, 16, 16)},
                         c[2] = {mat(dev + 512, 16, 16, 16), mat(dev + 256, 16, 16, 16)};
    /* the Cs descend: views spaced evenly would run as a strided batch,
     * with no descriptors to stage */
    for (int round = 0; round < 2; ++round) {
        OK_ALLOC(gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, a, a, 0, c, 2, NULL, NULL));
        gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
        cr_assert_eq(gputile_pool_get_stats(&st), GPUTILE_SUCCESS);
        cr_assert_gt(st.in_use_blocks, 0, "the staging is kept between calls");
        GPUTEST_CUDA(cudaDeviceSynchronize());
        cr_assert_eq(gputile_pool_release(), GPUTILE_SUCCESS);
        cr_assert_eq(gputile_pool_get_stats(&st), GPUTILE_SUCCESS);
        cr_assert_eq(st.in_use_blocks, 0, "round %d: %zu blocks still pinned", round,
                     st.in_use_blocks);
        cr_assert_eq(st.cached_blocks, 0);
    }
    GPUTEST_CUDA(cudaFree(dev));
}

/* A named algorithm that takes no batch, and a named tensor-core one. */
Test(batched, unsupported_algorithms, .init = gputest_require_device)
{
    float *dev;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 4 * 256 * sizeof(float)));
    const gputile_matrix d = mat(dev, 16, 16, 16), c = mat(dev + 256, 16, 16, 16);
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.algorithm = GPUTILE_ALGO_TILED;
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, d, 0, d, 0, 0, c, 256,
                                              2, NULL, &o),
                 GPUTILE_ERROR_UNSUPPORTED);
    o.algorithm = GPUTILE_ALGO_NAIVE;
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, d, 0, d, 0, 0, c, 256,
                                              2, NULL, &o),
                 GPUTILE_ERROR_UNSUPPORTED);
    o.algorithm = GPUTILE_ALGO_WGMMA_128X256;
    o.precision = GPUTILE_PRECISION_TF32;
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1, d, 0, d, 0, 0, c, 256,
                                              2, NULL, &o),
                 GPUTILE_ERROR_UNSUPPORTED);
    GPUTEST_CUDA(cudaFree(dev));
}
