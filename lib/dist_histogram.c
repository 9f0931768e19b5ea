/* SPDX-License-Identifier: MIT */
/*
 * dist_histogram.c: gputile_dist_histogram_i32(), _f32() and
 * gputile_dist_histogram_reduce() (issue 22): each rank's local histogram
 * from the library's own histogram calls, then the counts summed with
 * NCCL (ncclAllReduce, or ncclReduce to one root, ncclUint64 sum).
 *
 * A sample type joins with one local_hist run function (a call of its
 * gputile_histogram_* entry point into the scratch counts) and a public
 * wrapper that fills a local_hist: the checks, the scratch and the
 * reduction are shared.
 *
 * The local histogram always goes to stream-ordered scratch, so that the
 * caller's counts are written only by the reduction (and left alone on the
 * ranks that receive nothing); ACCUMULATE reduces in place in the scratch
 * and adds it to counts (kernels/counts_add.cu).
 */
#include "dist.h"

#ifndef GPUTILE_WITH_NCCL

gputile_status gputile_dist_histogram_i32(const int32_t *samples, size_t n, int32_t nbins,
                                          uint64_t *counts, gputile_hist_mode mode, int root,
                                          void *comm, struct CUstream_st *stream,
                                          gputile_histogram_options *options)
{
    (void)samples, (void)n, (void)nbins, (void)counts, (void)mode, (void)root, (void)comm;
    (void)stream, (void)options;
    return GPUTILE_ERROR_UNSUPPORTED;
}

gputile_status gputile_dist_histogram_f32(const float *samples, size_t n, float lower, float upper,
                                          int32_t nbins, uint64_t *counts, gputile_hist_mode mode,
                                          int root, void *comm, struct CUstream_st *stream,
                                          gputile_histogram_options *options)
{
    (void)samples, (void)n, (void)lower, (void)upper, (void)nbins, (void)counts, (void)mode;
    (void)root, (void)comm, (void)stream, (void)options;
    return GPUTILE_ERROR_UNSUPPORTED;
}

gputile_status gputile_dist_histogram_reduce(const uint64_t *local, int32_t nbins, uint64_t *counts,
                                             gputile_hist_mode mode, int root, void *comm,
                                             struct CUstream_st *stream)
{
    (void)local, (void)nbins, (void)counts, (void)mode, (void)root, (void)comm, (void)stream;
    return GPUTILE_ERROR_UNSUPPORTED;
}

#else /* GPUTILE_WITH_NCCL */

#include "../kernels/counts_add.h"
#include "histogram_plan.h"

/* One rank's local histogram: run() writes it into `out` (nbins counts,
 * OVERWRITE) with the type's own gputile_histogram_* call, which checks
 * the samples. */
typedef struct local_hist {
    gputile_status (*run)(const struct local_hist *h, uint64_t *out, cudaStream_t stream,
                          gputile_histogram_options *options);
    int type; /* GPUTILE__HIST_SAMPLE_*: the checks of the samples */
    const void *samples;
    size_t n;
    size_t sample_bytes; /* for the aliasing check against counts */
    int32_t nbins;
    float lower, upper; /* float samples */
} local_hist;

static gputile_status run_i32(const local_hist *h, uint64_t *out, cudaStream_t stream,
                              gputile_histogram_options *options)
{
    return gputile_histogram_i32(h->samples, h->n, h->nbins, out, GPUTILE_HIST_OVERWRITE, stream,
                                 options);
}

static gputile_status run_f32(const local_hist *h, uint64_t *out, cudaStream_t stream,
                              gputile_histogram_options *options)
{
    return gputile_histogram_f32(h->samples, h->n, h->lower, h->upper, h->nbins, out,
                                 GPUTILE_HIST_OVERWRITE, stream, options);
}

/* Device memory of the current device (or managed), as the histogram
 * calls require of their counts. */
static gputile_status check_device(const void *p, size_t bytes)
{
    gputile__pointer_kind kind;
    cudaError_t err = gputile__pointer_kind_of(p, bytes, &kind);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    if (kind == GPUTILE__POINTER_DEVICE_OTHER)
        return GPUTILE_ERROR_WRONG_DEVICE;
    return kind == GPUTILE__POINTER_DEVICE || kind == GPUTILE__POINTER_MANAGED
               ? GPUTILE_SUCCESS
               : GPUTILE_ERROR_INVALID_VALUE;
}

/* counts of a rank that receives the total: NULL, alignment, extent. */
static gputile_status check_counts(const uint64_t *counts, int32_t nbins)
{
    if (counts == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if ((uintptr_t)counts % sizeof(uint64_t) != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if ((uintptr_t)counts > UINTPTR_MAX - (size_t)nbins * sizeof(uint64_t))
        return GPUTILE_ERROR_OVERFLOW;
    return GPUTILE_SUCCESS;
}

/* The checks every call shares, in the man page's order: those that need
 * no device first (counts' too where every rank receives), then the
 * communicator (rank, size, device), then root's range and, on a rank
 * that receives the total, counts. counts is not looked at on a rank that
 * receives nothing (it may be NULL, or anything: the man page). */
static gputile_status check_common(int32_t nbins, const uint64_t *counts, gputile_hist_mode mode,
                                   int root, void *comm, gputile__comm *c, bool *receives)
{
    gputile_status s;
    const bool all = root == GPUTILE_DIST_ALL_RANKS;
    if (comm == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if ((mode != GPUTILE_HIST_OVERWRITE && mode != GPUTILE_HIST_ACCUMULATE) || nbins <= 0 ||
        root < GPUTILE_DIST_ALL_RANKS)
        return GPUTILE_ERROR_INVALID_VALUE;
    if ((all && (s = check_counts(counts, nbins)) != GPUTILE_SUCCESS) ||
        (s = gputile__comm_open(comm, c)) != GPUTILE_SUCCESS)
        return s;
    if (root >= c->ranks)
        return GPUTILE_ERROR_INVALID_VALUE;
    *receives = all || root == c->rank;
    if (!*receives)
        return GPUTILE_SUCCESS;
    if (!all && (s = check_counts(counts, nbins)) != GPUTILE_SUCCESS)
        return s;
    return check_device(counts, (size_t)nbins * sizeof(uint64_t));
}

/* Sums every rank's `local` into counts (receiving ranks). spare: nbins
 * counts of scratch (it may be local itself when local is scratch), used
 * unless the sum goes straight to counts (OVERWRITE on a receiving rank). */
static gputile_status reduce(const gputile__comm *c, const uint64_t *local, uint64_t *spare,
                             int32_t nbins, uint64_t *counts, gputile_hist_mode mode, int root,
                             bool receives, cudaStream_t stream)
{
    /* A rank that receives nothing: ncclReduce does not use its receive
     * buffer (local stands in, and no spare is needed). */
    uint64_t *dst = !receives                        ? (uint64_t *)(uintptr_t)local
                    : mode == GPUTILE_HIST_OVERWRITE ? counts
                                                     : spare;
    ncclResult_t r =
        root == GPUTILE_DIST_ALL_RANKS
            ? ncclAllReduce(local, dst, (size_t)nbins, ncclUint64, ncclSum, c->comm, stream)
            : ncclReduce(local, dst, (size_t)nbins, ncclUint64, ncclSum, root, c->comm, stream);
    gputile_status s = gputile__nccl_status((int)r);
    if (s == GPUTILE_SUCCESS && mode == GPUTILE_HIST_ACCUMULATE && receives)
        s = gputile__cuda_status(gputile__counts_add(counts, spare, (size_t)nbins, stream));
    return s;
}

static gputile_status dist_histogram(const local_hist *h, uint64_t *counts, gputile_hist_mode mode,
                                     int root, void *comm, cudaStream_t stream,
                                     gputile_histogram_options *options)
{
    gputile__comm c;
    bool receives;
    gputile_status s;
    if (comm != NULL) { /* the local call's own checks that need no device, before any */
        int tier, cluster;
        float scale;
        if (options != NULL && options->size < sizeof *options)
            return GPUTILE_ERROR_INVALID_VALUE;
        if ((s = gputile__hist_read_options(options, &tier, &cluster)) != GPUTILE_SUCCESS ||
            (h->type == GPUTILE__HIST_SAMPLE_FLOAT &&
             (s = gputile__hist_f32_scale(h->lower, h->upper, h->nbins, &scale)) !=
                 GPUTILE_SUCCESS) ||
            (s = gputile__hist_check_samples(h->type, h->samples, h->n)) != GPUTILE_SUCCESS)
            return s;
    }
    if ((s = check_common(h->nbins, counts, mode, root, comm, &c, &receives)) != GPUTILE_SUCCESS)
        return s;
    if (receives && gputile__bytes_overlap(h->samples, h->n * h->sample_bytes, counts,
                                           (size_t)h->nbins * sizeof(uint64_t)))
        return GPUTILE_ERROR_ALIASING;

    int device;
    void *scratch = NULL;
    if ((s = gputile__cuda_status(cudaGetDevice(&device))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(gputile__workspace_acquire(
             &scratch, (size_t)h->nbins * sizeof(uint64_t), device, stream))) != GPUTILE_SUCCESS)
        return s;
    /* The local call checks the samples; on failure nothing was queued
     * but the scratch, which goes back at once. */
    gputile_histogram_options local_options, *lo = NULL;
    if (options != NULL) { /* the caller's request; *_used written only on success */
        local_options = *options;
        local_options.size = sizeof local_options;
        lo = &local_options;
    }
    s = h->run(h, scratch, stream, lo);
    if (s == GPUTILE_SUCCESS)
        s = reduce(&c, scratch, scratch, h->nbins, counts, mode, root, receives, stream);
    gputile_status r = gputile__cuda_status(gputile__workspace_release(scratch, stream));
    if (s == GPUTILE_SUCCESS && (s = r) == GPUTILE_SUCCESS && options != NULL) {
        options->tier_used = local_options.tier_used;
        options->cluster_size_used = local_options.cluster_size_used;
        options->copies_used = local_options.copies_used;
        options->bins_per_block = local_options.bins_per_block;
        options->blocks_used = local_options.blocks_used;
    }
    return s;
}

gputile_status gputile_dist_histogram_i32(const int32_t *samples, size_t n, int32_t nbins,
                                          uint64_t *counts, gputile_hist_mode mode, int root,
                                          void *comm, struct CUstream_st *stream,
                                          gputile_histogram_options *options)
{
    const local_hist h = {
        run_i32, GPUTILE__HIST_SAMPLE_INT32, samples, n, sizeof(int32_t), nbins, 0.0f, 0.0f};
    return dist_histogram(&h, counts, mode, root, comm, stream, options);
}

gputile_status gputile_dist_histogram_f32(const float *samples, size_t n, float lower, float upper,
                                          int32_t nbins, uint64_t *counts, gputile_hist_mode mode,
                                          int root, void *comm, struct CUstream_st *stream,
                                          gputile_histogram_options *options)
{
    const local_hist h = {
        run_f32, GPUTILE__HIST_SAMPLE_FLOAT, samples, n, sizeof(float), nbins, lower, upper};
    return dist_histogram(&h, counts, mode, root, comm, stream, options);
}

gputile_status gputile_dist_histogram_reduce(const uint64_t *local, int32_t nbins, uint64_t *counts,
                                             gputile_hist_mode mode, int root, void *comm,
                                             struct CUstream_st *stream)
{
    gputile__comm c;
    bool receives;
    gputile_status s;
    if (comm != NULL && local == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    const size_t bytes = nbins > 0 ? (size_t)nbins * sizeof(uint64_t) : 0;
    if (comm != NULL && (uintptr_t)local % sizeof(uint64_t) != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (comm != NULL && (uintptr_t)local > UINTPTR_MAX - bytes)
        return GPUTILE_ERROR_OVERFLOW;
    if ((s = check_common(nbins, counts, mode, root, comm, &c, &receives)) != GPUTILE_SUCCESS)
        return s;
    /* In place (local == counts) is NCCL's in-place reduction: OVERWRITE only. */
    if (receives && gputile__bytes_overlap(local, bytes, counts, bytes) &&
        (local != counts || mode != GPUTILE_HIST_OVERWRITE))
        return GPUTILE_ERROR_ALIASING;
    if ((s = check_device(local, bytes)) != GPUTILE_SUCCESS)
        return s;

    /* scratch only to add the total to counts */
    const bool spare_needed = mode == GPUTILE_HIST_ACCUMULATE && receives;
    int device;
    void *spare = NULL;
    if (spare_needed &&
        ((s = gputile__cuda_status(cudaGetDevice(&device))) != GPUTILE_SUCCESS ||
         (s = gputile__cuda_status(gputile__workspace_acquire(&spare, bytes, device, stream))) !=
             GPUTILE_SUCCESS))
        return s;
    s = reduce(&c, local, spare, nbins, counts, mode, root, receives, stream);
    if (spare != NULL) {
        gputile_status r = gputile__cuda_status(gputile__workspace_release(spare, stream));
        if (s == GPUTILE_SUCCESS)
            s = r;
    }
    return s;
}

#endif /* GPUTILE_WITH_NCCL */
