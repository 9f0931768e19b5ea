/* SPDX-License-Identifier: MIT */
/*
 * copy_policy.c: which method a pageable copy takes (copy_policy.h): the
 * crossover table's row for the device, read once per call from the
 * device cache (no measurement at run time: a calibration at first use
 * would cost every program tens of milliseconds and give different
 * choices from run to run on a busy host).
 */
#include "copy_policy.h"

static const gputile__copy_policy rows[] = {
#define GPUTILE__COPY_POLICY_ROW(major, h2d_bounce, h2d_staged, d2h_bounce, d2h_staged) \
    {{h2d_bounce, d2h_bounce}, {h2d_staged, d2h_staged}},
    GPUTILE__COPY_POLICY_TABLE(GPUTILE__COPY_POLICY_ROW)
#undef GPUTILE__COPY_POLICY_ROW
};
static const int majors[] = {
#define GPUTILE__COPY_POLICY_MAJOR(major, h2d_bounce, h2d_staged, d2h_bounce, d2h_staged) major,
    GPUTILE__COPY_POLICY_TABLE(GPUTILE__COPY_POLICY_MAJOR)
#undef GPUTILE__COPY_POLICY_MAJOR
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static int forced = -1; /* gputile__copy_force() */

void gputile__copy_force(int method)
{
    __atomic_store_n(&forced, method, __ATOMIC_RELAXED);
}

const gputile__copy_policy *gputile__copy_policy_for(int major)
{
    for (size_t i = 0; i + 1 < N_ROWS; ++i)
        if (majors[i] == major)
            return &rows[i];
    return &rows[N_ROWS - 1]; /* the default row */
}

size_t gputile__copy_direct_below(void)
{
    if (__atomic_load_n(&forced, __ATOMIC_RELAXED) >= 0)
        return 0;
    size_t below = SIZE_MAX;
    for (size_t i = 0; i < N_ROWS; ++i)
        for (int d = GPUTILE__COPY_H2D; d <= GPUTILE__COPY_D2H; ++d) {
            below = rows[i].bounce_from[d] < below ? rows[i].bounce_from[d] : below;
            below = rows[i].staged_from[d] < below ? rows[i].staged_from[d] : below;
        }
    return below;
}

gputile__copy_method gputile__copy_choose(const gputile__copy_policy *p, gputile__copy_dir dir,
                                          size_t bytes)
{
    int f = __atomic_load_n(&forced, __ATOMIC_RELAXED);
    /* staged first: a row may say "never bounce" (SIZE_MAX) */
    gputile__copy_method m = f >= 0                         ? (gputile__copy_method)f
                             : bytes >= p->staged_from[dir] ? GPUTILE__COPY_STAGED
                             : bytes >= p->bounce_from[dir] ? GPUTILE__COPY_BOUNCE
                                                            : GPUTILE__COPY_DIRECT;
    if (m == GPUTILE__COPY_BOUNCE && bytes > GPUTILE__BOUNCE_BYTES)
        m = GPUTILE__COPY_STAGED;
    return m;
}

gputile_status gputile__copy_crossovers(int dir, size_t *bounce_from, size_t *staged_from)
{
    const gputile__device *dev;
    gputile_status s = gputile__device_current(&dev);
    if (s != GPUTILE_SUCCESS)
        return s;
    if (dir != GPUTILE__COPY_H2D && dir != GPUTILE__COPY_D2H)
        return GPUTILE_ERROR_INVALID_VALUE;
    const gputile__copy_policy *p = gputile__copy_policy_for(dev->major);
    *bounce_from = p->bounce_from[dir];
    *staged_from = p->staged_from[dir];
    return GPUTILE_SUCCESS;
}
