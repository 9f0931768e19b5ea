/* SPDX-License-Identifier: MIT */
/*
 * ceilings.c: the device's FFMA rate and read bandwidth, measured in the
 * run that reports against them.
 */
#include <stdio.h>

#include "bench.h"
#include "device_kernels.h"

int bench_sm_count(void)
{
    int dev, sms;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
}

struct ffma_ctx {
    float *out;
    int sms;
    double flops;
};

static void ffma_enqueue(void *p, cudaStream_t s)
{
    struct ffma_ctx *c = p;
    BENCH_CUDA(bench_ffma(c->out, c->sms, s, &c->flops));
}

double bench_ffma_tflops(const bench_options *o, cudaStream_t stream)
{
    struct ffma_ctx c = {NULL, bench_sm_count(), 0};
    BENCH_CUDA(cudaMalloc((void **)&c.out, sizeof(float)));
    bench_item it = {"ffma", ffma_enqueue, &c, 0, false};
    bench_time(&it, 1, o, stream);
    BENCH_CUDA(cudaFree(c.out));
    return c.flops / (it.median_ms * 1e-3) / 1e12;
}

struct read_ctx {
    float *buf, *out;
    size_t bytes;
    int sms;
};

static void read_enqueue(void *p, cudaStream_t s)
{
    struct read_ctx *c = p;
    BENCH_CUDA(bench_read(c->buf, c->bytes, c->out, c->sms, s));
}

double bench_read_gbs(const bench_options *o, cudaStream_t stream)
{
    struct read_ctx c = {NULL, NULL, (size_t)1 << 30, bench_sm_count()}; /* 1 GiB: far past L2 */
    BENCH_CUDA(cudaMalloc((void **)&c.buf, c.bytes));
    BENCH_CUDA(cudaMalloc((void **)&c.out, sizeof(float)));
    BENCH_CUDA(cudaMemsetAsync(c.buf, 0, c.bytes, stream));
    bench_item it = {"read", read_enqueue, &c, 0, false};
    bench_time(&it, 1, o, stream);
    BENCH_CUDA(cudaFree(c.buf));
    BENCH_CUDA(cudaFree(c.out));
    return (double)c.bytes / (it.median_ms * 1e-3) / 1e9;
}
