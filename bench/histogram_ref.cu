/* SPDX-License-Identifier: MIT */
/*
 * histogram_ref.cu: gputile-bench histogram's references (see
 * histogram_ref.h). The seed kernel is the Programming Guide's section
 * 6.2.5 cluster histogram as printed there: one thread per sample in a
 * grid-stride loop, the cluster's shared memory split into nbins / cluster
 * bins per block, every sample an atomicAdd on the owning block's shared
 * memory (remote for (cluster - 1) / cluster of them), then a flush of each
 * block's slice with global atomics; 256 threads per block, grid n / 256.
 */

#include <cooperative_groups.h>
#include <cub/device/device_histogram.cuh>

#include "bench.h"
#include "histogram_ref.h"

namespace cg = cooperative_groups;

__device__ __forceinline__ uint32_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

static __global__ void fill_kernel(int32_t *d, size_t n, int kind, int32_t nbins)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint32_t h = mix(i + 0x9e3779b97f4a7c15ull);
        int32_t v;
        if (kind == BENCHREF_UNIFORM)
            v = (int32_t)(h % (uint32_t)nbins);
        else if (kind == BENCHREF_EQUAL)
            v = nbins / 2;
        else
            v = (int32_t)(((uint64_t)(h % 16u) * (uint64_t)nbins) / 16u);
        d[i] = v;
    }
}

extern "C" void benchref_fill(int32_t *d, size_t n, int kind, int32_t nbins, cudaStream_t stream)
{
    fill_kernel<<<1024, 256, 0, stream>>>(d, n, kind, nbins);
    BENCH_CUDA(cudaGetLastError());
}

extern "C" size_t benchref_cub_temp_bytes(const int32_t *d, size_t n, int32_t nbins, int *hist)
{
    size_t bytes = 0;
    BENCH_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d, hist, nbins + 1, 0, nbins,
                                                   (int64_t)n));
    return bytes;
}

extern "C" void benchref_cub(void *temp, size_t temp_bytes, const int32_t *d, size_t n,
                             int32_t nbins, int *hist, cudaStream_t stream)
{
    BENCH_CUDA(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d, hist, nbins + 1, 0, nbins,
                                                   (int64_t)n, stream));
}

/* ---- the Programming Guide's cluster histogram (6.2.5) ---------------------- */

static __global__ void clusterHist_kernel(int *bins, const int nbins, const int bins_per_block,
                                          const int *__restrict__ input, size_t array_size)
{
    extern __shared__ int smem[];
    int tid = cg::this_grid().thread_rank();

    // Cluster initialization, size and calculating local bin offsets.
    cg::cluster_group cluster = cg::this_cluster();

    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        smem[i] = 0; // Initialize shared memory histogram to zeros

    // cluster synchronization ensures that shared memory is initialized to zero in
    // all thread blocks in the cluster. It also ensures that all thread blocks
    // have started executing and they exist concurrently.
    cluster.sync();

    for (int i = tid; i < array_size; i += blockDim.x * gridDim.x) {
        int ldata = input[i];

        // Find the right histogram bin.
        int binid = ldata;
        if (ldata < 0)
            binid = 0;
        else if (ldata >= nbins)
            binid = nbins - 1;

        // Find destination block rank and offset for computing
        // distributed shared memory histogram
        int dst_block_rank = (int)(binid / bins_per_block);
        int dst_offset = binid % bins_per_block;

        // Pointer to target block shared memory
        int *dst_smem = cluster.map_shared_rank(smem, dst_block_rank);

        // Perform atomic update of the histogram bin
        atomicAdd(dst_smem + dst_offset, 1);
    }

    // cluster synchronization is required to ensure all distributed shared
    // memory operations are completed and no thread block exits while
    // other thread blocks are still accessing distributed shared memory
    cluster.sync();

    // Perform global memory histogram, using the local distributed memory histogram
    int *lbins = bins + cluster.block_rank() * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        atomicAdd(&lbins[i], smem[i]);
}

#define SEED_THREADS 256

static void seed_config(cudaLaunchConfig_t *config, cudaLaunchAttribute *attr, size_t n,
                        int32_t nbins, int cluster, cudaStream_t stream)
{
    size_t blocks = (n + SEED_THREADS - 1) / SEED_THREADS;
    blocks = (blocks + cluster - 1) / cluster * cluster;
    *config = cudaLaunchConfig_t{};
    config->gridDim = dim3((unsigned)blocks);
    config->blockDim = dim3(SEED_THREADS);
    config->dynamicSmemBytes = (size_t)(nbins / cluster) * sizeof(int);
    config->stream = stream;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config->numAttrs = 1;
    config->attrs = attr;
}

extern "C" int benchref_seed_ok(int32_t nbins, int cluster)
{
    int dev, optin, can_cluster;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&can_cluster, cudaDevAttrClusterLaunch, dev));
    if (!can_cluster || nbins % cluster != 0 ||
        (size_t)(nbins / cluster) * sizeof(int) > (size_t)optin)
        return 0;
    BENCH_CUDA(cudaFuncSetAttribute((const void *)clusterHist_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    BENCH_CUDA(cudaFuncSetAttribute((const void *)clusterHist_kernel,
                                    cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config;
    cudaLaunchAttribute attr[1];
    seed_config(&config, attr, (size_t)16 * 720720 * SEED_THREADS, nbins, cluster, 0);
    int max_cluster = 0;
    BENCH_CUDA(cudaOccupancyMaxPotentialClusterSize(&max_cluster, (const void *)clusterHist_kernel,
                                                    &config));
    return cluster <= max_cluster;
}

extern "C" void benchref_seed(const int32_t *d, size_t n, int32_t nbins, int cluster, int *hist,
                              cudaStream_t stream)
{
    cudaLaunchConfig_t config;
    cudaLaunchAttribute attr[1];
    seed_config(&config, attr, n, nbins, cluster, stream);
    BENCH_CUDA(cudaLaunchKernelEx(&config, clusterHist_kernel, hist, (int)nbins,
                                  (int)(nbins / cluster), (const int *)d, n));
}
