/* SPDX-License-Identifier: MIT */
/*
 * gemm_wgmma.cuh: FP32 GEMM on Hopper's tensor cores (wgmma, sm_90a only):
 * 3xTF32 (FP32-accurate) and plain TF32, staged through registers: the
 * kernel template and its launch. The first tensor-core kernels; since the
 * TMA-fed ones (gemm_wgmma_tma.cu, 2-4x faster) the library instantiates
 * only TF32 on 128 x 128 tiles (gemm_wgmma.cu: GPUTILE_ALGO_WGMMA_128X128
 * in TF32, when named); tests/support/wgmma_probe_kernels.cu instantiates
 * the layout probe's variants (3xTF32, 128 x 256, swapped descriptors).
 *
 * Algorithm. Each block computes a 128 x BN tile of C (BN = 128 or 256)
 * over k slices of BK = 32. Two warpgroups (256 threads) each own 64 rows
 * of the tile and accumulate 64 x BN in registers (BN / 2 floats per
 * thread) with wgmma.mma_async m64nBNk8 .f32.tf32.tf32, both operands read
 * from shared memory through matrix descriptors. 3xTF32 splits every input
 * x into big = tf32(x) and small = tf32(x - big) while staging and issues,
 * per 8-wide k step, small(A) big(B), big(A) small(B), then big(A) big(B)
 * (the small products first, into the same FP32 accumulator): the dropped
 * small * small term and the rounding of small leave about 2^-22 of each
 * product, below FP32's own accumulation error. TF32 stages big only and
 * issues one wgmma per step.
 *
 * Staging goes through registers because it must split (and round) every
 * value and because TF32 wgmma reads only K-major operands: row-major A
 * and B^T are K-major already, A^T and row-major B (MN-major) are
 * transposed on the way. Loads are 16 bytes where the operand's rows are
 * 16-byte aligned (runtime flag, uniform per launch), predicated scalars
 * otherwise and at the edges, zero outside the matrix (or the split of k).
 *
 * Shared memory. Per stage and part (big, small): A as 128 x 32 and B as
 * BN x 32, K-major without swizzle: core matrices of 8 rows x 4 tf32 (128
 * contiguous bytes), ordered [row / 8][k / 4], so LBO = 128 bytes (next
 * core matrix along k) and SBO = 1024 bytes (next 8 rows). Element (r, k)
 * sits at float (r / 8) 256 + (k / 4) 32 + (r % 8) 4 + k % 4. A stage is
 * 64 KB (3xTF32, BN 128) or 96 KB (BN 256), TF32 half that; 3 stages
 * where they fit in 227 KB, else 2.
 *
 * Bank conflicts of the staging stores (none, by construction):
 * - K-major source: slot j of a tile (one float4: 4 k of one row) is row
 *   j % 8 + 8 (j / 64), k 4 ((j / 8) % 8), which is float4 number j of
 *   the layout above: a warp stores 512 contiguous bytes, one 16-byte
 *   vector per lane. Its global loads read 8 rows x 64 contiguous bytes.
 * - MN-major source: lane l of a warp loads 4 consecutive rows (m or n)
 *   4 (l % 8) .. + 3 at k = l / 8 (+ the warp's block offsets): 4 rows of
 *   k x 128 contiguous bytes. The 4 scalar stores of a lane are rotated by
 *   (l % 8) / 2, so in each store instruction the 32 lanes cover 8 values
 *   of row % 8 times 4 of k % 4: bank = 4 (row % 8) + k % 4, all distinct.
 *
 * Pipeline (one barrier per k slice): this slice's wgmmas are issued
 * (asynchronous: 4 k steps x 3 products x 2 warpgroups keep the tensor
 * cores busy ~3000 cycles at BN = 256, ~1000 in TF32 at BN = 128), then
 * the next slice is loaded from global memory into registers, split,
 * stored into the next stage and fenced for the async proxy
 * (fence.proxy.async) while they run; then wgmma.wait_group and
 * __syncthreads. With 3 stages (all but 3xTF32 at BN = 256, which needs
 * 96 KB a stage) the wait leaves this slice's group running
 * (wait_group 1), so the tensor cores never drain at the barrier; with 2
 * it is wait_group 0. Not yet: TMA, mbarriers, warp-specialised producers
 * and prefetch deeper than one slice.
 *
 * Split-K: blockIdx.z takes a contiguous range of k (a multiple of BK);
 * with more than one split the raw partial tiles go to a workspace and
 * gputile__gemm_splitk_reduce() (gemm_regblock.cu) adds them in order.
 *
 * Epilogue: C = alpha acc + beta C straight from the accumulator fragment
 * (8-byte stores where aligned), bounds-checked; beta == 0 never reads C.
 *
 * Resources: 256 threads, 1 block per SM; registers: `make ptxas-report`.
 * Built for sm_90a only (Makefile.am); gputile__gemm_wgmma_supported()
 * tells lib/ whether this device can run it.
 */
#ifndef GPUTILE_GEMM_WGMMA_CUH
#define GPUTILE_GEMM_WGMMA_CUH

#include "kernels.h"
#include "grid.cuh"
#include "wgmma_tf32.cuh"

namespace {

constexpr int BM = 128, BK = 32, THREADS = 256;
constexpr uint32_t LBO = 128, SBO = 1024; /* bytes; see the header comment */

/* Floats of one stage: [A big][B big][A small][B small] (TF32: no smalls). */
template <int BN, bool SPLIT>
struct stage_size {
    static constexpr int a = BM * BK, b = BN * BK, part = a + b, total = SPLIT ? 2 * part : part;
};

/* Shared memory one block may use on the devices sm_90a code runs on
 * (compute capability 9.0 only: 227 KB opt-in, Programming Guide table
 * "Technical Specifications per Compute Capability"). A compile-time fact
 * of the target, not of the device: lib/ runs these kernels on 9.0 only. */
constexpr int SM90_SMEM_OPTIN = 227 * 1024;

/* Stages in shared memory: 3 where they fit (and no PROMOTE), else 2. */
template <int BN, bool SPLIT, bool PROMOTE>
struct stages {
    static constexpr int n =
        PROMOTE || stage_size<BN, SPLIT>::total * 3 * 4 > SM90_SMEM_OPTIN ? 2 : 3;
};

/* One operand's OUTER x BK slice on its way from global memory to shared:
 * VECS float4 slots per thread, positions as in the header comment, moved
 * in PARTS rounds of VECS / PARTS slots (fewer registers held at once).
 * K_CONTIG: the operand's rows run along k (row-major A, or B^T). */
template <int OUTER, bool K_CONTIG, int PARTS>
struct stager {
    static constexpr int VECS = OUTER * BK / 4 / THREADS, PER = VECS / PARTS;
    static_assert(VECS * 4 * THREADS == OUTER * BK, "slots must tile the slice");
    static_assert(PER * PARTS == VECS, "parts must split the slots evenly");
    /* distance between a thread's slots: along outer (K_CONTIG) or k */
    static constexpr int SLOT_O = K_CONTIG ? THREADS / 64 * 8 : 0;
    static constexpr int SLOT_Q = K_CONTIG ? 0 : 1024 / OUTER;

    float4 r[PER];
    const float *ptr;   /* slot 0's first element in the next slice */
    int64_t slot_step;  /* elements from one slot to the next */
    int64_t step;       /* elements from one slice to the next */
    int64_t outer_left; /* rows (along outer) of the matrix from slot 0's first one */
    int o, q;           /* slot 0's position in the slice */
    int rot;            /* MN-major: rotation of the scalar stores */

    __device__ __forceinline__ stager(const float *p, int64_t ld, int64_t o0, int64_t n_outer,
                                      int64_t k0, int tid)
    {
        const int lane = tid % 32;
        if (K_CONTIG) {
            o = tid % 8 + 8 * (tid / 64);
            q = 4 * (tid / 8 % 8);
        } else {
            const int w = tid / 32;
            o = 4 * (lane % 8) + 32 * (w % (OUTER / 32));
            q = lane / 8 + 4 * (w / (OUTER / 32));
        }
        rot = lane % 8 / 2;
        const int64_t go = o0 + o, gq = k0 + q;
        ptr = K_CONTIG ? p + go * ld + gq : p + gq * ld + go;
        slot_step = K_CONTIG ? (int64_t)SLOT_O * ld : (int64_t)SLOT_Q * ld;
        step = K_CONTIG ? BK : BK * ld;
        outer_left = n_outer - go;
    }

    /* Part `part` of the next slice into registers; k_left >= 1 columns of
     * k remain from its start in the matrix (or split); zeros outside. */
    __device__ __forceinline__ void load(int part, int64_t k_left, bool vec)
    {
#pragma unroll
        for (int u = 0; u < PER; ++u) {
            const int v = part * PER + u;
            const int64_t kq = k_left - (q + v * SLOT_Q), left = outer_left - v * SLOT_O;
            /* elements of the slot inside the matrix along outer (0..4) */
            const int ok_o = K_CONTIG ? (left > 0 ? 4 : 0)
                                      : (int)(left < 0   ? 0
                                              : left > 4 ? 4
                                                         : left);
            const float *src = ptr + v * slot_step;
            float e[4];
            const bool whole = ok_o == 4 && (K_CONTIG ? kq >= 4 : kq >= 1);
            if (vec && whole) {
                const float4 t = __ldg(reinterpret_cast<const float4 *>(src));
                e[0] = t.x, e[1] = t.y, e[2] = t.z, e[3] = t.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const bool ok = K_CONTIG ? (ok_o != 0 && i < kq) : (kq >= 1 && i < ok_o);
                    e[i] = ok ? __ldg(src + i) : 0.0f;
                }
            }
            r[u] = make_float4(e[0], e[1], e[2], e[3]);
        }
    }
    /* On to the slice after. */
    __device__ __forceinline__ void advance(void)
    {
        ptr += step;
    }

    /* Rounds the registers to tf32 into `big` and, with SPLIT, the tf32
     * remainders into `small` (both laid out as in the header comment). */
    template <bool SPLIT>
    __device__ __forceinline__ void store(int part, float *big, float *small, int tid) const
    {
#pragma unroll
        for (int u = 0; u < PER; ++u) {
            const int v = part * PER + u;
            float e[4] = {r[u].x, r[u].y, r[u].z, r[u].w}, hi[4], lo[4];
            if (!K_CONTIG) { /* rotate: element (i + rot) % 4 goes in store i */
                float t[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int s = (i + rot) & 3;
                    t[i] = s == 0 ? e[0] : s == 1 ? e[1] : s == 2 ? e[2] : e[3];
                }
#pragma unroll
                for (int i = 0; i < 4; ++i)
                    e[i] = t[i];
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                hi[i] = SPLIT ? gputile__to_tf32(e[i]) : gputile__to_tf32_rn(e[i]);
                /* x - big is exact; infinities keep a zero remainder */
                lo[i] = SPLIT ? (isfinite(hi[i]) ? gputile__to_tf32(e[i] - hi[i]) : 0.0f) : 0.0f;
            }
            if (K_CONTIG) {
                const int j = tid + THREADS * v; /* float4 number j of the layout */
                reinterpret_cast<float4 *>(big)[j] = make_float4(hi[0], hi[1], hi[2], hi[3]);
                if (SPLIT)
                    reinterpret_cast<float4 *>(small)[j] = make_float4(lo[0], lo[1], lo[2], lo[3]);
            } else {
                const int qv = q + v * SLOT_Q;
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int row = o + ((i + rot) & 3);
                    const int at = row / 8 * 256 + qv / 4 * 32 + row % 8 * 4 + qv % 4;
                    big[at] = hi[i];
                    if (SPLIT)
                        small[at] = lo[i];
                }
            }
        }
    }
};

struct wgmma_params {
    gputile__gemm_args p;
    int64_t tiles_n, k_per_split;
    float *work;       /* split-K partials, gridDim.z > 1 only */
    uint32_t lbo, sbo; /* descriptor offsets: LBO and SBO, or swapped by the layout probe */
    int vec_a, vec_b;  /* rows 16-byte aligned: 16-byte loads allowed */
};

/* PROMOTE (what 3xTF32 runs): each k slice's products go into fresh
 * tensor-core accumulators, added with FADD (round to nearest) to a second
 * set in registers after the slice, so the tensor cores' own accumulation,
 * which truncates, spans 32 of k instead of all of it. Measured on the
 * H200 (tests/wgmma_probe, 2026-11-21), max |C - C64| / sum|ab| at 4096^3:
 * 3.4e-6 without promotion, 7.6e-8 with it, 3.4e-7 for cuBLAS pedantic
 * FP32; at 1024 x 1024 x 16384: 6.3e-6, 5.2e-8 and 9.3e-8. The second set
 * of accumulators fits next to BN = 128 only (251 registers), so 3xTF32
 * runs on 128 x 128 tiles. */
template <int BN, bool SPLIT, bool TA, bool TB, bool PROMOTE = false>
static __global__ void __launch_bounds__(THREADS, 1)
    gemm_wgmma_kernel(const __grid_constant__ wgmma_params w)
{
    using S = stage_size<BN, SPLIT>;
    constexpr int NACC = BN / 2;
    extern __shared__ __align__(128) float smem[];

    const gputile__gemm_args &p = w.p;
    const int tid = threadIdx.x, wg = tid / 128;
    int64_t tile_m, tile_n;
    gputile__grouped_tile(blockIdx.x, (p.m + BM - 1) / BM, w.tiles_n, &tile_m, &tile_n);
    const int64_t m0 = tile_m * BM, n0 = tile_n * BN;
    const int64_t k_begin = blockIdx.z * w.k_per_split;
    const int64_t k_end = min(p.k, k_begin + w.k_per_split);

    /* BN = 256 moves B in two rounds: 16 registers fewer next to 128
     * accumulators (no spills); the second round's load latency hides
     * behind the wgmmas in flight like the first's. */
    constexpr int B_PARTS = BN == 256 ? 2 : 1;
    stager<BM, !TA, 1> la(p.a, p.lda, m0, p.m, k_begin, tid);
    stager<BN, TB, B_PARTS> lb(p.b, p.ldb, n0, p.n, k_begin, tid);

    float acc[NACC], total[PROMOTE ? NACC : 1];
#pragma unroll
    for (int i = 0; i < NACC; ++i)
        acc[i] = 0.0f;
#pragma unroll
    for (int i = 0; i < (PROMOTE ? NACC : 1); ++i)
        total[i] = 0.0f;

    /* Descriptors of stage 0; stage s adds s * S::total floats. A: this
     * warpgroup's 64 rows (8 groups of 8 rows, SBO apart). */
    const uint64_t da0 = gputile__wgmma_desc(smem + wg * 64 * BK, w.lbo, w.sbo);
    const uint64_t db0 = gputile__wgmma_desc(smem + S::a, w.lbo, w.sbo);
    constexpr uint64_t SMALL = (uint64_t)S::part * 4 / 16; /* big -> small, descriptor units */
    constexpr uint64_t STAGE = (uint64_t)S::total * 4 / 16;
    constexpr int NST = stages<BN, SPLIT, PROMOTE>::n;
    constexpr uint64_t KSTEP = 2 * 128 / 16; /* 8 k = two core matrices along k */

    /* Slice k_left columns of k before k_end into stage `to`. */
    auto stage_in = [&](int64_t k_left, float *to) {
        /* A's loads and B's first part in flight together: one latency */
        la.load(0, k_left, w.vec_a);
        lb.load(0, k_left, w.vec_b);
        la.template store<SPLIT>(0, to, to + S::part, tid);
        lb.template store<SPLIT>(0, to + S::a, to + S::part + S::a, tid);
#pragma unroll
        for (int part = 1; part < B_PARTS; ++part) {
            lb.load(part, k_left, w.vec_b);
            lb.template store<SPLIT>(part, to + S::a, to + S::part + S::a, tid);
        }
        la.advance();
        lb.advance();
        gputile__fence_proxy_async();
    };

    stage_in(k_end - k_begin, smem);
    __syncthreads();

    int buf = 0; /* the stage this slice is in */
    for (int64_t k0 = k_begin; k0 < k_end; k0 += BK) {
        const bool more = k0 + BK < k_end;
#pragma unroll
        for (int i = 0; i < NACC; ++i)
            gputile__pin(acc[i]);
        gputile__wgmma_fence();
        const uint64_t da = da0 + buf * STAGE, db = db0 + buf * STAGE;
#pragma unroll
        for (int s = 0; s < BK / 8; ++s) {
            const int fresh = PROMOTE && s == 0; /* the slice's first product overwrites */
            if (SPLIT) {
                gputile__wgmma_tf32<BN>(acc, da + SMALL + s * KSTEP, db + s * KSTEP, !fresh);
                gputile__wgmma_tf32<BN>(acc, da + s * KSTEP, db + SMALL + s * KSTEP, 1);
                gputile__wgmma_tf32<BN>(acc, da + s * KSTEP, db + s * KSTEP, 1);
            } else {
                gputile__wgmma_tf32<BN>(acc, da + s * KSTEP, db + s * KSTEP, !fresh);
            }
        }
        gputile__wgmma_commit();
        if (more) /* the next slice into the next stage while the tensor cores work */
            stage_in(k_end - k0 - BK, smem + (buf + 1 == NST ? 0 : buf + 1) * S::total);
        /* 3 stages: this slice's wgmmas may go on running into the next
         * iteration; the previous slice's must be done, because the next
         * iteration stores into the stage they read. 2 stages: all must be
         * done, the next iteration stores into this slice's stage. */
        gputile__wgmma_wait_acc<NST - 2, NACC>(acc);
        if (PROMOTE)
#pragma unroll
            for (int i = 0; i < NACC; ++i)
                total[i] += acc[i];
        __syncthreads();
        buf = buf + 1 == NST ? 0 : buf + 1;
    }
    gputile__wgmma_wait_acc<0, NACC>(acc);

    /* Epilogue: split-K partials raw into the workspace, else into C. */
    const bool partial = gridDim.z > 1;
    gputile__wgmma_store<BN>(PROMOTE ? total : acc, partial ? w.work + blockIdx.z * p.m * p.n : p.c,
                             partial ? p.n : p.ldc, m0 + wg * 64, n0, p.m, p.n,
                             partial ? 1.0f : p.alpha, partial ? 0.0f : p.beta, tid % 128);
}

template <int BN, bool SPLIT, bool TA, bool TB, bool PROMOTE = false>
static cudaError_t launch(const wgmma_params &w, int splits, cudaStream_t stream)
{
    constexpr size_t bytes =
        stages<BN, SPLIT, PROMOTE>::n * (size_t)stage_size<BN, SPLIT>::total * sizeof(float);
    auto kernel = gemm_wgmma_kernel<BN, SPLIT, TA, TB, PROMOTE>;
    cudaError_t err =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err != cudaSuccess)
        return err;
    const int64_t tiles_m = (w.p.m + BM - 1) / BM;
    dim3 grid((unsigned)(tiles_m * w.tiles_n), 1, (unsigned)splits);
    return gputile__launch(kernel, grid, THREADS, bytes, stream, w);
}

template <int BN, bool SPLIT, bool PROMOTE>
static cudaError_t dispatch(const wgmma_params &w, int splits, cudaStream_t stream)
{
    switch (w.p.trans_a << 1 | w.p.trans_b) {
    case 0:
        return launch<BN, SPLIT, false, false, PROMOTE>(w, splits, stream);
    case 1:
        return launch<BN, SPLIT, false, true, PROMOTE>(w, splits, stream);
    case 2:
        return launch<BN, SPLIT, true, false, PROMOTE>(w, splits, stream);
    default:
        return launch<BN, SPLIT, true, true, PROMOTE>(w, splits, stream);
    }
}

/* The kernel's parameters for args and plan at tile width BN. */
static wgmma_params params_of(const gputile__gemm_args *p, const gputile__gemm_plan *plan, int bn,
                              uint32_t lbo, uint32_t sbo)
{
    wgmma_params w;
    w.p = *p;
    w.tiles_n = (p->n + bn - 1) / bn;
    w.k_per_split = plan->k_per_split;
    w.work = plan->work;
    w.lbo = lbo;
    w.sbo = sbo;
    w.vec_a = plan->vec_a;
    w.vec_b = plan->vec_b;
    return w;
}

} // namespace

#endif /* GPUTILE_GEMM_WGMMA_CUH */
