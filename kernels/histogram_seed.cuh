/* SPDX-License-Identifier: MIT */
/*
 * histogram_seed.cuh: the seed's tier, the CUDA Programming Guide's
 * distributed-shared-memory histogram ("Distributed Shared Memory",
 * clusterHist_kernel): a cluster of C blocks holds one copy of the
 * histogram, block rank r bins [r * slice, (r + 1) * slice) in its shared
 * memory, and every sample's bin is incremented with an atomic on the
 * owning block's shared memory through cluster.map_shared_rank(), remote
 * for C - 1 of every C samples. Clusters add their copy to the 64-bit
 * counts at the end.
 *
 * Kept as a named tier (GPUTILE_HIST_TIER_SEED) like the seed's naive and
 * tiled GEMMs: the reference the other tiers are measured against. Unlike
 * the Guide's one-sample-per-thread grid it runs on a persistent grid with
 * 16-byte loads (grid-stride), the form in which it is fastest; its limit
 * is the remote atomics (about 200 cycles each), not the reads, so AUTO
 * never picks it (man 3 gputile_histogram has the figures).
 * Included once, by kernels/histogram.cu (its static kernels stay in one
 * translation unit).
 */
#ifndef GPUTILE_KERNELS_HISTOGRAM_SEED_CUH
#define GPUTILE_KERNELS_HISTOGRAM_SEED_CUH

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "histogram.h"
#include "histogram_samples.cuh"

namespace cg = cooperative_groups;

#define THREADS GPUTILE__HIST_SMEM_THREADS

/* One sample of bin b (NO_BIN: none) into the block that owns it. */
__device__ __forceinline__ void seed_add(cg::cluster_group &cluster, uint32_t *sh, uint32_t b,
                                         uint32_t slice)
{
    if (b == NO_BIN)
        return;
    uint32_t *owner = cluster.map_shared_rank(sh, b / slice);
    atomicAdd(owner + b % slice, 1u);
}

template <typename Bin>
static __global__ void __launch_bounds__(THREADS)
    hist_seed_kernel(part<Bin> p, Bin bin, uint32_t nbins, uint32_t slice,
                     unsigned long long *counts)
{
    typedef typename Bin::vec V;
    extern __shared__ uint32_t sh[];
    cg::cluster_group cluster = cg::this_cluster();
    const uint32_t rank = cluster.block_rank();
    const uint32_t csize = cluster.num_blocks();
    const uint32_t group = blockIdx.x / csize, groups = gridDim.x / csize;

    for (uint32_t i = threadIdx.x; i < slice; i += blockDim.x)
        sh[i] = 0;
    cluster.sync(); /* every block's bins are zero before anyone adds */

    if (group == 0 && rank == 0) {
        if (threadIdx.x < p.head_n)
            seed_add(cluster, sh, bin(p.head[threadIdx.x]), slice);
        if (threadIdx.x < p.tail_n)
            seed_add(cluster, sh, bin(p.tail[threadIdx.x]), slice);
    }
    /* The cluster's blocks share its input: consecutive vectors across them. */
    const uint32_t step = groups * csize * blockDim.x;
    for (uint32_t i = (group * csize + rank) * blockDim.x + threadIdx.x; i < p.nvec; i += step) {
        const V v = __ldg(p.body + i);
#pragma unroll
        for (int k = 0; k < Bin::per_vec; ++k)
            seed_add(cluster, sh, bin(Bin::at(v, k)), slice);
    }
    cluster.sync(); /* every remote add has landed before the owners read */

    const uint32_t lo = rank * slice;
    for (uint32_t i = threadIdx.x; i < slice && lo + i < nbins; i += blockDim.x)
        if (sh[i] != 0)
            atomicAdd(counts + lo + i, (unsigned long long)sh[i]);
}

template <typename Bin>
static cudaError_t hist_seed_launch(const gputile__hist_launch *l, const part<Bin> &p, Bin bin,
                                    uint32_t nbins, unsigned long long *counts, cudaStream_t stream)
{
    const void *k = (const void *)hist_seed_kernel<Bin>;
    cudaError_t err = gputile__hist_allow_smem(k, l->smem_optin);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (err != cudaSuccess)
        return err;
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attr[1];
    config.gridDim = dim3((unsigned)l->blocks);
    config.blockDim = dim3((unsigned)l->threads);
    config.dynamicSmemBytes = l->smem;
    config.stream = stream;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)l->cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, hist_seed_kernel<Bin>, p, bin, nbins, (uint32_t)l->slice,
                              counts);
}

static const void *seed_kernel(int type)
{
    switch (type) {
#define SEED_KERNEL(id, bin, bytes, vw) \
    case GPUTILE__HIST_SAMPLE_##id:     \
        return (const void *)hist_seed_kernel<bin>;
        GPUTILE__HIST_SAMPLE_TYPES(SEED_KERNEL)
#undef SEED_KERNEL
    }
    return NULL;
}

#undef THREADS

#endif /* GPUTILE_KERNELS_HISTOGRAM_SEED_CUH */
