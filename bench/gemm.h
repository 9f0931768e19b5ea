/* SPDX-License-Identifier: MIT */
/*
 * gemm.h: what the modes of gputile-bench gemm share: the table of the
 * tuned shapes (gemm.c), the shape sweep (gemm_sweep.c) and the cost of a
 * call (gemm_latency.c).
 */
#ifndef GPUTILE_BENCH_GEMM_H
#define GPUTILE_BENCH_GEMM_H

#include <cublas_v2.h>

#include "gputile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Queues row-major C = op(A) op(B) on stream through gputile_gemm(): op(A)
 * m x k, op(B) k x n, C m x n, every matrix contiguous (A stored m x k, or
 * k x m when ta; B stored k x n, or n x k when tb). AUTO in `precision`;
 * *used (may be NULL) gets algorithm_used and split_k_used. Exits with a
 * message when the call fails. */
void bench_gemm_lib(int ta, int tb, long m, long n, long k, const float *a, const float *b,
                    float *c, int precision, cudaStream_t stream, gputile_gemm_options *used);

/* The same with `algorithm` forced (GPUTILE_ALGO_AUTO: bench_gemm_lib). */
void bench_gemm_lib_algorithm(int ta, int tb, long m, long n, long k, const float *a,
                              const float *b, float *c, int precision, int algorithm, int split_k,
                              cudaStream_t stream, gputile_gemm_options *used);

/* The same product through cublasSgemm on h's stream and math mode, as
 * C^T = op(B)^T op(A)^T in cuBLAS's column-major terms. Exits on failure. */
void bench_gemm_cublas(cublasHandle_t h, int ta, int tb, long m, long n, long k, const float *a,
                       const float *b, float *c);

/* A cuBLAS handle on stream with the given math mode; exits on failure. */
cublasHandle_t bench_cublas_handle(cudaStream_t stream, cublasMath_t math);

/* gputile-bench gemm --sweep-shapes | --list-shapes (gemm_sweep.c) and
 * gputile-bench gemm --latency (gemm_latency.c); argv[0] is "gemm". */
int bench_gemm_sweep_shapes(int argc, char **argv);
int bench_gemm_latency(int argc, char **argv);
/* gputile-bench gemm --batched (gemm_batched.c, issue 20). */
int bench_gemm_batched(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
