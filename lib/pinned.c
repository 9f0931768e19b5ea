/* SPDX-License-Identifier: MIT */
/*
 * pinned.c: pinned host memory: allocation with flags, registration of
 * existing memory (any address and length, rounded out to whole pages), and
 * the device address of mapped memory. Every range is recorded in the pin
 * table (pinned_table.c), so unknown and double-freed pointers and repeated
 * registrations are answered with a status, and no CUDA call is made for
 * them. Which flags each call accepts and what they become for CUDA comes
 * from the flag table in pinned_table.h; device facts from device.c's cache.
 */
#include <unistd.h>

#include "pinned_table.h"

unsigned gputile__host_alloc_flags(unsigned flags)
{
    unsigned f = cudaHostAllocDefault;
#define GPUTILE__PINNED_ALLOC_BIT(flag, alloc, reg, for_alloc, for_reg, for_pool) \
    if (flags & (flag))                                                           \
        f |= (alloc);
    GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_ALLOC_BIT)
#undef GPUTILE__PINNED_ALLOC_BIT
    return f;
}

unsigned gputile__host_register_flags(unsigned flags)
{
    unsigned f = cudaHostRegisterDefault;
#define GPUTILE__PINNED_REGISTER_BIT(flag, alloc, reg, for_alloc, for_reg, for_pool) \
    if (flags & (flag))                                                              \
        f |= (reg);
    GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_REGISTER_BIT)
#undef GPUTILE__PINNED_REGISTER_BIT
    return f;
}

gputile_status gputile__check_pinned_flags(unsigned flags)
{
    if (flags & ~GPUTILE__PINNED_KNOWN_FLAGS)
        return GPUTILE_ERROR_INVALID_VALUE;
    const gputile__device *dev;
    gputile_status s = gputile__device_current(&dev);
    if (s == GPUTILE_SUCCESS && (flags & GPUTILE_PINNED_MAPPED) && !dev->can_map_host)
        s = GPUTILE_ERROR_UNSUPPORTED;
    return s;
}

gputile_status gputile_pinned_alloc(void **ptr, size_t bytes, unsigned flags)
{
    if (ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0 || (flags & ~GPUTILE__PINNED_ALLOC_FLAGS))
        return GPUTILE_ERROR_INVALID_VALUE;
    gputile_status s = gputile__check_pinned_flags(flags);
    if (s != GPUTILE_SUCCESS)
        return s;

    void *p = NULL;
    cudaError_t err = cudaHostAlloc(&p, bytes, gputile__host_alloc_flags(flags));
    if (err != cudaSuccess) /* cleared by gputile__cuda_status(): not sticky */
        return gputile__cuda_status(err);
    gputile__pin e = {.lo = (uintptr_t)p,
                      .hi = (uintptr_t)p + bytes,
                      .key = p,
                      .bytes = bytes,
                      .flags = flags,
                      .kind = GPUTILE__PIN_ALLOC};
    gputile__pin_lock();
    bool ok = gputile__pin_insert(&e);
    gputile__pin_unlock();
    if (!ok) {
        (void)cudaFreeHost(p);
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    }
    *ptr = p;
    return GPUTILE_SUCCESS;
}

gputile_status gputile_pinned_free(void *ptr)
{
    if (ptr == NULL)
        return GPUTILE_SUCCESS;
    gputile__pin_lock();
    gputile__pin *e = gputile__pin_find((uintptr_t)ptr);
    bool mine = e != NULL && e->key == ptr && e->kind == GPUTILE__PIN_ALLOC;
    if (mine)
        gputile__pin_remove(e); /* a second free, even a concurrent one, now misses */
    gputile__pin_unlock();
    if (!mine)
        return GPUTILE_ERROR_UNKNOWN_POINTER;
    return gputile__cuda_status(cudaFreeHost(ptr));
}

/* True when the driver already knows the first or last page of [lo, hi) as
 * pinned host memory. */
static bool pinned_elsewhere(uintptr_t lo, uintptr_t hi)
{
    const uintptr_t probe[2] = {lo, hi - 1};
    for (int i = 0; i < 2; ++i) {
        gputile__pointer_kind kind; /* bytes = 0: the driver's view, not our table's */
        if (gputile__pointer_kind_of((const void *)probe[i], 0, &kind) == cudaSuccess &&
            kind == GPUTILE__POINTER_HOST_PINNED)
            return true;
    }
    return false;
}

gputile_status gputile__pin_register(void *ptr, size_t bytes, unsigned flags, int kind)
{
    if (ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0 || (flags & ~GPUTILE__PINNED_REGISTER_FLAGS))
        return GPUTILE_ERROR_INVALID_VALUE;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t a = (uintptr_t)ptr;
    if (bytes > UINTPTR_MAX - a || a + bytes > UINTPTR_MAX - (page - 1))
        return GPUTILE_ERROR_OVERFLOW;
    const uintptr_t lo = a & ~(page - 1), hi = (a + bytes + page - 1) & ~(page - 1);

    const gputile__device *dev;
    gputile_status s = gputile__check_pinned_flags(flags);
    if (s == GPUTILE_SUCCESS)
        s = gputile__device_current(&dev);
    if (s == GPUTILE_SUCCESS && !dev->host_register)
        s = GPUTILE_ERROR_UNSUPPORTED;
    if (s != GPUTILE_SUCCESS)
        return s;

    /* Reserve the pages first, so that a concurrent registration of an
     * overlapping range fails here rather than inside the driver. */
    gputile__pin e = {.lo = lo,
                      .hi = hi,
                      .key = ptr,
                      .bytes = bytes,
                      .flags = flags,
                      .kind = GPUTILE__PIN_REGISTER_PENDING};
    gputile__pin_lock();
    if (gputile__pin_overlaps(lo, hi))
        s = GPUTILE_ERROR_ALREADY_REGISTERED;
    else if (!gputile__pin_insert(&e))
        s = GPUTILE_ERROR_OUT_OF_MEMORY;
    gputile__pin_unlock();
    if (s != GPUTILE_SUCCESS)
        return s;

    /* Pinned by someone else (cudaHostAlloc, cudaHostRegister outside
     * libgputile): the driver's own error for that varies, so ask first. */
    cudaError_t err = cudaErrorHostMemoryAlreadyRegistered;
    const bool asked = !pinned_elsewhere(lo, hi);
    if (asked)
        err = cudaHostRegister((void *)lo, hi - lo, gputile__host_register_flags(flags));

    gputile__pin_lock();
    gputile__pin *mine = gputile__pin_find(lo);
    if (err == cudaSuccess)
        mine->kind = kind;
    else
        gputile__pin_remove(mine);
    gputile__pin_unlock();
    if (err == cudaSuccess)
        return GPUTILE_SUCCESS;
    if (err == cudaErrorHostMemoryAlreadyRegistered) {
        if (asked)                    /* the driver saw a registration the question missed */
            (void)cudaGetLastError(); /* not sticky: leave no trace for the caller */
        return GPUTILE_ERROR_ALREADY_REGISTERED;
    }
    return gputile__cuda_status(err);
}

gputile_status gputile__pin_unregister(const void *ptr, int kind)
{
    if (ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    gputile__pin_lock();
    gputile__pin *e = gputile__pin_find((uintptr_t)ptr);
    bool mine = e != NULL && e->key == ptr && e->kind == kind;
    uintptr_t lo = mine ? e->lo : 0;
    if (mine)
        gputile__pin_remove(e);
    gputile__pin_unlock();
    if (!mine)
        return GPUTILE_ERROR_UNKNOWN_POINTER;
    return gputile__cuda_status(cudaHostUnregister((void *)lo));
}

gputile_status gputile_pinned_register(void *ptr, size_t bytes, unsigned flags)
{
    return gputile__pin_register(ptr, bytes, flags, GPUTILE__PIN_REGISTER);
}

gputile_status gputile_pinned_unregister(void *ptr)
{
    return gputile__pin_unregister(ptr, GPUTILE__PIN_REGISTER);
}

gputile_status gputile_pinned_device_pointer(void **device_ptr, const void *host_ptr)
{
    if (device_ptr == NULL || host_ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    const uintptr_t h = (uintptr_t)host_ptr;
    uintptr_t lo = 0;
    gputile_status s = GPUTILE_SUCCESS;
    gputile__pin_lock();
    const gputile__pin *e = gputile__pin_find(h);
    if (e == NULL || e->kind == GPUTILE__PIN_REGISTER_PENDING ||
        e->kind == GPUTILE__PIN_POOL_CACHED)
        s = GPUTILE_ERROR_UNKNOWN_POINTER;
    else if (!(e->flags & GPUTILE_PINNED_MAPPED))
        s = GPUTILE_ERROR_INVALID_VALUE;
    else
        lo = e->lo;
    gputile__pin_unlock();
    if (s != GPUTILE_SUCCESS)
        return s;
    void *d = NULL;
    cudaError_t err = cudaHostGetDevicePointer(&d, (void *)lo, 0);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    *device_ptr = (char *)d + (h - lo);
    return GPUTILE_SUCCESS;
}
