/* SPDX-License-Identifier: MIT */
/*
 * histogram.c: gputile_histogram_i32(), gputile_histogram_f32(),
 * gputile_histogram_plan() and gputile_hist_tier_name(): validate, plan,
 * zero the counts (overwrite), launch, report the plan. Every argument is
 * checked before anything is written; the pure checks come before any
 * question to the device.
 */
#include <math.h>
#include <stdint.h>

#include "histogram_plan.h"

const char *gputile_hist_tier_name(int tier)
{
    switch (tier) {
    case GPUTILE_HIST_TIER_AUTO:
        return "auto";
    case GPUTILE_HIST_TIER_SHARED:
        return "shared";
    case GPUTILE_HIST_TIER_DSM:
        return "dsm";
    case GPUTILE_HIST_TIER_GLOBAL:
        return "global";
    case GPUTILE_HIST_TIER_ROUTE:
        return "route";
    case GPUTILE_HIST_TIER_SEED:
        return "seed";
    default:
        return NULL;
    }
}

/* Reads the caller's request, whatever version of the struct it knows. */
gputile_status gputile__hist_read_options(const gputile_histogram_options *o, int *tier,
                                          int *cluster)
{
    *tier = GPUTILE_HIST_TIER_AUTO;
    *cluster = 0;
    if (o == NULL)
        return GPUTILE_SUCCESS;
    if (o->size < sizeof(gputile_histogram_options))
        return GPUTILE_ERROR_INVALID_VALUE;
    if (gputile_hist_tier_name(o->tier) == NULL || o->reserved != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (o->cluster_size < 0 || o->cluster_size > 16 ||
        (o->cluster_size != 0 && o->tier != GPUTILE_HIST_TIER_DSM &&
         o->tier != GPUTILE_HIST_TIER_SEED))
        return GPUTILE_ERROR_INVALID_VALUE;
    *tier = o->tier;
    *cluster = o->cluster_size;
    return GPUTILE_SUCCESS;
}

static void report(gputile_histogram_options *o, const gputile__hist_launch *l)
{
    if (o == NULL)
        return;
    o->tier_used = l->tier;
    o->cluster_size_used = l->cluster;
    o->copies_used = l->tier == GPUTILE_HIST_TIER_GLOBAL ? 0 : 1 << l->copies_log2;
    o->bins_per_block = l->slice;
    o->blocks_used = l->blocks;
}

/* The byte range [p, p + bytes) does not wrap around the address space. */
static bool range_ok(const void *p, size_t bytes)
{
    return (uintptr_t)p <= UINTPTR_MAX - bytes;
}

/* Checks that need no device, in the order the man page lists them; the
 * samples' size and alignment are their type's (t). */
static gputile_status check_args(const gputile__hist_type *t, const void *samples, size_t n,
                                 int32_t nbins, const uint64_t *counts, gputile_hist_mode mode)
{
    if (mode != GPUTILE_HIST_OVERWRITE && mode != GPUTILE_HIST_ACCUMULATE)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (nbins <= 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (counts == NULL || (samples == NULL && n != 0))
        return GPUTILE_ERROR_NULL_POINTER;
    if ((uintptr_t)counts % sizeof(uint64_t) != 0 || (uintptr_t)samples % t->bytes != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    /* Byte offsets stay below 2^63, as for matrices. */
    if (n > (SIZE_MAX / 2) / t->bytes || !range_ok(samples, n * t->bytes) ||
        !range_ok(counts, (size_t)nbins * sizeof(uint64_t)))
        return GPUTILE_ERROR_OVERFLOW;
    if (gputile__bytes_overlap(samples, n * t->bytes, counts, (size_t)nbins * sizeof(uint64_t)))
        return GPUTILE_ERROR_ALIASING;
    return GPUTILE_SUCCESS;
}

gputile_status gputile__hist_check_samples(int type, const void *samples, size_t n)
{
    const gputile__hist_type *t = gputile__hist_type_of(type);
    if (samples == NULL && n != 0)
        return GPUTILE_ERROR_NULL_POINTER;
    if ((uintptr_t)samples % t->bytes != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (n > (SIZE_MAX / 2) / t->bytes || !range_ok(samples, n * t->bytes))
        return GPUTILE_ERROR_OVERFLOW;
    return GPUTILE_SUCCESS;
}

gputile_status gputile__hist_f32_scale(float lower, float upper, int32_t nbins, float *scale)
{
    if (!isfinite(lower) || !isfinite(upper) || !(lower < upper) || !isfinite(upper - lower))
        return GPUTILE_ERROR_INVALID_VALUE;
    *scale = nbins > 0 ? (float)((double)nbins / ((double)upper - (double)lower)) : 0.0f;
    /* A range narrower than nbins / FLT_MAX: an infinite scale would put the
     * sample at lower in no documented bin (0 * inf) and the rest in the
     * last. */
    return isfinite(*scale) ? GPUTILE_SUCCESS : GPUTILE_ERROR_INVALID_VALUE;
}

/* samples and counts must be memory the kernels can read and write. */
gputile_status gputile__hist_check_memory(const void *p)
{
    gputile_matrix view = {1, 1, 1, (float *)(uintptr_t)p};
    gputile__memory where;
    gputile_status s = gputile__memory_of(view, &where);
    if (s != GPUTILE_SUCCESS)
        return s;
    return where == GPUTILE__MEMORY_DEVICE ? GPUTILE_SUCCESS : GPUTILE_ERROR_INVALID_VALUE;
}

/* Zeroes the counts (overwrite) and launches the plan, with the scratch
 * the routed tier needs taken first: when the device has no memory for
 * it, nothing has been written. */
static gputile_status run(const gputile__hist_args *args, gputile__hist_launch *launch,
                          gputile_hist_mode mode, cudaStream_t stream)
{
    const bool scratch = args->n != 0 && launch->scratch_bytes != 0;
    cudaError_t err = cudaSuccess;
    if (scratch) {
        const gputile__device *d;
        gputile_status s = gputile__device_current(&d);
        if (s != GPUTILE_SUCCESS)
            return s;
        err =
            gputile__workspace_acquire(&launch->scratch, launch->scratch_bytes, d->ordinal, stream);
        if (err != cudaSuccess)
            return gputile__cuda_status(err);
    }
    if (mode == GPUTILE_HIST_OVERWRITE)
        err = cudaMemsetAsync(args->counts, 0, (size_t)args->nbins * sizeof(uint64_t), stream);
    if (err == cudaSuccess && args->n != 0)
        err = gputile__histogram(args, launch, stream);
    if (scratch) {
        cudaError_t release = gputile__workspace_release(launch->scratch, stream);
        if (err == cudaSuccess)
            err = release;
    }
    return gputile__cuda_status(err);
}

static gputile_status histogram(const gputile__hist_args *args, gputile_hist_mode mode,
                                cudaStream_t stream, gputile_histogram_options *options)
{
    int tier, cluster;
    gputile_status s;
    if ((s = gputile__hist_read_options(options, &tier, &cluster)) != GPUTILE_SUCCESS ||
        (s = check_args(gputile__hist_type_of(args->type), args->samples, (size_t)args->n,
                        args->nbins, args->counts, mode)) != GPUTILE_SUCCESS)
        return s;
    if ((s = gputile__hist_check_memory(args->counts)) != GPUTILE_SUCCESS ||
        (args->n != 0 && (s = gputile__hist_check_memory(args->samples)) != GPUTILE_SUCCESS))
        return s;

    gputile__hist_launch launch;
    /* n = 0 plans as for a large input, so the plan matches the query's. */
    if ((s = gputile__hist_plan(args->nbins, args->type, args->n, tier, cluster, &launch)) !=
        GPUTILE_SUCCESS)
        return s;

    if ((s = run(args, &launch, mode, stream)) != GPUTILE_SUCCESS)
        return s;
    report(options, &launch);
    return GPUTILE_SUCCESS;
}

gputile_status gputile_histogram_i32(const int32_t *samples, size_t n, int32_t nbins,
                                     uint64_t *counts, gputile_hist_mode mode,
                                     struct CUstream_st *stream, gputile_histogram_options *options)
{
    gputile__hist_args args = {
        .samples = samples,
        .n = n,
        .type = GPUTILE__HIST_SAMPLE_INT32,
        .nbins = nbins,
        .counts = counts,
    };
    return histogram(&args, mode, stream, options);
}

gputile_status gputile_histogram_f32(const float *samples, size_t n, float lower, float upper,
                                     int32_t nbins, uint64_t *counts, gputile_hist_mode mode,
                                     struct CUstream_st *stream, gputile_histogram_options *options)
{
    /* Bounds first among the value checks: they are this call's own. */
    float scale;
    gputile_status s = gputile__hist_f32_scale(lower, upper, nbins, &scale);
    if (s != GPUTILE_SUCCESS)
        return s;
    gputile__hist_args args = {
        .samples = samples,
        .n = n,
        .type = GPUTILE__HIST_SAMPLE_FLOAT,
        .nbins = nbins,
        .counts = counts,
        .lower = lower,
        .upper = upper,
        .scale = scale,
    };
    return histogram(&args, mode, stream, options);
}

gputile_status gputile_histogram_plan(int32_t nbins, gputile_histogram_options *options)
{
    int tier, cluster;
    gputile_status s;
    if (options == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if ((s = gputile__hist_read_options(options, &tier, &cluster)) != GPUTILE_SUCCESS)
        return s;
    if (nbins <= 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    gputile__hist_launch launch;
    /* No sample type to go by: planned for INT32 samples, as ever (the
     * rows of today's types have the same vector width and their kernels
     * the same occupancy, so every type gets this plan). */
    if ((s = gputile__hist_plan(nbins, GPUTILE__HIST_SAMPLE_INT32, 0, tier, cluster, &launch)) !=
        GPUTILE_SUCCESS)
        return s;
    report(options, &launch);
    return GPUTILE_SUCCESS;
}
