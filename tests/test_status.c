/* SPDX-License-Identifier: MIT */
/*
 * test_status.c (CPU): status texts and names from the one table, the
 * per-thread CUDA error, versions, algorithm names.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gputile.h"

Test(status, every_code_has_text_and_name)
{
    for (int s = 0; s < GPUTILE_STATUS_END_; ++s) {
        cr_assert_str_neq(gputile_strerror(s), "unknown status", "code %d has no text", s);
        cr_assert(strncmp(gputile_status_name(s), "GPUTILE_", 8) == 0, "code %d: %s", s,
                  gputile_status_name(s));
        for (int t = 0; t < s; ++t) {
            cr_assert_str_neq(gputile_strerror(s), gputile_strerror(t), "codes %d and %d", s, t);
            cr_assert_str_neq(gputile_status_name(s), gputile_status_name(t));
        }
    }
}

Test(status, names_match_the_enum)
{
    cr_assert_str_eq(gputile_status_name(GPUTILE_SUCCESS), "GPUTILE_SUCCESS");
    cr_assert_eq(GPUTILE_SUCCESS, 0);
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_NULL_POINTER), "GPUTILE_ERROR_NULL_POINTER");
    cr_assert_str_eq(gputile_status_name(GPUTILE_ERROR_WRONG_DEVICE), "GPUTILE_ERROR_WRONG_DEVICE");
    cr_assert_str_eq(gputile_strerror(GPUTILE_SUCCESS), "success");
}

Test(status, unknown_codes)
{
    const int bad[] = {-1, GPUTILE_STATUS_END_, 1000, -2147483647 - 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cr_assert_str_eq(gputile_strerror(bad[i]), "unknown status");
        cr_assert_str_eq(gputile_status_name(bad[i]), "GPUTILE_UNKNOWN");
    }
}

Test(status, no_cuda_error_before_a_failure)
{
    cr_assert_eq(gputile_last_cuda_error(), 0);
    cr_assert_str_eq(gputile_last_cuda_error_name(), "cudaSuccess");
}

Test(status, cuda_error_is_kept_per_thread)
{
    /* A call that reaches the driver: NO_DEVICE here records the CUDA error;
     * on a GPU machine the call succeeds and records nothing. */
    float x = 1.0f, y = 1.0f, z = 0.0f;
    gputile_matrix a = {1, 1, 1, &x}, b = {1, 1, 1, &y}, c = {1, 1, 1, &z};
    gputile_status s = gputile_matmul(a, b, c);
    if (s == GPUTILE_SUCCESS) {
        cr_assert_eq(z, 1.0f);
        cr_assert_eq(gputile_last_cuda_error(), 0);
    } else {
        cr_assert_eq(s, GPUTILE_ERROR_NO_DEVICE, "%s", gputile_status_name(s));
        cr_assert_neq(gputile_last_cuda_error(), 0);
        cr_assert_str_neq(gputile_last_cuda_error_name(), "cudaSuccess");
        cr_assert_eq(z, 0.0f, "C written on error");
    }
}

/* A call that fails in CUDA on any machine: a pointer no allocation has
 * (GPUTILE_ERROR_CUDA with a device, NO_DEVICE without one). */
static gputile_status failing_call(void)
{
    return gputile_device_free((void *)(uintptr_t)16);
}

static void *fail_in_a_thread(void *arg)
{
    int *seen = arg;
    seen[0] = gputile_last_cuda_error(); /* before its own failure */
    seen[1] = failing_call() != GPUTILE_SUCCESS;
    seen[2] = gputile_last_cuda_error();
    return NULL;
}

/* seen[] of fail_in_a_thread, run in a new thread and waited for. */
static void fail_in_a_new_thread(int seen[3])
{
    pthread_t t;
    seen[0] = seen[1] = seen[2] = -1;
    cr_assert_eq(pthread_create(&t, NULL, fail_in_a_thread, seen), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
}

Test(status, cuda_error_is_not_seen_by_other_threads)
{
    /* A thread's failure is its own: another thread's error is not seen
     * before or after it (the status is kept per thread, not per process). */
    int seen[3];
    cr_assert_eq(gputile_last_cuda_error(), 0);
    fail_in_a_new_thread(seen);
    cr_assert_eq(seen[0], 0, "a new thread saw an error before any call");
    cr_assert(seen[1], "the call that should fail succeeded");
    cr_assert_neq(seen[2], 0, "the failing thread recorded no CUDA error");
    cr_assert_eq(gputile_last_cuda_error(), 0, "another thread's error is seen here");
    cr_assert_neq(failing_call(), GPUTILE_SUCCESS);
    const int mine = gputile_last_cuda_error();
    cr_assert_neq(mine, 0);
    fail_in_a_new_thread(seen);
    cr_assert_eq(seen[0], 0, "this thread's error is seen in a new thread");
    cr_assert_eq(gputile_last_cuda_error(), mine);
}

Test(version, header_matches_library)
{
    cr_assert_eq(gputile_version(), (unsigned)GPUTILE_VERSION_HEX);
    cr_assert_str_eq(gputile_version_string(), GPUTILE_VERSION_STRING);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", GPUTILE_VERSION_MAJOR, GPUTILE_VERSION_MINOR,
             GPUTILE_VERSION_PATCH);
    cr_assert_str_eq(gputile_version_string(), expect);
}

Test(gemm, algorithm_names)
{
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_AUTO), "auto");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_NAIVE), "naive");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_TILED), "tiled");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_128), "regblock128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_64), "regblock64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_128_W64), "regblock128w64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_128X256), "regblock128x256");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_64X128), "regblock64x128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_REGBLOCK_64X128_X3), "regblock64x128x3");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_128X128), "async128x128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_128X256), "async128x256");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_64X128), "async64x128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_128X64), "async128x64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_64X64), "async64x64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_128X32), "async128x32");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_32X128), "async32x128");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_64X64_W8), "async64x64w8");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_8X64), "batched8x64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_64X8), "batched64x8");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_64X32), "async64x32");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_ASYNC_32X64), "async32x64");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_8X32), "batched8x32");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_32X8), "batched32x8");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_16_KSPLIT), "batched16k");
    cr_assert_str_eq(gputile_algorithm_name(GPUTILE_ALGO_BATCHED_32_KSPLIT), "batched32k");
    cr_assert_null(gputile_algorithm_name(-1));
    cr_assert_null(gputile_algorithm_name(9999));
}

/* The whole file $top_srcdir/path, NUL-terminated (freed by the caller). */
static char *read_source(const char *path)
{
    const char *top = getenv("top_srcdir");
    char name[4096];
    if (top == NULL)
        cr_skip_test("top_srcdir is not set (make check sets it)");
    snprintf(name, sizeof name, "%s/%s", top, path);
    FILE *f = fopen(name, "rb");
    cr_assert_not_null(f, "cannot open %s", name);
    char *text = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (cap - n < 4096) {
            cap = cap * 2 + 4096;
            text = realloc(text, cap);
            cr_assert_not_null(text);
        }
        got = fread(text + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* Every name gputile_algorithm_name() knows is in the lists that people read:
 * the comment on it in gputile.h, the README's API table, gputile_gemm(3). */
Test(gemm, algorithm_names_documented)
{
    static const struct {
        const char *path, *before, *after;
    } docs[] = {
        {"include/gputile.h", "\"", "\""},
        {"README.md", "`", "`"},
        {"man/man3/gputile_matmul.3", "\\(dq ", " \\(dq"},
    };
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; ++d) {
        char *text = read_source(docs[d].path);
        for (int a = 0; a < 256; ++a) {
            const char *name = gputile_algorithm_name(a);
            if (name == NULL)
                continue;
            char quoted[128];
            snprintf(quoted, sizeof quoted, "%s%s%s", docs[d].before, name, docs[d].after);
            cr_expect_not_null(strstr(text, quoted), "%s does not name algorithm %d as %s",
                               docs[d].path, a, quoted);
        }
        free(text);
    }
}
