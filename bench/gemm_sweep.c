/* SPDX-License-Identifier: MIT */
/*
 * gemm_sweep.c: gputile-bench gemm --sweep-shapes: libgputile's AUTO next
 * to cuBLAS on a fixed, seeded set of shapes (issue 17, "measure on what
 * users run"); and the two calls that gemm_latency.c times too.
 *
 *   gputile-bench gemm --sweep-shapes [--precision fp32|3xtf32|tf32|all[,...]]
 *                      [--algorithms NAME[,...]] [--shapes N] [--seed S]
 *                      [--csv] [--runs N] [--warmup N]
 *   gputile-bench gemm --list-shapes [--shapes N] [--seed S] [--csv]
 *
 * Shapes: N (default 160) drawn by splitmix64 from seed S (default 17), so
 * every run on every machine draws the same list and a smaller N draws a
 * prefix of it; then the eight tuned shapes (NN). m, n and k are each
 * log-uniform over [8, 16384]. Shape i is redrawn until m n k < 2^30 when
 * i % 3 == 0 and until m n k >= 2^30 otherwise: a third of the drawn
 * shapes are small products, two thirds large (left alone, 78% of the
 * draws fall below 2^30), and until A + B + C fit in 6 GiB (never binding
 * at 16384). Transposes go round robin: NN, NT, TN, TT for i % 4 = 0..3.
 * --list-shapes prints the list and its counts without a device.
 *
 * Rows: for each precision, libgputile AUTO (GPUTILE_GEMM_OPTIONS_INIT
 * with the precision) and cuBLAS sgemm; with --algorithms, the FP32 rows
 * are instead the algorithms named (gputile_algorithm_name's names, auto
 * among them), each forced, timed in the same rounds and summarised
 * apart, so that kernels are compared with cuBLAS and each other in one
 * run. cuBLAS: FP32 default math for fp32 and
 * 3xtf32, CUBLAS_TF32_TENSOR_OP_MATH for tf32; row-major, through
 * C^T = op(B)^T op(A)^T. One input set per shape (A and B uniform in
 * [-1, 1)).
 *
 * Timing: CUDA events around each call alone; before every timed call a
 * memset of max(256 MiB, 4 x L2) outside the events, so that each call
 * starts with a cold L2; the order of the rows rotates every round; median
 * of R rounds, R = --runs (default 20) cut so that a row's timed calls
 * stay near 0.3 s, at least 3. Before the rounds: a warm-up of each row
 * (plans, cuBLAS heuristics, workspaces), one timed call each for the
 * estimate, and --warmup - 1 more warm-ups where the rows are short.
 * ratio = cuBLAS ms / libgputile ms: above 1, libgputile is faster. The
 * events span the call's GPU work; host work in a call counts only where
 * it outlasts the memset queued before it (~0.1 ms; gemm --latency
 * measures the cost of a call). Work: 14.8 TFLOP per row over the default
 * list (8.8 of it 16384^3), so a precision takes well under a minute on an
 * H200 (an estimate: not yet run there).
 *
 * Check, outside the timing: each libgputile result against its cuBLAS
 * row's on the same inputs, both outputs poisoned with NaN first. With
 * max|a| max|b| <= 1, e = max |diff| / (u k^p): u = 2^-24, p = 1 for
 * fp32 (FP32 accumulation error grows ~k); u = 2^-22, p = 1 for 3xtf32;
 * u = 2^-11, p = 1/2 for tf32 (rounding the inputs to TF32: random, grows
 * ~sqrt(k)). ok when e <= 16; BAD above, or when a difference is not
 * finite (an element left unwritten stays NaN). An element wrong by its
 * own typical size gives e in the hundreds or more.
 *
 * Summary per precision, over the whole sweep and over the eight tuned
 * shapes: geometric mean, 10th percentile (linear interpolation), minimum
 * with its shape, count, BAD rows. Exit status 1 when any row is BAD.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r, clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublas_v2.h>

#include "bench.h"
#include "device_kernels.h"
#include "gemm.h"
#include "gputile.h"

/* ---- the calls that are timed (both modes) ------------------------------- */

void bench_gemm_lib(int ta, int tb, long m, long n, long k, const float *a, const float *b,
                    float *c, int precision, cudaStream_t stream, gputile_gemm_options *used)
{
    bench_gemm_lib_algorithm(ta, tb, m, n, k, a, b, c, precision, GPUTILE_ALGO_AUTO, 0, stream,
                             used);
}

void bench_gemm_lib_algorithm(int ta, int tb, long m, long n, long k, const float *a,
                              const float *b, float *c, int precision, int algorithm, int split_k,
                              cudaStream_t stream, gputile_gemm_options *used)
{
    /* the matrices as stored: width, height, stride, elements */
    gputile_matrix ma = {(size_t)(ta ? m : k), (size_t)(ta ? k : m), (size_t)(ta ? m : k),
                         (float *)a};
    gputile_matrix mb = {(size_t)(tb ? k : n), (size_t)(tb ? n : k), (size_t)(tb ? k : n),
                         (float *)b};
    gputile_matrix mc = {(size_t)n, (size_t)m, (size_t)n, c};
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.precision = precision;
    o.algorithm = algorithm;
    o.split_k = split_k;
    gputile_status s =
        gputile_gemm(ta ? GPUTILE_OP_T : GPUTILE_OP_N, tb ? GPUTILE_OP_T : GPUTILE_OP_N, 1.0f, ma,
                     mb, 0.0f, mc, stream, &o);
    if (s != GPUTILE_SUCCESS) {
        const char *name = gputile_algorithm_name(algorithm);
        fprintf(stderr, "gputile-bench: gputile_gemm %s %c%c %ldx%ldx%ld: %s (%s)\n",
                name != NULL ? name : "?", ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k,
                gputile_strerror(s), gputile_last_cuda_error_name());
        exit(1);
    }
    if (used != NULL)
        *used = o;
}

void bench_gemm_cublas(cublasHandle_t h, int ta, int tb, long m, long n, long k, const float *a,
                       const float *b, float *c)
{
    const float one = 1.0f, zero = 0.0f;
    /* column-major, the row-major matrices read as their transposes:
     * C^T (n x m) = op(B)^T (n x k) op(A)^T (k x m) */
    cublasStatus_t st = cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N,
                                    ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b,
                                    (int)(tb ? k : n), a, (int)(ta ? m : k), &zero, c, (int)n);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: cublasSgemm %c%c %ldx%ldx%ld: status %d\n", ta ? 'T' : 'N',
                tb ? 'T' : 'N', m, n, k, (int)st);
        exit(1);
    }
}

cublasHandle_t bench_cublas_handle(cudaStream_t stream, cublasMath_t math)
{
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(h, stream) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(h, math) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: cuBLAS initialisation failed\n");
        exit(1);
    }
    return h;
}

/* ---- the shapes ---------------------------------------------------------- */

enum { KIND_SMALL, KIND_LARGE, KIND_LIST, KIND_GIVEN };
static const char *const kind_names[] = {"small", "large", "list", "given"};
static const char *const op_names[] = {"NN", "NT", "TN", "TT"};

typedef struct sweep_shape {
    long m, n, k;
    int ta, tb, kind;
} sweep_shape;

#define SWEEP_DEFAULT_SHAPES 160
#define SWEEP_DEFAULT_SEED 17
#define SWEEP_MAX_SHAPES 100000
#define SWEEP_SMALL_MNK 1073741824.0 /* 2^30 */
#define SWEEP_MAX_BYTES 6442450944.0 /* A + B + C: 6 GiB */
#define ROW_BUDGET_MS 300.0          /* timed calls of one row, at most about */
#define MIN_RUNS 3
#define SHORT_ROW_MS 20.0 /* rows this short get the extra warm-ups */
#define CHECK_LIMIT 16.0
#define MAX_ALGORITHMS 32 /* --algorithms */
#define MAX_KINDS \
    (3 * MAX_ALGORITHMS + 2)     /* libgputile rows: FP32 ones, 3xTF32, TF32 (auto:S too) */
#define MAX_ROWS (MAX_KINDS + 2) /* and cuBLAS FP32, cuBLAS TF32 */
#define MAX_GIVEN 64             /* MxNxK shapes on the command line */

static const sweep_shape tuned_shapes[8] = {
    {2048, 2048, 2048, 0, 0, KIND_LIST}, {4096, 4096, 4096, 0, 0, KIND_LIST},
    {8192, 8192, 8192, 0, 0, KIND_LIST}, {16384, 16384, 16384, 0, 0, KIND_LIST},
    {4097, 4097, 4097, 0, 0, KIND_LIST}, {8192, 8192, 1024, 0, 0, KIND_LIST},
    {8192, 128, 8192, 0, 0, KIND_LIST},  {127, 8192, 8192, 0, 0, KIND_LIST},
};

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Log-uniform over [8, 16384]: 8 * 2^(11 u). */
static long draw_dim(uint64_t *state)
{
    const double u = (double)(splitmix64(state) >> 11) * 0x1p-53;
    const long d = lround(8.0 * exp2(11.0 * u));
    return d < 8 ? 8 : d > 16384 ? 16384 : d;
}

static double mnk(const sweep_shape *s)
{
    return (double)s->m * s->n * s->k;
}

static double abc_bytes(const sweep_shape *s)
{
    return 4.0 * ((double)s->m * s->k + (double)s->k * s->n + (double)s->m * s->n);
}

/* The drawn shapes, then the tuned ones: count + 8 shapes, malloc'd. */
static sweep_shape *draw_shapes(int count, uint64_t seed)
{
    sweep_shape *v = malloc((size_t)(count + 8) * sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    uint64_t state = seed;
    for (int i = 0; i < count; ++i) {
        const int small = i % 3 == 0;
        sweep_shape s = {0, 0, 0, (i % 4) >> 1, i % 2, small ? KIND_SMALL : KIND_LARGE};
        do {
            s.m = draw_dim(&state);
            s.n = draw_dim(&state);
            s.k = draw_dim(&state);
        } while ((mnk(&s) < SWEEP_SMALL_MNK) != small || abc_bytes(&s) > SWEEP_MAX_BYTES);
        v[i] = s;
    }
    memcpy(v + count, tuned_shapes, sizeof tuned_shapes);
    return v;
}

/* drawn < 0: the shapes were given on the command line */
static void print_shape_list(const sweep_shape *v, int count, int drawn, unsigned long long seed,
                             bool csv)
{
    if (drawn < 0)
        printf("# gputile-bench gemm --list-shapes: %d given\n", count);
    else
        printf("# gputile-bench gemm --list-shapes --shapes %d --seed %llu: %d drawn + 8 tuned\n",
               drawn, seed, drawn);
    if (csv)
        printf("i,kind,m,n,k,ta,tb,log2_mnk,abc_mib\n");
    else
        printf("%4s %-5s %6s %6s %6s %-2s %8s %9s\n", "i", "kind", "m", "n", "k", "op", "log2 mnk",
               "A+B+C MiB");
    int small = 0, per_op[4] = {0}, skinny = 0, odd = 0, not4 = 0;
    long lo[3] = {1L << 40, 1L << 40, 1L << 40}, hi[3] = {0, 0, 0};
    double flops = 0, most = 0;
    for (int i = 0; i < count; ++i) {
        const sweep_shape *s = &v[i];
        const long d[3] = {s->m, s->n, s->k};
        if (csv)
            printf("%d,%s,%ld,%ld,%ld,%c,%c,%.2f,%.1f\n", i, kind_names[s->kind], s->m, s->n, s->k,
                   s->ta ? 'T' : 'N', s->tb ? 'T' : 'N', log2(mnk(s)), abc_bytes(s) / 1048576);
        else
            printf("%4d %-5s %6ld %6ld %6ld %-2s %8.2f %9.1f\n", i, kind_names[s->kind], s->m, s->n,
                   s->k, op_names[2 * s->ta + s->tb], log2(mnk(s)), abc_bytes(s) / 1048576);
        small += mnk(s) < SWEEP_SMALL_MNK;
        per_op[2 * s->ta + s->tb]++;
        long dmin = d[0], dmax = d[0];
        for (int j = 0; j < 3; ++j) {
            lo[j] = d[j] < lo[j] ? d[j] : lo[j];
            hi[j] = d[j] > hi[j] ? d[j] : hi[j];
            dmin = d[j] < dmin ? d[j] : dmin;
            dmax = d[j] > dmax ? d[j] : dmax;
        }
        skinny += dmax >= 16 * dmin;
        odd += (s->m | s->n | s->k) & 1;
        not4 += s->m % 4 != 0 || s->n % 4 != 0 || s->k % 4 != 0;
        flops += 2 * mnk(s);
        most = abc_bytes(s) > most ? abc_bytes(s) : most;
    }
    char from[32] = "given";
    if (drawn >= 0)
        snprintf(from, sizeof from, "%d drawn, 8 tuned", drawn);
    printf("# shapes %d (%s); m*n*k < 2^30: %d; NN %d NT %d TN %d TT %d\n", count, from, small,
           per_op[0], per_op[1], per_op[2], per_op[3]);
    printf("# m %ld..%ld, n %ld..%ld, k %ld..%ld; skinny (largest dim >= 16x smallest) %d; "
           "an odd dim %d; a dim not a multiple of 4 %d\n",
           lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], skinny, odd, not4);
    printf("# work %.1f TFLOP per row (one call of each shape); largest A+B+C %.2f GiB\n",
           flops / 1e12, most / 1073741824);
}

/* ---- the timing ---------------------------------------------------------- */

/* One row of a shape: libgputile in a precision (h NULL) or cuBLAS. */
typedef struct row {
    int precision;    /* libgputile rows */
    int algorithm;    /* libgputile rows: requested (AUTO or forced) */
    int split_k;      /* libgputile rows: requested (0: the planner's) */
    int kind;         /* libgputile rows: index into the sweep's kinds */
    cublasHandle_t h; /* cuBLAS rows */
    int anchor;       /* libgputile rows: the index of their cuBLAS row */
    double ms;        /* median */
    gputile_gemm_options used;
    double e; /* check: max |diff| / (u k^p) */
    bool ok;
} row;

typedef struct sweep_bufs {
    float *a, *b, *c, *cref, *flush;
    size_t flush_bytes;
    cudaStream_t stream;
    cublasHandle_t h; /* FP32 math: the check's axpy, asum, amax */
} sweep_bufs;

static void run_row(row *r, const sweep_shape *s, const sweep_bufs *bf, float *c)
{
    if (r->h != NULL)
        bench_gemm_cublas(r->h, s->ta, s->tb, s->m, s->n, s->k, bf->a, bf->b, c);
    else
        bench_gemm_lib_algorithm(s->ta, s->tb, s->m, s->n, s->k, bf->a, bf->b, c, r->precision,
                                 r->algorithm, r->split_k, bf->stream, &r->used);
}

static void cublas_check(cublasStatus_t st, const char *what)
{
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: %s: status %d\n", what, (int)st);
        exit(1);
    }
}

/* Each libgputile row's result against its cuBLAS row's: rows[].e, .ok. */
static void check_rows(row *rows, int nrows, const sweep_shape *s, const sweep_bufs *bf)
{
    const size_t ec = (size_t)s->m * s->n;
    for (int q = 0; q < nrows; ++q) {
        if (rows[q].h == NULL)
            continue;
        BENCH_CUDA(cudaMemsetAsync(bf->cref, 0xFF, ec * sizeof(float), bf->stream)); /* NaN */
        run_row(&rows[q], s, bf, bf->cref);
        for (int r = 0; r < nrows; ++r) {
            if (rows[r].h != NULL || rows[r].anchor != q)
                continue;
            BENCH_CUDA(cudaMemsetAsync(bf->c, 0xFF, ec * sizeof(float), bf->stream));
            run_row(&rows[r], s, bf, bf->c);
            const float minus_one = -1.0f;
            float asum = 0, dmax = NAN;
            int imax = 0;
            cublas_check(cublasSaxpy(bf->h, (int)ec, &minus_one, bf->cref, 1, bf->c, 1),
                         "cublasSaxpy");
            cublas_check(cublasSasum(bf->h, (int)ec, bf->c, 1, &asum), "cublasSasum");
            cublas_check(cublasIsamax(bf->h, (int)ec, bf->c, 1, &imax), "cublasIsamax");
            if (imax >= 1)
                BENCH_CUDA(cudaMemcpyAsync(&dmax, bf->c + (imax - 1), sizeof dmax,
                                           cudaMemcpyDeviceToHost, bf->stream));
            BENCH_CUDA(cudaStreamSynchronize(bf->stream));
            const int p = rows[r].precision;
            const double u = p == GPUTILE_PRECISION_TF32          ? 0x1p-11
                             : p == GPUTILE_PRECISION_FP32_3XTF32 ? 0x1p-22
                                                                  : 0x1p-24;
            const double kp = p == GPUTILE_PRECISION_TF32 ? sqrt((double)s->k) : (double)s->k;
            rows[r].e = fabs(dmax) / (u * kp);
            rows[r].ok = isfinite(asum) && rows[r].e <= CHECK_LIMIT;
        }
    }
}

static void flush_l2(const sweep_bufs *bf)
{
    BENCH_CUDA(cudaMemsetAsync(bf->flush, 0, bf->flush_bytes, bf->stream));
}

static double elapsed_ms(cudaEvent_t start, cudaEvent_t stop)
{
    float t;
    BENCH_CUDA(cudaEventElapsedTime(&t, start, stop));
    return t;
}

/* Times the rows of one shape (see the header); ev holds 2 * MAX_ROWS *
 * o->runs events. Returns the number of rounds. */
static int time_rows(row *rows, int nrows, const sweep_shape *s, const sweep_bufs *bf,
                     const bench_options *o, cudaEvent_t *ev)
{
    for (int r = 0; r < nrows; ++r)
        run_row(&rows[r], s, bf, bf->c);
    for (int r = 0; r < nrows; ++r) {
        flush_l2(bf);
        BENCH_CUDA(cudaEventRecord(ev[2 * r], bf->stream));
        run_row(&rows[r], s, bf, bf->c);
        BENCH_CUDA(cudaEventRecord(ev[2 * r + 1], bf->stream));
    }
    BENCH_CUDA(cudaStreamSynchronize(bf->stream));
    double longest = 0;
    for (int r = 0; r < nrows; ++r) {
        const double t = elapsed_ms(ev[2 * r], ev[2 * r + 1]);
        longest = t > longest ? t : longest;
    }
    for (int w = 1; w < o->warmup && longest < SHORT_ROW_MS; ++w)
        for (int r = 0; r < nrows; ++r)
            run_row(&rows[r], s, bf, bf->c);
    int runs = longest > 0 ? (int)(ROW_BUDGET_MS / longest) : o->runs;
    runs = runs < MIN_RUNS ? MIN_RUNS : runs > o->runs ? o->runs : runs;

    /* round t runs every row once, starting at row t % nrows */
    for (int t = 0; t < runs; ++t)
        for (int j = 0; j < nrows; ++j) {
            const int r = (t + j) % nrows;
            cudaEvent_t *e = &ev[2 * (t * nrows + r)];
            flush_l2(bf);
            BENCH_CUDA(cudaEventRecord(e[0], bf->stream));
            run_row(&rows[r], s, bf, bf->c);
            BENCH_CUDA(cudaEventRecord(e[1], bf->stream));
        }
    BENCH_CUDA(cudaStreamSynchronize(bf->stream));
    double *ms = malloc((size_t)runs * sizeof *ms);
    if (ms == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    for (int r = 0; r < nrows; ++r) {
        for (int t = 0; t < runs; ++t)
            ms[t] = elapsed_ms(ev[2 * (t * nrows + r)], ev[2 * (t * nrows + r) + 1]);
        rows[r].ms = bench_median(ms, runs);
    }
    free(ms);
    return runs;
}

/* ---- the summary --------------------------------------------------------- */

typedef struct result {
    double ratio;
    int shape;
    bool ok;
} result;

static int compare_result(const void *a, const void *b)
{
    const double x = ((const result *)a)->ratio, y = ((const result *)b)->ratio;
    return (x > y) - (x < y);
}

static void summarise(const char *precision, const char *set, result *v, int n,
                      const sweep_shape *shapes, bool csv)
{
    if (n == 0)
        return;
    qsort(v, (size_t)n, sizeof *v, compare_result);
    double logs = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        logs += log(v[i].ratio);
        bad += !v[i].ok;
    }
    const double pos = 0.1 * (n - 1), frac = pos - floor(pos);
    const int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    const double p10 = v[lo].ratio + frac * (v[hi].ratio - v[lo].ratio);
    const sweep_shape *s = &shapes[v[0].shape];
    if (csv)
        printf("# summary precision=%s set=%s count=%d geomean=%.3f p10=%.3f min=%.3f "
               "min_shape=%ldx%ldx%ld min_op=%s bad=%d\n",
               precision, set, n, exp(logs / n), p10, v[0].ratio, s->m, s->n, s->k,
               op_names[2 * s->ta + s->tb], bad);
    else {
        char at[48];
        snprintf(at, sizeof at, "%ldx%ldx%ld %s", s->m, s->n, s->k, op_names[2 * s->ta + s->tb]);
        printf("%-22s %-6s %5d %8.3f %6.3f %6.3f  %-22s %3d\n", precision, set, n, exp(logs / n),
               p10, v[0].ratio, at, bad);
    }
}

/* ---- the command --------------------------------------------------------- */

static const char sweep_usage[] =
    "usage: gputile-bench gemm --sweep-shapes [--precision fp32|3xtf32|tf32|all[,...]]\n"
    "                          [--algorithms NAME[,...]] [--shapes N] [--seed S] [--csv]\n"
    "                          [--runs N] [--warmup N] [MxNxK[:OP] ...]\n"
    "       gputile-bench gemm --list-shapes [--shapes N] [--seed S] [--csv]\n"
    "  libgputile AUTO next to cublasSgemm on N seeded shapes (default 160, seed 17) and the\n"
    "  eight tuned ones: m, n, k log-uniform over [8, 16384], a third of the drawn shapes with\n"
    "  m*n*k < 2^30, the rest above; transposes NN, NT, TN, TT in turn. --precision: default\n"
    "  fp32; cuBLAS FP32 default math beside fp32 and 3xtf32, TF32 tensor-op math beside tf32.\n"
    "  L2 flushed before each timed call, rows rotated each round, median of --runs (default\n"
    "  20) cut to about 0.3 s of calls per row (at least 3). ratio = cuBLAS ms / libgputile ms\n"
    "  (> 1: libgputile faster); check: libgputile's result against cuBLAS's (ok or BAD).\n"
    "  --algorithms: the FP32 rows are these algorithms (names as gputile_algorithm_name\n"
    "  gives them, auto among them), each forced and summarised apart (default: auto);\n"
    "  NAME:S forces a split of k into S too (what a cost model is fitted on); auto and\n"
    "  auto:S apply to the tensor-core precisions too (AUTO's row, its split forced).\n"
    "  MxNxK[:OP] (OP NN, NT, TN or TT; default NN): these shapes alone, of kind \"given\".\n"
    "  Exit status 1 if any check is BAD. --list-shapes prints the shapes and their counts and\n"
    "  exits (no GPU needed).\n";

static bool parse_precisions(const char *arg, bool want[3])
{
    char list[64];
    if (strlen(arg) >= sizeof list)
        return false;
    snprintf(list, sizeof list, "%s", arg);
    want[0] = want[1] = want[2] = false;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "all") == 0)
            want[0] = want[1] = want[2] = true;
        else if (strcmp(t, "fp32") == 0)
            want[GPUTILE_PRECISION_FP32] = true;
        else if (strcmp(t, "3xtf32") == 0)
            want[GPUTILE_PRECISION_FP32_3XTF32] = true;
        else if (strcmp(t, "tf32") == 0)
            want[GPUTILE_PRECISION_TF32] = true;
        else
            return false;
    }
    return want[0] || want[1] || want[2];
}

static bool parse_ull(const char *arg, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (arg[0] == '-' || arg[0] == '\0')
        return false;
    unsigned long long v = strtoull(arg, &end, 0);
    if (*end != '\0' || v > max)
        return false;
    *out = v;
    return true;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *host_alloc(size_t bytes)
{
    void *p = calloc(1, bytes);
    if (p == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    return p;
}

int bench_gemm_sweep_shapes(int argc, char **argv)
{
    static const char *const precision_names[3] = {"fp32", "3xtf32", "tf32"};
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    bool want[3] = {true, false, false}, list = false;
    unsigned long long drawn = SWEEP_DEFAULT_SHAPES, seed = SWEEP_DEFAULT_SEED;
    int algorithms[MAX_ALGORITHMS] = {GPUTILE_ALGO_AUTO}, splits[MAX_ALGORITHMS] = {0};
    int nalgorithms = 1, ngiven = 0;
    sweep_shape given[MAX_GIVEN];
    for (int i = 1; i < argc; ++i) {
        sweep_shape g = {0, 0, 0, 0, 0, KIND_GIVEN};
        char op[3] = "NN", end;
        if (bench_is_help(argv[i])) {
            return bench_usage(sweep_usage, true);
        } else if (strcmp(argv[i], "--sweep-shapes") == 0) {
            continue;
        } else if (strcmp(argv[i], "--list-shapes") == 0) {
            list = true;
        } else if (strcmp(argv[i], "--precision") == 0 && i + 1 < argc) {
            if (!parse_precisions(argv[++i], want)) {
                fprintf(stderr, "gputile-bench gemm: --precision takes all, fp32, 3xtf32, tf32 "
                                "or a comma-separated list of them\n");
                return bench_usage(sweep_usage, false);
            }
        } else if (strcmp(argv[i], "--algorithms") == 0 && i + 1 < argc) {
            if (!bench_parse_algorithms(argv[++i], algorithms, splits, &nalgorithms,
                                        MAX_ALGORITHMS)) {
                fprintf(stderr,
                        "gputile-bench gemm: --algorithms takes up to %d names of "
                        "gputile_algorithm_name(), each with an optional :SPLIT, "
                        "comma-separated\n",
                        MAX_ALGORITHMS);
                return bench_usage(sweep_usage, false);
            }
        } else if (strcmp(argv[i], "--shapes") == 0 && i + 1 < argc) {
            if (!parse_ull(argv[++i], SWEEP_MAX_SHAPES, &drawn)) {
                fprintf(stderr, "gputile-bench gemm: --shapes takes 0 to %d\n", SWEEP_MAX_SHAPES);
                return bench_usage(sweep_usage, false);
            }
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (!parse_ull(argv[++i], UINT64_MAX, &seed)) {
                fprintf(stderr, "gputile-bench gemm: --seed takes an unsigned 64-bit integer\n");
                return bench_usage(sweep_usage, false);
            }
        } else if ((sscanf(argv[i], "%ldx%ldx%ld%c", &g.m, &g.n, &g.k, &end) == 3 ||
                    (sscanf(argv[i], "%ldx%ldx%ld:%2[NT]%c", &g.m, &g.n, &g.k, op, &end) == 4 &&
                     op[1] != '\0')) &&
                   g.m > 0 && g.n > 0 && g.k > 0 && g.m <= 65536 && g.n <= 65536 && g.k <= 65536 &&
                   ngiven < MAX_GIVEN) {
            g.ta = op[0] == 'T', g.tb = op[1] == 'T';
            given[ngiven++] = g;
        } else {
            fprintf(stderr, "gputile-bench gemm: unknown argument %s\n", argv[i]);
            return bench_usage(sweep_usage, false);
        }
    }
    /* shapes given: those alone (no drawn or tuned ones) */
    const int count = ngiven > 0 ? ngiven : (int)drawn + 8;
    sweep_shape *shapes = ngiven > 0 ? NULL : draw_shapes((int)drawn, seed);
    if (ngiven > 0) {
        shapes = malloc((size_t)ngiven * sizeof *shapes);
        if (shapes == NULL) {
            fprintf(stderr, "gputile-bench: out of memory\n");
            return 1;
        }
        memcpy(shapes, given, (size_t)ngiven * sizeof *shapes);
    }
    if (list) {
        print_shape_list(shapes, count, ngiven > 0 ? -1 : (int)drawn, seed, o.csv);
        free(shapes);
        return 0;
    }
    bench_require_device("gemm");
    const double t0 = now_s();

    int dev;
    struct cudaDeviceProp prop;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&prop, dev));
    sweep_bufs bf;
    BENCH_CUDA(cudaStreamCreateWithFlags(&bf.stream, cudaStreamNonBlocking));
    bf.h = bench_cublas_handle(bf.stream, CUBLAS_DEFAULT_MATH); /* FP32 inputs: no TF32 */
    cublasHandle_t h_tf32 = bench_cublas_handle(bf.stream, CUBLAS_TF32_TENSOR_OP_MATH);

    /* one allocation of each matrix, as large as the sweep needs */
    size_t ea = 0, eb = 0, ec = 0;
    for (int i = 0; i < count; ++i) {
        const size_t x = (size_t)shapes[i].m * shapes[i].k, y = (size_t)shapes[i].k * shapes[i].n,
                     z = (size_t)shapes[i].m * shapes[i].n;
        ea = x > ea ? x : ea;
        eb = y > eb ? y : eb;
        ec = z > ec ? z : ec;
    }
    bf.flush_bytes = (size_t)256 << 20;
    if (bf.flush_bytes < 4 * (size_t)prop.l2CacheSize)
        bf.flush_bytes = 4 * (size_t)prop.l2CacheSize;
    BENCH_CUDA(cudaMalloc((void **)&bf.a, ea * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&bf.b, eb * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&bf.c, ec * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&bf.cref, ec * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&bf.flush, bf.flush_bytes));
    BENCH_CUDA(bench_fill(bf.a, ea, 1, bf.stream));
    BENCH_CUDA(bench_fill(bf.b, eb, 2, bf.stream));
    cudaEvent_t *ev = host_alloc((size_t)2 * MAX_ROWS * o.runs * sizeof *ev);
    for (int e = 0; e < 2 * MAX_ROWS * o.runs; ++e)
        BENCH_CUDA(cudaEventCreate(&ev[e]));
    /* the libgputile rows of every shape ("kinds"): the FP32 algorithms, then
     * AUTO in the tensor-core precisions; each summarised apart */
    struct kind {
        int precision, algorithm, split_k;
        char label[40];
    } kinds[MAX_KINDS];
    int nkinds = 0;
    bool auto_listed = false; /* the tensor precisions: AUTO unless auto:S alone */
    for (int j = 0; j < nalgorithms; ++j)
        auto_listed = auto_listed || (algorithms[j] == GPUTILE_ALGO_AUTO && splits[j] == 0);
    for (int p = 0; p < 3; ++p) {
        if (!want[p])
            continue;
        for (int j = 0; j < nalgorithms + (auto_listed ? 0 : 1); ++j) {
            /* FP32: every row named; the tensor precisions: AUTO and auto:S */
            const bool fp32 = p == GPUTILE_PRECISION_FP32, extra = j == nalgorithms;
            if (!fp32 && !extra && algorithms[j] != GPUTILE_ALGO_AUTO)
                continue;
            if (fp32 && extra)
                continue;
            struct kind *x = &kinds[nkinds++];
            x->precision = p;
            x->algorithm = extra ? GPUTILE_ALGO_AUTO : algorithms[j];
            x->split_k = extra ? 0 : splits[j];
            if (x->algorithm == GPUTILE_ALGO_AUTO && x->split_k == 0)
                snprintf(x->label, sizeof x->label, "%s", precision_names[p]);
            else if (x->split_k == 0)
                snprintf(x->label, sizeof x->label, "%s:%s", precision_names[p],
                         gputile_algorithm_name(x->algorithm));
            else
                snprintf(x->label, sizeof x->label, "%s:%s:%d", precision_names[p],
                         gputile_algorithm_name(x->algorithm), x->split_k);
        }
    }
    result *results[MAX_KINDS];
    int nresults[MAX_KINDS] = {0};
    for (int q = 0; q < nkinds; ++q)
        results[q] = host_alloc((size_t)count * sizeof *results[q]);

    printf("# gputile-bench gemm --sweep-shapes --shapes %llu --seed %llu: %s, libgputile %s; "
           "%d shapes; L2 flushed (%zu MiB memset) before each timed call, rows rotated, median "
           "of up to %d runs (about %.1f s per row, at least %d)\n",
           drawn, seed, prop.name, gputile_version_string(), count, bf.flush_bytes >> 20, o.runs,
           ROW_BUDGET_MS / 1000, MIN_RUNS);
    if (o.csv)
        printf("gpu,i,kind,m,n,k,ta,tb,precision,lib_ms,cublas_ms,ratio,algorithm,split_k,runs,"
               "check,check_e,requested\n");
    else
        printf("%4s %-5s %6s %6s %6s %-2s %-6s %10s %10s %7s %-18s %5s %4s %-5s %7s\n", "i", "kind",
               "m", "n", "k", "op", "prec", "lib ms", "cuBLAS ms", "ratio", "algorithm", "split",
               "runs", "check", "e");
    fflush(stdout);

    int bad = 0;
    for (int i = 0; i < count; ++i) {
        const sweep_shape *s = &shapes[i];
        row rows[MAX_ROWS];
        int nrows = 0, anchor_fp32 = -1, anchor_tf32 = -1;
        if (want[GPUTILE_PRECISION_FP32] || want[GPUTILE_PRECISION_FP32_3XTF32]) {
            anchor_fp32 = nrows;
            rows[nrows++] = (row){0, 0, 0, -1, bf.h, -1, 0, {0}, 0, true};
        }
        if (want[GPUTILE_PRECISION_TF32]) {
            anchor_tf32 = nrows;
            rows[nrows++] = (row){0, 0, 0, -1, h_tf32, -1, 0, {0}, 0, true};
        }
        for (int q = 0; q < nkinds; ++q) {
            const int p = kinds[q].precision;
            rows[nrows++] = (row){p,
                                  kinds[q].algorithm,
                                  kinds[q].split_k,
                                  q,
                                  NULL,
                                  p == GPUTILE_PRECISION_TF32 ? anchor_tf32 : anchor_fp32,
                                  0,
                                  {0},
                                  0,
                                  true};
        }
        check_rows(rows, nrows, s, &bf);
        const int runs = time_rows(rows, nrows, s, &bf, &o, ev);

        char progress[160];
        int at = snprintf(progress, sizeof progress, "  [%d/%d] %ldx%ldx%ld %s:", i + 1, count,
                          s->m, s->n, s->k, op_names[2 * s->ta + s->tb]);
        for (int r = 0; r < nrows; ++r) {
            const row *x = &rows[r];
            if (x->h != NULL)
                continue;
            const double ratio = rows[x->anchor].ms / x->ms;
            const char *algo = gputile_algorithm_name(x->used.algorithm_used);
            results[x->kind][nresults[x->kind]++] = (result){ratio, i, x->ok};
            char requested[48]; /* NAME, or NAME:S with a forced split */
            snprintf(requested, sizeof requested, x->split_k > 0 ? "%s:%d" : "%s",
                     gputile_algorithm_name(x->algorithm), x->split_k);
            bad += !x->ok;
            if (o.csv)
                printf("\"%s\",%d,%s,%ld,%ld,%ld,%c,%c,%s,%.5f,%.5f,%.4f,%s,%d,%d,%s,%.3g,%s\n",
                       prop.name, i, kind_names[s->kind], s->m, s->n, s->k, s->ta ? 'T' : 'N',
                       s->tb ? 'T' : 'N', precision_names[x->precision], x->ms, rows[x->anchor].ms,
                       ratio, algo != NULL ? algo : "?", x->used.split_k_used, runs,
                       x->ok ? "ok" : "BAD", x->e, requested);
            else
                printf("%4d %-5s %6ld %6ld %6ld %-2s %-6s %10.4f %10.4f %7.3f %-18s %5d %4d %-5s "
                       "%7.2g\n",
                       i, kind_names[s->kind], s->m, s->n, s->k, op_names[2 * s->ta + s->tb],
                       precision_names[x->precision], x->ms, rows[x->anchor].ms, ratio,
                       algo != NULL ? algo : "?", x->used.split_k_used, runs, x->ok ? "ok" : "BAD",
                       x->e);
            if (at > 0 && (size_t)at < sizeof progress)
                at += snprintf(progress + at, sizeof progress - (size_t)at, " %s %.3f%s",
                               kinds[x->kind].label, ratio, x->ok ? "" : " BAD");
        }
        fflush(stdout);
        bench_progress("%s (%.0f s)", progress, now_s() - t0);
    }

    /* summaries: the whole sweep, then the eight tuned shapes (the last rows) */
    if (!o.csv)
        printf("\n%-22s %-6s %5s %8s %6s %6s  %-22s %3s\n", "precision[:algorithm]", "set", "count",
               "geomean", "p10", "min", "at", "BAD");
    for (int q = 0; q < nkinds; ++q) {
        int tuned = 0;
        for (int j = 0; j < nresults[q]; ++j)
            tuned += shapes[results[q][j].shape].kind == KIND_LIST;
        result *v = host_alloc((size_t)nresults[q] * sizeof *v + 1);
        memcpy(v, results[q] + (nresults[q] - tuned), (size_t)tuned * sizeof *v);
        summarise(kinds[q].label, "sweep", results[q], nresults[q], shapes, o.csv);
        summarise(kinds[q].label, "list", v, tuned, shapes, o.csv);
        free(v);
    }
    printf("# elapsed %.0f s; %d BAD row(s)\n", now_s() - t0, bad);
    bench_progress("gputile-bench gemm --sweep-shapes: %.0f s, %d BAD row(s)", now_s() - t0, bad);

    for (int e = 0; e < 2 * MAX_ROWS * o.runs; ++e)
        cudaEventDestroy(ev[e]);
    free(ev);
    for (int q = 0; q < nkinds; ++q)
        free(results[q]);
    BENCH_CUDA(cudaFree(bf.a));
    BENCH_CUDA(cudaFree(bf.b));
    BENCH_CUDA(cudaFree(bf.c));
    BENCH_CUDA(cudaFree(bf.cref));
    BENCH_CUDA(cudaFree(bf.flush));
    cublasDestroy(bf.h);
    cublasDestroy(h_tf32);
    BENCH_CUDA(cudaStreamDestroy(bf.stream));
    free(shapes);
    return bad ? 1 : 0;
}
