/* SPDX-License-Identifier: MIT */
/*
 * tma_pipeline.cuh: the Hopper (sm_90a) PTX of a TMA-fed shared-memory
 * pipeline: mbarriers, tensor loads and stores, and register reallocation
 * between warpgroups (internal; include only from files built for
 * sm_90a). PTX ISA references: "mbarrier", "cp.async.bulk.tensor",
 * "cp.async.bulk.commit_group", "cp.async.bulk.wait_group", "setmaxnreg".
 *
 * An mbarrier completes a phase when its pending arrivals reach zero and
 * its expected transaction bytes have all arrived; waiters name the phase
 * by its parity (0, 1, 0, ...). A TMA load counts its bytes (the whole box,
 * zero-filled parts included) against the mbarrier it names.
 */
#ifndef GPUTILE_TMA_PIPELINE_CUH
#define GPUTILE_TMA_PIPELINE_CUH

#include <stdint.h>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "tma_pipeline.cuh needs sm_90a: compile with -gencode arch=compute_90a,code=sm_90a"
#endif

static __device__ __forceinline__ uint32_t gputile__smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* One thread initialises; fence_init then a block barrier publish it. */
static __device__ __forceinline__ void gputile__mbar_init(uint64_t *bar, uint32_t arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(gputile__smem_addr(bar)),
                 "r"(arrivals)
                 : "memory");
}
static __device__ __forceinline__ void gputile__mbar_fence_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* This thread's arrival, announcing `bytes` more to come by transactions. */
static __device__ __forceinline__ void gputile__mbar_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(gputile__smem_addr(bar)),
        "r"(bytes)
        : "memory");
}
static __device__ __forceinline__ void gputile__mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(gputile__smem_addr(bar))
                 : "memory");
}

/* Waits until the phase of parity `parity` has completed. */
static __device__ __forceinline__ void gputile__mbar_wait(uint64_t *bar, uint32_t parity)
{
    const uint32_t a = gputile__smem_addr(bar);
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
    } while (!done);
}

/* The box of `map` at (x, y) of matrix z (x the contiguous dimension, z a
 * batch's problem: the map's third dimension; a single product is z = 0)
 * into dst; its bytes complete on bar. map: the address of a
 * __grid_constant__ kernel parameter (or of global memory) holding a
 * CUtensorMap. */
static __device__ __forceinline__ void gputile__tma_load_3d(void *dst, const void *map, int32_t x,
                                                            int32_t y, int32_t z, uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(gputile__smem_addr(dst)),
                 "l"((uint64_t)(uintptr_t)map), "r"(x), "r"(y), "r"(z), "r"(gputile__smem_addr(bar))
                 : "memory");
}
/* The box of `map` at (x, y) of matrix z from src (laid out as a load
 * of that box would leave it), written to global memory by the tensor
 * memory accelerator: the parts outside the map's dimensions are not
 * written. Asynchronous: commit it to a bulk group, and wait for the
 * group's reads before src is written again (and for the group before the
 * block exits). src: 128-byte aligned (1024 with 128-byte swizzle); the
 * generic-proxy writes to it published by gputile__fence_proxy_async()
 * and a barrier first. */
static __device__ __forceinline__ void gputile__tma_store_3d(const void *map, const void *src,
                                                             int32_t x, int32_t y, int32_t z)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group"
                 " [%0, {%1, %2, %3}], [%4];\n" ::"l"((uint64_t)(uintptr_t)map),
                 "r"(x), "r"(y), "r"(z), "r"(gputile__smem_addr(src))
                 : "memory");
}
static __device__ __forceinline__ void gputile__bulk_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
/* Waits until this thread's bulk groups have read their shared memory. */
static __device__ __forceinline__ void gputile__bulk_wait_read(void)
{
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
/* Waits until this thread's bulk groups have completed (their writes done). */
static __device__ __forceinline__ void gputile__bulk_wait(void)
{
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}
static __device__ __forceinline__ void gputile__tma_prefetch_map(const void *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)(uintptr_t)map) : "memory");
}

/* Register reallocation among the warpgroups of a block (all warps of a
 * warpgroup execute it): producers give registers up, consumers take them. */
template <int N>
static __device__ __forceinline__ void gputile__setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N>
static __device__ __forceinline__ void gputile__setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}

#endif /* GPUTILE_TMA_PIPELINE_CUH */
