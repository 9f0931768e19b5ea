/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched.cu: the BATCHED rows of gemm_variants.h (issue 20): many
 * small products in one launch, and the batched C = beta C.
 *
 * Why a kernel of its own. A 16 x 16 x 16 product moves 3 KiB for 4096
 * FMAs: a batch of them is bound by DRAM, not by the FFMA pipe, and a
 * block per product (cuBLAS reaches 1.2 TB/s at 16^3) spends its life
 * waiting for its first loads. Here a persistent grid walks the list of
 * (problem, tile of C) pairs and keeps the next pairs' loads in flight
 * while the current ones are multiplied.
 *
 * Work list. Pair p = z * tiles + t: problem z (strides or views, as
 * gputile__gemm_args says), tile t of its C (BM x BN, row-major order of
 * tiles). A block of 128 threads takes PPB = 128 / TPP consecutive pairs
 * at a time (TPP threads per pair) and walks k in slices of BK; block b
 * takes items b, b + gridDim.x, ... (an item: PPB pairs, all their slices).
 *
 * Pipeline. Two shared-memory stages. Each stage holds, per pair, the
 * BM x BK slice of op(A) and the BK x BN slice of op(B) stored as they lie
 * in memory (rows padded by 4 floats), copied by cp.async: 16 bytes per
 * instruction where the rows are 16-byte aligned (VA for A, VB for B, each
 * on its own), else 4; elements outside the matrix are zero-filled by the
 * copy (src-size 0), never read. The 16-byte copies go through the L1 or
 * the L2 only as lib/ plans (l1: short k, gemm_batched.h); the 4-byte
 * ones always through the L1.
 * While one stage is multiplied the next (pair, slice) is in flight.
 * Short k (plan->half_k: k <= BK / 2, the square tiles): a HALF build
 * copies and multiplies only the first half of each slice, with half the
 * copy instructions (H200, forced rows: k <= 8 1.10-1.13x; done on every
 * slice whose k ends in its first half instead, the general loop ran
 * 1-5% slower on the slices that never took it, so only whole launches
 * of short k take it).
 *
 * C. Rows 16-byte aligned (and op(B) = B): 16-byte stores from the
 * registers; rows 8-byte aligned (tiles wider than 8): 8-byte ones.
 * Otherwise (4-byte rows, or B^T) the pair stages its tile through its part
 * of the stage just multiplied (C_ROWS rows a pass) and stores it a row at
 * a time, consecutive threads on consecutive elements: the registers' own
 * 4-byte stores touched 8 rows per warp instruction, a few floats of each
 * (224 x 85 x 7 x 3165 on 32 x 32 tiles: 2.26 -> 6.3 TFLOP/s, H200).
 * Staging the 8-byte rows too ran 3-10% slower on them (H200, 40 x 3 shapes).
 *
 * Threads. A pair's TPP threads stand LM x LN and own 4 x RN outputs each.
 * Rows and columns are assigned so that shared-memory reads are 16-byte and
 * conflict-free in either layout: along the stored rows (A k-contiguous,
 * i.e. op N; B^T) consecutive threads take consecutive rows (lm + LM ii),
 * which the pad of 4 floats puts into distinct bank quads; across them
 * (A^T, B as stored) a thread takes 4 consecutive elements (lm * 4 + ii).
 * Per 4 steps of k a thread reads 4 + RN float4 and does 16 RN FFMAs.
 *
 * Configurations (rows of gemm_variants.h): 16 x 16 tiles, 16 threads of
 * 4 x 4 (8 pairs per block); 32 x 32, a warp of 4 x 8 (4 per block);
 * 64 x 64, 4 warps of 4 x 8 (1 per block); 8 x 64 and 64 x 8 (C a few
 * rows tall or columns wide), a warp of 4 x 4 (4 per block). BK = 16
 * keeps each block at 40 KiB (20 KiB for 64 x 64, 47 KiB for 64 x 8) of
 * static-size dynamic shared memory, below the 48 KiB that would need an
 * opt-in. Registers: see `make ptxas-report`; no spills.
 */
#include "kernels.h"
#include "gemm_batch.cuh"
#include "epilogue.cuh"
#include "grid.cuh"
#include "row_entries.cuh"

namespace {

constexpr int THREADS = 128;
constexpr int PAD = 4;

/* 16-byte copy of `bytes` (0, 4, 8, 12 or 16) from global src to shared
 * dst, zero-filling the rest; src must be 16-byte aligned when bytes > 0.
 * l1: through the L1 (cp.async.ca), else the L2 only (.cg); lib/ decides
 * (gputile__gemm_plan.l1_copies). */
__device__ __forceinline__ void copy16(float *dst, const float *src, int bytes, bool l1)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (l1)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                     "r"(bytes));
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                     "r"(bytes));
}

/* 4-byte copy, or a zero when !ok. */
__device__ __forceinline__ void copy4(float *dst, const float *src, bool ok)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src),
                 "r"(ok ? 4 : 0));
}

__device__ __forceinline__ void commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

/* Waits for all but the most recent group of this thread's copies. */
__device__ __forceinline__ void wait_all_but_one()
{
    asm volatile("cp.async.wait_group 1;\n" ::);
}

/* A ROWS x COLS window of a row-major matrix (ld floats apart; rows_left,
 * cols_left of it inside the matrix, both >= 1) into shared memory at s,
 * PITCH floats per row, by the TPP threads of a pair (lt: this one). */
template <int ROWS, int COLS, int TPP, bool VEC, int PITCH = COLS + PAD>
__device__ __forceinline__ void load_tile(float *s, const float *src, int64_t ld, int64_t rows_left,
                                          int64_t cols_left, int lt, bool l1)
{
    if constexpr (VEC) {
        constexpr int Q = COLS / 4; /* 16-byte groups per row */
        static_assert(COLS % 4 == 0 && ROWS * Q % TPP == 0,
                      "the window must split evenly among the threads");
#pragma unroll
        for (int i = 0; i < ROWS * Q / TPP; ++i) {
            const int g = lt + i * TPP, r = g / Q, c = g % Q * 4;
            const int64_t left = r < rows_left ? cols_left - c : 0;
            const int valid = left <= 0 ? 0 : left >= 4 ? 4 : (int)left;
            /* src: inside, never read at 0 */
            copy16(s + r * PITCH + c, valid > 0 ? src + r * ld + c : src, valid * 4, l1);
        }
    } else {
        /* Rows not 16-byte aligned: 4-byte copies, consecutive threads on
         * consecutive elements of a row, so that a warp's copy reads whole
         * sectors (a thread taking 4 neighbours, as above, made each
         * instruction touch 4x the sectors it used: ncu counted 77% of the
         * sectors excessive at 34 x 25 x 292). Element lt + i TPP: with
         * TPP a multiple of COLS a thread keeps its column and steps rows;
         * otherwise (COLS a multiple of TPP) its row and column follow i. */
        static_assert((TPP % COLS == 0 || COLS % TPP == 0) && ROWS * COLS % TPP == 0,
                      "threads must tile the rows");
        if constexpr (TPP % COLS == 0) {
#pragma unroll
            for (int i = 0; i < ROWS * COLS / TPP; ++i) {
                const int r = lt / COLS + i * (TPP / COLS), c = lt % COLS;
                const bool ok = r < rows_left && c < cols_left;
                copy4(s + r * PITCH + c, ok ? src + r * ld + c : src, ok);
            }
        } else {
            /* a row at a time, one pointer stepped along the rows, 4 rows
             * unrolled: fully unrolled, 8 x 64's B (32 copies a thread)
             * spilled at 96 registers, and ran 1.18x slower */
            const float *row = src;
#pragma unroll 4
            for (int r = 0; r < ROWS; ++r, row += ld)
#pragma unroll
                for (int q = 0; q < COLS / TPP; ++q) {
                    const int c = lt + q * TPP;
                    const bool ok = r < rows_left && c < cols_left;
                    copy4(s + r * PITCH + c, ok ? row + c : src, ok);
                }
        }
    }
}

/* One operand's slice: the ROWS x COLS window of load_tile, k running along
 * its rows (K_ROWS) or its columns. HALF (k <= BK / 2, one slice a pair):
 * only the first half of k is multiplied, so only that half is copied,
 * with half the copy instructions; the rest of the stage is never read. */
template <int ROWS, int COLS, int TPP, bool VEC, bool K_ROWS, bool HALF>
__device__ __forceinline__ void load_slice(float *s, const float *src, int64_t ld,
                                           int64_t rows_left, int64_t cols_left, int lt, bool l1)
{
    constexpr int HR = K_ROWS ? ROWS / 2 : ROWS, HC = K_ROWS ? COLS : COLS / 2;
    if constexpr (HALF)
        load_tile<HR, HC, TPP, VEC, COLS + PAD>(s, src, ld, rows_left, cols_left, lt, l1);
    else
        load_tile<ROWS, COLS, TPP, VEC>(s, src, ld, rows_left, cols_left, lt, l1);
}

/* A barrier among the TPP threads of one pair (slot): the block, the
 * warp, or the pair's lanes of its warp. */
template <int TPP>
__device__ __forceinline__ void pair_sync(int slot)
{
    static_assert(TPP == THREADS || TPP == 32 || (TPP < 32 && 32 % TPP == 0),
                  "a pair is the block, a warp or part of one");
    if constexpr (TPP == THREADS)
        __syncthreads();
    else if constexpr (TPP == 32)
        __syncwarp();
    else
        __syncwarp(((1u << TPP) - 1) << (slot * TPP % 32));
}

/* One configuration: BM x BN tiles, TPP threads per pair, 4 x RN outputs
 * per thread, transposes TA, TB, 16-byte copies of A when VA, of B when VB. */
template <int BM, int BN, int BK, int TPP, int RN, int MINB, bool TA, bool TB, bool VA, bool VB>
struct cfg {
    static constexpr int RM = 4, LM = BM / RM, LN = BN / RN, PPB = THREADS / TPP;
    static_assert(LM * LN == TPP && RN % 4 == 0 && BK % 4 == 0, "thread grid must cover the tile");
    /* op(A)'s slice as stored: BM rows of BK (A) or BK rows of BM (A^T) */
    static constexpr int A_ROWS = TA ? BK : BM, A_COLS = TA ? BM : BK;
    static constexpr int B_ROWS = TB ? BN : BK, B_COLS = TB ? BK : BN;
    static constexpr int A_FLOATS = A_ROWS * (A_COLS + PAD), B_FLOATS = B_ROWS * (B_COLS + PAD);
    static constexpr int PAIR_FLOATS = A_FLOATS + B_FLOATS;
    static constexpr int STAGE_FLOATS = PPB * PAIR_FLOATS;
    static constexpr size_t SMEM_BYTES = 2 * STAGE_FLOATS * sizeof(float);
    /* the square tiles: a last slice's FFMAs stop at its middle where k
     * ends there, and short k has a HALF kernel (the 8-row and 8-column
     * tiles gained nothing from either) */
    static constexpr bool TRIM = BM >= 16 && BN >= 16;
    /* C staged through the pair's part of a stage (the epilogue): rows of
     * BN + PAD floats, C_ROWS of them a pass (a power of 2 that fits) */
    static constexpr int C_PITCH = BN + PAD;
    static constexpr int C_ROWS = BM * C_PITCH <= PAIR_FLOATS       ? BM
                                  : BM / 2 * C_PITCH <= PAIR_FLOATS ? BM / 2
                                  : BM / 4 * C_PITCH <= PAIR_FLOATS ? BM / 4
                                                                    : BM / 8;
    static_assert(C_ROWS >= 1 && C_ROWS * C_PITCH <= PAIR_FLOATS && (C_ROWS * BN) % TPP == 0,
                  "a pass of C fits the pair's stage and splits evenly");
};

/* Where one pair's operands are. */
struct pair_at {
    gputile__gemm_view v;
    int64_t m0, n0;
    bool ok; /* a pair of the list (the last item may hold fewer) */
};

__device__ __forceinline__ pair_at locate(const gputile__gemm_args &p, int64_t pair, int64_t pairs,
                                          int64_t tiles, int64_t tiles_n, int bm, int bn)
{
    pair_at at;
    at.ok = pair < pairs;
    if (!at.ok)
        pair = 0;
    const int64_t z = tiles == 1 ? pair : pair / tiles, t = tiles == 1 ? 0 : pair % tiles;
    at.m0 = t / tiles_n * bm;
    at.n0 = t % tiles_n * bn;
    gputile__gemm_args q = p;
    if (p.batch > 0)
        gputile__gemm_select_problem(q, z);
    at.v.a = q.a, at.v.b = q.b, at.v.c = q.c;
    at.v.lda = q.lda, at.v.ldb = q.ldb, at.v.ldc = q.ldc;
    return at;
}

/* HALF: every problem's k fits the first half of one slice (k <= BK / 2;
 * the square tiles only): half of each slice copied and multiplied.
 * KS (the GPUTILE__GEMM_KSPLIT rows): the block's PPB slots share one pair,
 * slot s taking slices s, s + PPB, ... of its k, and the partial sums are
 * added in shared memory before C is written: a work item is one pair, not
 * PPB of them, so a batch of few long-k pairs fills its last round of
 * blocks PPB times more finely (ncu, 29 x 17 x 507 x 2,817 on batched32:
 * 705 items over 528 blocks, SMs busy 0.69 of the time cuBLAS's are). */
template <int BM, int BN, int BK, int TPP, int RN, int MINB, bool TA, bool TB, bool VA, bool VB,
          bool HALF, bool KS>
static __global__ void __launch_bounds__(THREADS, MINB)
    gemm_batched_kernel(gputile__gemm_args p, int64_t tiles_n, int64_t tiles, int64_t pairs,
                        bool l1)
{
    using C = cfg<BM, BN, BK, TPP, RN, MINB, TA, TB, VA, VB>;
    constexpr int RM = C::RM, LM = C::LM, LN = C::LN, PPB = C::PPB;
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);

    const int slot = threadIdx.x / TPP, lt = threadIdx.x % TPP;
    const int lm = lt / LN, ln = lt % LN;
    const int64_t chunks = (p.k + BK - 1) / BK;
    const int64_t items = KS ? pairs : (pairs + PPB - 1) / PPB;
    /* steps of an item: KS, each slot's share of the slices */
    const int64_t steps = KS ? (chunks + PPB - 1) / PPB : chunks;
    static_assert(!KS || (C::C_ROWS == BM && !HALF), "KS: a slot's partial C fits its stage part");
    auto slice_of = [&](int64_t step) -> int64_t { return KS ? step * PPB + slot : step; };
    auto pair_of = [&](int64_t item) -> int64_t { return KS ? item : item * PPB + slot; };
    int64_t w = blockIdx.x;
    if (w >= items)
        return;

    /* copies (pair of this thread's slot, slice `chunk`) into stage s */
    auto issue = [&](const pair_at &at, int64_t chunk, int s) {
        if (!at.ok || (KS && chunk >= chunks))
            return;
        float *as = smem + s * C::STAGE_FLOATS + slot * C::PAIR_FLOATS, *bs = as + C::A_FLOATS;
        const int64_t k0 = chunk * BK;
        if (TA)
            load_slice<BK, BM, TPP, VA, true, HALF>(as, at.v.a + k0 * at.v.lda + at.m0, at.v.lda,
                                                    p.k - k0, p.m - at.m0, lt, l1);
        else
            load_slice<BM, BK, TPP, VA, false, HALF>(as, at.v.a + at.m0 * at.v.lda + k0, at.v.lda,
                                                     p.m - at.m0, p.k - k0, lt, l1);
        if (TB)
            load_slice<BN, BK, TPP, VB, false, HALF>(bs, at.v.b + at.n0 * at.v.ldb + k0, at.v.ldb,
                                                     p.n - at.n0, p.k - k0, lt, l1);
        else
            load_slice<BK, BN, TPP, VB, true, HALF>(bs, at.v.b + k0 * at.v.ldb + at.n0, at.v.ldb,
                                                    p.k - k0, p.n - at.n0, lt, l1);
    };

    float acc[RM][RN];
#pragma unroll
    for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j)
            acc[i][j] = 0.0f;

    /* acc's rows r0 .. r0 + C_ROWS - 1 of the tile into sc, rows of C_PITCH */
    auto stage_acc = [&](float *sc, int r0) {
#pragma unroll
        for (int i = 0; i < RM; ++i) {
            const int r = (TA ? lm * 4 + i : lm + LM * i) - r0;
            if (r < 0 || r >= C::C_ROWS)
                continue;
#pragma unroll
            for (int h = 0; h < RN / 4; ++h) {
                if (TB) { /* columns ln + LN (4 h + j) */
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        sc[r * C::C_PITCH + ln + LN * (4 * h + j)] = acc[i][4 * h + j];
                } else {
                    *reinterpret_cast<float4 *>(&sc[r * C::C_PITCH + ln * 4 + 4 * LN * h]) =
                        make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2],
                                    acc[i][4 * h + 3]);
                }
            }
        }
    };

    pair_at cur = locate(p, pair_of(w), pairs, tiles, tiles_n, BM, BN);
    int64_t chunk = 0; /* the step (KS: the slot's slice is slice_of(chunk)) */
    int stage = 0;
    issue(cur, slice_of(0), 0);
    commit();
    for (;;) {
        /* the next (item, slice) of this block, into the other stage */
        int64_t nw = w, nchunk = chunk + 1;
        if (nchunk == steps)
            nw += gridDim.x, nchunk = 0;
        const bool more = nw < items;
        pair_at nxt = cur;
        if (more && nchunk == 0)
            nxt = locate(p, pair_of(nw), pairs, tiles, tiles_n, BM, BN);
        if (more)
            issue(nxt, slice_of(nchunk), stage ^ 1);
        commit(); /* possibly empty: the wait below always leaves one group */
        wait_all_but_one();
        __syncthreads();

        const float *as = smem + stage * C::STAGE_FLOATS + slot * C::PAIR_FLOATS;
        const float *bs = as + C::A_FLOATS;
        /* acc += the slice; kn: k left in it (at most BK) */
        auto multiply = [&](int kn) {
#pragma unroll
            for (int kq = 0; kq < BK; kq += 4) {
                if (HALF && kq == BK / 2)
                    break; /* as copied */
                if (C::TRIM && kq == BK / 2 && kq >= kn)
                    break;
                float a[RM][4], b[4][RN];
                if (TA) { /* As[k][m]: 4 consecutive rows of op(A) per k */
#pragma unroll
                    for (int t = 0; t < 4; ++t) {
                        const float4 v =
                            *reinterpret_cast<const float4 *>(&as[(kq + t) * (BM + PAD) + lm * 4]);
                        a[0][t] = v.x, a[1][t] = v.y, a[2][t] = v.z, a[3][t] = v.w;
                    }
                } else { /* As[m][k]: rows lm + LM ii, 4 k each */
#pragma unroll
                    for (int i = 0; i < RM; ++i) {
                        const float4 v =
                            *reinterpret_cast<const float4 *>(&as[(lm + LM * i) * (BK + PAD) + kq]);
                        a[i][0] = v.x, a[i][1] = v.y, a[i][2] = v.z, a[i][3] = v.w;
                    }
                }
                if (TB) { /* Bs[n][k]: columns ln + LN jj, 4 k each */
#pragma unroll
                    for (int j = 0; j < RN; ++j) {
                        const float4 v =
                            *reinterpret_cast<const float4 *>(&bs[(ln + LN * j) * (BK + PAD) + kq]);
                        b[0][j] = v.x, b[1][j] = v.y, b[2][j] = v.z, b[3][j] = v.w;
                    }
                } else { /* Bs[k][n]: columns ln * 4 + {0..3} + 4 LN h */
#pragma unroll
                    for (int t = 0; t < 4; ++t)
#pragma unroll
                        for (int h = 0; h < RN / 4; ++h) {
                            const float4 v = *reinterpret_cast<const float4 *>(
                                &bs[(kq + t) * (BN + PAD) + ln * 4 + 4 * LN * h]);
                            b[t][4 * h] = v.x, b[t][4 * h + 1] = v.y;
                            b[t][4 * h + 2] = v.z, b[t][4 * h + 3] = v.w;
                        }
                }
#pragma unroll
                for (int t = 0; t < 4; ++t)
#pragma unroll
                    for (int i = 0; i < RM; ++i)
#pragma unroll
                        for (int j = 0; j < RN; ++j)
                            acc[i][j] = fmaf(a[i][t], b[t][j], acc[i][j]);
            }
        };
        /* The last slice of a k that is not a multiple of BK holds zeros
         * past k. The square tiles (TRIM) stop it at its middle when k ends
         * in its first half (k = 23: 24 steps of k multiplied, not 32;
         * k = 4: 8, not 16): one uniform branch per slice, which full
         * slices pass. A branch before every step of 4 cost 2-5% on full
         * slices; the 8-row and 8-column tiles gained nothing from it. */
        const int64_t left = p.k - slice_of(chunk) * BK;
        if (!KS || left > 0) /* KS: a slot past the last slice adds nothing */
            multiply(left >= BK ? BK : (int)left);

        if (chunk == steps - 1) { /* the item's last step: C = alpha acc + beta C */
            const int64_t ldc = cur.v.ldc;
            float *c0 = cur.v.c + cur.m0 * ldc + cur.n0; /* the tile's first element */
            const int rows_in = p.m - cur.m0 < BM ? (int)(p.m - cur.m0) : BM,
                      cols_in = p.n - cur.n0 < BN ? (int)(p.n - cur.n0) : BN;
            if constexpr (KS) {
                /* each slot's partial C into its part of this stage (rows
                 * of C_PITCH), then the block adds the PPB parts and writes
                 * C, consecutive threads along a row */
                pair_sync<TPP>(slot); /* the slot's slice is read */
                stage_acc(smem + stage * C::STAGE_FLOATS + slot * C::PAIR_FLOATS, 0);
                __syncthreads();
                if (cur.ok) { /* the same pair for every slot */
                    const float *part = smem + stage * C::STAGE_FLOATS;
#pragma unroll
                    for (int q = 0; q < (BM * BN + THREADS - 1) / THREADS; ++q) {
                        const int e = threadIdx.x + q * THREADS, r = e / BN, cc = e % BN;
                        if (e < BM * BN && r < rows_in && cc < cols_in) {
                            float v = 0.0f;
#pragma unroll
                            for (int s = 0; s < PPB; ++s)
                                v += part[s * C::PAIR_FLOATS + r * C::C_PITCH + cc];
                            float *dst = c0 + r * ldc + cc;
                            v *= p.alpha;
                            *dst = p.beta != 0.0f ? v + p.beta * *dst : v;
                        }
                    }
                }
            } else {
                const bool vec_c =
                    cur.ok && !TB && (uintptr_t)cur.v.c % 16 == 0 && cur.v.ldc % 4 == 0;
                if (vec_c) { /* 16-byte stores straight from the registers */
#pragma unroll
                    for (int i = 0; i < RM; ++i) {
                        const int64_t row = cur.m0 + (TA ? lm * 4 + i : lm + LM * i);
                        if (row >= p.m)
                            continue;
                        float *crow = cur.v.c + row * cur.v.ldc;
#pragma unroll
                        for (int h = 0; h < RN / 4; ++h) {
                            const int64_t col0 = cur.n0 + ln * 4 + 4 * LN * h;
                            float v[4] = {p.alpha * acc[i][4 * h], p.alpha * acc[i][4 * h + 1],
                                          p.alpha * acc[i][4 * h + 2], p.alpha * acc[i][4 * h + 3]};
                            if (col0 < p.n)
                                gputile__store_c4(crow + col0, v, true, p.n - col0, p.beta != 0.0f,
                                                  p.beta);
                        }
                    }
                } else if (cur.ok && !TB && BN > 8 && (uintptr_t)cur.v.c % 8 == 0 &&
                           cur.v.ldc % 2 == 0) { /* rows 8-byte aligned: 8-byte stores */
#pragma unroll
                    for (int i = 0; i < RM; ++i) {
                        const int r = TA ? lm * 4 + i : lm + LM * i;
                        if (r >= rows_in)
                            continue;
#pragma unroll
                        for (int h = 0; h < RN / 4; ++h)
#pragma unroll
                            for (int j = 0; j < 4; j += 2) {
                                const int cc = ln * 4 + 4 * LN * h + j;
                                float *dst = c0 + r * ldc + cc;
                                float2 v = make_float2(p.alpha * acc[i][4 * h + j],
                                                       p.alpha * acc[i][4 * h + j + 1]);
                                if (cc + 1 < cols_in) {
                                    if (p.beta != 0.0f) {
                                        const float2 o = *reinterpret_cast<const float2 *>(dst);
                                        v.x += p.beta * o.x, v.y += p.beta * o.y;
                                    }
                                    *reinterpret_cast<float2 *>(dst) = v;
                                } else if (cc < cols_in) {
                                    *dst = p.beta != 0.0f ? v.x + p.beta * *dst : v.x;
                                }
                            }
                    }
                } else if (cur.ok) {
                    /* Rows not 16-byte aligned, or B^T (a thread's columns LN
                 * apart): through the pair's part of this stage, so that
                 * consecutive threads store consecutive elements of a row
                 * (a warp: 32 floats of one row, or 16 of two, or 8 of four),
                 * where the registers' own stores put 4 floats (B^T: 1) of
                 * each of 8 rows in an instruction. */
                    float *sc = smem + stage * C::STAGE_FLOATS + slot * C::PAIR_FLOATS;
#pragma unroll
                    for (int r0 = 0; r0 < BM; r0 += C::C_ROWS) {
                        pair_sync<TPP>(slot); /* the slice, or the pass before, is read */
                        stage_acc(sc, r0);
                        pair_sync<TPP>(slot);
#pragma unroll
                        for (int q = 0; q < C::C_ROWS * BN / TPP; ++q) {
                            const int e = lt + q * TPP, r = e / BN, cc = e % BN;
                            if (r0 + r < rows_in && cc < cols_in) {
                                float *dst = c0 + (r0 + r) * ldc + cc;
                                const float v = p.alpha * sc[r * C::C_PITCH + cc];
                                *dst = p.beta != 0.0f ? v + p.beta * *dst : v;
                            }
                        }
                    }
                }
            }
#pragma unroll
            for (int i = 0; i < RM; ++i)
#pragma unroll
                for (int j = 0; j < RN; ++j)
                    acc[i][j] = 0.0f;
        }
        __syncthreads(); /* this stage is refilled next step */
        if (!more)
            break;
        w = nw, chunk = nchunk, cur = nxt, stage ^= 1;
    }
}

/* One instantiation: with `blocks`, how many of its blocks fit on an SM
 * (lib/'s persistent grid); else the launch of plan->grid_blocks blocks. */
template <int BM, int BN, int BK, int TPP, int RN, int MINB, bool KS, bool TA, bool TB, bool VA,
          bool VB>
static cudaError_t config(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                          cudaStream_t stream, int *blocks)
{
    using C = cfg<BM, BN, BK, TPP, RN, MINB, TA, TB, VA, VB>;
    static_assert(C::SMEM_BYTES <= 48 * 1024, "no opt-in for more shared memory is made");
    auto kernel = gemm_batched_kernel<BM, BN, BK, TPP, RN, MINB, TA, TB, VA, VB, false, KS>;
    if (blocks != NULL) /* the general kernel's (HALF's registers are within its bound) */
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, THREADS,
                                                             C::SMEM_BYTES);
    /* k within half a slice (plan->half_k: the GPUTILE__GEMM_HALF_K rows,
     * which are the square tiles) */
    if constexpr (C::TRIM && !KS)
        if (plan->half_k)
            kernel = gemm_batched_kernel<BM, BN, BK, TPP, RN, MINB, TA, TB, VA, VB, true, false>;
    const int64_t tiles_n = (p->n + BN - 1) / BN, tiles = (p->m + BM - 1) / BM * tiles_n;
    const int64_t pairs = tiles * (p->batch > 0 ? p->batch : 1);
    return gputile__launch(kernel, (unsigned)plan->grid_blocks, THREADS, C::SMEM_BYTES, stream, *p,
                           tiles_n, tiles, pairs, plan->l1_copies != 0);
}

template <int BM, int BN, int BK, int THREADS_, int MINB, int TM, int TN, bool KS>
static cudaError_t row(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                       cudaStream_t stream, int ta, int tb, int va, int vb, int *blocks)
{
    static_assert(THREADS_ == THREADS && TM == 4, "the rows' threads and thread tiles");
    constexpr int TPP = (BM / TM) * (BN / TN);
    /* clang-format off */
    switch (ta << 3 | tb << 2 | va << 1 | vb) {
#define CASE(k)                                                                              \
    case k:                                                                                  \
        return config<BM, BN, BK, TPP, TN, MINB, KS, (k >> 3) & 1, (k >> 2) & 1,             \
                      (k >> 1) & 1, (k & 1) != 0>(p, plan, stream, blocks);
        CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
        CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
#undef CASE
    }
    /* clang-format on */
    return cudaErrorInvalidValue;
}

} // namespace

/* C = beta C for every problem of the batch: one thread per element, the
 * problems walked in a grid-stride loop. */
static __global__ void gemm_batched_scale_kernel(gputile__gemm_args p)
{
    const int64_t per = p.m * p.n, total = per * p.batch;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        gputile__gemm_args q = p;
        gputile__gemm_select_problem(q, e / per);
        const int64_t r = e % per;
        float *c = q.c + r / p.n * q.ldc + r % p.n;
        *c = p.beta == 0.0f ? 0.0f : p.beta * *c;
    }
}

#define BATCHED_ROW(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, flags) \
    GPUTILE__ROW_QUERY(id, bm, bn, bk, threads, per_sm, tm, tn,                                 \
                       ((flags)&GPUTILE__GEMM_KSPLIT) != 0)                                     \
    GPUTILE__ROW_RUN(id)
GPUTILE__GEMM_BATCHED_ROWS(BATCHED_ROW)
#undef BATCHED_ROW

extern "C" cudaError_t gputile__gemm_batched_blocks_per_sm(int variant, int ta, int tb, int va,
                                                           int vb, int *blocks)
{
    switch (variant) {
#define BATCHED_CASE(id, ...)  \
    case GPUTILE__GEMM_V_##id: \
        return row_##id(NULL, NULL, NULL, ta, tb, va, vb, blocks);
        GPUTILE__GEMM_BATCHED_ROWS(BATCHED_CASE)
#undef BATCHED_CASE
    }
    return cudaErrorInvalidValue;
}

extern "C" cudaError_t gputile__gemm_batched_scale(const gputile__gemm_args *args,
                                                   cudaStream_t stream)
{
    const int64_t total = args->m * args->n * args->batch;
    return gputile__launch(gemm_batched_scale_kernel, gputile__stride_blocks(total, 256, 4096), 256,
                           0, stream, *args);
}

/* One thread a view: 16 bytes read, 48 written (lib/gemm_batched_views.c
 * sends compact views over the bus and widens them here). */
static __global__ void gemm_views_expand_kernel(const uint4 *offs, const float *a, const float *b,
                                                float *c, int64_t lda, int64_t ldb, int64_t ldc,
                                                int64_t count, gputile__gemm_view *views)
{
    for (int64_t z = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; z < count;
         z += (int64_t)gridDim.x * blockDim.x) {
        const uint4 o = offs[z];
        views[z] = gputile__gemm_view{a + o.x, b + o.y, c + o.z, lda, ldb, ldc};
    }
}

extern "C" cudaError_t gputile__gemm_views_expand(const uint32_t *offs, const float *a,
                                                  const float *b, float *c, int64_t lda,
                                                  int64_t ldb, int64_t ldc, int64_t count,
                                                  gputile__gemm_view *views, cudaStream_t stream)
{
    return gputile__launch(gemm_views_expand_kernel, gputile__stride_blocks(count, 256, 4096), 256,
                           0, stream, (const uint4 *)offs, a, b, c, lda, ldb, ldc, count, views);
}
