/* SPDX-License-Identifier: MIT */
/*
 * test_hostile.c: every public function against every bad input a caller
 * can pass, from one table (issue 7).
 *
 * A row names the public function it calls (tests/hostile-coverage.sh
 * fails when a function of gputile.h, or a status-returning one of
 * gputile_facade.h, has no row), the bad input, and the status its man
 * page documents. For each row:
 *  1. every host output of every function lives in one arena (matrices,
 *     counts, out-pointers, options and stats structs) with guard words
 *     between them; inputs get fresh random values, everything else the
 *     poison pattern; GPU rows get a device arena laid out the same way;
 *  2. the call is made and must return exactly the documented status;
 *  3. both arenas must be byte-for-byte as they were: nothing written,
 *     guards included;
 *  4. a valid call of the same function right after must succeed and give
 *     the right answer (without a device: the documented
 *     GPUTILE_ERROR_NO_DEVICE, arena again untouched).
 * CPU rows are decided before the library asks the device anything, so they
 * run (and must pass) with or without a GPU. GPU rows need a device: device
 * and freed pointers, host/device mixes, sizes the device refuses, another
 * device's memory (skipped with one device). Misaligned element pointers
 * and host/device mixes that must WORK are a separate table, checked
 * against a CPU reference. On the GPU, what the library holds must be the
 * same before and after a table: the pinned pool's statistics, the default
 * stream-ordered pool's bytes in use and this process's device memory as
 * NVML reports it (gputest_measure_usage; not the device-wide free memory,
 * which other processes move).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "support/expect.h"
#include "support/gpu.h"
#include "support/variants.h"

#ifdef GPUTILE_TEST_NCCL
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop
#endif

/* ---- the arenas ------------------------------------------------------------ */
#define N 4   /* the matrices of the valid calls: 4 x 4, stride 4 */
#define NS 64 /* samples of the valid histogram calls */
#define NB 8  /* bins */
#define GUARD 32

typedef struct arena {
    float g0[GUARD];
    float a[2 * N * N]; /* inputs (room for offset views) */
    float g1[GUARD];
    float b[2 * N * N];
    float g2[GUARD];
    float c[2 * N * N]; /* gemm's output */
    float g3[GUARD];
    float d[2 * N * N]; /* matrix_copy's and copy's output */
    float g4[GUARD];
    uint64_t counts[2 * NB]; /* histogram output */
    float g5[GUARD];
    int32_t si[NS]; /* histogram inputs */
    float sf[NS];
    float g6[GUARD];
    void *ptr; /* out-pointers */
    float g7[GUARD];
    gputile_gemm_options go;
    float g8[GUARD];
    gputile_histogram_options ho;
    float g9[GUARD];
    gputile_pool_stats ps;
    float g10[GUARD];
    gputile_matrix m; /* facade outputs */
    float g11[GUARD];
} arena;

static arena H __attribute__((aligned(4096))); /* host */
static arena snap;
static arena *D;         /* device: the same layout in device memory */
static arena D_host;     /* what D was filled with */
static bool have_device; /* set by the GPU tests */

#define POISON_WORD 0x7fc0deadu

static void poison(void *p, size_t bytes)
{
    uint32_t w = POISON_WORD;
    for (size_t i = 0; i + 4 <= bytes; i += 4)
        memcpy((char *)p + i, &w, 4);
}

static void fill(arena *x)
{
    poison(x, sizeof *x);
    for (size_t i = 0; i < 2 * N * N; ++i) {
        x->a[i] = gputest_small_int(-4, 4);
        x->b[i] = gputest_small_int(-4, 4);
    }
    for (size_t i = 0; i < NS; ++i) {
        x->si[i] = (int32_t)(gputest_rand() % (NB + 4)) - 2;
        x->sf[i] = gputest_uniform(-1.0f, 9.0f);
    }
    x->go = (gputile_gemm_options)GPUTILE_GEMM_OPTIONS_INIT;
    x->go.algorithm_used = x->go.split_k_used = -7;
    x->ho = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    x->ho.tier_used = x->ho.cluster_size_used = x->ho.copies_used = -7;
    x->ho.bins_per_block = x->ho.blocks_used = -7;
    x->ps = (gputile_pool_stats)GPUTILE_POOL_STATS_INIT;
}

static void snapshot(void)
{
    memcpy(&snap, &H, sizeof H);
}

/* The offset of the first byte of `now` that differs from `was`, or -1. */
static long first_difference(const arena *now, const arena *was)
{
    const unsigned char *x = (const unsigned char *)now, *y = (const unsigned char *)was;
    for (size_t i = 0; i < sizeof(arena); ++i)
        if (x[i] != y[i])
            return (long)i;
    return -1;
}

static void assert_untouched(const char *fn, const char *what)
{
    long at = first_difference(&H, &snap);
    cr_assert(at < 0, "%s (%s): host arena written at byte %ld", fn, what, at);
    if (D != NULL) {
        arena now;
        GPUTEST_CUDA(cudaDeviceSynchronize());
        GPUTEST_CUDA(cudaMemcpy(&now, D, sizeof now, cudaMemcpyDeviceToHost));
        at = first_difference(&now, &D_host);
        cr_assert(at < 0, "%s (%s): device arena written at byte %ld", fn, what, at);
    }
}

static void reset_arenas(void)
{
    fill(&H);
    if (D != NULL) {
        fill(&D_host);
        GPUTEST_CUDA(cudaMemcpy(D, &D_host, sizeof D_host, cudaMemcpyHostToDevice));
    }
}

static gputile_matrix mat(float *p, size_t w, size_t h, size_t s)
{
    return gputile_matrix_view(p, w, h, s);
}
#define HA mat(H.a, N, N, N)
#define HB mat(H.b, N, N, N)
#define HC mat(H.c, N, N, N)
#define HD mat(H.d, N, N, N)
#define DA mat(D->a, N, N, N)
#define DB mat(D->b, N, N, N)
#define DC mat(D->c, N, N, N)
#define DD mat(D->d, N, N, N)
#define OPN GPUTILE_OP_N
/* A float pointer one byte off its boundary. */
#define ODD(p) ((float *)(void *)((char *)(p) + 1))
/* NULL the compiler cannot see (some public calls are declared nonnull). */
static void *volatile null_ptr;
#define NULLP ((void *)null_ptr)

/* ---- the table ------------------------------------------------------------- */
enum needs { CPU, GPU };

typedef struct row {
    const char *fn;   /* the public function the row calls */
    const char *what; /* the bad input */
    enum needs needs;
    void (*prep)(void);           /* sets bad fields in the arena (may be NULL) */
    gputile_status (*call)(void); /* the call with the bad input */
    gputile_status expect;        /* the status the man page documents */
    int also; /* a second documented status where the driver decides (-1: none) */
} row;
#define ROW(fn, what, needs, prep, call, expect) \
    {                                            \
#fn, what, needs, prep, call, expect, -1 \
    }
/* 1 EiB of pinned memory: the driver refuses it as out of memory or, on
 * some drivers, as an invalid size (GPUTILE_ERROR_CUDA); both documented. */
#define ROW2(fn, what, needs, prep, call, expect, also) \
    {                                                   \
#fn, what, needs, prep, call, expect, also      \
    }
#define CALL(name) static gputile_status name(void)
#define PREP(name, stmt)   \
    static void name(void) \
    {                      \
        stmt;              \
    }

/* ---- status texts, names, versions: cannot fail, hostile values answered --- */
static const int unknown_status[] = {-1, INT_MIN, INT_MAX, GPUTILE_STATUS_END_, 1000};
#define N_UNKNOWN (sizeof unknown_status / sizeof unknown_status[0])

CALL(strerror_unknown)
{
    int before = gputile_last_cuda_error();
    for (size_t i = 0; i < N_UNKNOWN; ++i)
        cr_assert_str_eq(gputile_strerror(unknown_status[i]), "unknown status");
    cr_assert_eq(gputile_last_cuda_error(), before);
    return GPUTILE_SUCCESS;
}
CALL(status_name_unknown)
{
    for (size_t i = 0; i < N_UNKNOWN; ++i)
        cr_assert_str_eq(gputile_status_name(unknown_status[i]), "GPUTILE_UNKNOWN");
    return GPUTILE_SUCCESS;
}
/* A failure found before any CUDA call leaves the kept CUDA error alone. */
CALL(last_error_after_validation_failure)
{
    int before = gputile_last_cuda_error();
    EXPECT(gputile_matmul(HA, HB, mat(NULL, N, N, N)), GPUTILE_ERROR_NULL_POINTER);
    cr_assert_eq(gputile_last_cuda_error(), before);
    return GPUTILE_SUCCESS;
}
CALL(last_error_name_never_null)
{
    const char *name = gputile_last_cuda_error_name();
    cr_assert_not_null(name);
    cr_assert_str_eq(name, cudaGetErrorName((cudaError_t)gputile_last_cuda_error()));
    return GPUTILE_SUCCESS;
}
CALL(version_matches_header)
{
    cr_assert_eq(gputile_version(), GPUTILE_VERSION_HEX);
    return GPUTILE_SUCCESS;
}
CALL(version_string_matches_header)
{
    cr_assert_str_eq(gputile_version_string(), GPUTILE_VERSION_STRING);
    return GPUTILE_SUCCESS;
}
CALL(algorithm_name_unknown)
{
    const int v[] = {-1, gputest_n_algorithms(), 99, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
        cr_assert_null(gputile_algorithm_name(v[i]), "algorithm %d", v[i]);
    return GPUTILE_SUCCESS;
}
CALL(tier_name_unknown)
{
    const int v[] = {-1, GPUTILE_HIST_TIER_SEED + 1, 99, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
        cr_assert_null(gputile_hist_tier_name(v[i]), "tier %d", v[i]);
    return GPUTILE_SUCCESS;
}

/* ---- device memory --------------------------------------------------------- */
CALL(dalloc_null)
{
    return gputile_device_alloc(NULLP, 64);
}
CALL(dalloc_zero)
{
    return gputile_device_alloc(&H.ptr, 0);
}
CALL(dalloc_huge)
{
    return gputile_device_alloc(&H.ptr, (size_t)1 << 60);
}
CALL(dfree_host_pointer)
{
    return gputile_device_free(H.a);
}
CALL(dfree_inside)
{
    return gputile_device_free(D->b);
}
CALL(dfree_twice)
{
    void *p = NULL;
    OK_ALLOC(gputile_device_alloc(&p, 256));
    OK(gputile_device_free(p));
    return gputile_device_free(p);
}

/* ---- matrix copies ------------------------------------------------------------ */
CALL(mcopy_dst_null)
{
    return gputile_matrix_copy(mat(NULL, N, N, N), HA, NULL);
}
CALL(mcopy_src_null)
{
    return gputile_matrix_copy(HD, mat(NULL, N, N, N), NULL);
}
CALL(mcopy_stride)
{
    return gputile_matrix_copy(mat(H.d, N, N, N - 1), HA, NULL);
}
CALL(mcopy_empty_stride)
{
    return gputile_matrix_copy(mat(H.d, N, 0, 1), mat(H.a, N, 0, 1), NULL);
}
CALL(mcopy_shape)
{
    return gputile_matrix_copy(HD, mat(H.a, N - 1, N, N), NULL);
}
CALL(mcopy_overlap)
{
    return gputile_matrix_copy(HD, mat(H.d + 3, N, N, N), NULL);
}
CALL(mcopy_extent)
{
    return gputile_matrix_copy(mat(H.d, 1, 2, SIZE_MAX / 2), mat(H.a, 1, 2, 1), NULL);
}
CALL(mcopy_wrap)
{
    return gputile_matrix_copy(HD, mat((float *)(UINTPTR_MAX - 15), N, N, N), NULL);
}
CALL(mcopy_odd)
{
    return gputile_matrix_copy(mat(ODD(H.d), N, N, N), HA, NULL);
}
CALL(mcopy_dev_overlap)
{
    return gputile_matrix_copy(DD, mat(D->d + 1, N, N, N), NULL);
}

/* ---- GEMM --------------------------------------------------------------------- */
static gputile_status gemm3(gputile_matrix a, gputile_matrix b, gputile_matrix c)
{
    return gputile_gemm(OPN, OPN, 1.0f, a, b, 0.0f, c, NULL, &H.go);
}
CALL(gemm_a_null)
{
    return gemm3(mat(NULL, N, N, N), HB, HC);
}
CALL(gemm_b_null)
{
    return gemm3(HA, mat(NULL, N, N, N), HC);
}
CALL(gemm_c_null)
{
    return gemm3(HA, HB, mat(NULL, N, N, N));
}
CALL(gemm_a_stride)
{
    return gemm3(mat(H.a, N, N, N - 1), HB, HC);
}
CALL(gemm_b_stride0)
{
    return gemm3(HA, mat(H.b, N, N, 0), HC);
}
CALL(gemm_c_stride)
{
    return gemm3(HA, HB, mat(H.c, N, N, 2));
}
CALL(gemm_empty_c_stride)
{
    return gemm3(mat(H.a, N, 0, N), HB, mat(H.c, N, 0, 2));
}
CALL(gemm_inner)
{
    return gemm3(mat(H.a, N - 1, N, N), HB, HC);
}
CALL(gemm_rows)
{
    return gemm3(mat(H.a, N, N - 1, N), HB, HC);
}
CALL(gemm_cols)
{
    return gemm3(HA, mat(H.b, N - 1, N, N), HC);
}
CALL(gemm_trans_shape)
{
    return gputile_gemm(GPUTILE_OP_T, OPN, 1, mat(H.a, N, N - 1, N), HB, 0, HC, NULL, &H.go);
}
CALL(gemm_op_2)
{
    return gputile_gemm((gputile_op)2, OPN, 1, HA, HB, 0, HC, NULL, &H.go);
}
CALL(gemm_op_neg)
{
    return gputile_gemm(OPN, (gputile_op)-1, 1, HA, HB, 0, HC, NULL, &H.go);
}
CALL(gemm_c_is_a)
{
    return gemm3(HA, HB, HA);
}
CALL(gemm_c_overlaps_b)
{
    return gemm3(HA, HB, mat(H.b + 15, N, N, N));
}
CALL(gemm_c_interleaves_a)
{
    return gemm3(mat(H.a, 2, 2, 8), mat(H.b, 2, 2, 2), mat(H.a + 1, 2, 2, 8));
}
CALL(gemm_extent)
{
    return gemm3(mat(H.a, 1, 2, SIZE_MAX / 2), mat(H.b, 1, 1, 1), mat(H.c, 1, 2, 1));
}
CALL(gemm_huge_dims)
{
    return gemm3(mat(H.a, N, SIZE_MAX / 4, N), HB, mat(H.c, N, SIZE_MAX / 4, N));
}
CALL(gemm_wrap)
{
    return gemm3(HA, mat((float *)(UINTPTR_MAX - 15), N, N, N), HC);
}
CALL(gemm_odd_a)
{
    return gemm3(mat(ODD(H.a), N, N, N), HB, HC);
}
CALL(gemm_odd_c)
{
    return gemm3(HA, HB, mat(ODD(H.c), N, N, N));
}
PREP(go_size0, H.go.size = 0)
PREP(go_size_small, H.go.size = sizeof(gputile_gemm_options) - 1)
PREP(go_algo, H.go.algorithm = 99)
PREP(go_algo_neg, H.go.algorithm = -1)
PREP(go_precision, H.go.precision = 7)
PREP(go_split_neg, H.go.split_k = -1)
PREP(go_split_big, H.go.split_k = GPUTILE_MAX_SPLIT_K + 1)
PREP(go_split_tiled, H.go.algorithm = GPUTILE_ALGO_TILED; H.go.split_k = 2)
PREP(go_split_naive, H.go.algorithm = GPUTILE_ALGO_NAIVE; H.go.split_k = 3)
PREP(go_reserved, H.go.reserved = 1)
CALL(gemm_with_options)
{
    return gemm3(HA, HB, HC);
}
CALL(gemm_dev_c_overlaps_a)
{
    return gputile_gemm(OPN, OPN, 1, DA, DB, 0, mat(D->a + 5, N, N, N), NULL, &H.go);
}
CALL(gemm_dev_c_is_b_host_a)
{
    return gputile_gemm(OPN, OPN, 1, HA, DB, 0, DB, NULL, &H.go);
}

CALL(matmul_null)
{
    return gputile_matmul(HA, HB, mat(NULL, N, N, N));
}
CALL(matmul_stride)
{
    return gputile_matmul(HA, mat(H.b, N, N, 1), HC);
}
CALL(matmul_shape)
{
    return gputile_matmul(HA, mat(H.b, N, N + 1, N), HC);
}
CALL(matmul_alias)
{
    return gputile_matmul(HA, HB, HB);
}
CALL(matmul_odd)
{
    return gputile_matmul(HA, mat(ODD(H.b), N, N, N), HC);
}
CALL(matmul_extent)
{
    return gputile_matmul(mat(H.a, 1, 3, SIZE_MAX / 3), mat(H.b, 1, 1, 1), mat(H.c, 1, 3, 1));
}

/* ---- histograms ------------------------------------------------------------- */
static gputile_status hist_i(const int32_t *s, size_t n, int32_t nbins, uint64_t *counts, int mode)
{
    return gputile_histogram_i32(s, n, nbins, counts, (gputile_hist_mode)mode, NULL, &H.ho);
}
static gputile_status hist_f(float lo, float hi, int32_t nbins)
{
    return gputile_histogram_f32(H.sf, NS, lo, hi, nbins, H.counts, GPUTILE_HIST_OVERWRITE, NULL,
                                 &H.ho);
}
CALL(hi_mode_2)
{
    return hist_i(H.si, NS, NB, H.counts, 2);
}
CALL(hi_mode_neg)
{
    return hist_i(H.si, NS, NB, H.counts, -1);
}
CALL(hi_nbins_0)
{
    return hist_i(H.si, NS, 0, H.counts, 0);
}
CALL(hi_nbins_neg)
{
    return hist_i(H.si, NS, -5, H.counts, 0);
}
CALL(hi_nbins_min)
{
    return hist_i(H.si, NS, INT32_MIN, H.counts, 0);
}
CALL(hi_counts_null)
{
    return hist_i(H.si, NS, NB, NULL, 0);
}
CALL(hi_samples_null)
{
    return hist_i(NULL, NS, NB, H.counts, 0);
}
CALL(hi_counts_misaligned)
{
    return hist_i(H.si, NS, NB, (uint64_t *)(void *)((char *)H.counts + 4), 0);
}
CALL(hi_samples_misaligned)
{
    return hist_i((const int32_t *)(void *)((char *)H.si + 2), NS, NB, H.counts, 0);
}
CALL(hi_n_huge)
{
    return hist_i(H.si, SIZE_MAX / 4, NB, H.counts, 0);
}
CALL(hi_n_size_max)
{
    return hist_i(H.si, SIZE_MAX, NB, H.counts, 0);
}
CALL(hi_counts_wrap)
{
    return hist_i(H.si, NS, NB, (uint64_t *)(UINTPTR_MAX - 15), 0);
}
CALL(hi_alias)
{
    return hist_i((const int32_t *)(void *)H.counts, 4, NB, H.counts, 0);
}
PREP(ho_size0, H.ho.size = 0)
PREP(ho_size_small, H.ho.size = sizeof(gputile_histogram_options) - 4)
PREP(ho_tier, H.ho.tier = GPUTILE_HIST_TIER_SEED + 1)
PREP(ho_tier_neg, H.ho.tier = -1)
PREP(ho_cluster_big, H.ho.tier = GPUTILE_HIST_TIER_DSM; H.ho.cluster_size = 17)
PREP(ho_cluster_neg, H.ho.tier = GPUTILE_HIST_TIER_DSM; H.ho.cluster_size = -1)
PREP(ho_cluster_no_dsm, H.ho.tier = GPUTILE_HIST_TIER_SHARED; H.ho.cluster_size = 2)
PREP(ho_cluster_route, H.ho.tier = GPUTILE_HIST_TIER_ROUTE; H.ho.cluster_size = 2)
PREP(ho_reserved, H.ho.reserved = 3)
PREP(ho_shared, H.ho.tier = GPUTILE_HIST_TIER_SHARED)
PREP(ho_dsm, H.ho.tier = GPUTILE_HIST_TIER_DSM)
CALL(hi_with_options)
{
    return hist_i(H.si, NS, NB, H.counts, 0);
}
CALL(hi_dev_samples_host)
{
    return hist_i(H.si, NS, NB, D->counts, 0);
}
CALL(hi_dev_counts_host)
{
    return hist_i(D->si, NS, NB, H.counts, 0);
}
CALL(hi_dev_alias)
{
    return hist_i((const int32_t *)(void *)(D->counts + 1), 4, NB, D->counts, 0);
}
/* The shared tier cannot hold 2^26 bins: refused by the plan, before the
 * counts (only NB of them here) are touched. n = 0: 2^26 counts would
 * overlap the samples, which is checked first. */
CALL(hi_dev_shared_too_many)
{
    return hist_i(D->si, 0, 1 << 26, D->counts, 0);
}
CALL(hi_dev_counts_pinned)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, 0));
    gputile_status s = hist_i(D->si, NS, NB, p, 0);
    OK(gputile_pinned_free(p));
    return s;
}

CALL(hf_lower_nan)
{
    return hist_f(NAN, 8.0f, NB);
}
CALL(hf_upper_inf)
{
    return hist_f(0.0f, INFINITY, NB);
}
CALL(hf_lower_neg_inf)
{
    return hist_f(-INFINITY, 8.0f, NB);
}
CALL(hf_equal)
{
    return hist_f(2.0f, 2.0f, NB);
}
CALL(hf_reversed)
{
    return hist_f(8.0f, 0.0f, NB);
}
CALL(hf_range_overflow)
{
    return hist_f(-FLT_MAX, FLT_MAX, NB);
}
CALL(hf_nbins_0)
{
    return hist_f(0.0f, 8.0f, 0);
}
CALL(hf_counts_null)
{
    return gputile_histogram_f32(H.sf, NS, 0, 8, NB, NULL, GPUTILE_HIST_OVERWRITE, NULL, &H.ho);
}
CALL(hf_mode)
{
    return gputile_histogram_f32(H.sf, NS, 0, 8, NB, H.counts, (gputile_hist_mode)7, NULL, &H.ho);
}
CALL(hf_dev_samples_host)
{
    return gputile_histogram_f32(H.sf, NS, 0, 8, NB, D->counts, GPUTILE_HIST_OVERWRITE, NULL,
                                 &H.ho);
}

CALL(plan_null)
{
    return gputile_histogram_plan(NB, NULLP);
}
CALL(plan_nbins_0)
{
    return gputile_histogram_plan(0, &H.ho);
}
CALL(plan_nbins_neg)
{
    return gputile_histogram_plan(INT32_MIN, &H.ho);
}
CALL(plan_options)
{
    return gputile_histogram_plan(NB, &H.ho);
}
CALL(plan_shared_too_many)
{
    return gputile_histogram_plan(1 << 26, &H.ho);
}

/* ---- histograms of images (issue 19) ------------------------------------------- */
/* H.si as an I32 image of 2 channels: 4 rows of 8 pixels (64 bytes), stride
 * 64; channel c's NB counts at counts + c * NB; even bins [0, NB) or edges
 * 0..NB, so that x in [0, NB) counts in bin x. */
static gputile_hist_input hii;
static gputile_hist_even hie[2];
static int32_t hin[2];
static double hiedges[2][NB + 1];
static const double *hiep[2];
static uint64_t *hic[2];
static void img_args(const int32_t *samples, uint64_t *counts)
{
    hii = (gputile_hist_input)GPUTILE_HIST_INPUT_INIT;
    hii.samples = samples;
    hii.type = GPUTILE_SAMPLE_I32;
    hii.channels = 2;
    hii.width = 8;
    hii.height = 4;
    hii.row_stride_bytes = 64;
    for (int c = 0; c < 2; ++c) {
        hie[c] = (gputile_hist_even){NB, 0, 0.0, (double)NB};
        hin[c] = NB + 1;
        for (int i = 0; i <= NB; ++i)
            hiedges[c][i] = i;
        hiep[c] = hiedges[c];
        hic[c] = counts + c * NB;
    }
}
static gputile_status img_even(void)
{
    return gputile_histogram_even(&hii, hie, hic, GPUTILE_HIST_OVERWRITE, NULL, &H.ho);
}
static gputile_status img_range(void)
{
    return gputile_histogram_range(&hii, hin, hiep, hic, GPUTILE_HIST_ACCUMULATE, NULL, &H.ho);
}
#define IMG_CALL(name, stmt)      \
    CALL(he_##name)               \
    {                             \
        img_args(H.si, H.counts); \
        stmt;                     \
        return img_even();        \
    }                             \
    CALL(hr_##name)               \
    {                             \
        img_args(H.si, H.counts); \
        stmt;                     \
        return img_range();       \
    }
IMG_CALL(size0, hii.size = 0)
IMG_CALL(type9, hii.type = 9)
IMG_CALL(channels5, hii.channels = 5)
IMG_CALL(channels0, hii.channels = 0)
IMG_CALL(samples_null, hii.samples = NULL)
IMG_CALL(counts1_null, hic[1] = NULL)
IMG_CALL(samples_misaligned, hii.samples = (const char *)H.si + 2)
IMG_CALL(stride_short, hii.row_stride_bytes = 60)
IMG_CALL(stride_odd, hii.row_stride_bytes = 66)
IMG_CALL(width_huge, hii.width = SIZE_MAX / 8)
IMG_CALL(counts_overlap, hic[1] = hic[0] + 3)
IMG_CALL(counts_in_samples, hic[0] = (uint64_t *)(void *)(H.si + 8))
IMG_CALL(with_options, (void)0)
IMG_CALL(dev_samples_host, hic[0] = D->counts; hic[1] = D->counts + NB)
CALL(he_mode)
{
    img_args(H.si, H.counts);
    return gputile_histogram_even(&hii, hie, hic, (gputile_hist_mode)2, NULL, &H.ho);
}
CALL(he_nbins0)
{
    img_args(H.si, H.counts);
    hie[1].nbins = 0;
    return img_even();
}
CALL(he_reversed)
{
    img_args(H.si, H.counts);
    hie[0].lower = 9;
    return img_even();
}
CALL(he_fractional)
{
    img_args(H.si, H.counts);
    hie[1].upper = 7.5;
    return img_even();
}
CALL(he_reserved)
{
    img_args(H.si, H.counts);
    hie[0].reserved = 1;
    return img_even();
}
CALL(hr_nedges1)
{
    img_args(H.si, H.counts);
    hin[1] = 1;
    return img_range();
}
CALL(hr_unsorted)
{
    img_args(H.si, H.counts);
    hiedges[0][3] = 10;
    return img_range();
}
CALL(hr_nan)
{
    img_args(H.si, H.counts);
    hiedges[1][0] = NAN;
    return img_range();
}
CALL(hr_edges_null)
{
    img_args(H.si, H.counts);
    hiep[1] = NULL;
    return img_range();
}
CALL(he_dev_dsm)
{
    img_args(D->si, D->counts);
    return img_even();
}
CALL(hr_dev_dsm)
{
    img_args(D->si, D->counts);
    return img_range();
}

/* ---- pinned memory -------------------------------------------------------------- */
CALL(palloc_null)
{
    return gputile_pinned_alloc(NULLP, 64, 0);
}
CALL(palloc_zero)
{
    return gputile_pinned_alloc(&H.ptr, 0, 0);
}
CALL(palloc_flag)
{
    return gputile_pinned_alloc(&H.ptr, 64, 0x8);
}
CALL(palloc_flag_high)
{
    return gputile_pinned_alloc(&H.ptr, 64, 0x80000000u);
}
CALL(palloc_huge)
{
    return gputile_pinned_alloc(&H.ptr, (size_t)1 << 60, 0);
}
CALL(pfree_unknown)
{
    return gputile_pinned_free(H.a);
}
CALL(pfree_one)
{
    return gputile_pinned_free((void *)(uintptr_t)1);
}
CALL(pfree_twice)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, 0));
    OK(gputile_pinned_free(p));
    return gputile_pinned_free(p);
}
CALL(pfree_inside)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, 0));
    gputile_status s = gputile_pinned_free((char *)p + 64);
    OK(gputile_pinned_free(p));
    return s;
}
CALL(pfree_pool_block)
{
    void *p = NULL;
    OK_ALLOC(gputile_pool_alloc(&p, 4096, 0));
    gputile_status s = gputile_pinned_free(p);
    OK(gputile_pool_free(p));
    return s;
}
CALL(preg_null)
{
    return gputile_pinned_register(NULLP, 64, 0);
}
CALL(preg_zero)
{
    return gputile_pinned_register(H.a, 0, 0);
}
CALL(preg_wc)
{
    return gputile_pinned_register(H.a, 64, GPUTILE_PINNED_WRITE_COMBINED);
}
CALL(preg_flag)
{
    return gputile_pinned_register(H.a, 64, 0x10);
}
CALL(preg_size_max)
{
    return gputile_pinned_register(H.a, SIZE_MAX, 0);
}
CALL(preg_wrap)
{
    return gputile_pinned_register((void *)(UINTPTR_MAX - 64), 32, 0);
}
static char reg_buf[3 * 4096] __attribute__((aligned(4096)));
CALL(preg_twice)
{
    OK(gputile_pinned_register(reg_buf, 100, 0));
    gputile_status s = gputile_pinned_register(reg_buf + 200, 100, 0); /* same page */
    OK(gputile_pinned_unregister(reg_buf));
    return s;
}
CALL(preg_pinned_alloc)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 8192, 0));
    gputile_status s = gputile_pinned_register(p, 8192, 0);
    OK(gputile_pinned_free(p));
    return s;
}
CALL(punreg_null)
{
    return gputile_pinned_unregister(NULLP);
}
CALL(punreg_unknown)
{
    return gputile_pinned_unregister(H.a);
}
CALL(punreg_twice)
{
    OK(gputile_pinned_register(reg_buf, 100, 0));
    OK(gputile_pinned_unregister(reg_buf));
    return gputile_pinned_unregister(reg_buf);
}
CALL(punreg_inside)
{
    OK(gputile_pinned_register(reg_buf, 8192, 0));
    gputile_status s = gputile_pinned_unregister(reg_buf + 4096);
    OK(gputile_pinned_unregister(reg_buf));
    return s;
}
CALL(pdev_null_out)
{
    return gputile_pinned_device_pointer(NULLP, H.a);
}
CALL(pdev_null_host)
{
    return gputile_pinned_device_pointer(&H.ptr, NULL);
}
CALL(pdev_unknown)
{
    return gputile_pinned_device_pointer(&H.ptr, H.a);
}
CALL(pdev_device_ptr)
{
    return gputile_pinned_device_pointer(&H.ptr, D->a);
}
CALL(pdev_not_mapped)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, 0));
    gputile_status s = gputile_pinned_device_pointer(&H.ptr, p);
    OK(gputile_pinned_free(p));
    return s;
}
CALL(pdev_freed)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, GPUTILE_PINNED_MAPPED));
    OK(gputile_pinned_free(p));
    return gputile_pinned_device_pointer(&H.ptr, p);
}
CALL(pdev_pool_cached)
{
    void *p = NULL;
    OK_ALLOC(gputile_pool_alloc(&p, 4096, GPUTILE_PINNED_MAPPED));
    OK(gputile_pool_free(p)); /* cached by the pool, no longer the caller's */
    gputile_status s = gputile_pinned_device_pointer(&H.ptr, p);
    OK(gputile_pool_release());
    return s;
}

/* ---- the pool ------------------------------------------------------------------ */
CALL(pool_alloc_null)
{
    return gputile_pool_alloc(NULLP, 64, 0);
}
CALL(pool_alloc_zero)
{
    return gputile_pool_alloc(&H.ptr, 0, 0);
}
CALL(pool_alloc_flag)
{
    return gputile_pool_alloc(&H.ptr, 64, 0x8);
}
CALL(pool_alloc_size_max)
{
    return gputile_pool_alloc(&H.ptr, SIZE_MAX, 0);
}
CALL(pool_alloc_huge)
{
    return gputile_pool_alloc(&H.ptr, (size_t)1 << 60, 0);
}
CALL(pool_free_unknown)
{
    return gputile_pool_free(H.a);
}
CALL(pool_free_twice)
{
    void *p = NULL;
    OK_ALLOC(gputile_pool_alloc(&p, 4096, 0));
    OK(gputile_pool_free(p));
    gputile_status s = gputile_pool_free(p);
    OK(gputile_pool_release());
    return s;
}
CALL(pool_free_pinned_alloc)
{
    void *p = NULL;
    OK_ALLOC(gputile_pinned_alloc(&p, 4096, 0));
    gputile_status s = gputile_pool_free(p);
    OK(gputile_pinned_free(p));
    return s;
}
CALL(pool_limit_max)
{
    return gputile_pool_set_limit(SIZE_MAX);
}
CALL(pool_limit_zero)
{
    return gputile_pool_set_limit(0);
}
CALL(pool_release_empty)
{
    return gputile_pool_release();
}
CALL(pool_stats_null)
{
    return gputile_pool_get_stats(NULLP);
}
PREP(ps_size0, H.ps.size = 0)
PREP(ps_size_one_field, H.ps.size = sizeof(size_t))
CALL(pool_stats)
{
    return gputile_pool_get_stats(&H.ps);
}

/* ---- gputile_copy ----------------------------------------------------------------- */
CALL(copy_dst_null)
{
    return gputile_copy(NULL, H.a, 16, NULL);
}
CALL(copy_src_null)
{
    return gputile_copy(H.d, NULL, 16, NULL);
}
CALL(copy_size_max)
{
    return gputile_copy(H.d, H.a, SIZE_MAX, NULL);
}
CALL(copy_wrap)
{
    return gputile_copy((void *)(UINTPTR_MAX - 15), H.a, 32, NULL);
}
CALL(copy_overlap)
{
    return gputile_copy(H.d, H.d + 1, 16, NULL);
}
CALL(copy_host_to_host)
{
    return gputile_copy(H.d, H.a, 16, NULL);
}
CALL(copy_dev_overlap)
{
    return gputile_copy(D->d, D->d + 2, 16, NULL);
}

/* ---- gputile_copy_cache, gputile_copy_uncache (issue 21) --------------------------- */
CALL(ccache_null)
{
    return gputile_copy_cache(NULLP, 64);
}
CALL(ccache_zero)
{
    return gputile_copy_cache(H.a, 0);
}
CALL(ccache_wrap)
{
    return gputile_copy_cache((void *)(UINTPTR_MAX - 15), 32);
}
CALL(ccache_registered)
{
    OK(gputile_pinned_register(reg_buf, 100, 0));
    gputile_status s = gputile_copy_cache(reg_buf + 200, 100); /* same page */
    OK(gputile_pinned_unregister(reg_buf));
    return s;
}
CALL(cuncache_null)
{
    return gputile_copy_uncache(NULLP);
}
CALL(cuncache_unknown)
{
    return gputile_copy_uncache(H.a);
}
CALL(cuncache_registered)
{
    OK(gputile_pinned_register(reg_buf, 100, 0));
    gputile_status s = gputile_copy_uncache(reg_buf);
    OK(gputile_pinned_unregister(reg_buf));
    return s;
}

/* ---- the facade --------------------------------------------------------------- */
CALL(sub_out_null)
{
    return gputile_submatrix(HA, 0, 0, 1, 1, NULL);
}
CALL(sub_elements_null)
{
    return gputile_submatrix(mat(NULL, N, N, N), 0, 0, 1, 1, &H.m);
}
CALL(sub_stride)
{
    return gputile_submatrix(mat(H.a, N, N, N - 1), 0, 0, 1, 1, &H.m);
}
CALL(sub_rows)
{
    return gputile_submatrix(HA, 1, 0, 1, N, &H.m);
}
CALL(sub_cols)
{
    return gputile_submatrix(HA, 0, N + 1, 0, 1, &H.m);
}
CALL(sub_wrap)
{
    return gputile_submatrix(HA, SIZE_MAX, 0, 1, 2, &H.m);
}
CALL(malloc_null)
{
    return gputile_matrix_alloc_device(NULL, N, N);
}
CALL(malloc_width)
{
    return gputile_matrix_alloc_device(&H.m, SIZE_MAX - 3, 1);
}
CALL(malloc_bytes)
{
    return gputile_matrix_alloc_device(&H.m, SIZE_MAX / 64, 64);
}
CALL(mfree_null)
{
    return gputile_matrix_free_device(NULL);
}
CALL(mfree_freed)
{
    gputile_matrix m;
    OK_ALLOC(gputile_matrix_alloc_device(&m, N, N));
    H.m = m;
    OK(gputile_device_free(m.elements));
    snapshot(); /* H.m now holds a freed matrix: it must stay as it is */
    return gputile_matrix_free_device(&H.m);
}

/* ---- batched GEMM (issue 20) ------------------------------------------------------ */
static gputile_status sbatch(gputile_matrix a, size_t sa, gputile_matrix c, size_t sc, size_t n)
{
    return gputile_gemm_strided_batched(OPN, OPN, 1.0f, a, sa, mat(H.b, 4, 4, 4), 16, 0.0f, c, sc,
                                        n, NULL, &H.go);
}
CALL(sbatch_a_null)
{
    return sbatch(mat(NULL, 4, 4, 4), 16, mat(H.c, 4, 4, 4), 16, 2);
}
CALL(sbatch_c_footprint)
{
    return sbatch(mat(H.a, 4, 4, 4), 16, mat(H.c, 4, 4, 4), 15, 2);
}
CALL(sbatch_c_meets_a)
{
    /* records of 32 floats: A at 0, C at 24: problem 0's C meets problem 1's A */
    return sbatch(mat(H.d, 4, 4, 4), 32, mat(H.d + 24, 4, 4, 4), 32, 2);
}
CALL(sbatch_overflow)
{
    return sbatch(mat(H.a, 4, 4, 4), SIZE_MAX / 8, mat(H.c, 4, 4, 4), 16, 3);
}
CALL(sbatch_shape)
{
    return sbatch(mat(H.a, 3, 4, 4), 16, mat(H.c, 4, 4, 4), 16, 2);
}
CALL(sbatch_op)
{
    return gputile_gemm_strided_batched((gputile_op)2, OPN, 1, HA, 0, HB, 0, 0, HC, 0, 1, NULL,
                                        &H.go);
}
static gputile_status vbatch(const gputile_matrix *a, const gputile_matrix *c)
{
    const gputile_matrix b[2] = {mat(H.b, 4, 4, 4), mat(H.b + 16, 4, 4, 4)};
    return gputile_gemm_batched(OPN, OPN, 1.0f, a, b, 0.0f, c, 2, NULL, &H.go);
}
CALL(vbatch_null)
{
    return gputile_gemm_batched(OPN, OPN, 1, NULLP, NULLP, 0, NULLP, 1, NULL, &H.go);
}
CALL(vbatch_shape)
{
    const gputile_matrix a[2] = {mat(H.a, 4, 4, 4), mat(H.a + 16, 4, 4, 5)};
    const gputile_matrix c[2] = {mat(H.c, 4, 4, 4), mat(H.c + 16, 4, 3, 4)};
    return vbatch(a, c);
}
CALL(vbatch_c_meets_other_a)
{
    const gputile_matrix a[2] = {mat(H.d, 4, 4, 4), mat(H.a, 4, 4, 4)};
    const gputile_matrix c[2] = {mat(H.c, 4, 4, 4), mat(H.d + 12, 4, 4, 4)};
    return vbatch(a, c);
}
CALL(vbatch_cs_meet)
{
    const gputile_matrix a[2] = {mat(H.a, 4, 4, 4), mat(H.a + 16, 4, 4, 4)};
    const gputile_matrix c[2] = {mat(H.c + 4, 4, 4, 8), mat(H.c + 3, 4, 4, 8)};
    return vbatch(a, c);
}
CALL(vbatch_op)
{
    const gputile_matrix a[1] = {HA}, b[1] = {HB}, c[1] = {HC};
    return gputile_gemm_batched(OPN, (gputile_op)-1, 1, a, b, 0, c, 1, NULL, &H.go);
}
/* ---- beyond one GPU (issue 22) ------------------------------------------------
 * Without NCCL the NCCL calls return GPUTILE_ERROR_UNSUPPORTED whatever
 * they are given (NC() below); with it, these rows fail before the
 * communicator (a dummy, never used) is asked anything. */
#ifdef GPUTILE_TEST_NCCL
#define NC(status) (status)
#else
#define NC(status) GPUTILE_ERROR_UNSUPPORTED /* a build without NCCL */
#endif
static int dummy_comm;
#define COMM ((void *)&dummy_comm)
CALL(last_nccl_error_after_validation_failure)
{
    int before = gputile_last_nccl_error();
    EXPECT(gputile_dist_histogram_i32(H.si, NS, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, NULL, NULL,
                                      NULL),
           NC(GPUTILE_ERROR_NULL_POINTER));
    cr_assert_eq(gputile_last_nccl_error(), before);
    return GPUTILE_SUCCESS;
}
CALL(last_nccl_error_name_never_null)
{
    cr_assert_not_null(gputile_last_nccl_error_name());
    return GPUTILE_SUCCESS;
}
CALL(dhist_i32_comm_null)
{
    return gputile_dist_histogram_i32(H.si, NS, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, NULL, NULL,
                                      &H.ho);
}
CALL(dhist_i32_nbins_0)
{
    return gputile_dist_histogram_i32(H.si, NS, 0, H.counts, 0, GPUTILE_DIST_ALL_RANKS, COMM, NULL,
                                      &H.ho);
}
CALL(dhist_i32_root_m2)
{
    return gputile_dist_histogram_i32(H.si, NS, NB, H.counts, 0, -2, COMM, NULL, &H.ho);
}
CALL(dhist_i32_options)
{
    return gputile_dist_histogram_i32(H.si, NS, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, COMM, NULL,
                                      &H.ho);
}
CALL(dhist_f32_comm_null)
{
    return gputile_dist_histogram_f32(H.sf, NS, 0, 8, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, NULL,
                                      NULL, &H.ho);
}
CALL(dhist_f32_mode)
{
    return gputile_dist_histogram_f32(H.sf, NS, 0, 8, NB, H.counts, (gputile_hist_mode)2,
                                      GPUTILE_DIST_ALL_RANKS, COMM, NULL, &H.ho);
}
CALL(dhist_reduce_comm_null)
{
    return gputile_dist_histogram_reduce(H.counts, NB, H.counts + NB, 0, GPUTILE_DIST_ALL_RANKS,
                                         NULL, NULL);
}
CALL(dhist_reduce_local_null)
{
    return gputile_dist_histogram_reduce(NULL, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, COMM, NULL);
}
CALL(dblock_rank)
{
    size_t *off = (size_t *)(void *)&H.ptr, *cnt = off; /* both in the arena */
    return gputile_dist_block(10, 4, 4, off, cnt);
}
CALL(dblock_null)
{
    return gputile_dist_block(10, 4, 0, NULLP, (size_t *)(void *)&H.ptr);
}
CALL(dgemm_comm_null)
{
    return gputile_dist_gemm(GPUTILE_DIST_ROWS, OPN, OPN, 1, HA, HB, 0, HC, NULL, NULL, &H.go);
}
CALL(dgemm_layout)
{
    return gputile_dist_gemm((gputile_dist_layout)1, OPN, OPN, 1, HA, HB, 0, HC, COMM, NULL, &H.go);
}
CALL(dgemm_stride)
{
    return gputile_dist_gemm(GPUTILE_DIST_ROWS, OPN, OPN, 1, HA, mat(H.b, N, N, N - 1), 0, HC, COMM,
                             NULL, &H.go);
}
static const int dev0[] = {0};
CALL(gdev_null)
{
    return gputile_gemm_devices(NULL, 1, OPN, OPN, 1, HA, HB, 0, HC, &H.go);
}
CALL(gdev_zero)
{
    return gputile_gemm_devices(dev0, 0, OPN, OPN, 1, HA, HB, 0, HC, &H.go);
}
CALL(gdev_duplicate)
{
    static const int twice[] = {0, 0};
    return gputile_gemm_devices(twice, 2, OPN, OPN, 1, HA, HB, 0, HC, &H.go);
}
CALL(gdev_shape)
{
    return gputile_gemm_devices(dev0, 1, OPN, OPN, 1, HA, mat(H.b, N - 1, N, N), 0, HC, &H.go);
}
CALL(gdev_alias)
{
    return gputile_gemm_devices(dev0, 1, OPN, OPN, 1, HA, HB, 0, mat(H.a, N, N, N), &H.go);
}
CALL(gdev_ordinal)
{
    static const int far[] = {63};
    return gputile_gemm_devices(far, 1, OPN, OPN, 1, HA, HB, 0, HC, &H.go);
}
CALL(gdev_device_memory)
{
    return gputile_gemm_devices(dev0, 1, OPN, OPN, 1, DA, DB, 0, DC, &H.go);
}

#define I_ GPUTILE_ERROR_INVALID_VALUE
#define NUL GPUTILE_ERROR_NULL_POINTER
#define MAT GPUTILE_ERROR_INVALID_MATRIX
#define SHP GPUTILE_ERROR_SHAPE_MISMATCH
#define OVF GPUTILE_ERROR_OVERFLOW
#define ALI GPUTILE_ERROR_ALIASING
#define UNK GPUTILE_ERROR_UNKNOWN_POINTER
#define OOM GPUTILE_ERROR_OUT_OF_MEMORY

static const row rows[] = {
    ROW(gputile_strerror, "unknown status values", CPU, NULL, strerror_unknown, GPUTILE_SUCCESS),
    ROW(gputile_status_name, "unknown status values", CPU, NULL, status_name_unknown,
        GPUTILE_SUCCESS),
    ROW(gputile_last_cuda_error, "unchanged by a validation failure", CPU, NULL,
        last_error_after_validation_failure, GPUTILE_SUCCESS),
    ROW(gputile_last_cuda_error_name, "never NULL, CUDA's name", CPU, NULL,
        last_error_name_never_null, GPUTILE_SUCCESS),
    ROW(gputile_version, "matches the header", CPU, NULL, version_matches_header, GPUTILE_SUCCESS),
    ROW(gputile_version_string, "matches the header", CPU, NULL, version_string_matches_header,
        GPUTILE_SUCCESS),
    ROW(gputile_algorithm_name, "unknown enum values", CPU, NULL, algorithm_name_unknown,
        GPUTILE_SUCCESS),
    ROW(gputile_hist_tier_name, "unknown enum values", CPU, NULL, tier_name_unknown,
        GPUTILE_SUCCESS),

    ROW(gputile_device_alloc, "ptr NULL", CPU, NULL, dalloc_null, NUL),
    ROW(gputile_device_alloc, "0 bytes", CPU, NULL, dalloc_zero, I_),
    ROW(gputile_device_alloc, "2^60 bytes", GPU, NULL, dalloc_huge, OOM),
    ROW(gputile_device_free, "a host pointer", GPU, NULL, dfree_host_pointer, GPUTILE_ERROR_CUDA),
    ROW(gputile_device_free, "a pointer inside an allocation", GPU, NULL, dfree_inside,
        GPUTILE_ERROR_CUDA),
    ROW(gputile_device_free, "a freed pointer", GPU, NULL, dfree_twice, GPUTILE_ERROR_CUDA),

    ROW(gputile_matrix_copy, "dst elements NULL", CPU, NULL, mcopy_dst_null, NUL),
    ROW(gputile_matrix_copy, "src elements NULL", CPU, NULL, mcopy_src_null, NUL),
    ROW(gputile_matrix_copy, "stride < width", CPU, NULL, mcopy_stride, MAT),
    ROW(gputile_matrix_copy, "empty, stride < width", CPU, NULL, mcopy_empty_stride, MAT),
    ROW(gputile_matrix_copy, "widths differ", CPU, NULL, mcopy_shape, SHP),
    ROW(gputile_matrix_copy, "dst overlaps src", CPU, NULL, mcopy_overlap, ALI),
    ROW(gputile_matrix_copy, "extent overflows size_t", CPU, NULL, mcopy_extent, OVF),
    ROW(gputile_matrix_copy, "extent wraps the address space", CPU, NULL, mcopy_wrap, OVF),
    ROW(gputile_matrix_copy, "elements off a 4-byte boundary", CPU, NULL, mcopy_odd, I_),
    ROW(gputile_matrix_copy, "device dst overlaps device src", GPU, NULL, mcopy_dev_overlap, ALI),

    ROW(gputile_gemm, "A elements NULL", CPU, NULL, gemm_a_null, NUL),
    ROW(gputile_gemm, "B elements NULL", CPU, NULL, gemm_b_null, NUL),
    ROW(gputile_gemm, "C elements NULL", CPU, NULL, gemm_c_null, NUL),
    ROW(gputile_gemm, "A stride < width", CPU, NULL, gemm_a_stride, MAT),
    ROW(gputile_gemm, "B stride 0", CPU, NULL, gemm_b_stride0, MAT),
    ROW(gputile_gemm, "C stride < width", CPU, NULL, gemm_c_stride, MAT),
    ROW(gputile_gemm, "empty C, stride < width", CPU, NULL, gemm_empty_c_stride, MAT),
    ROW(gputile_gemm, "inner sizes differ", CPU, NULL, gemm_inner, SHP),
    ROW(gputile_gemm, "C height != A height", CPU, NULL, gemm_rows, SHP),
    ROW(gputile_gemm, "C width != B width", CPU, NULL, gemm_cols, SHP),
    ROW(gputile_gemm, "op(A) = A^T mismatched", CPU, NULL, gemm_trans_shape, SHP),
    ROW(gputile_gemm, "trans_a = 2", CPU, NULL, gemm_op_2, I_),
    ROW(gputile_gemm, "trans_b = -1", CPU, NULL, gemm_op_neg, I_),
    ROW(gputile_gemm, "C is A", CPU, NULL, gemm_c_is_a, ALI),
    ROW(gputile_gemm, "C overlaps B by one element", CPU, NULL, gemm_c_overlaps_b, ALI),
    ROW(gputile_gemm, "C interleaves A", CPU, NULL, gemm_c_interleaves_a, ALI),
    ROW(gputile_gemm, "extent overflows size_t", CPU, NULL, gemm_extent, OVF),
    ROW(gputile_gemm, "height SIZE_MAX/4", CPU, NULL, gemm_huge_dims, OVF),
    ROW(gputile_gemm, "B wraps the address space", CPU, NULL, gemm_wrap, OVF),
    ROW(gputile_gemm, "A elements off a 4-byte boundary", CPU, NULL, gemm_odd_a, I_),
    ROW(gputile_gemm, "C elements off a 4-byte boundary", CPU, NULL, gemm_odd_c, I_),
    ROW(gputile_gemm, "options size 0", CPU, go_size0, gemm_with_options, I_),
    ROW(gputile_gemm, "options size too small", CPU, go_size_small, gemm_with_options, I_),
    ROW(gputile_gemm, "algorithm 99", CPU, go_algo, gemm_with_options, I_),
    ROW(gputile_gemm, "algorithm -1", CPU, go_algo_neg, gemm_with_options, I_),
    ROW(gputile_gemm, "precision 7", CPU, go_precision, gemm_with_options, I_),
    ROW(gputile_gemm, "split_k -1", CPU, go_split_neg, gemm_with_options, I_),
    ROW(gputile_gemm, "split_k > GPUTILE_MAX_SPLIT_K", CPU, go_split_big, gemm_with_options, I_),
    ROW(gputile_gemm, "split_k 2 with TILED", CPU, go_split_tiled, gemm_with_options, I_),
    ROW(gputile_gemm, "split_k 3 with NAIVE", CPU, go_split_naive, gemm_with_options, I_),
    ROW(gputile_gemm, "reserved != 0", CPU, go_reserved, gemm_with_options, I_),
    ROW(gputile_gemm, "device C overlaps device A", GPU, NULL, gemm_dev_c_overlaps_a, ALI),
    ROW(gputile_gemm, "device C is device B, host A", GPU, NULL, gemm_dev_c_is_b_host_a, ALI),

    ROW(gputile_gemm_strided_batched, "A elements NULL", CPU, NULL, sbatch_a_null, NUL),
    ROW(gputile_gemm_strided_batched, "stride_c below C's footprint", CPU, NULL, sbatch_c_footprint,
        ALI),
    ROW(gputile_gemm_strided_batched, "C 0 meets A 1", CPU, NULL, sbatch_c_meets_a, ALI),
    ROW(gputile_gemm_strided_batched, "i * stride_a overflows", CPU, NULL, sbatch_overflow, OVF),
    ROW(gputile_gemm_strided_batched, "A and C disagree", CPU, NULL, sbatch_shape, SHP),
    ROW(gputile_gemm_strided_batched, "trans_a = 2", CPU, NULL, sbatch_op, I_),
    ROW(gputile_gemm_batched, "arrays NULL, count 1", CPU, NULL, vbatch_null, NUL),
    ROW(gputile_gemm_batched, "C 1 of another shape", CPU, NULL, vbatch_shape, SHP),
    ROW(gputile_gemm_batched, "C 1 meets A 0", CPU, NULL, vbatch_c_meets_other_a, ALI),
    ROW(gputile_gemm_batched, "C 0 meets C 1", CPU, NULL, vbatch_cs_meet, ALI),
    ROW(gputile_gemm_batched, "trans_b = -1", CPU, NULL, vbatch_op, I_),

    ROW(gputile_matmul, "C elements NULL", CPU, NULL, matmul_null, NUL),
    ROW(gputile_matmul, "B stride < width", CPU, NULL, matmul_stride, MAT),
    ROW(gputile_matmul, "inner sizes differ", CPU, NULL, matmul_shape, SHP),
    ROW(gputile_matmul, "C is B", CPU, NULL, matmul_alias, ALI),
    ROW(gputile_matmul, "B elements off a 4-byte boundary", CPU, NULL, matmul_odd, I_),
    ROW(gputile_matmul, "extent overflows size_t", CPU, NULL, matmul_extent, OVF),

    ROW(gputile_histogram_i32, "mode 2", CPU, NULL, hi_mode_2, I_),
    ROW(gputile_histogram_i32, "mode -1", CPU, NULL, hi_mode_neg, I_),
    ROW(gputile_histogram_i32, "nbins 0", CPU, NULL, hi_nbins_0, I_),
    ROW(gputile_histogram_i32, "nbins -5", CPU, NULL, hi_nbins_neg, I_),
    ROW(gputile_histogram_i32, "nbins INT32_MIN", CPU, NULL, hi_nbins_min, I_),
    ROW(gputile_histogram_i32, "counts NULL", CPU, NULL, hi_counts_null, NUL),
    ROW(gputile_histogram_i32, "samples NULL, n > 0", CPU, NULL, hi_samples_null, NUL),
    ROW(gputile_histogram_i32, "counts not 8-byte aligned", CPU, NULL, hi_counts_misaligned, I_),
    ROW(gputile_histogram_i32, "samples not 4-byte aligned", CPU, NULL, hi_samples_misaligned, I_),
    ROW(gputile_histogram_i32, "n = SIZE_MAX/4", CPU, NULL, hi_n_huge, OVF),
    ROW(gputile_histogram_i32, "n = SIZE_MAX", CPU, NULL, hi_n_size_max, OVF),
    ROW(gputile_histogram_i32, "counts wrap the address space", CPU, NULL, hi_counts_wrap, OVF),
    ROW(gputile_histogram_i32, "samples overlap counts", CPU, NULL, hi_alias, ALI),
    ROW(gputile_histogram_i32, "options size 0", CPU, ho_size0, hi_with_options, I_),
    ROW(gputile_histogram_i32, "options size too small", CPU, ho_size_small, hi_with_options, I_),
    ROW(gputile_histogram_i32, "tier past the last", CPU, ho_tier, hi_with_options, I_),
    ROW(gputile_histogram_i32, "tier -1", CPU, ho_tier_neg, hi_with_options, I_),
    ROW(gputile_histogram_i32, "cluster_size 17", CPU, ho_cluster_big, hi_with_options, I_),
    ROW(gputile_histogram_i32, "cluster_size -1", CPU, ho_cluster_neg, hi_with_options, I_),
    ROW(gputile_histogram_i32, "cluster_size without DSM", CPU, ho_cluster_no_dsm, hi_with_options,
        I_),
    ROW(gputile_histogram_i32, "cluster_size with the routed tier", CPU, ho_cluster_route,
        hi_with_options, I_),
    ROW(gputile_histogram_i32, "reserved != 0", CPU, ho_reserved, hi_with_options, I_),
    ROW(gputile_histogram_i32, "host samples, device counts", GPU, NULL, hi_dev_samples_host, I_),
    ROW(gputile_histogram_i32, "device samples, host counts", GPU, NULL, hi_dev_counts_host, I_),
    ROW(gputile_histogram_i32, "device samples, pinned host counts", GPU, NULL,
        hi_dev_counts_pinned, I_),
    ROW(gputile_histogram_i32, "device samples overlap device counts", GPU, NULL, hi_dev_alias,
        ALI),
    ROW(gputile_histogram_i32, "shared tier, 2^26 bins", GPU, ho_shared, hi_dev_shared_too_many,
        GPUTILE_ERROR_UNSUPPORTED),

    ROW(gputile_histogram_f32, "lower NaN", CPU, NULL, hf_lower_nan, I_),
    ROW(gputile_histogram_f32, "upper +inf", CPU, NULL, hf_upper_inf, I_),
    ROW(gputile_histogram_f32, "lower -inf", CPU, NULL, hf_lower_neg_inf, I_),
    ROW(gputile_histogram_f32, "lower == upper", CPU, NULL, hf_equal, I_),
    ROW(gputile_histogram_f32, "lower > upper", CPU, NULL, hf_reversed, I_),
    ROW(gputile_histogram_f32, "upper - lower overflows", CPU, NULL, hf_range_overflow, I_),
    ROW(gputile_histogram_f32, "nbins 0", CPU, NULL, hf_nbins_0, I_),
    ROW(gputile_histogram_f32, "counts NULL", CPU, NULL, hf_counts_null, NUL),
    ROW(gputile_histogram_f32, "mode 7", CPU, NULL, hf_mode, I_),
    ROW(gputile_histogram_f32, "options tier past the last", CPU, ho_tier, hf_mode, I_),
    ROW(gputile_histogram_f32, "host samples, device counts", GPU, NULL, hf_dev_samples_host, I_),

    ROW(gputile_histogram_plan, "options NULL", CPU, NULL, plan_null, NUL),
    ROW(gputile_histogram_plan, "nbins 0", CPU, NULL, plan_nbins_0, I_),
    ROW(gputile_histogram_plan, "nbins INT32_MIN", CPU, NULL, plan_nbins_neg, I_),
    ROW(gputile_histogram_plan, "options size 0", CPU, ho_size0, plan_options, I_),
    ROW(gputile_histogram_plan, "tier past the last", CPU, ho_tier, plan_options, I_),
    ROW(gputile_histogram_plan, "cluster_size 17", CPU, ho_cluster_big, plan_options, I_),
    ROW(gputile_histogram_plan, "reserved != 0", CPU, ho_reserved, plan_options, I_),
    ROW(gputile_histogram_plan, "shared tier, 2^26 bins", GPU, ho_shared, plan_shared_too_many,
        GPUTILE_ERROR_UNSUPPORTED),

    ROW(gputile_histogram_even, "input size 0", CPU, NULL, he_size0, I_),
    ROW(gputile_histogram_even, "type 9", CPU, NULL, he_type9, I_),
    ROW(gputile_histogram_even, "channels 5", CPU, NULL, he_channels5, I_),
    ROW(gputile_histogram_even, "channels 0", CPU, NULL, he_channels0, I_),
    ROW(gputile_histogram_even, "mode 2", CPU, NULL, he_mode, I_),
    ROW(gputile_histogram_even, "nbins 0", CPU, NULL, he_nbins0, I_),
    ROW(gputile_histogram_even, "lower > upper", CPU, NULL, he_reversed, I_),
    ROW(gputile_histogram_even, "integer samples, upper 7.5", CPU, NULL, he_fractional, I_),
    ROW(gputile_histogram_even, "reserved != 0", CPU, NULL, he_reserved, I_),
    ROW(gputile_histogram_even, "samples NULL", CPU, NULL, he_samples_null, NUL),
    ROW(gputile_histogram_even, "counts[1] NULL", CPU, NULL, he_counts1_null, NUL),
    ROW(gputile_histogram_even, "samples not 4-byte aligned", CPU, NULL, he_samples_misaligned, I_),
    ROW(gputile_histogram_even, "stride smaller than a row", CPU, NULL, he_stride_short, I_),
    ROW(gputile_histogram_even, "stride not a multiple of 4", CPU, NULL, he_stride_odd, I_),
    ROW(gputile_histogram_even, "width * channels overflows", CPU, NULL, he_width_huge, OVF),
    ROW(gputile_histogram_even, "counts[1] overlaps counts[0]", CPU, NULL, he_counts_overlap, ALI),
    ROW(gputile_histogram_even, "counts inside the samples", CPU, NULL, he_counts_in_samples, ALI),
    ROW(gputile_histogram_even, "options tier 4", CPU, ho_tier, he_with_options, I_),
    ROW(gputile_histogram_even, "options size 0", CPU, ho_size0, he_with_options, I_),
    ROW(gputile_histogram_even, "cluster_size without DSM", CPU, ho_cluster_no_dsm, he_with_options,
        I_),
    ROW(gputile_histogram_even, "host samples, device counts", GPU, NULL, he_dev_samples_host, I_),
    ROW(gputile_histogram_even, "DSM tier", GPU, ho_dsm, he_dev_dsm, GPUTILE_ERROR_UNSUPPORTED),

    ROW(gputile_histogram_range, "input size 0", CPU, NULL, hr_size0, I_),
    ROW(gputile_histogram_range, "type 9", CPU, NULL, hr_type9, I_),
    ROW(gputile_histogram_range, "channels 5", CPU, NULL, hr_channels5, I_),
    ROW(gputile_histogram_range, "channels 0", CPU, NULL, hr_channels0, I_),
    ROW(gputile_histogram_range, "nedges 1", CPU, NULL, hr_nedges1, I_),
    ROW(gputile_histogram_range, "edges not sorted", CPU, NULL, hr_unsorted, I_),
    ROW(gputile_histogram_range, "an edge NaN", CPU, NULL, hr_nan, I_),
    ROW(gputile_histogram_range, "edges[1] NULL", CPU, NULL, hr_edges_null, NUL),
    ROW(gputile_histogram_range, "samples NULL", CPU, NULL, hr_samples_null, NUL),
    ROW(gputile_histogram_range, "counts[1] NULL", CPU, NULL, hr_counts1_null, NUL),
    ROW(gputile_histogram_range, "samples not 4-byte aligned", CPU, NULL, hr_samples_misaligned,
        I_),
    ROW(gputile_histogram_range, "stride smaller than a row", CPU, NULL, hr_stride_short, I_),
    ROW(gputile_histogram_range, "stride not a multiple of 4", CPU, NULL, hr_stride_odd, I_),
    ROW(gputile_histogram_range, "width * channels overflows", CPU, NULL, hr_width_huge, OVF),
    ROW(gputile_histogram_range, "counts[1] overlaps counts[0]", CPU, NULL, hr_counts_overlap, ALI),
    ROW(gputile_histogram_range, "counts inside the samples", CPU, NULL, hr_counts_in_samples, ALI),
    ROW(gputile_histogram_range, "options reserved != 0", CPU, ho_reserved, hr_with_options, I_),
    ROW(gputile_histogram_range, "host samples, device counts", GPU, NULL, hr_dev_samples_host, I_),
    ROW(gputile_histogram_range, "DSM tier", GPU, ho_dsm, hr_dev_dsm, GPUTILE_ERROR_UNSUPPORTED),

    ROW(gputile_pinned_alloc, "ptr NULL", CPU, NULL, palloc_null, NUL),
    ROW(gputile_pinned_alloc, "0 bytes", CPU, NULL, palloc_zero, I_),
    ROW(gputile_pinned_alloc, "unknown flag 0x8", CPU, NULL, palloc_flag, I_),
    ROW(gputile_pinned_alloc, "unknown flag 0x80000000", CPU, NULL, palloc_flag_high, I_),
    ROW2(gputile_pinned_alloc, "2^60 bytes", GPU, NULL, palloc_huge, OOM, GPUTILE_ERROR_CUDA),
    ROW(gputile_pinned_free, "a pointer it did not return", CPU, NULL, pfree_unknown, UNK),
    ROW(gputile_pinned_free, "address 1", CPU, NULL, pfree_one, UNK),
    ROW(gputile_pinned_free, "a freed pointer", GPU, NULL, pfree_twice, UNK),
    ROW(gputile_pinned_free, "a pointer inside an allocation", GPU, NULL, pfree_inside, UNK),
    ROW(gputile_pinned_free, "a pool block", GPU, NULL, pfree_pool_block, UNK),
    ROW(gputile_pinned_register, "ptr NULL", CPU, NULL, preg_null, NUL),
    ROW(gputile_pinned_register, "0 bytes", CPU, NULL, preg_zero, I_),
    ROW(gputile_pinned_register, "WRITE_COMBINED", CPU, NULL, preg_wc, I_),
    ROW(gputile_pinned_register, "unknown flag 0x10", CPU, NULL, preg_flag, I_),
    ROW(gputile_pinned_register, "SIZE_MAX bytes", CPU, NULL, preg_size_max, OVF),
    ROW(gputile_pinned_register, "range wraps past the last page", CPU, NULL, preg_wrap, OVF),
    ROW(gputile_pinned_register, "pages already registered", GPU, NULL, preg_twice,
        GPUTILE_ERROR_ALREADY_REGISTERED),
    ROW(gputile_pinned_register, "memory from gputile_pinned_alloc", GPU, NULL, preg_pinned_alloc,
        GPUTILE_ERROR_ALREADY_REGISTERED),
    ROW(gputile_pinned_unregister, "ptr NULL", CPU, NULL, punreg_null, NUL),
    ROW(gputile_pinned_unregister, "never registered", CPU, NULL, punreg_unknown, UNK),
    ROW(gputile_pinned_unregister, "already unregistered", GPU, NULL, punreg_twice, UNK),
    ROW(gputile_pinned_unregister, "not the registered address", GPU, NULL, punreg_inside, UNK),
    ROW(gputile_pinned_device_pointer, "device_ptr NULL", CPU, NULL, pdev_null_out, NUL),
    ROW(gputile_pinned_device_pointer, "host_ptr NULL", CPU, NULL, pdev_null_host, NUL),
    ROW(gputile_pinned_device_pointer, "ordinary memory", CPU, NULL, pdev_unknown, UNK),
    ROW(gputile_pinned_device_pointer, "a device pointer", GPU, NULL, pdev_device_ptr, UNK),
    ROW(gputile_pinned_device_pointer, "pinned without MAPPED", GPU, NULL, pdev_not_mapped, I_),
    ROW(gputile_pinned_device_pointer, "freed mapped memory", GPU, NULL, pdev_freed, UNK),
    ROW(gputile_pinned_device_pointer, "a pool block back in the cache", GPU, NULL,
        pdev_pool_cached, UNK),

    ROW(gputile_pool_alloc, "ptr NULL", CPU, NULL, pool_alloc_null, NUL),
    ROW(gputile_pool_alloc, "0 bytes", CPU, NULL, pool_alloc_zero, I_),
    ROW(gputile_pool_alloc, "unknown flag 0x8", CPU, NULL, pool_alloc_flag, I_),
    ROW(gputile_pool_alloc, "SIZE_MAX bytes (size class overflows)", CPU, NULL, pool_alloc_size_max,
        OVF),
    ROW2(gputile_pool_alloc, "2^60 bytes", GPU, NULL, pool_alloc_huge, OOM, GPUTILE_ERROR_CUDA),
    ROW(gputile_pool_free, "a pointer it did not return", CPU, NULL, pool_free_unknown, UNK),
    ROW(gputile_pool_free, "a freed block", GPU, NULL, pool_free_twice, UNK),
    ROW(gputile_pool_free, "memory from gputile_pinned_alloc", GPU, NULL, pool_free_pinned_alloc,
        UNK),
    ROW(gputile_pool_set_limit, "SIZE_MAX (valid: no limit)", CPU, NULL, pool_limit_max,
        GPUTILE_SUCCESS),
    ROW(gputile_pool_set_limit, "0 (valid: cache nothing)", CPU, NULL, pool_limit_zero,
        GPUTILE_SUCCESS),
    ROW(gputile_pool_release, "nothing cached", CPU, NULL, pool_release_empty, GPUTILE_SUCCESS),
    ROW(gputile_pool_get_stats, "stats NULL", CPU, NULL, pool_stats_null, NUL),
    ROW(gputile_pool_get_stats, "size 0", CPU, ps_size0, pool_stats, I_),
    ROW(gputile_pool_get_stats, "size of one field", CPU, ps_size_one_field, pool_stats, I_),

    ROW(gputile_copy, "dst NULL", CPU, NULL, copy_dst_null, NUL),
    ROW(gputile_copy, "src NULL", CPU, NULL, copy_src_null, NUL),
    ROW(gputile_copy, "SIZE_MAX bytes", CPU, NULL, copy_size_max, OVF),
    ROW(gputile_copy, "dst wraps the address space", CPU, NULL, copy_wrap, OVF),
    ROW(gputile_copy, "ranges overlap", CPU, NULL, copy_overlap, ALI),
    ROW(gputile_copy, "host to host", GPU, NULL, copy_host_to_host, I_),
    ROW(gputile_copy, "device ranges overlap", GPU, NULL, copy_dev_overlap, ALI),
    ROW(gputile_copy_cache, "host NULL", CPU, NULL, ccache_null, NUL),
    ROW(gputile_copy_cache, "0 bytes", CPU, NULL, ccache_zero, I_),
    ROW(gputile_copy_cache, "range wraps the address space", CPU, NULL, ccache_wrap, OVF),
    ROW(gputile_copy_cache, "pages already registered", GPU, NULL, ccache_registered,
        GPUTILE_ERROR_ALREADY_REGISTERED),
    ROW(gputile_copy_uncache, "host NULL", CPU, NULL, cuncache_null, NUL),
    ROW(gputile_copy_uncache, "never cached", CPU, NULL, cuncache_unknown, UNK),
    ROW(gputile_copy_uncache, "registered, not cached", GPU, NULL, cuncache_registered, UNK),

    ROW(gputile_submatrix, "out NULL", CPU, NULL, sub_out_null, NUL),
    ROW(gputile_submatrix, "elements NULL", CPU, NULL, sub_elements_null, NUL),
    ROW(gputile_submatrix, "stride < width", CPU, NULL, sub_stride, MAT),
    ROW(gputile_submatrix, "rows past the end", CPU, NULL, sub_rows, GPUTILE_ERROR_OUT_OF_BOUNDS),
    ROW(gputile_submatrix, "col past the end", CPU, NULL, sub_cols, GPUTILE_ERROR_OUT_OF_BOUNDS),
    ROW(gputile_submatrix, "row + height wraps", CPU, NULL, sub_wrap, GPUTILE_ERROR_OUT_OF_BOUNDS),
    ROW(gputile_matrix_alloc_device, "m NULL", CPU, NULL, malloc_null, NUL),
    ROW(gputile_matrix_alloc_device, "rounded stride overflows", CPU, NULL, malloc_width, OVF),
    ROW(gputile_matrix_alloc_device, "bytes overflow", CPU, NULL, malloc_bytes, OVF),
    ROW(gputile_matrix_free_device, "m NULL", CPU, NULL, mfree_null, NUL),
    ROW(gputile_matrix_free_device, "a freed matrix", GPU, NULL, mfree_freed, GPUTILE_ERROR_CUDA),
    /* issue 22 */
    ROW(gputile_last_nccl_error, "unchanged by a validation failure", CPU, NULL,
        last_nccl_error_after_validation_failure, GPUTILE_SUCCESS),
    ROW(gputile_last_nccl_error_name, "never NULL", CPU, NULL, last_nccl_error_name_never_null,
        GPUTILE_SUCCESS),
    ROW(gputile_dist_histogram_i32, "comm NULL", CPU, NULL, dhist_i32_comm_null, NC(NUL)),
    ROW(gputile_dist_histogram_i32, "nbins 0", CPU, NULL, dhist_i32_nbins_0, NC(I_)),
    ROW(gputile_dist_histogram_i32, "root -2", CPU, NULL, dhist_i32_root_m2, NC(I_)),
    ROW(gputile_dist_histogram_i32, "options size 0", CPU, ho_size0, dhist_i32_options, NC(I_)),
    ROW(gputile_dist_histogram_f32, "comm NULL", CPU, NULL, dhist_f32_comm_null, NC(NUL)),
    ROW(gputile_dist_histogram_f32, "mode 2", CPU, NULL, dhist_f32_mode, NC(I_)),
    ROW(gputile_dist_histogram_reduce, "comm NULL", CPU, NULL, dhist_reduce_comm_null, NC(NUL)),
    ROW(gputile_dist_histogram_reduce, "local NULL", CPU, NULL, dhist_reduce_local_null, NC(NUL)),
    ROW(gputile_dist_block, "rank == ranks", CPU, NULL, dblock_rank, I_),
    ROW(gputile_dist_block, "offset NULL", CPU, NULL, dblock_null, NUL),
    ROW(gputile_dist_gemm, "comm NULL", CPU, NULL, dgemm_comm_null, NC(NUL)),
    ROW(gputile_dist_gemm, "layout 1", CPU, NULL, dgemm_layout, NC(I_)),
    ROW(gputile_dist_gemm, "stride < width", CPU, NULL, dgemm_stride, NC(MAT)),
    ROW(gputile_gemm_devices, "devices NULL", CPU, NULL, gdev_null, NUL),
    ROW(gputile_gemm_devices, "ndevices 0", CPU, NULL, gdev_zero, I_),
    ROW(gputile_gemm_devices, "a device twice", CPU, NULL, gdev_duplicate, I_),
    ROW(gputile_gemm_devices, "shape mismatch", CPU, NULL, gdev_shape, SHP),
    ROW(gputile_gemm_devices, "C overlaps A", CPU, NULL, gdev_alias, ALI),
    ROW(gputile_gemm_devices, "ordinal beyond the devices", GPU, NULL, gdev_ordinal, I_),
    ROW(gputile_gemm_devices, "device memory", GPU, NULL, gdev_device_memory, I_),
};
#define N_ROWS (sizeof rows / sizeof rows[0])

/* ---- the valid call after each row ------------------------------------------- */
/* Each returns the status of a valid call of fn and, on success, checks its
 * result; `nodev` is what it must return without a device (and then nothing
 * may be written). */
static void gemm_reference(const float *a, const float *b, float *c)
{
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            float s = 0;
            for (int q = 0; q < N; ++q)
                s += a[i * N + q] * b[q * N + j];
            c[i * N + j] = s;
        }
}
static void assert_gemm_result(const float *c)
{
    float want[N * N];
    gemm_reference(H.a, H.b, want);
    cr_assert(memcmp(c, want, sizeof want) == 0, "valid GEMM: wrong result");
}
/* The batched calls' C, in the device arena (where they ran): read back
 * and compared as assert_gemm_result does. */
static void device_gemm_operands(void)
{
    if (D != NULL) {
        GPUTEST_CUDA(cudaMemcpy(D->a, H.a, sizeof H.a, cudaMemcpyHostToDevice));
        GPUTEST_CUDA(cudaMemcpy(D->b, H.b, sizeof H.b, cudaMemcpyHostToDevice));
    }
}
static void assert_device_gemm_result(void)
{
    float got[N * N];
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaMemcpy(got, D != NULL ? D->c : H.c, sizeof got,
                            D != NULL ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost));
    assert_gemm_result(got);
}
static void hist_reference(bool is_float, uint64_t *want)
{
    memset(want, 0, NB * sizeof *want);
    for (int i = 0; i < NS; ++i) {
        if (is_float) {
            float x = H.sf[i];
            if (!(x >= 0.0f && x < 8.0f))
                continue;
            int b = (int)floorf((x - 0.0f) * ((float)NB / 8.0f));
            want[b < NB ? b : NB - 1]++;
        } else {
            int32_t x = H.si[i];
            want[x < 0 ? 0 : x >= NB ? NB - 1 : x]++;
        }
    }
}

CALL(v_none)
{
    return GPUTILE_SUCCESS;
} /* for the functions that cannot fail */
CALL(v_device_alloc)
{
    void *p = NULL;
    gputile_status s = gputile_device_alloc(&p, 256);
    if (s == GPUTILE_SUCCESS) {
        cr_assert_not_null(p);
        OK(gputile_device_free(p));
    }
    return s;
}
CALL(v_device_free)
{
    void *p = NULL;
    gputile_status s = gputile_device_alloc(&p, 256);
    return s == GPUTILE_SUCCESS ? gputile_device_free(p) : s;
}
CALL(v_matrix_copy)
{
    gputile_status s = gputile_matrix_copy(HD, HA, NULL);
    if (s == GPUTILE_SUCCESS)
        cr_assert(memcmp(H.d, H.a, sizeof(float) * N * N) == 0, "valid copy: wrong result");
    return s;
}
CALL(v_gemm)
{
    gputile_status s = gputile_gemm(OPN, OPN, 1, HA, HB, 0, HC, NULL, &H.go);
    if (s == GPUTILE_SUCCESS) {
        GPUTEST_CUDA(cudaDeviceSynchronize());
        assert_gemm_result(H.c);
        cr_assert(gputile_algorithm_name(H.go.algorithm_used) != NULL);
    }
    return s;
}
/* Batched calls run on device memory only: the device arena where there is one. */
CALL(v_gemm_strided_batched)
{
    device_gemm_operands();
    gputile_status s = gputile_gemm_strided_batched(OPN, OPN, 1, D ? DA : HA, 0, D ? DB : HB, 0, 0,
                                                    D ? DC : HC, 0, 1, NULL, &H.go);
    if (s == GPUTILE_SUCCESS) {
        assert_device_gemm_result();
        cr_assert(gputile_algorithm_name(H.go.algorithm_used) != NULL);
    }
    return s;
}
CALL(v_gemm_batched)
{
    const gputile_matrix a[1] = {D ? DA : HA}, b[1] = {D ? DB : HB}, c[1] = {D ? DC : HC};
    device_gemm_operands();
    gputile_status s = gputile_gemm_batched(OPN, OPN, 1, a, b, 0, c, 1, NULL, &H.go);
    if (s == GPUTILE_SUCCESS) {
        assert_device_gemm_result();
        cr_assert(gputile_algorithm_name(H.go.algorithm_used) != NULL);
    }
    return s;
}
CALL(v_matmul)
{
    gputile_status s = gputile_matmul(HA, HB, HC);
    if (s == GPUTILE_SUCCESS)
        assert_gemm_result(H.c);
    return s;
}
static gputile_status v_hist(bool is_float)
{
    /* Device memory when there is a device; else host memory, which the
     * library finds out about only by asking the (missing) driver. */
    uint64_t want[NB], got[NB];
    if (!have_device)
        return is_float ? gputile_histogram_f32(H.sf, NS, 0, 8, NB, H.counts, 0, NULL, &H.ho)
                        : gputile_histogram_i32(H.si, NS, NB, H.counts, 0, NULL, &H.ho);
    GPUTEST_CUDA(cudaMemcpy(D->si, H.si, sizeof H.si, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemcpy(D->sf, H.sf, sizeof H.sf, cudaMemcpyHostToDevice));
    gputile_status s = is_float
                           ? gputile_histogram_f32(D->sf, NS, 0, 8, NB, D->counts, 0, NULL, &H.ho)
                           : gputile_histogram_i32(D->si, NS, NB, D->counts, 0, NULL, &H.ho);
    if (s != GPUTILE_SUCCESS)
        return s;
    GPUTEST_CUDA(cudaMemcpy(got, D->counts, sizeof got, cudaMemcpyDeviceToHost));
    hist_reference(is_float, want);
    cr_assert(memcmp(got, want, sizeof want) == 0, "valid histogram: wrong counts");
    cr_assert_eq(H.ho.tier_used, GPUTILE_HIST_TIER_SHARED);
    return s;
}
CALL(v_hist_i32)
{
    return v_hist(false);
}
CALL(v_hist_f32)
{
    return v_hist(true);
}
/* The image calls on H.si (see img_args): x in [0, NB) counts in bin x of
 * its channel (even index of the sample mod 2: channel 0). */
static gputile_status v_img(bool range)
{
    uint64_t want[2 * NB] = {0}, got[2 * NB];
    if (!have_device) {
        img_args(H.si, H.counts);
        return range ? img_range() : img_even();
    }
    GPUTEST_CUDA(cudaMemcpy(D->si, H.si, sizeof H.si, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemset(D->counts, 0, sizeof got)); /* range accumulates */
    img_args(D->si, D->counts);
    gputile_status s = range ? img_range() : img_even();
    if (s != GPUTILE_SUCCESS)
        return s;
    GPUTEST_CUDA(cudaMemcpy(got, D->counts, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NS; ++i)
        if (H.si[i] >= 0 && H.si[i] < NB)
            want[(i % 2) * NB + H.si[i]]++;
    cr_assert(memcmp(got, want, sizeof want) == 0, "valid image histogram: wrong counts");
    cr_assert_eq(H.ho.tier_used, GPUTILE_HIST_TIER_SHARED);
    return s;
}
CALL(v_hist_even)
{
    return v_img(false);
}
CALL(v_hist_range)
{
    return v_img(true);
}
CALL(v_plan)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    gputile_status s = gputile_histogram_plan(NB, &o);
    if (s == GPUTILE_SUCCESS)
        cr_assert_eq(o.tier_used, GPUTILE_HIST_TIER_SHARED);
    return s;
}
static gputile_status alloc_free(unsigned flags, bool pool)
{
    void *p = NULL;
    gputile_status s =
        pool ? gputile_pool_alloc(&p, 4096, flags) : gputile_pinned_alloc(&p, 4096, flags);
    if (s != GPUTILE_SUCCESS)
        return s;
    memset(p, 0x5a, 4096);
    if (flags & GPUTILE_PINNED_MAPPED) {
        void *d = NULL;
        OK(gputile_pinned_device_pointer(&d, (char *)p + 100));
        cr_assert_not_null(d);
    }
    return pool ? gputile_pool_free(p) : gputile_pinned_free(p);
}
CALL(v_pinned_alloc)
{
    return alloc_free(0, false);
}
CALL(v_pinned_device_pointer)
{
    return alloc_free(GPUTILE_PINNED_MAPPED, false);
}
CALL(v_pool_alloc)
{
    return alloc_free(GPUTILE_PINNED_MAPPED, true);
}
CALL(v_register)
{
    gputile_status s = gputile_pinned_register(reg_buf + 10, 5000, 0);
    return s == GPUTILE_SUCCESS ? gputile_pinned_unregister(reg_buf + 10) : s;
}
CALL(v_pool_set_limit)
{
    return gputile_pool_set_limit(GPUTILE_POOL_DEFAULT_LIMIT);
}
CALL(v_pool_release)
{
    return gputile_pool_release();
}
CALL(v_pool_stats)
{
    gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
    gputile_status s = gputile_pool_get_stats(&st);
    cr_assert_eq(st.cached_blocks, 0, "a row left blocks cached");
    return s;
}
CALL(v_copy)
{
    if (!have_device)
        return gputile_copy(H.d, H.a, sizeof(float) * N * N, NULL);
    OK(gputile_copy(D->d, H.a, sizeof(float) * N * N, NULL));
    GPUTEST_CUDA(cudaStreamSynchronize(NULL));
    gputile_status s = gputile_copy(H.d, D->d, sizeof(float) * N * N, NULL);
    if (s == GPUTILE_SUCCESS)
        cr_assert(memcmp(H.d, H.a, sizeof(float) * N * N) == 0, "valid copy: wrong bytes");
    return s;
}
CALL(v_copy_cache)
{
    const size_t n = sizeof(float) * N * N; /* D->d's size */
    gputile_status s = gputile_copy_cache(reg_buf + 10, 5000);
    if (s == GPUTILE_SUCCESS && have_device) { /* a copy inside the cached range, both ways */
        memset(reg_buf + 10, 7, n);
        OK(gputile_copy(D->d, reg_buf + 10, n, NULL));
        memset(reg_buf + 10, 0, n);
        OK(gputile_copy(reg_buf + 10, D->d, n, NULL));
        cr_assert(reg_buf[10] == 7 && reg_buf[9 + n] == 7, "valid cached copy: wrong bytes");
    }
    return s == GPUTILE_SUCCESS ? gputile_copy_uncache(reg_buf + 10) : s;
}
CALL(v_submatrix)
{
    gputile_status s = gputile_submatrix(HA, 1, 2, 2, 3, &H.m);
    cr_assert(s == GPUTILE_SUCCESS && H.m.elements == H.a + N + 2 && H.m.width == 2 &&
              H.m.height == 3 && H.m.stride == N);
    return s;
}
CALL(v_matrix_alloc)
{
    gputile_matrix m;
    gputile_status s = gputile_matrix_alloc_device(&m, N, N);
    return s == GPUTILE_SUCCESS ? gputile_matrix_free_device(&m) : s;
}

/* issue 22. The NCCL calls' valid call runs on a one-rank communicator of
 * the current device, made once (its memory is there before the leak
 * checks measure); without NCCL they are GPUTILE_ERROR_UNSUPPORTED, which
 * is what the build documents, and count as the valid call. */
#ifdef GPUTILE_TEST_NCCL
static ncclComm_t one_rank;
static void *valid_comm(void)
{
    if (one_rank == NULL) {
        int dev = 0;
        setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast */
        GPUTEST_CUDA(cudaGetDevice(&dev));
        cr_assert_eq(ncclCommInitAll(&one_rank, 1, &dev), ncclSuccess);
    }
    return one_rank;
}
#endif
static gputile_status v_dist(int which)
{
#ifndef GPUTILE_TEST_NCCL
    (void)which;
    EXPECT(gputile_dist_histogram_i32(H.si, NS, NB, H.counts, 0, GPUTILE_DIST_ALL_RANKS, NULL, NULL,
                                      NULL),
           GPUTILE_ERROR_UNSUPPORTED);
    return have_device ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE;
#else
    if (!have_device) /* no device, no communicator */
        return GPUTILE_ERROR_NO_DEVICE;
    uint64_t want[NB], got[NB];
    GPUTEST_CUDA(cudaMemcpy(D->si, H.si, sizeof H.si, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemcpy(D->sf, H.sf, sizeof H.sf, cudaMemcpyHostToDevice));
    gputile_status s;
    if (which == 3) { /* SUMMA on one rank: the GEMM itself */
        GPUTEST_CUDA(cudaMemcpy(D->a, H.a, sizeof H.a, cudaMemcpyHostToDevice));
        GPUTEST_CUDA(cudaMemcpy(D->b, H.b, sizeof H.b, cudaMemcpyHostToDevice));
        s = gputile_dist_gemm(GPUTILE_DIST_ROWS, OPN, OPN, 1, DA, DB, 0, DC, valid_comm(), NULL,
                              &H.go);
        if (s == GPUTILE_SUCCESS) {
            GPUTEST_CUDA(cudaMemcpy(H.c, D->c, sizeof(float) * N * N, cudaMemcpyDeviceToHost));
            assert_gemm_result(H.c);
        }
        return s;
    }
    if (which == 2) {
        OK(gputile_histogram_i32(D->si, NS, NB, D->counts + NB, 0, NULL, NULL));
        s = gputile_dist_histogram_reduce(D->counts + NB, NB, D->counts, 0, GPUTILE_DIST_ALL_RANKS,
                                          valid_comm(), NULL);
    } else
        s = which ? gputile_dist_histogram_f32(D->sf, NS, 0, 8, NB, D->counts, 0, 0, valid_comm(),
                                               NULL, &H.ho)
                  : gputile_dist_histogram_i32(D->si, NS, NB, D->counts, 0, GPUTILE_DIST_ALL_RANKS,
                                               valid_comm(), NULL, &H.ho);
    if (s != GPUTILE_SUCCESS)
        return s;
    GPUTEST_CUDA(cudaMemcpy(got, D->counts, sizeof got, cudaMemcpyDeviceToHost));
    hist_reference(which == 1, want);
    cr_assert(memcmp(got, want, sizeof want) == 0, "valid distributed histogram: wrong counts");
    return s;
#endif
}
CALL(v_dist_i32)
{
    return v_dist(0);
}
CALL(v_dist_f32)
{
    return v_dist(1);
}
CALL(v_dist_reduce)
{
    return v_dist(2);
}
CALL(v_dist_gemm)
{
    return v_dist(3);
}
CALL(v_dist_block)
{
    size_t off = 0, cnt = 0;
    gputile_status s = gputile_dist_block(10, 4, 3, &off, &cnt);
    cr_assert(s == GPUTILE_SUCCESS && off == 8 && cnt == 2);
    return s;
}
CALL(v_gemm_devices)
{
    gputile_status s = gputile_gemm_devices(dev0, 1, OPN, OPN, 1, HA, HB, 0, HC, &H.go);
    if (s == GPUTILE_SUCCESS)
        assert_gemm_result(H.c);
    return s;
}

typedef struct valid {
    const char *fn;
    gputile_status (*call)(void);
    gputile_status nodev; /* its status without a device */
} valid;
#define NODEV GPUTILE_ERROR_NO_DEVICE
static const valid valids[] = {
    {"gputile_strerror", v_none, 0},
    {"gputile_status_name", v_none, 0},
    {"gputile_last_cuda_error", v_none, 0},
    {"gputile_last_cuda_error_name", v_none, 0},
    {"gputile_version", v_none, 0},
    {"gputile_version_string", v_none, 0},
    {"gputile_algorithm_name", v_none, 0},
    {"gputile_hist_tier_name", v_none, 0},
    {"gputile_device_alloc", v_device_alloc, NODEV},
    {"gputile_device_free", v_device_free, NODEV},
    {"gputile_matrix_copy", v_matrix_copy, NODEV},
    {"gputile_gemm", v_gemm, NODEV},
    {"gputile_matmul", v_matmul, NODEV},
    {"gputile_gemm_strided_batched", v_gemm_strided_batched, NODEV},
    {"gputile_gemm_batched", v_gemm_batched, NODEV},
    {"gputile_histogram_i32", v_hist_i32, NODEV},
    {"gputile_histogram_f32", v_hist_f32, NODEV},
    {"gputile_histogram_plan", v_plan, NODEV},
    {"gputile_histogram_even", v_hist_even, NODEV},
    {"gputile_histogram_range", v_hist_range, NODEV},
    {"gputile_pinned_alloc", v_pinned_alloc, NODEV},
    {"gputile_pinned_free", v_pinned_alloc, NODEV},
    {"gputile_pinned_register", v_register, NODEV},
    {"gputile_pinned_unregister", v_register, NODEV},
    {"gputile_pinned_device_pointer", v_pinned_device_pointer, NODEV},
    {"gputile_pool_alloc", v_pool_alloc, NODEV},
    {"gputile_pool_free", v_pool_alloc, NODEV},
    {"gputile_pool_set_limit", v_pool_set_limit, 0},
    {"gputile_pool_release", v_pool_release, 0},
    {"gputile_pool_get_stats", v_pool_stats, 0},
    {"gputile_copy", v_copy, NODEV},
    {"gputile_copy_cache", v_copy_cache, NODEV},
    {"gputile_copy_uncache", v_copy_cache, NODEV},
    {"gputile_submatrix", v_submatrix, 0},
    {"gputile_matrix_alloc_device", v_matrix_alloc, NODEV},
    {"gputile_matrix_free_device", v_matrix_alloc, NODEV},
    {"gputile_last_nccl_error", v_none, 0},
    {"gputile_last_nccl_error_name", v_none, 0},
    {"gputile_dist_histogram_i32", v_dist_i32, NODEV},
    {"gputile_dist_histogram_f32", v_dist_f32, NODEV},
    {"gputile_dist_histogram_reduce", v_dist_reduce, NODEV},
    {"gputile_dist_block", v_dist_block, 0},
    {"gputile_dist_gemm", v_dist_gemm, NODEV},
    {"gputile_gemm_devices", v_gemm_devices, NODEV},
};

static const valid *valid_of(const char *fn)
{
    for (size_t i = 0; i < sizeof valids / sizeof valids[0]; ++i)
        if (strcmp(valids[i].fn, fn) == 0)
            return &valids[i];
    cr_assert_fail("no valid call for %s", fn);
    return NULL;
}

static void run_row(const row *r)
{
    reset_arenas();
    if (r->prep)
        r->prep();
    snapshot();
    gputile_status s = r->call();
    if (r->also >= 0 && (int)s == r->also)
        s = r->expect;
    cr_assert_eq(s, r->expect, "%s (%s): %s, expected %s (CUDA error %s)", r->fn, r->what,
                 gputile_status_name(s), gputile_status_name(r->expect),
                 gputile_last_cuda_error_name());
    assert_untouched(r->fn, r->what);

    const valid *v = valid_of(r->fn);
    reset_arenas();
    snapshot();
    s = v->call();
    gputile_status want = have_device ? GPUTILE_SUCCESS : v->nodev;
    cr_assert_eq(s, want, "%s: the valid call after \"%s\": %s, expected %s (CUDA error %s)", r->fn,
                 r->what, gputile_status_name(s), gputile_status_name(want),
                 gputile_last_cuda_error_name());
    if (want != GPUTILE_SUCCESS) /* failed for want of a device: wrote nothing */
        assert_untouched(r->fn, "the valid call without a device");
}

static bool device_present(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/* What the library holds before and after a set of rows (the pinned pool,
 * the default stream-ordered pool, this process's device memory): another
 * process on the GPU does not change it. */
static void assert_no_leak(gputest_usage before, gputest_usage after)
{
    cr_assert_eq(after.pool.in_use_blocks, before.pool.in_use_blocks, "pool blocks leaked");
    cr_assert_eq(after.pool.in_use_bytes, before.pool.in_use_bytes, "pool bytes leaked");
    cr_assert_eq(after.pool.cached_blocks, 0, "pool blocks left cached");
    /* The driver counts device memory in pages of 2 MiB: allow one. */
    gputest_assert_no_device_leak(&before, &after, (size_t)2 << 20);
}

/* Warms the context up (module loading, the pool's first blocks, the copy
 * threads) so that what it keeps is not counted as a leak. */
static void warm_up(void)
{
    OK_ALLOC(gputile_matrix_alloc_device(&H.m, N, N));
    OK(gputile_matrix_free_device(&H.m));
    for (size_t i = 0; i < sizeof valids / sizeof valids[0]; ++i) {
        reset_arenas();
        OK(valids[i].call());
    }
    OK(gputile_pool_release());
}

static void gpu_setup(void)
{
    gputest_require_device();
    have_device = true;
    void *p = NULL;
    GPUTEST_CUDA(gputest_malloc(&p, sizeof(arena)));
    D = p;
}

static void gpu_teardown(void)
{
    if (D != NULL)
        cudaFree(D);
    D = NULL;
}

/* ---- the tests ---------------------------------------------------------------- */
Test(hostile, cpu_rows, .timeout = 120)
{
    /* With or without a device: these statuses are decided first. */
    have_device = device_present();
    gputest_usage before = {0};
    if (have_device) {
        gpu_setup();
        warm_up();
        before = gputest_measure_usage();
    }
    size_t n = 0;
    for (size_t i = 0; i < N_ROWS; ++i)
        if (rows[i].needs == CPU) {
            run_row(&rows[i]);
            ++n;
        }
    cr_log_info("%zu CPU rows passed%s", n, have_device ? " (with a device)" : " (no device)");
    if (have_device) {
        assert_no_leak(before, gputest_measure_usage());
        gpu_teardown();
    }
}

Test(hostile, gpu_rows, .init = gpu_setup, .fini = gpu_teardown, .timeout = 120)
{
    warm_up();
    gputest_usage before = gputest_measure_usage();
    size_t n = 0;
    for (size_t i = 0; i < N_ROWS; ++i)
        if (rows[i].needs == GPU) {
            run_row(&rows[i]);
            ++n;
        }
    cr_log_info("%zu GPU rows passed", n);
    assert_no_leak(before, gputest_measure_usage());
}

/* Another device's memory: GPUTILE_ERROR_WRONG_DEVICE, nothing written. */
/* Skips before gpu_setup allocates: a skipped test's .fini does not run,
 * and compute-sanitizer's leak check would see the arena. */
static void two_devices_setup(void)
{
    int n = 0;
    gputest_require_device();
    GPUTEST_CUDA(cudaGetDeviceCount(&n));
    if (n < 2)
        cr_skip_test("one CUDA device: no other device's memory to pass");
    gpu_setup();
}

Test(hostile, another_devices_memory, .init = two_devices_setup, .fini = gpu_teardown,
     .timeout = 60)
{
    float *other = NULL;
    GPUTEST_CUDA(cudaSetDevice(1));
    GPUTEST_CUDA(gputest_malloc((void **)&other, 4096));
    GPUTEST_CUDA(cudaSetDevice(0));
    reset_arenas();
    snapshot();
    gputile_matrix om = mat(other, N, N, N);
    EXPECT(gputile_gemm(OPN, OPN, 1, DA, DB, 0, om, NULL, &H.go), GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_gemm(OPN, OPN, 1, om, HB, 0, HC, NULL, &H.go), GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_matmul(HA, om, HC), GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_matrix_copy(HD, om, NULL), GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_matrix_copy(om, DA, NULL), GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_histogram_i32((const int32_t *)other, NS, NB, D->counts, 0, NULL, &H.ho),
           GPUTILE_ERROR_WRONG_DEVICE);
    EXPECT(gputile_histogram_i32(D->si, NS, NB, (uint64_t *)other, 0, NULL, &H.ho),
           GPUTILE_ERROR_WRONG_DEVICE);
    assert_untouched("another device", "every call");
    GPUTEST_CUDA(cudaSetDevice(1));
    GPUTEST_CUDA(cudaFree(other));
    GPUTEST_CUDA(cudaSetDevice(0));
    OK(v_gemm());
}

/* ---- inputs that must WORK ------------------------------------------------------ */
/* Element pointers 1..3 floats past a 16-byte boundary (the kernels' vector
 * loads cannot be used) and every mix of host and device operands: the
 * result must equal the CPU reference exactly (small integers), and nothing
 * outside C may change. */
typedef struct placement {
    const char *what;
    int a_dev, b_dev, c_dev; /* 1: device arena */
    int a_off, b_off, c_off; /* elements past the start of the array */
    unsigned flags;          /* 1: pinned host arena */
} placement;

static const placement works[] = {
    {"device, A +1 float", 1, 1, 1, 1, 0, 0, 0},
    {"device, B +3 floats", 1, 1, 1, 0, 3, 0, 0},
    {"device, C +2 floats", 1, 1, 1, 0, 0, 2, 0},
    {"device, all +1/+2/+3", 1, 1, 1, 1, 2, 3, 0},
    {"host A, device B and C", 0, 1, 1, 0, 0, 0, 0},
    {"device A and B, host C", 1, 1, 0, 0, 0, 0, 0},
    {"host A and C +1, device B +3", 0, 1, 0, 1, 3, 1, 0},
    {"device A +2, host B and C", 1, 0, 0, 2, 0, 0, 0},
    {"host, all +1/+2/+3", 0, 0, 0, 1, 2, 3, 0},
    {"pinned host A, device B, pageable C", 0, 1, 0, 0, 0, 0, 1},
};

Test(hostile, misaligned_and_mixed_operands_work, .init = gpu_setup, .fini = gpu_teardown,
     .timeout = 120)
{
    float *pinned = NULL;
    OK_ALLOC(gputile_pinned_alloc((void **)&pinned, sizeof(float) * 2 * N * N, 0));
    for (size_t i = 0; i < sizeof works / sizeof works[0]; ++i) {
        const placement *p = &works[i];
        reset_arenas();
        float *a = (p->a_dev ? D->a : p->flags ? pinned : H.a) + p->a_off;
        float *b = (p->b_dev ? D->b : H.b) + p->b_off;
        float *c = (p->c_dev ? D->c : H.c) + p->c_off;
        float ha[N * N], hb[N * N], want[N * N];
        for (int j = 0; j < N * N; ++j) {
            ha[j] = gputest_small_int(-8, 8);
            hb[j] = gputest_small_int(-8, 8);
        }
        GPUTEST_CUDA(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyDefault));
        GPUTEST_CUDA(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyDefault));
        /* the arenas as they must be afterwards: C = A * B, nothing else */
        arena host_after, dev_after;
        memcpy(&host_after, &H, sizeof H);
        GPUTEST_CUDA(cudaMemcpy(&dev_after, D, sizeof dev_after, cudaMemcpyDeviceToHost));
        for (int r = 0; r < N; ++r)
            for (int q = 0; q < N; ++q) {
                float s = 0;
                for (int t = 0; t < N; ++t)
                    s += ha[r * N + t] * hb[t * N + q];
                want[r * N + q] = s;
            }
        memcpy((p->c_dev ? dev_after.c : host_after.c) + p->c_off, want, sizeof want);

        gputile_status s = gputile_matmul(mat(a, N, N, N), mat(b, N, N, N), mat(c, N, N, N));
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s: %s (%s)", p->what, gputile_status_name(s),
                     gputile_last_cuda_error_name());
        arena dev_now;
        GPUTEST_CUDA(cudaMemcpy(&dev_now, D, sizeof dev_now, cudaMemcpyDeviceToHost));
        long at = first_difference(&H, &host_after);
        cr_assert(at < 0, "%s: host arena wrong at byte %ld", p->what, at);
        at = first_difference(&dev_now, &dev_after);
        cr_assert(at < 0, "%s: device arena wrong at byte %ld", p->what, at);
    }
    OK(gputile_pinned_free(pinned));
}
