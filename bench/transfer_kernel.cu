/* SPDX-License-Identifier: MIT */
/*
 * transfer_kernel.cu: the zero-copy row of `gputile-bench transfer`: a
 * kernel copying between mapped host memory and device memory.
 *
 * Algorithm: dst[i] = src[i] over n bytes as 16-byte vectors (n must be a
 * multiple of 16 and both pointers 16-byte aligned), grid-stride loop, 256
 * threads x 8 blocks per SM, no shared memory: the reads (or writes) of
 * host memory go over PCIe as the kernel issues them, so its rate is the
 * mapped-memory rate.
 */
#include <cuda_runtime_api.h>
#include <stddef.h>

static __global__ void zero_copy_kernel(float4 *dst, const float4 *src, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

extern "C" cudaError_t bench_zero_copy(void *dst, const void *src, size_t bytes, int sms,
                                       cudaStream_t stream)
{
    zero_copy_kernel<<<8 * sms, 256, 0, stream>>>((float4 *)dst, (const float4 *)src, bytes / 16);
    return cudaGetLastError();
}
