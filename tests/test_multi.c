/* SPDX-License-Identifier: MIT */
/*
 * test_multi.c (GPU): the calls beyond one GPU (issue 22).
 *
 *  - gputile_gemm_devices() on host matrices (pageable and pinned, views
 *    inside guarded parents) over device lists {0}, every device, and the
 *    devices in reverse order: tall C (split by rows) and wide C (by
 *    columns), every op; small integers compared for equality with cuBLAS
 *    (pedantic FP32) and with every precision, uniform floats within
 *    (k + 4) FLT_EPSILON of the |A||B| scale.
 *  - In a --with-nccl build (GPUTILE_TEST_NCCL): single-rank communicators
 *    (ncclCommInitAll with one device): the distributed histograms (i32,
 *    f32, reduce; all-reduce and root; overwrite and accumulate; in place)
 *    against exact CPU counts, and gputile_dist_gemm() against cuBLAS over
 *    several panels, every op and precision.
 *  - Multi-rank runs, one thread per visible GPU over one ncclCommInitAll
 *    communicator; skipped with one GPU: each rank's histogram of its own
 *    samples summed to every rank or to the last one (the others' counts
 *    must stay as they were), and the SUMMA GEMM gathered from every rank.
 * NCCL_NVLS_ENABLE=0 is set before any communicator exists: NVLink
 * multicast is never used.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/expect.h"
#include "support/gpu.h"

#ifdef GPUTILE_TEST_NCCL
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop
#endif

#define MAX_RANKS 8
#define GUARD_ROWS 2
#define GUARD_COLS 3

static int device_count(void)
{
    int n = 0;
    GPUTEST_CUDA(cudaGetDeviceCount(&n));
    return n < MAX_RANKS ? n : MAX_RANKS;
}

/* ---- matrices: a view inside a parent with guard rows and columns ------------- */
typedef struct hmat {
    size_t h, w, stride;
    float *parent; /* (h + 2 GUARD_ROWS) x stride */
    bool pinned;
} hmat;

static hmat hmat_new(size_t h, size_t w, bool pinned)
{
    hmat m = {h, w, w + 2 * GUARD_COLS, NULL, pinned};
    size_t bytes = (h + 2 * GUARD_ROWS) * m.stride * sizeof(float);
    if (pinned)
        OK_ALLOC(gputile_pinned_alloc((void **)&m.parent, bytes, GPUTILE_PINNED_PORTABLE));
    else
        m.parent = malloc(bytes);
    cr_assert_not_null(m.parent);
    for (size_t i = 0; i < (h + 2 * GUARD_ROWS) * m.stride; ++i)
        m.parent[i] = gputest_poison();
    return m;
}

static void hmat_free(hmat *m)
{
    if (m->pinned)
        OK(gputile_pinned_free(m->parent));
    else
        free(m->parent);
}

static size_t parent_size(const hmat *m)
{
    return (m->h + 2 * GUARD_ROWS) * m->stride;
}

static float *at(const hmat *m, size_t r, size_t c)
{
    return m->parent + (r + GUARD_ROWS) * m->stride + GUARD_COLS + c;
}

static gputile_matrix view(const hmat *m)
{
    return gputile_matrix_view(at(m, 0, 0), m->w, m->h, m->stride);
}

static void fill(hmat *m, bool integers)
{
    for (size_t r = 0; r < m->h; ++r)
        for (size_t c = 0; c < m->w; ++c)
            *at(m, r, c) = integers ? gputest_small_int(-3, 3) : gputest_uniform(-1, 1);
}

/* A compact device copy of a rectangle of m on the current device. */
static gputile_matrix to_device(const hmat *m, size_t r0, size_t c0, size_t w, size_t h)
{
    gputile_matrix d = {w, h, w > 0 ? w : 1, NULL}; /* cuBLAS wants ld >= 1 */
    if (w == 0 || h == 0)
        return d;
    GPUTEST_CUDA(gputest_malloc((void **)&d.elements, w * h * sizeof(float)));
    GPUTEST_CUDA(cudaMemcpy2D(d.elements, w * sizeof(float), at(m, r0, c0),
                              m->stride * sizeof(float), w * sizeof(float), h,
                              cudaMemcpyHostToDevice));
    return d;
}

static __attribute__((unused)) void from_device(hmat *m, size_t r0, size_t c0, gputile_matrix d)
{
    if (d.width == 0 || d.height == 0)
        return;
    GPUTEST_CUDA(cudaMemcpy2D(at(m, r0, c0), m->stride * sizeof(float), d.elements,
                              d.stride * sizeof(float), d.width * sizeof(float), d.height,
                              cudaMemcpyDeviceToHost));
}

/* ---- the reference: cuBLAS on device 0 --------------------------------------- */
/* ref = alpha op(A) op(B) + beta C and, for float inputs, scale = |alpha|
 * |op(A)| |op(B)| + |beta C|, both m x n compact on the host. */
static void reference(gputile_op ta, gputile_op tb, float alpha, const hmat *a, const hmat *b,
                      float beta, const hmat *c, float *ref, float *scale)
{
    GPUTEST_CUDA(cudaSetDevice(0));
    gputile_matrix da = to_device(a, 0, 0, a->w, a->h), db = to_device(b, 0, 0, b->w, b->h);
    gputile_matrix dc = to_device(c, 0, 0, c->w, c->h);
    gputest_cublas_gemm(ta, tb, alpha, da, db, beta, dc);
    GPUTEST_CUDA(cudaMemcpy(ref, dc.elements, c->w * c->h * sizeof(float), cudaMemcpyDeviceToHost));
    if (scale != NULL) {
        float *h = malloc((a->w * a->h + b->w * b->h) * sizeof(float));
        cr_assert_not_null(h);
        for (int which = 0; which < 2; ++which) {
            const hmat *x = which ? b : a;
            gputile_matrix dx = which ? db : da;
            for (size_t r = 0; r < x->h; ++r)
                for (size_t col = 0; col < x->w; ++col)
                    h[r * x->w + col] = fabsf(*at(x, r, col));
            GPUTEST_CUDA(
                cudaMemcpy(dx.elements, h, x->w * x->h * sizeof(float), cudaMemcpyHostToDevice));
        }
        gputest_cublas_gemm(ta, tb, fabsf(alpha), da, db, 0.0f, dc);
        GPUTEST_CUDA(
            cudaMemcpy(scale, dc.elements, c->w * c->h * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t r = 0; r < c->h; ++r)
            for (size_t col = 0; col < c->w; ++col)
                scale[r * c->w + col] += fabsf(beta * *at(c, r, col));
        free(h);
    }
    GPUTEST_CUDA(cudaFree(da.elements));
    GPUTEST_CUDA(cudaFree(db.elements));
    GPUTEST_CUDA(cudaFree(dc.elements));
}

/* got's view against ref (exact without scale), its guard band against
 * was (the parent before the call). */
static void compare(const char *what, const hmat *got, const float *was, const float *ref,
                    const float *scale, size_t k)
{
    for (size_t i = 0; i < parent_size(got); ++i) {
        size_t r = i / got->stride, col = i % got->stride;
        bool inside = r >= GUARD_ROWS && r < GUARD_ROWS + got->h && col >= GUARD_COLS &&
                      col < GUARD_COLS + got->w;
        if (!inside) {
            cr_assert(memcmp(&got->parent[i], &was[i], sizeof(float)) == 0,
                      "%s: guard band written at parent (%zu, %zu)", what, r, col);
            continue;
        }
        size_t vr = r - GUARD_ROWS, vc = col - GUARD_COLS, j = vr * got->w + vc;
        float x = got->parent[i];
        if (scale == NULL)
            cr_assert(x == ref[j], "%s: C(%zu, %zu) = %.9g, cuBLAS %.9g", what, vr, vc, x, ref[j]);
        else {
            double bound = (double)(k + 4) * FLT_EPSILON * scale[j] + FLT_MIN;
            cr_assert(fabs((double)x - ref[j]) <= bound,
                      "%s: C(%zu, %zu) = %.9g, cuBLAS %.9g, bound %.3g", what, vr, vc, x, ref[j],
                      bound);
        }
    }
}

/* A GEMM problem on host matrices: stored A, B as the ops say. */
typedef struct problem {
    size_t m, n, k;
    gputile_op ta, tb;
    float alpha, beta;
    hmat a, b, c;
    float *ref, *scale, *c0; /* c0: C's parent before the call */
} problem;

static problem problem_new(size_t m, size_t n, size_t k, gputile_op ta, gputile_op tb, float alpha,
                           float beta, bool integers, bool pinned)
{
    problem p = {m, n, k, ta, tb, alpha, beta, {0}, {0}, {0}, NULL, NULL, NULL};
    p.a = ta == GPUTILE_OP_T ? hmat_new(k, m, pinned) : hmat_new(m, k, pinned);
    p.b = tb == GPUTILE_OP_T ? hmat_new(n, k, pinned) : hmat_new(k, n, pinned);
    p.c = hmat_new(m, n, pinned);
    fill(&p.a, integers);
    fill(&p.b, integers);
    fill(&p.c, integers);
    p.ref = malloc(m * n * sizeof(float));
    p.scale = integers ? NULL : malloc(m * n * sizeof(float));
    p.c0 = malloc(parent_size(&p.c) * sizeof(float));
    cr_assert(p.ref && p.c0 && (integers || p.scale));
    reference(ta, tb, alpha, &p.a, &p.b, beta, &p.c, p.ref, p.scale);
    memcpy(p.c0, p.c.parent, parent_size(&p.c) * sizeof(float));
    return p;
}

static void problem_free(problem *p)
{
    hmat_free(&p->a);
    hmat_free(&p->b);
    hmat_free(&p->c);
    free(p->ref);
    free(p->scale);
    free(p->c0);
}

static void problem_reset_c(problem *p)
{
    memcpy(p->c.parent, p->c0, parent_size(&p->c) * sizeof(float));
}

static const int precisions[] = {GPUTILE_PRECISION_FP32, GPUTILE_PRECISION_FP32_3XTF32,
                                 GPUTILE_PRECISION_TF32};
static const char *const precision_names[] = {"fp32", "3xtf32", "tf32"};

/* ---- gputile_gemm_devices --------------------------------------------------------- */
struct shape {
    size_t m, n, k;
};
static const struct shape host_shapes[] = {
    {1000, 300, 257}, /* tall: rows */
    {130, 2100, 64},  /* wide: columns */
    {1, 777, 5},      /* one row */
    {513, 513, 1},    /* k = 1 */
};

static void devices_case(const int *devices, int ndevices, bool pinned)
{
    for (size_t si = 0; si < sizeof host_shapes / sizeof host_shapes[0]; ++si)
        for (int t = 0; t < 4; ++t)
            for (int integers = 1; integers >= 0; --integers) {
                const struct shape s = host_shapes[si];
                gputile_op ta = t & 1 ? GPUTILE_OP_T : GPUTILE_OP_N;
                gputile_op tb = t & 2 ? GPUTILE_OP_T : GPUTILE_OP_N;
                problem p = problem_new(s.m, s.n, s.k, ta, tb, 1.5f, integers ? -1.0f : 0.5f,
                                        integers, pinned);
                for (size_t pi = 0; pi < (integers ? 3u : 1u); ++pi) {
                    char what[160];
                    snprintf(what, sizeof what, "%zux%zux%zu op %c%c %s %s %s, %d devices", s.m,
                             s.n, s.k, ta ? 'T' : 'N', tb ? 'T' : 'N',
                             integers ? "integers" : "floats", precision_names[pi],
                             pinned ? "pinned" : "pageable", ndevices);
                    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
                    o.precision = precisions[pi];
                    o.algorithm_used = -1;
                    problem_reset_c(&p);
                    gputile_status st =
                        gputile_gemm_devices(devices, ndevices, ta, tb, p.alpha, view(&p.a),
                                             view(&p.b), p.beta, view(&p.c), &o);
                    cr_assert_eq(st, GPUTILE_SUCCESS, "%s: %s (%s)", what, gputile_status_name(st),
                                 gputile_last_cuda_error_name());
                    cr_assert(gputile_algorithm_name(o.algorithm_used) != NULL &&
                                  o.algorithm_used != GPUTILE_ALGO_AUTO,
                              "%s: algorithm_used %d", what, o.algorithm_used);
                    compare(what, &p.c, p.c0, p.ref, p.scale, s.k);
                }
                problem_free(&p);
            }
}

Test(multi, gemm_devices_one, .init = gputest_require_device, .timeout = 300)
{
    const int one[] = {0};
    devices_case(one, 1, false);
    devices_case(one, 1, true);
}

Test(multi, gemm_devices_all, .init = gputest_require_device, .timeout = 300)
{
    int n = device_count(), devices[MAX_RANKS];
    if (n < 2)
        cr_skip_test("one GPU visible: gputile_gemm_devices over several is not exercised");
    for (int i = 0; i < n; ++i)
        devices[i] = n - 1 - i; /* reverse order: the list, not the ordinals, orders blocks */
    devices_case(devices, n, false);
    for (int i = 0; i < n; ++i)
        devices[i] = i;
    devices_case(devices, n, true);
    int current = -1;
    GPUTEST_CUDA(cudaGetDevice(&current));
    cr_assert_eq(current, 0, "the calling thread's device changed");
}

#ifdef GPUTILE_TEST_NCCL
/* ---- communicators ------------------------------------------------------------ */
static int ranks_made;
static ncclComm_t comms[MAX_RANKS];

static void comms_init(int n)
{
    int devs[MAX_RANKS];
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast */
    for (int i = 0; i < n; ++i)
        devs[i] = i;
    ncclResult_t r = ncclCommInitAll(comms, n, devs);
    cr_assert_eq(r, ncclSuccess, "ncclCommInitAll(%d): %s", n, ncclGetErrorString(r));
    ranks_made = n;
    GPUTEST_CUDA(cudaSetDevice(0));
}

static void comms_fini(void)
{
    for (int i = 0; i < ranks_made; ++i)
        ncclCommDestroy(comms[i]);
    ranks_made = 0;
}

static void single_init(void)
{
    gputest_require_device();
    comms_init(1);
}

static void multi_init(void)
{
    gputest_require_device();
    int n = device_count();
    if (n < 2)
        cr_skip_test("one GPU visible: the multi-rank runs need two or more");
    comms_init(n);
}

/* One call per rank, each on its own thread with its device current. */
typedef struct rank_call {
    int rank;
    gputile_status (*call)(struct rank_call *);
    void *ctx;
    gputile_status status;
    int nccl_error;
} rank_call;

static void *rank_thread(void *arg)
{
    rank_call *rc = arg;
    rc->status = cudaSetDevice(rc->rank) == cudaSuccess ? rc->call(rc) : GPUTILE_ERROR_CUDA;
    if (rc->status == GPUTILE_SUCCESS && cudaDeviceSynchronize() != cudaSuccess)
        rc->status = GPUTILE_ERROR_CUDA;
    rc->nccl_error = gputile_last_nccl_error();
    return NULL;
}

static void run_ranks(gputile_status (*call)(rank_call *), void *ctx, const char *what)
{
    rank_call rc[MAX_RANKS];
    pthread_t th[MAX_RANKS];
    for (int r = 0; r < ranks_made; ++r) {
        rc[r] = (rank_call){r, call, ctx, GPUTILE_SUCCESS, 0};
        cr_assert_eq(pthread_create(&th[r], NULL, rank_thread, &rc[r]), 0);
    }
    for (int r = 0; r < ranks_made; ++r)
        pthread_join(th[r], NULL);
    for (int r = 0; r < ranks_made; ++r)
        cr_assert_eq(rc[r].status, GPUTILE_SUCCESS, "%s, rank %d: %s (NCCL %d)", what, r,
                     gputile_status_name(rc[r].status), rc[r].nccl_error);
    GPUTEST_CUDA(cudaSetDevice(0));
}

/* ---- distributed histogram ------------------------------------------------------- */
#define POISON_COUNT 0xDEADBEEFCAFEF00Dull

typedef struct hist_job {
    int32_t nbins;
    int root, kind; /* kind 0: i32, 1: f32, 2: reduce of a local i32 histogram */
    gputile_hist_mode mode;
    size_t n; /* samples per rank */
    int32_t *si[MAX_RANKS];
    float *sf[MAX_RANKS];
    uint64_t *counts[MAX_RANKS], *local[MAX_RANKS];
} hist_job;

static gputile_status hist_call(rank_call *rc)
{
    hist_job *j = rc->ctx;
    const int r = rc->rank;
    switch (j->kind) {
    case 0:
        return gputile_dist_histogram_i32(j->si[r], j->n, j->nbins, j->counts[r], j->mode, j->root,
                                          comms[r], NULL, NULL);
    case 1:
        return gputile_dist_histogram_f32(j->sf[r], j->n, 0.0f, (float)j->nbins, j->nbins,
                                          j->counts[r], j->mode, j->root, comms[r], NULL, NULL);
    default: {
        gputile_status s = gputile_histogram_i32(j->si[r], j->n, j->nbins, j->local[r],
                                                 GPUTILE_HIST_OVERWRITE, NULL, NULL);
        return s != GPUTILE_SUCCESS
                   ? s
                   : gputile_dist_histogram_reduce(j->local[r], j->nbins, j->counts[r], j->mode,
                                                   j->root, comms[r], NULL);
    }
    }
}

/* Every rank's samples drawn here; the expected counts on the host. */
static void hist_case(int kind, int32_t nbins, int root, gputile_hist_mode mode, size_t n)
{
    const int p = ranks_made;
    hist_job j = {.nbins = nbins, .root = root, .kind = kind, .mode = mode, .n = n};
    uint64_t *want = calloc((size_t)nbins, sizeof(uint64_t));
    uint64_t *prior = malloc((size_t)nbins * sizeof(uint64_t) * (size_t)p);
    uint64_t *got = malloc((size_t)nbins * sizeof(uint64_t));
    int32_t *hs = malloc(n * sizeof(int32_t));
    float *hf = malloc(n * sizeof(float));
    cr_assert(want && prior && got && hs && hf);
    for (int r = 0; r < p; ++r) {
        GPUTEST_CUDA(cudaSetDevice(r));
        for (size_t i = 0; i < n; ++i) {
            hs[i] = (int32_t)(gputest_rand() % ((uint64_t)nbins + 6)) - 3;
            hf[i] = gputest_uniform(-2.0f, (float)nbins + 2.0f);
            if (kind == 1) {
                float x = hf[i];
                if (x >= 0.0f && x < (float)nbins) { /* [0, nbins): scale 1, bin floor(x) */
                    int64_t bin = (int64_t)floorf(x);
                    ++want[bin >= nbins ? nbins - 1 : bin];
                }
            } else
                ++want[hs[i] < 0 ? 0 : hs[i] >= nbins ? nbins - 1 : hs[i]];
        }
        GPUTEST_CUDA(gputest_malloc((void **)&j.si[r], n * sizeof(int32_t) + 16));
        GPUTEST_CUDA(gputest_malloc((void **)&j.sf[r], n * sizeof(float) + 16));
        GPUTEST_CUDA(gputest_malloc((void **)&j.counts[r], (size_t)nbins * sizeof(uint64_t)));
        GPUTEST_CUDA(gputest_malloc((void **)&j.local[r], (size_t)nbins * sizeof(uint64_t)));
        GPUTEST_CUDA(cudaMemcpy(j.si[r], hs, n * sizeof(int32_t), cudaMemcpyHostToDevice));
        GPUTEST_CUDA(cudaMemcpy(j.sf[r], hf, n * sizeof(float), cudaMemcpyHostToDevice));
        uint64_t *pr = prior + (size_t)r * (size_t)nbins;
        for (int32_t b = 0; b < nbins; ++b)
            pr[b] = mode == GPUTILE_HIST_ACCUMULATE ? gputest_rand() % 1000 : POISON_COUNT;
        GPUTEST_CUDA(
            cudaMemcpy(j.counts[r], pr, (size_t)nbins * sizeof(uint64_t), cudaMemcpyHostToDevice));
    }
    char what[128];
    snprintf(what, sizeof what, "%s, %d bins, root %d, %s, %zu samples x %d ranks",
             kind == 0   ? "i32"
             : kind == 1 ? "f32"
                         : "reduce",
             nbins, root, mode == GPUTILE_HIST_ACCUMULATE ? "accumulate" : "overwrite", n, p);
    run_ranks(hist_call, &j, what);
    for (int r = 0; r < p; ++r) {
        GPUTEST_CUDA(cudaSetDevice(r));
        GPUTEST_CUDA(
            cudaMemcpy(got, j.counts[r], (size_t)nbins * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        const uint64_t *pr = prior + (size_t)r * (size_t)nbins;
        const bool receives = root == GPUTILE_DIST_ALL_RANKS || root == r;
        for (int32_t b = 0; b < nbins; ++b) {
            uint64_t expect = !receives                         ? pr[b]
                              : mode == GPUTILE_HIST_ACCUMULATE ? pr[b] + want[b]
                                                                : want[b];
            cr_assert_eq(got[b], expect, "%s: rank %d bin %d: %llu, expected %llu", what, r, b,
                         (unsigned long long)got[b], (unsigned long long)expect);
        }
        GPUTEST_CUDA(cudaFree(j.si[r]));
        GPUTEST_CUDA(cudaFree(j.sf[r]));
        GPUTEST_CUDA(cudaFree(j.counts[r]));
        GPUTEST_CUDA(cudaFree(j.local[r]));
    }
    GPUTEST_CUDA(cudaSetDevice(0));
    free(want);
    free(prior);
    free(got);
    free(hs);
    free(hf);
}

static void hist_cases(void)
{
    const int32_t bins[] = {1, 256, 4096, 1 << 20};
    const int last = ranks_made - 1;
    for (size_t i = 0; i < sizeof bins / sizeof bins[0]; ++i)
        for (int kind = 0; kind < 3; ++kind) {
            size_t n = (size_t)1 << 20 | (gputest_rand() % 4096);
            hist_case(kind, bins[i], GPUTILE_DIST_ALL_RANKS, GPUTILE_HIST_OVERWRITE, n);
            hist_case(kind, bins[i], last, GPUTILE_HIST_ACCUMULATE, n);
        }
    hist_case(0, 300, GPUTILE_DIST_ALL_RANKS, GPUTILE_HIST_ACCUMULATE, 0); /* no samples */
    hist_case(2, 300, 0, GPUTILE_HIST_OVERWRITE, 12345);
}

Test(dist_single, histogram, .init = single_init, .fini = comms_fini, .timeout = 300)
{
    hist_cases();
}

/* The in-place reduction (local == counts, OVERWRITE): NCCL's in-place all-reduce. */
Test(dist_single, histogram_reduce_in_place, .init = single_init, .fini = comms_fini)
{
    const int32_t nbins = 1000;
    const size_t n = 100000;
    int32_t *s = NULL;
    uint64_t *counts = NULL, got[1000], want[1000] = {0};
    int32_t *hs = malloc(n * sizeof(int32_t));
    cr_assert_not_null(hs);
    for (size_t i = 0; i < n; ++i) {
        hs[i] = (int32_t)(gputest_rand() % 1100) - 50;
        ++want[hs[i] < 0 ? 0 : hs[i] >= nbins ? nbins - 1 : hs[i]];
    }
    GPUTEST_CUDA(gputest_malloc((void **)&s, n * sizeof(int32_t)));
    GPUTEST_CUDA(gputest_malloc((void **)&counts, sizeof got));
    GPUTEST_CUDA(cudaMemcpy(s, hs, n * sizeof(int32_t), cudaMemcpyHostToDevice));
    OK(gputile_histogram_i32(s, n, nbins, counts, GPUTILE_HIST_OVERWRITE, NULL, NULL));
    OK(gputile_dist_histogram_reduce(counts, nbins, counts, GPUTILE_HIST_OVERWRITE,
                                     GPUTILE_DIST_ALL_RANKS, comms[0], NULL));
    EXPECT(gputile_dist_histogram_reduce(counts, nbins, counts, GPUTILE_HIST_ACCUMULATE,
                                         GPUTILE_DIST_ALL_RANKS, comms[0], NULL),
           GPUTILE_ERROR_ALIASING);
    EXPECT(gputile_dist_histogram_i32(s, n, nbins, counts, GPUTILE_HIST_OVERWRITE, 1, comms[0],
                                      NULL, NULL),
           GPUTILE_ERROR_INVALID_VALUE); /* root 1 of 1 rank */
    EXPECT(gputile_dist_histogram_i32(s, n, nbins, NULL, GPUTILE_HIST_OVERWRITE, 0, comms[0], NULL,
                                      NULL),
           GPUTILE_ERROR_NULL_POINTER); /* the root needs counts */
    EXPECT(gputile_dist_histogram_i32(s, n, nbins, (uint64_t *)(void *)s, GPUTILE_HIST_OVERWRITE, 0,
                                      comms[0], NULL, NULL),
           GPUTILE_ERROR_ALIASING);
    GPUTEST_CUDA(cudaMemcpy(got, counts, sizeof got, cudaMemcpyDeviceToHost));
    cr_assert(memcmp(got, want, sizeof got) == 0, "in-place reduce: wrong counts");
    GPUTEST_CUDA(cudaFree(s));
    GPUTEST_CUDA(cudaFree(counts));
    free(hs);
}

Test(dist_multi, histogram, .init = multi_init, .fini = comms_fini, .timeout = 300)
{
    hist_cases();
}

/* ---- distributed GEMM -------------------------------------------------------------- */
typedef struct gemm_job {
    const problem *p;
    int precision;
    gputile_matrix a[MAX_RANKS], b[MAX_RANKS], c[MAX_RANKS]; /* device blocks */
    size_t m0[MAX_RANKS];
    gputile_gemm_options o[MAX_RANKS];
} gemm_job;

static gputile_status gemm_call(rank_call *rc)
{
    gemm_job *j = rc->ctx;
    const int r = rc->rank;
    j->o[r] = (gputile_gemm_options)GPUTILE_GEMM_OPTIONS_INIT;
    j->o[r].precision = j->precision;
    return gputile_dist_gemm(GPUTILE_DIST_ROWS, j->p->ta, j->p->tb, j->p->alpha, j->a[r], j->b[r],
                             j->p->beta, j->c[r], comms[r], NULL, &j->o[r]);
}

/* Every rank's blocks cut from the host problem, the call on every rank,
 * C's blocks gathered into p->c and compared. */
static void dist_gemm_case(problem *p, int precision)
{
    const int ranks = ranks_made;
    gemm_job j = {.p = p, .precision = precision};
    problem_reset_c(p);
    for (int r = 0; r < ranks; ++r) {
        size_t m0, mr, k0, kr;
        OK(gputile_dist_block(p->m, ranks, r, &m0, &mr));
        OK(gputile_dist_block(p->k, ranks, r, &k0, &kr));
        GPUTEST_CUDA(cudaSetDevice(r));
        j.a[r] = p->ta == GPUTILE_OP_T ? to_device(&p->a, 0, m0, mr, p->k)
                                       : to_device(&p->a, m0, 0, p->k, mr);
        j.b[r] = p->tb == GPUTILE_OP_T ? to_device(&p->b, 0, k0, kr, p->n)
                                       : to_device(&p->b, k0, 0, p->n, kr);
        j.c[r] = to_device(&p->c, m0, 0, p->n, mr);
        j.m0[r] = m0;
    }
    char what[160];
    snprintf(what, sizeof what, "dist_gemm %zux%zux%zu op %c%c %s, %d ranks%s", p->m, p->n, p->k,
             p->ta ? 'T' : 'N', p->tb ? 'T' : 'N',
             precision_names[precision == GPUTILE_PRECISION_FP32          ? 0
                             : precision == GPUTILE_PRECISION_FP32_3XTF32 ? 1
                                                                          : 2],
             ranks, p->scale ? " floats" : " integers");
    run_ranks(gemm_call, &j, what);
    for (int r = 0; r < ranks; ++r) {
        GPUTEST_CUDA(cudaSetDevice(r));
        from_device(&p->c, j.m0[r], 0, j.c[r]);
        cudaFree(j.a[r].elements);
        cudaFree(j.b[r].elements);
        cudaFree(j.c[r].elements);
        if (j.c[r].height > 0)
            cr_assert(gputile_algorithm_name(j.o[r].algorithm_used) != NULL &&
                          j.o[r].algorithm_used != GPUTILE_ALGO_AUTO,
                      "%s: rank %d algorithm_used %d", what, r, j.o[r].algorithm_used);
    }
    GPUTEST_CUDA(cudaSetDevice(0));
    compare(what, &p->c, p->c0, p->ref, p->scale, p->k);
}

static void dist_gemm_cases(void)
{
    /* k above GPUTILE_DIST_PANEL: several panels per rank; m below the
     * rank count in the last shape: ranks without rows still broadcast. */
    const struct shape shapes[] = {
        {300, 200, GPUTILE_DIST_PANEL * 2 + 77}, {257, 129, 100}, {1, 513, 5000}, {3, 64, 7}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; ++si)
        for (int t = 0; t < 4; ++t)
            for (int integers = 1; integers >= 0; --integers) {
                const struct shape s = shapes[si];
                gputile_op ta = t & 1 ? GPUTILE_OP_T : GPUTILE_OP_N;
                gputile_op tb = t & 2 ? GPUTILE_OP_T : GPUTILE_OP_N;
                problem p = problem_new(s.m, s.n, s.k, ta, tb, integers ? 1.0f : 0.75f,
                                        integers ? 2.0f : 0.0f, integers, false);
                for (size_t pi = 0; pi < (integers ? 3u : 1u); ++pi)
                    dist_gemm_case(&p, precisions[pi]);
                problem_free(&p);
            }
    /* alpha = 0 and k = 0: C = beta C, no broadcast */
    problem p = problem_new(100, 50, 30, GPUTILE_OP_N, GPUTILE_OP_N, 0.0f, 3.0f, true, false);
    dist_gemm_case(&p, GPUTILE_PRECISION_FP32);
    problem_free(&p);
    p = problem_new(100, 50, 0, GPUTILE_OP_N, GPUTILE_OP_T, 1.0f, -2.0f, true, false);
    dist_gemm_case(&p, GPUTILE_PRECISION_FP32);
    problem_free(&p);
}

Test(dist_single, gemm, .init = single_init, .fini = comms_fini, .timeout = 600)
{
    dist_gemm_cases();
}

Test(dist_single, gemm_checks, .init = single_init, .fini = comms_fini)
{
    problem p = problem_new(64, 32, 48, GPUTILE_OP_N, GPUTILE_OP_N, 1, 0, true, false);
    gputile_matrix a = to_device(&p.a, 0, 0, 48, 64), b = to_device(&p.b, 0, 0, 32, 48);
    gputile_matrix c = to_device(&p.c, 0, 0, 32, 64);
    gputile_matrix b_short = b;
    b_short.height = 47; /* one rank holds all 48 rows of op(B) */
    EXPECT(gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b_short, 0, c,
                             comms[0], NULL, NULL),
           GPUTILE_ERROR_SHAPE_MISMATCH);
    EXPECT(gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, view(&p.c),
                             comms[0], NULL, NULL),
           GPUTILE_ERROR_INVALID_VALUE); /* C in host memory */
    gputile_matrix c_on_a = {32, 64, 48, a.elements};
    EXPECT(gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c_on_a,
                             comms[0], NULL, NULL),
           GPUTILE_ERROR_ALIASING);
    OK(gputile_dist_gemm(GPUTILE_DIST_ROWS, GPUTILE_OP_N, GPUTILE_OP_N, 1, a, b, 0, c, comms[0],
                         NULL, NULL));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(a.elements));
    GPUTEST_CUDA(cudaFree(b.elements));
    GPUTEST_CUDA(cudaFree(c.elements));
    problem_free(&p);
}

Test(dist_multi, gemm, .init = multi_init, .fini = comms_fini, .timeout = 600)
{
    dist_gemm_cases();
}
#endif /* GPUTILE_TEST_NCCL */
