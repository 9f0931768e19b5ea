/* SPDX-License-Identifier: MIT */
/*
 * histogram_plan.h: the histogram's sample-type descriptors and planner,
 * for lib/histogram.c (internal).
 */
#ifndef GPUTILE_HISTOGRAM_PLAN_H
#define GPUTILE_HISTOGRAM_PLAN_H

#include <stdint.h>

#include "internal.h"
#include "../kernels/histogram.h"

/* What lib/ knows of a sample type: its row of GPUTILE__HIST_SAMPLE_TYPES
 * (kernels/histogram.h) and the limits that follow from it. */
typedef struct gputile__hist_type {
    size_t bytes;                /* one sample; samples are aligned to it */
    uint32_t per_vec;            /* samples per 16-byte vector load */
    uint32_t max_vec_per_group;  /* GPUTILE__HIST_MAX_VEC_PER_GROUP(per_vec) */
    uint32_t max_vec_per_launch; /* GPUTILE__HIST_MAX_VEC_PER_LAUNCH */
} gputile__hist_type;

/* The descriptor of sample type `type` (a gputile__hist_sample). */
const gputile__hist_type *gputile__hist_type_of(int type);

/* Picks the tier and launch shape for nbins (>= 1) bins and n samples (0:
 * plan as for a large input) of sample type `type` on the current device.
 * tier and cluster are the caller's request (GPUTILE_HIST_TIER_AUTO and 0
 * for the planner's choice), already checked for range.
 * GPUTILE_ERROR_UNSUPPORTED when the requested tier or cluster size cannot
 * hold nbins on this device. */
gputile_status gputile__hist_plan(int32_t nbins, int type, uint64_t n, int tier, int cluster,
                                  gputile__hist_launch *out);

/* lib/histogram.c, shared with lib/histogram_image.c: the request in
 * *o (NULL: defaults), checked; and whether p is memory of the current
 * device the kernels can use (INVALID_VALUE for host memory). */
gputile_status gputile__hist_read_options(const gputile_histogram_options *o, int *tier,
                                          int *cluster);
gputile_status gputile__hist_check_memory(const void *p);
/* The checks of a histogram call's samples that need no device: NULL with
 * n > 0 (NULL_POINTER), misaligned for the sample type (INVALID_VALUE),
 * past the end of the address space (OVERFLOW). type: a
 * GPUTILE__HIST_SAMPLE_*. */
gputile_status gputile__hist_check_samples(int type, const void *samples, size_t n);
/* Float bins' bounds (finite, lower < upper, a finite range) and their
 * scale nbins / (upper - lower), which must be finite: INVALID_VALUE. */
gputile_status gputile__hist_f32_scale(float lower, float upper, int32_t nbins, float *scale);

#endif /* GPUTILE_HISTOGRAM_PLAN_H */
