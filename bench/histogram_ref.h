/* SPDX-License-Identifier: MIT */
/*
 * histogram_ref.h: what gputile-bench histogram compares libgputile with,
 * compiled by nvcc (bench/histogram_ref.cu): CUB's
 * DeviceHistogram::HistogramEven, the Programming Guide's cluster histogram
 * (section 6.2.5, "the seed"), and the input generator. Aborts with a message on CUDA errors
 * (a benchmark, not the library).
 */
#ifndef GPUTILE_BENCH_HISTOGRAM_REF_H
#define GPUTILE_BENCH_HISTOGRAM_REF_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum benchref_kind {
    BENCHREF_UNIFORM = 0, /* hash(i) % nbins */
    BENCHREF_EQUAL = 1,   /* every sample nbins / 2 */
    BENCHREF_FEW = 2,     /* 16 distinct values spread over the bins */
    BENCHREF_ZIPF = 3     /* Zipf-like: rank r with probability ~ 1 / (r + 1), ranks hashed */
};

/* n int32 samples of the given kind in [0, nbins). */
void benchref_fill(int32_t *d, size_t n, int kind, int32_t nbins, cudaStream_t stream);

/* f[i] = d[i] + 0.5f: the same samples as floats, each in the middle of
 * its bin of [0, nbins) (exact below 2^23: the same counts as d's). */
void benchref_to_float(const int32_t *d, float *f, size_t n, cudaStream_t stream);

/* CUB DeviceHistogram::HistogramEven, int counters, levels 0..nbins. */
size_t benchref_cub_temp_bytes(const int32_t *d, size_t n, int32_t nbins, int *hist);
void benchref_cub(void *temp, size_t temp_bytes, const int32_t *d, size_t n, int32_t nbins,
                  int *hist, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
