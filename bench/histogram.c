/* SPDX-License-Identifier: MIT */
/*
 * histogram.c: gputile-bench histogram. libgputile (AUTO plan) against CUB
 * DeviceHistogram::HistogramEven and the Programming Guide's cluster
 * histogram (the seed: the library's SEED tier, on a persistent grid, at
 * every cluster size that runs; the best is shown) on the same int32
 * samples in the same run, for uniform, all-equal, 16-distinct and
 * Zipf-like data and bins from 1 to 2^22. GB/s counts input bytes; "read%"
 * is libgputile's share of the device's read bandwidth, measured in the same
 * run by a float4 read kernel over the same buffer. Every result is checked
 * against CUB's counts (the data lie in [0, nbins), where the seed's
 * clamping and CUB's range agree). The "f32" column runs AUTO on the same
 * samples as floats (v + 0.5 over [0, nbins): the same counts, checked
 * too), for issue 18's "float within 10% of int32".
 *
 *   gputile-bench histogram [--csv] [--runs N] [--samples N] [--bins a,b,...]
 *                           [--all-tiers]
 *
 * --all-tiers adds libgputile with each tier forced (shared, DSM, global, route)
 * where it can hold the bins: the rows for tuning the planner's choices.
 * The image rows (bench/histogram_image.c: uint8, uint16, RGBA8, an ROI,
 * range bins, against CUB) follow; --image-only runs just those.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gputile.h"
#include "device_kernels.h"
#include "histogram_ref.h"

#define MAX_ITEMS 16

typedef struct ctx {
    int what; /* 0 read, 1 libgputile (the seed: its SEED tier), 2 CUB, 3 libgputile f32 */
    const int32_t *d;
    const float *f;
    size_t n;
    int32_t nbins;
    int tier, cluster;
    uint64_t *counts;
    int *hist;
    void *temp;
    size_t temp_bytes;
    float *sink;
} ctx;

static void enqueue(void *p, cudaStream_t stream)
{
    ctx *c = p;
    switch (c->what) {
    case 0:
        BENCH_CUDA(
            bench_read((const float *)c->d, c->n / 4 * 16, c->sink, bench_sm_count(), stream));
        break;
    case 1: {
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        o.tier = c->tier;
        o.cluster_size = c->cluster;
        gputile_status s = gputile_histogram_i32(c->d, c->n, c->nbins, c->counts,
                                                 GPUTILE_HIST_OVERWRITE, stream, &o);
        if (s != GPUTILE_SUCCESS) {
            fprintf(stderr, "gputile-bench: gputile_histogram_i32: %s (%s)\n", gputile_strerror(s),
                    gputile_last_cuda_error_name());
            exit(1);
        }
        break;
    }
    case 2:
        benchref_cub(c->temp, c->temp_bytes, c->d, c->n, c->nbins, c->hist, stream);
        break;
    case 3: {
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        gputile_status s = gputile_histogram_f32(c->f, c->n, 0.0f, (float)c->nbins, c->nbins,
                                                 c->counts, GPUTILE_HIST_OVERWRITE, stream, &o);
        if (s != GPUTILE_SUCCESS) {
            fprintf(stderr, "gputile-bench: gputile_histogram_f32: %s (%s)\n", gputile_strerror(s),
                    gputile_last_cuda_error_name());
            exit(1);
        }
        break;
    }
    }
}

static double gbps(size_t n, double ms)
{
    return (double)n * 4.0 / (ms * 1e6);
}

/* Compares libgputile's counts (after one more run of `item`) with CUB's. */
static int verify(ctx *lib, ctx *cub, uint64_t *h64, int *h32, cudaStream_t stream)
{
    enqueue(lib, stream);
    enqueue(cub, stream);
    BENCH_CUDA(cudaStreamSynchronize(stream));
    BENCH_CUDA(cudaMemcpy(h64, lib->counts, (size_t)lib->nbins * 8, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(h32, cub->hist, (size_t)cub->nbins * 4, cudaMemcpyDeviceToHost));
    for (int32_t b = 0; b < lib->nbins; ++b)
        if (h64[b] != (uint64_t)(uint32_t)h32[b]) {
            fprintf(stderr,
                    "gputile-bench: MISMATCH tier %s nbins %d bin %d: libgputile %llu, CUB %d\n",
                    gputile_hist_tier_name(lib->tier), lib->nbins, b, (unsigned long long)h64[b],
                    h32[b]);
            return 0;
        }
    return 1;
}

static const char histogram_usage[] =
    "usage: gputile-bench histogram [--csv] [--runs N] [--warmup N] [--samples N]\n"
    "                               [--bins a,b,...] [--all-tiers] [--image-only]\n"
    "                               [--image-row NAME]   (the image rows whose name holds NAME)\n";

int bench_histogram(int argc, char **argv)
{
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    size_t n = (size_t)1 << 28; /* 1 GiB of int32 */
    int32_t bins[32] = {1,      16,     256,    1024,    4096,    16384,  65536,
                        131072, 262144, 524288, 1048576, 2097152, 4194304};
    int nb = 13, all_tiers = 0, image_only = 0;
    const char *image_row = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
            n = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--bins") == 0 && i + 1 < argc) {
            long list[32];
            nb = bench_parse_list(argv[++i], 1, 1L << 26, list, 32);
            for (int b = 0; b < nb; ++b)
                bins[b] = (int32_t)list[b];
        } else if (strcmp(argv[i], "--all-tiers") == 0) {
            all_tiers = 1;
        } else if (strcmp(argv[i], "--image-only") == 0) {
            image_only = 1;
        } else if (strcmp(argv[i], "--image-row") == 0 && i + 1 < argc) {
            image_row = argv[++i];
            image_only = 1;
        } else {
            return bench_usage(histogram_usage, bench_is_help(argv[i]));
        }
    }
    if (nb < 1 || n < 4 || n > ((size_t)1 << 31) - 1) {
        fprintf(stderr, "gputile-bench: histogram: bad --bins or --samples (4 .. 2^31 - 1)\n");
        return 2;
    }
    bench_require_device("histogram");
    int32_t max_bins = 1;
    for (int i = 0; i < nb; ++i)
        max_bins = bins[i] > max_bins ? bins[i] : max_bins;

    cudaStream_t stream;
    BENCH_CUDA(cudaStreamCreate(&stream));
    int32_t *d;
    float *df;
    uint64_t *counts, *h64, *f_counts;
    int *hist, *h32;
    uint64_t *seed_counts;
    float *sink;
    BENCH_CUDA(cudaMalloc((void **)&d, n * 4));
    BENCH_CUDA(cudaMalloc((void **)&df, n * 4));
    BENCH_CUDA(cudaMalloc((void **)&f_counts, (size_t)max_bins * 8));
    BENCH_CUDA(cudaMalloc((void **)&counts, (size_t)max_bins * 8));
    BENCH_CUDA(cudaMalloc((void **)&hist, (size_t)max_bins * 4));
    BENCH_CUDA(cudaMalloc((void **)&seed_counts, (size_t)max_bins * 8));
    BENCH_CUDA(cudaMalloc((void **)&sink, 4));
    h64 = malloc((size_t)max_bins * 8);
    h32 = malloc((size_t)max_bins * 4);
    if (h64 == NULL || h32 == NULL)
        return 1;

    static const char *kinds[] = {"uniform", "all-equal", "16-distinct", "zipf"};
    if (o.csv)
        printf("data,bins,samples,read_GBps,lib_GBps,lib_read_pct,lib_tier,lib_cluster,"
               "cub_GBps,seed_GBps,seed_cluster,lib_vs_cub,lib_vs_seed,"
               "shared_GBps,dsm_GBps,global_GBps,route_GBps,correct,f32_GBps,f32_vs_i32\n");
    else
        printf("%-11s %8s %8s %8s %6s %-10s %8s %8s %-4s %8s %8s%s %8s %7s %s\n", "data", "bins",
               "read", "lib", "read%", "plan", "CUB", "seed", "(c)", "lib/CUB", "lib/seed",
               all_tiers ? "   shared      dsm   global    route" : "", "f32", "f32/i32", "ok");

    int all_ok = 1;
    for (int k = 0; k < (image_only ? 0 : 4); ++k)
        for (int b = 0; b < nb; ++b) {
            const int32_t nbins = bins[b];
            benchref_fill(d, n, k, nbins, stream);
            benchref_to_float(d, df, n, stream);
            BENCH_CUDA(cudaStreamSynchronize(stream));

            bench_item items[MAX_ITEMS] = {{0}}; /* drain: false, back to back */
            ctx c[MAX_ITEMS];
            int m = 0;
            ctx base = {.d = d,
                        .n = n,
                        .nbins = nbins,
                        .f = df,
                        .counts = counts,
                        .hist = hist,
                        .sink = sink,
                        .tier = GPUTILE_HIST_TIER_AUTO};
            c[m] = base, c[m].what = 0, items[m].name = "read", ++m;
            const int lib_i = m;
            c[m] = base, c[m].what = 1, items[m].name = "libgputile", ++m;
            const int cub_i = m;
            c[m] = base, c[m].what = 2, items[m].name = "CUB", ++m;
            const int f32_i = m;
            c[m] = base, c[m].what = 3, c[m].counts = f_counts, items[m].name = "f32", ++m;
            c[cub_i].temp_bytes = benchref_cub_temp_bytes(d, n, nbins, hist);
            BENCH_CUDA(cudaMalloc(&c[cub_i].temp, c[cub_i].temp_bytes ? c[cub_i].temp_bytes : 1));
            const int seed_i = m;
            for (int cl = 1; cl <= 16; cl *= 2) {
                gputile_histogram_options p = GPUTILE_HISTOGRAM_OPTIONS_INIT;
                p.tier = GPUTILE_HIST_TIER_SEED;
                p.cluster_size = cl;
                if (gputile_histogram_plan(nbins, &p) == GPUTILE_SUCCESS) {
                    c[m] = base, c[m].what = 1, c[m].tier = GPUTILE_HIST_TIER_SEED;
                    c[m].cluster = cl, c[m].counts = seed_counts;
                    items[m].name = "seed", ++m;
                }
            }
            const int seed_end = m, tiers_i = m;
            int tier_item[5] = {-1, -1, -1, -1, -1};
            if (all_tiers)
                for (int t = GPUTILE_HIST_TIER_SHARED; t <= GPUTILE_HIST_TIER_ROUTE; ++t) {
                    gputile_histogram_options p = GPUTILE_HISTOGRAM_OPTIONS_INIT;
                    p.tier = t;
                    if (gputile_histogram_plan(nbins, &p) != GPUTILE_SUCCESS)
                        continue;
                    tier_item[t] = m;
                    c[m] = base, c[m].what = 1, c[m].tier = t, items[m].name = "tier", ++m;
                }
            (void)tiers_i;
            for (int i = 0; i < m; ++i) {
                items[i].enqueue = enqueue;
                items[i].ctx = &c[i];
            }
            bench_progress("histogram: %s, %d bins, %zu samples, %d items", kinds[k], nbins, n, m);
            bench_time(items, m, &o, stream);

            gputile_histogram_options plan = GPUTILE_HISTOGRAM_OPTIONS_INIT;
            if (gputile_histogram_plan(nbins, &plan) != GPUTILE_SUCCESS)
                return 1;
            int ok = verify(&c[lib_i], &c[cub_i], h64, h32, stream);
            ok &= verify(&c[f32_i], &c[cub_i], h64, h32, stream);
            for (int t = 1; t <= 4; ++t)
                if (tier_item[t] >= 0)
                    ok &= verify(&c[tier_item[t]], &c[cub_i], h64, h32, stream);
            for (int i = seed_i; i < seed_end; ++i)
                ok &= verify(&c[i], &c[cub_i], h64, h32, stream);
            all_ok &= ok;

            double read = gbps(n, items[0].median_ms), lib = gbps(n, items[lib_i].median_ms);
            double cub = gbps(n, items[cub_i].median_ms), seed = 0.0;
            const double f32 = gbps(n, items[f32_i].median_ms);
            int seed_cluster = 0;
            for (int i = seed_i; i < seed_end; ++i)
                if (gbps(n, items[i].median_ms) > seed) {
                    seed = gbps(n, items[i].median_ms);
                    seed_cluster = c[i].cluster;
                }
            double tier_gbps[5] = {0, 0, 0, 0, 0};
            for (int t = 1; t <= 4; ++t)
                if (tier_item[t] >= 0)
                    tier_gbps[t] = gbps(n, items[tier_item[t]].median_ms);
            char planstr[32];
            snprintf(planstr, sizeof planstr, "%s/%d", gputile_hist_tier_name(plan.tier_used),
                     plan.tier_used == GPUTILE_HIST_TIER_DSM     ? plan.cluster_size_used
                     : plan.tier_used == GPUTILE_HIST_TIER_ROUTE ? plan.bins_per_block
                                                                 : plan.copies_used);
            if (o.csv) {
                printf("%s,%d,%zu,%.1f,%.1f,%.1f,%s,%d,%.1f,%.1f,%d,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f,%"
                       "d,%.1f,%.3f\n",
                       kinds[k], nbins, n, read, lib, 100.0 * lib / read,
                       gputile_hist_tier_name(plan.tier_used), plan.cluster_size_used, cub, seed,
                       seed_cluster, lib / cub, seed > 0 ? lib / seed : 0.0, tier_gbps[1],
                       tier_gbps[2], tier_gbps[3], tier_gbps[4], ok, f32, f32 / lib);
            } else {
                char tiers[48] = "";
                if (all_tiers)
                    snprintf(tiers, sizeof tiers, " %8.1f %8.1f %8.1f %8.1f", tier_gbps[1],
                             tier_gbps[2], tier_gbps[3], tier_gbps[4]);
                char seedstr[16] = "-";
                if (seed > 0)
                    snprintf(seedstr, sizeof seedstr, "(%d)", seed_cluster);
                printf("%-11s %8d %8.1f %8.1f %5.1f%% %-10s %8.1f %8.1f %-4s %7.2fx %7.2fx%s %8.1f "
                       "%6.2fx %s\n",
                       kinds[k], nbins, read, lib, 100.0 * lib / read, planstr, cub, seed, seedstr,
                       lib / cub, seed > 0 ? lib / seed : 0.0, tiers, f32, f32 / lib,
                       ok ? "yes" : "NO");
            }
            fflush(stdout);
            BENCH_CUDA(cudaFree(c[cub_i].temp));
        }
    if (!o.csv && !image_only)
        printf("GB/s of int32 input (%zu samples, %.2f GiB); plan: tier/copies (shared) or "
               "tier/cluster (dsm); seed (c): its best cluster size; f32: the same samples as "
               "floats (v + 0.5 over [0, nbins)), AUTO\n",
               n, (double)n * 4 / (1 << 30));
    all_ok &= bench_histogram_image(&o, image_row, stream) == 0;
    BENCH_CUDA(cudaFree(d));
    BENCH_CUDA(cudaFree(df));
    BENCH_CUDA(cudaFree(f_counts));
    BENCH_CUDA(cudaFree(counts));
    BENCH_CUDA(cudaFree(hist));
    BENCH_CUDA(cudaFree(seed_counts));
    BENCH_CUDA(cudaFree(sink));
    BENCH_CUDA(cudaStreamDestroy(stream));
    free(h64);
    free(h32);
    return all_ok ? 0 : 1;
}
