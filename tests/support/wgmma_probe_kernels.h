/* SPDX-License-Identifier: MIT */
/*
 * wgmma_probe_kernels.h: the register-staged wgmma kernel's variants that
 * only tests/wgmma_probe runs (built here, not in the library).
 */
#ifndef GPUTILE_TEST_WGMMA_PROBE_KERNELS_H
#define GPUTILE_TEST_WGMMA_PROBE_KERNELS_H

#include "../../kernels/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One unsplit product (p: m, n, k >= 1, device pointers) with the
 * register-staged kernel of kernels/gemm_wgmma.cuh in 3xTF32: variant 0
 * each k slice accumulated apart on the tensor cores and added in FP32
 * registers (128 x 128 only); 1 and 2 without that, at width bn (128 or
 * 256), with the descriptors' LBO and SBO swapped (1) or as documented (2). */
cudaError_t wgmma_probe_run(const gputile__gemm_args *p, int bn, int variant, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
