/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched.c: gputile_gemm_strided_batched() and gputile_gemm_batched()
 * (issue 20): validate the whole batch, choose the row
 * (gemm_batched_plan.c), then run it in as few launches as the rows allow.
 * Nothing is written before every check has passed.
 */
#include "gemm_batched.h"

/* Largest extent of a batch in elements: byte offsets stay below 2^63, as
 * gputile__check_matrix() keeps them for one matrix (kernels use int64_t). */
#define MAX_ELEMENTS ((SIZE_MAX / 2) / sizeof(float))

static size_t op_cols(gputile_op t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.height : m.width;
}

/* Elements from (0, 0) to the last element of m (m not empty, checked). */
static size_t extent(gputile_matrix m)
{
    return (m.height - 1) * m.stride + m.width;
}

/* The elements `count` problems of m, `stride` apart, span; false when that
 * does not fit (in MAX_ELEMENTS, or in the address space). */
static bool batch_extent(gputile_matrix m, size_t stride, size_t count, size_t *out)
{
    const size_t e = extent(m);
    if (stride != 0 && count - 1 > (MAX_ELEMENTS - e) / stride)
        return false;
    *out = (count - 1) * stride + e;
    return (uintptr_t)m.elements <= UINTPTR_MAX - *out * sizeof(float);
}

/* Does some problem's x (x + i sx) overlap some problem's y (y + j sy),
 * i, j < count? Disjoint extents: no. One batch stride: the shifts d = i - j
 * whose address ranges meet form one interval; each is checked exactly for
 * views of one row stride (gputile__overlap). More than 64 such shifts, or
 * different batch strides with meeting extents: yes (conservative). */
static bool batch_overlap(gputile_matrix x, size_t sx, size_t ex, gputile_matrix y, size_t sy,
                          size_t ey, size_t count)
{
    if (gputile__is_empty(x) || gputile__is_empty(y))
        return false;
    const uintptr_t x0 = (uintptr_t)x.elements, y0 = (uintptr_t)y.elements;
    if (x0 + ex * sizeof(float) <= y0 || y0 + ey * sizeof(float) <= x0)
        return false;
    if (count == 1) /* one problem: its batch strides are not used */
        return gputile__overlap(x, y);
    if (sx != sy)
        return true;
    if (sx == 0)
        return gputile__overlap(x, y);
    /* extents meet, so |y0 - x0| < 2^63 bytes */
    const int64_t s = (int64_t)sx, delta = (int64_t)(y0 - x0) / (int64_t)sizeof(float);
    const int64_t lx = (int64_t)extent(x), ly = (int64_t)extent(y), last = (int64_t)count - 1;
    /* x shifted d s elements meets y's range: delta - lx < d s < delta + ly */
    int64_t lo = delta - lx, hi = delta + ly;
    int64_t d_lo = lo >= 0 ? lo / s + 1 : -((-lo) / s),
            d_hi = hi > 0 ? (hi - 1) / s : -((-hi) / s + 1);
    d_lo = d_lo < -last ? -last : d_lo;
    d_hi = d_hi > last ? last : d_hi;
    if (d_hi - d_lo > 64)
        return true;
    for (int64_t d = d_lo; d <= d_hi; ++d) {
        gputile_matrix xs = x;
        xs.elements = (float *)(x0 + (uintptr_t)(d * s) * sizeof(float));
        if (gputile__overlap(xs, y))
            return true;
    }
    return false;
}

static void report(gputile_gemm_options *o, const gputile__gemm_choice *c)
{
    if (o != NULL) {
        o->algorithm_used = gputile__gemm_row_of(c->variant)->algorithm;
        o->split_k_used = c->splits;
    }
}

/* The row that runs a checked batch (args: m, n, k, transposes, alpha,
 * beta, and strides unless `views`), chosen before any operand is sent. */
static gputile_status choose_batch(int requested, int precision, const gputile__device *dev,
                                   gputile__batch_aligned aligned, const gputile__gemm_args *args,
                                   bool views, gputile__gemm_choice *choice)
{
    /* The TF32 precisions are AUTO's alone: the TMA-fed 128 x 128 kernel in
     * that precision where it takes the batch (gputile__gemm_batched_tensor;
     * never a batch of views), else the FP32 rows (the same or better
     * accuracy; algorithm_used says which ran). */
    if (precision != GPUTILE_PRECISION_FP32 && requested != GPUTILE_ALGO_AUTO)
        return GPUTILE_ERROR_UNSUPPORTED;
    bool tensor = false;
    if (precision != GPUTILE_PRECISION_FP32 && !views) {
        gputile_status st = gputile__gemm_batched_tensor(dev, args, aligned, &tensor);
        if (st != GPUTILE_SUCCESS)
            return st;
    }
    /* C's alignment: the persistent rows' estimate (the cp.async rows'
     * takes C as aligned, as it was fitted for batches) */
    const unsigned form =
        gputile__gemm_form(aligned.a && aligned.b, aligned.c, args->trans_a, args->trans_b);
    *choice = gputile__gemm_batched_choose(requested, tensor ? precision : GPUTILE_PRECISION_FP32,
                                           dev, form, args->m, args->n, args->k, args->batch);
    return choice->variant < 0 ? GPUTILE_ERROR_UNSUPPORTED : GPUTILE_SUCCESS;
}

static gputile_status run_batch(const gputile__gemm_choice *choice, gputile__batch_aligned aligned,
                                const gputile__gemm_args *args, cudaStream_t stream,
                                gputile_gemm_options *options)
{
    gputile_status s = gputile__gemm_batched_execute(choice, args, aligned, stream);
    if (s == GPUTILE_SUCCESS)
        report(options, choice);
    return s;
}

/* The plan a no-op batch reports (no device is touched). */
static gputile_status noop(int requested, int precision, gputile_gemm_options *options)
{
    if (precision != GPUTILE_PRECISION_FP32 && requested != GPUTILE_ALGO_AUTO)
        return GPUTILE_SUCCESS; /* nothing runs; nothing to report */
    gputile__gemm_choice c =
        gputile__gemm_batched_choose(requested, GPUTILE_PRECISION_FP32, NULL, 0u, 0, 0, 0, 0);
    if (c.variant >= 0)
        report(options, &c);
    return GPUTILE_SUCCESS;
}

gputile_status gputile__gemm_batched_execute(const gputile__gemm_choice *choice,
                                             const gputile__gemm_args *args,
                                             gputile__batch_aligned aligned, cudaStream_t stream)
{
    if (args->k == 0 || args->alpha == 0.0f)
        return gputile__cuda_status(gputile__gemm_batched_scale(args, stream));
    const gputile__gemm_row *r = gputile__gemm_row_of(choice->variant);
    /* The persistent rows take any batch in one launch; the register-blocked
     * ones at most blockIdx.y's 65535 problems per launch. */
    const int64_t per_launch =
        (r->flags & GPUTILE__GEMM_PERSISTENT) ? args->batch : GPUTILE__GEMM_BATCH_PER_LAUNCH;
    for (int64_t first = 0; first < args->batch; first += per_launch) {
        gputile__gemm_args part = *args;
        part.batch = args->batch - first < per_launch ? args->batch - first : per_launch;
        if (args->views != NULL) {
            part.views = args->views + first;
        } else {
            part.a += first * args->stride_a;
            part.b += first * args->stride_b;
            part.c += first * args->stride_c;
        }
        gputile__gemm_plan plan;
        cudaError_t err = gputile__gemm_batched_plan(choice, &part, aligned, &plan);
        if (err == cudaSuccess)
            err = r->run(&part, &plan, stream);
        if (err != cudaSuccess)
            return gputile__cuda_status(err);
    }
    return GPUTILE_SUCCESS;
}

/* Device memory only: a host operand is UNSUPPORTED (the batch would have
 * to be staged problem by problem). */
static gputile_status on_device(gputile_matrix m)
{
    gputile__memory at = GPUTILE__MEMORY_DEVICE;
    gputile_status s = gputile__is_empty(m) ? GPUTILE_SUCCESS : gputile__memory_of(m, &at);
    if (s == GPUTILE_SUCCESS && at != GPUTILE__MEMORY_DEVICE)
        s = GPUTILE_ERROR_UNSUPPORTED;
    return s;
}

/* Whether every problem's rows of x start 16-byte aligned: its own rows,
 * and (more than one problem) a batch stride of whole 16-byte groups. */
static bool strided_rows_aligned16(gputile_matrix x, size_t count, size_t stride)
{
    return gputile__rows_aligned16(x.elements, (int64_t)x.stride) &&
           (count == 1 || stride % 4 == 0);
}

gputile_status gputile_gemm_strided_batched(gputile_op trans_a, gputile_op trans_b, float alpha,
                                            gputile_matrix a, size_t stride_a, gputile_matrix b,
                                            size_t stride_b, float beta, gputile_matrix c,
                                            size_t stride_c, size_t count,
                                            struct CUstream_st *stream,
                                            gputile_gemm_options *options)
{
    int requested, precision;
    gputile_status s;
    if ((s = gputile__gemm_read_batch_options(options, &requested, &precision)) !=
            GPUTILE_SUCCESS ||
        (s = gputile__gemm_check(trans_a, trans_b, a, b, c)) != GPUTILE_SUCCESS)
        return s;
    if (count == 0 || gputile__is_empty(c))
        return noop(requested, precision, options);
    if (count > (size_t)INT64_MAX)
        return GPUTILE_ERROR_OVERFLOW;
    /* every problem's operands addressable (A, B: only where they are read) */
    size_t ea = 0, eb = 0, ec = 0;
    if ((!gputile__is_empty(a) && !batch_extent(a, stride_a, count, &ea)) ||
        (!gputile__is_empty(b) && !batch_extent(b, stride_b, count, &eb)) ||
        !batch_extent(c, stride_c, count, &ec))
        return GPUTILE_ERROR_OVERFLOW;
    /* the Cs may not overlap one another (one C's footprint per stride)... */
    if (count > 1 && stride_c < extent(c))
        return GPUTILE_ERROR_ALIASING;
    /* ...nor any problem's A or B */
    if (batch_overlap(c, stride_c, ec, a, stride_a, ea, count) ||
        batch_overlap(c, stride_c, ec, b, stride_b, eb, count))
        return GPUTILE_ERROR_ALIASING;

    const gputile__device *dev = NULL;
    if ((s = on_device(a)) != GPUTILE_SUCCESS || (s = on_device(b)) != GPUTILE_SUCCESS ||
        (s = on_device(c)) != GPUTILE_SUCCESS ||
        (s = gputile__device_current(&dev)) != GPUTILE_SUCCESS)
        return s;
    gputile__gemm_args args = {
        .m = (int64_t)c.height,
        .n = (int64_t)c.width,
        .k = (int64_t)op_cols(trans_a, a),
        .trans_a = trans_a == GPUTILE_OP_T,
        .trans_b = trans_b == GPUTILE_OP_T,
        .alpha = alpha,
        .beta = beta,
        .a = a.elements,
        .lda = (int64_t)a.stride,
        .b = b.elements,
        .ldb = (int64_t)b.stride,
        .c = c.elements,
        .ldc = (int64_t)c.stride,
        .batch = (int64_t)count,
        .stride_a = (int64_t)stride_a,
        .stride_b = (int64_t)stride_b,
        .stride_c = (int64_t)stride_c,
    };
    const gputile__batch_aligned aligned = {
        .a = strided_rows_aligned16(a, count, stride_a),
        .b = strided_rows_aligned16(b, count, stride_b),
        .c = strided_rows_aligned16(c, count, stride_c),
    };
    gputile__gemm_choice choice;
    if ((s = choose_batch(requested, precision, dev, aligned, &args, false, &choice)) !=
        GPUTILE_SUCCESS)
        return s;
    return run_batch(&choice, aligned, &args, stream, options);
}

gputile_status gputile_gemm_batched(gputile_op trans_a, gputile_op trans_b, float alpha,
                                    const gputile_matrix *a, const gputile_matrix *b, float beta,
                                    const gputile_matrix *c, size_t count,
                                    struct CUstream_st *stream, gputile_gemm_options *options)
{
    int requested, precision;
    gputile_status s;
    if ((s = gputile__gemm_read_batch_options(options, &requested, &precision)) != GPUTILE_SUCCESS)
        return s;
    if ((trans_a != GPUTILE_OP_N && trans_a != GPUTILE_OP_T) ||
        (trans_b != GPUTILE_OP_N && trans_b != GPUTILE_OP_T))
        return GPUTILE_ERROR_INVALID_VALUE;
    if (count == 0)
        return noop(requested, precision, options);
    if (a == NULL || b == NULL || c == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (count > (size_t)INT64_MAX / sizeof(gputile__gemm_view))
        return GPUTILE_ERROR_OVERFLOW;
    gputile__batch_aligned aligned;
    gputile__views_ranges ranges;
    if ((s = gputile__gemm_views_check(trans_a, trans_b, a, b, c, count, &aligned, &ranges)) !=
        GPUTILE_SUCCESS)
        return s;
    if (gputile__is_empty(c[0]))
        return noop(requested, precision, options);

    const gputile__device *dev = NULL;
    if ((s = gputile__device_current(&dev)) != GPUTILE_SUCCESS ||
        (s = gputile__gemm_views_on_device(a, b, c, count, &ranges)) != GPUTILE_SUCCESS)
        return s;
    gputile__gemm_args args = {
        .m = (int64_t)c[0].height,
        .n = (int64_t)c[0].width,
        .k = (int64_t)op_cols(trans_a, a[0]),
        .trans_a = trans_a == GPUTILE_OP_T,
        .trans_b = trans_b == GPUTILE_OP_T,
        .alpha = alpha,
        .beta = beta,
        .batch = (int64_t)count,
    };
    /* views spaced evenly (a strided batch written as views, as of one
     * tensor's heads or blocks): no descriptors to send */
    const bool even = ranges.even[0] && ranges.even[1] && ranges.even[2];
    if (even) {
        args.a = a[0].elements, args.lda = (int64_t)a[0].stride;
        args.b = b[0].elements, args.ldb = (int64_t)b[0].stride;
        args.c = c[0].elements, args.ldc = (int64_t)c[0].stride;
        args.stride_a = ranges.step[0] / (int64_t)sizeof(float);
        args.stride_b = ranges.step[1] / (int64_t)sizeof(float);
        args.stride_c = ranges.step[2] / (int64_t)sizeof(float);
    }
    gputile__gemm_choice choice; /* before the upload queues anything */
    if ((s = choose_batch(requested, precision, dev, aligned, &args, !even, &choice)) !=
        GPUTILE_SUCCESS)
        return s;
    if (even)
        return run_batch(&choice, aligned, &args, stream, options);
    /* the descriptors go through a pinned slot that later calls reuse */
    if ((s = gputile__refuse_capture(stream)) != GPUTILE_SUCCESS)
        return s;
    gputile__gemm_view *views = NULL;
    if ((s = gputile__gemm_views_upload(a, b, c, count, &ranges, dev->ordinal, stream, &views)) !=
        GPUTILE_SUCCESS)
        return s;
    args.views = views;
    s = run_batch(&choice, aligned, &args, stream, options);
    cudaError_t err = gputile__workspace_release(views, stream);
    if (s == GPUTILE_SUCCESS)
        s = gputile__cuda_status(err);
    return s;
}
