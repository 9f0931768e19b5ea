/* SPDX-License-Identifier: MIT */
/*
 * histogram_image_ref.cu: gputile-bench histogram's image references (see
 * histogram_image_ref.h).
 */
#include <cub/device/device_histogram.cuh>

#include "bench.h"
#include "histogram_image_ref.h"

__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static __global__ void fill_bytes_kernel(uint64_t *d, size_t words, uint64_t seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        d[i] = mix64(i * 0x9e3779b97f4a7c15ull + seed);
}

extern "C" void benchimg_fill_bytes(void *d, size_t bytes, uint64_t seed, cudaStream_t stream)
{
    fill_bytes_kernel<<<2048, 256, 0, stream>>>((uint64_t *)d, bytes / 8, seed);
    BENCH_CUDA(cudaGetLastError());
    if (bytes % 8)
        BENCH_CUDA(cudaMemsetAsync((char *)d + bytes / 8 * 8, 0x5a, bytes % 8, stream));
}

/* One call of the CUB function for c->kind; temp NULL asks for the size. */
static cudaError_t cub_call(benchimg_cub *c, void *temp, size_t &bytes, cudaStream_t stream)
{
    switch (c->kind) {
    case BENCHIMG_U8:
        return cub::DeviceHistogram::HistogramEven(temp, bytes, (const uint8_t *)c->samples,
                                                   c->hist[0], c->nbins + 1, 0, 256, (int64_t)c->n,
                                                   stream);
    case BENCHIMG_U16:
        return cub::DeviceHistogram::HistogramEven(temp, bytes, (const uint16_t *)c->samples,
                                                   c->hist[0], c->nbins + 1, 0, 65536,
                                                   (int64_t)c->n, stream);
    case BENCHIMG_RGBA8: {
        const ::cuda::std::array<int *, 4> hist = {c->hist[0], c->hist[1], c->hist[2], c->hist[3]};
        const ::cuda::std::array<int, 4> levels = {c->nbins + 1, c->nbins + 1, c->nbins + 1,
                                                   c->nbins + 1};
        const ::cuda::std::array<int, 4> lower = {0, 0, 0, 0}, upper = {256, 256, 256, 256};
        return cub::DeviceHistogram::MultiHistogramEven<4, 4>(
            temp, bytes, (const uint8_t *)c->samples, hist, levels, lower, upper, (int64_t)c->n,
            stream);
    }
    case BENCHIMG_U8_ROI:
        return cub::DeviceHistogram::HistogramEven(temp, bytes, (const uint8_t *)c->samples,
                                                   c->hist[0], c->nbins + 1, 0, 256, (int64_t)c->n,
                                                   (int64_t)c->height, c->stride, stream);
    default:
        return cub::DeviceHistogram::HistogramRange(temp, bytes, (const float *)c->samples,
                                                    c->hist[0], c->nbins + 1, c->d_levels,
                                                    (int64_t)c->n, stream);
    }
}

extern "C" void benchimg_cub_size(benchimg_cub *c)
{
    size_t bytes = 0;
    BENCH_CUDA(cub_call(c, nullptr, bytes, 0));
    c->temp_bytes = bytes;
}

extern "C" void benchimg_cub_run(benchimg_cub *c, cudaStream_t stream)
{
    size_t bytes = c->temp_bytes;
    BENCH_CUDA(cub_call(c, c->temp, bytes, stream));
}
