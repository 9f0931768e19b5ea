/* SPDX-License-Identifier: MIT */
/*
 * pointer.c: where a raw pointer's memory lives (host pageable, host
 * pinned, device memory of the current or another device, managed): the
 * library's one classifier. Matrices (matrix.c), copies (staged_copy.c),
 * registrations (pinned.c) and the host GEMM ask it, and each decides what
 * a kind means for its own call.
 */
#include <cuda.h>

#include "internal.h"
#include "../kernels/driver_entry.h"
#include "pinned_table.h"

cudaError_t gputile__pointer_kind_of(const void *p, size_t bytes, gputile__pointer_kind *kind)
{
    /* Ranges libgputile pinned itself need no question to the driver; one
     * that runs outside what was pinned is pageable to its caller (the
     * library's memcpy moves it), wherever it starts. */
    const gputile__pin_cover c = bytes != 0 ? gputile__pin_covers(p, bytes) : GPUTILE__PIN_NONE;
    if (c != GPUTILE__PIN_NONE) {
        *kind = c == GPUTILE__PIN_INSIDE ? GPUTILE__POINTER_HOST_PINNED
                                         : GPUTILE__POINTER_HOST_PAGEABLE;
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

/* cuPointerGetAttributes through the runtime's entry point (the library
 * links no libcuda), or NULL where the driver does not offer it. */
typedef CUresult (*attrs_fn)(unsigned n, CUpointer_attribute *attrs, void **data, CUdeviceptr p);

static attrs_fn driver_attrs(void)
{
    static void *slot;
    static int unavailable; /* the lookup failed: the runtime's question only */
    void *fn = NULL;
    if (__atomic_load_n(&unavailable, __ATOMIC_RELAXED))
        return NULL;
    if (gputile__driver_entry("cuPointerGetAttributes", &slot, &fn) != cudaSuccess) {
        __atomic_store_n(&unavailable, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    return (attrs_fn)fn;
}

/* The driver's own question first: two attributes in one call, which
 * costs less than the runtime's (internal.h). Memory the driver does not
 * know (pageable) reads as type 0, not an error. On any driver error the
 * runtime is asked instead. */
cudaError_t gputile__pointer_is_device(const void *p, bool *device)
{
    const attrs_fn f = driver_attrs();
    if (f != NULL) {
        CUpointer_attribute at[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     CU_POINTER_ATTRIBUTE_IS_MANAGED};
        unsigned int type = 0;
        int managed = 0;
        void *data[2] = {&type, &managed};
        if (f(2, at, data, (CUdeviceptr)(uintptr_t)p) == CUDA_SUCCESS) {
            *device = type == CU_MEMORYTYPE_DEVICE || managed != 0;
            return cudaSuccess;
        }
    }
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, p);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
        return err;
    }
    *device = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
    return cudaSuccess;
}
