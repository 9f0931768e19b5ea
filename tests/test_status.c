/* SPDX-License-Identifier: MIT */
/*
 * test_status.c (CPU): status texts and names from the one table, the
 * per-thread CUDA error, versions, algorithm names.
 */
#include <stdio.h>
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
    cr_assert_null(gputile_algorithm_name(-1));
    cr_assert_null(gputile_algorithm_name(9999));
}
