/* SPDX-License-Identifier: MIT */
/*
 * expect.h: assertions on gputile statuses that name the call, the status
 * and, for OK, the CUDA error behind a failure.
 */
#ifndef GPUTILE_TEST_EXPECT_H
#define GPUTILE_TEST_EXPECT_H

#include <criterion/criterion.h>

#include "gputile.h"

#define OK(call)                                                                         \
    do {                                                                                 \
        gputile_status s_ = (call);                                                      \
        cr_assert_eq(s_, GPUTILE_SUCCESS, "%s: %s (%s)", #call, gputile_status_name(s_), \
                     gputile_last_cuda_error_name());                                    \
    } while (0)

#define EXPECT(call, status)                                                              \
    do {                                                                                  \
        gputile_status s_ = (call);                                                       \
        cr_assert_eq(s_, (status), "%s: %s, expected %s", #call, gputile_status_name(s_), \
                     gputile_status_name(status));                                        \
    } while (0)

#endif
