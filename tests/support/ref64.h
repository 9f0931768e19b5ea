/* SPDX-License-Identifier: MIT */
/*
 * ref64.h: a float64 GEMM reference on the GPU for the accuracy suites.
 */
#ifndef GPUTILE_TEST_REF64_H
#define GPUTILE_TEST_REF64_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For every element of the m x n result, in float64 from the float inputs
 * (row-major device matrices, strides in elements, op = transpose when
 * ta / tb): ref = alpha op(A) op(B) + beta C0 and scale = |alpha|
 * |op(A)| |op(B)| + |beta C0| (the error scale of the relative metric).
 * C0 is not read when beta == 0. ref and scale: m * n contiguous doubles
 * in device memory. Synchronous; returns the first CUDA error. */
cudaError_t gputest_gemm_ref64(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                               const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
                               const float *c0, int64_t ldc, double *ref, double *scale);

#ifdef __cplusplus
}
#endif

#endif
