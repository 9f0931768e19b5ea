/* SPDX-License-Identifier: MIT */
/*
 * histogram_plan.c: which tier, how many privatised copies, which cluster
 * size and how many blocks, for nbins on the current device.
 *
 * - Shared tier while one block's opt-in shared memory holds nbins 32-bit
 *   counts. Copies per block K (a power of two, at most 32): the largest K
 *   for which two blocks of K copies still fit on one SM (more copies cut
 *   same-address and bank conflicts; two blocks keep 2048 threads and their
 *   loads in flight); K = 1 with one block per SM near the top of the tier.
 * - DSM tier (devices that launch clusters) beyond that: the smallest
 *   cluster C whose blocks each hold ceil(nbins / C) counts and that
 *   cudaOccupancyMaxPotentialClusterSize allows (non-portable sizes up to
 *   16), since every block of a cluster evaluates all of the cluster's
 *   samples (see kernels/histogram.cu).
 *   AUTO takes DSM clusters up to GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER blocks.
 * - Routed tier beyond (kernels/histogram_route.cu): power-of-two slices,
 *   one per resident block, samples routed to their owner through the L2;
 *   a cooperative launch of every resident block, with device scratch.
 * - Global tier beyond the routed tier's reach (slices x 2^15 bins), or
 *   on devices without clusters.
 * - The seed's tier (remote shared-memory atomics) only when asked for.
 * - Blocks: a persistent grid, as many as fit on the device at once (the
 *   occupancy calculator, clusters included), fewer for small inputs.
 * - Launches: at most the sample type's vectors per group for each input
 *   group and at most its vectors per launch (kernels/histogram.h).
 * Device facts come from device.c's cache; the sample types' descriptors
 * from their rows of GPUTILE__HIST_SAMPLE_TYPES.
 */
#include "histogram_plan.h"

#define MAX_CLUSTER 16
#define MAX_COPIES 32
/* AUTO's largest DSM cluster before the routed tier. Measured on an H200
 * (1 GiB of uniform int32, gputile-bench all, 2026-11-24): DSM 2,083 /
 * 1,269 / 733 / 244 GB/s at C = 2 / 3 / 5 / 10 (65,536 / 131,072 /
 * 262,144 / 524,288 bins), falling faster than 1 / C past 5 (3.7 TB/s x
 * C at 5, 2.4 at 10); the routed tier ~540 GB/s whatever the bin count.
 * 733 x 5 / C passes 540 below C = 7: the largest is 6. (At 10, AUTO ran
 * 524,288 bins at 244 GB/s where the routed tier gives 538.) */
#define GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER 6

static const gputile__hist_type types[GPUTILE__HIST_SAMPLE_COUNT] = {
#define GPUTILE__HIST_TYPE_ROW(id, bin, bytes_, vw)                                          \
    [GPUTILE__HIST_SAMPLE_##id] = {.bytes = (bytes_),                                        \
                                   .per_vec = (vw),                                          \
                                   .max_vec_per_group = GPUTILE__HIST_MAX_VEC_PER_GROUP(vw), \
                                   .max_vec_per_launch = GPUTILE__HIST_MAX_VEC_PER_LAUNCH},
    GPUTILE__HIST_SAMPLE_TYPES(GPUTILE__HIST_TYPE_ROW)
#undef GPUTILE__HIST_TYPE_ROW
};

const gputile__hist_type *gputile__hist_type_of(int type)
{
    return &types[type];
}

/* Input groups (blocks, or clusters) worth launching for n samples: enough
 * for one unrolled trip per thread, at most `resident`. n = 0: resident. */
static int groups_for(uint64_t n, const gputile__hist_type *t, int threads, int resident)
{
    if (resident < 1)
        resident = 1;
    if (n == 0)
        return resident;
    uint64_t per_group = (uint64_t)threads * t->per_vec * GPUTILE__HIST_UNROLL;
    uint64_t want = (n + per_group - 1) / per_group;
    return want < (uint64_t)resident ? (int)want : resident;
}

/* The input groups of a launch read at most the type's vectors per group
 * each, and a launch at most its vectors per launch. */
static void set_vec_per_launch(const gputile__hist_type *t, gputile__hist_launch *out)
{
    const uint64_t groups = (uint64_t)(out->blocks / out->cluster);
    uint64_t per_launch = groups * t->max_vec_per_group;
    if (per_launch > t->max_vec_per_launch)
        per_launch = t->max_vec_per_launch;
    out->vec_per_launch = (uint32_t)per_launch;
}

static gputile_status plan_shared(int32_t nbins, int type, uint64_t n, const gputile__device *d,
                                  gputile__hist_launch *out)
{
    const size_t one = (size_t)nbins * sizeof(uint32_t);
    const size_t per_sm_half = (size_t)d->smem_per_sm / 2, reserved = (size_t)d->smem_reserved;
    const size_t two_per_sm = per_sm_half > reserved ? per_sm_half - reserved : 0;
    int k = MAX_COPIES, log2k = 5;
    while (k > 1 && one * (size_t)k > two_per_sm) {
        k /= 2;
        --log2k;
    }
    int per_sm = 0;
    size_t smem = one * (size_t)k;
    gputile_status s =
        gputile__cuda_status(gputile__hist_smem_blocks_per_sm(type, smem, d->smem_optin, &per_sm));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (per_sm < 1)
        return GPUTILE_ERROR_UNSUPPORTED;
    out->tier = GPUTILE_HIST_TIER_SHARED;
    out->threads = GPUTILE__HIST_SMEM_THREADS;
    out->cluster = 1;
    out->copies_log2 = log2k;
    out->slice = nbins;
    out->smem = smem;
    out->smem_optin = d->smem_optin;
    out->blocks = groups_for(n, gputile__hist_type_of(type), out->threads, per_sm * d->sms);
    set_vec_per_launch(gputile__hist_type_of(type), out);
    return GPUTILE_SUCCESS;
}

/* Tries a cluster of c blocks of the DSM or SEED tier's kernel; *ok =
 * false when the device cannot run it. */
static gputile_status try_cluster(int tier, int32_t nbins, int type, uint64_t n, int c,
                                  const gputile__device *d, gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    const int32_t slice = (int32_t)(((int64_t)nbins + c - 1) / c);
    const size_t smem = (size_t)slice * sizeof(uint32_t);
    if (smem > (size_t)d->smem_optin)
        return GPUTILE_SUCCESS;
    int max_cluster = 0, active = 0;
    gputile_status s = gputile__cuda_status(
        gputile__hist_cluster_max(tier, type, smem, d->smem_optin, &max_cluster));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (c > max_cluster)
        return GPUTILE_SUCCESS;
    if (c > 1 || tier == GPUTILE_HIST_TIER_SEED) { /* the seed's kernel always runs in clusters */
        s = gputile__cuda_status(
            gputile__hist_cluster_active(tier, type, smem, d->smem_optin, c, &active));
    } else {
        s = gputile__cuda_status(
            gputile__hist_smem_blocks_per_sm(type, smem, d->smem_optin, &active));
        active *= d->sms;
    }
    if (s != GPUTILE_SUCCESS)
        return s;
    if (active < 1)
        return GPUTILE_SUCCESS;
    out->tier = tier;
    out->threads = GPUTILE__HIST_SMEM_THREADS;
    out->cluster = c;
    out->copies_log2 = 0;
    out->slice = slice;
    out->smem = smem;
    out->smem_optin = d->smem_optin;
    out->blocks = groups_for(n, gputile__hist_type_of(type), out->threads, active) * c;
    set_vec_per_launch(gputile__hist_type_of(type), out);
    *ok = true;
    return GPUTILE_SUCCESS;
}

/* The DSM or SEED tier: the requested cluster size, else the smallest. */
static gputile_status plan_cluster(int tier, int32_t nbins, int type, uint64_t n, int cluster,
                                   const gputile__device *d, gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    if (!d->clusters)
        return GPUTILE_SUCCESS;
    if (cluster != 0)
        return try_cluster(tier, nbins, type, n, cluster, d, out, ok);
    /* The smallest cluster that holds the bins with no block left empty. */
    int64_t need = ((int64_t)nbins * 4 + (int64_t)d->smem_optin - 1) / (int64_t)d->smem_optin;
    for (int c = need < 2 ? 2 : (int)need; c <= MAX_CLUSTER && (int64_t)c <= nbins; ++c) {
        int64_t slice = ((int64_t)nbins + c - 1) / c;
        if ((int64_t)(c - 1) * slice >= nbins)
            continue;
        gputile_status s = try_cluster(tier, nbins, type, n, c, d, out, ok);
        if (s != GPUTILE_SUCCESS || *ok)
            return s;
    }
    /* A requested cluster tier for bins that one block holds: a cluster of one. */
    if ((size_t)nbins * 4 <= (size_t)d->smem_optin)
        return try_cluster(tier, nbins, type, n, 1, d, out, ok);
    return GPUTILE_SUCCESS;
}

/* The routed tier: the smallest power-of-two slice whose slices the
 * device's resident blocks (one per SM) can own, within the kernel's
 * limits (kernels/histogram.h); *ok = false when there is none. */
static gputile_status plan_route(int32_t nbins, int type, const gputile__device *d,
                                 gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    int per_sm = 0, log2s = 0;
    int64_t slices = nbins;
    while (log2s <= GPUTILE__HIST_ROUTE_MAX_SLICE_LOG2 &&
           (slices > d->sms || slices > GPUTILE__HIST_ROUTE_MAX_SLICES)) {
        ++log2s;
        slices = ((int64_t)nbins + (1 << log2s) - 1) >> log2s;
    }
    if (log2s > GPUTILE__HIST_ROUTE_MAX_SLICE_LOG2 || (slices << log2s) >= ((int64_t)1 << 23))
        return GPUTILE_SUCCESS;
    const size_t smem = gputile__hist_route_smem(log2s, (int)slices);
    if (smem > (size_t)d->smem_optin)
        return GPUTILE_SUCCESS;
    gputile_status s =
        gputile__cuda_status(gputile__hist_route_blocks_per_sm(type, smem, d->smem_optin, &per_sm));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (per_sm < 1 || (int64_t)per_sm * d->sms < slices)
        return GPUTILE_SUCCESS;
    const gputile__hist_type *t = gputile__hist_type_of(type);
    out->tier = GPUTILE_HIST_TIER_ROUTE;
    out->threads = GPUTILE__HIST_ROUTE_THREADS;
    out->blocks = per_sm * d->sms; /* cooperative: all resident; every block reads */
    out->cluster = 1;
    out->copies_log2 = 0;
    out->slice = 1 << log2s;
    out->smem = smem;
    out->smem_optin = d->smem_optin;
    uint64_t per_launch = GPUTILE__HIST_ROUTE_MAX_SAMPLES / t->per_vec;
    if (per_launch > t->max_vec_per_launch)
        per_launch = t->max_vec_per_launch;
    out->vec_per_launch = (uint32_t)per_launch;
    out->slice_log2 = log2s;
    out->slices = (int)slices;
    out->scratch_bytes = gputile__hist_route_scratch(out->blocks, (int)slices);
    *ok = true;
    return GPUTILE_SUCCESS;
}

static gputile_status plan_global(int type, uint64_t n, const gputile__device *d,
                                  gputile__hist_launch *out)
{
    int per_sm = 0;
    gputile_status s = gputile__cuda_status(gputile__hist_global_blocks_per_sm(type, &per_sm));
    if (s != GPUTILE_SUCCESS)
        return s;
    out->tier = GPUTILE_HIST_TIER_GLOBAL;
    out->threads = GPUTILE__HIST_GLOBAL_THREADS;
    out->cluster = 1;
    out->copies_log2 = 0;
    out->slice = 0;
    out->smem = 0;
    out->smem_optin = 0;
    out->blocks = groups_for(n, gputile__hist_type_of(type), out->threads, per_sm * d->sms);
    set_vec_per_launch(gputile__hist_type_of(type), out);
    return GPUTILE_SUCCESS;
}

gputile_status gputile__hist_plan(int32_t nbins, int type, uint64_t n, int tier, int cluster,
                                  gputile__hist_launch *out)
{
    const gputile__device *d;
    gputile_status s = gputile__device_current(&d);
    if (s != GPUTILE_SUCCESS)
        return s;
    *out = (gputile__hist_launch){0};
    const bool fits_block = (size_t)nbins * sizeof(uint32_t) <= (size_t)d->smem_optin;
    bool ok = false;

    switch (tier) {
    case GPUTILE_HIST_TIER_SHARED:
        return fits_block ? plan_shared(nbins, type, n, d, out) : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_DSM:
    case GPUTILE_HIST_TIER_SEED:
        s = plan_cluster(tier, nbins, type, n, cluster, d, out, &ok);
        return s != GPUTILE_SUCCESS ? s : ok ? GPUTILE_SUCCESS : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_ROUTE:
        s = plan_route(nbins, type, d, out, &ok);
        return s != GPUTILE_SUCCESS ? s : ok ? GPUTILE_SUCCESS : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_GLOBAL:
        return plan_global(type, n, d, out);
    default: /* AUTO */
        if (fits_block)
            return plan_shared(nbins, type, n, d, out);
        /* DSM while its clusters are small (every block of a cluster reads
         * the cluster's samples), the routed tier beyond. */
        s = plan_cluster(GPUTILE_HIST_TIER_DSM, nbins, type, n, 0, d, out, &ok);
        if (s != GPUTILE_SUCCESS || (ok && out->cluster <= GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER))
            return s;
        s = plan_route(nbins, type, d, out, &ok);
        if (s != GPUTILE_SUCCESS || ok)
            return s;
        s = plan_cluster(GPUTILE_HIST_TIER_DSM, nbins, type, n, 0, d, out, &ok);
        if (s != GPUTILE_SUCCESS || ok)
            return s;
        return plan_global(type, n, d, out);
    }
}
