/* SPDX-License-Identifier: MIT */
/*
 * gemm_async.cu: the cp.async-fed FP32 GEMM family (FFMA only), scheduled
 * like cuBLAS's sm_90 FFMA kernel (issue 17, "Kernels (FP32, FFMA)").
 *
 * Algorithm. Each block computes a BM x BN tile of C from slices of BK = 8
 * of k. Shared memory holds STAGES slices of op(A) and op(B), both k-major
 * (a[k][m], b[k][n]), filled by cp.async straight from global memory: no
 * register staging. An operand whose rows run along k (row-major A, B^T)
 * is transposed on the way in by 4-byte cp.async.ca, eight threads reading
 * one row's 32 bytes; an operand whose rows run along the tile (A^T, B) is
 * copied by 16-byte cp.async.cg where its rows are 16-byte aligned, else by
 * 4-byte copies, a warp's 32 along one row. Slice i + STAGES - 1 is in
 * flight while slice i is multiplied; one cp.async.wait_group and one
 * __syncthreads per slice.
 *
 * Edges stay out of the main loop. Along m and n a thread's copies past
 * the matrix are predicated off (what shared memory holds there feeds only
 * outputs that are never stored) and a 16-byte copy across the edge reads
 * only its inside bytes (the src-size operand zero-fills the rest), all
 * fixed per thread for the whole loop; along k the split's partial slice
 * is the first one (the residue), copied in the prologue with zero fill,
 * so every slice of the loop is whole. Copies for slices past the end are
 * predicated off (no branch); the loop's one branch is its back edge.
 * Loop counter and shared-memory offsets are 32-bit; only the global
 * pointers, advanced once per slice, are 64-bit.
 *
 * Threads and warps, as in gemm_regblock.cu: a thread owns (4 RM) x (4 RN)
 * of C as RM x RN quarters of 4 x 4, 16 rows and 32 columns apart; a warp's
 * threads stand 4 x 8 and cover (16 RM) x (32 RN); a block is WM x WN warps.
 * Per k a thread reads RM + RN float4 (LDS.128, one wavefront each) and does
 * 16 RM RN FFMAs. The fragments are double-buffered: k + 1's are read while
 * k's FFMAs run, and the next slice's first across the barrier, so each
 * LDS.128 can have a whole k step of FFMAs (64 or 128) to land. Each row of the
 * outer product runs opposite to the one before (serpentine): the b value
 * that ends a row starts the next, so consecutive FFMAs share a source
 * that the operand reuse cache supplies, which removes most three-source
 * register-bank conflicts (bench/sass_stats.sh counts them).
 *
 * Configurations: the ASYNC rows of gemm_variants.h: 128 x 128 (8 warps,
 * 8 x 8 per thread, two blocks per SM: at most 128 registers), 128 x 256
 * (8 warps, 16 x 8, one block per SM, like cuBLAS's 256 x 128 x 8) and
 * 64 x 128 (4 warps, 8 x 8, three blocks per SM: at four, 128 registers,
 * one transpose spilled). Shared memory:
 * STAGES x BK x (BM + BN + 8) floats, under the 48 KiB of static shared
 * memory for every row (4 stages: 33.8 KiB for 128 x 128, 25.6 KiB for
 * 64 x 128; 3 stages: 37.6 KiB for 128 x 256). The padding of 4 floats per
 * shared row keeps the transposing 4-byte copies free of bank conflicts
 * (8 k rows x 4 m per warp land in 32 banks) and rows 16-byte aligned.
 *
 * Split-K and the tail split: exactly as gemm_regblock.cu (blockIdx.z
 * takes a range of k; partial tiles to the workspace, reduced by
 * gemm_splitk.cu or gemm_tail_reduce_kernel here); lib/ plans them.
 *
 * Batches (issue 20), as gemm_regblock.cu: with p.batch > 0 blockIdx.y
 * picks the problem (gemm_batch.cuh); lib/ plans batches unsplit, without
 * tail, pack or clusters, at most 65535 problems per launch.
 *
 * Resources (CUDA 13.0, sm_90; `make ptxas-report`): no spills but one, 4
 * bytes in 128 x 64 at its 128-register bound with its splits summed in
 * clusters and A not 16-byte aligned (AUTO never clusters 128 x 64's
 * splits: lib/gemm_plan.c); 116-118 registers for 128 x 128, 128-152 for
 * 64 x 128, 198-218 for 128 x 256,
 * 93-105 for the two-warp 64 x 32 and 32 x 64 (0.9.0: where C is a few
 * dozen rows or columns, or small in a batch, as cuBLAS's 64 x 32 x 8).
 * The main loop's schedule: bench/sass_stats.sh (one branch, 5-12 64-bit
 * steps per slice, 589-626 instructions per 512 FFMAs).
 */
#include <cooperative_groups.h>

#include "kernels.h"
#include "epilogue.cuh"
#include "gemm_batch.cuh"
#include "grid.cuh"
#include "row_entries.cuh"

namespace cg = cooperative_groups;

namespace {

#define PAD 4 /* floats of padding per shared row */

/* cp.async of 4 bytes through L1 (.ca: the eight threads that read one
 * row's 32 bytes share its sector) or 16 bytes around it (.cg); `bytes`
 * of the source are read (0: none), the rest of the destination zeroed;
 * nothing at all when `on` is false (predicated, not branched). */
__device__ __forceinline__ void cp_async4(unsigned dst, const float *src, int bytes, bool on)
{
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\t"
                 "@p cp.async.ca.shared.global [%0], [%1], 4, %2;\n\t}\n" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"((int)on)
                 : "memory");
}
__device__ __forceinline__ void cp_async16(unsigned dst, const float *src, int bytes, bool on)
{
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\t"
                 "@p cp.async.cg.shared.global [%0], [%1], 16, %2;\n\t}\n" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"((int)on)
                 : "memory");
}
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Copies OUTER x BK slices of one operand into shared memory as S[k][outer]
 * (rows OUTER + PAD floats apart), one slice per call, in one of three ways.
 * K_CONTIG (the operand's rows run along k): single elements, thread t at
 * k = t % BK and outer = t / BK + v * THREADS / BK for its slots v (eight
 * threads read a row's 32 bytes; a warp's copies land in 32 banks). One
 * pointer, the slots a fixed stride apart; slots past the matrix copy
 * nothing: their shared rows feed only outputs that are never stored.
 * Straight with VEC (rows along the tile, 16-byte aligned): 4
 * outer-consecutive elements per slot, thread t at k = t / (THREADS / BK)
 * and outer = 4 (t % (THREADS / BK)) + v * 4 THREADS / BK, the slots
 * immediate offsets from one pointer; past the matrix nothing is copied,
 * and a 16-byte slot across its edge reads only what is inside (the
 * src-size operand), zero-filling the rest.
 * Straight without VEC (rows not 16-byte aligned): single elements, thread
 * t at outer = t % OUTER of rows k = t / OUTER + v THREADS / OUTER, so a
 * warp's copy is 32 consecutive floats of one row (4 or 5 sectors; four
 * outer-consecutive elements per thread made each copy touch 16 sectors a
 * quarter used, and ran 128 x 128 at 0.86 of its aligned speed).
 * Every copy that runs reads inside the matrix; along k, the first slice
 * zero-fills its rows past the split (read from its first row, inside). */
template <int OUTER, int BK, int THREADS, bool K_CONTIG, bool VEC>
struct async_loader {
    static constexpr bool ROWS = !K_CONTIG && !VEC;          /* straight, single elements */
    static constexpr int TPR = THREADS / BK;                 /* threads per k row (VEC) */
    static constexpr int RSTEP = ROWS ? THREADS / OUTER : 1; /* k rows between slots */
    static constexpr int VECS = K_CONTIG || ROWS ? OUTER * BK / THREADS : OUTER * BK / 4 / THREADS;
    static constexpr int STEP_O = K_CONTIG ? THREADS / BK : 4 * TPR; /* outer between slots */
    static_assert(THREADS % BK == 0 && VECS >= 1, "every thread copies whole slots");
    static_assert(ROWS       ? THREADS % OUTER == 0 && BK % RSTEP == 0
                  : K_CONTIG ? OUTER % (THREADS / BK) == 0
                             : (OUTER / 4) % TPR == 0,
                  "the slots tile the slice");

    const float *ptr; /* slot 0's first element of the next slice */
    int64_t ld;
    int inside[VECS]; /* VEC: elements of the slot inside the matrix (0..4) */
    int slots_in;     /* K_CONTIG: the slots inside the matrix (a prefix); ROWS: 0 or VECS */
    unsigned dst;     /* shared address of slot 0 in stage 0 */
    int q;            /* the thread's (first) k in the slice */

    __device__ __forceinline__ async_loader(const float *base, int64_t ld_, int64_t o0,
                                            int64_t n_outer, int64_t k0, unsigned smem, int tid)
    {
        ld = ld_;
        q = K_CONTIG ? tid % BK : ROWS ? tid / OUTER : tid / TPR;
        const int o = K_CONTIG ? tid / BK : ROWS ? tid % OUTER : tid % TPR * 4;
        dst = smem + (unsigned)(q * (OUTER + PAD) + o) * 4u;
        if (K_CONTIG) {
            ptr = base + (o0 + o) * ld + k0 + q;
            const int64_t left = n_outer - (o0 + o); /* rows from the thread's first on */
            slots_in = left <= 0 ? 0 : left >= OUTER ? VECS : (int)((left + STEP_O - 1) / STEP_O);
        } else if (ROWS) {
            ptr = base + (k0 + q) * ld + o0 + o;
            slots_in = o0 + o < n_outer ? VECS : 0;
        } else {
            ptr = base + (k0 + q) * ld + o0 + o;
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                const int64_t left = n_outer - (o0 + o + v * STEP_O);
                inside[v] = left <= 0 ? 0 : left >= 4 ? 4 : (int)left;
            }
        }
    }

    /* One slice into the stage at byte offset `stage`, then the pointer
     * moves to the next. Nothing when on is false. The first slice
     * (k_in > 0) has only k_in rows of k inside: the others are zero-filled
     * (read from the slice's first row, which is inside) and the pointer
     * moves k_in. */
    __device__ __forceinline__ void copy(unsigned stage, bool on, int k_in = 0)
    {
        const bool first = k_in > 0, kin = !first || q < k_in;
        if (K_CONTIG) {
            const float *src = kin ? ptr : ptr - q;
            const int64_t slot_stride = STEP_O * ld;
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                cp_async4(dst + stage + v * STEP_O * 4, src, kin ? 4 : 0, on && v < slots_in);
                src += slot_stride;
            }
            ptr += first ? k_in : BK;
        } else if (ROWS) {
            const int64_t row_stride = RSTEP * ld;
            const float *src = ptr;
#pragma unroll
            for (int v = 0; v < VECS; ++v) {
                const bool in = !first || q + v * RSTEP < k_in;
                cp_async4(dst + stage + v * RSTEP * (OUTER + PAD) * 4, in ? src : ptr - q * ld,
                          in ? 4 : 0, on && slots_in > 0);
                src += row_stride;
            }
            ptr += (first ? k_in : BK) * ld;
        } else {
            const float *src = kin ? ptr : ptr - q * ld;
#pragma unroll
            for (int v = 0; v < VECS; ++v) /* a slot across the edge reads only its inside part */
                cp_async16(dst + stage + v * STEP_O * 4, src + v * STEP_O, kin ? 4 * inside[v] : 0,
                           on && inside[v] > 0);
            ptr += (first ? k_in : BK) * ld;
        }
    }
};

template <int BM, int BN, int BK>
struct stage_t {
    float a[BK][BM + PAD];
    float b[BK][BN + PAD];
};

/* Quarters of a thread's rows (each 4 rows, 16 apart) that one round of
 * the cluster reduction stages at once: the most, dividing RM, whose
 * (16 WM) x BN floats per quarter fit in the pipeline's shared memory. */
__host__ __device__ constexpr int quarters_per_round(int rm, int wm, int bn, int smem_bytes)
{
    int q = rm;
    while (q > 1 && (rm % q != 0 || q * 16 * wm * bn * 4 > smem_bytes))
        --q;
    return q;
}

/* The split's partial tiles summed inside the cluster (the S blocks of one
 * tile, cluster rank = blockIdx.z = split), with no workspace and no
 * second launch. In rounds of QR quarters of the thread's rows: each block
 * stages those rows of its partial tile in its own shared memory; after a
 * cluster barrier each block takes every S-th float4 of the staged rows,
 * adds the S partials in order of rank (as gemm_splitk.cu adds in order of
 * z: the same bits) from the blocks' shared memory, and writes C = alpha
 * sum + beta C; a second barrier keeps every block's shared memory alive
 * (and unwritten) until all have read it. */
template <int RM, int RN, int WM, int BN, int THREADS, int SMEM_BYTES>
__device__ __forceinline__ void cluster_reduce(float (&acc)[4 * RM][4 * RN], float *staged,
                                               const gputile__gemm_args &p, int64_t m0, int64_t n0,
                                               int tm, int tn, bool vec_c)
{
#if __CUDA_ARCH__ >= 900
    constexpr int QR = quarters_per_round(RM, WM, BN, SMEM_BYTES);
    constexpr int ROWS = 16 * WM * QR, VECS = ROWS * BN / 4;
    static_assert(ROWS * BN * 4 <= SMEM_BYTES, "a round fits in the pipeline's shared memory");
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = (int)cluster.block_rank(), S = (int)cluster.num_blocks();
    const int wm = tm / (16 * RM), l = tm % 16; /* tm = wm 16 RM + (lane / 8) 4 */
    __syncthreads(); /* the main loop's last reads of shared memory are done */
#pragma unroll
    for (int q0 = 0; q0 < RM; q0 += QR) {
#pragma unroll
        for (int q = q0; q < q0 + QR; ++q)
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int rr = wm * 16 * QR + (q - q0) * 16 + l + i;
#pragma unroll
                for (int h = 0; h < RN; ++h)
                    *reinterpret_cast<float4 *>(&staged[rr * BN + tn + 32 * h]) =
                        make_float4(acc[4 * q + i][4 * h], acc[4 * q + i][4 * h + 1],
                                    acc[4 * q + i][4 * h + 2], acc[4 * q + i][4 * h + 3]);
            }
        cluster.sync();
        /* not unrolled (nor the loop over z): unrolled, the 128 x 64 tile's
         * kernel spilled 4 bytes (128 registers, its bound); with the loop
         * over z unrolled twice another instantiation did */
#pragma unroll 1
        for (int e = rank * THREADS + (int)threadIdx.x; e < VECS; e += S * THREADS) {
            float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 1
            for (int z = 0; z < S; ++z) {
                const float4 v = *reinterpret_cast<const float4 *>(
                    cluster.map_shared_rank(staged, (unsigned)z) + 4 * e);
                s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
            }
            const int rr = 4 * e / BN, cc = 4 * e % BN;
            const int w = rr / (16 * QR), in = rr % (16 * QR);
            const int64_t row = m0 + w * 16 * RM + (q0 + in / 16) * 16 + in % 16, col = n0 + cc;
            if (row >= p.m)
                continue;
            float v[4] = {p.alpha * s.x, p.alpha * s.y, p.alpha * s.z, p.alpha * s.w};
            gputile__store_c4(p.c + row * p.ldc + col, v, vec_c, p.n - col, p.beta != 0.0f, p.beta);
        }
        cluster.sync();
    }
#endif
}

/* CL: the split's blocks of a tile form a cluster and sum through shared
 * memory (cluster_reduce). A separate instantiation, not a run-time flag:
 * the flag's epilogue raised the unsplit 128 x 128 kernel from 116
 * registers to its bound of 128 and cost it 13% at 4096^3. */
template <int RM, int RN, int WM, int WN, int BK, int STAGES, int MINB, bool TA, bool TB, bool VA,
          bool VB, bool CL>
static __global__ void __launch_bounds__(WM *WN * 32, MINB)
    gemm_async_kernel(gputile__gemm_args p, int64_t tiles_n, int64_t k_per_split, float *work,
                      int64_t full_tiles, int tail_splits, int64_t tail_k, float *tail_work)
{
    constexpr int THREADS = WM * WN * 32, BM = WM * 16 * RM, BN = WN * 32 * RN;
    constexpr int TM = 4 * RM, TN = 4 * RN;
    typedef stage_t<BM, BN, BK> stage;
    constexpr int STAGE_BYTES = (int)sizeof(stage);
    static_assert(STAGE_BYTES % 16 == 0 && STAGES >= 2 && BK % 2 == 0, "stages stay aligned");
    __shared__ __align__(16) stage st[STAGES];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    if (p.batch > 0) /* a batch (lib/gemm_batched.c): problem blockIdx.y, never split */
        gputile__gemm_select_problem(p, blockIdx.y);
    /* the tile, and the split of k (the tail: as gemm_regblock.cu) */
    int64_t tile = blockIdx.x, z = blockIdx.z, kps = k_per_split;
    const bool tail = tail_splits > 1 && tile >= full_tiles;
    if (tail) {
        z = (tile - full_tiles) % tail_splits;
        tile = full_tiles + (tile - full_tiles) / tail_splits;
        kps = tail_k;
    }
    int64_t tile_m, tile_n;
    gputile__grouped_tile(tile, (p.m + BM - 1) / BM, tiles_n, &tile_m, &tile_n);
    const int64_t m0 = tile_m * BM, n0 = tile_n * BN;
    const int64_t k_begin = z * kps;
    const int64_t len = min(p.k, k_begin + kps) - k_begin; /* may be <= 0: a split with no k */
    const int slices = len > 0 ? (int)((len + BK - 1) / BK) : 0;
    const int first_k = len > 0 ? (int)(len - (int64_t)(slices - 1) * BK) : BK; /* 1..BK */

    const unsigned smem = (unsigned)__cvta_generic_to_shared(st);
    async_loader<BM, BK, THREADS, !TA, VA> la(p.a, p.lda, m0, p.m, k_begin,
                                              smem + (unsigned)offsetof(stage, a), tid);
    async_loader<BN, BK, THREADS, TB, VB> lb(p.b, p.ldb, n0, p.n, k_begin,
                                             smem + (unsigned)offsetof(stage, b), tid);

    /* Prologue: slices 0 .. STAGES - 2 in flight, slice 0 (the residue) first. */
    la.copy(0, slices > 0, first_k);
    lb.copy(0, slices > 0, first_k);
    cp_async_commit();
#pragma unroll
    for (int s = 1; s < STAGES - 1; ++s) {
        la.copy(s * STAGE_BYTES, s < slices);
        lb.copy(s * STAGE_BYTES, s < slices);
        cp_async_commit();
    }

    /* This thread's rows: tm + {0..3} + 16 r; columns: tn + {0..3} + 32 c. */
    const int tm = warp % WM * 16 * RM + lane / 8 * 4, tn = warp / WM * 32 * RN + lane % 8 * 4;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    /* Fragments: b double-buffered (k + 1's read while k's FFMAs run); a
     * double-buffered too with 8 x 8 per thread, while with 16 x 8 (ROLL)
     * each float4 of a is read again for k + 1 as soon as k's last FFMA
     * that needs it has issued: 16 registers fewer. (ptxas reorders: the
     * leads it keeps are bench/sass_stats.sh's.) */
    constexpr bool ROLL = RM > 2;
    float a[ROLL ? 1 : 2][TM], b[2][TN];
    auto smem_stage = [&](int stage_off) {
        return reinterpret_cast<const stage *>(reinterpret_cast<const char *>(st) + stage_off);
    };
    auto read_a = [&](int stage_off, int q, int f, int r) {
        *reinterpret_cast<float4 *>(&a[ROLL ? 0 : f][4 * r]) =
            *reinterpret_cast<const float4 *>(&smem_stage(stage_off)->a[q][tm + 16 * r]);
    };
    auto read_b = [&](int stage_off, int q, int f) {
#pragma unroll
        for (int c = 0; c < RN; ++c)
            *reinterpret_cast<float4 *>(&b[f][4 * c]) =
                *reinterpret_cast<const float4 *>(&smem_stage(stage_off)->b[q][tn + 32 * c]);
    };

    cp_async_wait<STAGES - 2>();
    __syncthreads();
    read_b(0, 0, 0);
#pragma unroll
    for (int r = 0; r < RM; ++r)
        read_a(0, 0, 0, r);

    /* Slice i (i = slices - left) is in stage `rs`; slice i + STAGES - 1
     * goes to stage `ws`, the one slice i - 1 used (every thread has read
     * it: they passed the barrier that followed). */
    int rs = 0, ws = (STAGES - 1) * STAGE_BYTES;
    for (int left = slices; left > 0; --left) {
        const bool more = left > STAGES - 1; /* slice i + STAGES - 1 exists */
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            /* the slice's copies at its first k (issued at two points, A's at
             * the first k and B's at the middle, their addresses stayed live
             * across the FFMAs between: 255 registers and spills at 16 x 8) */
            if (q == 0) {
                la.copy(ws, more);
                lb.copy(ws, more);
                cp_async_commit(); /* one group per slice, empty or not */
                ws = ws == (STAGES - 1) * STAGE_BYTES ? 0 : ws + STAGE_BYTES;
            }
            /* the next k's fragments: this slice's, or the next slice's first
             * once it has landed (this thread's copies, then everyone's) */
            int next_q = q + 1;
            if (q == BK - 1) {
                cp_async_wait<STAGES - 2>();
                __syncthreads();
                rs = rs == (STAGES - 1) * STAGE_BYTES ? 0 : rs + STAGE_BYTES;
                next_q = 0;
            }
            const int f = q % 2;
            read_b(rs, next_q, f ^ 1);
            if (!ROLL)
#pragma unroll
                for (int r = 0; r < RM; ++r)
                    read_a(rs, next_q, f ^ 1, r);
#pragma unroll
            for (int i = 0; i < TM; ++i) {
#pragma unroll
                for (int jj = 0; jj < TN; ++jj) { /* serpentine: odd rows run backwards */
                    const int j = i % 2 == 0 ? jj : TN - 1 - jj;
                    acc[i][j] = fmaf(a[ROLL ? 0 : f][i], b[f][j], acc[i][j]);
                }
                if (ROLL && i % 4 == 3)
                    read_a(rs, next_q, 0, i / 4);
            }
        }
    }
    cp_async_wait<0>(); /* nothing left in flight into shared memory at exit */

    /* Epilogue (as gemm_regblock.cu): C = alpha acc + beta C, or the raw
     * partial into the split's workspace slice (m x n) or a tail split's
     * (BM x BN at m0, n0, slot blockIdx.x - full_tiles); or, with the
     * split's blocks in one cluster, their sum through shared memory. */
    if constexpr (CL) {
        cluster_reduce<RM, RN, WM, BN, THREADS, STAGES * STAGE_BYTES>(
            acc, reinterpret_cast<float *>(st), p, m0, n0, tm, tn,
            (uintptr_t)p.c % 16 == 0 && p.ldc % 4 == 0);
        return;
    }
    const bool partial = gridDim.z > 1 || tail;
    float *c = tail      ? tail_work + (blockIdx.x - full_tiles) * (BM * BN) - (m0 * BN + n0)
               : partial ? work + blockIdx.z * p.m * p.n
                         : p.c;
    const int64_t ldc = tail ? BN : partial ? p.n : p.ldc;
    const bool vec_c =
        tail || (partial ? p.n % 4 == 0 : (uintptr_t)p.c % 16 == 0 && p.ldc % 4 == 0);
    if (!vec_c) { /* rows through shared memory (block-uniform: the barrier is safe) */
        static_assert(THREADS / 32 * 16 * 32 * 4 <= STAGES * STAGE_BYTES,
                      "a 16 x 32 quarter per warp fits in the pipeline's shared memory");
        __syncthreads(); /* every warp's last reads of the pipeline are done */
        const int64_t row0 = m0 + warp % WM * 16 * RM, col0 = n0 + warp / WM * 32 * RN;
        gputile__store_rows_staged<RM, RN>(
            acc, reinterpret_cast<float *>(st) + warp * 16 * 32, c + row0 * ldc + col0, ldc,
            p.m - row0, p.n - col0, partial ? 1.0f : p.alpha, !partial && p.beta != 0.0f, p.beta);
        return;
    }
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
static __global__ void gemm_async_tail_reduce_kernel(gputile__gemm_args p, int64_t tiles_n,
                                                     int64_t full_tiles, int64_t tail_tiles,
                                                     int splits, const float *__restrict__ work)
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

/* A launch of `grid` whose splits (blockIdx.z, `splits` of them) form one
 * cluster per tile; `attr` holds the cluster's shape for the config. */
static cudaLaunchConfig_t split_clusters(dim3 grid, int threads, int splits, cudaStream_t stream,
                                         cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = dim3((unsigned)threads);
    config.stream = stream;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = 1;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = (unsigned)splits;
    config.attrs = attr;
    config.numAttrs = 1;
    return config;
}

/* One instantiation: with `blocks`, how many of its blocks fit on an SM;
 * else the launch the plan describes (whole tiles, or the tail split and
 * its reduction). */
template <int RM, int RN, int WM, int WN, int BK, int STAGES, int MINB, bool TA, bool TB, bool VA,
          bool VB>
static cudaError_t config(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                          cudaStream_t stream, int *blocks)
{
    constexpr int THREADS = WM * WN * 32, BM = WM * 16 * RM, BN = WN * 32 * RN;
    const auto kernel = gemm_async_kernel<RM, RN, WM, WN, BK, STAGES, MINB, TA, TB, VA, VB, false>;
    if (blocks != NULL)
        return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, THREADS, 0);
    const int64_t tiles_n = (p->n + BN - 1) / BN, tiles_m = (p->m + BM - 1) / BM;
    const int64_t tiles = tiles_m * tiles_n;
    const dim3 grid((unsigned)tiles, p->batch > 0 ? (unsigned)p->batch : 1u,
                    (unsigned)plan->splits);
    if (plan->cluster) { /* the split's blocks of a tile in one cluster: no workspace */
        cudaLaunchAttribute attr;
        const cudaLaunchConfig_t config =
            split_clusters(grid, THREADS, plan->splits, stream, &attr);
        return cudaLaunchKernelEx(
            &config, gemm_async_kernel<RM, RN, WM, WN, BK, STAGES, MINB, TA, TB, VA, VB, true>, *p,
            tiles_n, plan->k_per_split, (float *)NULL, tiles, 0, (int64_t)0, (float *)NULL);
    }
    if (plan->tail_splits < 2) {
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
    return gputile__launch(gemm_async_tail_reduce_kernel<BM, BN>, plan->reduce_blocks, 256, 0,
                           stream, *p, tiles_n, plan->full_tiles, tail_tiles, plan->tail_splits,
                           plan->tail_work);
}

/* How many clusters of `cluster` blocks of one instantiation can be
 * resident at once (the GPU's wave of clustered blocks: clusters are
 * placed whole inside one GPC, which can leave slots idle). */
template <int RM, int RN, int WM, int WN, int BK, int STAGES, int MINB>
static cudaError_t max_clusters(int cluster, int *clusters)
{
    const auto kernel =
        gemm_async_kernel<RM, RN, WM, WN, BK, STAGES, MINB, false, false, false, false, true>;
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t config =
        split_clusters(dim3(1, 1, (unsigned)cluster), WM * WN * 32, cluster, NULL, &attr);
    return cudaOccupancyMaxActiveClusters(clusters, kernel, &config);
}

/* Stages per row: four where they fit in 48 KiB of static shared memory,
 * else three (cuBLAS's 256 x 128 x 8 kernel runs three). */
constexpr int stages_for(int bm, int bn, int bk)
{
    return 4 * bk * (bm + bn + 2 * PAD) * 4 <= 48 * 1024 ? 4 : 3;
}

/* One row of gemm_variants.h. 16-byte copies apply only to an operand
 * copied straight (A^T, B), so the four transposes take nine
 * instantiations: va only with ta, vb only without tb. */
template <int BM, int BN, int BK, int THREADS, int MINB, int TM, int TN>
static cudaError_t row(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                       cudaStream_t stream, int ta, int tb, int va, int vb, int *blocks)
{
    constexpr int RM = TM / 4, RN = TN / 4, WM = BM / (16 * RM), WN = BN / (32 * RN);
    constexpr int S = stages_for(BM, BN, BK);
    static_assert(WM * WN * 32 == THREADS && WM * 16 * RM == BM && WN * 32 * RN == BN,
                  "the row's tile, threads and thread tile must agree");
    if (p == NULL && plan != NULL) /* clusters of plan->splits blocks (NN) into *blocks */
        return max_clusters<RM, RN, WM, WN, BK, S, MINB>(plan->splits, blocks);
    va = ta && va;
    vb = !tb && vb;
    /* clang-format off */
    switch (ta << 3 | tb << 2 | va << 1 | vb) {
#define CASE(k)                                                                                  \
    case k:                                                                                      \
        return config<RM, RN, WM, WN, BK, S, MINB, (k >> 3) & 1, (k >> 2) & 1, (k >> 1) & 1,     \
                      k & 1>(p, plan, stream, blocks);
        CASE(0) CASE(1) CASE(4) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(14)
#undef CASE
    }
    /* clang-format on */
    return cudaErrorInvalidValue;
}

/* The plan's pre-pass (C = A B^T, where AUTO packs one operand so that
 * its copies run straight): B^T into B (k x n), or A into A^T (k x m), in
 * the workspace, rows ld_pack floats apart; *q: the product as it then
 * runs. */
static cudaError_t pack(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                        cudaStream_t stream, gputile__gemm_args *q)
{
    *q = *p;
    cudaError_t err = cudaSuccess;
    if (plan->pack_d) {
        err = gputile__gemm_pack_kmajor(p->b, p->ldb, 1, p->k, p->n, plan->pack_d_buf,
                                        plan->ld_pack, GPUTILE__PACK_COPY, stream);
        q->b = plan->pack_d_buf, q->ldb = plan->ld_pack, q->trans_b = 0;
    }
    if (err == cudaSuccess && plan->pack_r) {
        err = gputile__gemm_pack_kmajor(p->a, p->lda, 1, p->k, p->m, plan->pack_r_buf,
                                        plan->ld_pack, GPUTILE__PACK_COPY, stream);
        q->a = plan->pack_r_buf, q->lda = plan->ld_pack, q->trans_a = 1;
    }
    return err;
}

} // namespace

#define ASYNC_ROW(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, flags)     \
    GPUTILE__ROW_QUERY(id, bm, bn, bk, threads, per_sm, tm, tn)                                   \
    extern "C" cudaError_t gputile__gemm_run_##id(                                                \
        const gputile__gemm_args *p, const gputile__gemm_plan *plan, cudaStream_t stream)         \
    {                                                                                             \
        gputile__gemm_args q;                                                                     \
        const cudaError_t err = pack(p, plan, stream, &q);                                        \
        return err != cudaSuccess ? err                                                           \
                                  : row_##id(&q, plan, stream, q.trans_a, q.trans_b, plan->vec_a, \
                                             plan->vec_b, NULL);                                  \
    }
GPUTILE__GEMM_ASYNC_ROWS(ASYNC_ROW)
#undef ASYNC_ROW

extern "C" cudaError_t gputile__gemm_async_blocks_per_sm(int variant, int ta, int tb, int va,
                                                         int vb, int *blocks)
{
    switch (variant) {
#define ASYNC_CASE(id, ...)    \
    case GPUTILE__GEMM_V_##id: \
        return row_##id(NULL, NULL, NULL, ta, tb, va, vb, blocks);
        GPUTILE__GEMM_ASYNC_ROWS(ASYNC_CASE)
#undef ASYNC_CASE
    }
    return cudaErrorInvalidValue;
}

extern "C" cudaError_t gputile__gemm_async_clusters(int *yes)
{
    cudaFuncAttributes attr;
    const cudaError_t err = cudaFuncGetAttributes(
        &attr, gemm_async_kernel<2, 2, 4, 2, 8, 4, 2, false, false, false, false, true>);
    *yes = err == cudaSuccess && attr.ptxVersion >= 90 && attr.binaryVersion >= 90;
    return err;
}

extern "C" cudaError_t gputile__gemm_async_max_clusters(int variant, int cluster, int *clusters)
{
    gputile__gemm_plan plan = {};
    plan.splits = cluster;
    switch (variant) {
#define ASYNC_CASE(id, ...)    \
    case GPUTILE__GEMM_V_##id: \
        return row_##id(NULL, &plan, NULL, 0, 0, 0, 0, clusters);
        GPUTILE__GEMM_ASYNC_ROWS(ASYNC_CASE)
#undef ASYNC_CASE
    }
    return cudaErrorInvalidValue;
}
