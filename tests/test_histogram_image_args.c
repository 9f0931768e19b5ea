/* SPDX-License-Identifier: MIT */
/*
 * test_histogram_image_args.c (CPU): every bad input to
 * gputile_histogram_even() and gputile_histogram_range() returns its
 * documented status before anything is written (every channel's counts,
 * with guard words, and the options' out fields are compared with their
 * poisoned copies after each call); well-formed calls on host memory end
 * in NO_DEVICE without a device or INVALID_VALUE (host memory) with one;
 * and the launcher's cut of pitched rows into launches, on made-up
 * addresses (nothing is read). Runs with or without a GPU.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"

#include "../kernels/histogram_image.h" /* the launcher's cut (host arithmetic) */

#define NB 16
#define W 8
#define H 4
static _Alignas(16) uint8_t img[H * 64];
static _Alignas(16) uint64_t counts[4][NB + 2];
static uint64_t counts_before[4][NB + 2];

static gputile_hist_input in;
static gputile_hist_even lv[4];
static uint64_t *cp[4];
static int32_t ne[4];
static double edges[4][NB + 1];
static const double *ep[4];
static gputile_histogram_options opt;

static void init(void)
{
    for (size_t i = 0; i < sizeof img; ++i)
        img[i] = (uint8_t)i;
    for (int c = 0; c < 4; ++c) {
        for (int i = 0; i < NB + 2; ++i)
            counts[c][i] = 0xC0FFEE0000000000ull + (uint64_t)(c * 100 + i);
        cp[c] = counts[c] + 1; /* a guard word each side */
        lv[c] = (gputile_hist_even){NB, 0, 0.0, 256.0};
        ne[c] = NB + 1;
        for (int i = 0; i <= NB; ++i)
            edges[c][i] = 16.0 * i;
        ep[c] = edges[c];
    }
    memcpy(counts_before, counts, sizeof counts);
    in = (gputile_hist_input)GPUTILE_HIST_INPUT_INIT;
    in.samples = img;
    in.type = GPUTILE_SAMPLE_U8;
    in.channels = 4;
    in.width = W; /* 32 bytes per row */
    in.height = H;
    in.row_stride_bytes = 64;
    opt = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    opt.tier_used = opt.cluster_size_used = opt.copies_used = opt.bins_per_block = opt.blocks_used =
        -5;
}

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

static void assert_untouched(const char *what)
{
    cr_assert(memcmp(counts, counts_before, sizeof counts) == 0, "%s: counts written on error",
              what);
    cr_assert(opt.tier_used == -5 && opt.cluster_size_used == -5 && opt.copies_used == -5 &&
                  opt.bins_per_block == -5 && opt.blocks_used == -5,
              "%s: options written on error", what);
}

static gputile_status call_even(void)
{
    return gputile_histogram_even(&in, lv, cp, GPUTILE_HIST_OVERWRITE, NULL, &opt);
}
static gputile_status call_range(void)
{
    return gputile_histogram_range(&in, ne, ep, cp, GPUTILE_HIST_ACCUMULATE, NULL, &opt);
}

/* One bad input: a change to the valid call's arguments (made after init). */
struct bad {
    const char *what;
    void (*set)(void);
    gputile_status expect;
};

#define SET(name, stmt)    \
    static void name(void) \
    {                      \
        stmt;              \
    }
/* the input */
SET(size0, in.size = 0)
SET(size_small, in.size = sizeof in - 1)
SET(type_neg, in.type = -1)
SET(type_5, in.type = 5)
SET(channels_0, in.channels = 0)
SET(channels_5, in.channels = 5)
SET(channels_neg, in.channels = -1)
SET(samples_null, in.samples = NULL)
SET(counts1_null, cp[1] = NULL)
SET(counts3_null, cp[3] = NULL)
SET(counts_misaligned, cp[2] = (uint64_t *)(void *)((char *)cp[2] + 4))
SET(u16_odd, in.type = GPUTILE_SAMPLE_U16; in.samples = img + 1)
SET(i16_odd, in.type = GPUTILE_SAMPLE_I16; in.samples = img + 3)
SET(i32_by2, in.type = GPUTILE_SAMPLE_I32; in.channels = 1; in.samples = img + 2)
SET(f32_by1, in.type = GPUTILE_SAMPLE_F32; in.channels = 1; in.samples = img + 1)
SET(stride_odd_u16, in.type = GPUTILE_SAMPLE_U16; in.channels = 2; in.row_stride_bytes = 33)
SET(stride_odd_f32, in.type = GPUTILE_SAMPLE_F32; in.channels = 1; in.row_stride_bytes = 34)
SET(stride_short, in.row_stride_bytes = 31)
SET(stride_0, in.row_stride_bytes = 0)
SET(width_huge, in.width = SIZE_MAX / 4)
SET(width_max, in.width = SIZE_MAX)
SET(height_huge, in.height = SIZE_MAX / 32)
SET(extent_wraps, in.samples = (const void *)(UINTPTR_MAX - 127))
SET(counts_wrap, cp[0] = (uint64_t *)(UINTPTR_MAX - 63))
SET(counts_in_samples, cp[2] = (uint64_t *)(void *)(img + 64))
SET(counts_overlap, cp[3] = cp[1] + NB - 1)
SET(counts_same, cp[3] = cp[0])
/* options */
SET(opt_size, opt.size = 0)
SET(opt_tier, opt.tier = GPUTILE_HIST_TIER_SEED + 1)
SET(opt_reserved, opt.reserved = 1)
SET(opt_cluster, opt.cluster_size = 2)
/* even bins */
SET(nbins_0, lv[2].nbins = 0)
SET(nbins_neg, lv[0].nbins = -3)
SET(nbins_big, lv[1].nbins = GPUTILE_HIST_MAX_BINS + 1)
SET(even_reserved, lv[3].reserved = 7)
SET(lower_eq_upper, lv[0].lower = lv[0].upper = 5.0)
SET(lower_gt_upper, lv[1].lower = 9.0; lv[1].upper = 3.0)
SET(lower_nan, lv[2].lower = NAN)
SET(upper_inf, lv[3].upper = INFINITY)
SET(lower_neg_inf, lv[0].lower = -INFINITY)
SET(fractional_lower, lv[1].lower = 0.5)
SET(fractional_upper, lv[2].upper = 255.25)
SET(int_bound_low, lv[0].lower = -8589934593.0)
SET(int_bound_high, lv[0].upper = 8589934593.0)
SET(f32_span_inf, in.type = GPUTILE_SAMPLE_F32; in.channels = 1; lv[0].lower = -DBL_MAX;
    lv[0].upper = DBL_MAX)
SET(f32_scale_inf, in.type = GPUTILE_SAMPLE_F32; in.channels = 1; lv[0].lower = 0.0;
    lv[0].upper = 4.9e-324) /* 16 bins over one subnormal step: nbins / span is inf */
/* range bins */
SET(nedges_1, ne[1] = 1)
SET(nedges_0, ne[0] = 0)
SET(nedges_big, ne[2] = GPUTILE_HIST_MAX_BINS + 2)
SET(edges_null, ep[3] = NULL)
SET(edges_unsorted, edges[1][5] = edges[1][7])
SET(edges_equal, edges[2][3] = edges[2][4])
SET(edges_descending, for (int i = 0; i <= NB; ++i) edges[0][i] = -i)
SET(edges_nan, edges[3][NB] = NAN)
SET(edges_inf, edges[0][0] = -INFINITY)
SET(edges_zeros, edges[0][0] = -0.0; edges[0][1] = 0.0)
#undef SET

#define I_ GPUTILE_ERROR_INVALID_VALUE
#define NUL GPUTILE_ERROR_NULL_POINTER
#define OVF GPUTILE_ERROR_OVERFLOW
#define ALI GPUTILE_ERROR_ALIASING

static const struct bad common[] = {
    {"input size 0", size0, I_},
    {"input size too small", size_small, I_},
    {"type -1", type_neg, I_},
    {"type 5", type_5, I_},
    {"channels 0", channels_0, I_},
    {"channels 5", channels_5, I_},
    {"channels -1", channels_neg, I_},
    {"samples NULL", samples_null, NUL},
    {"counts[1] NULL", counts1_null, NUL},
    {"counts[3] NULL", counts3_null, NUL},
    {"counts[2] not 8-byte aligned", counts_misaligned, I_},
    {"u16 samples at an odd address", u16_odd, I_},
    {"i16 samples at an odd address", i16_odd, I_},
    {"i32 samples 2 bytes off", i32_by2, I_},
    {"f32 samples 1 byte off", f32_by1, I_},
    {"u16 stride odd", stride_odd_u16, I_},
    {"f32 stride not a multiple of 4", stride_odd_f32, I_},
    {"stride smaller than a row", stride_short, I_},
    {"stride 0, 4 rows", stride_0, I_},
    {"width * channels overflows", width_huge, OVF},
    {"width SIZE_MAX", width_max, OVF},
    {"height * stride overflows", height_huge, OVF},
    {"samples wrap the address space", extent_wraps, OVF},
    {"counts wrap the address space", counts_wrap, OVF},
    {"counts inside the samples' extent", counts_in_samples, ALI},
    {"counts[3] overlaps counts[1]", counts_overlap, ALI},
    {"counts[3] is counts[0]", counts_same, ALI},
    {"options size 0", opt_size, I_},
    {"options tier past the last", opt_tier, I_},
    {"options reserved", opt_reserved, I_},
    {"options cluster without DSM", opt_cluster, I_},
};

static const struct bad even_only[] = {
    {"nbins 0", nbins_0, I_},
    {"nbins -3", nbins_neg, I_},
    {"nbins 2^24 + 1", nbins_big, I_},
    {"reserved != 0", even_reserved, I_},
    {"lower == upper", lower_eq_upper, I_},
    {"lower > upper", lower_gt_upper, I_},
    {"lower NaN", lower_nan, I_},
    {"upper +inf", upper_inf, I_},
    {"lower -inf", lower_neg_inf, I_},
    {"integer samples, lower 0.5", fractional_lower, I_},
    {"integer samples, upper 255.25", fractional_upper, I_},
    {"integer samples, lower < -2^33", int_bound_low, I_},
    {"integer samples, upper > 2^33", int_bound_high, I_},
    {"float samples, upper - lower overflows", f32_span_inf, I_},
    {"float samples, nbins / (upper - lower) overflows", f32_scale_inf, I_},
};

static const struct bad range_only[] = {
    {"nedges 1", nedges_1, I_},
    {"nedges 0", nedges_0, I_},
    {"nedges 2^24 + 2", nedges_big, I_},
    {"edges[3] NULL", edges_null, NUL},
    {"edges not sorted", edges_unsorted, I_},
    {"two equal edges", edges_equal, I_},
    {"edges descending", edges_descending, I_},
    {"an edge NaN", edges_nan, I_},
    {"an edge -inf", edges_inf, I_},
    {"edges -0.0 and 0.0 (equal)", edges_zeros, I_},
};

static void run_table(const struct bad *t, size_t n, gputile_status (*call)(void), const char *fn)
{
    for (size_t i = 0; i < n; ++i) {
        init();
        t[i].set();
        gputile_status s = call();
        cr_expect_eq(s, t[i].expect, "%s, %s: got %s, expected %s", fn, t[i].what,
                     gputile_status_name(s), gputile_status_name(t[i].expect));
        assert_untouched(t[i].what);
    }
}

Test(histogram_image_args, even_bad_inputs)
{
    run_table(common, sizeof common / sizeof common[0], call_even, "even");
    run_table(even_only, sizeof even_only / sizeof even_only[0], call_even, "even");
}

Test(histogram_image_args, range_bad_inputs)
{
    run_table(common, sizeof common / sizeof common[0], call_range, "range");
    run_table(range_only, sizeof range_only / sizeof range_only[0], call_range, "range");
}

Test(histogram_image_args, bad_mode_and_null_arrays, .init = init)
{
    const gputile_hist_input *volatile no_input = NULL; /* past the nonnull attribute */
    const gputile_hist_even *volatile no_levels = NULL;
    uint64_t *const *volatile no_counts = NULL;
    const int32_t *volatile no_nedges = NULL;
    const double *const *volatile no_edges = NULL;
    cr_expect_eq(gputile_histogram_even(&in, lv, cp, (gputile_hist_mode)2, NULL, &opt), I_);
    cr_expect_eq(gputile_histogram_range(&in, ne, ep, cp, (gputile_hist_mode)-1, NULL, &opt), I_);
    cr_expect_eq(gputile_histogram_even(no_input, lv, cp, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_even(&in, no_levels, cp, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_even(&in, lv, no_counts, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_range(no_input, ne, ep, cp, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_range(&in, no_nedges, ep, cp, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_range(&in, ne, no_edges, cp, 0, NULL, &opt), NUL);
    cr_expect_eq(gputile_histogram_range(&in, ne, ep, no_counts, 0, NULL, &opt), NUL);
    assert_untouched("mode and NULL arrays");
}

/* Only the first `channels` entries of the per-channel arrays are read:
 * bad entries beyond them do not matter. */
Test(histogram_image_args, only_channels_entries_read, .init = init)
{
    in.channels = 2;
    lv[2].nbins = 0;
    cp[3] = NULL;
    ne[2] = 1;
    gputile_status want = have_device() ? GPUTILE_ERROR_INVALID_VALUE : GPUTILE_ERROR_NO_DEVICE;
    gputile_status s = call_even();
    cr_expect_eq(s, want, "even: %s", gputile_status_name(s));
    s = call_range();
    cr_expect_eq(s, want, "range: %s", gputile_status_name(s));
    assert_untouched("host memory, 2 channels");
}

Test(histogram_image_args, host_memory_is_refused, .init = init)
{
    /* Well-formed calls on host memory: no device, or not device memory. */
    gputile_status want = have_device() ? GPUTILE_ERROR_INVALID_VALUE : GPUTILE_ERROR_NO_DEVICE;
    gputile_status s = call_even();
    cr_expect_eq(s, want, "even: %s", gputile_status_name(s));
    s = call_range();
    cr_expect_eq(s, want, "range: %s", gputile_status_name(s));
    /* empty images: the counts are still checked; NULL samples allowed */
    in.width = 0;
    in.samples = NULL;
    s = call_even();
    cr_expect_eq(s, want, "width 0: %s", gputile_status_name(s));
    in.width = W;
    in.height = 0;
    in.row_stride_bytes = 0;
    s = call_range();
    cr_expect_eq(s, want, "height 0: %s", gputile_status_name(s));
    /* one row: the stride is not read */
    init();
    in.height = 1;
    in.row_stride_bytes = 0;
    s = call_even();
    cr_expect_eq(s, want, "one row, stride 0: %s", gputile_status_name(s));
    in.type = GPUTILE_SAMPLE_U16; /* 16 pixels of 2 channels: a row of 64 bytes */
    in.channels = 2;
    in.width = 16;
    in.row_stride_bytes = 3; /* not a multiple of 2, yet not read */
    s = call_even();
    cr_expect_eq(s, want, "one u16 row, stride 3: %s", gputile_status_name(s));
    in.height = 0; /* empty: nothing else read either */
    s = call_even();
    cr_expect_eq(s, want, "empty u16 image, stride 3: %s", gputile_status_name(s));
    assert_untouched("host memory");
}

Test(histogram_image_args, input_init)
{
    gputile_hist_input i = GPUTILE_HIST_INPUT_INIT;
    cr_expect_eq(i.size, sizeof i);
    cr_expect_eq(i.type, GPUTILE_SAMPLE_U8);
    cr_expect_eq(i.channels, 1);
    cr_expect_null(i.samples);
    cr_expect_eq(i.width, 0);
    cr_expect_eq(i.height, 0);
}

/* ---- the launcher's cut ------------------------------------------------------ */

/* Replays the launcher's loop over the launches of `height` rows from base
 * and checks what its kernel relies on: every vector a whole 16 bytes
 * inside its row, the scalar pass skipping exactly the bytes before it
 * (its row's own head), and the launch limits. Returns the launches. */
static uint64_t check_cut(uintptr_t base, size_t size, uint64_t row_samples, uint64_t stride,
                          uint64_t height)
{
    gputile__himg_cut c;
    gputile__himg_cut_rows((const void *)base, size, row_samples, stride, height, &c);
    const uint64_t row_bytes = row_samples * size;
    cr_assert_eq(c.scalars, row_samples - c.nvec * (16 / size));
    cr_assert_leq(c.max_head + 16 * c.nvec, row_bytes);
    cr_assert(c.per_launch == 1 || c.per_launch * c.nvec <= GPUTILE__HIMG_MAX_VEC_PER_LAUNCH);
    cr_assert(c.per_launch == 1 ||
              c.per_launch * c.scalars <= GPUTILE__HIMG_MAX_SCALARS_PER_LAUNCH);
    uint64_t launches = 0;
    for (uint64_t r0 = 0; r0 < height; r0 += c.per_launch, ++launches) {
        const uint64_t rows = height - r0 < c.per_launch ? height - r0 : c.per_launch;
        const uintptr_t row0 = base + r0 * stride;
        uint64_t head = 99;
        if (!gputile__himg_flat_head(&c, (const void *)row0, stride, rows, &head)) {
            cr_assert_gt(rows, 1, "one row always reads flat");
            continue; /* rows one by one: each at its own head, <= max_head */
        }
        if (rows == 1) {
            cr_assert_eq((row0 + head) % 16, 0, "rows [%llu, %llu): vectors misaligned",
                         (unsigned long long)r0, (unsigned long long)(r0 + rows));
            cr_assert_eq(head, (uint64_t)(-row0 & 15u), "head differs from the scalar pass's");
            cr_assert_leq(head + 16 * c.nvec, row_bytes);
        } else {
            cr_assert_eq(head, 0);
            cr_assert_eq(row0 % 16, 0);
            cr_assert_eq(stride, 16 * c.nvec);
            cr_assert_eq(c.scalars, 0);
        }
    }
    return launches;
}

Test(histogram_image_args, launches_read_each_row_at_its_own_head)
{
    /* A float image of 342 rows 4 bytes longer than 16-byte multiples,
     * 4 bytes past an aligned address: 341 rows a launch, and the last
     * launch's one row starts 12 bytes before a boundary where row 0 starts
     * 12 after one (its vectors were read 12 bytes off, misaligned). */
    cr_expect_eq(check_cut(0x100004u, 4, 3145730, 3145730 * 4 + 4, 342), 2);
    /* Every alignment, sample size and pitch remainder, with the last
     * launch holding 0, 1 or 2 rows (rows of ~2^20 vectors: 256 a launch). */
    for (size_t size = 1; size <= 4; size *= 2)
        for (uintptr_t off = 0; off < 16; off += size)
            for (uint64_t pad = 0; pad < 32; pad += size)
                for (uint64_t extra = 0; extra < 3; ++extra) {
                    const uint64_t row_samples = ((uint64_t)1 << 24) / size + 3;
                    const uint64_t stride = row_samples * size + pad;
                    check_cut(0x7f0000000000u + off, size, row_samples, stride, 2 * 256 + extra);
                }
    /* Rows back to back, whole vectors: read flat across rows. */
    cr_expect_eq(check_cut(0x200000u, 4, 1024, 4096, 1000), 1);
    gputile__himg_cut c;
    uint64_t head = 7;
    gputile__himg_cut_rows((const void *)0x200000u, 4, 1024, 4096, 1000, &c);
    cr_expect(gputile__himg_flat_head(&c, (const void *)0x200000u, 4096, 1000, &head));
    cr_expect_eq(head, 0);
}
