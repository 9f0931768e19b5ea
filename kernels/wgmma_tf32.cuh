/* SPDX-License-Identifier: MIT */
/*
 * wgmma_tf32.cuh: the Hopper (sm_90a) PTX that gemm_wgmma.cu issues, one
 * thin wrapper per instruction (internal; include only from files built
 * for sm_90a). PTX ISA references: "Asynchronous Warpgroup Level Matrix
 * Multiply-Accumulate" (wgmma.mma_async, .fence, .commit_group,
 * .wait_group), "Matrix Descriptor Format", and fence.proxy.async.
 *
 * Shared-memory matrix descriptor (64 bits): bits 0-13 start address >> 4,
 * 16-29 leading-dimension byte offset (LBO) >> 4, 32-45 stride-dimension
 * byte offset (SBO) >> 4, 49-51 base offset (0), 62-63 swizzle (0: none).
 * For a K-major operand without swizzle the canonical layout is
 * ((8,m),(T,2k)):((1T,SBO),(1,LBO)) in elements, T = 4 for tf32: core
 * matrices of 8 rows x 16 bytes stored as 128 contiguous bytes, LBO the
 * distance between core matrices adjacent along K, SBO along M (or N).
 *
 * Accumulator fragment of wgmma .m64nNk8 .f32 (PTX ISA figure for D): warp
 * w of the warpgroup holds rows 16 w .. 16 w + 15; in each 8-column block j
 * lane l holds d[4j + 0, 1] at row 16 w + l / 4, columns 8 j + 2 (l % 4) + {0, 1},
 * and d[4j + 2, 3] at the same columns, 8 rows further down.
 */
#ifndef GPUTILE_WGMMA_TF32_CUH
#define GPUTILE_WGMMA_TF32_CUH

#include <stdint.h>

#include "epilogue.cuh"
#include "tma_pipeline.cuh"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "wgmma_tf32.cuh needs sm_90a: compile with -gencode arch=compute_90a,code=sm_90a"
#endif

/* The descriptor of a K-major, unswizzled operand starting at smem. */
static __device__ __forceinline__ uint64_t gputile__wgmma_desc(const void *smem, uint32_t lbo,
                                                               uint32_t sbo)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFFu) >> 4) | (uint64_t)((lbo & 0x3FFFFu) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFFu) >> 4) << 32;
}

/* The descriptor of a K-major operand that the tensor memory accelerator
 * wrote with 128-byte swizzling: rows of 32 tf32 (128 bytes) one after the
 * other, 16-byte chunk c of row r stored at chunk c ^ (r % 8); SBO = 1024
 * bytes (8 rows), LBO unused (1 by convention), layout type 1 (128B
 * swizzle) in bits 62-63. The 8 rows of a swizzle pattern must start
 * 1024-byte aligned (base offset 0). Moving 8 k (32 bytes) along a row
 * adds 32 bytes to the start address: the hardware applies the XOR. */
static __device__ __forceinline__ uint64_t gputile__wgmma_desc_sw128(const void *smem)
{
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3FFFFu) >> 4) | (uint64_t)1 << 16 | (uint64_t)(1024 >> 4) << 32 |
           (uint64_t)1 << 62;
}

/* x rounded to TF32 (10 explicit mantissa bits), to nearest, ties away from zero. */
static __device__ __forceinline__ uint32_t gputile__to_tf32_bits(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}
static __device__ __forceinline__ float gputile__to_tf32(float x)
{
    return __uint_as_float(gputile__to_tf32_bits(x));
}

/* x rounded to TF32 to nearest, ties to even, in one instruction (sm_90
 * runs cvt.rn.tf32.f32 as F2FP.TF32, where cvt.rna takes three): TF32's
 * rounding everywhere, as the TMA rounds through a TFLOAT32 tensor map and
 * as cuBLAS TF32 rounds. */
static __device__ __forceinline__ float gputile__to_tf32_rn(float x)
{
    uint32_t r;
    asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}

/* Orders this thread's earlier register and shared-memory accesses before
 * the warpgroup's next wgmma.mma_async. */
static __device__ __forceinline__ void gputile__wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
static __device__ __forceinline__ void gputile__wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
/* Waits until at most N committed groups of this warpgroup are pending. */
template <int N>
static __device__ __forceinline__ void gputile__wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
/* Generic-proxy shared-memory writes of this thread become visible to the
 * async proxy (wgmma's operand reads) after a later barrier. */
static __device__ __forceinline__ void gputile__fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
/* Keeps the compiler from moving accesses of an accumulator register
 * across the wgmma instructions that read and write it asynchronously. */
static __device__ __forceinline__ void gputile__pin(float &x)
{
    asm volatile("" : "+f"(x)::"memory");
}
/* gputile__wgmma_wait<N>, then every one of the NACC accumulators pinned
 * after it: the reads that follow (promotion, epilogue) see the groups'
 * results. */
template <int N, int NACC>
static __device__ __forceinline__ void gputile__wgmma_wait_acc(float *acc)
{
    gputile__wgmma_wait<N>();
#pragma unroll
    for (int i = 0; i < NACC; ++i)
        gputile__pin(acc[i]);
}

#define GPUTILE__D8(i)                                                                          \
    "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
        "+f"(d[i + 6]), "+f"(d[i + 7])
#define GPUTILE__D32(i) GPUTILE__D8(i), GPUTILE__D8(i + 8), GPUTILE__D8(i + 16), GPUTILE__D8(i + 24)
/* The accumulator operands %0 .. %63 (n128) and %0 .. %127 (n256) of the
 * wgmma asm statements below, in the order GPUTILE__D32 binds them. */
#define GPUTILE__ACC64                                                                 \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "           \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
/* clang-format off */
#define GPUTILE__ACC128                                                                          \
    GPUTILE__ACC64 ", "                                                                          \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "           \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "           \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, "     \
    "%111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, "       \
    "%125, %126, %127"
/* clang-format on */

/* D (BN / 2 floats per thread) = A * B + (accumulate ? D : 0) for a
 * 64 x BN x 8 step; A (64 x 8) and B (BN x 8) K-major tf32 in shared
 * memory, through descriptors. */
template <int BN>
static __device__ __forceinline__ void gputile__wgmma_tf32(float *d, uint64_t da, uint64_t db,
                                                           int accumulate);

template <>
__device__ __forceinline__ void gputile__wgmma_tf32<128>(float *d, uint64_t da, uint64_t db,
                                                         int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" GPUTILE__ACC64
                 "}, %64, %65, p, 1, 1;\n}\n"
                 : GPUTILE__D32(0), GPUTILE__D32(32)
                 : "l"(da), "l"(db), "r"(accumulate));
}

template <>
__device__ __forceinline__ void gputile__wgmma_tf32<256>(float *d, uint64_t da, uint64_t db,
                                                         int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" GPUTILE__ACC128
                 "}, %128, %129, p, 1, 1;\n}\n"
                 : GPUTILE__D32(0), GPUTILE__D32(32), GPUTILE__D32(64), GPUTILE__D32(96)
                 : "l"(da), "l"(db), "r"(accumulate));
}

/* As gputile__wgmma_tf32<BN> with A (64 x 8) from registers: warp w of
 * the warpgroup holds rows 16 w .. 16 w + 15, lane l a[0] at (row l / 4,
 * k l % 4), a[1] 8 rows down, a[2] and a[3] the same 4 columns of k
 * further (PTX ISA, "Register fragment for matrix A", .tf32 m64nNk8). */
template <int BN>
static __device__ __forceinline__ void gputile__wgmma_tf32_rs(float *d, const uint32_t *a,
                                                              uint64_t db, int accumulate);

template <>
__device__ __forceinline__ void gputile__wgmma_tf32_rs<128>(float *d, const uint32_t *a,
                                                            uint64_t db, int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" GPUTILE__ACC64
                 "}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : GPUTILE__D32(0), GPUTILE__D32(32)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
}

template <>
__device__ __forceinline__ void gputile__wgmma_tf32_rs<256>(float *d, const uint32_t *a,
                                                            uint64_t db, int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" GPUTILE__ACC128
                 "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : GPUTILE__D32(0), GPUTILE__D32(32), GPUTILE__D32(64), GPUTILE__D32(96)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
}

/* The epilogue of a warpgroup's 64 x BN accumulator (the fragment of the
 * header comment; t = thread index in the warpgroup): C = alpha acc +
 * beta C for the rows from row0 and columns from col0 that lie below m and
 * n, 8-byte stores where C allows; beta == 0 never reads C. */
template <int BN>
static __device__ __forceinline__ void
gputile__wgmma_store(const float *acc, float *c, int64_t ldc, int64_t row0, int64_t col0, int64_t m,
                     int64_t n, float alpha, float beta, int t)
{
    const bool vec_c = (uintptr_t)c % 8 == 0 && ldc % 2 == 0;
    const int warp = t / 32, lane = t % 32;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int64_t row = row0 + warp * 16 + lane / 4 + 8 * h;
        if (row >= m)
            continue;
        float *dst_row = c + row * ldc;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            const int64_t col = col0 + 8 * j + 2 * (lane % 4);
            float v0 = alpha * acc[4 * j + 2 * h], v1 = alpha * acc[4 * j + 2 * h + 1];
            float *dst = dst_row + col;
            if (vec_c && col + 1 < n) {
                if (beta != 0.0f) {
                    const float2 old = *reinterpret_cast<const float2 *>(dst);
                    v0 += beta * old.x, v1 += beta * old.y;
                }
                *reinterpret_cast<float2 *>(dst) = make_float2(v0, v1);
            } else {
                if (col < n)
                    dst[0] = beta != 0.0f ? v0 + beta * dst[0] : v0;
                if (col + 1 < n)
                    dst[1] = beta != 0.0f ? v1 + beta * dst[1] : v1;
            }
        }
    }
}

/* Rows i0, i0 + 8, ..., RG of them, of the staged tile (LD floats a row)
 * to C's rows row0 + i0, ...: W floats a lane (4: 16-byte stores through
 * gputile__store_c4; 1: 4-byte stores), every row loaded before any is
 * stored. Permuted (gputile__perm_slot): C's row i, or its column i, is
 * the tile's row or column 32 (i % 4) + i / 4 (128 of them). */
static __device__ __forceinline__ int gputile__perm_slot(int i)
{
    return 32 * (i % 4) + i / 4;
}

/* D = alpha acc + beta D straight from warpgroup cw's fragment of the
 * 128-row tile at row m0, column n0 of D (m x n), without shared memory: D
 * is C, or C^T with SWAP (D's element (i, j) at c[j ldc + i]). Not swapped:
 * gputile__wgmma_store's 8-byte stores. SWAP: 4-byte stores, the 8 lanes
 * of a column (g) on 8 consecutive floats of C's row, so each store
 * instruction fills 4 whole sectors where C's rows are 32-byte aligned.
 * Permuted rows (gemm_wgmma_tma.cu): the fragment's row p holds the tile's
 * row gputile__perm_slot's inverse, 4 (p % 32) + p / 32. */
template <int BN, bool SWAP>
static __device__ __forceinline__ void
gputile__wgmma_store_direct(const float *acc, float *c, int64_t ldc, int64_t m0, int cw, int64_t n0,
                            int64_t m, int64_t n, float alpha, float beta, int t, bool perm)
{
    if (!SWAP && !perm) {
        gputile__wgmma_store<BN>(acc, c, ldc, m0 + cw * 64, n0, m, n, alpha, beta, t);
        return;
    }
    const int warp = t / 32, lane = t % 32;
    if (SWAP && !perm && beta == 0.0f && m0 + 128 <= m && n0 + BN <= n) {
        /* A whole tile of C^T that C does not blend into: no test per
         * element (the general loop below ran ~21 instructions an element,
         * 24% of a 512^3 batch's: H200, ncu). q: D's (row, 8 j + 2 (lane %
         * 4)) at q[0], the next column at q[ldc], each 8 rows down at +8. */
        float *q = c + (n0 + 2 * (lane % 4)) * ldc + m0 + cw * 64 + warp * 16 + lane / 4;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j, q += 8 * ldc) {
            q[0] = alpha * acc[4 * j];
            q[8] = alpha * acc[4 * j + 2];
            q[ldc] = alpha * acc[4 * j + 1];
            q[ldc + 8] = alpha * acc[4 * j + 3];
        }
        return;
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int p = cw * 64 + warp * 16 + lane / 4 + 8 * h;
        const int64_t row = m0 + (perm ? 4 * (p % 32) + p / 32 : p);
        if (row >= m)
            continue;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int64_t col = n0 + 8 * j + 2 * (lane % 4) + e;
                if (col >= n)
                    continue;
                float *dst = SWAP ? c + col * ldc + row : c + row * ldc + col;
                const float v = alpha * acc[4 * j + 2 * h + e];
                *dst = beta != 0.0f ? v + beta * *dst : v;
            }
    }
}

template <int W, int RG, int COLS, int LD, bool PERM_ROWS, bool PERM_COLS>
static __device__ __forceinline__ void
gputile__wgmma_store_rows(const float *tile, int i0, float *c, int64_t ldc, int64_t row0,
                          int64_t col0, int64_t rows, int64_t cols, float alpha, float beta,
                          int lane)
{
    constexpr int Q = COLS / (32 * W);
    const bool blend = beta != 0.0f;
    float v[RG][Q][W];
#pragma unroll
    for (int g = 0; g < RG; ++g)
#pragma unroll
        for (int q = 0; q < Q; ++q) {
            const int i = i0 + 8 * g, x = 32 * W * q + W * lane;
            const float *src = tile + (PERM_ROWS ? gputile__perm_slot(i) : i) * LD;
            if constexpr (PERM_COLS) {
                /* W == 4: columns x .. x + 3 sit at 32 w + x / 4, a
                 * lane apart across the warp (no bank conflicts) */
#pragma unroll
                for (int w = 0; w < W; ++w)
                    v[g][q][w] = src[gputile__perm_slot(x + w)];
            } else if constexpr (W == 4) {
                const float4 e = *reinterpret_cast<const float4 *>(src + x);
                v[g][q][0] = e.x, v[g][q][1] = e.y, v[g][q][2] = e.z, v[g][q][3] = e.w;
            } else {
                v[g][q][0] = src[x];
            }
        }
#pragma unroll
    for (int g = 0; g < RG; ++g) {
        if (row0 + i0 + 8 * g >= rows)
            break;
        float *dst = c + (row0 + i0 + 8 * g) * ldc + col0;
#pragma unroll
        for (int q = 0; q < Q; ++q) {
            const int x = 32 * W * q + W * lane;
            float e[W];
#pragma unroll
            for (int w = 0; w < W; ++w)
                e[w] = alpha * v[g][q][w];
            if constexpr (W == 4)
                gputile__store_c4(dst + x, e, true, cols - col0 - x, blend, beta);
            else if (col0 + x < cols)
                dst[x] = blend ? e[0] + beta * dst[x] : e[0];
        }
    }
}

/* The epilogue of the two consumer warpgroups' 128 x BN accumulators
 * through shared memory, for C whose rows the fragment's stores would hit
 * in part-sectors: rows not 32-byte aligned (8-byte stores straddle
 * sectors; an odd ldc takes 4-byte ones), or C^T (SWAP: each store writes
 * 4-byte runs down C's columns). On an H200, 15737 x 8353 x 54 TF32 (C^T
 * from A^T B, ldc 8353) wrote 57.5M L2 sectors for C's 16.4M and took 727
 * us, cuBLAS TF32 303. Each warpgroup (cw: rows 64 cw .. of the tile)
 * writes its fragment into `tile` (row-major in C's orientation, rows
 * padded by 8 floats, or 4 for C^T, so that a warp's stores hit 32 banks),
 * then each of the 8 warps writes whole rows of C: 16-byte stores where
 * C's rows are 16-byte aligned, else 4-byte ones, 32 lanes along a row (a
 * 128-byte run: at most 5 sectors). C = alpha acc + beta C for rows below
 * m and columns below n (C's, SWAP or not); beta == 0 never reads C. The
 * caller passes shared memory no wgmma or copy uses any more: both
 * warpgroups meet at named barrier 1 (256 threads) before and after. */
template <int BN, bool SWAP>
static __device__ __forceinline__ void
gputile__wgmma_store_staged(const float *acc, float *tile, float *c, int64_t ldc, int64_t m0,
                            int64_t n0, int64_t m, int64_t n, float alpha, float beta, int cw,
                            int t, bool perm_r = false)
{
    constexpr int BM = 128, ROWS = SWAP ? BN : BM, COLS = SWAP ? BM : BN;
    constexpr int LD = COLS + (SWAP ? 4 : 8);
    const int warp = t / 32, lane = t % 32;
    asm volatile("bar.sync 1, 256;" ::: "memory"); /* the other warpgroup's wgmmas are done */
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        /* the fragment's row, kept in the tile as it is: with permuted
         * rows (gemm_wgmma_tma.cu), accumulator row p holds the tile's row
         * 4 (p % 32) + p / 32, and the reading warps undo that (written
         * in place, rows 4 apart hit one bank: 8-way conflicts) */
        const int r = cw * 64 + warp * 16 + lane / 4 + 8 * h;
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            const int col = 8 * j + 2 * (lane % 4);
            const float v0 = acc[4 * j + 2 * h], v1 = acc[4 * j + 2 * h + 1];
            if (SWAP) {
                tile[col * LD + r] = v0;
                tile[(col + 1) * LD + r] = v1;
            } else {
                *reinterpret_cast<float2 *>(&tile[r * LD + col]) = make_float2(v0, v1);
            }
        }
    }
    asm volatile("bar.sync 1, 256;" ::: "memory");
    /* C's row of tile row i, and its first column */
    const int64_t row0 = SWAP ? n0 : m0, col0 = SWAP ? m0 : n0;
    const int64_t rows = SWAP ? n : m, cols = SWAP ? m : n;
    const bool vec = (uintptr_t)c % 16 == 0 && ldc % 4 == 0 && col0 % 4 == 0;
    const int w8 = cw * 4 + warp; /* 0..7 */
    /* Rows w8, w8 + 8, ...: RG of them loaded from the tile before any is
     * stored (the compiler cannot move a load of the tile past a store to
     * C, which might alias it, so one row at a time ran load, scale, store
     * per element at the shared-memory latency). */
    constexpr int RG = 4;
    static_assert(ROWS % (8 * RG) == 0 && COLS % 128 == 0, "whole row groups");
    for (int i0 = w8; i0 < ROWS && row0 + i0 < rows; i0 += 8 * RG) {
        /* the permutation a template argument (no test in the loads) */
        if (vec && perm_r)
            gputile__wgmma_store_rows<4, RG, COLS, LD, !SWAP, SWAP>(tile, i0, c, ldc, row0, col0,
                                                                    rows, cols, alpha, beta, lane);
        else if (vec)
            gputile__wgmma_store_rows<4, RG, COLS, LD, false, false>(tile, i0, c, ldc, row0, col0,
                                                                     rows, cols, alpha, beta, lane);
        else if (perm_r)
            gputile__wgmma_store_rows<1, RG, COLS, LD, !SWAP, SWAP>(tile, i0, c, ldc, row0, col0,
                                                                    rows, cols, alpha, beta, lane);
        else
            gputile__wgmma_store_rows<1, RG, COLS, LD, false, false>(tile, i0, c, ldc, row0, col0,
                                                                     rows, cols, alpha, beta, lane);
    }
}

/* The one thread that issues a block's TMA stores of C and waits for them
 * (thread t of consumer warpgroup cw): the bulk groups it commits are its
 * own, so the same thread waits for the last tile's before the block
 * exits. */
static __device__ __forceinline__ bool gputile__tma_store_issuer(int cw, int t)
{
    return cw == 0 && t == 0;
}

/* The epilogue of the two consumer warpgroups' 128 x BN accumulators
 * through the tensor memory accelerator, for beta = 0 where C's map could
 * be encoded (16-byte aligned C, rows and batch stride): each warpgroup
 * writes alpha acc into `tile` as C's (C^T's with SWAP) ROWS x COLS tile
 * at row y0, column x0 of problem z, laid out as COLS / 32 boxes of 32
 * columns x ROWS rows with the 128-byte swizzle (float (r, c) of box b at
 * r 32 + 4 ((c / 4) ^ (r % 8)) + c % 4: a warp's 8-byte stores, or with
 * SWAP its 4-byte ones down a column, hit every bank alike), then one
 * thread hands the boxes to the TMA, which writes them clipped at C's
 * edges while the consumers go on to the next tile: the stores leave the
 * consumers' path (the staged store's second half, rows of C through
 * registers, took as long as 8 slices of the main loop: 128^2 of C for
 * 128^2 x 256 FMAs). The thread waits for its last group's reads before
 * `tile` is written again, and the block's last before it exits
 * (gputile__bulk_wait). Both warpgroups meet at named barrier 1 (256
 * threads) before and after writing the tile. Permuted rows: accumulator
 * row p is the tile's row 4 (p % 32) + p / 32. */
template <int BN, bool SWAP>
static __device__ __forceinline__ void
gputile__wgmma_store_tma(const float *acc, float *tile, const void *map, int64_t m0, int64_t n0,
                         int32_t z, float alpha, int cw, int t, bool perm_r)
{
    constexpr int BM = 128, ROWS = SWAP ? BN : BM, COLS = SWAP ? BM : BN;
    static_assert(ROWS <= 256 && COLS % 32 == 0, "TMA boxes of 32 columns x ROWS rows");
    const int warp = t / 32, lane = t % 32;
    const bool issuer = gputile__tma_store_issuer(cw, t);
    auto at = [](int r, int c) {
        return c / 32 * ROWS * 32 + r * 32 + 4 * ((c % 32 / 4) ^ (r % 8)) + c % 4;
    };
    if (issuer)
        gputile__bulk_wait_read(); /* the last tile's boxes have left `tile` */
    asm volatile("bar.sync 1, 256;" ::: "memory");
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int p = cw * 64 + warp * 16 + lane / 4 + 8 * h;
        const int r = perm_r ? 4 * (p % 32) + p / 32 : p; /* D's row in the tile */
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
            const int col = 8 * j + 2 * (lane % 4);
            const float v0 = alpha * acc[4 * j + 2 * h], v1 = alpha * acc[4 * j + 2 * h + 1];
            if (SWAP) {
                tile[at(col, r)] = v0;
                tile[at(col + 1, r)] = v1;
            } else {
                *reinterpret_cast<float2 *>(&tile[at(r, col)]) = make_float2(v0, v1);
            }
        }
    }
    gputile__fence_proxy_async(); /* the tile, for the TMA's reads */
    asm volatile("bar.sync 1, 256;" ::: "memory");
    if (issuer) {
        const int32_t x0 = (int32_t)(SWAP ? m0 : n0), y0 = (int32_t)(SWAP ? n0 : m0);
#pragma unroll
        for (int b = 0; b < COLS / 32; ++b)
            gputile__tma_store_3d(map, tile + b * ROWS * 32, x0 + 32 * b, y0, z);
        gputile__bulk_commit();
    }
}

#undef GPUTILE__D32
#undef GPUTILE__ACC64
#undef GPUTILE__ACC128
#undef GPUTILE__D8

#endif /* GPUTILE_WGMMA_TF32_CUH */
