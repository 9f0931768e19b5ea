/* SPDX-License-Identifier: MIT */
/*
 * pointer.c: where a raw pointer's memory lives (host pageable, host
 * pinned, device memory of the current or another device, managed): the
 * library's one classifier. Matrices (matrix.c), copies (staged_copy.c),
 * registrations (pinned.c) and the host GEMM ask it, and each decides what
 * a kind means for its own call.
 */
#include "internal.h"
#include "pinned_table.h"

cudaError_t gputile__pointer_kind_of(const void *p, size_t bytes, gputile__pointer_kind *kind)
{
    /* Ranges libgputile pinned itself need no question to the driver. */
    if (bytes != 0 && gputile__pin_covers(p, bytes)) {
        *kind = GPUTILE__POINTER_HOST_PINNED;
        return cudaSuccess;
    }
    struct cudaPointerAttributes attr;
    int current = -1;
    cudaError_t err = cudaPointerGetAttributes(&attr, p);
    if (err == cudaSuccess && attr.type == cudaMemoryTypeDevice)
        err = cudaGetDevice(&current);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
        return err;
    }
    switch (attr.type) {
    case cudaMemoryTypeDevice:
        *kind = attr.device == current ? GPUTILE__POINTER_DEVICE : GPUTILE__POINTER_DEVICE_OTHER;
        break;
    case cudaMemoryTypeManaged:
        *kind = GPUTILE__POINTER_MANAGED;
        break;
    case cudaMemoryTypeHost:
        *kind = GPUTILE__POINTER_HOST_PINNED;
        break;
    default: /* cudaMemoryTypeUnregistered */
        *kind = GPUTILE__POINTER_HOST_PAGEABLE;
        break;
    }
    return cudaSuccess;
}

cudaError_t gputile__pointer_is_device(const void *p, bool *device)
{
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, p);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
        return err;
    }
    *device = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
    return cudaSuccess;
}
