/* SPDX-License-Identifier: MIT */
/*
 * ref64.cu: see ref64.h. One thread per element of C, k summed in order in
 * float64 (products of floats are exact in float64, so the only error is
 * float64 accumulation, ~k 2^-53 relative: far below anything measured).
 */
#include "ref64.h"

static __global__ void gemm_ref64_kernel(int ta, int tb, int64_t m, int64_t n, int64_t k,
                                         float alpha, const float *a, int64_t lda, const float *b,
                                         int64_t ldb, float beta, const float *c0, int64_t ldc,
                                         double *ref, double *scale)
{
    const int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t row = blockIdx.y; row < m; row += gridDim.y) {
        if (col >= n)
            return;
        double sum = 0.0, mag = 0.0;
        for (int64_t q = 0; q < k; ++q) {
            const double x = ta ? a[q * lda + row] : a[row * lda + q];
            const double y = tb ? b[col * ldb + q] : b[q * ldb + col];
            sum += x * y;
            mag += fabs(x * y);
        }
        double r = (double)alpha * sum, s = fabs((double)alpha) * mag;
        if (beta != 0.0f) {
            const double c = (double)beta * c0[row * ldc + col];
            r += c;
            s += fabs(c);
        }
        ref[row * n + col] = r;
        scale[row * n + col] = s;
    }
}

extern "C" cudaError_t gputest_gemm_ref64(int ta, int tb, int64_t m, int64_t n, int64_t k,
                                          float alpha, const float *a, int64_t lda, const float *b,
                                          int64_t ldb, float beta, const float *c0, int64_t ldc,
                                          double *ref, double *scale)
{
    if (m <= 0 || n <= 0)
        return cudaSuccess;
    dim3 grid((unsigned)((n + 127) / 128), (unsigned)(m < 65535 ? m : 65535));
    gemm_ref64_kernel<<<grid, 128>>>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c0, ldc, ref,
                                     scale);
    cudaError_t err = cudaGetLastError();
    return err != cudaSuccess ? err : cudaDeviceSynchronize();
}
