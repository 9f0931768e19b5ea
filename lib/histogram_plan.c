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
 * - Global tier beyond the largest cluster, or on devices without clusters.
 * - Blocks: a persistent grid, as many as fit on the device at once (the
 *   occupancy calculator, clusters included), fewer for small inputs.
 */
#include "histogram_plan.h"

#define MAX_CLUSTER 16
#define MAX_COPIES 32

typedef struct device_limits {
    int sms;
    size_t optin;      /* shared memory per block, opt-in */
    size_t per_sm;     /* shared memory per SM */
    size_t reserved;   /* shared memory the system reserves per block */
    int clusters;      /* the device launches thread-block clusters */
} device_limits;

static gputile_status query_device(device_limits *d)
{
    int dev, sms, optin, per_sm, reserved = 0, cluster = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&cluster, cudaDevAttrClusterLaunch, dev);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    d->sms = sms;
    d->optin = (size_t)optin;
    d->per_sm = (size_t)per_sm;
    d->reserved = (size_t)reserved;
    d->clusters = cluster != 0;
    return GPUTILE_SUCCESS;
}

/* Input groups (blocks, or clusters) worth launching for n samples: enough
 * for one unrolled trip per thread, at most `resident`. n = 0: resident. */
static int groups_for(uint64_t n, int threads, int resident)
{
    if (resident < 1)
        resident = 1;
    if (n == 0)
        return resident;
    uint64_t per_group = (uint64_t)threads * 4 * GPUTILE__HIST_UNROLL;
    uint64_t want = (n + per_group - 1) / per_group;
    return want < (uint64_t)resident ? (int)want : resident;
}

static gputile_status plan_shared(int32_t nbins, int is_float, uint64_t n,
                                  const device_limits *d, gputile__hist_launch *out)
{
    const size_t one = (size_t)nbins * sizeof(uint32_t);
    const size_t two_per_sm = d->per_sm / 2 > d->reserved ? d->per_sm / 2 - d->reserved : 0;
    int k = MAX_COPIES, log2k = 5;
    while (k > 1 && one * (size_t)k > two_per_sm) {
        k /= 2;
        --log2k;
    }
    int per_sm = 0;
    size_t smem = one * (size_t)k;
    gputile_status s = gputile__cuda_status(gputile__hist_smem_blocks_per_sm(is_float, smem, &per_sm));
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
    out->blocks = groups_for(n, out->threads, per_sm * d->sms);
    return GPUTILE_SUCCESS;
}

/* Tries a cluster of c blocks; *ok = false when the device cannot run it. */
static gputile_status try_cluster(int32_t nbins, int is_float, uint64_t n, int c,
                                  const device_limits *d, gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    const int32_t slice = (int32_t)(((int64_t)nbins + c - 1) / c);
    const size_t smem = (size_t)slice * sizeof(uint32_t);
    if (smem > d->optin)
        return GPUTILE_SUCCESS;
    int max_cluster = 0, active = 0;
    gputile_status s = gputile__cuda_status(gputile__hist_cluster_max(is_float, smem, &max_cluster));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (c > max_cluster)
        return GPUTILE_SUCCESS;
    if (c > 1) {
        s = gputile__cuda_status(gputile__hist_cluster_active(is_float, smem, c, &active));
    } else {
        s = gputile__cuda_status(gputile__hist_smem_blocks_per_sm(is_float, smem, &active));
        active *= d->sms;
    }
    if (s != GPUTILE_SUCCESS)
        return s;
    if (active < 1)
        return GPUTILE_SUCCESS;
    out->tier = GPUTILE_HIST_TIER_DSM;
    out->threads = GPUTILE__HIST_SMEM_THREADS;
    out->cluster = c;
    out->copies_log2 = 0;
    out->slice = slice;
    out->smem = smem;
    out->blocks = groups_for(n, out->threads, active) * c;
    *ok = true;
    return GPUTILE_SUCCESS;
}

static gputile_status plan_dsm(int32_t nbins, int is_float, uint64_t n, int cluster,
                               const device_limits *d, gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    if (!d->clusters)
        return GPUTILE_SUCCESS;
    if (cluster != 0)
        return try_cluster(nbins, is_float, n, cluster, d, out, ok);
    /* The smallest cluster that holds the bins with no block left empty. */
    int64_t need = ((int64_t)nbins * 4 + (int64_t)d->optin - 1) / (int64_t)d->optin;
    for (int c = need < 2 ? 2 : (int)need; c <= MAX_CLUSTER && (int64_t)c <= nbins; ++c) {
        int64_t slice = ((int64_t)nbins + c - 1) / c;
        if ((int64_t)(c - 1) * slice >= nbins)
            continue;
        gputile_status s = try_cluster(nbins, is_float, n, c, d, out, ok);
        if (s != GPUTILE_SUCCESS || *ok)
            return s;
    }
    /* A requested DSM tier for bins that one block holds: a cluster of one. */
    if ((size_t)nbins * 4 <= d->optin)
        return try_cluster(nbins, is_float, n, 1, d, out, ok);
    return GPUTILE_SUCCESS;
}

static gputile_status plan_global(int is_float, uint64_t n, const device_limits *d,
                                  gputile__hist_launch *out)
{
    int per_sm = 0;
    gputile_status s = gputile__cuda_status(gputile__hist_global_blocks_per_sm(is_float, &per_sm));
    if (s != GPUTILE_SUCCESS)
        return s;
    out->tier = GPUTILE_HIST_TIER_GLOBAL;
    out->threads = GPUTILE__HIST_GLOBAL_THREADS;
    out->cluster = 1;
    out->copies_log2 = 0;
    out->slice = 0;
    out->smem = 0;
    out->blocks = groups_for(n, out->threads, per_sm * d->sms);
    return GPUTILE_SUCCESS;
}

gputile_status gputile__hist_plan(int32_t nbins, int is_float, uint64_t n, int tier, int cluster,
                                  gputile__hist_launch *out)
{
    device_limits d = {0};
    gputile_status s = query_device(&d);
    if (s != GPUTILE_SUCCESS)
        return s;
    const bool fits_block = (size_t)nbins * sizeof(uint32_t) <= d.optin;
    bool ok = false;

    switch (tier) {
    case GPUTILE_HIST_TIER_SHARED:
        return fits_block ? plan_shared(nbins, is_float, n, &d, out) : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_DSM:
        s = plan_dsm(nbins, is_float, n, cluster, &d, out, &ok);
        return s != GPUTILE_SUCCESS ? s : ok ? GPUTILE_SUCCESS : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_GLOBAL:
        return plan_global(is_float, n, &d, out);
    default: /* AUTO */
        if (fits_block)
            return plan_shared(nbins, is_float, n, &d, out);
        s = plan_dsm(nbins, is_float, n, 0, &d, out, &ok);
        if (s != GPUTILE_SUCCESS || ok)
            return s;
        return plan_global(is_float, n, &d, out);
    }
}
