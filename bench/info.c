/* SPDX-License-Identifier: MIT */
/*
 * info.c: gputile-bench info: the device's memory hierarchy as the CUDA
 * literature teaches it, the two ceilings measured now, and the CGMA of
 * each GEMM algorithm computed from its tile shape.
 */
#include <stdio.h>

#include "bench.h"
#include "gputile.h"
#include "../tests/support/variants.h"

#include "../kernels/kernels.h" /* internal: the cp.async rows' residency */

static const char info_usage[] = "usage: gputile-bench info [--runs N] [--warmup N]\n";

int bench_info(int argc, char **argv)
{
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    for (int i = 1; i < argc; ++i)
        return bench_usage(info_usage, bench_is_help(argv[i]));
    bench_require_device("info");
    int dev;
    struct cudaDeviceProp p;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaGetDeviceProperties(&p, dev));
    int cluster = 0, optin = 0;
    BENCH_CUDA(cudaDeviceGetAttribute(&cluster, cudaDevAttrClusterLaunch, dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));

    printf("%s, compute capability %d.%d, %d SMs, libgputile %s\n\n", p.name, p.major, p.minor,
           p.multiProcessorCount, gputile_version_string());
    printf("memory space         scope          size\n");
    printf("registers            thread         %d x 32-bit per SM, %d per block, up to 255 per "
           "thread\n",
           p.regsPerMultiprocessor, p.regsPerBlock);
    printf(
        "shared memory        block          %zu KiB per SM, %zu KiB per block (%d KiB opt-in)\n",
        p.sharedMemPerMultiprocessor / 1024, p.sharedMemPerBlock / 1024, optin / 1024);
    printf(
        "distributed shared   cluster        %s; 8 blocks per cluster portable, 16 non-portable\n",
        cluster ? "yes (thread-block clusters)" : "no clusters on this device");
    printf("constant memory      grid           %zu KiB\n", p.totalConstMem / 1024);
    printf("L2 cache             device         %d MiB\n", p.l2CacheSize >> 20);
    int mem_khz = 0;
    BENCH_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
    printf("global memory        device         %.1f GiB, %d-bit bus, %.0f MHz (peak %.0f GB/s)\n",
           p.totalGlobalMem / 1073741824.0, p.memoryBusWidth, mem_khz / 1e3,
           2.0 * mem_khz * 1e3 * p.memoryBusWidth / 8 / 1e9);

    cudaStream_t s;
    BENCH_CUDA(cudaStreamCreate(&s));
    bench_progress("measuring the FFMA rate and the read bandwidth");
    const double peak = bench_ffma_tflops(&o, s), bw = bench_read_gbs(&o, s);
    BENCH_CUDA(cudaStreamDestroy(s));
    printf("\nmeasured now: FFMA %.1f TFLOP/s, device read %.0f GB/s; balance %.1f FLOP per byte\n",
           peak, bw, peak * 1e12 / (bw * 1e9));
    /* Per block and k step, a bm x bn tile loads bm + bn floats for bm bn
     * FMAs (the naive kernel, one element per thread with no reuse: 2 per 1);
     * the rows of kernels/gemm_variants.h. */
    printf("\nGEMM variant          precision  tile        global loads per FMA   CGMA (FMAs per "
           "load)\n");
    for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v) {
        const struct gputest_variant *r = &gputest_variants[v];
        const double loads = r->algorithm == GPUTILE_ALGO_NAIVE ? 2 : r->bm + r->bn;
        const double fmas = r->algorithm == GPUTILE_ALGO_NAIVE ? 1 : (double)r->bm * r->bn;
        char tile[32];
        snprintf(tile, sizeof tile, "%dx%d", r->bm, r->bn);
        printf("%-21s %-10s %-11s %20.4f %22.1f\n", r->id,
               r->precision == GPUTILE_PRECISION_FP32   ? "fp32"
               : r->precision == GPUTILE_PRECISION_TF32 ? "tf32"
                                                        : "3xtf32",
               tile, loads / fmas, fmas / loads);
    }
    if (cluster) {
        /* clusters are placed whole in one GPC: the resident blocks of a
         * cp.async row when its splits of k run as clusters of S */
        printf("\ncp.async row     blocks resident at once: unclustered, then in clusters of S = "
               "2..8\n");
        for (size_t v = 0; v < GPUTEST_N_VARIANTS; ++v) {
            const struct gputest_variant *r = &gputest_variants[v];
            if (!(r->flags & GPUTILE__GEMM_ASYNC))
                continue;
            int per_sm = 0;
            BENCH_CUDA(gputile__gemm_async_blocks_per_sm((int)v, 0, 0, 0, 0, &per_sm));
            printf("%-16s %5d  ", r->id, per_sm * p.multiProcessorCount);
            for (int c = 2; c <= 8; ++c) {
                int n = 0;
                BENCH_CUDA(gputile__gemm_async_max_clusters((int)v, c, &n));
                printf(" %5d", n * c);
            }
            printf("\n");
        }
    }
    printf("\nA kernel stays off the bandwidth roof while its loads per FMA, times 4 bytes, are\n"
           "below the device's bytes per FMA (%.3f); caches and L2 reuse push naive further.\n",
           2 * bw * 1e9 / (peak * 1e12));
    return 0;
}
