/* SPDX-License-Identifier: MIT */
/*
 * test_histogram.c (GPU): gputile_histogram_i32() and _f32() against an
 * exact CPU reference, on fresh random inputs each run, in every tier the
 * device has (AUTO and each tier forced, DSM at every cluster size the
 * device allows for the case), for: uniform, all-equal, 16 distinct
 * values, sorted, negative and out-of-range ints, NaN/+-inf/edge floats,
 * n = 0, 1, 2, 3, not a multiple of 4, start pointers 0..3 elements past a
 * 16-byte boundary, nbins = 1, nbins at each tier boundary (found from
 * gputile_histogram_plan()) and +-1, 2^20 and 2^22 bins, accumulate mode,
 * 16- and 8-bit shared counts that wrap many times, and more than 2^32 samples in
 * one bin. The counts sit between guard
 * words; overwrite-mode counts are poisoned first, accumulate-mode counts
 * start from random values; every word, guards included, is compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "gputile.h"
#include "support/gpu.h"

#define GUARD 4
#define POISON 0xDEADBEEFDEADBEEFull

/* HOT: half the samples from 16 values, half from 3000 others: more keys
 * than the global tier's per-block cache of hot bins has slots, so slots
 * are contended, claimed and overflowed to global atomics. */
enum kind { UNIFORM, EQUAL, FEW, SORTED, RANGE, HOT };
static const char *kind_name[] = {"uniform", "all-equal",    "16-distinct",
                                  "sorted",  "out-of-range", "hot-16+3000"};

/* nbins codes resolved from the plan on the device at hand */
#define NB_SHARED_MAX (-1)     /* largest nbins of the shared tier */
#define NB_DSM_MAX (-2)        /* largest nbins of the DSM tier (shared max if none) */
#define NB_CLUSTER2_MAX (-3)   /* largest nbins the DSM tier runs with clusters of 2 */
#define NB_COPIES_DROP (-4)    /* largest nbins with the most privatised copies */
#define NB_DSM_FORCED_MAX (-5) /* largest nbins the DSM tier takes when forced */
#define NB_ROUTE_MIN (-6)      /* smallest nbins AUTO routes (the DSM/route crossover) */
#define NB_ROUTE_MAX (-7)      /* largest nbins the routed tier takes */
#define NB_P16_MAX (-8)        /* largest nbins one block holds in 16-bit counts */
#define N_RANDOM ((size_t)-1)  /* n drawn in [1, 3e6] each run */

struct hist_case {
    int is_float;
    int kind;
    size_t n;
    int32_t nbins; /* > 0, or an NB_ code */
    int delta;     /* added to a resolved NB_ code */
    int offset;    /* start pointer this many elements past a 16-byte boundary */
    int mode;
};

#define I(kind, n, nb, d, off, mode) \
    {                                \
        0, kind, n, nb, d, off, mode \
    }
#define F(kind, n, nb, d, off, mode) \
    {                                \
        1, kind, n, nb, d, off, mode \
    }
#define OVW GPUTILE_HIST_OVERWRITE
#define ACC GPUTILE_HIST_ACCUMULATE

static struct hist_case cases[] = {
    /* small n, every alignment */
    I(UNIFORM, 0, 10, 0, 0, OVW),
    I(UNIFORM, 0, 10, 0, 1, ACC),
    I(UNIFORM, 1, 10, 0, 0, OVW),
    I(UNIFORM, 1, 10, 0, 3, OVW),
    I(UNIFORM, 2, 10, 0, 2, OVW),
    I(UNIFORM, 3, 10, 0, 1, OVW),
    I(UNIFORM, 5, 10, 0, 3, OVW),
    I(UNIFORM, 7, 3, 0, 1, OVW),
    I(RANGE, 9, 4, 0, 2, OVW),
    F(UNIFORM, 0, 10, 0, 0, OVW),
    F(UNIFORM, 1, 10, 0, 1, OVW),
    F(RANGE, 3, 10, 0, 3, OVW),
    F(RANGE, 6, 10, 0, 2, OVW),
    /* nbins = 1 */
    I(UNIFORM, 100003, 1, 0, 1, OVW),
    I(RANGE, 100003, 1, 0, 0, ACC),
    F(RANGE, 100003, 1, 0, 3, OVW),
    /* the data kinds, shared-tier sizes */
    I(UNIFORM, 1000001, 256, 0, 0, OVW),
    I(UNIFORM, 1000002, 256, 0, 1, OVW),
    I(EQUAL, 1000003, 256, 0, 2, OVW),
    I(FEW, 1000000, 256, 0, 3, OVW),
    I(SORTED, 1000001, 256, 0, 0, OVW),
    I(RANGE, 1000001, 256, 0, 1, OVW),
    I(UNIFORM, 1000001, 4096, 0, 3, OVW),
    I(EQUAL, 1000001, 4096, 0, 0, OVW),
    I(FEW, 1000001, 4096, 0, 1, ACC),
    I(SORTED, 1000001, 4096, 0, 2, OVW),
    I(RANGE, 1000001, 4096, 0, 3, ACC),
    I(UNIFORM, N_RANDOM, 7, 0, 1, OVW),
    I(UNIFORM, N_RANDOM, 1000, 0, 2, ACC),
    I(FEW, N_RANDOM, 33, 0, 3, OVW),
    F(UNIFORM, 1000001, 256, 0, 1, OVW),
    F(EQUAL, 1000001, 256, 0, 2, OVW),
    F(FEW, 1000001, 4096, 0, 0, OVW),
    F(SORTED, 1000001, 4096, 0, 3, ACC),
    F(RANGE, 1000001, 100, 0, 1, OVW),
    F(RANGE, N_RANDOM, 4096, 0, 2, ACC),
    /* tier boundaries on this device, +-1 */
    I(UNIFORM, 2000001, NB_COPIES_DROP, 0, 1, OVW),
    I(UNIFORM, 2000001, NB_COPIES_DROP, 1, 2, OVW),
    I(UNIFORM, 2000001, NB_SHARED_MAX, -1, 0, OVW),
    I(UNIFORM, 2000001, NB_SHARED_MAX, 0, 1, OVW),
    I(UNIFORM, 2000001, NB_SHARED_MAX, 1, 2, OVW),
    I(RANGE, 2000001, NB_SHARED_MAX, 1, 3, ACC),
    F(UNIFORM, 2000001, NB_SHARED_MAX, 1, 1, OVW),
    I(UNIFORM, 2000001, NB_CLUSTER2_MAX, 0, 0, OVW),
    I(UNIFORM, 2000001, NB_CLUSTER2_MAX, 1, 1, OVW),
    I(UNIFORM, 2000001, NB_DSM_MAX, -1, 2, OVW),
    I(UNIFORM, 2000001, NB_DSM_MAX, 0, 3, OVW),
    I(UNIFORM, 2000001, NB_DSM_MAX, 1, 0, OVW),
    I(FEW, 2000001, NB_DSM_MAX, 0, 1, ACC),
    F(RANGE, 2000001, NB_DSM_MAX, 1, 2, OVW),
    I(UNIFORM, 2000001, NB_DSM_FORCED_MAX, 0, 1, OVW),
    I(UNIFORM, 2000001, NB_DSM_FORCED_MAX, 1, 2, OVW),
    I(UNIFORM, 2000001, NB_ROUTE_MIN, -1, 3, OVW),
    I(UNIFORM, 2000001, NB_ROUTE_MIN, 0, 0, OVW),
    I(HOT, 2000001, NB_ROUTE_MIN, 0, 1, ACC),
    F(RANGE, 2000001, NB_ROUTE_MIN, 1, 2, OVW),
    I(UNIFORM, 4000001, NB_ROUTE_MAX, -1, 3, OVW),
    I(UNIFORM, 4000001, NB_ROUTE_MAX, 0, 0, ACC),
    I(UNIFORM, 4000001, NB_ROUTE_MAX, 1, 1, OVW),
    I(FEW, 4000001, NB_ROUTE_MAX, 0, 2, OVW),
    /* the routed tier's slice sizes change where slices pass the SM count */
    I(UNIFORM, 3000001, 131071, 0, 1, OVW),
    I(UNIFORM, 3000001, 131073, 0, 2, OVW),
    I(SORTED, 3000001, 135169, 0, 3, OVW),
    I(UNIFORM, 3000001, 1 << 18, 0, 0, OVW),
    /* the routed tier's tiles are 8192 samples, its pieces 8192 tiles (2^26
     * samples): n around tiles and past a piece */
    I(UNIFORM, (1 << 26) + 16384 * 3 + 5, 1 << 20, 0, 1, ACC),
    I(UNIFORM, 16384 * 132 - 1, 1 << 19, 0, 0, OVW),
    I(UNIFORM, 16384 * 132 + 1, 1 << 19, 0, 1, OVW),
    I(UNIFORM, 16384 * 132 * 9 + 5, 1 << 20, 0, 2, ACC),
    I(SORTED, 16384 * 132 * 9 + 5, 1 << 21, 0, 3, OVW),
    /* where 32-bit shared counts stop fitting two blocks per SM (about 29k
     * bins on a 228 KB SM), where they stop fitting one and 16-bit halves
     * take over (about 58k), and beyond */
    I(UNIFORM, 3000001, 28671, 0, 1, OVW),
    I(UNIFORM, 3000001, 28673, 0, 2, OVW),
    I(SORTED, 3000001, 32768, 0, 3, OVW),
    I(FEW, 3000001, 32769, 0, 0, ACC),
    F(RANGE, 3000001, 49151, 0, 1, OVW),
    I(EQUAL, 3000001, 57345, 0, 2, OVW),
    I(HOT, 3000001, 98303, 0, 3, OVW),
    /* where 16-bit counts stop fitting one block and bytes take over (about
     * 116k bins on a 227 KB block), up to the shared tier's top and DSM
     * clusters of two blocks of bytes */
    I(UNIFORM, 3000001, NB_P16_MAX, 0, 0, OVW),
    I(UNIFORM, 3000001, NB_P16_MAX, 1, 1, OVW),
    I(EQUAL, 3000001, NB_P16_MAX, 1, 2, OVW),
    I(FEW, 3000001, NB_P16_MAX, 2, 3, ACC),
    I(SORTED, 3000001, NB_P16_MAX, 3, 0, OVW),
    I(HOT, 3000001, NB_P16_MAX, 1, 1, OVW),
    F(RANGE, 3000001, NB_P16_MAX, 1, 2, OVW),
    I(EQUAL, 3000001, NB_SHARED_MAX, 0, 3, OVW),
    I(FEW, 3000001, NB_SHARED_MAX, 0, 0, ACC),
    I(FEW, 3000001, NB_CLUSTER2_MAX, 0, 1, OVW),
    I(SORTED, 3000001, NB_CLUSTER2_MAX, -1, 2, OVW),
    /* cluster-sized and global-sized */
    I(UNIFORM, 3000001, 65536, 0, 1, OVW),
    I(EQUAL, 3000001, 65536, 0, 2, OVW),
    I(FEW, 3000001, 65536, 0, 3, OVW),
    I(SORTED, 3000001, 65536, 0, 0, ACC),
    I(RANGE, 3000001, 65536, 0, 1, OVW),
    F(RANGE, 3000001, 65536, 0, 2, OVW),
    I(UNIFORM, 3000001, 1 << 20, 0, 3, OVW),
    I(EQUAL, 3000001, 1 << 20, 0, 0, OVW),
    I(FEW, 3000001, 1 << 20, 0, 1, ACC),
    I(SORTED, 3000001, 1 << 20, 0, 2, OVW),
    I(RANGE, 3000001, 1 << 20, 0, 3, OVW),
    F(RANGE, 3000001, 1 << 20, 0, 0, ACC),
    I(UNIFORM, 5000001, 1 << 22, 0, 1, OVW),
    I(HOT, 3000001, 1 << 20, 0, 2, OVW),
    I(HOT, 5000001, 1 << 22, 0, 3, ACC),
    F(HOT, 3000001, 1 << 21, 0, 1, OVW),
    I(HOT, 1000001, 4096, 0, 0, OVW),
    I(FEW, 5000001, 1 << 22, 0, 2, OVW),
};

/* ---- plan boundaries ---------------------------------------------------- */

static gputile_histogram_options plan_of(int32_t nbins)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    gputile_status s = gputile_histogram_plan(nbins, &o);
    cr_assert_eq(s, GPUTILE_SUCCESS, "plan(%d): %s", nbins, gputile_status_name(s));
    return o;
}

/* The largest nbins in [1, 2^24] for which pred holds (pred monotone: true
 * up to some point, false beyond), or 0 when it never holds. */
static int32_t last_true(bool (*pred)(int32_t))
{
    if (!pred(1))
        return 0;
    int32_t lo = 1, hi = 1 << 24; /* pred(lo) true */
    if (pred(hi))
        return hi;
    while (hi - lo > 1) {
        int32_t mid = lo + (hi - lo) / 2;
        if (pred(mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static bool is_shared(int32_t nb)
{
    return plan_of(nb).tier_used == GPUTILE_HIST_TIER_SHARED;
}
static bool not_global(int32_t nb)
{
    return plan_of(nb).tier_used != GPUTILE_HIST_TIER_GLOBAL;
}
static bool at_most_cluster2(int32_t nb)
{
    gputile_histogram_options o = plan_of(nb);
    return o.tier_used == GPUTILE_HIST_TIER_SHARED ||
           (o.tier_used == GPUTILE_HIST_TIER_DSM && o.cluster_size_used <= 2);
}
static bool dsm_forced(int32_t nb)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    o.tier = GPUTILE_HIST_TIER_DSM;
    return gputile_histogram_plan(nb, &o) == GPUTILE_SUCCESS;
}
static bool route_forced(int32_t nb)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    o.tier = GPUTILE_HIST_TIER_ROUTE;
    return gputile_histogram_plan(nb, &o) == GPUTILE_SUCCESS;
}
static bool before_route(int32_t nb)
{
    const int t = plan_of(nb).tier_used;
    return t != GPUTILE_HIST_TIER_ROUTE && t != GPUTILE_HIST_TIER_GLOBAL;
}
static int32_t most_copies;
static bool has_most_copies(int32_t nb)
{
    gputile_histogram_options o = plan_of(nb);
    return o.tier_used == GPUTILE_HIST_TIER_SHARED && o.copies_used == most_copies;
}

/* 16-bit counts fill a block's opt-in shared memory in whole rows of 32
 * words (lib/histogram_plan.c): two counts a word. */
static int32_t p16_max(void)
{
    int dev = 0, optin = 0;
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return 2 * ((optin / 4) & ~31);
}

static int32_t resolve_nbins(int32_t code)
{
    switch (code) {
    case NB_P16_MAX:
        return p16_max();
    case NB_SHARED_MAX:
        return last_true(is_shared);
    case NB_DSM_MAX:
        return last_true(not_global);
    case NB_CLUSTER2_MAX:
        return last_true(at_most_cluster2);
    case NB_DSM_FORCED_MAX:
        return last_true(dsm_forced);
    case NB_ROUTE_MIN: {
        const int32_t m = last_true(before_route);
        return m > 0 && plan_of(m + 1).tier_used == GPUTILE_HIST_TIER_ROUTE ? m + 1 : 0;
    }
    case NB_ROUTE_MAX:
        return last_true(route_forced);
    case NB_COPIES_DROP:
        most_copies = plan_of(1).copies_used;
        return last_true(has_most_copies);
    default:
        return code;
    }
}

/* ---- inputs and reference ----------------------------------------------- */

static int32_t rand_below(int64_t m)
{
    return (int32_t)(gputest_rand() % (uint64_t)m);
}

static void make_i32(int32_t *x, size_t n, int kind, int32_t nbins)
{
    int32_t few[16];
    for (int i = 0; i < 16; ++i)
        few[i] = rand_below(nbins);
    int32_t c = rand_below(nbins);
    for (size_t i = 0; i < n; ++i) {
        switch (kind) {
        case UNIFORM:
            x[i] = rand_below(nbins);
            break;
        case EQUAL:
            x[i] = c;
            break;
        case FEW:
            x[i] = few[gputest_rand() % 16];
            break;
        case HOT: {
            uint64_t r = gputest_rand();
            x[i] = r % 2 ? few[(r >> 1) % 16]
                         : (int32_t)(((r >> 1) % 3000 * 2654435761u + 12345) % (uint64_t)nbins);
        } break;
        case SORTED:
            x[i] = (int32_t)((uint64_t)i * (uint64_t)nbins / n);
            break;
        default: {
            static const int32_t edge[] = {INT32_MIN, INT32_MAX, -1, 0};
            uint64_t r = gputest_rand();
            if (r % 64 == 0)
                x[i] = edge[(r >> 8) % 4];
            else if (r % 64 == 1)
                x[i] = nbins - 1 + (int32_t)((r >> 8) % 3); /* last bin, nbins, nbins + 1 */
            else
                x[i] = (int32_t)((int64_t)(r >> 16) % (5 * (int64_t)nbins + 10)) - 2 * nbins - 5;
        }
        }
    }
}

static void make_f32(float *x, size_t n, int kind, int32_t nbins, float lower, float upper)
{
    float few[16];
    for (int i = 0; i < 16; ++i)
        few[i] = gputest_uniform(lower, upper);
    float c = gputest_uniform(lower, upper);
    float span = upper - lower;
    for (size_t i = 0; i < n; ++i) {
        switch (kind) {
        case UNIFORM:
            x[i] = gputest_uniform(lower, upper);
            break;
        case EQUAL:
            x[i] = c;
            break;
        case FEW:
            x[i] = few[gputest_rand() % 16];
            break;
        case HOT: {
            uint64_t r = gputest_rand();
            x[i] = r % 2 ? few[(r >> 1) % 16]
                         : lower + span * (float)((double)((r >> 1) % 3000) / 3000.0);
        } break;
        case SORTED:
            x[i] = lower + span * (float)((double)i / (double)n);
            break;
        default: {
            const float edge[] = {NAN,
                                  INFINITY,
                                  -INFINITY,
                                  lower,
                                  upper,
                                  nextafterf(upper, -INFINITY),
                                  nextafterf(lower, -INFINITY),
                                  lower + span * (float)(nbins - 1) / (float)nbins};
            uint64_t r = gputest_rand();
            x[i] = r % 16 == 0 ? edge[(r >> 8) % 8] : gputest_uniform(lower - span, upper + span);
        }
        }
    }
}

/* The documented formulas, evaluated on the host. */
static int64_t ref_bin_i32(int32_t x, int32_t nbins)
{
    return x < 0 ? 0 : x >= nbins ? nbins - 1 : x;
}

static int64_t ref_bin_f32(float x, float lower, float upper, int32_t nbins, float scale)
{
    if (!(x >= lower && x < upper))
        return -1;
    float t = (x - lower) * scale;
    return t < (float)nbins ? (int64_t)t : nbins - 1;
}

/* ---- one case --------------------------------------------------------------- */

static void check_one(const struct hist_case *tc, size_t n, int32_t nbins, const void *dev_samples,
                      const void *host_samples, float lower, float upper, int tier, int cluster,
                      const uint64_t *init, uint64_t *dcounts, uint64_t *got, uint64_t *want)
{
    const size_t words = (size_t)nbins + 2 * GUARD;
    char what[200];
    snprintf(what, sizeof what, "%s %s n=%zu nbins=%d offset=%d %s tier=%s cluster=%d",
             tc->is_float ? "f32" : "i32", kind_name[tc->kind], n, nbins, tc->offset,
             tc->mode == ACC ? "accumulate" : "overwrite", gputile_hist_tier_name(tier), cluster);

    GPUTEST_CUDA(cudaMemcpy(dcounts, init, words * sizeof *init, cudaMemcpyHostToDevice));
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    o.tier = tier;
    o.cluster_size = cluster;
    gputile_status s = tc->is_float ? gputile_histogram_f32(dev_samples, n, lower, upper, nbins,
                                                            dcounts + GUARD, tc->mode, NULL, &o)
                                    : gputile_histogram_i32(dev_samples, n, nbins, dcounts + GUARD,
                                                            tc->mode, NULL, &o);
    cr_assert_eq(s, GPUTILE_SUCCESS, "%s: %s", what, gputile_status_name(s));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    cr_assert(o.tier_used >= GPUTILE_HIST_TIER_SHARED && o.tier_used <= GPUTILE_HIST_TIER_SEED,
              "%s: tier_used %d", what, o.tier_used);
    if (tier != GPUTILE_HIST_TIER_AUTO)
        cr_assert_eq(o.tier_used, tier, "%s: ran %s", what, gputile_hist_tier_name(o.tier_used));
    if (cluster != 0)
        cr_assert_eq(o.cluster_size_used, cluster, "%s: cluster %d", what, o.cluster_size_used);
    cr_assert(o.blocks_used >= 1 && o.blocks_used % o.cluster_size_used == 0, "%s: blocks %d", what,
              o.blocks_used);
    GPUTEST_CUDA(cudaMemcpy(got, dcounts, words * sizeof *got, cudaMemcpyDeviceToHost));

    memcpy(want, init, words * sizeof *want);
    if (tc->mode == OVW)
        memset(want + GUARD, 0, (size_t)nbins * sizeof *want);
    if (tc->is_float) {
        float scale = (float)((double)nbins / ((double)upper - (double)lower));
        for (size_t i = 0; i < n; ++i) {
            int64_t b = ref_bin_f32(((const float *)host_samples)[i], lower, upper, nbins, scale);
            if (b >= 0)
                want[GUARD + b]++;
        }
    } else {
        for (size_t i = 0; i < n; ++i)
            want[GUARD + ref_bin_i32(((const int32_t *)host_samples)[i], nbins)]++;
    }
    for (size_t i = 0; i < words; ++i) {
        if (i < GUARD || i >= GUARD + (size_t)nbins)
            cr_assert(got[i] == want[i], "%s: guard word %ld written", what, (long)i - GUARD);
        else
            cr_assert(got[i] == want[i], "%s: bin %zu = %llu, expected %llu (plan %s, cluster %d)",
                      what, i - GUARD, (unsigned long long)got[i], (unsigned long long)want[i],
                      gputile_hist_tier_name(o.tier_used), o.cluster_size_used);
    }
}

static void run_case(struct hist_case tc)
{
    size_t n = tc.n == N_RANDOM ? 1 + (size_t)(gputest_rand() % 3000000) : tc.n;
    n = gputest_shrink(n, 1 << 16, 4096); /* GPUTEST_SMALL: many blocks, the same tail mod 4096 */
    int32_t nbins = resolve_nbins(tc.nbins);
    if (tc.nbins < 0) {
        if (nbins <= 0)
            cr_skip_test("no such tier boundary on this device");
        nbins += tc.delta;
    }
    cr_assert(nbins >= 1);
    float lower = gputest_uniform(-1000.0f, 1000.0f);
    float upper = lower + gputest_uniform(0.5f, 3000.0f);
    cr_log_info("%s %s n=%zu nbins=%d offset=%d", tc.is_float ? "f32" : "i32", kind_name[tc.kind],
                n, nbins, tc.offset);

    /* Samples at `offset` elements past a 16-byte boundary (cudaMalloc
     * aligns to 256 bytes), between padding samples that would count (in
     * the last bin, or the first for floats) if they were read. */
    char *full = malloc((n + 8) * 4), *host = full + 4 * tc.offset;
    cr_assert_not_null(full);
    for (size_t i = 0; i < n + 8; ++i) {
        if (tc.is_float)
            ((float *)full)[i] = lower;
        else
            ((int32_t *)full)[i] = INT32_MAX;
    }
    if (tc.is_float)
        make_f32((float *)host, n, tc.kind, nbins, lower, upper);
    else
        make_i32((int32_t *)host, n, tc.kind, nbins);
    char *dev;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, (n + 8) * 4));
    GPUTEST_CUDA(cudaMemcpy(dev, full, (n + 8) * 4, cudaMemcpyHostToDevice));

    const size_t words = (size_t)nbins + 2 * GUARD;
    uint64_t *init = malloc(words * 8), *got = malloc(words * 8), *want = malloc(words * 8);
    uint64_t *dcounts;
    cr_assert(init && got && want);
    GPUTEST_CUDA(gputest_malloc((void **)&dcounts, words * 8));
    for (size_t i = 0; i < words; ++i)
        init[i] = i < GUARD || i >= GUARD + (size_t)nbins || tc.mode == OVW
                      ? POISON
                      : gputest_rand() >> 1; /* accumulate: start anywhere below 2^63 */

    const int tiers[] = {GPUTILE_HIST_TIER_AUTO,  GPUTILE_HIST_TIER_SHARED,
                         GPUTILE_HIST_TIER_DSM,   GPUTILE_HIST_TIER_GLOBAL,
                         GPUTILE_HIST_TIER_ROUTE, GPUTILE_HIST_TIER_SEED};
    for (size_t t = 0; t < sizeof tiers / sizeof tiers[0]; ++t) {
        const bool clustered =
            tiers[t] == GPUTILE_HIST_TIER_DSM || tiers[t] == GPUTILE_HIST_TIER_SEED;
        /* DSM and seed: the planner's cluster, then every other size the device takes */
        for (int cluster = 0; cluster <= (clustered ? 16 : 0); ++cluster) {
            gputile_histogram_options p = GPUTILE_HISTOGRAM_OPTIONS_INIT;
            p.tier = tiers[t];
            p.cluster_size = cluster;
            gputile_status s = gputile_histogram_plan(nbins, &p);
            if (s == GPUTILE_ERROR_UNSUPPORTED)
                continue; /* this tier or cluster cannot hold nbins here */
            cr_assert_eq(s, GPUTILE_SUCCESS, "plan: %s", gputile_status_name(s));
            /* Big cases: every cluster size would take long; keep 0, 2, 4, max. */
            if (cluster > 2 && nbins > 4096 && cluster != 4 && cluster != 16)
                continue;
            /* The seed's remote atomics are slow on skewed data: its own planner's cluster only. */
            if (tiers[t] == GPUTILE_HIST_TIER_SEED && cluster != 0 && n > 100000)
                continue;
            check_one(&tc, n, nbins, dev + 4 * tc.offset, host, lower, upper, tiers[t], cluster,
                      init, dcounts, got, want);
        }
    }
    free(full);
    free(init);
    free(got);
    free(want);
    GPUTEST_CUDA(cudaFree(dev));
    GPUTEST_CUDA(cudaFree(dcounts));
}

ParameterizedTestParameters(histogram, against_cpu)
{
    return cr_make_param_array(struct hist_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct hist_case *tc, histogram, against_cpu, .init = gputest_require_device,
                  .timeout = 300)
{
    const uint64_t key =
        ((((uint64_t)tc->is_float * 7 + (uint64_t)tc->kind) * 1000003 + tc->n) * 1000003 +
         (uint64_t)(uint32_t)tc->nbins) *
            1000003 +
        (uint64_t)(tc->delta * 64 + tc->offset * 8 + tc->mode);
    if (!gputest_in_shard(key))
        cr_skip_test("GPUTEST_SHARD: another shard's case");
    run_case(*tc);
}

/* The plan the call reports is the plan the query gives, tiers are ordered
 * by nbins, and a forced tier that cannot hold nbins is refused. */
Test(histogram, plan_is_consistent, .init = gputest_require_device)
{
    int32_t smax = last_true(is_shared), dmax = last_true(not_global);
    cr_log_info("shared tier up to %d bins, DSM up to %d", smax, dmax);
    cr_assert(smax >= 4096, "shared tier ends at %d bins", smax);
    cr_assert(dmax >= smax);
    gputile_histogram_options o = plan_of(256);
    cr_assert(o.copies_used > 1, "256 bins: %d copies", o.copies_used);
    cr_assert_eq(o.cluster_size_used, 1);
    cr_assert_eq(o.bins_per_block, 256);
    o = plan_of(smax + 1);
    cr_assert_neq(o.tier_used, GPUTILE_HIST_TIER_SHARED);
    if (o.tier_used == GPUTILE_HIST_TIER_DSM) {
        cr_assert(o.cluster_size_used >= 2 && o.cluster_size_used <= 16);
        cr_assert_eq(o.bins_per_block, (smax + 1 + o.cluster_size_used - 1) / o.cluster_size_used);
    }
    o = plan_of(dmax + 1);
    cr_assert_eq(o.tier_used, GPUTILE_HIST_TIER_GLOBAL);
    cr_assert_eq(o.copies_used, 0);

    gputile_histogram_options f = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    f.tier = GPUTILE_HIST_TIER_SHARED;
    cr_assert_eq(gputile_histogram_plan(smax + 1, &f), GPUTILE_ERROR_UNSUPPORTED);
    f.tier = GPUTILE_HIST_TIER_DSM;
    cr_assert_eq(gputile_histogram_plan(dmax + 1, &f), GPUTILE_ERROR_UNSUPPORTED);
    f.tier = GPUTILE_HIST_TIER_GLOBAL;
    cr_assert_eq(gputile_histogram_plan(1 << 30, &f), GPUTILE_SUCCESS);

    int major = 0, dev = 0;
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    f = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    f.tier = GPUTILE_HIST_TIER_DSM;
    f.cluster_size = 2;
    gputile_status s = gputile_histogram_plan(65536, &f);
    if (major >= 9)
        cr_assert_eq(s, GPUTILE_SUCCESS, "cluster of 2 on sm_%d0: %s", major,
                     gputile_status_name(s));
    else
        cr_assert_eq(s, GPUTILE_ERROR_UNSUPPORTED, "no clusters before sm_90");

    /* The call reports what the query says. */
    uint64_t *d;
    int32_t *x;
    GPUTEST_CUDA(gputest_malloc((void **)&d, (size_t)(smax + 1 > 65536 ? smax + 1 : 65536) * 8));
    GPUTEST_CUDA(gputest_malloc((void **)&x, 1 << 24));
    GPUTEST_CUDA(cudaMemset(x, 0, 1 << 24));
    const int32_t sizes[] = {1, 256, 4096, smax, smax + 1, 65536};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        gputile_histogram_options q = plan_of(sizes[i]);
        gputile_histogram_options c = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        cr_assert_eq(gputile_histogram_i32(x, (1 << 22), sizes[i], d, OVW, NULL, &c),
                     GPUTILE_SUCCESS);
        cr_assert_eq(c.tier_used, q.tier_used, "nbins %d", sizes[i]);
        cr_assert_eq(c.cluster_size_used, q.cluster_size_used, "nbins %d", sizes[i]);
        cr_assert_eq(c.copies_used, q.copies_used, "nbins %d", sizes[i]);
        cr_assert_eq(c.bins_per_block, q.bins_per_block, "nbins %d", sizes[i]);
    }
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(d));
    GPUTEST_CUDA(cudaFree(x));
}

/* Where the counts of two blocks fit an SM's shared memory, the shared
 * tier runs two 1,024-thread blocks per SM: the planner's aim, which a
 * kernel with more than 32 registers a thread silently halves (0.8.0 to
 * 0.9.3: 47 registers, up to 9 points of the read rate lost on an H200). */
Test(histogram, two_blocks_per_sm_where_they_fit, .init = gputest_require_device)
{
    int dev = 0, sms = 0, per_sm = 0, reserved = 0;
    GPUTEST_CUDA(cudaGetDevice(&dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    GPUTEST_CUDA(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
    int checked = 0;
    for (int32_t nbins = 1; nbins <= 1 << 16; nbins *= 2) {
        const gputile_histogram_options o = plan_of(nbins);
        if (o.tier_used != GPUTILE_HIST_TIER_SHARED)
            break;
        /* 32-bit counts in whole rows of 32 words (lib/histogram_plan.c) */
        const int64_t bytes = ((int64_t)nbins * o.copies_used + 31) / 32 * 128;
        if (2 * (bytes + reserved) > per_sm)
            continue;
        cr_assert_eq(o.blocks_used, 2 * sms, "%d bins, %d copies (%lld bytes a block): %d blocks",
                     nbins, o.copies_used, (long long)bytes, o.blocks_used);
        ++checked;
    }
    cr_assert(checked >= 8, "only %d bin counts had two blocks' counts fit", checked);
}

/* A stream other than the default one, and samples in managed memory. */
Test(histogram, stream_and_managed_memory, .init = gputest_require_device)
{
    const size_t n = 1000003;
    int32_t *x;
    uint64_t *c;
    cudaStream_t st;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    GPUTEST_CUDA(cudaMallocManaged((void **)&x, n * 4, cudaMemAttachGlobal));
    GPUTEST_CUDA(cudaMallocManaged((void **)&c, 300 * 8, cudaMemAttachGlobal));
    uint64_t want[300] = {0};
    for (size_t i = 0; i < n; ++i) {
        x[i] = rand_below(400) - 50;
        want[ref_bin_i32(x[i], 300)]++;
    }
    for (int i = 0; i < 300; ++i)
        c[i] = POISON;
    cr_assert_eq(gputile_histogram_i32(x + 1, n - 1, 300, c, OVW, st, NULL), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_histogram_i32(x, 1, 300, c, ACC, st, NULL), GPUTILE_SUCCESS);
    GPUTEST_CUDA(cudaStreamSynchronize(st));
    for (int i = 0; i < 300; ++i)
        cr_assert_eq(c[i], want[i], "bin %d", i);
    GPUTEST_CUDA(cudaFree(x));
    GPUTEST_CUDA(cudaFree(c));
    GPUTEST_CUDA(cudaStreamDestroy(st));
}

/* Packed shared counts (per_word of them in a word: 2 or 4) wrapping many
 * times per block, for each nbins of `sizes`: n samples from the bins of
 * one word (every count of it counting, so a carry out of one runs into
 * others that are counting too), the last bin (its word is partly padding
 * when nbins is not a multiple of per_word) and each DSM slice's edges,
 * shuffled so that runs are short and every sample is an atomic, after
 * n_run samples all in one bin (each thread's first run is long: one add
 * of hundreds). In AUTO, the shared tier, the DSM tier and DSM clusters of
 * 3. */
static void packed_wrap(int per_word, const int32_t *sizes, size_t nsizes, size_t n, size_t n_run)
{
    int32_t *host = malloc(n * sizeof *host), *dev;
    uint64_t *dcounts;
    int32_t nmax = 0;
    for (size_t c = 0; c < nsizes; ++c)
        nmax = sizes[c] > nmax ? sizes[c] : nmax;
    cr_assert_not_null(host);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, n * sizeof *dev));
    const size_t words = (size_t)nmax + 2 * GUARD;
    uint64_t *got = malloc(words * 8), *want = malloc(words * 8);
    cr_assert(got && want);
    GPUTEST_CUDA(gputest_malloc((void **)&dcounts, words * 8));
    for (size_t c = 0; c < nsizes; ++c) {
        const int32_t nbins = sizes[c];
        const int32_t q = per_word * rand_below(nbins / per_word - 1), half = (nbins + 1) / 2;
        /* 2 a word: bins 2k and 2k + 1 twice each; 4: bins 4q .. 4q + 3 */
        const int32_t pick2[] = {q, q + 1, nbins - 1, half - 1, half, q, q + 1, 0};
        const int32_t pick4[] = {q, q + 1, q + 2, q + 3, nbins - 1, half - 1, half, 0};
        const int32_t *pick = per_word == 2 ? pick2 : pick4;
        for (size_t i = 0; i < n; ++i)
            host[i] = i < n_run ? q + 1 : pick[gputest_rand() % 8];
        GPUTEST_CUDA(cudaMemcpy(dev, host, n * sizeof *dev, cudaMemcpyHostToDevice));
        memset(want, 0, words * 8);
        for (size_t i = 0; i < words; ++i)
            if (i < GUARD || i >= GUARD + (size_t)nbins)
                want[i] = POISON;
        for (size_t i = 0; i < n; ++i)
            want[GUARD + host[i]]++;
        const int tiers[] = {GPUTILE_HIST_TIER_AUTO, GPUTILE_HIST_TIER_SHARED,
                             GPUTILE_HIST_TIER_DSM, GPUTILE_HIST_TIER_DSM};
        for (int t = 0; t < 4; ++t) {
            gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
            o.tier = tiers[t];
            o.cluster_size = t == 3 ? 3 : 0;
            if (gputile_histogram_plan(nbins, &o) != GPUTILE_SUCCESS)
                continue; /* that tier or cluster does not hold nbins here */
            for (size_t i = 0; i < words; ++i)
                got[i] = POISON;
            GPUTEST_CUDA(cudaMemcpy(dcounts, got, words * 8, cudaMemcpyHostToDevice));
            cr_assert_eq(gputile_histogram_i32(dev, n, nbins, dcounts + GUARD, OVW, NULL, &o),
                         GPUTILE_SUCCESS);
            GPUTEST_CUDA(cudaMemcpy(got, dcounts, words * 8, cudaMemcpyDeviceToHost));
            cr_log_info("nbins %d: %s, cluster %d, %d bins per block, %d blocks", nbins,
                        gputile_hist_tier_name(o.tier_used), o.cluster_size_used, o.bins_per_block,
                        o.blocks_used);
            for (size_t i = 0; i < words; ++i)
                cr_assert(got[i] == want[i], "nbins %d %s cluster %d: word %ld = %llu, want %llu",
                          nbins, gputile_hist_tier_name(o.tier_used), o.cluster_size_used,
                          (long)i - GUARD, (unsigned long long)got[i], (unsigned long long)want[i]);
        }
    }
    free(host);
    free(got);
    free(want);
    GPUTEST_CUDA(cudaFree(dev));
    GPUTEST_CUDA(cudaFree(dcounts));
}

/* 16-bit halves: the largest nbins one block holds in them, DSM slices of
 * clusters of 2 and 3 blocks of them; bins 2k and 2k + 1 get 24M samples
 * each, about 180,000 per block: several wraps a block, hundreds in all. */
Test(histogram, packed16_counts_wrap, .init = gputest_require_device, .timeout = 300)
{
    if (gputest_small())
        cr_skip_test("GPUTEST_SMALL: 2^16 samples per bin per block are the point of this test");
    const int32_t m = p16_max();
    const int32_t sizes[] = {m, m - 1, 2 * m, 3 * (m / 2) + 1};
    packed_wrap(2, sizes, sizeof sizes / sizeof sizes[0], 96000001, 0);
}

/* Bytes: the smallest and largest nbins one block holds in them, DSM
 * slices of clusters of 2 blocks of them at their largest and of clusters
 * of 3; a byte wraps every 256 adds, and the first half of the input, all
 * in one bin, gives each thread a first run of a few hundred samples. */
Test(histogram, packed8_counts_wrap, .init = gputest_require_device, .timeout = 300)
{
    const int32_t m = p16_max(), smax = last_true(is_shared);
    const int32_t sizes[] = {m + 1, m + 3, smax, smax - 1, 2 * smax, 3 * (smax / 2) + 1};
    const size_t n = gputest_small() ? 4000001 : 96000001; /* 48M / 135k threads: 355 a run */
    packed_wrap(4, sizes, sizeof sizes / sizeof sizes[0], n, n / 2);
}

/* More than 2^32 samples, nearly all in bin 0: 64-bit counts, several
 * launches (2^30 vectors each), in every tier. Needs 16 GiB of device
 * memory; skipped with that reason where it does not fit. */
Test(histogram, more_than_2_pow_32_in_one_bin, .init = gputest_require_device, .timeout = 600)
{
    const size_t n = (1ull << 32) + 4099, off = 1, top = 1000;
    const int32_t nbins = 8;
    char *dev;
    if (gputest_small())
        cr_skip_test("GPUTEST_SMALL: 2^32 samples are the point of this test");
    cudaError_t err = gputest_malloc((void **)&dev, (n + off) * 4);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        cr_skip_test("needs %zu bytes of device memory: %s", (n + off) * 4,
                     cudaGetErrorString(err));
    }
    int32_t *x = (int32_t *)dev + off;
    GPUTEST_CUDA(cudaMemset(dev, 0, (n + off) * 4));         /* 0: bin 0 */
    GPUTEST_CUDA(cudaMemset(x, 0x05, top * 4));              /* 0x05050505: last bin */
    GPUTEST_CUDA(cudaMemset(x + (n >> 1), 0xff, 12345 * 4)); /* -1: bin 0 */
    uint64_t *c;
    GPUTEST_CUDA(gputest_malloc((void **)&c, nbins * 8));
    const int tiers[] = {GPUTILE_HIST_TIER_SHARED, GPUTILE_HIST_TIER_DSM, GPUTILE_HIST_TIER_GLOBAL,
                         GPUTILE_HIST_TIER_ROUTE};
    for (int t = 0; t < 4; ++t) {
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        o.tier = tiers[t];
        gputile_status s = gputile_histogram_i32(x, n, nbins, c, OVW, NULL, &o);
        if (s == GPUTILE_ERROR_UNSUPPORTED && tiers[t] != GPUTILE_HIST_TIER_SHARED &&
            tiers[t] != GPUTILE_HIST_TIER_GLOBAL)
            continue;
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s", gputile_status_name(s));
        s = gputile_histogram_i32(x, n, nbins, c, ACC, NULL, &o); /* twice: 2n */
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s", gputile_status_name(s));
        uint64_t got[8];
        GPUTEST_CUDA(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
        const char *name = gputile_hist_tier_name(tiers[t]);
        cr_assert_eq(got[0], 2 * (n - top), "%s: bin 0 = %llu", name, (unsigned long long)got[0]);
        for (int b = 1; b < nbins - 1; ++b)
            cr_assert_eq(got[b], 0, "%s: bin %d = %llu", name, b, (unsigned long long)got[b]);
        cr_assert_eq(got[nbins - 1], 2 * top, "%s: last bin", name);
    }
    GPUTEST_CUDA(cudaFree(dev));
    GPUTEST_CUDA(cudaFree(c));
}
