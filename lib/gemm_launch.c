/* SPDX-License-Identifier: MIT */
/*
 * gemm_launch.c: carries out one planned GEMM launch (see gemm_launch.h).
 * The only caller of the kernels' GEMM launchers, so the order of the
 * launches and the life of the workspace are written once for every row.
 */
#include "gemm_launch.h"

gputile_status gputile__gemm_execute(const gputile__gemm_choice *choice,
                                     const gputile__gemm_args *args, cudaStream_t stream)
{
    if (args->k == 0 || args->alpha == 0.0f)
        return gputile__cuda_status(
            gputile__matrix_scale(args->m, args->n, args->beta, args->c, args->ldc, stream));

    gputile__gemm_args whole;
    gputile__gemm_plan plan;
    size_t bytes = 0;
    void *space = NULL;
    cudaError_t err = gputile__gemm_plan_launch(choice, args, &whole, &plan, &bytes);
    if (err == cudaSuccess && bytes > 0)
        err = gputile__workspace_acquire(&space, bytes, choice->device, stream);
    if (err == cudaErrorMemoryAllocation && plan.split_d) { /* an option: do without it */
        (void)cudaGetLastError();
        bytes = gputile__gemm_plan_without_split_d(&plan, choice, &whole);
        err = bytes > 0 ? gputile__workspace_acquire(&space, bytes, choice->device, stream)
                        : cudaSuccess;
    }
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    gputile__gemm_plan_place(&plan, choice, &whole, space);

    err = gputile__gemm_row_of(choice->variant)->run(&whole, &plan, stream);
    if (err == cudaSuccess && plan.splits > 1 && !plan.cluster)
        err =
            gputile__gemm_splitk_reduce(&whole, plan.splits, plan.work, plan.reduce_blocks, stream);
    cudaError_t release = gputile__workspace_release(space, stream);
    if (err == cudaSuccess)
        err = release;
    if (err == cudaSuccess && (whole.m != args->m || whole.n != args->n))
        err = gputile__gemm_thin_edges(args, whole.m, whole.n, stream);
    return gputile__cuda_status(err);
}
