/* SPDX-License-Identifier: MIT */
/*
 * driver_entry.h: CUDA driver functions found through the runtime's entry
 * point (internal). The library links no libcuda; lib/ (pointer queries,
 * allocation ranges) and kernels/ (tensor maps) look the driver functions
 * they call up here, each once.
 */
#ifndef GPUTILE_DRIVER_ENTRY_H
#define GPUTILE_DRIVER_ENTRY_H

#include <cuda_runtime_api.h>

/* The driver's `name` with CUDA 12.0's signature: cudaSuccess and *fn, or
 * the lookup's error (cudaErrorNotSupported where the driver lacks it),
 * none left pending in the runtime. *slot keeps the function after the
 * first lookup (a race stores the same pointer twice). */
static inline cudaError_t gputile__driver_entry(const char *name, void **slot, void **fn)
{
    void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (f == NULL) {
        enum cudaDriverEntryPointQueryResult q;
        cudaError_t err = cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q);
        if (err == cudaSuccess && (q != cudaDriverEntryPointSuccess || f == NULL))
            err = cudaErrorNotSupported;
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            return err;
        }
        __atomic_store_n(slot, f, __ATOMIC_RELAXED);
    }
    *fn = f;
    return cudaSuccess;
}

#endif /* GPUTILE_DRIVER_ENTRY_H */
