/* SPDX-License-Identifier: MIT */
/*
 * histogram_image_ref.h: what gputile-bench histogram's image rows compare
 * libgputile with, compiled by nvcc (bench/histogram_image_ref.cu): CUB's
 * DeviceHistogram::HistogramEven (1-D and with a row stride),
 * MultiHistogramEven (4 channels) and HistogramRange, and the input
 * generators. int counters (every row's counts stay below 2^31). Aborts
 * with a message on CUDA errors (a benchmark, not the library).
 */
#ifndef GPUTILE_BENCH_HISTOGRAM_IMAGE_REF_H
#define GPUTILE_BENCH_HISTOGRAM_IMAGE_REF_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bytes uniform random bytes at d (a function of seed and index). */
void benchimg_fill_bytes(void *d, size_t bytes, uint64_t seed, cudaStream_t stream);

/* What CUB runs: `kind` and its arguments. */
enum benchimg_kind {
    BENCHIMG_U8,       /* uint8, levels 0..nbins over [0, 256): HistogramEven */
    BENCHIMG_U16,      /* uint16, nbins even bins over [0, 65536): HistogramEven */
    BENCHIMG_RGBA8,    /* uint8 x 4 channels, 256 bins each: MultiHistogramEven<4, 4> */
    BENCHIMG_U8_ROI,   /* uint8 rows of `width` samples, `stride` bytes apart, 256 bins */
    BENCHIMG_F32_RANGE /* float, nedges levels at d_levels: HistogramRange */
};

typedef struct benchimg_cub {
    int kind;
    const void *samples;
    size_t n;              /* samples (pixels for RGBA8); ROI: width */
    size_t height;         /* ROI rows */
    size_t stride;         /* ROI row stride, bytes */
    int nbins;             /* per channel */
    const float *d_levels; /* F32_RANGE: nbins + 1 levels, device memory */
    int *hist[4];          /* nbins ints per channel */
    void *temp;
    size_t temp_bytes;
} benchimg_cub;

/* Sets c->temp_bytes to what CUB asks for. */
void benchimg_cub_size(benchimg_cub *c);
void benchimg_cub_run(benchimg_cub *c, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
