/* SPDX-License-Identifier: MIT */
/*
 * wgmma_probe_kernels.cu: see wgmma_probe_kernels.h. Instantiates the
 * library's register-staged wgmma template (kernels/gemm_wgmma.cuh) in the
 * variants the layout probe compares; built for sm_90a like the kernels.
 */
#include "../../kernels/gemm_wgmma.cuh"
#include "../../lib/internal.h"
#include "wgmma_probe_kernels.h"

extern "C" cudaError_t wgmma_probe_run(const gputile__gemm_args *p, int bn, int variant,
                                       cudaStream_t stream)
{
    gputile__gemm_plan plan = {};
    plan.splits = 1;
    plan.k_per_split = (p->k + BK - 1) / BK * BK;
    plan.vec_a = gputile__rows_aligned16(p->a, p->lda);
    plan.vec_b = gputile__rows_aligned16(p->b, p->ldb);
    const wgmma_params w = params_of(p, &plan, bn == 256 ? 256 : 128, variant == 1 ? SBO : LBO,
                                     variant == 1 ? LBO : SBO);
    if (variant == 0)
        return bn == 128 ? dispatch<128, true, true>(w, 1, stream) : cudaErrorInvalidValue;
    return bn == 256 ? dispatch<256, true, false>(w, 1, stream)
                     : dispatch<128, true, false>(w, 1, stream);
}
