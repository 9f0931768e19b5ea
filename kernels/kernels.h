/*
 * kernels.h: the C-callable launchers of kernels/ (internal to libgputile).
 *
 * lib/ validates and plans; a launcher only launches. Every launcher takes
 * arguments that lib/ has already checked, enqueues its kernel(s) on
 * `stream` and returns the launch's cudaError_t.
 */
#ifndef GPUTILE_KERNELS_H
#define GPUTILE_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* gputile__gemm_args.precision: the values of gputile_precision. */
enum { GPUTILE__GEMM_FP32 = 0, GPUTILE__GEMM_3XTF32 = 1, GPUTILE__GEMM_TF32 = 2 };

/* C = alpha * op(A) * op(B) + beta * C on row-major matrices, all in device
 * memory; m, n, k >= 1; strides in elements. beta == 0 never reads C. */
typedef struct gputile__gemm_args {
    int64_t m, n, k;
    int trans_a, trans_b; /* 0: as stored; 1: transposed */
    float alpha, beta;
    const float *a;
    int64_t lda;
    const float *b;
    int64_t ldb;
    float *c;
    int64_t ldc;
    int precision; /* GPUTILE__GEMM_*: what the tensor-core kernels compute; FFMA kernels ignore it */
    int splits; /* split-K factor (register-blocked kernels; others ignore it): split z
                   covers k from z * per to (z + 1) * per, per = ceil(k / splits)
                   rounded up to the kernel's k slice */
    int tail_sms; /* > 0 (AUTO with splits == 1 only): the device's SM count; the
                     register-blocked kernels may then split the tiles of a last
                     wave at most half full along k */
} gputile__gemm_args;

/* One thread per element of C (Kirk & Hwu Fig. 4.1; CGMA 1). */
cudaError_t gputile__gemm_naive(const gputile__gemm_args *args, cudaStream_t stream);
/* 16x16 shared-memory tiles (Kirk & Hwu Fig. 4.7; CGMA 16). */
cudaError_t gputile__gemm_tiled(const gputile__gemm_args *args, cudaStream_t stream);
/* Register-blocked FFMA kernels (double-buffered shared memory, one
 * barrier per k slice), split-K over args->splits with a deterministic
 * reduction. 128: 128x128 tiles, 8 warps, 8x8 per thread; 128w64: 128x128
 * tiles, 4 warps of 64x64, 16x8 per thread, two blocks per SM; 128x256:
 * 128x256 tiles, 8 warps of 64x64; 64: 64x64 tiles, 2 warps. */
cudaError_t gputile__gemm_regblock128(const gputile__gemm_args *args, cudaStream_t stream);
cudaError_t gputile__gemm_regblock128w64(const gputile__gemm_args *args, cudaStream_t stream);
cudaError_t gputile__gemm_regblock128x256(const gputile__gemm_args *args, cudaStream_t stream);
cudaError_t gputile__gemm_regblock64(const gputile__gemm_args *args, cudaStream_t stream);
/* 64x128 tiles, 4 warps of 32x64, 8x8 per thread, launch bounds for two
 * blocks per SM (three fit where a variant takes 168 registers or fewer),
 * or, x3, registers capped at 168 so that three always fit. */
cudaError_t gputile__gemm_regblock64x128(const gputile__gemm_args *args, cudaStream_t stream);
cudaError_t gputile__gemm_regblock64x128x3(const gputile__gemm_args *args, cudaStream_t stream);
/* C = alpha * (sum over z < splits of work[z * m * n + row * n + col], in
 * order of z) + beta * C: the deterministic split-K reduction. */
cudaError_t gputile__gemm_splitk_reduce(const gputile__gemm_args *args, int splits,
                                        const float *work, cudaStream_t stream);
/* The one to four columns n_main..n of C (all its rows) and rows m_main..m
 * (columns below n_main) that whole tiles leave, as products one to four
 * wide, bound by reading the large operand (gemm_thin.cu); adds in a fixed
 * order. Nothing is launched for a side with none left. */
cudaError_t gputile__gemm_thin_edges(const gputile__gemm_args *args, int64_t m_main,
                                     int64_t n_main, cudaStream_t stream);
/* Tensor-core kernels (gemm_wgmma.cu, sm_90a only): 128 x 128 or 128 x 256
 * tiles, wgmma on tf32; args->precision GPUTILE__GEMM_3XTF32 (big/small
 * split, FP32-accurate) or GPUTILE__GEMM_TF32; split-K as above. Only on a
 * device for which gputile__gemm_wgmma_supported() says yes. */
cudaError_t gputile__gemm_wgmma128(const gputile__gemm_args *args, cudaStream_t stream);
cudaError_t gputile__gemm_wgmma256(const gputile__gemm_args *args, cudaStream_t stream);
/* TF32 on 128 x 256 tiles, 3xTF32 on 128 x 128, fed by TMA through a
 * 4-stage mbarrier ring, warp-specialised (gemm_wgmma_tma.cu, sm_90a
 * only); computes C or C^T, whichever needs the smaller pre-pass through
 * gputile__gemm_pack_kmajor() (none for 3xTF32 of aligned row-major A and
 * B). Split-K as above. What gputile__gemm_wgmma256() runs for
 * GPUTILE__GEMM_TF32 and gputile__gemm_wgmma128() for GPUTILE__GEMM_3XTF32. */
cudaError_t gputile__gemm_wgmma_tma(const gputile__gemm_args *args, cudaStream_t stream);
/* dst (rows x k, k contiguous, rows ldd floats apart) = the operand at src
 * stored as k x rows (transpose) or rows x k, ld floats apart; with
 * round_tf32 each value rounded to tf32 (nearest, ties away from zero). */
cudaError_t gputile__gemm_pack_kmajor(const float *src, int64_t ld, int transpose, int64_t rows,
                                      int64_t k, float *dst, int64_t ldd, int round_tf32,
                                      cudaStream_t stream);
/* *supported = 1 when `device` is compute capability 9.0 and this build
 * holds the sm_90a image of the kernels; cached per device. */
cudaError_t gputile__gemm_wgmma_supported(int device, int *supported);
/* The variants tests/wgmma_probe.c compares: 0, what the library runs
 * (3xTF32 with each k slice accumulated on the tensor cores apart and added
 * to FP32 registers, 128 x 128 only); 1 and 2, 3xTF32 without that, at
 * either width, with the descriptors' LBO and SBO swapped (1) or as
 * documented (2). TF32 ignores the variant but for the descriptors. */
cudaError_t gputile__gemm_wgmma_probe(const gputile__gemm_args *args, int bn, int variant,
                                      cudaStream_t stream);
/* C = beta * C for an m x n matrix (beta == 0 writes zeros, never reads C). */
cudaError_t gputile__matrix_scale(int64_t m, int64_t n, float beta, float *c, int64_t ldc,
                                  cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_H */
