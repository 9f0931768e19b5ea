/* SPDX-License-Identifier: MIT */
/*
 * pinned_kernel.cu: a kernel for test_pinned.c that reads and writes
 * mapped (zero-copy) host memory through its device pointer.
 *
 * Algorithm: p[i] = 3 * p[i] + 1 (mod 256) for each of n bytes; a
 * grid-stride loop, 256 threads per block, no shared memory. Every byte is
 * read over PCIe and written back, so a wrong device pointer or an unmapped
 * page shows up as a wrong byte or a launch error.
 */
#include <cuda_runtime_api.h>
#include <stddef.h>

static __global__ void mapped_update_kernel(unsigned char *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned char)(3u * p[i] + 1u);
}

/* Loads the kernel's module (CUDA loads modules lazily, into device memory,
 * at a kernel's first launch) and launches it once on nothing: steps that
 * may fail for want of memory and be retried, unlike the real launch, which
 * must run once. Loading alone was not enough: with 11 other suites on the
 * H200 the first real launch still failed for want of memory. */
extern "C" cudaError_t gputest_mapped_update_ready(void)
{
    cudaFuncAttributes at;
    cudaError_t e = cudaFuncGetAttributes(&at, mapped_update_kernel);
    if (e != cudaSuccess)
        return e;
    mapped_update_kernel<<<1, 32, 0, cudaStreamPerThread>>>(nullptr, 0); /* no element */
    e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaStreamSynchronize(cudaStreamPerThread);
}

extern "C" cudaError_t gputest_mapped_update(unsigned char *device_ptr, size_t n,
                                             cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    const size_t blocks = (n + 255) / 256;
    const unsigned grid = blocks < 1024 ? (unsigned)blocks : 1024u;
    mapped_update_kernel<<<grid, 256, 0, stream>>>(device_ptr, n);
    return cudaGetLastError();
}
