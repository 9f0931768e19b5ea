/*
 * gemm_wgmma_tma.cu: TF32 GEMM on Hopper's tensor cores fed by the tensor
 * memory accelerator (sm_90a only): what GPUTILE_ALGO_WGMMA_128X256 runs in
 * GPUTILE_PRECISION_TF32.
 *
 * Algorithm. Each block computes a 128 x 256 tile of C over k slices of
 * BK = 32 (one 128-byte row of fp32 per operand row, the span of the
 * 128-byte swizzle). Warp-specialised, 384 threads:
 * - warpgroup 0, the producer: one thread issues two TMA loads per slice
 *   (A: 128 x 32, B^T: 256 x 32, 48 KB) into a ring of STAGES = 4 stages
 *   (192 KB) and the stage's "full" mbarrier counts their bytes. It waits
 *   on the stage's "empty" mbarrier before reusing it. The producer gives
 *   up registers (setmaxnreg 40).
 * - warpgroups 1 and 2, the consumers: each owns 64 rows of the tile and
 *   its 64 x 256 accumulator in registers (128 floats per thread, setmaxnreg
 *   232). Per slice: wait "full", wait until the previous slice's
 *   group is done and release its stage (each consumer warp arrives on its
 *   "empty" mbarrier, 8 arrivals), load A's fragment from the swizzled
 *   stage into registers (rounded, see Operands), issue 4 wgmma m64n256k8
 *   .tf32 (B through a descriptor) and commit. Up to 4 slices are loaded
 *   ahead; while one warpgroup loads A, the other's wgmmas run.
 * CGMA: a slice moves 12288 floats (48 KB) for 128 x 256 x 32 FMAs, 85
 * FMAs per float loaded; at the tensor cores' ~1024 TF32 FMAs per SM and
 * clock that is 48 bytes per SM and clock from L2.
 *
 * Operands. TF32 wgmma reads K-major operands only. A row-major (A^T
 * stored) and B stored transposed (B^T row-major, trans_b) are K-major
 * already and are read in place when TMA can address them (16-byte aligned
 * start and row stride). Otherwise a pre-pass (gputile__gemm_pack_kmajor)
 * writes the operand K-major into a workspace with 16-byte rows,
 * transposing where needed (row-major B, A^T); its time is part of the
 * call. The tensor cores read an fp32 bit pattern as tf32 by dropping
 * its low 13 mantissa bits, a truncation that measured 2.7x cuBLAS TF32's
 * error (6.9e-4 against 2.6e-4 at 4096^3 on the H100): so A goes to the
 * tensor cores from registers, rounded to nearest (cvt.rna) on the way
 * (wgmma's A may come from registers, B may not), and B is always written
 * rounded by the pre-pass, which then costs a copy even where B^T is
 * given K-major and aligned.
 *
 * Edges. TMA fills the parts of a box outside the matrix with zeros, so
 * partial tiles along m, n and k need no predication in the main loop;
 * the epilogue checks bounds.
 *
 * Split-K: blockIdx.z takes a contiguous range of k, a multiple of BK;
 * the raw partial tiles go to a workspace and
 * gputile__gemm_splitk_reduce() adds them in order, as in gemm_wgmma.cu.
 */
#include <cuda.h> /* CUtensorMap and its enums (types only: no libcuda link) */

#include "kernels.h"
#include "grid.cuh"
#include "tma_pipeline.cuh"
#include "wgmma_tf32.cuh"

namespace {

constexpr int BM = 128, BK = 32, STAGES = 4, THREADS = 384;

/* SPLIT: 3xTF32 on 128 x 128 tiles (the promotion's second accumulator
 * fits beside 64 x 128 only), else TF32 on 128 x 256. A stage holds A
 * (128 x 32) then B (BN x 32), and with SPLIT B's small parts (BN x 32):
 * 48 KB either way, each part 1024-byte aligned. */
template <bool SPLIT>
struct shape {
    static constexpr int BN = SPLIT ? 128 : 256;
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    static constexpr int STAGE_BYTES = A_BYTES + (SPLIT ? 2 : 1) * B_BYTES;
    /* the ring, plus 1 KB to align it to 1024 bytes (the swizzle's period) */
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_BYTES + 1024;
};

struct tma_params {
    /* K-major A (m x k), B^T (n x k) and, 3xTF32, B^T's small parts;
     * boxes 32 (k) x 128 (A) and 32 x BN */
    CUtensorMap a, b, b_small;
    int64_t m, n, k, tiles_n, k_per_split;
    float alpha, beta;
    float *c;
    int64_t ldc;
    float *work; /* split-K partials, gridDim.z > 1 only */
};

template <bool SPLIT>
static __global__ void __launch_bounds__(THREADS, 1)
gemm_tma_kernel(const __grid_constant__ tma_params w)
{
    using S = shape<SPLIT>;
    constexpr int BN = S::BN, NACC = BN / 2;
    extern __shared__ uint8_t smem_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    uint8_t *ring = smem_raw + ((1024 - gputile__smem_addr(smem_raw) % 1024) % 1024);

    const int tid = threadIdx.x, wg = tid / 128;
    int64_t tile_m, tile_n;
    gputile__grouped_tile(blockIdx.x, (w.m + BM - 1) / BM, w.tiles_n, &tile_m, &tile_n);
    const int64_t m0 = tile_m * BM, n0 = tile_n * BN;
    const int64_t k_begin = blockIdx.z * w.k_per_split;
    const int64_t k_end = min(w.k, k_begin + w.k_per_split);
    const int slices = k_end > k_begin ? (int)((k_end - k_begin + BK - 1) / BK) : 0;

    if (tid == 0) {
        gputile__tma_prefetch_map(&w.a);
        gputile__tma_prefetch_map(&w.b);
        if (SPLIT)
            gputile__tma_prefetch_map(&w.b_small);
        for (int s = 0; s < STAGES; ++s) {
            gputile__mbar_init(&full[s], 1);
            gputile__mbar_init(&empty[s], 8); /* one arrival per consumer warp */
        }
        gputile__mbar_fence_init();
    }
    __syncthreads();

    if (wg == 0) { /* producer */
        gputile__setmaxnreg_dec<40>();
        if (tid == 0) {
            for (int it = 0; it < slices; ++it) {
                const int s = it % STAGES;
                if (it >= STAGES) /* the consumers released its last use */
                    gputile__mbar_wait(&empty[s], (it / STAGES - 1) & 1);
                uint8_t *stage = ring + s * S::STAGE_BYTES;
                const int32_t kx = (int32_t)(k_begin + (int64_t)it * BK);
                gputile__mbar_arrive_expect_tx(&full[s], S::STAGE_BYTES);
                gputile__tma_load_2d(stage, &w.a, kx, (int32_t)m0, &full[s]);
                gputile__tma_load_2d(stage + S::A_BYTES, &w.b, kx, (int32_t)n0, &full[s]);
                if (SPLIT)
                    gputile__tma_load_2d(stage + S::A_BYTES + S::B_BYTES, &w.b_small, kx,
                                         (int32_t)n0, &full[s]);
            }
        }
        return;
    }

    /* consumers */
    gputile__setmaxnreg_inc<232>();
    const int cw = wg - 1; /* rows 64 cw .. 64 cw + 63 of the tile */
    float acc[NACC], total[SPLIT ? NACC : 1];
#pragma unroll
    for (int i = 0; i < NACC; ++i)
        acc[i] = 0.0f;
#pragma unroll
    for (int i = 0; i < (SPLIT ? NACC : 1); ++i)
        total[i] = 0.0f;
    /* This thread's A fragment in a stage (wgmma_tf32.cuh): rows r and r +
     * 8, k = 8 ks + t and + 4; byte (r, k) of the swizzled tile is r 128 +
     * 16 ((k / 4) ^ (r % 8)) + 4 (k % 4), and r % 8 = g. The 32 lanes of a
     * load hit 32 different banks. */
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    const int a_row = (cw * 64 + (tid % 128) / 32 * 16 + g) * 128 + 4 * t;
    /* wgmma reads A's registers asynchronously, until a wait_group that
     * covers it, and ptxas serialises every wgmma when any instruction
     * writes a wgmma's register operand while a group is pending: so each
     * slice first waits for the previous one's group (the other consumer
     * warpgroup's wgmmas keep the tensor cores busy meanwhile), releases
     * its stage, then loads and rounds (or splits) A. 3xTF32 adds the
     * previous slice's products to `total` there (the promotion). */
    for (int it = 0; it < slices; ++it) {
        const int s = it % STAGES;
        gputile__mbar_wait(&full[s], (it / STAGES) & 1);
        gputile__wgmma_wait<0>();
#pragma unroll
        for (int i = 0; i < NACC; ++i)
            gputile__pin(acc[i]);
        if (SPLIT && it > 0)
#pragma unroll
            for (int i = 0; i < NACC; ++i)
                total[i] += acc[i];
        if (it > 0 && tid % 32 == 0)
            gputile__mbar_arrive(&empty[(it - 1) % STAGES]);
        const uint8_t *stage = ring + s * S::STAGE_BYTES;
        const uint64_t db = gputile__wgmma_desc_sw128(stage + S::A_BYTES);
        const uint64_t db_small = gputile__wgmma_desc_sw128(stage + S::A_BYTES + S::B_BYTES);
        uint32_t a[BK / 8][4], a_small[SPLIT ? BK / 8 : 1][4];
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks)
#pragma unroll
            for (int h = 0; h < 4; ++h) { /* h: 8 rows down (bit 0), 4 k further (bit 1) */
                const int at = a_row + (h & 1) * 8 * 128 + 16 * ((2 * ks + (h >> 1)) ^ g);
                const float x = *reinterpret_cast<const float *>(stage + at);
                a[ks][h] = gputile__to_tf32_bits(x);
                if (SPLIT) { /* x - big is exact; infinities keep a zero remainder */
                    const float big = __uint_as_float(a[ks][h]);
                    a_small[ks][h] = isfinite(big) ? gputile__to_tf32_bits(x - big) : 0u;
                }
            }
        gputile__wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < BK / 8; ++ks) { /* 8 k = 32 bytes = 2 descriptor units */
            if (SPLIT) { /* the small products first; the slice's first overwrites */
                gputile__wgmma_tf32_rs<BN>(acc, a_small[ks], db + 2 * ks, ks > 0);
                gputile__wgmma_tf32_rs<BN>(acc, a[ks], db_small + 2 * ks, 1);
            }
            gputile__wgmma_tf32_rs<BN>(acc, a[ks], db + 2 * ks, 1);
        }
        gputile__wgmma_commit();
    }
    gputile__wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < NACC; ++i)
        gputile__pin(acc[i]);
    if (SPLIT && slices > 0)
#pragma unroll
        for (int i = 0; i < NACC; ++i)
            total[i] += acc[i];

    const bool partial = gridDim.z > 1;
    gputile__wgmma_store<BN>(SPLIT ? total : acc, partial ? w.work + blockIdx.z * w.m * w.n : w.c,
                             partial ? w.n : w.ldc, m0 + cw * 64, n0, w.m, w.n,
                             partial ? 1.0f : w.alpha, partial ? 0.0f : w.beta, tid % 128);
}

/* cuTensorMapEncodeTiled from the driver, found once through the runtime
 * (the library links no libcuda). */
typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static cudaError_t get_encoder(encode_fn *fn)
{
    static encode_fn cached; /* a race stores the same pointer twice */
    if (cached == NULL) {
        void *f = NULL;
        cudaDriverEntryPointQueryResult q;
        cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                           cudaEnableDefault, &q);
        if (err != cudaSuccess)
            return err;
        if (q != cudaDriverEntryPointSuccess || f == NULL)
            return cudaErrorNotSupported;
        cached = (encode_fn)f;
    }
    *fn = cached;
    return cudaSuccess;
}

/* The map of a K-major operand: rows x k floats, ld floats apart (16-byte
 * multiple), boxes of 32 (k) x box_rows, 128-byte swizzle, zeros outside. */
static cudaError_t encode(encode_fn fn, CUtensorMap *map, const float *base, int64_t rows,
                          int64_t k, int64_t ld, int box_rows)
{
    const cuuint64_t dims[2] = {(cuuint64_t)k, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)ld * sizeof(float)};
    const cuuint32_t box[2] = {BK, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    CUresult r = fn(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, elem,
                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorNotSupported;
}

/* TMA reads it in place: 16-byte aligned start and rows. */
static bool tma_ready(const float *p, int64_t ld)
{
    return (uintptr_t)p % 16 == 0 && ld % 4 == 0;
}

template <bool SPLIT>
static cudaError_t run(const gputile__gemm_args *p, cudaStream_t stream)
{
    using S = shape<SPLIT>;
    encode_fn fn;
    cudaError_t err = get_encoder(&fn);
    if (err != cudaSuccess)
        return err;
    const int splits = p->splits > 1 ? p->splits : 1;
    tma_params w;
    w.m = p->m, w.n = p->n, w.k = p->k;
    w.tiles_n = (p->n + S::BN - 1) / S::BN;
    w.k_per_split = ((p->k + splits - 1) / splits + BK - 1) / BK * BK;
    w.alpha = p->alpha, w.beta = p->beta;
    w.c = p->c, w.ldc = p->ldc;

    /* The K-major pre-pass of A where needed and of B always (rounded, or
     * split into big and small parts: see the header comment), and the
     * split-K partials, in one workspace: [A'][B'][B' small][partials]. */
    const bool pack_a = p->trans_a || !tma_ready(p->a, p->lda);
    const int64_t ldk = (p->k + 63) / 64 * 64; /* 256-byte rows */
    const size_t a_bytes = pack_a ? (size_t)p->m * ldk * sizeof(float) : 0;
    const size_t b_bytes = (size_t)p->n * ldk * sizeof(float);
    const size_t small_bytes = SPLIT ? b_bytes : 0;
    const size_t work_bytes = splits > 1 ? (size_t)splits * p->m * p->n * sizeof(float) : 0;
    uint8_t *space = NULL;
    err = cudaMallocAsync((void **)&space, a_bytes + b_bytes + small_bytes + work_bytes, stream);
    if (err != cudaSuccess)
        return err;
    const float *a = p->a, *b = (const float *)(space + a_bytes);
    const float *b_small = (const float *)(space + a_bytes + b_bytes);
    int64_t lda = p->lda;
    if (pack_a) {
        err = gputile__gemm_pack_kmajor(p->a, p->lda, p->trans_a, p->m, p->k, (float *)space, NULL,
                                        ldk, 0, stream);
        a = (const float *)space, lda = ldk;
    }
    if (err == cudaSuccess)
        err = gputile__gemm_pack_kmajor(p->b, p->ldb, !p->trans_b, p->n, p->k, (float *)b,
                                        SPLIT ? (float *)b_small : NULL, ldk, 1, stream);
    w.work = splits > 1 ? (float *)(space + a_bytes + b_bytes + small_bytes) : NULL;
    if (err == cudaSuccess)
        err = encode(fn, &w.a, a, p->m, p->k, lda, BM);
    if (err == cudaSuccess)
        err = encode(fn, &w.b, b, p->n, p->k, ldk, S::BN);
    w.b_small = w.b;
    if (err == cudaSuccess && SPLIT)
        err = encode(fn, &w.b_small, b_small, p->n, p->k, ldk, S::BN);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(gemm_tma_kernel<SPLIT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)S::SMEM_BYTES);
    if (err == cudaSuccess) {
        const int64_t tiles_m = (p->m + BM - 1) / BM;
        dim3 grid((unsigned)(tiles_m * w.tiles_n), 1, (unsigned)splits);
        gemm_tma_kernel<SPLIT><<<grid, THREADS, S::SMEM_BYTES, stream>>>(w);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess && splits > 1)
        err = gputile__gemm_splitk_reduce(p, splits, w.work, stream);
    cudaError_t free_err = cudaFreeAsync(space, stream);
    return err == cudaSuccess ? free_err : err;
}

} // namespace

extern "C" cudaError_t gputile__gemm_wgmma_tma(const gputile__gemm_args *p, cudaStream_t stream)
{
    return p->precision == GPUTILE__GEMM_TF32 ? run<false>(p, stream) : run<true>(p, stream);
}
