/* SPDX-License-Identifier: MIT */
/*
 * histogram_plan.c: which tier, how many privatised copies, which cluster
 * size and how many blocks, for nbins on the current device.
 *
 * - Shared tier while one block's opt-in shared memory holds nbins 8-bit
 *   counts. Counts are 32-bit while one block holds them, packed 16-bit
 *   beyond (twice the bins, at the cost of a sweep that keeps them from
 *   wrapping: kernels/histogram.cu), packed 8-bit beyond that (four times
 *   the bins; a returning atomic and a rare carry fix-up:
 *   kernels/histogram_packed8.cuh). Copies per block
 *   K (a power of two, at most 32): the largest K for which two blocks of
 *   K copies still fit on one SM (more copies cut same-address and bank
 *   conflicts; two blocks keep 2048 threads and their loads in flight);
 *   K = 1 with one block per SM near the top of the tier.
 * - DSM tier (devices that launch clusters) beyond that: the smallest
 *   cluster C whose blocks each hold ceil(nbins / C) counts (16- or 8-bit
 *   by the same rule, so C is a half or a quarter of what 32-bit counts
 *   need) and that
 *   cudaOccupancyMaxPotentialClusterSize allows (non-portable sizes up to
 *   16), since every block of a cluster evaluates all of the cluster's
 *   samples (see kernels/histogram.cu).
 *   AUTO takes DSM clusters up to GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER blocks.
 * - Routed tier beyond (kernels/histogram_route.cuh): power-of-two slices,
 *   samples sorted by slice into device scratch by a partition kernel on
 *   every resident block, then counted per slice by a second kernel.
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
/* AUTO's largest DSM cluster before the routed tier, and it takes DSM
 * only with 16- or 32-bit counts. Measured on an H200 (1 GiB of int32,
 * gputile-bench histogram --all-tiers, 2026-11-24): DSM with 16-bit
 * slices 1,246 / 752 / 432 GB/s at C = 2 / 3 / 5 (131,072 / 262,144 /
 * 524,288 uniform bins), the routed tier 807 / 900 / 800; on all-equal and
 * 16-distinct data the routed tier wins from C = 3 too (2,604 against
 * 1,824, 1,602 against 685 at 262,144 bins). On an H100 (2026-11-28) DSM
 * with 8-bit slices at C = 2 (262,144 to 464,896 bins) read uniform data
 * at 41-44% of the read rate against the routed tier's 34-37%, but 16
 * distinct values at 24-31% against 53%, and all-equal data at 70-75%
 * against 79%; the shared tier's 8-bit counts cover the bins that 16-bit
 * DSM clusters of 2 held, so AUTO goes from it straight to the routed
 * tier. */
#define GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER 2

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

/* Shared memory per SM left to each of two blocks (the planner's aim:
 * two 1024-thread blocks keep 2048 threads and their loads in flight). */
static size_t two_per_sm(const gputile__device *d)
{
    const size_t half = (size_t)d->smem_per_sm / 2, reserved = (size_t)d->smem_reserved;
    return half > reserved ? half - reserved : 0;
}

/* Words of shared memory one block's counts may take: its opt-in size in
 * whole rows of 32 words (the kernels keep their counts in whole rows:
 * smem_place in kernels/histogram.cu moves words within their row). */
static int64_t optin_words(const gputile__device *d)
{
    return (int64_t)(d->smem_optin / sizeof(uint32_t)) & ~(int64_t)31;
}

/* The most bins one block of the shared/DSM kernel holds in counts of
 * `bits` bits (32, 16 or 8); 8-bit counts hold the most. */
static int64_t block_bins(const gputile__device *d, int bits)
{
    return optin_words(d) * (32 / bits);
}

/* The bits of each count a block of the shared/DSM kernel keeps for
 * `slice` bins: the widest counts that fit in one block. 16-bit counts
 * cost a sweep of the block every few trips (kernels/histogram.cu), which
 * costs more than the occupancy it buys: on an H200 (1 GiB of uniform
 * int32), 32,768 bins ran at 70% of the read rate as 16-bit counts in two
 * blocks per SM (with the returning atomics the sweep replaced), and at 99%
 * as 32-bit counts in one. 8-bit counts add with a returning atomic
 * (kernels/histogram_packed8.cuh) where 16-bit ones do not fit. */
static int count_bits(int64_t slice, const gputile__device *d)
{
    return slice <= block_bins(d, 32) ? 32 : slice <= block_bins(d, 16) ? 16 : 8;
}

/* Bytes of `slots` counts of `bits` bits (32, 16 or 8), in whole rows of
 * 32 words. */
static size_t counts_bytes(int64_t slots, int bits)
{
    const int64_t per_word = 32 / bits, words = (slots + per_word - 1) / per_word;
    return (size_t)((words + 31) & ~(int64_t)31) * sizeof(uint32_t);
}

static gputile_status plan_shared(int32_t nbins, int type, uint64_t n, const gputile__device *d,
                                  gputile__hist_launch *out)
{
    const int bits = count_bits(nbins, d);
    int k = MAX_COPIES, log2k = 5;
    while (k > 1 && counts_bytes((int64_t)nbins * k, bits) > two_per_sm(d)) {
        k /= 2;
        --log2k;
    }
    int per_sm = 0, two = bits == 32; /* the kernel built for two blocks per SM, where two fit */
    const size_t smem = counts_bytes((int64_t)nbins * k, bits);
    if (smem > (size_t)d->smem_optin)
        return GPUTILE_ERROR_UNSUPPORTED;
    gputile_status s = gputile__cuda_status(
        gputile__hist_smem_blocks_per_sm(type, bits, two, smem, d->smem_optin, &per_sm));
    if (s == GPUTILE_SUCCESS && two && per_sm < 2) {
        two = 0;
        s = gputile__cuda_status(
            gputile__hist_smem_blocks_per_sm(type, bits, 0, smem, d->smem_optin, &per_sm));
    }
    if (s != GPUTILE_SUCCESS)
        return s;
    if (per_sm < 1)
        return GPUTILE_ERROR_UNSUPPORTED;
    out->tier = GPUTILE_HIST_TIER_SHARED;
    out->threads = GPUTILE__HIST_SMEM_THREADS;
    out->cluster = 1;
    out->copies_log2 = log2k;
    out->count_bits = bits;
    out->two_per_sm = two;
    out->slice = nbins;
    out->smem = smem;
    out->smem_optin = d->smem_optin;
    out->blocks = groups_for(n, gputile__hist_type_of(type), out->threads, per_sm * d->sms);
    set_vec_per_launch(gputile__hist_type_of(type), out);
    return GPUTILE_SUCCESS;
}

/* Tries a cluster of c blocks of the DSM or SEED tier's kernel; *ok =
 * false when the device cannot run it. The seed's kernel counts in 32
 * bits; the DSM kernel as count_bits() says. */
static gputile_status try_cluster(int tier, int32_t nbins, int type, uint64_t n, int c,
                                  const gputile__device *d, gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    const int32_t slice = (int32_t)(((int64_t)nbins + c - 1) / c);
    const int bits = tier == GPUTILE_HIST_TIER_DSM ? count_bits(slice, d) : 32;
    const size_t smem = counts_bytes(slice, bits);
    if (smem > (size_t)d->smem_optin)
        return GPUTILE_SUCCESS;
    int max_cluster = 0, active = 0;
    gputile_status s = gputile__cuda_status(
        gputile__hist_cluster_max(tier, type, bits, smem, d->smem_optin, &max_cluster));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (c > max_cluster)
        return GPUTILE_SUCCESS;
    if (c > 1 || tier == GPUTILE_HIST_TIER_SEED) { /* the seed's kernel always runs in clusters */
        s = gputile__cuda_status(
            gputile__hist_cluster_active(tier, type, bits, smem, d->smem_optin, c, &active));
    } else {
        s = gputile__cuda_status(
            gputile__hist_smem_blocks_per_sm(type, bits, 0, smem, d->smem_optin, &active));
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
    out->count_bits = bits;
    out->two_per_sm = 0;
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
    const int64_t per_block = tier == GPUTILE_HIST_TIER_DSM ? block_bins(d, 8) : optin_words(d);
    const int64_t need = ((int64_t)nbins + per_block - 1) / per_block;
    for (int c = need < 2 ? 2 : (int)need; c <= MAX_CLUSTER && (int64_t)c <= nbins; ++c) {
        int64_t slice = ((int64_t)nbins + c - 1) / c;
        if ((int64_t)(c - 1) * slice >= nbins)
            continue;
        gputile_status s = try_cluster(tier, nbins, type, n, c, d, out, ok);
        if (s != GPUTILE_SUCCESS || *ok)
            return s;
    }
    /* A requested cluster tier for bins that one block holds: a cluster of one. */
    if (nbins <= per_block)
        return try_cluster(tier, nbins, type, n, 1, d, out, ok);
    return GPUTILE_SUCCESS;
}

/* The routed tier: the smallest power-of-two slice for at most one slice
 * per SM, within the kernels' limits (kernels/histogram.h); *ok = false
 * when there is none. The partition runs on every resident block; the
 * count on `slices` times as many replicas of each slice as fit at once;
 * the scratch holds one piece of the input (n = 0: a whole piece). */
static gputile_status plan_route(int32_t nbins, int type, uint64_t n, const gputile__device *d,
                                 gputile__hist_launch *out, bool *ok)
{
    *ok = false;
    int per_sm = 0, count_per_sm = 0, log2s = 0;
    int64_t slices = nbins;
    while (log2s <= GPUTILE__HIST_ROUTE_MAX_SLICE_LOG2 &&
           (slices > d->sms || slices > GPUTILE__HIST_ROUTE_MAX_SLICES)) {
        ++log2s;
        slices = ((int64_t)nbins + (1 << log2s) - 1) >> log2s;
    }
    if (log2s > GPUTILE__HIST_ROUTE_MAX_SLICE_LOG2)
        return GPUTILE_SUCCESS;
    const size_t smem = gputile__hist_route_smem();
    const size_t count_smem = gputile__hist_route_count_smem(log2s);
    if (smem > (size_t)d->smem_optin || count_smem > (size_t)d->smem_optin)
        return GPUTILE_SUCCESS;
    gputile_status s =
        gputile__cuda_status(gputile__hist_route_blocks_per_sm(type, smem, d->smem_optin, &per_sm));
    if (s == GPUTILE_SUCCESS)
        s = gputile__cuda_status(
            gputile__hist_route_count_blocks_per_sm(count_smem, d->smem_optin, &count_per_sm));
    if (s != GPUTILE_SUCCESS)
        return s;
    if (per_sm < 1 || count_per_sm < 1)
        return GPUTILE_SUCCESS;
    const gputile__hist_type *t = gputile__hist_type_of(type);
    const int64_t count_resident = (int64_t)count_per_sm * d->sms;
    const uint64_t tiles = (n + GPUTILE__HIST_ROUTE_SUB - 1) / GPUTILE__HIST_ROUTE_SUB;
    out->tier = GPUTILE_HIST_TIER_ROUTE;
    out->threads = GPUTILE__HIST_ROUTE_THREADS;
    out->blocks = per_sm * d->sms; /* the partition's persistent grid */
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
    out->route_tiles = n == 0 || tiles > GPUTILE__HIST_ROUTE_PIECE_TILES
                           ? GPUTILE__HIST_ROUTE_PIECE_TILES
                           : (uint32_t)(tiles > 0 ? tiles : 1);
    out->count_blocks = (int)(slices * (count_resident > slices ? count_resident / slices : 1));
    out->count_smem = count_smem;
    out->scratch_bytes = gputile__hist_route_scratch(out->route_tiles, (int)slices);
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
    const bool fits_block = nbins <= block_bins(d, 8);
    bool ok = false;

    switch (tier) {
    case GPUTILE_HIST_TIER_SHARED:
        return fits_block ? plan_shared(nbins, type, n, d, out) : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_DSM:
    case GPUTILE_HIST_TIER_SEED:
        s = plan_cluster(tier, nbins, type, n, cluster, d, out, &ok);
        return s != GPUTILE_SUCCESS ? s : ok ? GPUTILE_SUCCESS : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_ROUTE:
        s = plan_route(nbins, type, n, d, out, &ok);
        return s != GPUTILE_SUCCESS ? s : ok ? GPUTILE_SUCCESS : GPUTILE_ERROR_UNSUPPORTED;
    case GPUTILE_HIST_TIER_GLOBAL:
        return plan_global(type, n, d, out);
    default: /* AUTO */
        if (fits_block)
            return plan_shared(nbins, type, n, d, out);
        /* DSM while its clusters are small (every block of a cluster reads
         * the cluster's samples) and its counts 16-bit or wider, the routed
         * tier beyond. No cluster queries (slow) where even the smallest
         * cluster is too large. */
        if ((int64_t)nbins <= block_bins(d, 16) * GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER) {
            s = plan_cluster(GPUTILE_HIST_TIER_DSM, nbins, type, n, 0, d, out, &ok);
            if (s != GPUTILE_SUCCESS || (ok && out->cluster <= GPUTILE__HIST_DSM_MAX_AUTO_CLUSTER))
                return s;
        }
        s = plan_route(nbins, type, n, d, out, &ok);
        if (s != GPUTILE_SUCCESS || ok)
            return s;
        s = plan_cluster(GPUTILE_HIST_TIER_DSM, nbins, type, n, 0, d, out, &ok);
        if (s != GPUTILE_SUCCESS || ok)
            return s;
        return plan_global(type, n, d, out);
    }
}
