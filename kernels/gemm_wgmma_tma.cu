/* SPDX-License-Identifier: MIT */
/*
 * gemm_wgmma_tma.cu: GEMM on Hopper's tensor cores fed by the tensor memory
 * accelerator (sm_90a only): what GPUTILE_ALGO_WGMMA_128X256 runs in
 * GPUTILE_PRECISION_TF32 and GPUTILE_ALGO_WGMMA_128X128 in
 * GPUTILE_PRECISION_FP32_3XTF32.
 *
 * Algorithm. The kernel computes D = R D'^T, D being C or C^T (see run()),
 * one BM x BN tile per block, or tile after tile (ROUND_LOOP, ROUND_WIDE)
 * (TF32: 128 x 256, or 128 x 128 where D' is read in place, and 128 x 256
 * so for batches; 3xTF32: 128 x 128; see the modes below) over k slices
 * of BK = 32 (one 128-byte row of fp32 per operand row, the span of the
 * 128-byte swizzle).
 * Warp-specialised, 384 threads:
 * - warpgroup 0, the producer (setmaxnreg 40, or PREP_REGS where it
 *   prepares D'): one thread issues the TMA loads of a slice (R: 128 x
 *   32, D': BN x 32, and with 3xTF32's split_d D''s small parts) into a
 *   ring of 4 stages of 48 KB (TF32_ROUND: 6 of 34 KB; ROUND_LOOP: 4;
 *   ROUND_WIDE: 4 of 50 KB);
 *   the stage's "full" mbarrier counts their bytes; it waits on the
 *   stage's "empty" mbarrier before reusing it. With 3xTF32 (unless
 *   split_d) its warps 1-3 then split D' in shared memory (below) and
 *   arrive on the stage's "ready" mbarrier.
 * - warpgroups 1 and 2, the consumers (setmaxnreg 232, or 216): each owns
 *   64 rows of the tile and its 64 x BN accumulator in registers. Per
 *   slice: wait "full", wait until the previous slice's group is done and
 *   release its stage (each consumer warp arrives on "empty", 8 arrivals)
 *   (where warps 1-3 prepare D': release first, then wait "full" and
 *   "ready"), load R's fragment from the swizzled stage into registers
 *   (split with 3xTF32), issue the wgmma m64nBNk8 .tf32 (A from
 *   registers, B through a descriptor) and commit. While one warpgroup
 *   loads its fragment, the other's wgmmas run.
 * CGMA: a TF32 slice moves 12288 floats (48 KB) for 128 x 256 x 32 FMAs, 85
 * FMAs per float loaded; at the tensor cores' ~1024 TF32 FMAs per SM and
 * clock that is 48 bytes per SM and clock from L2. 3xTF32: 8192 floats for
 * 3 x 128 x 128 x 32 tensor-core FMAs, 192 per float.
 *
 * Operands. TF32 wgmma reads K-major operands from shared memory, except
 * that A may come from registers in any order: so R (op(A), or op(B)^T
 * when swapped) is read in place by TMA whether stored K-major or MN-major
 * (boxes of 32 x 32, transposed on the way to registers), and D' must be
 * K-major. The tensor cores read an fp32 bit pattern as tf32 by dropping
 * its low 13 mantissa bits, a truncation that measured 2.7x cuBLAS TF32's
 * error (6.9e-4 against 2.6e-4 at 4096^3 on the H100). TF32 encodes its
 * maps of R and D' as TFLOAT32, and the TMA rounds every float to nearest
 * (ties to even, cuBLAS TF32's rounding) on its way to shared memory: no
 * instruction of the kernel rounds. (Before, the consumers rounded R in
 * registers and the producer's warps 1-3 rounded D' in shared memory, or
 * a pre-pass did: TF32 batches ran at 0.68-0.86 of cuBLAS TF32, 0.92-1.02
 * with that rounding left out; H200, 2026-12-02.) D' goes through the
 * pre-pass gputile__gemm_pack_kmajor() only where it is not K-major and
 * addressable (transposed there, its time part of the call).
 *
 * 3xTF32 splits each input x into big = tf32(x) and small = tf32(x - big)
 * on the fly and adds small(R) big(D') + big(R) small(D') + big(R) big(D'):
 * R in registers (big rounded to nearest); D' in shared memory by the
 * producer's warps 1-3, which write small = tf32(x - trunc(x)) beside each
 * landed D' tile, big being x as the tensor cores read it (truncated; the
 * remainder carries what truncation drops, so about 21 of the 24 bits take
 * part either way). D' is read in place when stored K-major and aligned,
 * so 3xTF32 of row-major A and B needs no pre-pass (computed as C^T),
 * unless lib/ has the pre-pass split D' (plan->split_d: where m' is large
 * enough to pay for 12 bytes an element of D' through DRAM): then TMA
 * loads both parts and warps 1-3 idle. The
 * tensor cores' own accumulation truncates, so each slice's products are
 * accumulated apart and added to FP32 totals in registers (the
 * promotion); without it the error grew with k to 30x FP32's.
 *
 * Edges. TMA fills the parts of a box outside the matrix with zeros, so
 * partial tiles along m, n and k need no predication in the main loop;
 * the epilogue checks bounds.
 *
 * Permuted rows. TMA needs a 16-byte aligned start and row pitch, and a
 * box's first float 16-byte aligned too (else the load is an illegal
 * instruction: H200, 2026-11-29), which a matrix with a row stride not a
 * multiple of 4 floats (or a view that starts off a 16-byte boundary)
 * lacks; before, such an operand was packed by the pre-pass (8 bytes of
 * DRAM traffic a float). A K-major R whose rows TMA cannot address is
 * instead read in place as 4 classes of rows, row i in class i % 4: class
 * q's rows lie 4 ld floats apart (a multiple of 16 bytes), and its map
 * starts at its first row rounded down to 16 bytes, a_shift[q] floats
 * before it. A slice's box of a class starts at the aligned k0 and is
 * PERM_LD = 36 floats wide, unswizzled (the k0 + 32 + shift it must reach
 * can pass k0 + 32); the consumers read k from the shift (the floats before
 * it, the previous row's, are never used). A tile's 128 rows from r0 (a
 * multiple of 4) arrive as 4 boxes of 32: shared row 32 q + j holds row
 * r0 + 4 j + q. The tensor cores multiply the tile in that order, so
 * accumulator row p belongs to tile row 4 (p % 32) + p / 32, and the
 * epilogue goes through the staged store, which places each value at its
 * row. (D' goes to the tensor cores through a descriptor, which needs the
 * swizzled K-major layout at k0: it is packed where not addressable.)
 *
 * Split-K: blockIdx.z (ROUND_LOOP: the work item's split) takes a
 * contiguous range of k, a multiple of BK;
 * the raw partial tiles go to lib/'s workspace and lib/ then launches
 * gputile__gemm_splitk_reduce() (gemm_splitk.cu), which adds them in order.
 *
 * Batches (issue 20): the maps are 3-D, a strided batch's problems their
 * third dimension (one problem: a batch of one), and blockIdx.y (ROUND_LOOP:
 * the work item's problem) picks the problem: its boxes come from that
 * matrix of each map, zero-filled at its own edges, and its C is that many
 * batch strides on. lib/ runs
 * batches unsplit and without pre-pass (operands read in place: 3xTF32 and
 * TF32_ROUND of every transpose but A^T B, 16-byte aligned rows and batch
 * strides).
 */
#include <cuda.h> /* CUtensorMap and its enums (types only: no libcuda link) */

#include "kernels.h"
#include "driver_entry.h"
#include "grid.cuh"
#include "tf32_split.cuh"
#include "tma_pipeline.cuh"
#include "wgmma_tf32.cuh"

namespace {

constexpr int BM = 128, BK = 32, MAX_STAGES = 6, THREADS = 384;
/* The producer warpgroup's registers where its warps 1-3 prepare D': its
 * loads all in flight; the consumers keep 216 (no spills), 128 x 72 + 256
 * x 216 = 384 x 168. Without preparation 40 (the consumers' 232 hold
 * 128 x 256 TF32 tiles: 216 ran them 2% slower). */
constexpr int PREP_REGS = 72;
/* __launch_bounds__(384, 1): 65,536 registers over 384 threads, 168 each
 * (a multiple of 8); setmaxnreg moves them between warpgroups within that
 * total, so the consumers get what the producer leaves */
constexpr int LAUNCH_REGS = 168,
              CONSUMER_PREP_REGS = (THREADS * LAUNCH_REGS - 128 * PREP_REGS) / 256;
static_assert(CONSUMER_PREP_REGS % 8 == 0 && CONSUMER_PREP_REGS <= 232, "setmaxnreg's steps");
/* Permuted rows: a box of R holds 32 rows of PERM_LD floats (BK and the 4
 * its start may lie before them), unswizzled; PERM_BOX bytes */
constexpr int PERM_LD = BK + 4, PERM_BOX = 32 * PERM_LD * 4;

/* What the kernel computes, and how D' reaches the tensor cores (TF32:
 * through TFLOAT32 maps, rounded by the TMA):
 * TF32_PACKED  TF32 on 128 x 256 tiles, a tile per block;
 * SPLIT3       3xTF32 on 128 x 128 tiles (the promotion's second
 *              accumulator fits beside 64 x 128 only), D' split in shared
 *              memory by the producer's warps 1-3;
 * TF32_ROUND   TF32 on 128 x 128 tiles (batches: 128 x 256 tiles would
 *              leave half of a 128-wide problem's tile empty), a tile per
 *              block;
 * ROUND_LOOP   the same, each block walking tile after tile
 *              (GPUTILE__GEMM_TILE_LOOP): where the tiles outnumber the
 *              plan's grid; C through the TMA from a room of its own
 *              where C is overwritten and its map can be encoded (the
 *              stores then run while the consumers start the next tile:
 *              H200, batches 1.03-1.19x the staged store), else staged;
 * ROUND_WIDE   TF32 on 128 x 256 tiles, walking the tiles, C stored
 *              from the fragments (the staged tile, 135 KB, would
 *              leave the ring 1 stage; whole tiles of C^T that C does
 *              not blend into without a test per element: H200,
 *              1.12-1.13x):
 *              batches whose D' is more than 128 wide. A slice moves 48
 *              KB from L2 for 2^20 FMAs where 128 x 128 moves 32 KB for
 *              half as many.
 * ROUND_TMA    ROUND_LOOP where C goes through the TMA, R is not
 *              permuted and a tile has more than 4 slices: A's room 16
 *              KB, C's 64 KB (the TMA's boxes, no staged store), so the
 *              ring holds 5 stages of 32 KB. */
enum { TF32_PACKED, SPLIT3, TF32_ROUND, ROUND_LOOP, ROUND_WIDE, ROUND_TMA };

/* A stage holds A (128 x 32; 18 KB of room for the permuted boxes) then
 * B (BN x 32), and with SPLIT3 B's small parts (BN x 32): 50 KB (34 KB for
 * TF32_ROUND), each part 1024-byte aligned. */
template <int MODE>
struct shape {
    static constexpr bool SPLIT = MODE == SPLIT3;
    static constexpr int BN = MODE == TF32_PACKED || MODE == ROUND_WIDE ? 256 : 128;
    static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BN * BK * 4;
    /* A's room: its 4 boxes of 32 rows of PERM_LD floats when permuted
     * (ROUND_TMA never is) */
    static constexpr int A_SLOT = MODE == ROUND_TMA ? A_BYTES : BM * PERM_LD * 4;
    static constexpr int STAGE_BYTES = A_SLOT + (SPLIT ? 2 : 1) * B_BYTES;
    /* ROUND_LOOP walks the tiles: a grid of one block per SM takes tile
     * after tile, and its producer loads the next tile's slices while the
     * consumers store C. TF32 batches have short k (8 slices at 256^3),
     * and one tile per block left the SM's loads idle from the last slice
     * through the epilogue, the block's exit and the next block's first
     * TMA (H200, batches of 256^3 and 512^3: 0.70 and 0.58 of cuBLAS TF32
     * a tile per block, 0.79 and 0.63 walking). C then needs room of its
     * own beside the ring (the staged store's tile, 68 KB), so that ring
     * has 4 stages of 34 KB; TF32_ROUND keeps 6 (C staged in the ring):
     * with 4, single products of one wave and long k ran 4-9% slower. */
    static constexpr bool LOOP = MODE == ROUND_LOOP || MODE == ROUND_WIDE || MODE == ROUND_TMA;
    static constexpr bool DIRECT_C = MODE == ROUND_WIDE; /* C never staged */
    /* C's own room: TMA stores from it (ROUND_TMA: only they) */
    static constexpr bool TMA_C = MODE == ROUND_LOOP || MODE == ROUND_TMA;
    static constexpr int STAGES = MODE == TF32_ROUND ? MAX_STAGES : MODE == ROUND_TMA ? 5 : 4;
    static constexpr int C_BYTES = MODE == ROUND_LOOP  ? BM * (BN + 8) * 4
                                   : MODE == ROUND_TMA ? BM * BN * 4
                                                       : 0;
    /* the ring (and C's room), plus 1 KB to align it to 1024 bytes (the
     * swizzle's period) */
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_BYTES + C_BYTES + 1024;
};

struct tma_params {
    /* R (m' x k: K-major, boxes 32 (k) x 128, or MN-major, 32 x 32) and
     * D' (n' x k, K-major, boxes 32 (k) x BN); see run(). R permuted (rows
     * TMA cannot address: see "Permuted rows" above): a is class 0's map,
     * a_rest classes 1-3's, boxes of PERM_LD (k) x 32. SPLIT3 with
     * split_d: b holds D's big parts and b_small its small ones, both
     * written by the pre-pass. */
    CUtensorMap a, b, a_rest[3], b_small;
    /* C (C^T when swapped), boxes 32 x 128, 128-byte swizzle: ROUND_LOOP
     * with tma_c (see run()) stores its tiles through it */
    CUtensorMap c_map;
    int tma_c;
    int split_d;
    int32_t a_shift[4]; /* permuted: where k = 0 lies in each class's box */
    int perm_r;
    int staged_c; /* the plan's: C through the staged store wherever it is written */
    int64_t m, n, k, tiles_n, k_per_split;
    int64_t batch; /* problems (a strided batch's; 1: one product) */
    int splits;    /* k split this many ways */
    float alpha, beta;
    float *c;
    int64_t ldc;
    int64_t stride_c; /* a batch: problem blockIdx.y's C is c + blockIdx.y stride_c */
    float *work;      /* split-K partials, gridDim.z > 1 only */
};

/* 3xTF32's split of D' (the descriptor operand) in shared memory: the
 * tensor cores read a float's top 19 bits (big: x truncated to tf32), so
 * the remainder x - big is exact in fp32 and goes, rounded to tf32, to
 * `small`, at the same offset (the swizzle is the same;
 * gputile__tf32_small). Three warps do this while the consumers work, and
 * at the first version's 21 instructions per element (cvt.rna emulated, a
 * NaN flag per element) they could not keep up: 3xTF32 ran at 0.55x its
 * speed without the split (H200, ncu: consumers waiting on "ready"). Now
 * 5 per element, integer rounding, one test per tile for the rare
 * non-finite values (a sum of |x|), and all loads in flight
 * (gputile__split_b); the careful path (split_nonfinite): infinities get
 * a zero remainder, and a NaN is rewritten as one whose top bits say so.
 * Where the plan has the pre-pass split D' (split_d), both parts arrive by
 * TMA and these warps idle. */
static __device__ __forceinline__ void split_nonfinite(float4 *big, float4 *small, float4 x)
{
    auto sm = gputile__tf32_small_any;
    auto bg = gputile__tf32_big_any;
    *small = make_float4(sm(x.x), sm(x.y), sm(x.z), sm(x.w));
    *big = make_float4(bg(x.x), bg(x.y), bg(x.z), bg(x.w));
}

/* 3xTF32's split of this thread's R fragment (KS x 4 floats) into big =
 * x rounded to tf32 and small = x - big (exact) rounded to tf32, both to
 * nearest, ties away (as cvt.rna, which sm_90 runs as ~4 instructions and
 * a select per element; with isfinite tests the split took 258
 * instructions a warp and slice, on the consumers' path between their
 * wgmma groups: H200, ncu). Here 2 integer operations a rounding, one
 * subtraction, and a sum of |x| that stays below the first value that
 * rounds to infinity only when every element is finite and rounds to a
 * finite big (an overflowing sum just takes the careful path); else the
 * careful path: infinities and NaN keep a zero small part. */
template <int KS>
static __device__ __forceinline__ void split_r(const float (&x)[KS][4], uint32_t (&big)[KS][4],
                                               uint32_t (&small)[KS][4])
{
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int ks = 0; ks < KS; ++ks)
#pragma unroll
        for (int h = 0; h < 4; ++h) {
            sum[h] += fabsf(x[ks][h]);
            const float b = gputile__tf32_round(x[ks][h]);
            big[ks][h] = __float_as_uint(b);
            small[ks][h] = __float_as_uint(gputile__tf32_round(x[ks][h] - b));
        }
    /* 0x7f7ff000: half way between tf32's largest finite value and 2^128 */
    if (!((sum[0] + sum[1]) + (sum[2] + sum[3]) < __uint_as_float(0x7f7ff000u)))
#pragma unroll
        for (int ks = 0; ks < KS; ++ks)
#pragma unroll
            for (int h = 0; h < 4; ++h) {
                big[ks][h] = gputile__to_tf32_bits(x[ks][h]);
                const float b = __uint_as_float(big[ks][h]);
                small[ks][h] = isfinite(b) ? gputile__to_tf32_bits(x[ks][h] - b) : 0u;
            }
}

/* 3xTF32: the producer's warps 1-3 on a landed tile of D', N float4s
 * from `first` in steps of STEP, all loads in flight, one test for the
 * rare non-finite values: x's small part to `small` at the same offset
 * (the swizzle is the same). */
template <int N, int STEP>
static __device__ __forceinline__ void gputile__split_b(float4 *big, float4 *small, int first)
{
    /* every load of the tile in flight at once (11 float4s a thread for
     * 128 x 32 floats over 3 warps; 4 at a time, before: 3xTF32 at 4096^3
     * 2.18 -> 2.30x cuBLAS FP32, H200), in the producer's PREP_REGS */
    constexpr int J = (N + STEP - 1) / STEP;
    float4 x[J];
#pragma unroll
    for (int j = 0; j < J; ++j) {
        const int i = first + STEP * j;
        x[j] = i < N ? big[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    /* a finite sum of |x|: every element finite (one add each; an
     * overflowing sum takes the careful path, as exact) */
    float sum[2] = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < J; ++j)
        sum[j % 2] += (fabsf(x[j].x) + fabsf(x[j].y)) + (fabsf(x[j].z) + fabsf(x[j].w));
    const bool finite = sum[0] + sum[1] < INFINITY;
#pragma unroll
    for (int j = 0; j < J; ++j) {
        const int i = first + STEP * j;
        if (i >= N)
            continue;
        if (finite)
            small[i] = make_float4(gputile__tf32_small(x[j].x), gputile__tf32_small(x[j].y),
                                   gputile__tf32_small(x[j].z), gputile__tf32_small(x[j].w));
        else
            split_nonfinite(&big[i], &small[i], x[j]);
    }
}

/* R_MN: the register operand's tiles are MN-major (its rows contiguous
 * along m', k in rows of the stored matrix: A^T stored, or row-major B
 * when swapped), loaded as 4 boxes of 32 (m') x 32 (k), sub-tile q holding
 * rows 32 q .. 32 q + 31; else K-major, one box of 32 (k) x 128.
 * SWAP: the kernel computes C^T (m' = n, n' = m): its epilogue stores
 * transposed. */
template <int MODE, bool R_MN, bool SWAP>
static __global__ void __launch_bounds__(THREADS, 1)
    gemm_tma_kernel(const __grid_constant__ tma_params w)
{
    using S = shape<MODE>;
    constexpr bool SPLIT = S::SPLIT;
    constexpr int BN = S::BN, NACC = BN / 2, STAGES = S::STAGES;
    static_assert(S::DIRECT_C || MODE == ROUND_TMA ||
                      (SWAP ? BN * (BM + 4) : BM * (BN + 8)) * 4 <=
                          (S::LOOP ? S::C_BYTES : STAGES * S::STAGE_BYTES),
                  "the staged epilogue's tile fits in its room");
    extern __shared__ uint8_t smem_raw[];
    __shared__ __align__(8) uint64_t full[MAX_STAGES], empty[MAX_STAGES], ready[MAX_STAGES];
    uint8_t *ring = smem_raw + ((1024 - gputile__smem_addr(smem_raw) % 1024) % 1024);
    /* the staged store's tile: after the ring where the producer runs
     * ahead into the next tile (LOOP), else in the ring, done with by then */
    float *c_tile = reinterpret_cast<float *>(S::LOOP ? ring + STAGES * S::STAGE_BYTES : ring);

    const int tid = threadIdx.x, wg = tid / 128;
    /* The work list: (tile, problem, split), the tile fastest. LOOP: block
     * b takes items b, b + gridDim.x, ...; else the block's own item, its
     * tile, problem and split blockIdx.x, y and z. Every role walks the
     * list the same way and counts its slices in `seq` across tiles, which
     * picks the stage (seq % STAGES) and the mbarriers' phase. */
    const int64_t tiles_m = (w.m + BM - 1) / BM, tiles = tiles_m * w.tiles_n;
    const int64_t items = S::LOOP ? tiles * w.batch * w.splits : 1;
    const int64_t first = S::LOOP ? (int64_t)blockIdx.x : 0, step = S::LOOP ? gridDim.x : 1;
    struct item {
        int64_t m0, n0, k_begin;
        int32_t z; /* the problem */
        int split, slices;
    };
    auto item_at = [&](int64_t i) {
        int64_t x = blockIdx.x, y = blockIdx.y, split = blockIdx.z;
        if (S::LOOP) {
            x = i % tiles;
            y = i / tiles % w.batch;
            split = i / tiles / w.batch;
        }
        int64_t tile_m, tile_n;
        gputile__grouped_tile(x, tiles_m, w.tiles_n, &tile_m, &tile_n);
        item job;
        job.m0 = tile_m * BM, job.n0 = tile_n * BN;
        job.z = (int32_t)y, job.split = (int)split;
        job.k_begin = split * w.k_per_split;
        const int64_t k_end = min(w.k, job.k_begin + w.k_per_split);
        job.slices = k_end > job.k_begin ? (int)((k_end - job.k_begin + BK - 1) / BK) : 0;
        return job;
    };
    const bool split_d = SPLIT && w.split_d; /* D' split by the pre-pass: no "ready" */

    if (tid == 0) {
        gputile__tma_prefetch_map(&w.a);
        gputile__tma_prefetch_map(&w.b);
        if (split_d)
            gputile__tma_prefetch_map(&w.b_small);
        for (int q = 0; q < 3 && w.perm_r; ++q)
            gputile__tma_prefetch_map(&w.a_rest[q]);
        if (S::TMA_C && w.tma_c)
            gputile__tma_prefetch_map(&w.c_map);
        for (int s = 0; s < STAGES; ++s) {
            gputile__mbar_init(&full[s], 1);
            gputile__mbar_init(&empty[s], 8); /* one arrival per consumer warp */
            gputile__mbar_init(&ready[s], 3); /* one per splitting warp (3xTF32) */
        }
        gputile__mbar_fence_init();
    }
    __syncthreads();

    if (wg == 0) {                                         /* producer */
        gputile__setmaxnreg_dec<SPLIT ? PREP_REGS : 40>(); /* TF32: the TMA rounds */
        if (tid == 0) {
            uint32_t seq = 0;
            for (int64_t wi = first; wi < items; wi += step) {
                const item job = item_at(wi);
                const int64_t m0 = job.m0, n0 = job.n0;
                for (int it = 0; it < job.slices; ++it, ++seq) {
                    const int s = seq % STAGES;
                    if (seq >= STAGES) /* the consumers released its last use */
                        gputile__mbar_wait(&empty[s], (seq / STAGES - 1) & 1);
                    uint8_t *stage = ring + s * S::STAGE_BYTES;
                    const int32_t kx = (int32_t)(job.k_begin + (int64_t)it * BK), z = job.z;
                    gputile__mbar_arrive_expect_tx(&full[s],
                                                   (w.perm_r ? 4 * PERM_BOX : S::A_BYTES) +
                                                       (split_d ? 2 : 1) * S::B_BYTES);
                    if (R_MN)
                        for (int q = 0; q < BM / 32; ++q)
                            gputile__tma_load_3d(stage + q * 4096, &w.a, (int32_t)(m0 + 32 * q), kx,
                                                 z, &full[s]);
                    else if (w.perm_r) /* class q's rows m0 / 4 .. + 31 */
                        for (int q = 0; q < 4; ++q)
                            gputile__tma_load_3d(stage + q * PERM_BOX, q ? &w.a_rest[q - 1] : &w.a,
                                                 kx, (int32_t)(m0 / 4), z, &full[s]);
                    else
                        gputile__tma_load_3d(stage, &w.a, kx, (int32_t)m0, z, &full[s]);
                    gputile__tma_load_3d(stage + S::A_SLOT, &w.b, kx, (int32_t)n0, z, &full[s]);
                    if (split_d)
                        gputile__tma_load_3d(stage + S::A_SLOT + S::B_BYTES, &w.b_small, kx,
                                             (int32_t)n0, z, &full[s]);
                }
            }
        } else if (SPLIT && !split_d && tid >= 32) { /* warps 1-3 split D' as it lands */
            uint32_t seq = 0;
            for (int64_t wi = first; wi < items; wi += step) {
                const int slices = item_at(wi).slices;
                for (int it = 0; it < slices; ++it, ++seq) {
                    const int s = seq % STAGES;
                    gputile__mbar_wait(&full[s], (seq / STAGES) & 1);
                    uint8_t *stage = ring + s * S::STAGE_BYTES;
                    /* D' in parts of 128 rows, each part's loads all in
                     * flight within PREP_REGS */
                    float4 *b = reinterpret_cast<float4 *>(stage + S::A_SLOT);
                    constexpr int ROWS4 = 128 * BK / 4, PARTS = S::B_BYTES / 16 / ROWS4;
#pragma unroll
                    for (int part = 0; part < PARTS; ++part)
                        gputile__split_b<ROWS4, 96>(
                            b + part * ROWS4,
                            reinterpret_cast<float4 *>(stage + S::A_SLOT + S::B_BYTES) +
                                part * ROWS4,
                            tid - 32);
                    gputile__fence_proxy_async(); /* for the consumers' wgmmas */
                    __syncwarp();
                    if (tid % 32 == 0)
                        gputile__mbar_arrive(&ready[s]);
                }
            }
        }
        return;
    }

    /* consumers */
    gputile__setmaxnreg_inc<SPLIT ? CONSUMER_PREP_REGS : 232>();
    const int cw = wg - 1; /* rows 64 cw .. 64 cw + 63 of the tile */
    /* This thread's A fragment in a stage (wgmma_tf32.cuh): rows r and r +
     * 8, k = 8 ks + t and + 4, r = 64 cw + 16 warp + g.
     * K-major tile: byte (r, k) is r 128 + 16 ((k / 4) ^ (r % 8)) + 4 (k %
     * 4), and r % 8 = g: the 32 lanes of a load hit 32 different banks.
     * MN-major: byte (r, k) is 4096 (r / 32) + k 128 + 16 ((r % 32 / 4) ^
     * (k % 8)) + 4 (r % 4); r and r + 8 share the sub-tile, and two lanes
     * share each bank (g and g + 4 with t and t ^ 1). */
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    const int r0 = cw * 64 + (tid % 128) / 32 * 16 + g;
    const int mn_base = r0 / 32 * 4096 + 4 * (r0 % 4), mn_chunk = r0 % 32 / 4;
    /* permuted: shared row r0 of box r0 / 32, k from the class's shift;
     * PERM_LD = 36 words a row, so the 8 rows x 4 k of a load hit 32 banks */
    const int perm_row =
        r0 / 32 * PERM_BOX + r0 % 32 * PERM_LD * 4 + 4 * (w.perm_r ? w.a_shift[r0 / 32] : 0);
    /* the byte of the fragment's value h: 8 rows down (bit 0), 4 k further
     * (bit 1) */
    auto a_at = [&](int ks, int h) {
        const int k = 8 * ks + t + 4 * (h >> 1);
        if (!R_MN && w.perm_r)
            return perm_row + (h & 1) * 8 * PERM_LD * 4 + 4 * k;
        if (!R_MN)
            return r0 * 128 + (h & 1) * 8 * 128 + 16 * ((k / 4) ^ g) + 4 * (k % 4);
        return mn_base + k * 128 + 16 * ((mn_chunk + 2 * (h & 1)) ^ (k % 8));
    };
    /* wgmma reads A's registers asynchronously, until a wait_group that
     * covers it, and ptxas serialises every wgmma when any instruction
     * writes a wgmma's register operand while a group is pending: so each
     * slice first waits for the previous one's group (the other consumer
     * warpgroup's wgmmas keep the tensor cores busy meanwhile), releases
     * its stage, then loads A (TF32: rounded by the TMA) or splits it.
     * 3xTF32 adds the previous slice's products to `total` there (the
     * promotion). */
    uint32_t seq = 0;
    for (int64_t wi = first; wi < items; wi += step) {
        const item job = item_at(wi);
        float acc[NACC], total[SPLIT ? NACC : 1];
#pragma unroll
        for (int i = 0; i < NACC; ++i)
            acc[i] = 0.0f;
#pragma unroll
        for (int i = 0; i < (SPLIT ? NACC : 1); ++i)
            total[i] = 0.0f;
        for (int it = 0; it < job.slices; ++it, ++seq) {
            const int s = seq % STAGES;
            const uint32_t phase = (seq / STAGES) & 1;
            /* Where D' is split in shared memory, the previous slice's stage is
         * released before this one is awaited, so that the producer refills
         * it the sooner (3xTF32 at 4096^3 waited on "ready" with all 4
         * stages taken); TF32_PACKED's 128 x 256 tiles awaited "full"
         * first ran 5-8% faster at 2048^3-8192^3, and so did 3xTF32 with
         * D' split by the pre-pass, 1-2.5% (H200). */
            if (!SPLIT || split_d) {
                gputile__mbar_wait(&full[s], phase);
            }
            gputile__wgmma_wait_acc<0, NACC>(acc);
            if (SPLIT && it > 0)
#pragma unroll
                for (int i = 0; i < NACC; ++i)
                    total[i] += acc[i];
            if (it > 0 && tid % 32 == 0)
                gputile__mbar_arrive(&empty[(seq - 1) % STAGES]);
            if (SPLIT && !split_d) {
                gputile__mbar_wait(&full[s], phase);
                gputile__mbar_wait(&ready[s], phase);
            }
            const uint8_t *stage = ring + s * S::STAGE_BYTES;
            const uint64_t db = gputile__wgmma_desc_sw128(stage + S::A_SLOT);
            const uint64_t db_small =
                SPLIT ? gputile__wgmma_desc_sw128(stage + S::A_SLOT + S::B_BYTES) : 0;
            uint32_t a[BK / 8][4], a_small[SPLIT ? BK / 8 : 1][4];
            if constexpr (SPLIT) {
                float x[BK / 8][4];
#pragma unroll
                for (int ks = 0; ks < BK / 8; ++ks)
#pragma unroll
                    for (int h = 0; h < 4; ++h)
                        x[ks][h] = *reinterpret_cast<const float *>(stage + a_at(ks, h));
                split_r<BK / 8>(x, a, a_small);
            } else { /* rounded to tf32 by the TMA (a TFLOAT32 map) */
#pragma unroll
                for (int ks = 0; ks < BK / 8; ++ks)
#pragma unroll
                    for (int h = 0; h < 4; ++h)
                        a[ks][h] = *reinterpret_cast<const uint32_t *>(stage + a_at(ks, h));
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
        gputile__wgmma_wait_acc<0, NACC>(acc);
        if (SPLIT && job.slices > 0)
#pragma unroll
            for (int i = 0; i < NACC; ++i)
                total[i] += acc[i];
        /* the last slice's stage, for the next tile's loads */
        if (S::LOOP && job.slices > 0 && tid % 32 == 0)
            gputile__mbar_arrive(&empty[(seq - 1) % STAGES]);

        /* Split-K partials raw into the workspace (m x n of C either way),
     * else into C. */
        const int64_t m0 = job.m0, n0 = job.n0;
        const bool partial = w.splits > 1;
        float *c = partial ? w.work + job.split * w.m * w.n : w.c + job.z * w.stride_c;
        const int64_t ldc = partial ? (SWAP ? w.m : w.n) : w.ldc;
        const float alpha = partial ? 1.0f : w.alpha, beta = partial ? 0.0f : w.beta;
        /* ROUND_WIDE: always straight from the fragments (no room for the
     * staged tile). Else straight from the fragments where each store
     * fills whole sectors (C's rows 32-byte aligned) and lib/ does not ask
     * for the staged store (short k: see plan_tma); else through the ring
     * (or, LOOP, C's own room), whose last copies and wgmmas are done (the
     * consumers waited for every stage). */
        if constexpr (S::DIRECT_C)
            gputile__wgmma_store_direct<BN, SWAP>(acc, c, ldc, m0, cw, n0, w.m, w.n, alpha, beta,
                                                  tid % 128, w.perm_r);
        else if (S::TMA_C && w.tma_c)
            gputile__wgmma_store_tma<BN, SWAP>(acc, c_tile, &w.c_map, m0, n0, job.z, alpha, cw,
                                               tid % 128, w.perm_r);
        else if constexpr (MODE == ROUND_TMA)
            ; /* run() picks ROUND_TMA only with tma_c */
        else if (!w.staged_c && !SWAP && !w.perm_r && (uintptr_t)c % 32 == 0 && ldc % 8 == 0)
            gputile__wgmma_store<BN>(SPLIT ? total : acc, c, ldc, m0 + cw * 64, n0, w.m, w.n, alpha,
                                     beta, tid % 128);
        else
            gputile__wgmma_store_staged<BN, SWAP>(SPLIT ? total : acc, c_tile, c, ldc, m0, n0, w.m,
                                                  w.n, alpha, beta, cw, tid % 128, w.perm_r);
    }
    if (S::TMA_C && w.tma_c && gputile__tma_store_issuer(cw, tid % 128))
        gputile__bulk_wait(); /* the last tile's stores, before the block's memory goes */
}

/* cuTensorMapEncodeTiled from the driver, found once through the runtime
 * (the library links no libcuda). */
typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static cudaError_t get_encoder(encode_fn *fn)
{
    static void *slot;
    void *f = NULL;
    cudaError_t err = gputile__driver_entry("cuTensorMapEncodeTiled", &slot, &f);
    *fn = (encode_fn)f;
    return err;
}

/* The map of `batch` row-major matrices of `rows` rows of `cols` floats,
 * ld floats apart (16-byte multiple), the matrices `stride` floats apart
 * (16-byte multiple; one matrix: any), boxes of 32 (along a row) x
 * box_rows of one matrix, 128-byte swizzle, zeros outside. Always 3-D, the
 * batch its third dimension: one kernel for batches and single products.
 * `type`: FLOAT32 copies the floats as they are; TFLOAT32 has the TMA
 * round each to tf32 on its way to shared memory (to nearest, ties to
 * even; infinities kept, every NaN made 0x7fffe000: H200, 2026-12-03,
 * .gpu probe of every class of value), which is how TF32 rounds its
 * operands without an instruction of the kernel's. */
static cudaError_t encode(encode_fn fn, CUtensorMap *map, CUtensorMapDataType type,
                          const float *base, int64_t rows, int64_t cols, int64_t ld, int box_rows,
                          int64_t batch, int64_t stride, int box_cols = 32,
                          CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B)
{
    if (batch <= 1)
        stride = rows * ld; /* unused; a valid stride all the same */
    const cuuint64_t dims[3] = {(cuuint64_t)cols, (cuuint64_t)rows, (cuuint64_t)batch};
    const cuuint64_t strides[2] = {(cuuint64_t)ld * sizeof(float),
                                   (cuuint64_t)stride * sizeof(float)};
    const cuuint32_t box[3] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows, 1}, elem[3] = {1, 1, 1};
    CUresult r =
        fn(map, type, 3, (void *)base, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
           swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorNotSupported;
}

/* The maps of R, K-major, `rows` (at least 4) rows of k floats ld apart,
 * read as 4 classes of rows ("Permuted rows" above): class q's rows q, q +
 * 4, ... from its first row's start rounded down to 16 bytes (shift[q]
 * floats before it), boxes of PERM_LD x 32 unswizzled. */
static cudaError_t encode_classes(encode_fn fn, CUtensorMapDataType type, CUtensorMap *first,
                                  CUtensorMap *rest, int32_t shift[4], const float *base,
                                  int64_t rows, int64_t k, int64_t ld)
{
    cudaError_t err = cudaSuccess;
    for (int q = 0; q < 4 && err == cudaSuccess; ++q) {
        const float *row = base + q * ld;
        shift[q] = (int32_t)((uintptr_t)row % 16 / sizeof(float));
        err = encode(fn, q ? &rest[q - 1] : first, type, row - shift[q], (rows - q + 3) / 4,
                     k + shift[q], 4 * ld, 32, 1, 0, PERM_LD, CU_TENSOR_MAP_SWIZZLE_NONE);
    }
    return err;
}

template <int MODE, bool R_MN, bool SWAP>
static cudaError_t launch(const tma_params &w, int splits, int64_t batch, int64_t blocks,
                          cudaStream_t stream)
{
    using S = shape<MODE>;
    auto kernel = gemm_tma_kernel<MODE, R_MN, SWAP>;
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           (int)S::SMEM_BYTES);
    if (err != cudaSuccess)
        return err;
    const int64_t tiles = (w.m + BM - 1) / BM * w.tiles_n;
    /* LOOP: `blocks` (run's walk) walk the work list; else a block an item */
    const dim3 grid =
        S::LOOP ? dim3((unsigned)blocks) : dim3((unsigned)tiles, (unsigned)batch, (unsigned)splits);
    return gputile__launch(kernel, grid, THREADS, S::SMEM_BYTES, stream, w);
}

/* The instantiation for the orientation: swapped or not, R MN-major or
 * K-major. */
template <int MODE>
static cudaError_t orient(const tma_params &w, bool swap, bool r_mn, const gputile__gemm_plan *plan,
                          int64_t batch, int64_t blocks, cudaStream_t stream)
{
    const int splits = plan->splits;
    return swap ? (r_mn ? launch<MODE, true, true>(w, splits, batch, blocks, stream)
                        : launch<MODE, false, true>(w, splits, batch, blocks, stream))
                : (r_mn ? launch<MODE, true, false>(w, splits, batch, blocks, stream)
                        : launch<MODE, false, false>(w, splits, batch, blocks, stream));
}

/* The kernel computes D = R D'^T over m' x n' tiles: R (m' x k) goes to the
 * tensor cores from registers, D' (n' x k, K-major) through descriptors.
 * Not swapped: R = op(A), D' = op(B)^T, D = C. Swapped: R = op(B)^T, D' =
 * op(A), D = C^T. lib/gemm_plan.c picks the orientation (the smaller
 * pre-pass and waves of tiles) and which of R and D' are packed K-major first into its
 * workspace (plan->pack_r, pack_d; rows ld_pack floats apart): R where TMA
 * cannot address it in place, D' where it is not K-major and addressable.
 * TF32 reads both through TFLOAT32 maps, which round them to nearest (the
 * tensor cores would truncate). */
template <int MODE>
static cudaError_t run(const gputile__gemm_args *p, const gputile__gemm_plan *plan,
                       cudaStream_t stream)
{
    using S = shape<MODE>;
    encode_fn fn;
    cudaError_t err = get_encoder(&fn);
    if (err != cudaSuccess)
        return err;
    const bool swap = plan->swap;
    /* R: stored rows x cols, ld; MN-major when its stored rows run along k */
    const float *r = swap ? p->b : p->a;
    const int64_t ldr = swap ? p->ldb : p->lda, mr = swap ? p->n : p->m, nd = swap ? p->m : p->n;
    bool r_mn = swap ? !p->trans_b : p->trans_a;
    /* D': stored transposed (k x n') or not */
    const float *d = swap ? p->a : p->b;
    const int64_t ldd_src = swap ? p->lda : p->ldb;
    const int d_transposed = swap ? p->trans_a : !p->trans_b;

    tma_params w;
    w.m = mr, w.n = nd, w.k = p->k;
    w.tiles_n = (nd + S::BN - 1) / S::BN;
    w.k_per_split = plan->k_per_split;
    w.alpha = p->alpha, w.beta = p->beta;
    w.c = p->c, w.ldc = p->ldc;
    w.work = plan->work;
    /* a strided batch (lib/ plans it unsplit, without pre-pass, its
     * strides 16-byte multiples): the problem is blockIdx.y */
    const int64_t batch = p->batch > 0 ? p->batch : 1;
    const int64_t stride_r = swap ? p->stride_b : p->stride_a,
                  stride_d = swap ? p->stride_a : p->stride_b;
    w.stride_c = p->batch > 0 ? p->stride_c : 0;
    w.batch = batch;
    w.splits = plan->splits;

    /* TF32: the TMA rounds R and D' (see encode()); 3xTF32 splits them */
    const CUtensorMapDataType in =
        MODE == SPLIT3 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
    int64_t ld_r = ldr, ld_d = ldd_src;
    if (plan->pack_r) {
        err = gputile__gemm_pack_kmajor(r, ldr, r_mn, mr, p->k, plan->pack_r_buf, plan->ld_pack,
                                        GPUTILE__PACK_COPY, stream);
        r = plan->pack_r_buf, ld_r = plan->ld_pack, r_mn = false;
    }
    /* D' packed: copied, or split into big and small parts (3xTF32 with
     * split_d: the small ones nd rows after the big) */
    w.split_d = MODE == SPLIT3 && plan->split_d;
    if (err == cudaSuccess && (plan->pack_d || w.split_d)) {
        const int how = w.split_d ? GPUTILE__PACK_SPLIT : GPUTILE__PACK_COPY;
        err = gputile__gemm_pack_kmajor(d, ldd_src, d_transposed, nd, p->k, plan->pack_d_buf,
                                        plan->ld_pack, how, stream);
        d = plan->pack_d_buf, ld_d = plan->ld_pack;
    }
    w.perm_r = plan->perm_r; /* lib/: R K-major and not packed */
    w.staged_c = plan->staged_c;
    if (err == cudaSuccess && w.perm_r)
        err = encode_classes(fn, in, &w.a, w.a_rest, w.a_shift, r, mr, p->k, ld_r);
    else if (err == cudaSuccess) /* MN-major: k rows of m' floats, boxes of 32 x 32 */
        err = r_mn ? encode(fn, &w.a, in, r, p->k, mr, ld_r, 32, batch, stride_r)
                   : encode(fn, &w.a, in, r, mr, p->k, ld_r, BM, batch, stride_r);
    if (err == cudaSuccess)
        err = encode(fn, &w.b, in, d, nd, p->k, ld_d, S::BN, batch, stride_d);
    if (err == cudaSuccess && w.split_d) /* one problem: lib/ splits no batch */
        err = encode(fn, &w.b_small, in, d + nd * ld_d, nd, p->k, ld_d, S::BN, 1, 0);
    if (err != cudaSuccess)
        return err;
    /* The walk, decided once: where the work list outnumbers the plan's
     * grid, the LOOP modes run that grid and TF32_ROUND becomes ROUND_LOOP;
     * else a block an item (no plan for a grid: grid_blocks 0). */
    const int64_t items = (mr + BM - 1) / BM * w.tiles_n * batch * plan->splits;
    const bool walk = plan->grid_blocks > 0 && plan->grid_blocks < items;
    const int64_t blocks = walk ? plan->grid_blocks : items;
    /* ROUND_LOOP stores C through the TMA from its own room (the stores
     * run while the consumers start the next tile) where it overwrites C
     * (beta 0, unsplit) and C's map can be encoded: C, its rows and its
     * batch stride 16-byte aligned; else through the staged store. */
    w.tma_c = 0;
    if constexpr (MODE == TF32_ROUND)
        if (walk) {
            if (plan->splits == 1 && p->beta == 0.0f && (uintptr_t)p->c % 16 == 0 &&
                p->ldc % 4 == 0 && (batch <= 1 || w.stride_c % 4 == 0))
                w.tma_c = encode(fn, &w.c_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, p->c,
                                 swap ? nd : mr, swap ? mr : nd, p->ldc, swap ? S::BN : BM, batch,
                                 w.stride_c) == cudaSuccess;
            /* ROUND_TMA's fifth stage against ROUND_LOOP's 4 (H200,
             * batches, bench/results/2026-12-02-gemm-tf32-batched-5-stages-
             * ab-h200.txt): k = 256-384 1.04-1.09x, k = 128 (4 slices a
             * tile) 0.97-0.98x */
            return w.tma_c && !w.perm_r && p->k > 4 * BK
                       ? orient<ROUND_TMA>(w, swap, r_mn, plan, batch, blocks, stream)
                       : orient<ROUND_LOOP>(w, swap, r_mn, plan, batch, blocks, stream);
        }
    return orient<MODE>(w, swap, r_mn, plan, batch, blocks, stream);
}

} // namespace

extern "C" cudaError_t gputile__gemm_run_TMA_128X128_3XTF32(const gputile__gemm_args *p,
                                                            const gputile__gemm_plan *plan,
                                                            cudaStream_t stream)
{
    return run<SPLIT3>(p, plan, stream);
}

extern "C" cudaError_t gputile__gemm_run_TMA_128X256_TF32(const gputile__gemm_args *p,
                                                          const gputile__gemm_plan *plan,
                                                          cudaStream_t stream)
{
    return run<TF32_PACKED>(p, plan, stream);
}

extern "C" cudaError_t gputile__gemm_run_TMA_128X128_TF32(const gputile__gemm_args *p,
                                                          const gputile__gemm_plan *plan,
                                                          cudaStream_t stream)
{
    return run<TF32_ROUND>(p, plan, stream);
}

extern "C" cudaError_t gputile__gemm_run_TMA_128X256_TF32_ROUND(const gputile__gemm_args *p,
                                                                const gputile__gemm_plan *plan,
                                                                cudaStream_t stream)
{
    return run<ROUND_WIDE>(p, plan, stream);
}
