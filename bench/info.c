/* SPDX-License-Identifier: MIT */
/*
 * info.c: gputile-bench info: the device's memory hierarchy as the CUDA
 * literature teaches it, the two ceilings measured now, and the CGMA of
 * each GEMM algorithm computed from its tile shape.
 */
#include <stdio.h>

#include "bench.h"
#include "gputile.h"

/* Tile shapes of libgputile's GEMM algorithms (kernels/gemm_*.cu): per
 * block and per k step, `loads` floats come from global memory for `fmas`
 * fused multiply-adds. */
static const struct {
    int algorithm;
    const char *shape;
    double loads, fmas;
} tiles[] = {
    {GPUTILE_ALGO_NAIVE, "1 element of C per thread, no reuse", 2, 1},
    {GPUTILE_ALGO_TILED, "16x16 shared tiles", 2.0 * 16 * 16, 16.0 * 16 * 16},
    {GPUTILE_ALGO_REGBLOCK_64, "64x64 tiles, 8x8 per thread", 64 + 64, 64.0 * 64},
    {GPUTILE_ALGO_REGBLOCK_128, "128x128 tiles, 8x8 per thread", 128 + 128, 128.0 * 128},
    {GPUTILE_ALGO_REGBLOCK_128_W64, "128x128 tiles, 16x8 per thread", 128 + 128, 128.0 * 128},
    {GPUTILE_ALGO_REGBLOCK_128X256, "128x256 tiles, 16x8 per thread", 128 + 256, 128.0 * 256},
    {GPUTILE_ALGO_REGBLOCK_64X128, "64x128 tiles, 8x8 per thread", 64 + 128, 64.0 * 128},
    {GPUTILE_ALGO_REGBLOCK_64X128_X3, "64x128 tiles, 8x8 per thread, 3 per SM", 64 + 128, 64.0 * 128},
};

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
    printf("registers            thread         %d x 32-bit per SM, %d per block, up to 255 per thread\n",
           p.regsPerMultiprocessor, p.regsPerBlock);
    printf("shared memory        block          %zu KiB per SM, %zu KiB per block (%d KiB opt-in)\n",
           p.sharedMemPerMultiprocessor / 1024, p.sharedMemPerBlock / 1024, optin / 1024);
    printf("distributed shared   cluster        %s; 8 blocks per cluster portable, 16 non-portable\n",
           cluster ? "yes (thread-block clusters)" : "no clusters on this device");
    printf("constant memory      grid           %zu KiB\n", p.totalConstMem / 1024);
    printf("L2 cache             device         %d MiB\n", p.l2CacheSize >> 20);
    printf("global memory        device         %.1f GiB, %d-bit bus\n", p.totalGlobalMem / 1073741824.0,
           p.memoryBusWidth);

    cudaStream_t s;
    BENCH_CUDA(cudaStreamCreate(&s));
    bench_progress("measuring the FFMA rate and the read bandwidth");
    const double peak = bench_ffma_tflops(&o, s), bw = bench_read_gbs(&o, s);
    BENCH_CUDA(cudaStreamDestroy(s));
    printf("\nmeasured now: FFMA %.1f TFLOP/s, device read %.0f GB/s; balance %.1f FLOP per byte\n",
           peak, bw, peak * 1e12 / (bw * 1e9));
    printf("\nGEMM algorithm     tile shape                         global loads per FMA   CGMA (FMAs per load)\n");
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; ++i)
        printf("%-18s %-34s %20.4f %22.1f\n", gputile_algorithm_name(tiles[i].algorithm), tiles[i].shape,
               tiles[i].loads / tiles[i].fmas, tiles[i].fmas / tiles[i].loads);
    printf("\nA kernel stays off the bandwidth roof while its loads per FMA, times 4 bytes, are\n"
           "below the device's bytes per FMA (%.3f); caches and L2 reuse push naive further.\n",
           2 * bw * 1e9 / (peak * 1e12));
    return 0;
}
