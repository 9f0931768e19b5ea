/* SPDX-License-Identifier: MIT */
/*
 * gemm_batch.cuh: the problem of a batch a block works on (internal; issue
 * 20). gputile__gemm_args carries either per-operand batch strides or an
 * array of views in device memory (kernels.h); a kernel that runs batches
 * turns its args into those of problem z with one call.
 */
#ifndef GPUTILE_GEMM_BATCH_CUH
#define GPUTILE_GEMM_BATCH_CUH

#include "kernels.h"

/* Points p's operands at problem z of its batch (lib/ checked that every
 * z * stride fits: no overflow here). */
static __device__ __forceinline__ void gputile__gemm_select_problem(gputile__gemm_args &p,
                                                                    int64_t z)
{
    if (p.views != NULL) {
        const gputile__gemm_view *v = p.views + z;
        p.a = v->a, p.b = v->b, p.c = v->c;
        p.lda = v->lda, p.ldb = v->ldb, p.ldc = v->ldc;
    } else {
        p.a += z * p.stride_a, p.b += z * p.stride_b, p.c += z * p.stride_c;
    }
}

#endif /* GPUTILE_GEMM_BATCH_CUH */
