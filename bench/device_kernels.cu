/* SPDX-License-Identifier: MIT */
/*
 * device_kernels.cu: the benchmark's own kernels: random fill, and the two
 * ceilings it measures in every run (FFMA rate, device read bandwidth).
 */
#include <stdint.h>

#include "device_kernels.h"

/* Uniform in [-1, 1) from a hash of (seed, index): any size, no state. */
static __global__ void fill_kernel(float *p, size_t n, uint64_t seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 29;
        p[i] = (float)(x >> 40) * (2.0f / 16777216.0f) - 1.0f;
    }
}

extern "C" cudaError_t bench_fill(float *p, size_t n, uint64_t seed, cudaStream_t s)
{
    fill_kernel<<<1024, 256, 0, s>>>(p, n, seed);
    return cudaGetLastError();
}

/* 8 independent FMA chains per thread, 4096 iterations: the FFMA pipe's rate. */
#define FFMA_CHAINS 8
#define FFMA_ITERS 4096
static __global__ void ffma_kernel(float *out, float a, float b)
{
    float x[FFMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FFMA_CHAINS; ++c)
        x[c] = threadIdx.x + c;
    for (int i = 0; i < FFMA_ITERS; ++i)
#pragma unroll
        for (int c = 0; c < FFMA_CHAINS; ++c)
            x[c] = fmaf(x[c], a, b);
    float s = 0;
#pragma unroll
    for (int c = 0; c < FFMA_CHAINS; ++c)
        s += x[c];
    if (s == 12345.678f) /* never true; keeps the chains alive */
        out[0] = s;
}

extern "C" cudaError_t bench_ffma(float *out, int sms, cudaStream_t s, double *flops)
{
    const int blocks = sms * 8, threads = 256;
    ffma_kernel<<<blocks, threads, 0, s>>>(out, 0.999f, 0.001f);
    *flops = 2.0 * blocks * threads * FFMA_CHAINS * FFMA_ITERS;
    return cudaGetLastError();
}

/* Reads n float4 and keeps a sum alive: the device read bandwidth. */
static __global__ void read_kernel(const float4 *p, size_t n, float *out)
{
    float s = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldcs(p + i);
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 12345.678f)
        out[0] = s;
}

extern "C" cudaError_t bench_read(const float *p, size_t bytes, float *out, int sms, cudaStream_t s)
{
    read_kernel<<<sms * 8, 512, 0, s>>>((const float4 *)p, bytes / 16, out);
    return cudaGetLastError();
}

/* Reads rows of n float4, `stride` bytes apart: a block per row at a time,
 * no index arithmetic beyond the row's base. */
static __global__ void read_rows_kernel(const char *p, size_t n, size_t rows, size_t stride,
                                        float *out)
{
    float s = 0;
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const float4 *row = (const float4 *)(p + r * stride);
        for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
            float4 v = __ldcs(row + i);
            s += v.x + v.y + v.z + v.w;
        }
    }
    if (s == 12345.678f)
        out[0] = s;
}

extern "C" cudaError_t bench_read_rows(const void *p, size_t row_bytes, size_t rows, size_t stride,
                                       float *out, int sms, cudaStream_t s)
{
    read_rows_kernel<<<sms * 8, 512, 0, s>>>((const char *)p, row_bytes / 16, rows, stride, out);
    return cudaGetLastError();
}
