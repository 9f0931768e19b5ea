/* SPDX-License-Identifier: MIT */
/*
 * test_gemm_plan.c (CPU): AUTO's FP32 cost model (lib/gemm_plan.c) on
 * described devices, no GPU needed. Every choice is a cp.async FP32 row
 * with a split of k that the row takes, never past GPUTILE_MAX_SPLIT_K,
 * leaving at least 32 of k to each split it asks for; a caller's split is
 * kept; repeated shapes get the same choice from the per-thread cache as
 * from a fresh search, however the cache's slots collide (shapes drawn
 * from a fresh seed each run, logged as GEMM_PLAN_SEED); and the model
 * makes the choices its terms are for: narrow tiles for narrow C, a split
 * for a long k over few tiles, none for a large square, whole-GPU waves;
 * and the batched model (issue 20) picks a row that takes a batch, whose
 * launches copy each operand as its own rows allow.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <criterion/criterion.h>

#include "../lib/gemm_batched.h"
#include "../lib/gemm_plan.h"

/* An H200 and an H100 SXM as the driver describes them (132 SMs; 4.8 and
 * 3.35 TB/s peaks), and a smaller part (the memory scale clamps). */
static const gputile__device h200 = {.ordinal = 0,
                                     .sms = 132,
                                     .major = 9,
                                     .minor = 0,
                                     .clusters = 1,
                                     .mem_clock_khz = 3201000,
                                     .mem_bus_bits = 6016};
static const gputile__device h100 = {.ordinal = 1,
                                     .sms = 132,
                                     .major = 9,
                                     .minor = 0,
                                     .clusters = 1,
                                     .mem_clock_khz = 2619000,
                                     .mem_bus_bits = 5120};
static const gputile__device small = {
    .ordinal = 2, .sms = 20, .major = 8, .minor = 9, .mem_clock_khz = 0, .mem_bus_bits = 0};

static gputile__gemm_choice choose(const gputile__device *d, int64_t m, int64_t n, int64_t k,
                                   int split_k)
{
    return gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, split_k, d,
                                GPUTILE__GEMM_FORM_ALIGNED, m, n, k);
}

static const gputile__gemm_row *row(gputile__gemm_choice c)
{
    return gputile__gemm_row_of(c.variant);
}

/* a >= 0, b > 0 */
static int64_t ceil_div(int64_t a, int64_t b)
{
    return a / b + (a % b != 0);
}

/* splitmix64 from a fresh seed each run, logged (GEMM_PLAN_SEED=S
 * repeats a run) */
static uint64_t fresh_seed(void)
{
    const char *env = getenv("GEMM_PLAN_SEED");
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    const uint64_t seed = env != NULL ? strtoull(env, NULL, 0)
                                      : (uint64_t)t.tv_sec * 1000000007ull ^ (uint64_t)t.tv_nsec;
    cr_log_info("GEMM_PLAN_SEED=%llu", (unsigned long long)seed);
    return seed;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 1 .. 2^20, log-uniform */
static int64_t dim(uint64_t *s)
{
    return (int64_t)1 << (next(s) % 21) | (int64_t)(next(s) % 1024);
}

static void check_valid(const gputile__device *d, int64_t m, int64_t n, int64_t k)
{
    const gputile__gemm_choice c = choose(d, m, n, k, 0);
    const gputile__gemm_row *r = row(c);
    cr_assert(r->flags & GPUTILE__GEMM_ASYNC, "%ldx%ldx%ld: %s is not a cp.async row", (long)m,
              (long)n, (long)k, r->name);
    cr_assert_eq(r->precision, GPUTILE_PRECISION_FP32);
    cr_assert(c.splits >= 1 && c.splits <= GPUTILE_MAX_SPLIT_K, "%ldx%ldx%ld: %d splits", (long)m,
              (long)n, (long)k, c.splits);
    /* every split but the last has at least 32 of k */
    cr_assert(k > 32 * (int64_t)(c.splits - 1), "%ldx%ldx%ld: %d splits", (long)m, (long)n, (long)k,
              c.splits);
    cr_assert(!c.tail || c.splits == 1, "the tail split only where k is not split");
    cr_assert_eq(c.sms, d->sms);
}

Test(gemm_plan, every_choice_is_a_cp_async_row_with_a_valid_split)
{
    uint64_t s = fresh_seed();
    for (int i = 0; i < 3000; ++i) {
        const int64_t m = dim(&s), n = dim(&s), k = dim(&s);
        check_valid(&h200, m, n, k);
        check_valid(&h100, m, n, k);
        check_valid(&small, m, n, k);
    }
}

/* The last wave is split along k only where the model says it pays: on
 * the H100 it saved 622 us at 16384^3 (the model: 1,716) and cost 29 us at
 * 12,939 x 4,800 x 101, which the model gives no gain (2026-11-27). */
Test(gemm_plan, the_tail_split_where_the_model_says_it_pays)
{
    const gputile__gemm_choice big = choose(&h100, 16384, 16384, 16384, 0);
    cr_assert(big.splits == 1 && big.tail, "16384^3: %s split %d, tail %d", row(big)->name,
              big.splits, big.tail);
    const gputile__gemm_choice flat = choose(&h100, 12939, 4800, 101, 0);
    cr_assert_not(flat.tail, "12939x4800x101: %s split %d with a tail", row(flat)->name,
                  flat.splits);
}

Test(gemm_plan, form_bits_say_what_the_operands_are)
{
    /* gputile_gemm and the batches build the planner's form with one call */
    const unsigned al = GPUTILE__GEMM_FORM_ALIGNED, nt = GPUTILE__GEMM_FORM_NT,
                   tn = GPUTILE__GEMM_FORM_TN, cu = GPUTILE__GEMM_FORM_C_UNALIGNED,
                   ta = GPUTILE__GEMM_FORM_TA, tb = GPUTILE__GEMM_FORM_TB;
    cr_expect_eq(gputile__gemm_form(true, true, false, false), al);
    cr_expect_eq(gputile__gemm_form(true, true, false, true), al | nt | tb);
    cr_expect_eq(gputile__gemm_form(true, true, true, false), al | tn | ta);
    cr_expect_eq(gputile__gemm_form(true, true, true, true), al | ta | tb); /* no NT or TN */
    cr_expect_eq(gputile__gemm_form(false, false, false, false), cu);
    cr_expect_eq(gputile__gemm_form(false, true, false, true), nt | tb);
}

/* TF32 AUTO: 128 x 128 tiles where those tiles are one wave and D' is
 * read in place, or k is at most 2048 and the split keeps them one wave;
 * or where C is at most 128 wide one way; else 128 x 256. */
Test(gemm_plan, tf32_takes_narrow_tiles_where_one_wave_of_them_fits)
{
    const unsigned nt = GPUTILE__GEMM_FORM_ALIGNED | GPUTILE__GEMM_FORM_NT,
                   tn = GPUTILE__GEMM_FORM_ALIGNED | GPUTILE__GEMM_FORM_TN;
    const struct {
        unsigned form;
        int64_t m, n, k;
        int variant;
    } cases[] = {
        {nt, 80, 16224, 3704, GPUTILE__GEMM_V_TMA_128X128_TF32}, /* 127 tiles */
        {GPUTILE__GEMM_FORM_ALIGNED, 127, 8192, 8192, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_ALIGNED, 2048, 2048, 2048, GPUTILE__GEMM_V_TMA_128X256_TF32},
        {GPUTILE__GEMM_FORM_ALIGNED, 4096, 4096, 4096, GPUTILE__GEMM_V_TMA_128X256_TF32},
        {tn, 200, 8000, 3704, GPUTILE__GEMM_V_TMA_128X256_TF32}, /* D' needs the pre-pass */
        {GPUTILE__GEMM_FORM_NT, 200, 8000, 3704, GPUTILE__GEMM_V_TMA_128X256_TF32}, /* unaligned */
        /* one wave of 128 x 128 tiles and k <= 2048: any form */
        {tn, 948, 1789, 1590, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {gputile__gemm_form(true, true, true, true), 236, 5268, 1002,
         GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_NT, 200, 8000, 2048, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_NT, 200, 8000, 2049, GPUTILE__GEMM_V_TMA_128X256_TF32},
        {gputile__gemm_form(false, true, true, true), 2002, 928, 9617, /* A's rows unaligned */
         GPUTILE__GEMM_V_TMA_128X256_TF32},
        {tn, 2048, 2048, 1024, GPUTILE__GEMM_V_TMA_128X256_TF32}, /* 256 tiles */
        /* C at most 128 wide one way: any form, any number of tiles */
        {tn, 80, 16224, 3704, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_NT, 80, 16224, 3704, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_ALIGNED, 65536, 128, 4096, GPUTILE__GEMM_V_TMA_128X128_TF32},
        {GPUTILE__GEMM_FORM_ALIGNED, 65536, 129, 4096, GPUTILE__GEMM_V_TMA_128X256_TF32},
        /* tests/test_gemm_tf32.c's skinny_on_128x128_tiles */
        {gputile__gemm_form(false, false, true, false), 100, 2001, 4001,
         GPUTILE__GEMM_V_TMA_128X128_TF32},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const gputile__gemm_choice c =
            gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, 0, &h100, cases[i].form,
                                 cases[i].m, cases[i].n, cases[i].k);
        cr_expect_eq(c.variant, cases[i].variant, "case %zu: row %d", i, c.variant);
    }
    /* H200, A's rows unaligned: 86 narrow tiles that the model splits 3
     * ways would take two rounds */
    const gputile__gemm_choice c =
        gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, 0, &h200,
                             gputile__gemm_form(false, false, false, false), 136, 5410, 1982);
    cr_expect_eq(c.variant, GPUTILE__GEMM_V_TMA_128X256_TF32, "row %d", c.variant);
}

/* The TF32 precisions' AUTO weighs the FP32 rows' model against the
 * tensor-core rows' and runs the faster (FP32 is at least as accurate):
 * FP32 for a small product and for a k of a few dozen over a large C,
 * the tensor-core rows for a large product and for few tiles with a long
 * k (TMA_128X128_TF32 in TF32: tests/test_gemm_tf32.c runs that shape). */
Test(gemm_plan, tensor_precisions_take_fp32_where_it_is_faster)
{
    const gputile__device *devices[] = {&h200, &h100};
    const int precisions[] = {GPUTILE_PRECISION_TF32, GPUTILE_PRECISION_FP32_3XTF32};
    const struct {
        int64_t m, n, k;
        bool tensor;
    } cases[] = {{64, 64, 64, false},      {116, 2005, 22, false},   {13956, 12227, 11, false},
                 {1024, 1024, 2048, true}, {4096, 4096, 4096, true}, {127, 8192, 8192, true}};
    for (size_t d = 0; d < 2; ++d)
        for (size_t p = 0; p < 2; ++p)
            for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
                const gputile__gemm_choice c = gputile__gemm_choose(
                    GPUTILE_ALGO_AUTO, precisions[p], 0, devices[d], GPUTILE__GEMM_FORM_ALIGNED,
                    cases[i].m, cases[i].n, cases[i].k);
                const gputile__gemm_row *r = row(c);
                cr_expect_eq(r->precision != GPUTILE_PRECISION_FP32, cases[i].tensor,
                             "device %zu, precision %d, %ld x %ld x %ld: row %s", d, precisions[p],
                             (long)cases[i].m, (long)cases[i].n, (long)cases[i].k, r->id);
                if (!cases[i].tensor)
                    cr_expect(r->flags & GPUTILE__GEMM_ASYNC, "an FP32 choice is a cp.async row");
                if (cases[i].tensor && cases[i].m == 1024 &&
                    precisions[p] == GPUTILE_PRECISION_TF32)
                    cr_expect_eq(c.variant, GPUTILE__GEMM_V_TMA_128X128_TF32);
            }
    /* no k (C = beta C, no kernel) or no C: a plan to report, no estimate */
    for (size_t p = 0; p < 2; ++p) {
        const gputile__gemm_choice c = gputile__gemm_choose(
            GPUTILE_ALGO_AUTO, precisions[p], 0, &h200, GPUTILE__GEMM_FORM_ALIGNED, 512, 512, 0);
        cr_expect(c.variant >= 0 && c.splits == 1);
        gputile__gemm_choose(GPUTILE_ALGO_AUTO, precisions[p], 0, &h200, GPUTILE__GEMM_FORM_ALIGNED,
                             0, 512, 512);
    }
}

/* One to four rows or columns past whole tiles go to the thin kernels
 * where those fill the GPU (4097^3: 4,096 rows of the other operand),
 * and the tiles cover them where the thin kernels' few blocks would each
 * read a long k (514 x 302 x 13310: op(B)^T's 302 rows in 10 blocks ran
 * 290 us on an H200, the whole product on tiles about 115). */
Test(gemm_plan, thin_edges_where_their_kernels_fill_the_gpu)
{
    const unsigned form = gputile__gemm_form(true, true, false, false);
    gputile__gemm_choice c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0,
                                                  &h200, form, 4097, 4097, 4097);
    cr_expect_not(c.whole_edges, "4097^3: the thin kernels take the last row and column");
    c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, &h200, form, 514, 302,
                             13310);
    cr_expect(c.whole_edges, "514 x 302 x 13310: tiles over the 2 last rows");
    /* a named algorithm keeps its thin kernels */
    c = gputile__gemm_choose(GPUTILE_ALGO_ASYNC_128X64, GPUTILE_PRECISION_FP32, 0, &h200, form, 514,
                             302, 13310);
    cr_expect_not(c.whole_edges);
}

Test(gemm_plan, a_callers_split_is_kept)
{
    for (int split = 1; split <= GPUTILE_MAX_SPLIT_K; split *= 2) {
        const gputile__gemm_choice c = choose(&h200, 4096, 4096, 8192, split);
        cr_assert_eq(c.splits, split, "split_k %d: %d used", split, c.splits);
        cr_assert_not(c.tail);
    }
    /* more splits than k has slices of the row: those that have work */
    const gputile__gemm_choice c = choose(&h200, 512, 512, 40, 64);
    cr_assert(c.splits >= 1 && c.splits <= ceil_div(40, row(c)->bk));
}

Test(gemm_plan, without_a_device_a_plan_to_report)
{
    const gputile__gemm_choice c = gputile__gemm_choose(
        GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, NULL, GPUTILE__GEMM_FORM_ALIGNED, 0, 0, 64);
    cr_assert_eq(c.splits, 1);
    cr_assert_eq(c.sms, 0);
    cr_assert_str_eq(row(c)->name, "regblock128x256");
}

/* The cache answers what a search answers: shapes drawn to fill and
 * overwrite its slots, asked again in another order, on two devices and
 * both alignments, with and without a caller's split. */
Test(gemm_plan, cached_choices_are_the_searched_ones)
{
    enum { N = 400 };
    struct {
        int64_t m, n, k;
        int split_k;
        unsigned form; /* GPUTILE__GEMM_FORM_* */
        const gputile__device *d;
        gputile__gemm_choice c;
    } v[N];
    uint64_t s = fresh_seed();
    for (int i = 0; i < N; ++i) {
        v[i].m = dim(&s), v[i].n = dim(&s), v[i].k = dim(&s);
        v[i].split_k = i % 5 == 0 ? (int)(next(&s) % 8) + 1 : 0;
        v[i].form = (i % 3 != 0 ? GPUTILE__GEMM_FORM_ALIGNED : 0u) |
                    (i % 4 == 1 ? GPUTILE__GEMM_FORM_NT : 0u);
        v[i].d = i % 2 ? &h200 : &h100;
        v[i].c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, v[i].split_k,
                                      v[i].d, v[i].form, v[i].m, v[i].n, v[i].k);
    }
    for (int j = 0; j < 3 * N; ++j) {
        const int i = (int)(next(&s) % N);
        const gputile__gemm_choice c =
            gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, v[i].split_k, v[i].d,
                                 v[i].form, v[i].m, v[i].n, v[i].k);
        cr_assert_eq(c.variant, v[i].c.variant, "shape %d asked again", i);
        cr_assert_eq(c.splits, v[i].c.splits, "shape %d asked again", i);
        cr_assert_eq(c.pack, v[i].c.pack, "shape %d asked again", i);
    }
}

/* C = A B^T (both copies transpose) packs its smaller operand first where
 * the product is large enough to pay for the pass: B when n <= m, else A;
 * never in another form, nor for a small product. */
Test(gemm_plan, a_large_nt_product_packs_its_smaller_operand)
{
    const unsigned nt = GPUTILE__GEMM_FORM_ALIGNED | GPUTILE__GEMM_FORM_NT;
    gputile__gemm_choice c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0,
                                                  &h200, nt, 4096, 2048, 4096);
    cr_assert_eq(c.pack, 1, "4096 x 2048 x 4096 NT packs B");
    c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, &h200, nt, 2048, 4096,
                             4096);
    cr_assert_eq(c.pack, 2, "2048 x 4096 x 4096 NT packs A");
    c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, &h200,
                             GPUTILE__GEMM_FORM_ALIGNED, 4096, 2048, 4096);
    cr_assert_eq(c.pack, 0, "NN packs nothing");
    c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, 0, &h200, nt, 64, 64, 64);
    cr_assert_eq(c.pack, 0, "64^3 NT packs nothing");
    c = gputile__gemm_choose(GPUTILE_ALGO_ASYNC_128X128, GPUTILE_PRECISION_FP32, 0, &h200, nt, 4096,
                             2048, 4096);
    cr_assert_eq(c.pack, 0, "a forced algorithm runs as asked");
}

/* What the model's terms are for (measured on the H200: BENCHMARKS.md,
 * issue 17, sixth session). */
Test(gemm_plan, narrow_c_runs_on_narrow_tiles)
{
    const int64_t narrow[] = {8, 23, 30, 46};
    for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; ++i) {
        const gputile__gemm_choice wide_m = choose(&h200, 8192, narrow[i], 4096, 0);
        cr_assert(row(wide_m)->bn <= 64, "%ld columns: %s", (long)narrow[i], row(wide_m)->name);
        const gputile__gemm_choice wide_n = choose(&h200, narrow[i], 8192, 4096, 0);
        cr_assert(row(wide_n)->bm <= 64, "%ld rows: %s", (long)narrow[i], row(wide_n)->name);
    }
}

Test(gemm_plan, a_long_k_over_few_tiles_is_split)
{
    const gputile__gemm_choice c = choose(&h200, 256, 256, 65536, 0);
    const int64_t tiles = ceil_div(256, row(c)->bm) * ceil_div(256, row(c)->bn);
    cr_assert(tiles * c.splits >= h200.sms, "%s x %d: %ld blocks for %d SMs", row(c)->name,
              c.splits, (long)(tiles * c.splits), h200.sms);
}

/* The tensor-core rows split k across the SMs where their tiles fill more
 * than half of them but not all: C^T of 72 x 10,656 (84 tiles of 128 x
 * 128) over k = 9,464 runs on every SM of the H200, in both tensor
 * precisions; a large square stays whole. */
Test(gemm_plan, tensor_rows_split_a_long_k_over_most_sms)
{
    const unsigned tn = GPUTILE__GEMM_FORM_ALIGNED | GPUTILE__GEMM_FORM_TN;
    const int precisions[] = {GPUTILE_PRECISION_TF32, GPUTILE_PRECISION_FP32_3XTF32};
    for (size_t p = 0; p < 2; ++p) {
        const gputile__gemm_choice c =
            gputile__gemm_choose(GPUTILE_ALGO_AUTO, precisions[p], 0, &h200, tn, 72, 10656, 9464);
        const int64_t tiles = ceil_div(72, row(c)->bm) * ceil_div(10656, row(c)->bn);
        cr_assert(row(c)->flags & GPUTILE__GEMM_TMA, "precision %d: %s", precisions[p],
                  row(c)->name);
        cr_expect(tiles < h200.sms && tiles * c.splits >= h200.sms,
                  "precision %d: %ld tiles x %d splits for %d SMs", precisions[p], (long)tiles,
                  c.splits, h200.sms);
        const gputile__gemm_choice sq =
            gputile__gemm_choose(GPUTILE_ALGO_AUTO, precisions[p], 0, &h200,
                                 GPUTILE__GEMM_FORM_ALIGNED, 8192, 8192, 8192);
        cr_expect_eq(sq.splits, 1, "precision %d: 8192^3 split %d ways", precisions[p], sq.splits);
    }
}

/* C = A op(B) (B^T stored n x k where trans_b), row-major, dense, at
 * 16-byte aligned addresses the planner only inspects. */
static gputile__gemm_args aligned_args(int64_t m, int64_t n, int64_t k, int trans_b)
{
    return (gputile__gemm_args){.m = m,
                                .n = n,
                                .k = k,
                                .trans_b = trans_b,
                                .alpha = 1.0f,
                                .a = (const float *)(uintptr_t)0x10000000,
                                .lda = k,
                                .b = (const float *)(uintptr_t)0x40000000,
                                .ldb = trans_b ? k : n,
                                .c = (float *)(uintptr_t)0x70000000,
                                .ldc = n};
}

/* The TMA rows' orientation (C or C^T) weighs the waves of 128 x 256
 * tiles beside the pre-pass: 1,336 x 3,008 x 1,608 A B^T is one wave as C
 * and two as C^T; 3,008 x 1,336 the other way round. Both operands are
 * K-major, so neither is packed (the TFLOAT32 maps round them). C goes
 * through the staged store for short k. Addresses only: nothing is read
 * through them. */
Test(gemm_plan, tensor_tiles_take_the_orientation_with_fewer_waves)
{
    const unsigned nt = GPUTILE__GEMM_FORM_ALIGNED | GPUTILE__GEMM_FORM_NT;
    const int64_t dims[][3] = {{1336, 3008, 1608}, {3008, 1336, 1608}, {1336, 3008, 8192}};
    for (int i = 0; i < 3; ++i) {
        const int64_t m = dims[i][0], n = dims[i][1], k = dims[i][2];
        const gputile__gemm_choice c =
            gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, 0, &h200, nt, m, n, k);
        cr_assert_eq(c.variant, GPUTILE__GEMM_V_TMA_128X256_TF32, "%s", row(c)->name);
        const gputile__gemm_args args = aligned_args(m, n, k, 1);
        gputile__gemm_args whole;
        gputile__gemm_plan plan;
        size_t bytes;
        cr_assert_eq(gputile__gemm_plan_launch(&c, &args, &whole, &plan, &bytes), cudaSuccess);
        const int64_t rows_r = plan.swap ? n : m, rows_d = plan.swap ? m : n;
        const int64_t tiles = ceil_div(rows_r, 128) * ceil_div(rows_d, 256) * plan.splits;
        cr_expect_eq(plan.swap, m > n, "%ldx%ldx%ld: swap %d", (long)m, (long)n, (long)k,
                     plan.swap);
        cr_expect(tiles <= h200.sms, "%ldx%ldx%ld: %ld tiles", (long)m, (long)n, (long)k,
                  (long)tiles);
        cr_expect(!plan.pack_d && !plan.pack_r && !plan.perm_r);
        cr_expect_eq(plan.staged_c, k <= 2048, "k %ld", (long)k);
    }
}

/* 3xTF32 of row-major A and B runs as C^T with D' = A read in place, split
 * in shared memory; where R has many rows the pre-pass splits D' into
 * big and small parts instead, in twice D''s workspace, which a plan can
 * do without (too little memory); never for a batch. */
Test(gemm_plan, the_prepass_splits_d_where_r_has_many_rows)
{
    const int64_t sizes[] = {256, 1024, 4096, 8192};
    for (int i = 0; i < 8; ++i) {
        const int64_t m = sizes[i % 4], n = m, k = m, batch = i < 4 ? 0 : 8;
        const gputile__gemm_choice c =
            gputile__gemm_choose(GPUTILE_ALGO_WGMMA_128X128, GPUTILE_PRECISION_FP32_3XTF32, 0,
                                 &h200, GPUTILE__GEMM_FORM_ALIGNED, m, n, k);
        cr_assert_eq(c.variant, GPUTILE__GEMM_V_TMA_128X128_3XTF32, "%s", row(c)->name);
        gputile__gemm_args args = aligned_args(m, n, k, 0);
        args.batch = batch;
        args.stride_a = m * k, args.stride_b = k * n, args.stride_c = m * n;
        gputile__gemm_args whole;
        gputile__gemm_plan plan;
        size_t bytes;
        cr_assert_eq(gputile__gemm_plan_launch(&c, &args, &whole, &plan, &bytes), cudaSuccess);
        const bool split = batch == 0 && m >= 4096;
        cr_expect(plan.swap && !plan.pack_r && !plan.pack_d, "%ld^3", (long)m);
        cr_expect_eq(plan.split_d, split, "%ld^3 batch %ld: split_d %d", (long)m, (long)batch,
                     plan.split_d);
        const size_t work = plan.splits > 1 ? (size_t)plan.splits * m * n * sizeof(float) : 0;
        cr_expect_eq(bytes, work + (split ? 2 * (size_t)m * plan.ld_pack * sizeof(float) : 0),
                     "%ld^3: %zu bytes", (long)m, bytes);
        cr_expect_eq(gputile__gemm_plan_without_split_d(&plan, &c, &whole), work);
        cr_expect(!plan.split_d);
    }
}

Test(gemm_plan, a_large_square_is_not_split)
{
    const int64_t sizes[] = {4096, 8192, 16384};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const gputile__gemm_choice c = choose(&h200, sizes[i], sizes[i], sizes[i], 0);
        cr_assert_eq(c.splits, 1, "%ld^3: %d splits", (long)sizes[i], c.splits);
        cr_assert(row(c)->bm * row(c)->bn >= 128 * 128, "%ld^3: %s", (long)sizes[i], row(c)->name);
    }
}

/* A split in clusters that would overflow one wave of clusters (the
 * described devices' wave: 7/8 of the blocks in whole clusters) runs
 * through the workspace instead: 127 x 8192 x 8192 split 4 on 128 x 128
 * tiles is 64 clusters of 4 where 57 fit (on the H200 62: 0.55 of cuBLAS
 * clustered, 0.89 through the workspace, 0.86 in 12 splits). Without the
 * way of summing in the search, the model splits those two 12 ways. A
 * device without clusters never gets them. */
Test(gemm_plan, clusters_that_overflow_a_wave_take_the_workspace)
{
    const int64_t shapes[][3] = {{127, 8192, 8192}, {8192, 128, 8192}, {1000, 1000, 20000}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];
        const gputile__gemm_choice c = choose(&h200, m, n, k, 0);
        const gputile__gemm_row *r = row(c);
        const int64_t blocks = ceil_div(m, r->bm) * ceil_div(n, r->bn) * c.splits;
        const int64_t wave = (int64_t)h200.sms * r->per_sm * 7 / 8 / c.splits * c.splits;
        cr_assert(c.splits > 1, "%ldx%ldx%ld: split", (long)m, (long)n, (long)k);
        cr_assert(!c.clusters || c.splits > GPUTILE__GEMM_MAX_CLUSTER || blocks <= wave,
                  "%ldx%ldx%ld: %s split %d in clusters: %ld blocks, %ld in a wave", (long)m,
                  (long)n, (long)k, r->name, c.splits, (long)blocks, (long)wave);
        if (i < 2)
            cr_assert(c.splits <= GPUTILE__GEMM_MAX_CLUSTER && !c.clusters,
                      "%ldx%ldx%ld: %s split %d, clusters %d", (long)m, (long)n, (long)k, r->name,
                      c.splits, c.clusters);
        cr_assert(!choose(&small, m, n, k, 0).clusters, "no clusters on the small part");
    }
}

/* AUTO for batches (gputile__gemm_batched_model): every choice is an FP32
 * row that takes a batch, unsplit (gemm_batched_plan.c), on any shape and
 * count; tiny problems go to the persistent rows, which pack several
 * problems' tiles into a block (16^3: 2.1x cuBLAS on the H100 where the
 * best cp.async row ran at 0.45x), large ones to cp.async tiles of at
 * least 64 x 64 (512^3: 128 x 128 at 0.95x, batched64 at 0.61x). */
static gputile__gemm_choice choose_batch_form(const gputile__device *d, unsigned form, int64_t m,
                                              int64_t n, int64_t k, int64_t count)
{
    return gputile__gemm_batched_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, d, form, m, n, k,
                                        count);
}

static gputile__gemm_choice choose_batch(const gputile__device *d, int64_t m, int64_t n, int64_t k,
                                         int64_t count)
{
    return choose_batch_form(d, GPUTILE__GEMM_FORM_ALIGNED, m, n, k, count);
}

Test(gemm_plan, batches_take_a_batched_row)
{
    uint64_t s = fresh_seed();
    const gputile__device *devices[] = {&h200, &h100, &small};
    for (int i = 0; i < 3000; ++i) {
        const int64_t m = dim(&s) % 4096 + 1, n = dim(&s) % 4096 + 1, k = dim(&s) % 4096 + 1,
                      count = (int64_t)(next(&s) % 100000) + 1;
        const gputile__gemm_choice c = choose_batch(devices[i % 3], m, n, k, count);
        cr_assert(c.variant >= 0 && gputile__gemm_takes_batch(c.variant),
                  "%ldx%ldx%ld x%ld: row %d takes no batch", (long)m, (long)n, (long)k, (long)count,
                  c.variant);
        cr_assert_eq(row(c)->precision, GPUTILE_PRECISION_FP32);
        cr_assert_eq(c.splits, 1);
        cr_assert_not(c.tail);
    }
    /* nothing to multiply (k = 0: C = beta C; an empty C): no estimate divides by it */
    cr_assert_eq(row(choose_batch(&h200, 16, 16, 0, 10))->precision, GPUTILE_PRECISION_FP32);
    cr_assert_eq(row(choose_batch(&h200, 0, 16, 16, 10))->precision, GPUTILE_PRECISION_FP32);
    cr_assert_eq(row(choose_batch(&h200, 16, 16, 16, 0))->precision, GPUTILE_PRECISION_FP32);
    /* no device (a no-op batch's report) */
    cr_assert_eq(choose_batch(NULL, 0, 0, 0, 0).variant, GPUTILE__GEMM_V_BATCHED_16);
}

/* A batch's measured best row, which AUTO must pick on both the H200 and
 * the H100 (the same chip; the model scales only its DRAM term). */
struct batch_pick {
    int64_t m, n, k, count;
    int variant;
};

static void assert_batch_picks(const struct batch_pick *picks, size_t count)
{
    const gputile__device *devices[] = {&h200, &h100};
    for (int d = 0; d < 2; ++d)
        for (size_t i = 0; i < count; ++i) {
            const struct batch_pick *p = &picks[i];
            const int got = choose_batch(devices[d], p->m, p->n, p->k, p->count).variant;
            cr_assert_eq(got, p->variant, "%s, %ld x %ld x %ld x %ld: row %d, not %d",
                         d == 0 ? "H200" : "H100", (long)p->m, (long)p->n, (long)p->k,
                         (long)p->count, got, p->variant);
        }
}

/* Batches whose C is a few rows tall or a few columns wide take the 8 x 64
 * or 64 x 8 tiles (H100, forced: 369 x 7 x 30 1.55x cuBLAS on 64 x 8
 * where the best square tile gave 0.97x; 6 x 167 x 24 1.13x on 8 x 64,
 * which the 8 x 32 tiles now take, below). */
Test(gemm_plan, narrow_batches_take_narrow_tiles)
{
    const struct batch_pick picks[] = {
        {369, 7, 30, 4840, GPUTILE__GEMM_V_BATCHED_64X8},
        {480, 5, 47, 2663, GPUTILE__GEMM_V_BATCHED_64X8},
        {5, 161, 87, 4401, GPUTILE__GEMM_V_BATCHED_8X64},
    };
    assert_batch_picks(picks, sizeof picks / sizeof picks[0]);
}

/* C at most 8 rows tall and a few dozen columns wide: the 8 x 32 tiles
 * (H200, forced, 2026-12-04: 4 x 21 x 297 x 8,937 0.97x cuBLAS where
 * batched16 gave 0.68x and 8 x 64 0.71x; 6 x 22 x 103 x 22,250 1.56x
 * against 0.99x; 7 x 31 x 9 x 120,051 2.69x against 1.61x; 6 x 167 x 24 x
 * 13,020, 1.13x on 8 x 64 on the H100, is planned there too (the
 * calibration's 5 x 344 x 7: 2.27x against 1.53x on 8 x 64; 7 x 165 x 5:
 * 1.62x against 1.23x). 4 x 12 x 318 stays on batched16 (1.39x against
 * 1.16x), 4 x 51 x 300 on 8 x 64 (0.89x against 0.81x). */
Test(gemm_plan, short_c_takes_the_8_by_32_tiles)
{
    const struct batch_pick picks[] = {
        {4, 21, 297, 8937, GPUTILE__GEMM_V_BATCHED_8X32},
        {6, 22, 103, 22250, GPUTILE__GEMM_V_BATCHED_8X32},
        {7, 31, 9, 120051, GPUTILE__GEMM_V_BATCHED_8X32},
        {6, 167, 24, 13020, GPUTILE__GEMM_V_BATCHED_8X32},
        {4, 12, 318, 13066, GPUTILE__GEMM_V_BATCHED_16},
        {4, 51, 300, 4017, GPUTILE__GEMM_V_BATCHED_8X64},
    };
    assert_batch_picks(picks, sizeof picks / sizeof picks[0]);
}

/* Small C in a batch, and C a few dozen columns wide over long k: the
 * two-warp 64 x 32 and 32 x 64 tiles (H100, forced: 23 x 42 x 99 x 9,067
 * 1.00x cuBLAS on 32 x 64 where the best other row gave 0.68x; 44 x 23 x 4
 * x 52,428 1.02x on 64 x 32 against 0.72x; 9,635 x 30 x 2,523 1.28x on
 * 64 x 32 against 1.13x for 128 x 32). 32^3 stays on batched32, 1.2x
 * faster there than 32 x 64 tiles. */
Test(gemm_plan, small_c_takes_the_two_warp_tiles)
{
    cr_assert_eq(choose_batch(&h100, 23, 42, 99, 9067).variant, GPUTILE__GEMM_V_ASYNC_32X64);
    cr_assert_eq(choose_batch_form(&h100, GPUTILE__GEMM_FORM_C_UNALIGNED, 44, 23, 4, 52428).variant,
                 GPUTILE__GEMM_V_ASYNC_64X32);
    cr_assert_eq(choose_batch(&h100, 32, 32, 32, 100000).variant, GPUTILE__GEMM_V_BATCHED_32);
    cr_assert_eq(choose(&h100, 9635, 30, 2523, 0).variant, GPUTILE__GEMM_V_ASYNC_64X32);
}

/* The batch model's cost per (problem, tile) pair: 262 x 75 x 14 x 2,753
 * is 27 tiles of 32 x 32 a problem, one slice each; the byte terms alone
 * sent it to batched32 (0.55x cuBLAS on the H100) where async32x128 runs
 * at 1.08x. (The H100 only: where it was measured.) */
Test(gemm_plan, many_tiles_of_small_k_take_a_cp_async_row)
{
    const gputile__gemm_row *r = row(choose_batch(&h100, 262, 75, 14, 2753));
    cr_assert(r->flags & GPUTILE__GEMM_ASYNC, "%s", r->name);
}

/* Small C over short k, rows not 16-byte aligned, on the H200: the
 * two-warp 64 x 32 tiles, where the batch model fitted on the H100 sent
 * them to the persistent rows (H200, every row forced, bench/results/
 * 2026-12-03-batched-refit-ab-h200.csv: 144 x 151 x 7 x 2,818 1.03x
 * cuBLAS on 64 x 32 against 0.39x on batched32; 417 x 23 x 9 x 4,952 1.09x
 * against 0.66x on batched64x8; 120 x 9 x 474 x 1,078 0.90x against 0.63x
 * on batched16). The anchors of issue 20 keep their measured best rows. */
Test(gemm_plan, small_c_over_short_k_takes_two_warp_tiles_on_the_h200)
{
    const int64_t shapes[][4] = {{144, 151, 7, 2818}, {417, 23, 9, 4952}, {120, 9, 474, 1078}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        cr_assert_eq(choose_batch_form(&h200, GPUTILE__GEMM_FORM_C_UNALIGNED, shapes[i][0],
                                       shapes[i][1], shapes[i][2], shapes[i][3])
                         .variant,
                     GPUTILE__GEMM_V_ASYNC_64X32, "%ld x %ld x %ld", (long)shapes[i][0],
                     (long)shapes[i][1], (long)shapes[i][2]);
    cr_assert_eq(choose_batch(&h200, 32, 32, 32, 100000).variant, GPUTILE__GEMM_V_BATCHED_32);
    cr_assert_eq(choose_batch(&h200, 64, 64, 64, 20000).variant, GPUTILE__GEMM_V_ASYNC_64X64);
    cr_assert_eq(choose_batch(&h200, 512, 512, 512, 128).variant, GPUTILE__GEMM_V_ASYNC_128X128);
    cr_assert_eq(choose_batch(&h200, 64, 1024, 64, 2000).variant, GPUTILE__GEMM_V_ASYNC_64X128);
}

/* k within half a slice, C's rows 16-byte aligned, on the H200: the
 * persistent rows' HALF kernels copy half of each slice, which the batch
 * model counts there (H200, every row forced, bench/results/
 * 2026-12-04-batched-calibration-h200-s50-seed*.csv: 20 x 108 x 4 x 25,115
 * 1.26x cuBLAS on batched32 where the model counting whole slices took
 * async32x128 at 0.76x; 80 x 4 x 6 x 81,442 2.39x on batched16 against
 * 1.83x on batched64x8, and since batched32x8 joined the model, 3.31x on
 * it against 2.38x on batched16 on the H100: bench/results/2026-12-05-
 * batched-32x8-model-h100-s57.txt). Where C's rows are not aligned the persistent
 * rows' staged stores are the cost, and whole slices are counted (above:
 * 144 x 151 x 7 x 2,818 stays on 64 x 32). */
Test(gemm_plan, batches_within_half_a_slice_count_half_its_copies)
{
    cr_assert_eq(choose_batch(&h200, 20, 108, 4, 25115).variant, GPUTILE__GEMM_V_BATCHED_32);
    cr_assert_eq(choose_batch_form(&h200, 0u, 80, 4, 6, 81442).variant,
                 GPUTILE__GEMM_V_BATCHED_32X8);
}

Test(gemm_plan, tiny_batches_pack_large_ones_tile)
{
    const gputile__device *devices[] = {&h200, &h100};
    for (int d = 0; d < 2; ++d) {
        cr_assert(row(choose_batch(devices[d], 16, 16, 16, 100000))->flags &
                  GPUTILE__GEMM_PERSISTENT);
        cr_assert(row(choose_batch(devices[d], 6, 5, 5, 789516))->flags & GPUTILE__GEMM_PERSISTENT);
        const int64_t large[][4] = {
            {128, 128, 128, 4000}, {256, 256, 256, 1000}, {512, 512, 512, 128}};
        for (size_t i = 0; i < sizeof large / sizeof large[0]; ++i) {
            const gputile__gemm_row *r =
                row(choose_batch(devices[d], large[i][0], large[i][1], large[i][2], large[i][3]));
            cr_assert((r->flags & GPUTILE__GEMM_ASYNC) && r->bm >= 64 && r->bn >= 64, "%ld^3: %s",
                      (long)large[i][0], r->name);
        }
    }
}

/* The plan of a launch of a persistent batch row (gemm_batched_plan.c):
 * each operand takes 16-byte copies where its own rows allow, whatever the
 * other's (3 in 8 random batch shapes have one aligned operand and not the
 * other), and the 16-byte copies go through the L1 up to k =
 * GPUTILE__GEMM_BATCH_L1_K (lib/gemm_batched.h: batched16 lost up to 27%
 * through the L1 past it, every row gained at or below it). No device:
 * the grid is planned from the row's blocks per SM. */
Test(gemm_plan, batch_copies_per_operand_and_through_the_l1_for_short_k)
{
    const int variants[] = {
        GPUTILE__GEMM_V_BATCHED_16,   GPUTILE__GEMM_V_BATCHED_32,    GPUTILE__GEMM_V_BATCHED_64,
        GPUTILE__GEMM_V_BATCHED_8X64, GPUTILE__GEMM_V_BATCHED_64X8,  GPUTILE__GEMM_V_BATCHED_8X32,
        GPUTILE__GEMM_V_BATCHED_32X8, GPUTILE__GEMM_V_BATCHED_16_KS, GPUTILE__GEMM_V_BATCHED_32_KS};
    const int64_t ks[] = {1, GPUTILE__GEMM_BATCH_L1_K, GPUTILE__GEMM_BATCH_L1_K + 1, 4096};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v)
        for (int al = 0; al < 4; ++al)
            for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
                const gputile__gemm_choice c = {
                    .variant = variants[v], .splits = 1, .sms = 132, .device = -1};
                const gputile__gemm_args args = {
                    .m = 37, .n = 29, .k = ks[i], .batch = 1000, .trans_a = al & 1};
                const gputile__batch_aligned aligned = {.a = (al & 1) != 0, .b = (al & 2) != 0};
                gputile__gemm_plan plan;
                cr_assert_eq(gputile__gemm_batched_plan(&c, &args, aligned, &plan), cudaSuccess);
                cr_assert_eq(plan.vec_a, aligned.a, "%s", row(c)->name);
                cr_assert_eq(plan.vec_b, aligned.b, "%s", row(c)->name);
                cr_assert_eq(plan.l1_copies != 0, ks[i] <= GPUTILE__GEMM_BATCH_L1_K, "%s k=%ld",
                             row(c)->name, (long)ks[i]);
                cr_assert_eq(plan.splits, 1);
                cr_assert(plan.grid_blocks >= 1 && plan.grid_blocks <= 132 * row(c)->per_sm);
            }
}

/* The KSPLIT rows' slots share a pair (kernels/gemm_batched.cu): a work
 * item is one pair, where the other persistent rows' is a pair a slot
 * (4 of them a block on 32 x 32 tiles, 8 on 16 x 16); the grid is one
 * block an item up to the blocks the SMs hold (no device: 132 x per_sm). */
Test(gemm_plan, ksplit_rows_plan_a_block_a_pair)
{
    const struct {
        int variant;
        int64_t count, blocks;
    } cases[] = {
        {GPUTILE__GEMM_V_BATCHED_32, 100, 25},    {GPUTILE__GEMM_V_BATCHED_32_KS, 100, 100},
        {GPUTILE__GEMM_V_BATCHED_16, 100, 50},    {GPUTILE__GEMM_V_BATCHED_16_KS, 100, 400},
        {GPUTILE__GEMM_V_BATCHED_32, 2817, 528},  {GPUTILE__GEMM_V_BATCHED_32_KS, 2817, 528},
        {GPUTILE__GEMM_V_BATCHED_16_KS, 99, 396},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const gputile__gemm_choice c = {
            .variant = cases[i].variant, .splits = 1, .sms = 132, .device = -1};
        const gputile__gemm_args args = {.m = 29, .n = 17, .k = 507, .batch = cases[i].count};
        const gputile__batch_aligned aligned = {.a = true, .b = true};
        gputile__gemm_plan plan;
        cr_assert_eq(gputile__gemm_batched_plan(&c, &args, aligned, &plan), cudaSuccess);
        cr_expect_eq(plan.grid_blocks, cases[i].blocks, "case %zu %s: %ld blocks", i, row(c)->name,
                     (long)plan.grid_blocks);
        cr_expect_not(plan.half_k, "case %zu", i);
    }
}

/* k within half a slice (k <= bk / 2 = 8) takes the square persistent
 * tiles' HALF kernel (plan.half_k: half of each slice copied and
 * multiplied); k = 9 and the 8-row and 8-column tiles, the general one. */
Test(gemm_plan, batch_half_slice_kernel_for_k_within_half_a_slice)
{
    const struct {
        int variant;
        int64_t k;
        int half;
    } cases[] = {
        {GPUTILE__GEMM_V_BATCHED_16, 1, 1},    {GPUTILE__GEMM_V_BATCHED_16, 8, 1},
        {GPUTILE__GEMM_V_BATCHED_16, 9, 0},    {GPUTILE__GEMM_V_BATCHED_32, 8, 1},
        {GPUTILE__GEMM_V_BATCHED_32, 9, 0},    {GPUTILE__GEMM_V_BATCHED_32, 24, 0},
        {GPUTILE__GEMM_V_BATCHED_64, 3, 1},    {GPUTILE__GEMM_V_BATCHED_64, 16, 0},
        {GPUTILE__GEMM_V_BATCHED_8X64, 4, 0},  {GPUTILE__GEMM_V_BATCHED_64X8, 4, 0},
        {GPUTILE__GEMM_V_BATCHED_8X32, 4, 0},  {GPUTILE__GEMM_V_BATCHED_32X8, 4, 0},
        {GPUTILE__GEMM_V_BATCHED_16_KS, 4, 0}, {GPUTILE__GEMM_V_BATCHED_32_KS, 8, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const gputile__gemm_choice c = {
            .variant = cases[i].variant, .splits = 1, .sms = 132, .device = -1};
        const gputile__gemm_args args = {.m = 37, .n = 29, .k = cases[i].k, .batch = 1000};
        const gputile__batch_aligned aligned = {.a = true, .b = false};
        gputile__gemm_plan plan;
        cr_assert_eq(gputile__gemm_batched_plan(&c, &args, aligned, &plan), cudaSuccess);
        cr_assert_eq(plan.half_k != 0, cases[i].half != 0, "%s k=%ld", row(c)->name,
                     (long)cases[i].k);
    }
}

/* TF32 batches (TMA_128X128_TF32) walk their tiles with one block per SM
 * (GPUTILE__GEMM_TILE_LOOP): the grid is the SMs, or the (tile, problem)
 * items where there are fewer, counted on D = C^T's tiles when the plan
 * swaps; the other TMA rows run a block per tile. */
Test(gemm_plan, tf32_batches_walk_their_tiles_with_one_block_per_sm)
{
    const struct {
        int64_t m, n, k, batch;
        int trans_b;
        int64_t blocks;
    } cases[] = {
        {128, 128, 128, 4000, 0, 132}, {256, 256, 256, 1000, 0, 132}, {200, 260, 40, 3, 0, 18},
        {136, 300, 72, 2, 1, 12},      {64, 64, 4, 1, 0, 1},          {129, 64, 8, 66, 1, 132},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int p = 0; p < 2; ++p) {
            const gputile__gemm_choice c = {.variant = p ? GPUTILE__GEMM_V_TMA_128X128_TF32
                                                         : GPUTILE__GEMM_V_TMA_128X128_3XTF32,
                                            .splits = 1,
                                            .sms = 132,
                                            .device = -1};
            gputile__gemm_args args =
                aligned_args(cases[i].m, cases[i].n, cases[i].k, cases[i].trans_b);
            args.batch = cases[i].batch;
            const gputile__batch_aligned aligned = {.a = true, .b = true};
            gputile__gemm_plan plan;
            cr_assert_eq(gputile__gemm_batched_plan(&c, &args, aligned, &plan), cudaSuccess);
            cr_expect_eq(plan.swap, !cases[i].trans_b, "case %zu", i);
            cr_expect_eq(plan.grid_blocks, p ? cases[i].blocks : 0, "case %zu %s: %ld blocks", i,
                         row(c)->name, (long)plan.grid_blocks);
        }
}

/* TF32 batches on a device take 128 x 256 tiles (TMA_128X256_TF32_ROUND)
 * where D' has more than 256 rows and their rounds on the walked grid (a
 * block per SM), times 2 / 1.08, are fewer than 128 x 128 tiles' rounds;
 * D' is m as the batch planner
 * swaps, n with B^T, and its padding to 256 counts; k does not. The wide
 * row walks its tiles too. Rounds worked out by hand for 132 SMs. */
Test(gemm_plan, tf32_batches_take_wide_tiles_where_their_rounds_pay)
{
    const struct {
        int64_t m, n, k;
        int trans_b;
        int64_t count;
        bool wide;
    } cases[] = {
        {128, 512, 512, 0, 1000, false}, /* D' 128: the same tiles either way */
        {129, 64, 257, 0, 1000, false},  /* D' within one wide tile: narrow */
        {256, 64, 512, 0, 1000, false},  {64, 200, 512, 1, 1000, false},
        {512, 64, 256, 0, 1000, true},  /* 31 rounds against 16 */
        {512, 64, 512, 0, 33, false},   /* 1 round against 1 */
        {300, 64, 512, 0, 1000, false}, /* 23 against 16: D' padded to 512 */
        {520, 64, 300, 0, 1000, false}, /* 38 against 23 */
        {640, 64, 1024, 0, 1000, false}, {512, 128, 512, 1, 1000, false},
        {64, 384, 512, 1, 1000, false},  {64, 1000, 4096, 1, 1000, true}, /* 61 against 31 */
        {4096, 64, 512, 0, 1000, true},                                   /* 243 against 122 */
        {256, 256, 512, 0, 204, false},  {512, 512, 256, 0, 128, true},   /* 16 against 8 */
        {512, 512, 512, 0, 85, false},                                    /* 11 against 6 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const unsigned form = gputile__gemm_form(true, true, false, cases[i].trans_b);
        const gputile__gemm_choice c =
            gputile__gemm_batched_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, &h200, form,
                                         cases[i].m, cases[i].n, cases[i].k, cases[i].count);
        cr_expect_eq(c.variant,
                     cases[i].wide ? GPUTILE__GEMM_V_TMA_128X256_TF32_ROUND
                                   : GPUTILE__GEMM_V_TMA_128X128_TF32,
                     "case %zu: %s", i, row(c)->name);
        gputile__gemm_args args =
            aligned_args(cases[i].m, cases[i].n, cases[i].k, cases[i].trans_b);
        args.batch = cases[i].count;
        gputile__gemm_plan plan;
        const gputile__batch_aligned aligned = {.a = true, .b = true};
        cr_assert_eq(gputile__gemm_batched_plan(&c, &args, aligned, &plan), cudaSuccess);
        const gputile__gemm_row *r = row(c);
        const int64_t d = cases[i].trans_b ? cases[i].n : cases[i].m,
                      other = cases[i].trans_b ? cases[i].m : cases[i].n;
        const int64_t items =
            (other + r->bm - 1) / r->bm * ((d + r->bn - 1) / r->bn) * cases[i].count;
        cr_expect_eq(plan.grid_blocks, items < 132 ? items : 132, "case %zu", i);
    }
}

/* ---- views spaced evenly run as a strided batch (gputile__gemm_views_check) ---- */

void gputile__copy_threads_set(int threads);

/* The check alone: addresses only, nothing is read through them. */
static gputile__views_ranges check_views(const gputile_matrix *a, const gputile_matrix *b,
                                         const gputile_matrix *c, size_t count)
{
    gputile__batch_aligned al;
    gputile__views_ranges r;
    cr_assert_eq(gputile__gemm_views_check(GPUTILE_OP_N, GPUTILE_OP_N, a, b, c, count, &al, &r),
                 GPUTILE_SUCCESS);
    return r;
}

static gputile_matrix at(uintptr_t addr, size_t stride)
{
    return (gputile_matrix){4, 4, stride, (float *)addr};
}

/* Which operands' rows are all 16-byte aligned, C's among them (the batch
 * model counts half slices only where C's are): one view moved by a float,
 * or with a row stride of 5 floats (off the short path), clears its bit
 * and no other. */
Test(gemm_plan, views_report_which_operands_rows_are_aligned)
{
    enum { V = 9 };
    const uintptr_t A = (uintptr_t)1 << 32, B = (uintptr_t)1 << 36, C = (uintptr_t)1 << 40;
    gputile_matrix a[V], b[V], c[V];
    for (int i = 0; i < V; ++i)
        a[i] = at(A + 256 * i, 4), b[i] = at(B + 256 * i, 4), c[i] = at(C + 256 * i, 4);
    const gputile_matrix moved = at(C + 256 * 5 + 4, 4), wide = at(C + 256 * 7, 5);
    for (int t = 0; t < 3; ++t) {
        if (t == 1)
            c[5] = moved;
        if (t == 2)
            c[5] = at(C + 256 * 5, 4), c[7] = wide;
        gputile__batch_aligned al;
        gputile__views_ranges r;
        cr_assert_eq(gputile__gemm_views_check(GPUTILE_OP_N, GPUTILE_OP_N, a, b, c, V, &al, &r),
                     GPUTILE_SUCCESS);
        cr_assert(al.a && al.b, "case %d", t);
        cr_assert_eq(al.c, t == 0, "case %d", t);
    }
}

/* In parts on 8 threads (parts of 5,000 views): even through every part's
 * edge, and not where one view, or every view from a part's edge on, moves
 * by a float, nor in descending order, nor with one view's row stride
 * changed. A broadcast operand (step 0) and one problem are even. */
Test(gemm_plan, evenly_spaced_views_are_a_strided_batch)
{
    enum { V = 40000 };
    gputile_matrix *a = malloc(V * sizeof *a), *b = malloc(V * sizeof *b),
                   *c = malloc(V * sizeof *c);
    cr_assert(a && b && c);
    const uintptr_t A = (uintptr_t)1 << 32, B = (uintptr_t)1 << 36, C = (uintptr_t)1 << 40;
    gputile__copy_threads_set(8);
    for (size_t i = 0; i < V; ++i)
        a[i] = at(A + 80 * i, 4), b[i] = at(B, 4), c[i] = at(C + 128 * i, 4);
    gputile__views_ranges r = check_views(a, b, c, V);
    cr_expect(r.even[0] && r.even[1] && r.even[2]);
    cr_expect(r.step[0] == 80 && r.step[1] == 0 && r.step[2] == 128);
    r = check_views(a, b, c, 1);
    cr_expect(r.even[0] && r.even[1] && r.even[2]);
    const size_t moved[] = {1, 2, 4999, 5000, 5001, 20000, V - 1};
    for (size_t t = 0; t < sizeof moved / sizeof moved[0]; ++t) {
        const size_t i = moved[t];
        c[i] = at(C + 128 * i + 4, 4);
        r = check_views(a, b, c, V);
        cr_expect(r.even[0] && r.even[1] && !r.even[2], "C %zu moved", i);
        for (size_t j = i; j < V; ++j) /* every C from i on */
            c[j] = at(C + 128 * j + 4, 4);
        r = check_views(a, b, c, V);
        cr_expect(!r.even[2], "Cs from %zu on moved", i);
        for (size_t j = i; j < V; ++j)
            c[j] = at(C + 128 * j, 4);
    }
    a[7777] = at(A + 80 * 7777, 5);
    r = check_views(a, b, c, V);
    cr_expect(!r.even[0] && r.even[2], "one A's row stride");
    a[7777] = at(A + 80 * 7777, 4);
    for (size_t i = 0; i < V; ++i)
        c[i] = at(C + 128 * (V - 1 - i), 4);
    r = check_views(a, b, c, V);
    cr_expect(r.even[0] && !r.even[2], "descending Cs");
    gputile__copy_threads_set(0);
    free(a), free(b), free(c);
}

/* TMA coordinates are signed 32-bit: AUTO in the tensor precisions takes no
 * TMA row for a product with m, n or k past 2^31 - 1 (it took one, and the
 * wrapped coordinates read and stored zeros), and still does just below. */
Test(gemm_plan, tensor_precisions_take_no_tma_row_past_its_coordinates)
{
    const int64_t big = ((int64_t)1 << 31) + 128, below = ((int64_t)1 << 31) - 128;
    const int64_t past[][3] = {
        {1, 1, big}, {big, 1, 4}, {big, 4, 4},  {4, big, 4}, {((int64_t)1 << 32) + 128, 1, 4},
        {big, 1, 0}, {1, big, 0}, {big, big, 0}}; /* k = 0: C = beta C, on the FP32 rows */
    const int precisions[] = {GPUTILE_PRECISION_TF32, GPUTILE_PRECISION_FP32_3XTF32};
    for (size_t p = 0; p < 2; ++p)
        for (size_t i = 0; i < sizeof past / sizeof past[0]; ++i) {
            const gputile__gemm_choice c = gputile__gemm_choose(GPUTILE_ALGO_AUTO, precisions[p], 0,
                                                                &h200, GPUTILE__GEMM_FORM_ALIGNED,
                                                                past[i][0], past[i][1], past[i][2]);
            cr_assert(!(row(c)->flags & GPUTILE__GEMM_TMA), "%ldx%ldx%ld, precision %d: %s",
                      (long)past[i][0], (long)past[i][1], (long)past[i][2], precisions[p],
                      row(c)->name);
        }
    /* the guard is what decides: just below, TF32 takes a TMA row here */
    const gputile__gemm_choice c =
        gputile__gemm_choose(GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_TF32, 0, &h200,
                             GPUTILE__GEMM_FORM_ALIGNED, below, 1, 4);
    cr_expect(row(c)->flags & GPUTILE__GEMM_TMA, "%ldx1x4: %s", (long)below, row(c)->name);
}

/* A batch never splits k: a cp.async row would count 2^31 slices or more
 * (k of 2^34 with bk 8) in an int, so a named one is refused there (-1:
 * GPUTILE_ERROR_UNSUPPORTED) and AUTO takes a row that counts in 64 bits,
 * for every shape around the bound. */
Test(gemm_plan, a_batch_never_counts_more_than_2_30_slices)
{
    const int64_t bound = ((int64_t)1 << 30) * 8; /* bk 8: the async rows' smallest */
    const int64_t ks[] = {bound - 8, bound, bound + 1, ((int64_t)1 << 35) + 3, (int64_t)1 << 40};
    const int64_t mns[][2] = {{1, 1}, {64, 64}, {128, 128}, {512, 7}};
    const int named[] = {GPUTILE_ALGO_ASYNC_64X32, GPUTILE_ALGO_ASYNC_128X128,
                         GPUTILE_ALGO_ASYNC_128X32, GPUTILE_ALGO_BATCHED_64};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
        for (size_t s = 0; s < sizeof mns / sizeof mns[0]; ++s) {
            const gputile__gemm_choice a = gputile__gemm_batched_choose(
                GPUTILE_ALGO_AUTO, GPUTILE_PRECISION_FP32, &h200, GPUTILE__GEMM_FORM_ALIGNED,
                mns[s][0], mns[s][1], ks[i], 3);
            cr_assert(a.variant >= 0 && gputile__gemm_slices_fit(&a, ks[i]),
                      "AUTO, %ldx%ldx%ld: %s", (long)mns[s][0], (long)mns[s][1], (long)ks[i],
                      a.variant >= 0 ? row(a)->name : "refused");
            for (size_t r = 0; r < sizeof named / sizeof named[0]; ++r) {
                const gputile__gemm_choice c = gputile__gemm_batched_choose(
                    named[r], GPUTILE_PRECISION_FP32, &h200, GPUTILE__GEMM_FORM_ALIGNED, mns[s][0],
                    mns[s][1], ks[i], 3);
                const gputile__gemm_row *w =
                    gputile__gemm_row_of(gputile__gemm_variant(named[r], GPUTILE_PRECISION_FP32));
                const bool fits = !(w->flags & GPUTILE__GEMM_SPLITK) ||
                                  ceil_div(ks[i], w->bk) <= (int64_t)1 << 30;
                cr_assert_eq(c.variant >= 0, fits, "%s, k %ld: %s", w->name, (long)ks[i],
                             c.variant >= 0 ? "taken" : "refused");
            }
        }
}

/* A split counts its slices in an int: a named cp.async row given k of
 * 2^34 and the split left to the planner runs in splits of at most 2^30
 * slices; a split asked for that holds more is refused (slices_fit). */
Test(gemm_plan, a_split_never_counts_more_than_2_30_slices)
{
    const int64_t ks[] = {((int64_t)1 << 34) + 5, ((int64_t)1 << 33), ((int64_t)1 << 36) + 1};
    const int algorithms[] = {GPUTILE_ALGO_ASYNC_64X32, GPUTILE_ALGO_ASYNC_128X128};
    for (size_t a = 0; a < 2; ++a)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
            for (int split = 0; split <= 2; ++split) {
                const gputile__gemm_choice c =
                    gputile__gemm_choose(algorithms[a], GPUTILE_PRECISION_FP32, split, &h200,
                                         GPUTILE__GEMM_FORM_ALIGNED, 1, 1, ks[i]);
                const int64_t bk = row(c)->bk;
                const int64_t kps = ceil_div(ceil_div(ks[i], c.splits), bk) * bk;
                const bool fits = kps / bk <= (int64_t)1 << 30;
                cr_assert(split > 0 || fits, "k %ld, %s, split_k 0: %d splits", (long)ks[i],
                          row(c)->name, c.splits);
                cr_assert_eq(gputile__gemm_slices_fit(&c, ks[i]), fits,
                             "k %ld, %s, split_k %d: %d splits", (long)ks[i], row(c)->name, split,
                             c.splits);
                cr_assert(split == 0 || c.splits <= split, "more splits than asked for");
            }
}
