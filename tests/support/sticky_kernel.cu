/* SPDX-License-Identifier: MIT */
/*
 * sticky_kernel.cu: a kernel for test_sticky.c that corrupts the CUDA
 * context on purpose.
 *
 * Algorithm: one thread stores to device address 0x10, which no allocation
 * holds; launch shape 1 x 1, no shared memory. The store faults, the kernel
 * ends with cudaErrorIllegalAddress, and that error is sticky: every later
 * CUDA call in the process returns it until cudaDeviceReset(). That is the
 * state a buggy user kernel leaves libgputile in.
 */
#include <cuda_runtime_api.h>
#include <stdint.h>

static __global__ void illegal_store_kernel(int *p)
{
    *p = 1;
}

extern "C" cudaError_t gputest_illegal_store(cudaStream_t stream)
{
    illegal_store_kernel<<<1, 1, 0, stream>>>((int *)(uintptr_t)0x10);
    return cudaGetLastError();
}
