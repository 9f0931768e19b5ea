/* SPDX-License-Identifier: MIT */
/*
 * gemm.c: gputile_gemm() and gputile_matmul(): validate, choose the row
 * (gemm_plan.c), then run it on device matrices (gemm_launch.c) or, with
 * any host matrix, through the overlapped pipeline of gemm_host.c. Nothing
 * is written before every check has passed.
 */
#include "gemm_host.h"
#include "gemm_launch.h"

/* op(M)'s rows and columns. */
static size_t op_rows(gputile_op t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.width : m.height;
}
static size_t op_cols(gputile_op t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.height : m.width;
}

/* Reads the caller's options, whatever version of the struct it knows. A
 * named algorithm must have a row for the precision (a tensor-core
 * algorithm needs a TF32 precision, an FFMA algorithm FP32, 3xTF32 runs
 * on 128 x 128 tiles only) and a split of k only where its row takes one. */
static gputile_status read_options(const gputile_gemm_options *o, bool splits, int *algorithm,
                                   int *split_k, int *precision)
{
    *algorithm = GPUTILE_ALGO_AUTO;
    *split_k = 0;
    *precision = GPUTILE_PRECISION_FP32;
    if (o == NULL)
        return GPUTILE_SUCCESS;
    if (o->size < sizeof(gputile_gemm_options))
        return GPUTILE_ERROR_INVALID_VALUE;
    if (!gputile__gemm_known(o->algorithm) || o->reserved != 0 || o->split_k < 0 ||
        o->split_k > GPUTILE_MAX_SPLIT_K)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (o->precision != GPUTILE_PRECISION_FP32 && o->precision != GPUTILE_PRECISION_FP32_3XTF32 &&
        o->precision != GPUTILE_PRECISION_TF32)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (o->algorithm != GPUTILE_ALGO_AUTO) {
        const int v = gputile__gemm_variant(o->algorithm, o->precision);
        if (v < 0 ||
            (splits && o->split_k > 1 && !(gputile__gemm_row_of(v)->flags & GPUTILE__GEMM_SPLITK)))
            return GPUTILE_ERROR_INVALID_VALUE;
    }
    *algorithm = o->algorithm;
    *split_k = splits ? o->split_k : 0;
    *precision = o->precision;
    return GPUTILE_SUCCESS;
}

gputile_status gputile__gemm_read_options(const gputile_gemm_options *o, int *algorithm,
                                          int *split_k, int *precision)
{
    return read_options(o, true, algorithm, split_k, precision);
}

gputile_status gputile__gemm_read_batch_options(const gputile_gemm_options *o, int *algorithm,
                                                int *precision)
{
    int unused;
    return read_options(o, false, algorithm, &unused, precision);
}

gputile_status gputile__gemm_check(gputile_op ta, gputile_op tb, gputile_matrix a, gputile_matrix b,
                                   gputile_matrix c)
{
    gputile_status s;
    if ((ta != GPUTILE_OP_N && ta != GPUTILE_OP_T) || (tb != GPUTILE_OP_N && tb != GPUTILE_OP_T))
        return GPUTILE_ERROR_INVALID_VALUE;
    if ((s = gputile__check_matrix(a)) != GPUTILE_SUCCESS ||
        (s = gputile__check_matrix(b)) != GPUTILE_SUCCESS ||
        (s = gputile__check_matrix(c)) != GPUTILE_SUCCESS)
        return s;
    if (op_rows(ta, a) != c.height || op_cols(tb, b) != c.width || op_cols(ta, a) != op_rows(tb, b))
        return GPUTILE_ERROR_SHAPE_MISMATCH;
    if (gputile__overlap(c, a) || gputile__overlap(c, b))
        return GPUTILE_ERROR_ALIASING;
    return GPUTILE_SUCCESS;
}

/* Where each non-empty operand lives; empty ones count as device memory. */
static gputile_status locate(const gputile_matrix *m, gputile__memory *at, int n, bool *any_host)
{
    *any_host = false;
    for (int i = 0; i < n; ++i) {
        at[i] = GPUTILE__MEMORY_DEVICE;
        if (!gputile__is_empty(m[i])) {
            gputile_status s = gputile__memory_of(m[i], &at[i]);
            if (s != GPUTILE_SUCCESS)
                return s;
        }
        *any_host |= at[i] == GPUTILE__MEMORY_HOST;
    }
    return GPUTILE_SUCCESS;
}

static void report(gputile_gemm_options *o, const gputile__gemm_choice *c)
{
    if (o != NULL) {
        o->algorithm_used = gputile__gemm_row_of(c->variant)->algorithm;
        o->split_k_used = c->splits;
    }
}

gputile_status gputile_gemm(gputile_op trans_a, gputile_op trans_b, float alpha, gputile_matrix a,
                            gputile_matrix b, float beta, gputile_matrix c,
                            struct CUstream_st *stream, gputile_gemm_options *options)
{
    int requested, split_k, precision;
    bool tensor = false;
    gputile_status s;

    if ((s = gputile__gemm_read_options(options, &requested, &split_k, &precision)) !=
            GPUTILE_SUCCESS ||
        (s = gputile__gemm_check(trans_a, trans_b, a, b, c)) != GPUTILE_SUCCESS)
        return s;

    gputile__gemm_args args = {
        .m = (int64_t)c.height,
        .n = (int64_t)c.width,
        .k = (int64_t)op_cols(trans_a, a),
        .trans_a = trans_a == GPUTILE_OP_T,
        .trans_b = trans_b == GPUTILE_OP_T,
        .alpha = alpha,
        .beta = beta,
    };
    const gputile__device *dev = NULL;
    if (args.m == 0 || args.n == 0) { /* a no-op: report the plan, touch no device */
        /* no device: the FP32 fallback is reported, no error kept */
        if (precision != GPUTILE_PRECISION_FP32 && requested == GPUTILE_ALGO_AUTO &&
            gputile__device_lookup(&dev) == cudaSuccess &&
            gputile__gemm_tensor_cores(dev, &tensor) != cudaSuccess)
            (void)cudaGetLastError();
        if (!tensor && requested == GPUTILE_ALGO_AUTO)
            precision = GPUTILE_PRECISION_FP32;
        gputile__gemm_choice choice =
            gputile__gemm_choose(requested, precision, split_k, NULL, GPUTILE__GEMM_FORM_ALIGNED,
                                 args.m, args.n, args.k);
        report(options, &choice);
        return GPUTILE_SUCCESS;
    }

    const gputile_matrix m[3] = {a, b, c};
    gputile__memory at[3];
    bool any_host;
    if ((s = locate(m, at, 3, &any_host)) != GPUTILE_SUCCESS ||
        (s = gputile__device_current(&dev)) != GPUTILE_SUCCESS)
        return s;
    /* TF32 precisions: the wgmma kernels where the device runs them; else a
     * forced wgmma algorithm is unsupported and AUTO falls back to FP32. */
    if (precision != GPUTILE_PRECISION_FP32) {
        if ((s = gputile__cuda_status(gputile__gemm_tensor_cores(dev, &tensor))) != GPUTILE_SUCCESS)
            return s;
        if (!tensor && requested != GPUTILE_ALGO_AUTO)
            return GPUTILE_ERROR_UNSUPPORTED;
        if (!tensor)
            precision = GPUTILE_PRECISION_FP32;
    }
    const unsigned form = gputile__gemm_form(
        gputile__rows_aligned16(a.elements, (int64_t)a.stride) &&
            gputile__rows_aligned16(b.elements, (int64_t)b.stride),
        gputile__rows_aligned16(c.elements, (int64_t)c.stride), args.trans_a, args.trans_b);
    gputile__gemm_choice choice =
        gputile__gemm_choose(requested, precision, split_k, dev, form, args.m, args.n, args.k);
    if (((gputile__gemm_row_of(choice.variant)->flags & GPUTILE__GEMM_TMA) &&
         !gputile__gemm_tma_dims(args.m, args.n, args.k)) ||
        !gputile__gemm_slices_fit(&choice, args.k))
        return GPUTILE_ERROR_UNSUPPORTED; /* a named TMA row (AUTO takes none there), or a
                                             split asked for of more than 2^30 slices */

    if (any_host) { /* transfers overlapped with the kernels; complete on return */
        if ((s = gputile__refuse_capture(stream)) == GPUTILE_SUCCESS)
            s = gputile__gemm_host(&choice, &args, a, b, c, at, stream);
    } else {
        args.a = a.elements;
        args.lda = (int64_t)a.stride;
        args.b = b.elements;
        args.ldb = (int64_t)b.stride;
        args.c = c.elements;
        args.ldc = (int64_t)c.stride;
        s = gputile__gemm_execute(&choice, &args, stream);
    }
    if (s == GPUTILE_SUCCESS)
        report(options, &choice);
    return s;
}

gputile_status gputile_matmul(gputile_matrix a, gputile_matrix b, gputile_matrix c)
{
    gputile_status s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, b, 0.0f, c, NULL, NULL);
    if (s != GPUTILE_SUCCESS || gputile__is_empty(c)) /* empty C: nothing was queued */
        return s;
    return gputile__cuda_status(cudaStreamSynchronize(NULL));
}
