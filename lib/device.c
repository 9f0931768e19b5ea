/* SPDX-License-Identifier: MIT */
/*
 * device.c: the facts about a device that planners use (SM count, shared
 * memory, clusters, compute capability, host mapping), asked of the driver
 * once per device and process and kept. Attributes of a device never change
 * while a process runs, so the cache needs no invalidation; a failed query
 * is not cached (the next call asks again).
 */
#include <pthread.h>

#include "internal.h"

static gputile__device cache[GPUTILE__MAX_DEVICES];
static int ready[GPUTILE__MAX_DEVICES]; /* read and written with acquire/release */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static cudaError_t query(int dev, gputile__device *d)
{
    static const struct {
        enum cudaDeviceAttr attr;
        size_t offset;
    } rows[] = {
        {cudaDevAttrMultiProcessorCount, offsetof(gputile__device, sms)},
        {cudaDevAttrComputeCapabilityMajor, offsetof(gputile__device, major)},
        {cudaDevAttrComputeCapabilityMinor, offsetof(gputile__device, minor)},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, offsetof(gputile__device, smem_optin)},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, offsetof(gputile__device, smem_per_sm)},
        {cudaDevAttrReservedSharedMemoryPerBlock, offsetof(gputile__device, smem_reserved)},
        {cudaDevAttrClusterLaunch, offsetof(gputile__device, clusters)},
        {cudaDevAttrCanMapHostMemory, offsetof(gputile__device, can_map_host)},
        {cudaDevAttrHostRegisterSupported, offsetof(gputile__device, host_register)},
        {cudaDevAttrMemoryClockRate, offsetof(gputile__device, mem_clock_khz)},
        {cudaDevAttrGlobalMemoryBusWidth, offsetof(gputile__device, mem_bus_bits)},
    };
    d->ordinal = dev;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        cudaError_t err =
            cudaDeviceGetAttribute((int *)((char *)d + rows[i].offset), rows[i].attr, dev);
        if (err != cudaSuccess)
            return err;
    }
    size_t free_mem; /* of the current device, which dev is */
    return cudaMemGetInfo(&free_mem, &d->total_mem);
}

cudaError_t gputile__device_lookup(const gputile__device **out)
{
    int dev;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess && (dev < 0 || dev >= GPUTILE__MAX_DEVICES))
        err = cudaErrorInvalidDevice;
    if (err == cudaSuccess && !__atomic_load_n(&ready[dev], __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!ready[dev]) {
            gputile__device d;
            err = query(dev, &d);
            if (err == cudaSuccess) {
                cache[dev] = d;
                __atomic_store_n(&ready[dev], 1, __ATOMIC_RELEASE);
            }
        }
        pthread_mutex_unlock(&lock);
    }
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
        return err;
    }
    *out = &cache[dev];
    return cudaSuccess;
}

gputile_status gputile__device_current(const gputile__device **out)
{
    return gputile__cuda_status(gputile__device_lookup(out));
}

gputile_status gputile__device_enter(cudaStream_t stream, int *previous)
{
    int current, own;
    *previous = -1;
    cudaError_t err = cudaGetDevice(&current);
    if (err == cudaSuccess)
        err = cudaStreamGetDevice(stream, &own);
    if (err == cudaSuccess && own != current && (err = cudaSetDevice(own)) == cudaSuccess)
        *previous = current;
    return gputile__cuda_status(err);
}

void gputile__device_leave(int previous)
{
    if (previous >= 0 && cudaSetDevice(previous) != cudaSuccess)
        (void)cudaGetLastError(); /* the call's own status stands */
}
