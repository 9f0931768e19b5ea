/*
 * gemm_regblock.cu: the register-blocked FP32 GEMM family (FFMA only).
 *
 * Algorithm. Each block computes a BM x BN tile of C. Per step it stages a
 * BM x BK slice of op(A) and a BK x BN slice of op(B) in shared memory, both
 * stored k-major (As[k][m], Bs[k][n]): op(A) is transposed while staging
 * when A is row-major along k (through registers), stored straight when it
 * is m-contiguous (A^T), and likewise for op(B). Each thread owns an 8 x 8
 * tile of C in registers, as two 4-row by two 4-column quarters 16 rows and
 * 32 columns apart, so per k it reads 2 float4 of A and 2 float4 of B from
 * shared memory and does 64 FFMAs.
 *
 * Warps. A warp covers 32 x 64 of C as 4 x 8 threads. Its A reads touch 4
 * distinct 16-byte words and its B reads 8 (a contiguous 128 bytes): one
 * shared-memory wavefront each, so shared memory issues 4 wavefronts per 64
 * FFMAs per warp and the FFMA pipe, not shared memory, is the limit.
 *
 * CGMA. A block loads (BM + BN) * BK floats per BM * BN * BK FMAs:
 * BM * BN / (BM + BN) FMAs per global load, 64 for 128 x 128.
 *
 * Pipeline. Two shared-memory buffers; the next slice is loaded from global
 * memory into registers (16-byte loads where the rows are 16-byte aligned,
 * predicated scalar loads otherwise and at the edges, zero outside the
 * matrix) while the current slice is multiplied, then stored to the other
 * buffer: one __syncthreads per slice.
 *
 * Split-K. blockIdx.z takes a contiguous range of k; with more than one
 * split the block writes its partial tile to a workspace and
 * gemm_splitk_reduce_kernel adds the splits in a fixed order (deterministic,
 * no atomics) and applies alpha and beta.
 *
 * Resources: 128 x 128 x 16 with 256 threads: 33.8 KiB of shared memory,
 * 157-167 registers, one block per SM; 64 x 64 x 16 with 64 threads:
 * 17 KiB, 189-225 registers. No spills (make ptxas-report).
 */
#include "kernels.h"

#define TM 8 /* rows of C per thread */
#define TN 8 /* columns of C per thread */
#define WARP_M 32
#define WARP_N 64
#define PAD 4 /* floats of padding per shared row: keeps 16-byte alignment */

/* A tile loader: brings an OUTER x BK slice of an operand into registers and
 * then into shared memory as S[k][outer]. K_CONTIG: the operand's rows run
 * along k (row-major A, or B^T) and the slice is transposed on the way in;
 * otherwise its rows run along the outer dimension and are copied straight.
 * VEC: 16-byte global loads are allowed (16-byte aligned base, stride a
 * multiple of 4). Each thread keeps one pointer per float4 slot and steps
 * it by one slice per call, so the k loop does no 64-bit index arithmetic. */
template <int OUTER, int BK, int THREADS, bool K_CONTIG, bool VEC>
struct tile_loader {
    static constexpr int VECS = OUTER * BK / 4 / THREADS; /* float4 slots per thread */
    static_assert(OUTER * BK % (4 * THREADS) == 0, "tile must split into float4 slots");
    float4 r[VECS];
    const float *ptr[VECS]; /* the slot's first element in the next slice */
    int outer_ok[VECS];     /* elements of the slot inside the matrix along outer (0..4) */
    int64_t step;           /* elements from one slice to the next */

    /* slot position inside the tile */
    static __device__ __forceinline__ int slot_o(int slot)
    {
        return K_CONTIG ? slot / (BK / 4) : slot % (OUTER / 4) * 4;
    }
    static __device__ __forceinline__ int slot_q(int slot)
    {
        return K_CONTIG ? slot % (BK / 4) * 4 : slot / (OUTER / 4);
    }

    /* p: element (0, 0); ld: its stride; the slice starts at outer o0, k k0. */
    __device__ __forceinline__ tile_loader(const float *p, int64_t ld, int64_t o0, int64_t n_outer,
                                           int64_t k0, int tid)
    {
        step = K_CONTIG ? BK : BK * ld;
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int slot = tid + v * THREADS;
            const int64_t go = o0 + slot_o(slot), gq = k0 + slot_q(slot);
            ptr[v] = K_CONTIG ? p + go * ld + gq : p + gq * ld + go;
            const int64_t left = n_outer - go;
            outer_ok[v] = K_CONTIG ? (left > 0 ? 4 : 0) : (int)(left < 0 ? 0 : left > 4 ? 4 : left);
        }
    }

    /* Loads the next slice, of which k_left >= 1 columns of k remain in the
     * matrix (or split), into registers; zeros outside. */
    __device__ __forceinline__ void load(int64_t k_left, int tid)
    {
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int64_t kq = k_left - slot_q(tid + v * THREADS); /* k elements left from here */
            const float *src = ptr[v];
            float e[4];
            const bool whole = K_CONTIG ? (outer_ok[v] == 4 && kq >= 4) : (outer_ok[v] == 4 && kq >= 1);
            if (VEC && whole) {
                float4 t = __ldg(reinterpret_cast<const float4 *>(src));
                e[0] = t.x, e[1] = t.y, e[2] = t.z, e[3] = t.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const bool ok = K_CONTIG ? (outer_ok[v] != 0 && i < kq) : (kq >= 1 && i < outer_ok[v]);
                    e[i] = ok ? __ldg(src + i) : 0.0f;
                }
            }
            r[v] = make_float4(e[0], e[1], e[2], e[3]);
            ptr[v] = src + step;
        }
    }

    __device__ __forceinline__ void store(float (*s)[OUTER + PAD], int tid) const
    {
#pragma unroll
        for (int v = 0; v < VECS; ++v) {
            const int slot = tid + v * THREADS, o = slot_o(slot), q = slot_q(slot);
            if (K_CONTIG) {
                s[q + 0][o] = r[v].x;
                s[q + 1][o] = r[v].y;
                s[q + 2][o] = r[v].z;
                s[q + 3][o] = r[v].w;
            } else {
                *reinterpret_cast<float4 *>(&s[q][o]) = r[v];
            }
        }
    }
};

template <int BM, int BN, int BK, int MINB, bool TA, bool TB, bool VA, bool VB>
static __global__ void __launch_bounds__((BM / WARP_M) * (BN / WARP_N) * 32, MINB)
gemm_regblock_kernel(gputile__gemm_args p, int64_t tiles_n, int64_t k_per_split, float *work)
{
    constexpr int THREADS = (BM / WARP_M) * (BN / WARP_N) * 32;
    /* Static, not dynamic, shared memory: measured 5% faster on the H200
     * (constant shared addresses; 0.85 against 0.81 of cuBLAS at 8192^3). */
    __shared__ __align__(16) float as[2][BK][BM + PAD];
    __shared__ __align__(16) float bs[2][BK][BN + PAD];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    /* Tiles in groups of 8 rows: consecutive blocks share B panels and a
     * few A panels, which keeps the working set in L2. */
    const int64_t tiles_m = (p.m + BM - 1) / BM;
    const int64_t tile = blockIdx.x, group = tile / (8 * tiles_n);
    const int64_t first_m = group * 8, rows_in_group = min((int64_t)8, tiles_m - first_m);
    const int64_t tile_m = first_m + (tile % (8 * tiles_n)) % rows_in_group;
    const int64_t tile_n = (tile % (8 * tiles_n)) / rows_in_group;
    const int64_t m0 = tile_m * BM, n0 = tile_n * BN;
    const int64_t k_begin = blockIdx.z * k_per_split;
    const int64_t k_end = min(p.k, k_begin + k_per_split);

    /* This thread's rows: wm + lm*4 + {0..3} and +16; columns: wn + ln*4 + {0..3} and +32. */
    const int wm = warp % (BM / WARP_M) * WARP_M, wn = warp / (BM / WARP_M) * WARP_N;
    const int tm = wm + lane / 8 * 4, tn = wn + lane % 8 * 4;

    tile_loader<BM, BK, THREADS, !TA, VA> la(p.a, p.lda, m0, p.m, k_begin, tid);
    tile_loader<BN, BK, THREADS, TB, VB> lb(p.b, p.ldb, n0, p.n, k_begin, tid);
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    la.load(k_end - k_begin, tid);
    lb.load(k_end - k_begin, tid);
    la.store(as[0], tid);
    lb.store(bs[0], tid);
    __syncthreads();

    int buf = 0;
    for (int64_t k0 = k_begin; k0 < k_end; k0 += BK) {
        const bool more = k0 + BK < k_end;
        if (more) { /* next slice into registers while this one is multiplied */
            la.load(k_end - k0 - BK, tid);
            lb.load(k_end - k0 - BK, tid);
        }
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            float a[TM], b[TN];
            *reinterpret_cast<float4 *>(&a[0]) = *reinterpret_cast<const float4 *>(&as[buf][q][tm]);
            *reinterpret_cast<float4 *>(&a[4]) = *reinterpret_cast<const float4 *>(&as[buf][q][tm + 16]);
            *reinterpret_cast<float4 *>(&b[0]) = *reinterpret_cast<const float4 *>(&bs[buf][q][tn]);
            *reinterpret_cast<float4 *>(&b[4]) = *reinterpret_cast<const float4 *>(&bs[buf][q][tn + 32]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (more) {
            la.store(as[buf ^ 1], tid);
            lb.store(bs[buf ^ 1], tid);
            __syncthreads();
            buf ^= 1;
        }
    }

    /* Epilogue: C = alpha acc + beta C, or the raw partial into the split's workspace slice. */
    const bool partial = gridDim.z > 1;
    float *c = partial ? work + blockIdx.z * p.m * p.n : p.c;
    const int64_t ldc = partial ? p.n : p.ldc;
    const bool vec_c = partial ? p.n % 4 == 0 : (uintptr_t)p.c % 16 == 0 && p.ldc % 4 == 0;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int64_t row = m0 + tm + (i < 4 ? i : i - 4 + 16);
        if (row >= p.m)
            continue;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int64_t col = n0 + tn + h * 32;
            float v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                v[j] = partial ? acc[i][h * 4 + j] : p.alpha * acc[i][h * 4 + j];
            float *dst = c + row * ldc + col;
            if (vec_c && col + 3 < p.n) {
                if (!partial && p.beta != 0.0f) {
                    float4 old = *reinterpret_cast<float4 *>(dst);
                    v[0] += p.beta * old.x, v[1] += p.beta * old.y;
                    v[2] += p.beta * old.z, v[3] += p.beta * old.w;
                }
                *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < p.n)
                        dst[j] = (!partial && p.beta != 0.0f) ? v[j] + p.beta * dst[j] : v[j];
            }
        }
    }
}

/* C = alpha * (sum of the splits' partials, in split order) + beta * C. */
static __global__ void gemm_splitk_reduce_kernel(gputile__gemm_args p, int splits,
                                                 const float *__restrict__ work)
{
    const int64_t mn = p.m * p.n;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < mn;
         e += (int64_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int z = 0; z < splits; ++z)
            s += work[z * mn + e];
        const int64_t row = e / p.n, col = e % p.n;
        float *c = p.c + row * p.ldc + col;
        *c = p.beta == 0.0f ? p.alpha * s : p.alpha * s + p.beta * *c;
    }
}

template <int BM, int BN, int BK, int MINB, bool TA, bool TB, bool VA, bool VB>
static cudaError_t launch(const gputile__gemm_args *p, int splits, float *work, cudaStream_t stream)
{
    constexpr int THREADS = (BM / WARP_M) * (BN / WARP_N) * 32;
    const int64_t tiles_n = (p->n + BN - 1) / BN, tiles_m = (p->m + BM - 1) / BM;
    /* k per split, a multiple of BK so only the last split has a partial slice */
    const int64_t k_per_split = ((p->k + splits - 1) / splits + BK - 1) / BK * BK;
    dim3 grid((unsigned)(tiles_m * tiles_n), 1, (unsigned)splits);
    gemm_regblock_kernel<BM, BN, BK, MINB, TA, TB, VA, VB>
        <<<grid, THREADS, 0, stream>>>(*p, tiles_n, k_per_split, work);
    return cudaGetLastError();
}

/* Instantiates the 16 transpose/alignment variants of one tile shape. */
template <int BM, int BN, int BK, int MINB>
static cudaError_t dispatch(const gputile__gemm_args *p, int splits, float *work,
                            cudaStream_t stream)
{
    /* 16-byte loads need a 16-byte aligned base and rows a multiple of 4 floats apart */
    const bool va = (uintptr_t)p->a % 16 == 0 && p->lda % 4 == 0;
    const bool vb = (uintptr_t)p->b % 16 == 0 && p->ldb % 4 == 0;
    const int key = p->trans_a << 3 | p->trans_b << 2 | va << 1 | vb;
    switch (key) {
#define CASE(k)                                                                              \
    case k:                                                                                  \
        return launch<BM, BN, BK, MINB, (k >> 3) & 1, (k >> 2) & 1, (k >> 1) & 1, k & 1>(    \
            p, splits, work, stream);
        CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
        CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
#undef CASE
    }
    return cudaErrorInvalidValue;
}

static cudaError_t run(const gputile__gemm_args *p, int tile, cudaStream_t stream)
{
    const int splits = p->splits > 1 ? p->splits : 1;
    float *work = NULL;
    cudaError_t err;
    if (splits > 1) {
        err = cudaMallocAsync((void **)&work, (size_t)splits * p->m * p->n * sizeof(float), stream);
        if (err != cudaSuccess)
            return err;
    }
    /* 128: one block of 8 warps per SM (167 registers); measured faster on
     * the H200 than k slices of 8 at two blocks per SM (0.85 against 0.80 of
     * cuBLAS at 4096^3), where 128 registers also forced spills.
     * 64: 2 warps per block, up to 4 blocks per SM. */
    err = tile == 128 ? dispatch<128, 128, 16, 1>(p, splits, work, stream)
                      : dispatch<64, 64, 16, 4>(p, splits, work, stream);
    if (err == cudaSuccess && splits > 1) {
        gemm_splitk_reduce_kernel<<<264, 256, 0, stream>>>(*p, splits, work);
        err = cudaGetLastError();
    }
    if (splits > 1) {
        cudaError_t free_err = cudaFreeAsync(work, stream);
        if (err == cudaSuccess)
            err = free_err;
    }
    return err;
}

extern "C" cudaError_t gputile__gemm_regblock128(const gputile__gemm_args *p, cudaStream_t stream)
{
    return run(p, 128, stream);
}

extern "C" cudaError_t gputile__gemm_regblock64(const gputile__gemm_args *p, cudaStream_t stream)
{
    return run(p, 64, stream);
}
