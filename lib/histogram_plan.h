/*
 * histogram_plan.h: the histogram planner's interface to lib/histogram.c
 * (internal).
 */
#ifndef GPUTILE_HISTOGRAM_PLAN_H
#define GPUTILE_HISTOGRAM_PLAN_H

#include <stdint.h>

#include "internal.h"
#include "../kernels/histogram.h"

/* Picks the tier and launch shape for nbins (>= 1) bins and n samples (0:
 * plan as for a large input) on the current device. tier and cluster are
 * the caller's request (GPUTILE_HIST_TIER_AUTO and 0 for the planner's
 * choice), already checked for range. GPUTILE_ERROR_UNSUPPORTED when the
 * requested tier or cluster size cannot hold nbins on this device. */
gputile_status gputile__hist_plan(int32_t nbins, int is_float, uint64_t n, int tier, int cluster,
                                  gputile__hist_launch *out);

#endif /* GPUTILE_HISTOGRAM_PLAN_H */
