/* SPDX-License-Identifier: MIT */
/*
 * test_histogram_args.c (CPU): every bad input to gputile_histogram_i32(),
 * gputile_histogram_f32() and gputile_histogram_plan() returns its status
 * before anything is written (counts and the options' out fields are
 * compared with their poisoned copies after each call); tier names; and
 * well-formed calls on host memory end in NO_DEVICE without a device or
 * INVALID_VALUE (host memory) with one. Runs with or without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"

#define NB 16
static _Alignas(16) int32_t isamp[64];
static _Alignas(16) float fsamp[64];
static _Alignas(16) uint64_t counts[NB + 2];
static uint64_t counts_before[NB + 2];

static void init(void)
{
    for (int i = 0; i < 64; ++i) {
        isamp[i] = i % 7;
        fsamp[i] = (float)(i % 5);
    }
    for (int i = 0; i < NB + 2; ++i)
        counts[i] = 0xC0FFEE0000000000ull + (uint64_t)i;
    memcpy(counts_before, counts, sizeof counts);
}

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static gputile_histogram_options poisoned_options(void)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    o.tier_used = o.cluster_size_used = o.copies_used = o.bins_per_block = o.blocks_used = -5;
    return o;
}

static void assert_untouched(const char *what, const gputile_histogram_options *o)
{
    cr_assert(memcmp(counts, counts_before, sizeof counts) == 0, "%s: counts written on error",
              what);
    cr_assert(o->tier_used == -5 && o->cluster_size_used == -5 && o->copies_used == -5 &&
                  o->bins_per_block == -5 && o->blocks_used == -5,
              "%s: options written on error", what);
}

struct bad_i32 {
    const char *what;
    const int32_t *samples;
    size_t n;
    int32_t nbins;
    uint64_t *counts;
    int mode;
    gputile_status expect;
};

Test(histogram_args, i32_bad_inputs, .init = init)
{
    uint64_t *c = counts + 1; /* 8-byte aligned, with a guard word each side */
    const struct bad_i32 cases[] = {
        {"samples NULL", NULL, 10, NB, c, 0, GPUTILE_ERROR_NULL_POINTER},
        {"counts NULL", isamp, 10, NB, NULL, 0, GPUTILE_ERROR_NULL_POINTER},
        {"counts NULL, n = 0", isamp, 0, NB, NULL, 0, GPUTILE_ERROR_NULL_POINTER},
        {"nbins 0", isamp, 10, 0, c, 0, GPUTILE_ERROR_INVALID_VALUE},
        {"nbins -1", isamp, 10, -1, c, 0, GPUTILE_ERROR_INVALID_VALUE},
        {"nbins INT32_MIN", isamp, 10, INT32_MIN, c, 0, GPUTILE_ERROR_INVALID_VALUE},
        {"nbins 0 and NULLs", NULL, 10, 0, NULL, 0, GPUTILE_ERROR_INVALID_VALUE},
        {"mode 2", isamp, 10, NB, c, 2, GPUTILE_ERROR_INVALID_VALUE},
        {"mode -1", isamp, 10, NB, c, -1, GPUTILE_ERROR_INVALID_VALUE},
        {"samples misaligned", (const int32_t *)((const char *)isamp + 1), 10, NB, c, 0,
         GPUTILE_ERROR_INVALID_VALUE},
        {"counts misaligned", isamp, 10, NB, (uint64_t *)((char *)c + 4), 0,
         GPUTILE_ERROR_INVALID_VALUE},
        {"n * 4 overflows", isamp, SIZE_MAX / 2, NB, c, 0, GPUTILE_ERROR_OVERFLOW},
        {"samples wrap the address space", (const int32_t *)(UINTPTR_MAX - 15), 16, NB, c, 0,
         GPUTILE_ERROR_OVERFLOW},
        {"counts wrap the address space", isamp, 10, NB, (uint64_t *)(UINTPTR_MAX - 63), 0,
         GPUTILE_ERROR_OVERFLOW},
        {"counts inside samples", isamp, 64, 4, (uint64_t *)(void *)(isamp + 8), 0,
         GPUTILE_ERROR_ALIASING},
        {"samples end inside counts", (const int32_t *)(void *)c - 2, 4, NB, c, 1,
         GPUTILE_ERROR_ALIASING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gputile_histogram_options o = poisoned_options();
        gputile_status s =
            gputile_histogram_i32(cases[i].samples, cases[i].n, cases[i].nbins, cases[i].counts,
                                  (gputile_hist_mode)cases[i].mode, NULL, &o);
        cr_expect_eq(s, cases[i].expect, "%s: got %s, expected %s", cases[i].what,
                     gputile_status_name(s), gputile_status_name(cases[i].expect));
        assert_untouched(cases[i].what, &o);
    }
}

struct bad_f32 {
    const char *what;
    float lower, upper;
    gputile_status expect;
};

Test(histogram_args, f32_bad_bounds, .init = init)
{
    const struct bad_f32 cases[] = {
        {"lower == upper", 1.0f, 1.0f, GPUTILE_ERROR_INVALID_VALUE},
        {"lower > upper", 2.0f, 1.0f, GPUTILE_ERROR_INVALID_VALUE},
        {"lower NaN", NAN, 1.0f, GPUTILE_ERROR_INVALID_VALUE},
        {"upper NaN", 0.0f, NAN, GPUTILE_ERROR_INVALID_VALUE},
        {"lower -inf", -INFINITY, 1.0f, GPUTILE_ERROR_INVALID_VALUE},
        {"upper +inf", 0.0f, INFINITY, GPUTILE_ERROR_INVALID_VALUE},
        {"both infinite", -INFINITY, INFINITY, GPUTILE_ERROR_INVALID_VALUE},
        {"upper - lower overflows float", -3e38f, 3e38f, GPUTILE_ERROR_INVALID_VALUE},
        {"lower == upper == 0", 0.0f, -0.0f, GPUTILE_ERROR_INVALID_VALUE},
        /* nbins / (upper - lower) past FLT_MAX: the scale would be inf */
        {"range of two subnormal steps", 0.0f, 2.8e-45f, GPUTILE_ERROR_INVALID_VALUE},
        {"range 1e-38, 16 bins", 0.0f, 1e-38f, GPUTILE_ERROR_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gputile_histogram_options o = poisoned_options();
        gputile_status s = gputile_histogram_f32(fsamp, 10, cases[i].lower, cases[i].upper, NB,
                                                 counts + 1, GPUTILE_HIST_OVERWRITE, NULL, &o);
        cr_expect_eq(s, cases[i].expect, "%s: got %s", cases[i].what, gputile_status_name(s));
        assert_untouched(cases[i].what, &o);
    }
    /* The same argument checks as the int32 call. */
    gputile_histogram_options o = poisoned_options();
    cr_expect_eq(gputile_histogram_f32(NULL, 3, 0, 1, NB, counts + 1, 0, NULL, &o),
                 GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(gputile_histogram_f32(fsamp, 3, 0, 1, 0, counts + 1, 0, NULL, &o),
                 GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(gputile_histogram_f32(fsamp, 3, 0, 1, NB, counts + 1, 5, NULL, &o),
                 GPUTILE_ERROR_INVALID_VALUE);
    assert_untouched("f32 argument checks", &o);
}

Test(histogram_args, bad_options, .init = init)
{
    const gputile_histogram_options good = poisoned_options();
    struct {
        const char *what;
        gputile_histogram_options o;
    } cases[8];
    int n = 0;
#define BAD(text, field, value) \
    cases[n].what = text;       \
    cases[n].o = good;          \
    cases[n].o.field = value;   \
    ++n
    BAD("size too small", size, sizeof good - 1);
    BAD("size 0", size, 0);
    BAD("tier past the last", tier, GPUTILE_HIST_TIER_SEED + 1);
    BAD("tier -1", tier, -1);
    BAD("reserved", reserved, 1);
    BAD("cluster 17", cluster_size, 17);
    BAD("cluster -1", cluster_size, -1);
    cases[n].what = "cluster size without the DSM tier";
    cases[n].o = good;
    cases[n].o.tier = GPUTILE_HIST_TIER_SHARED;
    cases[n].o.cluster_size = 2;
    ++n;
#undef BAD
    for (int i = 0; i < n; ++i) {
        gputile_histogram_options o = cases[i].o;
        cr_expect_eq(gputile_histogram_i32(isamp, 10, NB, counts + 1, 0, NULL, &o),
                     GPUTILE_ERROR_INVALID_VALUE, "i32: %s", cases[i].what);
        assert_untouched(cases[i].what, &o);
        o = cases[i].o;
        cr_expect_eq(gputile_histogram_f32(fsamp, 10, 0, 1, NB, counts + 1, 0, NULL, &o),
                     GPUTILE_ERROR_INVALID_VALUE, "f32: %s", cases[i].what);
        assert_untouched(cases[i].what, &o);
        o = cases[i].o;
        cr_expect_eq(gputile_histogram_plan(NB, &o), GPUTILE_ERROR_INVALID_VALUE, "plan: %s",
                     cases[i].what);
        assert_untouched(cases[i].what, &o);
    }
}

Test(histogram_args, plan_bad_inputs, .init = init)
{
    gputile_histogram_options o = poisoned_options();
    gputile_histogram_options *volatile none = NULL; /* past the nonnull attribute */
    cr_expect_eq(gputile_histogram_plan(NB, none), GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(gputile_histogram_plan(0, &o), GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(gputile_histogram_plan(-7, &o), GPUTILE_ERROR_INVALID_VALUE);
    assert_untouched("plan", &o);
    /* Well-formed: the device answers, or there is none. */
    gputile_status s = gputile_histogram_plan(NB, &o);
    if (have_device()) {
        cr_expect_eq(s, GPUTILE_SUCCESS, "%s", gputile_status_name(s));
        cr_expect_eq(o.tier_used, GPUTILE_HIST_TIER_SHARED);
    } else {
        cr_expect_eq(s, GPUTILE_ERROR_NO_DEVICE, "%s", gputile_status_name(s));
        assert_untouched("plan without a device", &o);
    }
}

Test(histogram_args, host_memory_is_refused, .init = init)
{
    /* Well-formed calls on ordinary host memory: no device, or not device memory. */
    gputile_status want = have_device() ? GPUTILE_ERROR_INVALID_VALUE : GPUTILE_ERROR_NO_DEVICE;
    gputile_histogram_options o = poisoned_options();
    gputile_status s = gputile_histogram_i32(isamp, 64, NB, counts + 1, 0, NULL, &o);
    cr_expect_eq(s, want, "i32: %s", gputile_status_name(s));
    s = gputile_histogram_f32(fsamp, 64, 0, 5, NB, counts + 1, 1, NULL, &o);
    cr_expect_eq(s, want, "f32: %s", gputile_status_name(s));
    s = gputile_histogram_i32(NULL, 0, NB, counts + 1, 0, NULL,
                              &o); /* n = 0: counts still checked */
    cr_expect_eq(s, want, "n = 0: %s", gputile_status_name(s));
    assert_untouched("host memory", &o);
}

Test(histogram_args, tier_names)
{
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_AUTO), "auto");
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_SHARED), "shared");
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_DSM), "dsm");
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_GLOBAL), "global");
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_ROUTE), "route");
    cr_expect_str_eq(gputile_hist_tier_name(GPUTILE_HIST_TIER_SEED), "seed");
    cr_expect_null(gputile_hist_tier_name(GPUTILE_HIST_TIER_SEED + 1));
    cr_expect_null(gputile_hist_tier_name(-1));
    cr_expect_null(gputile_hist_tier_name(-1));
}

Test(histogram_args, options_init)
{
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    cr_expect_eq(o.size, sizeof o);
    cr_expect_eq(o.tier, GPUTILE_HIST_TIER_AUTO);
    cr_expect_eq(o.cluster_size, 0);
    cr_expect_eq(o.reserved, 0);
}
