/* SPDX-License-Identifier: MIT */
/*
 * gemm_thin.cu: products one to four columns wide, for the ragged edges of
 * C that whole register-blocked tiles would cover at a loss.
 *
 * Why. A 4097 x 4097 C takes 33 x 33 tiles of 128 x 128, and the last row
 * and column of tiles do a full tile's FFMAs for one useful row or column:
 * 6% of the work wasted, and the extra tiles add a ninth, quarter-full wave
 * on 132 SMs. The register-blocked kernels therefore cover the largest
 * whole-tile part of C, and the one to four leftover columns (or rows) go
 * here, where they cost what reading the large operand once costs.
 *
 * What. out(r, w) = alpha * sum over q of X(r, q) Y(q, w) + beta * out(r, w)
 * for r < rows, w < W <= 4, q < k, every operand given by two strides, so
 * the leftover columns of C (X = op(A), Y = op(B)'s last columns) and its
 * leftover rows (X = op(B)^T, Y = op(A)'s last rows ^T, out = C^T) are one
 * kernel, in every transpose. X is the large operand, read once:
 * - rows of X contiguous (X(r, q + 1) next to X(r, q)): one to eight
 *   warps per row (more for fewer rows), lanes along q, a butterfly of
 *   shuffles and then shared memory to finish;
 * - otherwise: lanes along r (contiguous when X(r + 1, q) is next to
 *   X(r, q)), 16 warps of a block over interleaved q, shared memory to
 *   finish.
 * Both add in a fixed order: the same inputs give the same bits.
 */
#include "grid.cuh"
#include "kernels.h"

namespace {

constexpr int UNROLL = 8;  /* loads in flight per lane: the kernels are bound by memory latency */
constexpr int GROUPS = 16; /* warps of thin_cols_kernel, each adding every GROUPS-th q */

struct thin_args {
    int64_t rows, k;
    const float *x;
    int64_t xr, xq; /* X(r, q) = x[r * xr + q * xq] */
    const float *y;
    int64_t yq, yw; /* Y(q, w) = y[q * yq + w * yw] */
    float *c;
    int64_t cr, cw; /* out(r, w) = c[r * cr + w * cw] */
    float alpha, beta;
};

template <int W>
static __device__ __forceinline__ void finish(const thin_args &t, int64_t r, const float *sum)
{
#pragma unroll
    for (int w = 0; w < W; ++w) {
        float *o = t.c + r * t.cr + w * t.cw;
        *o = t.beta == 0.0f ? t.alpha * sum[w] : t.alpha * sum[w] + t.beta * *o;
    }
}

/* sum[w] += X(r, q) Y(q, w) over the UNROLL values q = q0 + u * stride
 * below k, where x points at X(r, 0) and consecutive q are xq apart: all
 * UNROLL loads of X issued before the first multiply-add. */
template <int W>
static __device__ __forceinline__ void add_run(const thin_args &t, const float *x, int64_t xq,
                                               int64_t q0, int stride, float *sum)
{
    float xv[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const int64_t q = q0 + u * stride;
        xv[u] = q < t.k ? __ldg(x + q * xq) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const int64_t q = q0 + u * stride;
        if (q < t.k)
#pragma unroll
            for (int w = 0; w < W; ++w)
                sum[w] = fmaf(xv[u], __ldg(t.y + q * t.yq + w * t.yw), sum[w]);
    }
}

/* Rows of X contiguous: 8 warps per block, `wpr` (1, 2, 4 or 8) of them
 * per row, warp j of a row adding the runs of 32 UNROLL q that start at
 * 32 UNROLL (j + wpr i); the row's warps' sums are added in order of j. */
template <int W>
static __global__ void __launch_bounds__(256) thin_rows_kernel(thin_args t, int wpr)
{
    __shared__ float part[8][W];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, j = warp % wpr;
    const int64_t r = (int64_t)blockIdx.x * (8 / wpr) + warp / wpr;
    float sum[W] = {};
    if (r < t.rows) {
        const float *x = t.x + r * t.xr;
        for (int64_t q0 = (int64_t)j * 32 * UNROLL; q0 < t.k; q0 += (int64_t)wpr * 32 * UNROLL)
            add_run<W>(t, x, 1, q0 + lane, 32, sum);
    }
#pragma unroll
    for (int w = 0; w < W; ++w)
#pragma unroll
        for (int s = 16; s > 0; s /= 2)
            sum[w] += __shfl_xor_sync(0xffffffffu, sum[w], s);
    if (lane == 0)
#pragma unroll
        for (int w = 0; w < W; ++w)
            part[warp][w] = sum[w];
    __syncthreads();
    if (lane == 0 && j == 0 && r < t.rows) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
            float s = 0.0f;
            for (int h = 0; h < wpr; ++h)
                s += part[warp + h][w];
            sum[w] = s;
        }
        finish<W>(t, r, sum);
    }
}

/* Otherwise: 32 rows per block, lane = row, warp g adds q = g + GROUPS i. */
template <int W>
static __global__ void __launch_bounds__(32 * GROUPS) thin_cols_kernel(thin_args t)
{
    __shared__ float part[GROUPS][32][W]; /* [warp][lane][w] */
    const int lane = threadIdx.x % 32, g = threadIdx.x / 32;
    const int64_t r = (int64_t)blockIdx.x * 32 + lane;
    float sum[W] = {};
    if (r < t.rows) {
        const float *x = t.x + r * t.xr;
        for (int64_t q0 = g; q0 < t.k; q0 += GROUPS * UNROLL)
            add_run<W>(t, x, t.xq, q0, GROUPS, sum);
    }
#pragma unroll
    for (int w = 0; w < W; ++w)
        part[g][lane][w] = sum[w];
    __syncthreads();
    if (g == 0 && r < t.rows) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
            float s = 0.0f;
            for (int h = 0; h < GROUPS; ++h)
                s += part[h][lane][w];
            sum[w] = s;
        }
        finish<W>(t, r, sum);
    }
}

template <int W>
static cudaError_t launch(const thin_args &t, cudaStream_t stream)
{
    if (t.xq == 1) {
        /* few rows and a long k: up to 8 warps share a row, so that enough
         * loads are in flight (47 rows of k = 7760 one warp each took 30
         * rounds of memory latency one after another) */
        int wpr = t.rows >= 2048 ? 1 : t.rows >= 512 ? 2 : t.rows >= 128 ? 4 : 8;
        while (wpr > 1 && t.k < (int64_t)wpr * 32 * UNROLL)
            wpr /= 2;
        const int64_t per_block = 8 / wpr;
        return gputile__launch(thin_rows_kernel<W>,
                               (unsigned)((t.rows + per_block - 1) / per_block), 256, 0, stream, t,
                               wpr);
    }
    return gputile__launch(thin_cols_kernel<W>, (unsigned)((t.rows + 31) / 32), 32 * GROUPS, 0,
                           stream, t);
}

} // namespace

extern "C" cudaError_t gputile__gemm_thin_edges(const gputile__gemm_args *p, int64_t m_main,
                                                int64_t n_main, cudaStream_t stream)
{
    /* op(A)(i, q) = a[i * ai + q * aq]; op(B)(q, j) = b[q * bq + j * bj] */
    const int64_t ai = p->trans_a ? 1 : p->lda, aq = p->trans_a ? p->lda : 1;
    const int64_t bq = p->trans_b ? 1 : p->ldb, bj = p->trans_b ? p->ldb : 1;
    cudaError_t err = cudaSuccess;
    for (int side = 0; side < 2 && err == cudaSuccess; ++side) {
        thin_args t;
        int w;
        if (side == 0) { /* columns n_main..n of every row: X = op(A), Y = op(B)'s last columns */
            w = (int)(p->n - n_main);
            t = thin_args{p->m,          p->k,   p->a, ai,       aq,     p->b + n_main * bj, bq, bj,
                          p->c + n_main, p->ldc, 1,    p->alpha, p->beta};
        } else { /* rows m_main..m of columns 0..n_main: out = C^T, X = op(B)^T, Y = op(A)^T */
            w = (int)(p->m - m_main);
            t = thin_args{n_main, p->k,   p->b,
                          bj,     bq,     p->a + m_main * ai,
                          aq,     ai,     p->c + m_main * p->ldc,
                          1,      p->ldc, p->alpha,
                          p->beta};
        }
        if (w <= 0 || t.rows <= 0)
            continue;
        switch (w) {
        case 1:
            err = launch<1>(t, stream);
            break;
        case 2:
            err = launch<2>(t, stream);
            break;
        case 3:
            err = launch<3>(t, stream);
            break;
        case 4:
            err = launch<4>(t, stream);
            break;
        default:
            err = cudaErrorInvalidValue;
            break;
        }
    }
    return err;
}
