/* SPDX-License-Identifier: MIT */
/*
 * histogram_ref.cu: gputile-bench histogram's inputs and CUB reference (see
 * histogram_ref.h). The seed's kernel is the library's own SEED tier now.
 */

#include <cub/device/device_histogram.cuh>

#include "bench.h"
#include "histogram_ref.h"

__device__ __forceinline__ uint32_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

static __global__ void fill_kernel(int32_t *d, size_t n, int kind, int32_t nbins)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint32_t h = mix(i + 0x9e3779b97f4a7c15ull);
        int32_t v;
        if (kind == BENCHREF_UNIFORM)
            v = (int32_t)(h % (uint32_t)nbins);
        else if (kind == BENCHREF_EQUAL)
            v = nbins / 2;
        else if (kind == BENCHREF_FEW)
            v = (int32_t)(((uint64_t)(h % 16u) * (uint64_t)nbins) / 16u);
        else { /* rank r = floor(nbins^u) - 1, P(r) ~ 1 / (r + 1), hashed over the bins */
            const float u = (float)(h >> 8) * (1.0f / 16777216.0f);
            uint32_t r = (uint32_t)expf(u * logf((float)nbins)) - 1u;
            r = r < (uint32_t)nbins ? r : (uint32_t)nbins - 1u;
            v = (int32_t)(((uint64_t)r * 2654435761u) % (uint64_t)nbins);
        }
        d[i] = v;
    }
}

extern "C" void benchref_fill(int32_t *d, size_t n, int kind, int32_t nbins, cudaStream_t stream)
{
    fill_kernel<<<1024, 256, 0, stream>>>(d, n, kind, nbins);
    BENCH_CUDA(cudaGetLastError());
}

static __global__ void to_float_kernel(const int32_t *d, float *f, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        f[i] = (float)d[i] + 0.5f;
}

extern "C" void benchref_to_float(const int32_t *d, float *f, size_t n, cudaStream_t stream)
{
    to_float_kernel<<<1024, 256, 0, stream>>>(d, f, n);
    BENCH_CUDA(cudaGetLastError());
}

extern "C" size_t benchref_cub_temp_bytes(const int32_t *d, size_t n, int32_t nbins, int *hist)
{
    size_t bytes = 0;
    BENCH_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d, hist, nbins + 1, 0, nbins,
                                                   (int64_t)n));
    return bytes;
}

extern "C" void benchref_cub(void *temp, size_t temp_bytes, const int32_t *d, size_t n,
                             int32_t nbins, int *hist, cudaStream_t stream)
{
    BENCH_CUDA(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d, hist, nbins + 1, 0, nbins,
                                                   (int64_t)n, stream));
}
