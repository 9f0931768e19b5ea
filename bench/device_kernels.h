/* SPDX-License-Identifier: MIT */
/*
 * device_kernels.h: the benchmark's own kernels (bench/device_kernels.cu).
 */
#ifndef GPUTILE_BENCH_DEVICE_KERNELS_H
#define GPUTILE_BENCH_DEVICE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* p[0..n) = uniform in [-1, 1), a function of (seed, index). */
cudaError_t bench_fill(float *p, size_t n, uint64_t seed, cudaStream_t s);
/* Queues the FFMA-rate kernel; *flops = the floating-point operations it does. */
cudaError_t bench_ffma(float *out, int sms, cudaStream_t s, double *flops);
/* Queues a kernel that reads `bytes` (a multiple of 16) from p. */
cudaError_t bench_read(const float *p, size_t bytes, float *out, int sms, cudaStream_t s);
/* Queues a kernel that reads `rows` rows of `row_bytes` (a multiple of 16)
 * from p (16-byte aligned), `stride` bytes apart (a multiple of 16). */
cudaError_t bench_read_rows(const void *p, size_t row_bytes, size_t rows, size_t stride, float *out,
                            int sms, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
