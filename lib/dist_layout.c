/* SPDX-License-Identifier: MIT */
/*
 * dist_layout.c: gputile_dist_block(), which rows of a distributed matrix
 * a rank holds (issue 22). Pure arithmetic: every build has it.
 */
#include "internal.h"

gputile_status gputile_dist_block(size_t total, int ranks, int rank, size_t *offset, size_t *count)
{
    if (offset == NULL || count == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (ranks <= 0 || rank < 0 || rank >= ranks)
        return GPUTILE_ERROR_INVALID_VALUE;
    const size_t p = (size_t)ranks, r = (size_t)rank, base = total / p, extra = total % p;
    *offset = r * base + (r < extra ? r : extra);
    *count = base + (r < extra ? 1 : 0);
    return GPUTILE_SUCCESS;
}
