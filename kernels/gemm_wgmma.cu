/* SPDX-License-Identifier: MIT */
/*
 * gemm_wgmma.cu: the library's instantiation of the register-staged
 * tensor-core kernel (gemm_wgmma.cuh, sm_90a only): TF32 on 128 x 128
 * tiles, the row WGMMA_128X128_TF32 of gemm_variants.h, in its four
 * transposes; and the query whether this device can load the sm_90a image.
 */
#include "gemm_wgmma.cuh"

extern "C" cudaError_t gputile__gemm_run_WGMMA_128X128_TF32(const gputile__gemm_args *p,
                                                            const gputile__gemm_plan *plan,
                                                            cudaStream_t stream)
{
    return dispatch<128, false, false>(params_of(p, plan, 128, LBO, SBO), plan->splits, stream);
}

extern "C" cudaError_t gputile__gemm_wgmma_loadable(int *loadable)
{
    struct cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes(&attr, gemm_wgmma_kernel<128, false, false, false>);
    *loadable = err == cudaSuccess;
    if (err == cudaErrorInvalidDeviceFunction || err == cudaErrorNoKernelImageForDevice) {
        (void)cudaGetLastError(); /* not sticky: clear it */
        return cudaSuccess;
    }
    return err;
}
