/* SPDX-License-Identifier: MIT */
/*
 * gemm_regblock.cu: the register-blocked FP32 GEMM family (FFMA only).
 *
 * Algorithm. Each block computes a BM x BN tile of C. Per step it stages a
 * BM x BK slice of op(A) and a BK x BN slice of op(B) in shared memory, both
 * stored k-major (As[k][m], Bs[k][n]): op(A) is transposed while staging
 * when A is row-major along k (through registers), stored straight when it
 * is m-contiguous (A^T), and likewise for op(B).
 *
 * Threads and warps. Each thread owns a (4 RM) x (4 RN) tile of C in
 * registers, as RM x RN quarters of 4 x 4 spaced 16 rows and 32 columns
 * apart; a warp's 32 threads stand 4 (along m) x 8 (along n) and cover
 * (16 RM) x (32 RN) of C; a block is WM x WN warps. Per k a thread reads RM
 * float4 of A and RN float4 of B from shared memory and does 16 RM RN FFMAs.
 * A warp's A reads touch 4 distinct 16-byte words and its B reads 8 (128
 * contiguous bytes): one shared-memory wavefront per read instruction, so
 * the FFMA pipe, not shared memory, is the limit.
 *
 * Configurations: the REGBLOCK rows of gemm_variants.h (8 x 8 or 16 x 8
 * per thread, 64 x 64 to 128 x 256 tiles), each instantiated below from
 * its row; BENCHMARKS.md has the measurements behind them.
 *
 * CGMA. A block loads (BM + BN) * BK floats per BM * BN * BK FMAs:
 * BM * BN / (BM + BN) FMAs per global load, 64 for 128 x 128, 85 for 128 x 256.
 *
 * Pipeline. Two shared-memory buffers; the next slice is loaded from global
 * memory into registers (16-byte loads where the rows are 16-byte aligned,
 * predicated scalar loads otherwise and at the edges, zero outside the
 * matrix) while the current slice is multiplied, then stored to the other
 * buffer: one __syncthreads per slice.
 *
 * Split-K. blockIdx.z takes a contiguous range of k; with more than one
 * split the block writes its partial tile to a workspace and
 * gputile__gemm_splitk_reduce() (gemm_splitk.cu, launched by lib/) adds the
 * splits in a fixed order (deterministic, no atomics) and applies alpha and
 * beta. lib/ plans every split, the tail split and the workspace.
 *
 * Batches (issue 20): with p.batch > 0 blockIdx.y picks the problem
 * (gemm_batch.cuh); lib/ plans batches unsplit, without tail or thin edges,
 * at most 65535 problems per launch.
 *
 * Resources: see `make ptxas-report`; no configuration spills.
 */
#include "kernels.h"
#include "epilogue.cuh"
#include "grid.cuh"
#include "gemm_batch.cuh"
#include "row_entries.cuh"

namespace {

#define PAD 4 /* floats of padding per shared row: keeps 16-byte alignment */

/* A tile loader: brings an OUTER x BK slice of an operand into registers and
 * then into shared memory as S[k][outer]. K_CONTIG: the operand's rows run
 * along k (row-major A, or B^T) and the slice is transposed on the way in;
 * otherwise its rows run along the outer dimension and are copied straight.
 * VEC: 16-byte global loads are allowed (16-byte aligned base, stride a
 * multiple of 4). A thread's VECS float4 slots share their k offset
 * (K_CONTIG) or their outer offset (otherwise), so one pointer and one
 * stride between slots describe them all, and the k loop does no 64-bit
 * index arithmetic beyond a pointer step per slice. */
template <int OUTER, int BK, int THREADS, bool K_CONTIG, bool VEC>
struct tile_loader {
    static constexpr int VECS = OUTER * BK / 4 / THREADS; /* float4 slots per thread */
    static_assert(OUTER * BK % (4 * THREADS) == 0, "tile must split into float4 slots");
    static_assert(K_CONTIG ? THREADS % (BK / 4) == 0 : THREADS % (OUTER / 4) == 0,
                  "slots of one thread must share their k (or outer) offset");
    /* distance between a thread's slots, in tile positions */
    static constexpr int SLOT_O = K_CONTIG ? THREADS / (BK / 4) : 0;
    static constexpr int SLOT_Q = K_CONTIG ? 0 : THREADS / (OUTER / 4);

    float4 r[VECS];
    const float *ptr;   /* slot 0's first element in the next slice */
    int64_t slot_step;  /* elements from one slot to the next */
    int64_t step;       /* elements from one slice to the next */
    int outer_ok[VECS]; /* elements of the slot inside the matrix along outer (0..4) */
    bool inside;        /* every slot wholly inside along outer */
    int o, q;           /* slot 0's position inside the tile */

    __device__ __forceinline__ tile_loader(const float *p, int64_t ld, int64_t o0, int64_t n_outer,
                                           int64_t k0, int tid)
    {
        o = K_CONTIG ? tid / (BK / 4) : tid % (OUTER / 4) * 4;
        q = K_CONTIG ? tid % (BK / 4) * 4 : tid / (OUTER / 4);
        const int64_t go = o0 + o, gq = k0 + q;
        ptr = K_CONTIG ? p + go * ld + gq : p + gq * ld + go;
        slot_step = K_CONTIG ? (int64_t)SLOT_O * ld : (int64_t)SLOT_Q * ld;
        step = K_CONTIG ? BK : BK * ld;
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int64_t left = n_outer - (go + v * SLOT_O);
            outer_ok[v] = K_CONTIG ? (left > 0 ? 4 : 0) : (int)(left < 0 ? 0 : left > 4 ? 4 : left);
        }
        inside = true;
#pragma unroll
        for (int v = 0; v < VECS; ++v)
            inside = inside && outer_ok[v] == 4;
    }

    /* Loads the next slice, of which k_left >= 1 columns of k remain in the
     * matrix (or split), into registers; zeros outside. */
    __device__ __forceinline__ void load(int64_t k_left)
    {
        if (inside && k_left >= BK) { /* the common case: no predicate per slot */
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                const float *src = ptr + v * slot_step;
                if (VEC)
                    r[v] = __ldg(reinterpret_cast<const float4 *>(src));
                else
                    r[v] = make_float4(__ldg(src), __ldg(src + 1), __ldg(src + 2), __ldg(src + 3));
            }
            ptr += step;
            return;
        }
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int64_t kq = k_left - (q + v * SLOT_Q); /* k elements left from this slot */
            const float *src = ptr + v * slot_step;
            float e[4];
            const bool whole = outer_ok[v] == 4 && (K_CONTIG ? kq >= 4 : kq >= 1);
            if (VEC && whole) {
                float4 t = __ldg(reinterpret_cast<const float4 *>(src));
                e[0] = t.x, e[1] = t.y, e[2] = t.z, e[3] = t.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const bool ok =
                        K_CONTIG ? (outer_ok[v] != 0 && i < kq) : (kq >= 1 && i < outer_ok[v]);
                    e[i] = ok ? __ldg(src + i) : 0.0f;
                }
            }
            r[v] = make_float4(e[0], e[1], e[2], e[3]);
        }
        ptr += step;
    }

    __device__ __forceinline__ void store(float (*s)[OUTER + PAD]) const
    {
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int ov = o + v * SLOT_O, qv = q + v * SLOT_Q;
            if (K_CONTIG) {
                s[qv + 0][ov] = r[v].x;
                s[qv + 1][ov] = r[v].y;
                s[qv + 2][ov] = r[v].z;
                s[qv + 3][ov] = r[v].w;
            } else {
                *reinterpret_cast<float4 *>(&s[qv][ov]) = r[v];
            }
        }
    }
};

template <int RM, int RN, int WM, int WN, int BK, int MINB, bool TA, bool TB, bool VA, bool VB>
static __global__ void __launch_bounds__(WM *WN * 32, MINB)
    gemm_regblock_kernel(gputile__gemm_args p, int64_t tiles_n, int64_t k_per_split, float *work,
                         int64_t full_tiles, int tail_splits, int64_t tail_k, float *tail_work)
{
    constexpr int THREADS = WM * WN * 32, BM = WM * 16 * RM, BN = WN * 32 * RN;
    constexpr int TM = 4 * RM, TN = 4 * RN;
    __shared__ __align__(16) float as[2][BK][BM + PAD];
    __shared__ __align__(16) float bs[2][BK][BN + PAD];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    if (p.batch > 0) /* a batch (lib/gemm_batched.c): problem blockIdx.y, never split */
        gputile__gemm_select_problem(p, blockIdx.y);
    /* Blocks past full_tiles split the last tiles tail_splits ways along k
     * (the tail: see launch()); the others cover a tile, or one split of
     * it when gridDim.z > 1. */
    int64_t tile = blockIdx.x, z = blockIdx.z, kps = k_per_split;
    const bool tail = tail_splits > 1 && tile >= full_tiles;
    if (tail) {
        z = (tile - full_tiles) % tail_splits;
        tile = full_tiles + (tile - full_tiles) / tail_splits;
        kps = tail_k;
    }
    int64_t tile_m, tile_n; /* tiles in groups of 8 rows (grid.cuh) */
    gputile__grouped_tile(tile, (p.m + BM - 1) / BM, tiles_n, &tile_m, &tile_n);
    const int64_t m0 = tile_m * BM, n0 = tile_n * BN;
    const int64_t k_begin = z * kps;
    const int64_t k_end = min(p.k, k_begin + kps);

    /* This thread's rows: tm + {0..3} + 16 r; columns: tn + {0..3} + 32 c. */
    const int tm = warp % WM * 16 * RM + lane / 8 * 4, tn = warp / WM * 32 * RN + lane % 8 * 4;

    tile_loader<BM, BK, THREADS, !TA, VA> la(p.a, p.lda, m0, p.m, k_begin, tid);
    tile_loader<BN, BK, THREADS, TB, VB> lb(p.b, p.ldb, n0, p.n, k_begin, tid);
    static_assert(BK % 2 == 0, "double-buffered fragments alternate between two register sets");
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    /* Fragments of op(A) and op(B) for one k. With 8 x 8 outputs per thread
     * they are double-buffered: the next k's are read from shared memory
     * while this k's FFMAs run, across the barrier between slices too, so no
     * FFMA waits on a load (on the H200, 0.83 -> 0.88 of cuBLAS for 128 x 128
     * tiles); with 16 x 8 the 24 more registers cost more than they hide
     * (0.88 -> 0.86 for 128 x 256), so those read each k's just before it. */
    constexpr bool DB = RM * RN <= 4;
    float a[DB ? 2 : 1][TM], b[DB ? 2 : 1][TN];
    auto read_fragments = [&](float(*as_)[BM + PAD], float(*bs_)[BN + PAD], int q, int f) {
#pragma unroll
        for (int r = 0; r < RM; ++r)
            *reinterpret_cast<float4 *>(&a[f][4 * r]) =
                *reinterpret_cast<const float4 *>(&as_[q][tm + 16 * r]);
#pragma unroll
        for (int c = 0; c < RN; ++c)
            *reinterpret_cast<float4 *>(&b[f][4 * c]) =
                *reinterpret_cast<const float4 *>(&bs_[q][tn + 32 * c]);
    };
    /* the next slice, loaded into registers, to the other buffer */
    auto next_slice = [&](int &buf) {
        la.store(as[buf ^ 1]);
        lb.store(bs[buf ^ 1]);
        __syncthreads();
        buf ^= 1;
    };

    la.load(k_end - k_begin);
    lb.load(k_end - k_begin);
    la.store(as[0]);
    lb.store(bs[0]);
    __syncthreads();
    if (DB)
        read_fragments(as[0], bs[0], 0, 0);

    int buf = 0;
    for (int64_t k0 = k_begin; k0 < k_end; k0 += BK) {
        const bool more = k0 + BK < k_end;
        if (more) { /* next slice into registers while this one is multiplied */
            la.load(k_end - k0 - BK);
            lb.load(k_end - k0 - BK);
        }
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            const int f = DB ? q % 2 : 0;
            if (!DB) {
                read_fragments(as[buf], bs[buf], q, 0);
            } else if (q < BK - 1) {
                read_fragments(as[buf], bs[buf], q + 1, (q + 1) % 2);
            } else if (more) { /* the next slice, then its first k */
                next_slice(buf);
                read_fragments(as[buf], bs[buf], 0, 0);
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[f][i], b[f][j], acc[i][j]);
        }
        if (!DB && more)
            next_slice(buf);
    }

    /* Epilogue: C = alpha acc + beta C, or the raw partial into the split's
     * workspace slice (m x n), or a tail split's (BM x BN, at m0, n0). A
     * tail block's slot is blockIdx.x - full_tiles, which equals
     * (tile - full_tiles) * tail_splits + z: computed from blockIdx, nothing
     * of the block's own stays live through the k loop for it. */
    const bool partial = gridDim.z > 1 || tail;
    float *c = tail      ? tail_work + (blockIdx.x - full_tiles) * (BM * BN) - (m0 * BN + n0)
               : partial ? work + blockIdx.z * p.m * p.n
                         : p.c;
    const int64_t ldc = tail ? BN : partial ? p.n : p.ldc;
    const bool vec_c =
        tail || (partial ? p.n % 4 == 0 : (uintptr_t)p.c % 16 == 0 && p.ldc % 4 == 0);
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int64_t row = m0 + tm + i % 4 + 16 * (i / 4);
        if (row >= p.m)
            continue;
#pragma unroll
        for (int h = 0; h < RN; ++h) {
            const int64_t col = n0 + tn + h * 32;
            float v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                v[j] = partial ? acc[i][h * 4 + j] : p.alpha * acc[i][h * 4 + j];
            gputile__store_c4(c + row * ldc + col, v, vec_c, p.n - col, !partial && p.beta != 0.0f,
                              p.beta);
        }
    }
}

/* C of the tail tiles t < tail_tiles (tiles full_tiles + t in the grouped
 * order) = alpha * (sum of their splits' partials, in split order) + beta C. */
template <int BM, int BN>
static __global__ void gemm_tail_reduce_kernel(gputile__gemm_args p, int64_t tiles_n,
                                               int64_t full_tiles, int64_t tail_tiles, int splits,
                                               const float *__restrict__ work)
{
    const int64_t total = tail_tiles * BM * BN;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total;
         e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t t = e / (BM * BN), w = e % (BM * BN);
        int64_t tile_m, tile_n;
        gputile__grouped_tile(full_tiles + t, (p.m + BM - 1) / BM, tiles_n, &tile_m, &tile_n);
        const int64_t row = tile_m * BM + w / BN, col = tile_n * BN + w % BN;
        if (row >= p.m || col >= p.n)
            continue;
        float s = 0.0f;
        for (int z = 0; z < splits; ++z)
            s += work[(t * splits + z) * (BM * BN) + w];
        float *c = p.c + row * p.ldc + col;
        *c = p.beta == 0.0f ? p.alpha * s : p.alpha * s + p.beta * *c;
    }
}

/* One configuration in one transpose and load width: with `blocks`, how
 * many of its blocks fit on an SM (the planner's question); else the
 * tiles of C in the grouped order, and with plan->tail_splits > 1 the
 * tiles from plan->full_tiles on split that many ways along k in the same
 * launch, their partials then added by gemm_tail_reduce_kernel (the
 * planner's tail split: lib/gemm_plan.c). */
template <int RM, int RN, int WM, int WN, int BK, int MINB, bool TA, bool TB, bool VA, bool VB>
static cudaError_t config(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                          cudaStream_t stream, int *blocks)
{
    constexpr int THREADS = WM * WN * 32, BM = WM * 16 * RM, BN = WN * 32 * RN;
    const auto kernel = gemm_regblock_kernel<RM, RN, WM, WN, BK, MINB, TA, TB, VA, VB>;
    if (blocks != NULL)
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, THREADS, 0);
    const int64_t tiles_n = (p->n + BN - 1) / BN, tiles_m = (p->m + BM - 1) / BM;
    const int64_t tiles = tiles_m * tiles_n;
    if (plan->tail_splits < 2) {
        dim3 grid((unsigned)tiles, p->batch > 0 ? (unsigned)p->batch : 1u, (unsigned)plan->splits);
        return gputile__launch(kernel, grid, THREADS, 0, stream, *p, tiles_n, plan->k_per_split,
                               plan->work, tiles, 0, 0, (float *)NULL);
    }
    const int64_t tail_tiles = tiles - plan->full_tiles;
    cudaError_t err =
        gputile__launch(kernel, (unsigned)(plan->full_tiles + tail_tiles * plan->tail_splits),
                        THREADS, 0, stream, *p, tiles_n, plan->k_per_split, plan->work,
                        plan->full_tiles, plan->tail_splits, plan->tail_k, plan->tail_work);
    if (err != cudaSuccess)
        return err;
    return gputile__launch(gemm_tail_reduce_kernel<BM, BN>, plan->reduce_blocks, 256, 0, stream, *p,
                           tiles_n, plan->full_tiles, tail_tiles, plan->tail_splits,
                           plan->tail_work);
}

/* One row of gemm_variants.h: tm x tn outputs per thread as RM x RN
 * quarters of 4 x 4, warps of (16 RM) x (32 RN), and with VEC the 16
 * transpose and load-width instantiations, else the 4 with scalar loads. */
template <int BM, int BN, int BK, int THREADS, int MINB, int TM, int TN, bool VEC>
static cudaError_t row(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                       cudaStream_t stream, int ta, int tb, int va, int vb, int *blocks)
{
    constexpr int RM = TM / 4, RN = TN / 4, WM = BM / (16 * RM), WN = BN / (32 * RN);
    static_assert(WM * WN * 32 == THREADS && WM * 16 * RM == BM && WN * 32 * RN == BN,
                  "the row's tile, threads and thread tile must agree");
    /* one case per instantiation (kept as laid out: clang-format mangles the macro) */
    /* clang-format off */
    switch (ta << 3 | tb << 2 | (VEC && va) << 1 | (VEC && vb)) {
#define CASE(k)                                                                                    \
    case k:                                                                                        \
        return config<RM, RN, WM, WN, BK, MINB, (k >> 3) & 1, (k >> 2) & 1, VEC && ((k >> 1) & 1),  \
                      VEC && (k & 1)>(p, plan, stream, blocks);
        CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
        CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
#undef CASE
    }
    /* clang-format on */
    return cudaErrorInvalidValue;
}

} // namespace

#define REGBLOCK_ROW(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, flags)  \
    GPUTILE__ROW_QUERY(id, bm, bn, bk, threads, per_sm, tm, tn, ((flags)&GPUTILE__GEMM_VEC) != 0) \
    GPUTILE__ROW_RUN(id)
GPUTILE__GEMM_REGBLOCK_ROWS(REGBLOCK_ROW)
#undef REGBLOCK_ROW

extern "C" cudaError_t gputile__gemm_regblock_blocks_per_sm(int variant, int ta, int tb, int va,
                                                            int vb, int *blocks)
{
    switch (variant) {
#define REGBLOCK_CASE(id, ...) \
    case GPUTILE__GEMM_V_##id: \
        return row_##id(NULL, NULL, NULL, ta, tb, va, vb, blocks);
        GPUTILE__GEMM_REGBLOCK_ROWS(REGBLOCK_CASE)
#undef REGBLOCK_CASE
    }
    return cudaErrorInvalidValue;
}
