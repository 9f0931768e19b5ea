/* SPDX-License-Identifier: MIT */
/*
 * wgmma_probe.c: a layout map of the wgmma kernels, for debugging from one
 * GPU run (not a test; `tests/wgmma_probe` prints, exits 0 when the
 * documented layout is right, 1 when not, 77 without a compute capability
 * 9.0 device).
 *
 * For each tile width (128, 256), transpose pair and descriptor variant
 * (LBO/SBO as documented, and swapped) it runs one 128 x BN x 32 product
 * in 3xTF32 twice on integer codes that 3xTF32 carries exactly:
 *   rows:    op(A)[i][k] = (k == i % 32), op(B)[k][j] = 256 k + j % 256,
 *            so C[i][j] must be 256 (i % 32) + j % 256;
 *   columns: op(A)[i][k] = 32 i + k, op(B)[k][j] = (k == j % 32),
 *            so C[i][j] must be 32 i + j % 32.
 * A wrong C decodes to the (k, j) or (i, k) it came from: the map of the
 * first wrong rows shows the permutation (e.g. k groups swapped: the
 * descriptor's LBO; 8-row groups: SBO; every 8th row: the fragment).
 *
 * Then, when the layout is right, an accuracy comparison on uniform
 * inputs in [-1, 1) at 4096^3 and 1024 x 1024 x 16384: 3xTF32 as shipped
 * (each k slice accumulated apart on the tensor cores and added in FP32
 * registers), 3xTF32 without that (variant 2), and cuBLAS pedantic FP32,
 * each as the
 * largest |C - C64| / sum |a b| and the relative Frobenius error against
 * float64: whether the tensor cores' accumulation limits 3xTF32.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "support/ref64.h"
#include "support/wgmma_probe_kernels.h"

#define M 128
#define K 32

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "wgmma_probe: %s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

/* Runs C = op(A) op(B) for op(A) (M x K) and op(B) (K x bn) given
 * row-major on the host; returns the number of wrong elements. */
static long run(int bn, int ta, int tb, int swap, const float *opa, const float *opb,
                const float *want, float *got, float *dev)
{
    float *a = dev, *b = dev + M * K, *c = dev + M * K + K * 256;
    float *sa = malloc(sizeof(float) * M * K), *sb = malloc(sizeof(float) * K * bn);
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k)
            sa[ta ? k * M + i : i * K + k] = opa[i * K + k];
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < bn; ++j)
            sb[tb ? j * K + k : k * bn + j] = opb[k * bn + j];
    check(cudaMemcpy(a, sa, sizeof(float) * M * K, cudaMemcpyHostToDevice), "copy A");
    check(cudaMemcpy(b, sb, sizeof(float) * K * bn, cudaMemcpyHostToDevice), "copy B");
    check(cudaMemset(c, 0xff, sizeof(float) * M * bn), "poison C");
    gputile__gemm_args p;
    memset(&p, 0, sizeof p);
    p.m = M, p.n = bn, p.k = K, p.trans_a = ta, p.trans_b = tb, p.alpha = 1, p.beta = 0;
    p.a = a, p.lda = ta ? M : K, p.b = b, p.ldb = tb ? K : bn, p.c = c, p.ldc = bn;
    check(wgmma_probe_run(&p, bn, swap ? 1 : 2, NULL), "launch");
    check(cudaDeviceSynchronize(), "run");
    check(cudaMemcpy(got, c, sizeof(float) * M * bn, cudaMemcpyDeviceToHost), "copy C");
    long wrong = 0;
    for (int i = 0; i < M * bn; ++i)
        wrong += got[i] != want[i];
    free(sa);
    free(sb);
    return wrong;
}

/* The first wrong rows, 16 columns each, decoded as (a, b) = (code / div, code % div). */
static void map(const char *title, int bn, const float *got, const float *want, int div)
{
    printf("    %s: C[i][j] decoded as (%s), first wrong rows, columns 0..15:\n", title,
           div == 256 ? "k, j: op(B)'s row and column" : "i, k: op(A)'s row and column");
    int shown = 0;
    for (int i = 0; i < M && shown < 8; ++i) {
        int bad = 0;
        for (int j = 0; j < bn; ++j)
            bad |= got[i * bn + j] != want[i * bn + j];
        if (!bad)
            continue;
        ++shown;
        printf("    row %3d:", i);
        for (int j = 0; j < 16; ++j) {
            float g = got[i * bn + j];
            if (g != g)
                printf("   NaN  ");
            else if (g == want[i * bn + j])
                printf("   ok   ");
            else
                printf(" %3d,%-3d", (int)g / div, (int)g % div);
        }
        printf("\n");
    }
}

/* Max relative-to-scale and relative Frobenius errors of device C (m x n). */
static void errors(const float *dc, const double *ref, const double *scale, size_t mn,
                   double *max_rel, double *frob)
{
    float *c = malloc(mn * sizeof(float));
    check(cudaMemcpy(c, dc, mn * sizeof(float), cudaMemcpyDeviceToHost), "copy C");
    double num = 0, den = 0;
    *max_rel = 0;
    for (size_t i = 0; i < mn; ++i) {
        double d = c[i] - ref[i], r = scale[i] > 0 ? fabs(d) / scale[i] : fabs(d);
        if (!(r <= *max_rel))
            *max_rel = r;
        num += d * d;
        den += ref[i] * ref[i];
    }
    *frob = sqrt(num / den);
    free(c);
}

static void accuracy(int64_t m, int64_t n, int64_t k)
{
    float *a, *b, *c;
    double *dref, *dscale;
    size_t mn = (size_t)(m * n);
    check(cudaMalloc((void **)&a, sizeof(float) * m * k), "cudaMalloc");
    check(cudaMalloc((void **)&b, sizeof(float) * k * n), "cudaMalloc");
    check(cudaMalloc((void **)&c, sizeof(float) * mn), "cudaMalloc");
    check(cudaMalloc((void **)&dref, sizeof(double) * mn), "cudaMalloc");
    check(cudaMalloc((void **)&dscale, sizeof(double) * mn), "cudaMalloc");
    float *h = malloc(sizeof(float) * (m * k > k * n ? m * k : k * n));
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int t = 0; t < 2; ++t) {
        int64_t cnt = t == 0 ? m * k : k * n;
        for (int64_t i = 0; i < cnt; ++i) {
            x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
            h[i] = (float)((double)((x * 0x2545F4914F6CDD1Dull) >> 40) / 8388608.0 - 1.0);
        }
        check(cudaMemcpy(t == 0 ? a : b, h, sizeof(float) * cnt, cudaMemcpyHostToDevice), "copy");
    }
    free(h);
    check(gputest_gemm_ref64(0, 0, m, n, k, 1, a, k, b, n, 0, NULL, n, dref, dscale),
          "float64 reference");
    double *ref = malloc(sizeof(double) * mn), *scale = malloc(sizeof(double) * mn);
    check(cudaMemcpy(ref, dref, sizeof(double) * mn, cudaMemcpyDeviceToHost), "copy");
    check(cudaMemcpy(scale, dscale, sizeof(double) * mn, cudaMemcpyDeviceToHost), "copy");
    gputile__gemm_args p;
    memset(&p, 0, sizeof p);
    p.m = m, p.n = n, p.k = k, p.alpha = 1, p.beta = 0, p.a = a, p.lda = k, p.b = b, p.ldb = n,
    p.c = c, p.ldc = n;
    const char *names[3] = {"3xTF32 promoted (as the TMA kernel)", "3xTF32, not promoted",
                            "cuBLAS pedantic FP32"};
    for (int v = 0; v < 3; ++v) {
        check(cudaMemset(c, 0xff, sizeof(float) * mn), "poison");
        if (v < 2) {
            check(wgmma_probe_run(&p, 128, v == 0 ? 0 : 2, NULL), "launch");
        } else {
            cublasHandle_t hd;
            const float one = 1, zero = 0;
            if (cublasCreate(&hd) != CUBLAS_STATUS_SUCCESS ||
                cublasSetMathMode(hd, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS ||
                cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n,
                            a, (int)k, &zero, c, (int)n) != CUBLAS_STATUS_SUCCESS) {
                fprintf(stderr, "wgmma_probe: cuBLAS failed\n");
                exit(2);
            }
            cublasDestroy(hd);
        }
        check(cudaDeviceSynchronize(), "run");
        double max_rel, frob;
        errors(c, ref, scale, mn, &max_rel, &frob);
        printf("accuracy %lldx%lldx%lld uniform: %-28s max |C - C64| / sum|ab| %.3e, relative "
               "Frobenius %.3e\n",
               (long long)m, (long long)n, (long long)k, names[v], max_rel, frob);
    }
    free(ref);
    free(scale);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(dref), cudaFree(dscale);
}

int main(void)
{
    int dev, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess ||
        major != 9 || minor != 0) {
        printf("wgmma_probe: needs a compute capability 9.0 device\n");
        return 77;
    }
    float *d;
    check(cudaMalloc((void **)&d, sizeof(float) * (M * K + K * 256 + M * 256)), "cudaMalloc");
    float *opa = malloc(sizeof(float) * M * K), *opb = malloc(sizeof(float) * K * 256);
    float *want = malloc(sizeof(float) * M * 256), *got = malloc(sizeof(float) * M * 256);
    int documented_ok = 1, mapped = 0;
    for (int bn = 128; bn <= 256; bn += 128)
        for (int t = 0; t < 4; ++t)
            for (int swap = 0; swap < 2; ++swap) {
                const int ta = t >> 1, tb = t & 1;
                long wrong[2];
                for (int test = 0; test < 2; ++test) {
                    for (int i = 0; i < M; ++i)
                        for (int k = 0; k < K; ++k)
                            opa[i * K + k] = test == 0 ? (float)(k == i % 32) : (float)(32 * i + k);
                    for (int k = 0; k < K; ++k)
                        for (int j = 0; j < bn; ++j)
                            opb[k * bn + j] =
                                test == 0 ? (float)(256 * k + j % 256) : (float)(k == j % 32);
                    for (int i = 0; i < M; ++i)
                        for (int j = 0; j < bn; ++j)
                            want[i * bn + j] = test == 0 ? (float)(256 * (i % 32) + j % 256)
                                                         : (float)(32 * i + j % 32);
                    wrong[test] = run(bn, ta, tb, swap, opa, opb, want, got, d);
                    if (wrong[test] > 0 && swap == 0 && mapped < 4) {
                        if (test == 0 || mapped == 0)
                            printf("  bn=%d op(A)=%c op(B)=%c, LBO/SBO as documented:\n", bn,
                                   ta ? 'T' : 'N', tb ? 'T' : 'N');
                        map(test == 0 ? "rows test" : "columns test", bn, got, want,
                            test == 0 ? 256 : 32);
                        ++mapped;
                    }
                }
                printf("probe bn=%d op(A)=%c op(B)=%c descriptors %s: rows test %ld wrong, columns "
                       "test %ld wrong (of %d)\n",
                       bn, ta ? 'T' : 'N', tb ? 'T' : 'N',
                       swap ? "LBO/SBO swapped " : "as documented   ", wrong[0], wrong[1], M * bn);
                if (swap == 0 && (wrong[0] || wrong[1]))
                    documented_ok = 0;
            }
    printf("wgmma_probe: the documented layout is %s\n",
           documented_ok ? "right" : "WRONG (see the maps)");
    if (documented_ok) {
        accuracy(4096, 4096, 4096);
        accuracy(1024, 1024, 16384);
    }
    cudaFree(d);
    free(opa);
    free(opb);
    free(want);
    free(got);
    return documented_ok ? 0 : 1;
}
