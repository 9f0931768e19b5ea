/* SPDX-License-Identifier: MIT */
/*
 * test_validation.c (CPU): every bad input to gputile_gemm(),
 * gputile_matmul(), gputile_matrix_copy() and the device allocator returns
 * its status before touching memory. Runs with or without a GPU: arguments
 * are checked before the device is asked anything.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>

#include "gputile.h"
#include "gputile_facade.h"

#define ROWS 8
#define STRIDE 8
static float a_mem[ROWS * STRIDE], b_mem[ROWS * STRIDE], c_mem[ROWS * STRIDE];
static float c_before[ROWS * STRIDE];

static void init(void)
{
    for (int i = 0; i < ROWS * STRIDE; ++i) {
        a_mem[i] = (float)(i % 5);
        b_mem[i] = (float)(i % 3);
        c_mem[i] = -7.0f;
    }
    memcpy(c_before, c_mem, sizeof c_mem);
}

static void assert_c_untouched(void)
{
    cr_assert(memcmp(c_mem, c_before, sizeof c_mem) == 0, "C written on error");
}

static gputile_matrix mat(float *p, size_t w, size_t h, size_t s)
{
    return gputile_matrix_view(p, w, h, s);
}

static bool have_device(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

struct bad_gemm {
    const char *what;
    gputile_op ta, tb;
    gputile_matrix a, b, c;
    gputile_status expect;
};

Test(validation, gemm_bad_inputs, .init = init)
{
    float *A = a_mem, *B = b_mem, *C = c_mem;
    const struct bad_gemm cases[] = {
        {"A NULL", 0, 0, mat(NULL, 4, 4, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_NULL_POINTER},
        {"B NULL", 0, 0, mat(A, 4, 4, 4), mat(NULL, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_NULL_POINTER},
        {"C NULL", 0, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 4), mat(NULL, 4, 4, 4),
         GPUTILE_ERROR_NULL_POINTER},
        {"A stride < width", 0, 0, mat(A, 4, 4, 3), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_INVALID_MATRIX},
        {"B stride < width", 0, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 0), mat(C, 4, 4, 4),
         GPUTILE_ERROR_INVALID_MATRIX},
        {"C stride < width", 0, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 2),
         GPUTILE_ERROR_INVALID_MATRIX},
        {"empty C, stride < width", 0, 0, mat(A, 4, 0, 4), mat(B, 4, 4, 4), mat(C, 4, 0, 2),
         GPUTILE_ERROR_INVALID_MATRIX},
        {"inner sizes differ", 0, 0, mat(A, 3, 4, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_SHAPE_MISMATCH},
        {"C height != A height", 0, 0, mat(A, 4, 3, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_SHAPE_MISMATCH},
        {"C width != B width", 0, 0, mat(A, 4, 4, 4), mat(B, 3, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_SHAPE_MISMATCH},
        {"op(A) = A^T mismatched", GPUTILE_OP_T, 0, mat(A, 4, 3, 4), mat(B, 4, 4, 4),
         mat(C, 4, 4, 4), GPUTILE_ERROR_SHAPE_MISMATCH},
        {"op(B) = B^T mismatched", 0, GPUTILE_OP_T, mat(A, 4, 4, 4), mat(B, 3, 4, 4),
         mat(C, 4, 4, 4), GPUTILE_ERROR_SHAPE_MISMATCH},
        {"transpose code 2", 2, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_INVALID_VALUE},
        {"transpose code -1", 0, (gputile_op)-1, mat(A, 4, 4, 4), mat(B, 4, 4, 4), mat(C, 4, 4, 4),
         GPUTILE_ERROR_INVALID_VALUE},
        {"C is A", 0, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 4), mat(A, 4, 4, 4), GPUTILE_ERROR_ALIASING},
        {"C overlaps B by one element", 0, 0, mat(A, 4, 4, 4), mat(B, 4, 4, 4),
         mat(B + 15, 4, 4, 4), GPUTILE_ERROR_ALIASING},
        {"C interleaves A, sharing elements", 0, 0, mat(A, 4, 4, 8), mat(B, 4, 4, 4),
         mat(A + 3, 4, 4, 8), GPUTILE_ERROR_ALIASING},
        {"C under A, different strides", 0, 0, mat(A, 2, 2, 8), mat(B, 2, 2, 2),
         mat(A + 4, 2, 2, 3), GPUTILE_ERROR_ALIASING},
        {"extent overflows size_t", 0, 0, mat(A, 4, SIZE_MAX / 4, 4), mat(B, 4, 4, 4),
         mat(C, 4, SIZE_MAX / 4, 4), GPUTILE_ERROR_OVERFLOW},
        {"bytes overflow size_t", 0, 0, mat(A, 1, 2, SIZE_MAX / 2), mat(B, 1, 1, 1),
         mat(C, 1, 2, 1), GPUTILE_ERROR_OVERFLOW},
        {"extent wraps the address space", 0, 0, mat(A, 4, 4, 4),
         mat((float *)(UINTPTR_MAX - 15), 4, 4, 4), mat(C, 4, 4, 4), GPUTILE_ERROR_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gputile_gemm_options opt = GPUTILE_GEMM_OPTIONS_INIT;
        opt.algorithm_used = -5;
        gputile_status s = gputile_gemm(cases[i].ta, cases[i].tb, 1.0f, cases[i].a, cases[i].b,
                                        0.0f, cases[i].c, NULL, &opt);
        cr_expect_eq(s, cases[i].expect, "%s: got %s, expected %s", cases[i].what,
                     gputile_status_name(s), gputile_status_name(cases[i].expect));
        cr_expect_eq(opt.algorithm_used, -5, "%s: options written on error", cases[i].what);
        assert_c_untouched();
    }
}

Test(validation, gemm_views_side_by_side_are_not_aliasing, .init = init)
{
    /* C is the right half of the parent that holds A on the left: same
     * stride, interleaved rows, no shared element. */
    gputile_matrix a = mat(a_mem, 4, 4, 8), c = mat(a_mem + 4, 4, 4, 8), b = mat(b_mem, 4, 4, 4);
    gputile_status s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, b, 0.0f, c, NULL, NULL);
    cr_assert(s == GPUTILE_SUCCESS || (s == GPUTILE_ERROR_NO_DEVICE && !have_device()), "%s",
              gputile_status_name(s));
}

Test(validation, gemm_bad_options, .init = init)
{
    gputile_matrix a = mat(a_mem, 4, 4, 4), b = mat(b_mem, 4, 4, 4), c = mat(c_mem, 4, 4, 4);
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    const gputile_gemm_options good = o;

    o.size = sizeof o - 1;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE, "size");
    o = good;
    o.size = 0;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "size 0");
    o = good;
    o.algorithm = 99;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "algorithm");
    o = good;
    o.algorithm = -1;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "algorithm");
    o = good;
    o.precision = 7;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "precision");
    o = good;
    o.split_k = -1;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "split_k < 0");
    o = good;
    o.split_k = GPUTILE_MAX_SPLIT_K + 1;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "split_k too large");
    o = good;
    o.algorithm = GPUTILE_ALGO_TILED;
    o.split_k = 2;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "tiled does not split k");
    o = good;
    o.reserved = 1;
    cr_expect_eq(gputile_gemm(0, 0, 1, a, b, 0, c, NULL, &o), GPUTILE_ERROR_INVALID_VALUE,
                 "reserved");
    assert_c_untouched();
}

Test(validation, empty_work_needs_no_device, .init = init)
{
    /* m = 0 or n = 0: BLAS says no-op; checked, then done, with no device. */
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    cr_assert_eq(gputile_gemm(0, 0, 1, mat(NULL, 4, 0, 4), mat(b_mem, 4, 4, 4), 1,
                              mat(NULL, 4, 0, 4), NULL, &o),
                 GPUTILE_SUCCESS);
    cr_assert(gputile_algorithm_name(o.algorithm_used) != NULL &&
                  o.algorithm_used != GPUTILE_ALGO_AUTO,
              "algorithm_used %d", o.algorithm_used);
    cr_assert_eq(o.split_k_used, 1);
    cr_assert_eq(gputile_matmul(mat(a_mem, 4, 4, 4), mat(NULL, 0, 4, 0), mat(c_mem, 0, 4, 0)),
                 GPUTILE_SUCCESS);
    assert_c_untouched();
}

Test(validation, empty_work_with_any_k, .init = init)
{
    /* An empty product may name any k (A is 0 x k, B is k x 0): the plan it
     * reports must not overflow (UBSan in CI's sanitizer build; the fuzzer
     * found k near 2^63). Every algorithm, every kind of split request. */
    const size_t ks[] = {(size_t)INT64_MAX / 2 + 3, (size_t)INT64_MAX - 1, (size_t)INT64_MAX,
                         SIZE_MAX - 1, SIZE_MAX};
    const int32_t splits[] = {0, 1, 7, GPUTILE_MAX_SPLIT_K};
    int ran = 0;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
        for (int32_t algo = GPUTILE_ALGO_AUTO; algo < 64; ++algo) {
            if (algo != GPUTILE_ALGO_AUTO && gputile_algorithm_name(algo) == NULL)
                continue;
            for (size_t j = 0; j < sizeof splits / sizeof splits[0]; ++j) {
                gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
                o.algorithm = algo;
                o.split_k = splits[j];
                gputile_status s =
                    gputile_gemm(0, 0, 1, mat(NULL, ks[i], 0, ks[i]), mat(NULL, 0, ks[i], 0), 1,
                                 mat(NULL, 0, 0, 0), NULL, &o);
                if (s != GPUTILE_SUCCESS) /* an algorithm of another precision */
                    continue;
                ++ran;
                cr_assert(o.split_k_used >= 1 && o.split_k_used <= GPUTILE_MAX_SPLIT_K &&
                              (splits[j] == 0 || o.split_k_used <= splits[j]),
                          "k %zu algorithm %d split %d: split_k_used %d", ks[i], algo, splits[j],
                          o.split_k_used);
            }
        }
    cr_assert_gt(ran, 0);
    assert_c_untouched();
}

Test(validation, one_row_views_with_any_stride, .init = init)
{
    /* A one-row view may have any stride >= its width, past INT64_MAX too
     * (the fuzzer: such views sharing elements were let through to the
     * device). Overlap is then a matter of columns. */
    const size_t strides[] = {64, (size_t)INT64_MAX, (size_t)INT64_MAX + 1, SIZE_MAX - 1, SIZE_MAX};
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; ++i) {
        const size_t st = strides[i];
        gputile_matrix x = mat(c_mem + 8, 30, 1, st);
        cr_expect_eq(gputile_matrix_copy(x, mat(c_mem + 37, 30, 1, st), NULL),
                     GPUTILE_ERROR_ALIASING, "stride %zu, last column shared", st);
        cr_expect_eq(gputile_matrix_copy(mat(c_mem + 37, 30, 1, st), x, NULL),
                     GPUTILE_ERROR_ALIASING, "stride %zu, first column shared", st);
        cr_expect_eq(gputile_gemm(0, 0, 1, mat(c_mem + 20, 4, 1, st), mat(b_mem, 30, 4, 30), 0, x,
                                  NULL, NULL),
                     GPUTILE_ERROR_ALIASING, "stride %zu, A inside C", st);
        /* side by side: not aliasing (the copy may run: a buffer of its own) */
        float row[80] = {0};
        gputile_status s =
            gputile_matrix_copy(mat(row + 38, 30, 1, st), mat(row + 8, 30, 1, st), NULL);
        cr_expect(s != GPUTILE_ERROR_ALIASING, "stride %zu: %s", st, gputile_status_name(s));
    }
    assert_c_untouched();
}

Test(validation, valid_call_after_errors, .init = init)
{
    gputile_matrix a = mat(a_mem, 4, 4, 4), b = mat(b_mem, 4, 4, 4), c = mat(c_mem, 4, 4, 4);
    cr_assert_eq(gputile_matmul(a, b, mat(NULL, 4, 4, 4)), GPUTILE_ERROR_NULL_POINTER);
    cr_assert_eq(gputile_matmul(a, b, a), GPUTILE_ERROR_ALIASING);
    gputile_status s = gputile_matmul(a, b, c);
    if (!have_device()) {
        cr_assert_eq(s, GPUTILE_ERROR_NO_DEVICE, "%s", gputile_status_name(s));
        assert_c_untouched();
        return;
    }
    cr_assert_eq(s, GPUTILE_SUCCESS, "%s", gputile_status_name(s));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            float want = 0;
            for (int q = 0; q < 4; ++q)
                want += a_mem[i * 4 + q] * b_mem[q * 4 + j];
            cr_assert_eq(c_mem[i * 4 + j], want);
        }
}

Test(validation, matrix_copy_bad_inputs, .init = init)
{
    float *A = a_mem, *C = c_mem;
    cr_expect_eq(gputile_matrix_copy(mat(NULL, 4, 4, 4), mat(A, 4, 4, 4), NULL),
                 GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(gputile_matrix_copy(mat(C, 4, 4, 4), mat(NULL, 4, 4, 4), NULL),
                 GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(gputile_matrix_copy(mat(C, 4, 4, 3), mat(A, 4, 4, 4), NULL),
                 GPUTILE_ERROR_INVALID_MATRIX);
    cr_expect_eq(gputile_matrix_copy(mat(C, 4, 4, 4), mat(A, 3, 4, 4), NULL),
                 GPUTILE_ERROR_SHAPE_MISMATCH);
    cr_expect_eq(gputile_matrix_copy(mat(C, 4, 4, 4), mat(C + 2, 4, 4, 4), NULL),
                 GPUTILE_ERROR_ALIASING);
    cr_expect_eq(gputile_matrix_copy(mat(C, 1, 2, SIZE_MAX / 2), mat(A, 1, 2, 1), NULL),
                 GPUTILE_ERROR_OVERFLOW);
    cr_expect_eq(gputile_matrix_copy(mat(NULL, 0, 4, 4), mat(NULL, 0, 4, 4), NULL),
                 GPUTILE_SUCCESS);
    assert_c_untouched();
}

Test(validation, device_alloc_bad_inputs)
{
    void *p = (void *)&p;
    void **volatile no_out = NULL; /* NULL the compiler cannot see: the argument is nonnull */
    cr_expect_eq(gputile_device_alloc(no_out, 16), GPUTILE_ERROR_NULL_POINTER);
    cr_expect_eq(gputile_device_alloc(&p, 0), GPUTILE_ERROR_INVALID_VALUE);
    cr_expect_eq(p, (void *)&p, "pointer written on error");
    cr_expect_eq(gputile_device_free(NULL), GPUTILE_SUCCESS);
    if (!have_device()) {
        cr_expect_eq(gputile_device_alloc(&p, 16), GPUTILE_ERROR_NO_DEVICE);
        cr_expect_eq(p, (void *)&p, "pointer written on error");
    }
}

/* The library's overlap test (lib/matrix.c), against the elements shared. */
bool gputile__overlap(gputile_matrix x, gputile_matrix y);

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

Test(validation, overlap_is_exact_for_any_strides)
{
    static float buf[1024];
    uint32_t st = 12345;
    int shared_seen = 0, interleaved_seen = 0;
    for (int t = 0; t < 200000; ++t) {
        gputile_matrix m[2];
        uint8_t mark[1024] = {0};
        for (int k = 0; k < 2; ++k) {
            const size_t w = 1 + lcg(&st) % 12, h = 1 + lcg(&st) % 12;
            size_t s = w + lcg(&st) % 14;
            if (h == 1 && lcg(&st) % 4 == 0)
                s = lcg(&st) % 2 ? SIZE_MAX / 8 : w + 1000; /* one row: any stride */
            m[k] = gputile_matrix_view(buf + lcg(&st) % 300, w, h, s);
        }
        bool shared = false;
        for (int k = 0; k < 2; ++k)
            for (size_t r = 0; r < m[k].height; ++r)
                for (size_t c = 0; c < m[k].width; ++c) {
                    const size_t e = (size_t)(m[k].elements - buf) + r * m[k].stride + c;
                    if (k == 0)
                        mark[e] = 1;
                    else
                        shared = shared || mark[e];
                }
        interleaved_seen += !shared && m[0].stride != m[1].stride && m[0].height > 1 &&
                            m[1].height > 1 && m[0].elements < m[1].elements + 12 * m[1].stride &&
                            m[1].elements < m[0].elements + 12 * m[0].stride;
        shared_seen += shared;
        cr_assert_eq(gputile__overlap(m[0], m[1]), shared,
                     "%zux%zu stride %zu at %td, %zux%zu stride %zu at %td: shared %d", m[0].width,
                     m[0].height, m[0].stride, m[0].elements - buf, m[1].width, m[1].height,
                     m[1].stride, m[1].elements - buf, (int)shared);
        cr_assert_eq(gputile__overlap(m[1], m[0]), shared);
    }
    cr_expect_gt(shared_seen, 1000);
    cr_expect_gt(interleaved_seen, 1000);
}

Test(validation, gemm_views_of_different_strides_that_interleave, .init = init)
{
    /* A: column 0 of a parent 8 wide (elements 0, 8, 16, 24). */
    const gputile_matrix a = mat(a_mem, 1, 4, 8);
    /* C, 4 x 2 of stride 4 at elements 2-3, 6-7, 10-11, 14-15: inside A's
     * range, no element of A. */
    gputile_status s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, mat(b_mem, 2, 1, 2), 0.0f,
                                    mat(a_mem + 2, 2, 4, 4), NULL, NULL);
    cr_expect(s == GPUTILE_SUCCESS || (s == GPUTILE_ERROR_NO_DEVICE && !have_device()),
              "4 x 2 C beside A's column: %s", gputile_status_name(s));
    /* C, one row at elements 2-3 (its stride is never used), A^T 1 x 4. */
    s = gputile_gemm(GPUTILE_OP_T, GPUTILE_OP_N, 1.0f, a, mat(b_mem, 2, 4, 2), 0.0f,
                     mat(a_mem + 2, 2, 1, 2), NULL, NULL);
    cr_expect(s == GPUTILE_SUCCESS || (s == GPUTILE_ERROR_NO_DEVICE && !have_device()),
              "one-row C beside A's column: %s", gputile_status_name(s));
    /* and with element 8 in both: refused */
    init();
    float before[ROWS * STRIDE];
    memcpy(before, a_mem, sizeof before);
    s = gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, mat(b_mem, 2, 1, 2), 0.0f,
                     mat(a_mem + 8, 2, 4, 4), NULL, NULL);
    cr_expect_eq(s, GPUTILE_ERROR_ALIASING, "%s", gputile_status_name(s));
    cr_expect(memcmp(before, a_mem, sizeof before) == 0, "C written on error");
}

Test(validation, batched_calls_ignore_split_k, .init = init)
{
    /* split_k is not used by batches (gputile_gemm_batched(3)): any value
     * in range passes with a batch kernel, which takes no split. */
    if (have_device())
        cr_skip_test("host memory with a device: the memory check answers first");
    const int algorithms[] = {GPUTILE_ALGO_AUTO, GPUTILE_ALGO_BATCHED_16, GPUTILE_ALGO_BATCHED_32};
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; ++i)
        for (int split = 0; split <= GPUTILE_MAX_SPLIT_K; split += 3) {
            gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
            o.algorithm = algorithms[i];
            o.split_k = split;
            gputile_matrix a = mat(a_mem, 4, 4, 4), b = mat(b_mem, 4, 4, 4),
                           c = mat(c_mem, 4, 4, 4);
            gputile_status s = gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, a, 16,
                                                            b, 16, 0.0f, c, 16, 2, NULL, &o);
            cr_expect_eq(s, GPUTILE_ERROR_NO_DEVICE, "strided, algorithm %d, split_k %d: %s",
                         algorithms[i], split, gputile_status_name(s));
            s = gputile_gemm_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, &a, &b, 0.0f, &c, 1, NULL,
                                     &o);
            cr_expect_eq(s, GPUTILE_ERROR_NO_DEVICE, "views, algorithm %d, split_k %d: %s",
                         algorithms[i], split, gputile_status_name(s));
        }
    /* still range checked */
    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    o.split_k = GPUTILE_MAX_SPLIT_K + 1;
    cr_expect_eq(gputile_gemm_strided_batched(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, mat(a_mem, 4, 4, 4),
                                              16, mat(b_mem, 4, 4, 4), 16, 0.0f,
                                              mat(c_mem, 4, 4, 4), 16, 2, NULL, &o),
                 GPUTILE_ERROR_INVALID_VALUE);
    assert_c_untouched();
}
